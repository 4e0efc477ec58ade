"""The outlines of a worm (a screw on a horizontal axle, seen from the side, driving a worm
wheel below it), in world coordinates of the front plane:

- its body with the thread's profile on its top and bottom edges (rack-like teeth, one
  axial pitch ``pi`` apart, the bottom ones interleaving with the wheel's teeth);
- the thread's crests on the near side, slanted lines from a top crest to a bottom crest
  half a lead along the axle: a right-hand thread runs down to the right ("\\"), a
  left-hand one down to the left ("/"), so the hand reads from the picture;
- its shaft, and beside its right end the worm seen from that end: a disc around which
  its motion arrow is drawn (counterclockwise on the page is counterclockwise as seen
  from the right end, the sense the question states).
"""

from __future__ import annotations

import math

import numpy as np

from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.mechanisms import Part

HALF_LENGTH = 2.5 * math.pi  # half the worm's threaded length (five axial pitches)
SHAFT_OUT = 2.0  # the shaft beyond each end of the thread
END_GAP = 2.0  # between the shaft's right end and the end view's disc


def hand_sign(worm: Part) -> int:
    """+1 for a right-hand thread, -1 for a left-hand one."""
    return 1 if worm.hand == "right" else -1


def lead(worm: Part) -> float:
    """The axial advance of the thread in one turn: starts x the axial pitch (pi)."""
    return worm.teeth * math.pi


def _edge(c: np.ndarray, pitch_y: float, out: float, first: float) -> list[np.ndarray]:
    """The thread's profile along one edge (left to right), teeth pointing ``out`` (+1 up,
    -1 down) from the pitch line at height ``pitch_y``, tooth centres at ``first`` + k pi."""
    root, tip = pitch_y - out * mech.DEDENDUM, pitch_y + out * mech.ADDENDUM
    lo, hi = c[0] - HALF_LENGTH, c[0] + HALF_LENGTH
    pts = [np.array([lo, root, c[2]])]
    s = first - math.pi * math.ceil((first - lo) / math.pi)
    while s <= hi + math.pi:
        for ds, y in ((-0.29, root), (-0.14, tip), (0.14, tip), (0.29, root)):
            x = s + ds * math.pi
            if lo <= x <= hi:
                pts.append(np.array([x, y, c[2]]))
        s += math.pi
    pts.append(np.array([hi, root, c[2]]))
    return pts


def bottom_crests(worm: Part) -> float:
    """The x of one tooth centre on the worm's bottom edge (its ``phase`` from its
    centre)."""
    return float(worm.centre[0]) + worm.phase


def body(worm: Part) -> np.ndarray:
    """The worm's silhouette: bottom profile left to right, top profile right to left."""
    c = np.asarray(worm.centre, dtype=float)
    x0 = bottom_crests(worm)
    top_first = x0 - hand_sign(worm) * lead(worm) / 2
    bottom = _edge(c, c[1] - worm.radius, -1.0, x0)
    top = _edge(c, c[1] + worm.radius, 1.0, top_first)
    return np.array(bottom + top[::-1])


def crest_lines(worm: Part) -> list[np.ndarray]:
    """The thread's crests on the near side: from a top crest's tip at x down to the
    bottom crest's tip at x + hand x lead / 2 (those that fit the length)."""
    c = np.asarray(worm.centre, dtype=float)
    shift = hand_sign(worm) * lead(worm) / 2
    y_top = c[1] + worm.radius + mech.ADDENDUM
    y_bottom = c[1] - worm.radius - mech.ADDENDUM
    lo, hi = c[0] - HALF_LENGTH, c[0] + HALF_LENGTH
    x0 = bottom_crests(worm) - shift  # a top crest
    k0 = math.ceil((lo - x0 - 2 * math.pi) / math.pi)
    out = []
    for k in range(k0, k0 + 30):
        xt = x0 + k * math.pi
        xb = xt + shift
        if lo + 0.3 <= min(xt, xb) and max(xt, xb) <= hi - 0.3:
            out.append(np.array([[xt, y_top, c[2]], [xb, y_bottom, c[2]]]))
    return out


def shaft(worm: Part) -> np.ndarray:
    c = np.asarray(worm.centre, dtype=float)
    reach = HALF_LENGTH + SHAFT_OUT
    return np.array([c - (reach, 0.0, 0.0), c + (reach, 0.0, 0.0)])


def end_view(worm: Part) -> Part:
    """The worm seen from its right end: a disc of its outer radius beside that end, on
    an axle pointing at the viewer, so that an arrow drawn around it on the page turns as
    the worm does seen from the right end (the worm's axis points right)."""
    r = worm.outer
    c = np.asarray(worm.centre, dtype=float)
    x = c[0] + HALF_LENGTH + SHAFT_OUT + END_GAP + r
    return Part(worm.name, "pulley", worm.shaft, (round(float(x), 9), float(c[1]),
                                                  float(c[2])), (0.0, 0.0, 1.0), r)
