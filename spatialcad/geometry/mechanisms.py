"""Mechanisms of gears, belts, racks and ropes: their parts, tooth outlines, and the
generator's exact motion propagation.

Units are gear modules: a gear of ``n`` teeth has pitch radius ``n / 2``; teeth reach
``ADDENDUM`` outside the pitch circle and ``DEDENDUM`` inside it.  Space is x right, y up,
z towards the viewer.  A turning part has an axle point ``centre`` and a unit ``axis``; its
angular speed ``omega`` is signed by the right-hand rule about that axis (positive:
counterclockwise as seen from the side the axis points to).  Its own plane has the basis
(:func:`plane_basis`) in which a tooth at angle ``a`` sits at ``centre + rho (cos a e1 +
sin a e2)``.  A sliding part (rack, weight) moves along ``axis`` at signed speed ``v``.

:func:`propagate` hands the motion on link by link with exact fractions, from the ratios
the generator fixed when it placed each link (``Link.factor``); the task's verifier solves
the constraints from the geometry instead (spatialcad/tasks/mechanical_system/verify.py).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from spatialcad.geometry import exact

ADDENDUM = 1.0
DEDENDUM = 1.25
RIM = 1.6  # a ring gear's rim outside its tooth roots
CARRIER_BAND = 0.7  # half the width of a planet carrier's band through its planets' axles
TURNING = ("gear", "ring", "pulley", "drum", "bevel", "carrier", "worm", "crank", "wheel")
SLIDING = ("rack", "weight")
Vec = tuple[float, float, float]
Point = Sequence[float] | np.ndarray


@dataclass(frozen=True)
class Part:
    """One part.  ``radius``: pitch radius (gears), radius (pulleys, drums), half length
    (racks), half side (weights), arm length (a planet carrier: its axle to its planets'
    axles).  ``teeth``: 0 for parts without teeth (a carrier: its number of arms, the
    first at angle ``phase``).  ``phase``: angle
    of the first tooth (racks: offset of the first tooth along the axis)."""

    name: str
    kind: str
    shaft: int  # parts with the same shaft turn as one; -1 for sliding parts
    centre: Vec
    axis: Vec
    radius: float
    teeth: int = 0
    phase: float = 0.0
    fixed: bool = False  # held still (drawn hatched): a planetary train's held member
    hand: str = ""  # a worm's thread: "right" or "left" (render/mechanism_worm.py)

    @property
    def turns(self) -> bool:
        return self.kind in TURNING

    @property
    def outer(self) -> float:
        """Radius of the circle that holds the part's drawing."""
        if self.kind == "ring":
            return self.radius + DEDENDUM + RIM
        if self.kind == "carrier":
            return self.radius + CARRIER_BAND
        return self.radius + (ADDENDUM if self.teeth else 0.0)


@dataclass(frozen=True)
class Link:
    """Motion handed from part ``a`` to part ``b``: "mesh" (gear teeth, rack, bevel),
    "belt" (open), "crossed" (crossed belt), "rope" (a drum lifting a weight), or "shaft"
    (two parts on one axle).  ``factor``: b's speed over a's, as the generator placed them."""

    kind: str
    a: str
    b: str
    factor: Fraction


