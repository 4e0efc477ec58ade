"""Exact geometry of planar linkages and cams (front plane, z = 0): a bar's end, where two
circles meet (a four-bar's or slider-crank's closing joint), Grashof's rule, and a cam's
profile (a base circle plus a lift that rises and falls between knots by simple harmonic
motion, flat between knots of one lift: a dwell)."""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]


def bar_end(centre: Sequence[float], length: float, angle: float) -> Point:
    """The far end of a bar from ``centre`` at ``angle`` (radians)."""
    return (float(centre[0]) + length * math.cos(angle),
            float(centre[1]) + length * math.sin(angle))


def circles_meet(a: Point, ra: float, b: Point, rb: float, left: bool) -> Point | None:
    """The point at distance ``ra`` from ``a`` and ``rb`` from ``b`` on the left of a->b
    (``left``) or on its right; None when the circles do not cross."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    if d == 0 or not abs(ra - rb) < d < ra + rb:
        return None
    along = (d * d + ra * ra - rb * rb) / (2 * d)
    up = math.sqrt(max(0.0, ra * ra - along * along)) * (1 if left else -1)
    return (a[0] + (along * dx - up * dy) / d, a[1] + (along * dy + up * dx) / d)


def slider_crank_speeds(crank: float, rod: float, side: int, theta: float,
                        w: float) -> tuple[float, float]:
    """An in-line slider-crank's crank pin speed along the guide and its slider's speed,
    the crank (pivot on the guide's line, the slider ``side`` of it: +1 right) at angle
    ``theta`` turning at ``w`` (counterclockwise positive): the slider at ``r cos theta +
    side sqrt(L^2 - r^2 sin^2 theta)`` moves at ``-r sin theta w (1 + side r cos theta /
    sqrt(L^2 - r^2 sin^2 theta))``."""
    s, c = math.sin(theta), math.cos(theta)
    pin_speed = -crank * s * w
    return pin_speed, pin_speed * (1 + side * crank * c / math.sqrt(rod * rod -
                                                                   crank * crank * s * s))


def crank_turns_fully(crank: int, coupler: int, rocker: int, ground: int) -> bool:
    """Grashof's rule: the crank of a four-bar turns all the way round when the shortest
    and longest links together are shorter than the other two (a Grashof linkage) and
    the shortest link is the crank or the ground (a crank-rocker or a double crank)."""
    links = sorted((crank, coupler, rocker, ground))
    return links[0] + links[3] < links[1] + links[2] and min(crank, ground) == links[0]


def cam_lift(knots: Sequence[float], angle_deg: float) -> float:
    """The lift of a cam profile at ``angle_deg`` of the cam's own frame: ``knots`` is
    (angle, lift, angle, lift, ...) with angles rising from 0 below 360; between two knots
    the lift moves by simple harmonic motion, and after the last it returns to the
    first's."""
    start, end, h0, h1 = cam_segment(knots, angle_deg)
    a = angle_deg % 360.0
    at = a if a >= start else a + 360.0
    t = (at - start) / (end - start)
    return h0 + (h1 - h0) * (1.0 - math.cos(math.pi * t)) / 2.0


def cam_segment(knots: Sequence[float], angle_deg: float) -> tuple[float, float, float, float]:
    """(start, end, lift at start, lift at end) of the profile's segment holding
    ``angle_deg`` (end may pass 360)."""
    a = angle_deg % 360.0
    pairs = list(zip(knots[0::2], knots[1::2], strict=True))
    for k, (start, h0) in enumerate(pairs):
        end, h1 = pairs[k + 1] if k + 1 < len(pairs) else (pairs[0][0] + 360.0, pairs[0][1])
        at = a if a >= start else a + 360.0
        if start <= at < end:
            return start, end, h0, h1
    raise ValueError(f"cam knots {list(knots)} do not cover {angle_deg} degrees")