def plane_basis(axis: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """(e1, e2) of a turning part's plane, e1 x e2 = axis, for axes along x, y or z."""
    k = max(range(3), key=lambda i: abs(float(axis[i])))
    sign = 1.0 if float(axis[k]) > 0 else -1.0
    e1, e2 = np.zeros(3), np.zeros(3)
    e1[(k + 1) % 3] = 1.0
    e2[(k + 2) % 3] = sign  # x y z cyclic: e_(k+1) x e_(k+2) = e_k
    return e1, e2


def tooth_outline(teeth: int, radius: float, phase: float, internal: bool = False) -> np.ndarray:
    """The (k, 2) outline of a spur gear's teeth in its plane, around (0, 0): trapezoid
    teeth of ``teeth`` on a pitch circle of ``radius``, the first centred at ``phase``.
    ``internal``: a ring gear's teeth, pointing inwards (tips at radius - ADDENDUM)."""
    tip = radius - ADDENDUM if internal else radius + ADDENDUM
    root = radius + DEDENDUM if internal else radius - DEDENDUM
    pitch = 2 * math.pi / teeth
    # half widths (angles) of a tooth at its root and tip: a tooth is narrower at its tip
    half_root, half_tip = 0.29 * pitch, 0.16 * pitch
    if internal:
        half_root, half_tip = 0.21 * pitch, 0.12 * pitch
    mid = phase + pitch * np.arange(teeth)[:, None]
    angles = mid + np.array([-pitch / 2, -half_root, -half_tip, half_tip, half_root])
    radii = np.array([root, root, tip, tip, root])
    return (np.tile(radii, teeth)[:, None] * exact.cos_sin(angles)).reshape(-1, 2)


def circle(radius: float, count: int = 48) -> np.ndarray:
    t = np.linspace(0.0, 2 * math.pi, count, endpoint=False)
    return radius * exact.cos_sin(t)


def belt_spans(ca: Point, ra: float, cb: Point, rb: float,
               crossed: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """The two straight spans of a belt between two pulleys in one plane (2D centres):
    each (point on a, point on b).  Open belts touch both pulleys on the same side of the
    centre line, crossed belts on opposite sides."""
    a, b = np.asarray(ca, dtype=float), np.asarray(cb, dtype=float)
    d = b - a
    dist = float(np.hypot(*d))
    u = d / dist
    n = np.array([-u[1], u[0]])
    out = []
    for side in (1.0, -1.0):
        s = (ra + rb) / dist if crossed else (ra - rb) / dist
        normal = s * u + side * math.sqrt(max(0.0, 1 - s * s)) * n
        pa = a + ra * normal
        pb = b - rb * normal if crossed else b + rb * normal
        out.append((pa, pb))
    return out


def belt_world_spans(a: Part, b: Part, crossed: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`belt_spans` of two pulleys in one plane, as world points."""
    e1, e2 = plane_basis(a.axis)
    flat = [np.array([exact.dot(p.centre, e) for e in (e1, e2)]) for p in (a, b)]
    origin = np.asarray(a.centre) - flat[0][0] * e1 - flat[0][1] * e2
    return [(origin + u[0] * e1 + u[1] * e2, origin + v[0] * e1 + v[1] * e2)
            for u, v in belt_spans(flat[0], a.radius, flat[1], b.radius, crossed)]


def contact_points(kind: str, a: Part, b: Part) -> list[np.ndarray]:
    """Where a link hands motion on (world points): the pitch point of a mesh (two gears,
    a ring and its pinion, a rack and its pinion ``a``, a bevel pair), the four points
    where a belt leaves its pulleys, where a rope leaves its drum ``a``, the pin at the
    end of bar ``a``; none for a shaft."""
    ca, cb = np.asarray(a.centre, dtype=float), np.asarray(b.centre, dtype=float)
    if kind in ("shaft", "carries"):  # an axle; a carrier and a planet's axle on it
        return []
    if kind == "pin":  # a bar's far end (a crank's, a connecting rod's)
        return [np.array([ca[0] + a.radius * math.cos(a.phase),
                          ca[1] + a.radius * math.sin(a.phase), ca[2]])]
    if kind == "worm":  # under the worm ``a``, on the top of its wheel ``b``
        return [np.array([cb[0], ca[1] - a.radius, ca[2]])]
    if kind in ("belt", "crossed"):
        return [p for span in belt_world_spans(a, b, kind == "crossed") for p in span]
    if kind == "rope":
        return [np.array([cb[0], ca[1], cb[2]])]
    if b.kind == "rack":
        d = np.asarray(b.axis, dtype=float)
        return [cb + exact.dot(ca - cb, d) * d]
    if a.kind == b.kind == "bevel":
        s = 1.0 if exact.dot(cb - ca, b.axis) > 0 else -1.0
        return [ca + s * a.radius * np.asarray(b.axis, dtype=float)]
    if "ring" in (a.kind, b.kind):
        ring, pinion = (a, b) if a.kind == "ring" else (b, a)
        c = np.asarray(ring.centre, dtype=float)
        return [c + ring.radius * exact.unit(np.asarray(pinion.centre, dtype=float) - c)]
    return [ca + a.radius * exact.unit(cb - ca)]


def answer_links(links: Sequence[tuple[str, str, str]], driver: str,
                 targets: Sequence[str]) -> list[int]:
    """The links (indices) on the paths that hand the motion from ``driver`` to each
    of ``targets``: breadth first over the links in their order, each target's chain of
    first-reached links back to the driver."""
    came: dict[str, int | None] = {driver: None}
    queue = deque([driver])
    while queue:
        at = queue.popleft()
        for i, (_, a, b) in enumerate(links):
            if at in (a, b):
                other = b if a == at else a
                if other not in came:
                    came[other] = i
                    queue.append(other)
    out: set[int] = set()
    for t in targets:
        at, step = t, came.get(t)
        while step is not None:
            out.add(step)
            _, a, b = links[step]
            at = a if b == at else b
            step = came.get(at)
    return sorted(out)


def propagate(parts: Sequence[Part], links: Sequence[Link], driver: str,
              omega: Fraction) -> tuple[dict[str, Fraction] | None, list[Link]]:
    """Every reached part's speed when ``driver`` turns at ``omega``, and the links in the
    order they handed motion on (breadth first, links in their listed order); ``None`` for
    the speeds when two paths disagree (the mechanism is locked)."""
    speed = {driver: omega}
    order: list[Link] = []
    queue = deque([driver])
    while queue:
        at = queue.popleft()
        for link in links:
            if at not in (link.a, link.b):
                continue
            other, f = (link.b, link.factor) if link.a == at else (link.a, 1 / link.factor)
            value = speed[at] * f
            if other not in speed:
                speed[other] = value
                order.append(link)
                queue.append(other)
            elif speed[other] != value:
                return None, order
    names = {p.name for p in parts}
    if set(speed) != names:
        raise ValueError(f"parts not connected to the driver: {sorted(names - set(speed))}")
    return speed, order


def sense_seen(omega: float, axis: Sequence[float], towards: Sequence[float]) -> str:
    """"clockwise" or "counterclockwise" for a part turning at ``omega`` about ``axis``,
    seen from direction ``towards`` (from the part towards the viewer); "still" at 0."""
    s = omega * exact.dot(axis, towards)
    return "still" if s == 0 else ("counterclockwise" if s > 0 else "clockwise")


def contact_angle(part: Part, point: Point) -> float:
    """The angle, in ``part``'s own plane, of ``point`` seen from its axle."""
    e1, e2 = plane_basis(part.axis)
    d = np.asarray(point, dtype=float) - np.asarray(part.centre, dtype=float)
    return math.atan2(exact.dot(d, e2), exact.dot(d, e1))


def mesh_phases(parts: Sequence[Part],
                meshes: Sequence[tuple[str, str, int, Point]]) -> dict[str, float] | None:
    """First-tooth angles that interleave the teeth of every mesh (a, b, sign of b's speed
    over a's, contact point) between toothed turning parts: at each contact one part has a
    tooth where the other has a gap.  Rolling keeps ``n_b theta_b - sign n_a theta_a``
    fixed, so each mesh is one linear equation (solved by :func:`exact.solution`, the same
    bits on every CPU); None if they cannot all hold."""
    toothed = [p for p in parts if p.teeth and p.turns]
    index = {p.name: i for i, p in enumerate(toothed)}
    by_name = {p.name: p for p in toothed}
    rows, rhs = [], []
    for a, b, sign, point in meshes:
        pa, pb = by_name[a], by_name[b]
        row = [0.0] * len(toothed)
        row[index[b]] += pb.teeth
        row[index[a]] -= sign * pa.teeth
        rows.append(row)
        rhs.append(pb.teeth * contact_angle(pb, point) - sign * pa.teeth * contact_angle(pa, point)
                   - math.pi)
    if not rows:
        return {p.name: 0.0 for p in toothed}
    theta = exact.solution(rows, rhs)
    miss = (exact.matmul(rows, theta) - np.asarray(rhs) + math.pi) % (2 * math.pi) - math.pi
    if np.abs(miss).max() > 1e-6:
        return None
    return {p.name: float(theta[index[p.name]] % (2 * math.pi)) for p in toothed}


def rack_phase(pinion: Part, rack: Part, pinion_phase: float) -> float:
    """The rack's tooth offset that puts a gap where the pinion's nearest tooth meets it."""
    c = np.asarray(pinion.centre, dtype=float)
    d = np.asarray(rack.axis, dtype=float)
    along = exact.dot(c - np.asarray(rack.centre, dtype=float), d)
    n = np.cross(np.asarray(pinion.axis, dtype=float), d)
    contact = c - exact.dot(c - np.asarray(rack.centre, dtype=float), n) * n
    phi = contact_angle(pinion, contact)
    pitch = 2 * math.pi / pinion.teeth
    delta = (phi - pinion_phase) % pitch
    e1, e2 = plane_basis(pinion.axis)
    rate = pinion.radius * exact.dot(-math.sin(phi) * e1 + math.cos(phi) * e2, d)
    return (along - delta * rate + math.pi / 2) % math.pi


def size(part: Part) -> Fraction:
    """A part's pitch radius (or radius) as an exact fraction."""
    return Fraction(part.teeth, 2) if part.teeth else Fraction(part.radius)


def factor(kind: str, a: Part, b: Part) -> Fraction:
    """``b``'s speed over ``a``'s across a link, for the placements the generator makes:
    gears in one plane (a ring keeps the sense, an outer gear reverses it), a bevel gear
    standing on top of a gear on an axle pointing at the viewer (same sense, seen from
    above and from the front), a rack with its teeth facing the pinion (its axis such that
    z x axis points to its body), a weight hanging on the drum's right (rope up when the
    drum turns counterclockwise) or left, open and crossed belts, one axle."""
    if kind == "shaft":
        return Fraction(1)
    if kind in ("belt", "crossed"):
        return (-1 if kind == "crossed" else 1) * size(a) / size(b)
    if kind == "rope":
        return size(a) * (1 if b.centre[0] > a.centre[0] else -1)
    if b.kind == "rack":
        return -size(a)
    ratio = Fraction(a.teeth, b.teeth)
    return ratio if "ring" in (a.kind, b.kind) or "bevel" == a.kind == b.kind else -ratio
