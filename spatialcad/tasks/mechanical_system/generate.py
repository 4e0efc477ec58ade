"""MechanicalSystem: a mechanism grown part by part from a driven gear.

Level 0: three gears in a plane (a chain, a star, or a jammed ring of three), seen from
the front.  Level 1: four to six parts, adding gears fixed together on one axle at two
depths, pulleys with open and crossed belts, ring gears and racks, drawn in an oblique
view.  From level 2 also a bevel pair (a gear on a vertical axle, its sense seen from
above) and a drum winding a rope that lifts a weight; the part count grows by one a level
up to 18 at level 13, the last (the labels run out).

From level 3 a fifth of the items are mixed mechanisms, half each: a gear train driving a
slider-crank (crank_train.py: which way does the slider move at the moment drawn?) and a
worm driving a planetary train (worm_planetary.py: how does a planet gear move, or can
nothing move?).  Of the others, from level 1 a
fifth are planetary trains instead (planetary.py: how a planet
gear turns and goes round, which member turns fastest), and from level 2 a fifth of the
rest worm drives (worm.py: which way the wheel and its gear turn, or nothing can move
when the wheel's side is driven: the worm is self-locking).

Questions: "which way do X and Y turn or move?" (text options: the four combinations of
their two motions, and "Nothing can move"), and from level 1 "which of four parts turns
fastest / slowest?" and "while E makes 3 turns, how many turns does J make?" (turns.py),
a ninth of the items each. Balance: the driver's stated sense is drawn 50/50 (so every
asked motion is clockwise as often as counterclockwise); whether the first asked part
turns the driver's way is drawn 50/50 before the mechanism; a third of the motion items
are jammed (an extra gear meshing two others so that two paths disagree), and the other
items offer "Nothing can move" as a wrong option half the time, so that it is right
about as often as it is offered wrongly. A jam always shows in the senses (two paths
turn a part opposite ways), never in speeds alone.

Every option's explanation (explain.py) follows the motion from the driver along the links
to where the option errs; fastest / slowest and turns items state the tooth counts and
pulley radii.

From level 1, of the items that are not planetary trains, some show a linkage or a cam
instead (linkage.py): levers from level 1, slider-cranks, four-bars and cams from level 2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from spatialcad.geometry import exact
from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.mechanisms import Link, Part
from spatialcad.render import mechanism_drawing as md
from spatialcad.render import mechanism_legibility as legibility
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Reject
from spatialcad.tasks.mechanical_system import (
    crank_train,
    linkage,
    planetary,
    turns,
    worm,
    worm_planetary,
)
from spatialcad.tasks.mechanical_system.explain import explanation
from spatialcad.tasks.mechanical_system.spec import (
    OPEN_JAMMED,
    SENSES,
    LinkSpec,
    OptionData,
    PartSpec,
    Spec,
    mechanism_draft,
    words,
)
from spatialcad.tasks.mechanical_system.steps import exact_motion

LABELS = "EFGHJKLMNPQRSTUVWXYZ"  # part names: never an option letter A-D, nor I or O
DEPTH = 10.0  # modules between the two depths of parts on one axle
CLEAR = 1.6  # modules between parts that do not touch
NESTED = 2.0  # modules by which a part on an axle is smaller than the one behind it
GROW_TRIES = 120
BUILD_TRIES = 40
FAST_MARGIN = Fraction(6, 5)  # the fastest (slowest) part beats the next by this ratio
PLANETARY_SHARE = 5  # from level 1, one item in this many is a planetary train
WORM_SHARE = 5  # from level 2, one of the other items in this many is a worm drive
MIXED_FROM, MIXED_SHARE = 3, 5  # from level 3, one item in five is a mixed mechanism: a gear
# train driving a slider-crank (crank_train.py) or a worm driving a planetary train
# (worm_planetary.py), half each
Z = (0.0, 0.0, 1.0)
# a disc's footprint is shapely's buffer of its centre, 32 segments a quarter circle: its
# corners lie on the circle and its sides fall short of it by at most this part of the radius
CHORD_DEPTH = 1.0 - math.cos(math.pi / 128)


@dataclass
class Footprint:
    """A part's, belt's or rope's area in the drawing plane, its depth (None: spans
    depths) and its bounding box (x0, y0, x1, y1); footprints at every depth keep apart
    (a part at another depth may show through a ring gear's open inside, ``hole``).  A
    part turning on an axle that points at the viewer is a disc (x, y, radius): its
    polygon is made when a distance needs it."""

    depth: float | None
    box: tuple[float, float, float, float]
    disc: tuple[float, float, float] | None = None
    made: BaseGeometry | None = None
    hole: float = 0.0  # a ring gear's open inside: the radius of its teeth's tips

    @classmethod
    def of(cls, shape: BaseGeometry, depth: float | None) -> Footprint:
        x0, y0, x1, y1 = shape.bounds
        return cls(depth, (x0, y0, x1, y1), made=shape)

    @classmethod
    def of_disc(cls, x: float, y: float, r: float, depth: float) -> Footprint:
        """The disc's box is its polygon's: the corners at 0, 90, 180 and 270 degrees are
        the centre plus and minus the radius exactly (tested)."""
        return cls(depth, (x - r, y - r, x + r, y + r), disc=(x, y, r))

    @property
    def shape(self) -> BaseGeometry:
        if self.made is None:
            assert self.disc is not None
            x, y, r = self.disc
            self.made = Point(x, y).buffer(r, 32)
        return self.made


def discs_clash(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool | None:
    """Whether the polygons of two disc footprints are nearer than ``CLEAR``, when their
    circles settle it: a polygon lies within its circle, and reaches at least
    ``1 - CHORD_DEPTH`` of the radius towards the other centre; None when they do not."""
    d = math.hypot(a[0] - b[0], a[1] - b[1])
    if d - a[2] - b[2] >= CLEAR + 1e-9:
        return False
    if d - (a[2] + b[2]) * (1.0 - CHORD_DEPTH) < CLEAR - 1e-9:
        return True
    return None


def _in_hole(ring: Footprint, other: Footprint) -> bool:
    """Whether ``other`` lies ``CLEAR`` inside a ring gear's open inside (at another
    depth it shows through the ring)."""
    assert ring.disc is not None
    x, y, _ = ring.disc
    room = ring.hole - CLEAR
    if other.disc is not None:
        return math.hypot(other.disc[0] - x, other.disc[1] - y) + other.disc[2] <= room
    return bool(Point(x, y).buffer(room, 32).contains(other.shape))


def too_close(a: Footprint, b: Footprint) -> bool:
    """Whether two footprints are nearer than ``CLEAR`` (shapely's distance of their
    polygons, settled without it for two discs whose circles decide)."""
    for ring, other in ((a, b), (b, a)):
        if ring.hole and ring.depth != other.depth and _in_hole(ring, other):
            return False
    if a.disc is not None and b.disc is not None:
        said = discs_clash(a.disc, b.disc)
        if said is not None:
            return said
    return bool(a.shape.distance(b.shape) < CLEAR)


@dataclass
class Build:
    """A mechanism being grown: parts, links, contact points of meshes, footprints."""

    oblique: bool
    parts: list[Part] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    contacts: dict[tuple[str, str], tuple[float, float, float]] = field(default_factory=dict)
    shapes: dict[str, Footprint] = field(default_factory=dict)
    shafts: int = 0
    # indexes of parts and links (kept by add)
    named: dict[str, Part] = field(init=False, repr=False)
    pairs: set[frozenset[str]] = field(init=False, repr=False)
    mates: dict[str, set[str]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._index()

    def _index(self) -> None:
        self.named = {p.name: p for p in self.parts}
        self.pairs = {frozenset((lk.a, lk.b)) for lk in self.links}
        on: dict[int, set[str]] = {}
        for p in self.parts:
            if p.turns:
                on.setdefault(p.shaft, set()).add(p.name)
        self.mates = {p.name: on[p.shaft] if p.turns else {p.name} for p in self.parts}

    def part(self, name: str) -> Part:
        return self.named[name]

    def linked(self, a: str, b: str) -> bool:
        """Parts on one axle or joined by a link."""
        return b in self.mates.get(a, ()) or frozenset((a, b)) in self.pairs

    def new_name(self) -> str:
        if len(self.parts) >= len(LABELS):
            raise Reject("out of part labels")
        return LABELS[len(self.parts)]

    def footprint(self, p: Part) -> Footprint:
        """The part's area in the drawing plane and its depth (None: spans depths)."""
        if p.turns and abs(p.axis[2]) > 0.5:
            c = md.project(np.asarray(p.centre), self.oblique)[0]
            out = Footprint.of_disc(float(c[0]), float(c[1]), p.outer, p.centre[2])
            if p.kind == "ring":
                out.hole = p.radius - mech.ADDENDUM
            return out
        if p.turns:
            ring = md.in_plane(p, mech.circle(p.outer, 32))
            area = Polygon(md.project(ring, self.oblique))
            if md.upright(p):  # and the axle that rises above it
                area = area.union(LineString(md.project(md.axle([p]), self.oblique)).buffer(0.5))
            return Footprint.of(area, None)
        if p.kind == "rack":
            d, n = np.asarray(p.axis), md.rack_normal(p)
            c = np.asarray(p.centre)
            box = [c + s * p.radius * d + t * n for s, t in
                   ((-1, -mech.ADDENDUM), (1, -mech.ADDENDUM), (1, mech.DEDENDUM + 2.5),
                    (-1, mech.DEDENDUM + 2.5))]
            return Footprint.of(Polygon(md.project(np.array(box), self.oblique)), p.centre[2])
        c = np.asarray(p.centre)
        box = [c + (sx * p.radius, sy * p.radius, 0) for sx, sy in
               ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        return Footprint.of(Polygon(md.project(np.array(box), self.oblique)), p.centre[2])

    def clash_free(self, trial: Build, added: dict[str, Footprint],
                   checked: dict[str, Footprint] | None = None) -> bool:
        """Whether the ``added`` footprints (of ``trial``, this mechanism with new parts
        and links; only those of ``checked`` if given) stay clear of every footprint they
        are not related to, at any depth: in the drawing no part hides another it does
        not touch."""
        every = {**self.shapes, **added}
        for name, mine in (added if checked is None else checked).items():
            x0, y0, x1, y1 = mine.box
            for other, theirs in every.items():
                if other == name:
                    continue
                u0, v0, u1, v1 = theirs.box
                # two shapes are at least as far apart as their bounding boxes: far
                # enough boxes settle the pair without the exact distance
                if max(u0 - x1, x0 - u1) > CLEAR + 1e-6 or max(v0 - y1, y0 - v1) > CLEAR + 1e-6:
                    continue
                if _related(trial, name, other):
                    continue
                if too_close(mine, theirs):
                    return False
        return True

    def add(self, new: list[Part], links: list[Link],
            contacts: dict[tuple[str, str], tuple[float, float, float]] | None = None) -> bool:
        """Add ``new`` parts (linked by ``links``) if they and their belts or ropes stay
        clear of every part and belt they are not linked to; whether they were added."""
        trial = Build(self.oblique, self.parts + new, self.links + links)
        added = {p.name: trial.footprint(p) for p in new}
        if not self.clash_free(trial, added):  # the parts first: most clashes are theirs
            return False
        lines = {}
        for lk in links:
            line = _link_line(trial, lk)
            if line is not None:
                lines[f"{lk.a}-{lk.b}"] = Footprint.of(line, trial.part(lk.a).centre[2])
        added.update(lines)
        if lines and not self.clash_free(trial, added, lines):
            return False
        self.parts += new
        self.links += links
        self.contacts.update(contacts or {})
        self.shapes.update(added)
        self._index()
        return True


def _link_line(b: Build, lk: Link) -> BaseGeometry | None:
    """A belt's two spans or a rope, in the drawing plane; None for other links."""
    pa, pb = b.part(lk.a), b.part(lk.b)
    if lk.kind in ("belt", "crossed"):
        spans = mech.belt_spans(pa.centre[:2], pa.radius, pb.centre[:2], pb.radius,
                                lk.kind == "crossed")
        lines = []
        for u, v in spans:
            ends = np.array([[u[0], u[1], pa.centre[2]], [v[0], v[1], pa.centre[2]]])
            lines.append(LineString(md.project(ends, b.oblique)).buffer(0.25))
        return lines[0].union(lines[1])
    if lk.kind == "rope":
        top = (pb.centre[0], pa.centre[1], pb.centre[2])
        bottom = (pb.centre[0], pb.centre[1] + pb.radius, pb.centre[2])
        return LineString(md.project(np.array([top, bottom]), b.oblique)).buffer(0.2)
    return None


def _related(b: Build, x: str, y: str) -> bool:
    """Two footprints that may overlap in the drawing: linked parts, parts on one axle, a
    belt or rope and the parts on its parts' axles, a part and the axle mates of a part it
    is linked to (a ring around a pinion in front of a larger gear, open inside: the
    drawing's checks measure what shows)."""
    ends_x, ends_y = x.split("-"), y.split("-")
    if len(ends_x) == 2 and len(ends_y) == 2:
        return bool(set(ends_x) & set(ends_y))
    if len(ends_x) == 2 or len(ends_y) == 2:
        ends, part = (ends_x, y) if len(ends_x) == 2 else (ends_y, x)
        return any(part in b.mates[e] for e in ends)
    return any(b.linked(m, y) for m in b.mates[x]) or any(b.linked(x, m) for m in b.mates[y])


def _link(kind: str, a: Part, b: Part) -> Link:
    return Link(kind, a.name, b.name, mech.factor(kind, a, b))


def _gear_teeth(rng: np.random.Generator, low: int = 10, high: int = 26) -> int:
    return int(rng.integers(low // 2, high // 2 + 1)) * 2


def _front(p: Part) -> bool:
    return p.turns and abs(p.axis[2]) > 0.5


def _unit(angle: float) -> np.ndarray:
    return np.array([math.cos(angle), math.sin(angle), 0.0])


def _vec(v: np.ndarray) -> tuple[float, float, float]:
    return (round(float(v[0]), 9), round(float(v[1]), 9), round(float(v[2]), 9))


def _mesh(b: Build, p: Part, rng: np.random.Generator) -> bool:
    """A new gear meshing gear ``p`` in its plane."""
    if p.kind != "gear" or not _front(p):
        return False
    n = _gear_teeth(rng)
    u = _unit(float(rng.uniform(0, 2 * math.pi)))
    r = n / 2
    c = np.asarray(p.centre) + (p.radius + r) * u
    name = b.new_name()
    b.shafts += 1
    new = Part(name, "gear", b.shafts, _vec(c), Z, r, n)
    contact = _vec(np.asarray(p.centre) + p.radius * u)
    return b.add([new], [_link("mesh", p, new)], {(p.name, name): contact})


def _compound(b: Build, p: Part, rng: np.random.Generator) -> bool:
    """A gear or pulley fixed on ``p``'s axle at the other depth."""
    if not _single(b, p):
        return False
    z = DEPTH - p.centre[2]
    name = b.new_name()
    c = (p.centre[0], p.centre[1], z)
    if rng.integers(2):
        n = _gear_teeth(rng)
        new = Part(name, "gear", p.shaft, c, Z, n / 2, n)
    else:
        new = Part(name, "pulley", p.shaft, c, Z, float(rng.integers(3, 8)))
    return _nested(p, new) and b.add([new], [_link("shaft", p, new)])


def _nested(p: Part, q: Part) -> bool:
    """Of two parts on one axle, the front one is the smaller (both show)."""
    front, back = (p, q) if p.centre[2] > q.centre[2] else (q, p)
    return front.outer <= back.outer - NESTED


def _belt(b: Build, p: Part, rng: np.random.Generator) -> bool:
    """A pulley belted (open or crossed) to pulley ``p``, or to a new pulley on ``p``'s
    axle at the other depth."""
    new: list[Part] = []
    if p.kind != "pulley":
        if not _single(b, p):
            return False
        new.append(Part(b.new_name(), "pulley", p.shaft, (p.centre[0], p.centre[1],
                                                          DEPTH - p.centre[2]),
                        Z, float(rng.integers(3, 6))))
        if not _nested(p, new[0]):
            return False
    elif any(lk.kind in ("belt", "crossed") and p.name in (lk.a, lk.b) for lk in b.links):
        return False
    at = new[0] if new else p
    r = float(rng.integers(3, 8))
    d = at.radius + r + float(rng.uniform(5, 12))
    c = np.asarray(at.centre) + d * _unit(float(rng.uniform(0, 2 * math.pi)))
    crossed = bool(rng.integers(2))
    if not _room(b, len(new) + 1):
        return False
    b.shafts += 1
    other = Part(LABELS[len(b.parts) + len(new)], "pulley", b.shafts, _vec(c), Z, r)
    links = [_link("shaft", p, at)] if new else []
    return b.add([*new, other], [*links, _link("crossed" if crossed else "belt", at, other)])


def _single(b: Build, p: Part) -> bool:
    """``p`` turns alone on an axle pointing at the viewer (another part may join it)."""
    return p.kind != "ring" and _front(p) and len(b.mates[p.name]) == 1


def _room(b: Build, count: int) -> bool:
    return len(b.parts) + count <= len(LABELS)


def _ring(b: Build, p: Part, rng: np.random.Generator) -> bool:
    """A ring gear around gear ``p`` (meshing it inside), or around a new gear on ``p``'s
    axle at the other depth."""
    new: list[Part] = []
    if p.kind != "gear" or any(lk.kind == "mesh" and p.name in (lk.a, lk.b) for lk in b.links):
        if not _single(b, p) or not _room(b, 2):
            return False
        n0 = _gear_teeth(rng, 10, 14)
        new.append(Part(b.new_name(), "gear", p.shaft,
                        (p.centre[0], p.centre[1], DEPTH - p.centre[2]), Z, n0 / 2, n0))
        if not _nested(p, new[0]):
            return False
    elif not _front(p):
        return False
    pinion = new[0] if new else p
    n = pinion.teeth + _gear_teeth(rng, 8, 14)
    u = _unit(float(rng.uniform(0, 2 * math.pi)))
    c = np.asarray(pinion.centre) - (n / 2 - pinion.radius) * u
    name = LABELS[len(b.parts) + len(new)]
    b.shafts += 1
    ring = Part(name, "ring", b.shafts, _vec(c), Z, n / 2, n)
    contact = _vec(np.asarray(pinion.centre) + pinion.radius * u)
    links = [_link("shaft", p, pinion)] if new else []
    return b.add([*new, ring], [*links, _link("mesh", pinion, ring)],
                 {(pinion.name, name): contact})


def _rack(b: Build, p: Part, rng: np.random.Generator) -> bool:
    """A horizontal rack under or over gear ``p`` (its teeth facing the gear)."""
    if p.kind != "gear" or not _front(p):
        return False
    below = bool(rng.integers(2))
    axis = (-1.0, 0.0, 0.0) if below else (1.0, 0.0, 0.0)
    c = (p.centre[0] + float(rng.uniform(-2, 2)), p.centre[1] + (-1 if below else 1) * p.radius,
         p.centre[2])
    name = b.new_name()
    new = Part(name, "rack", -1, _vec(np.asarray(c)), axis, p.radius + 6.0)
    return b.add([new], [_link("mesh", p, new)])


def _bevel(b: Build, p: Part, rng: np.random.Generator) -> bool:
    """A bevel gear on ``p``'s axle in front of it, meshing a bevel gear on a vertical axle
    that stands on its top."""
    if not _single(b, p) or p.centre[2] != 0:
        return False
    if p.teeth < 16:
        return False
    # the gear on the vertical axle is drawn flat over its partner: at most 14 teeth keep
    # it from hiding its partner's axle
    n1, n2 = _gear_teeth(rng, 10, p.teeth - 4), _gear_teeth(rng, 10, 14)
    r1, r2 = n1 / 2, n2 / 2
    x, y = p.centre[0], p.centre[1]
    first, second = b.new_name(), LABELS[len(b.parts) + 1]
    if len(b.parts) + 1 >= len(LABELS):
        return False
    b.shafts += 2
    one = Part(first, "bevel", p.shaft, (x, y, DEPTH), Z, r1, n1)
    two = Part(second, "bevel", b.shafts, (x, y + r1, DEPTH + r2), (0.0, 1.0, 0.0), r2, n2)
    contact = (x, y + r1, DEPTH)
    return b.add([one, two], [_link("shaft", p, one), _link("mesh", one, two)],
                 {(first, second): contact})


def _hoist(b: Build, p: Part, rng: np.random.Generator) -> bool:
    """A drum on ``p``'s axle at the other depth, its rope lifting a weight."""
    if not _single(b, p):
        return False
    r = float(rng.integers(3, 6))
    right = bool(rng.integers(2))
    z = DEPTH - p.centre[2]
    drum, weight = b.new_name(), LABELS[len(b.parts) + 1]
    if len(b.parts) + 1 >= len(LABELS):
        return False
    dc = (p.centre[0], p.centre[1], z)
    wx = dc[0] + (r if right else -r)
    wc = (wx, dc[1] - r - float(rng.uniform(7, 11)), z)
    one = Part(drum, "drum", p.shaft, dc, Z, r)
    two = Part(weight, "weight", -1, wc, (0.0, 1.0, 0.0), 1.8)
    return _nested(p, one) and b.add([one, two], [_link("shaft", p, one),
                                                  _link("rope", one, two)])


def _jam(b: Build, rng: np.random.Generator) -> bool:
    """A new gear meshing two gears of one plane at once (a second path between them)."""
    gears = [p for p in b.parts if p.kind == "gear" and _front(p)]
    pairs = [(p, q) for p, q in combinations(gears, 2)
             if p.centre[2] == q.centre[2] and p.shaft != q.shaft]
    if not pairs:
        return False
    p, q = pairs[int(rng.integers(len(pairs)))]
    n = _gear_teeth(rng)
    r = n / 2
    ca, cb = np.asarray(p.centre), np.asarray(q.centre)
    ra, rb = p.radius + r, q.radius + r
    d = exact.norm(cb - ca)
    if not abs(ra - rb) < d < ra + rb:
        return False
    along = (d * d + ra * ra - rb * rb) / (2 * d)
    u = (cb - ca) / d
    side = 1 if rng.integers(2) else -1
    c = ca + along * u + side * math.sqrt(ra * ra - along * along) * np.cross(Z, u)
    name = b.new_name()
    b.shafts += 1
    new = Part(name, "gear", b.shafts, _vec(c), Z, r, n)
    contacts = {}
    for other in (p, q):
        w = exact.unit(c - np.asarray(other.centre))
        contacts[(other.name, name)] = _vec(np.asarray(other.centre) + other.radius * w)
    return b.add([new], [_link("mesh", p, new), _link("mesh", q, new)], contacts)


MODULES = {"mesh": _mesh, "compound": _compound, "belt": _belt, "ring": _ring, "rack": _rack,
           "bevel": _bevel, "hoist": _hoist}


def _grow(p: dict[str, Any], jammed: bool, rng: np.random.Generator) -> Build | None:
    """A mechanism of ``p["parts"]`` parts (one more if jammed) with the level's modules,
    and the modules ``p["needs"]`` among them; None if the draw failed."""
    b = Build(p["oblique"])
    n = _gear_teeth(rng)
    b.add([Part(LABELS[0], "gear", 0, (0.0, 0.0, 0.0), Z, n / 2, n)], [])
    needs = list(p["needs"])
    kinds = list(p["modules"])
    for _ in range(GROW_TRIES):
        full = len(b.parts) >= p["parts"] - (1 if jammed else 0)
        if full and not needs:
            break
        if needs and (full or rng.integers(2)):  # a full mechanism grows only what it needs
            kind = needs[int(rng.integers(len(needs)))]
        else:
            kind = kinds[int(rng.integers(len(kinds)))]
        at = b.parts[int(rng.integers(len(b.parts)))]
        if MODULES[kind](b, at, rng) and kind in needs:
            needs.remove(kind)
    if needs or len(b.parts) < p["parts"] - (1 if jammed else 0):
        return None
    if jammed and not any(_jam(b, rng) for _ in range(GROW_TRIES // 4)):
        return None
    return b


TURNS = 24  # the angles (15 degrees apart) a mechanism of discs may be turned to


def _turned(b: Build) -> Build:
    """A mechanism of gears, ring gears and pulleys on axles pointing at the viewer (free
    to turn in the picture's plane), turned about the driver's axle to the angle at
    which its drawing fills the panel best (the larger of its smaller share of the
    panel's width and height; the first such); other mechanisms as they are."""
    if not all(p.kind in ("gear", "ring", "pulley") and _front(p) for p in b.parts):
        return b
    best, turn = -1.0, 0
    for k in range(TURNS):
        c, s = math.cos(2 * math.pi * k / TURNS), math.sin(2 * math.pi * k / TURNS)
        flat = md.project(np.array([_spun(p.centre, c, s) for p in b.parts]), b.oblique)
        reach = np.array([p.outer + 2.6 for p in b.parts])
        span = (flat + reach[:, None]).max(axis=0) - (flat - reach[:, None]).min(axis=0)
        scale = min(md.PANEL_W / float(span[0]), md.PANEL_H / float(span[1]))
        fill = min(float(span[0]) * scale / md.PANEL_W, float(span[1]) * scale / md.PANEL_H)
        if fill > best + 1e-9:
            best, turn = fill, k
    if turn == 0:
        return b
    c, s = math.cos(2 * math.pi * turn / TURNS), math.sin(2 * math.pi * turn / TURNS)
    out = Build(b.oblique, [replace(p, centre=_spun(p.centre, c, s)) for p in b.parts],
                list(b.links), {k: _spun(v, c, s) for k, v in b.contacts.items()})
    out.shafts = b.shafts
    return out


def _spun(v: tuple[float, float, float], c: float, s: float) -> tuple[float, float, float]:
    """A point turned about the z axis (cos ``c``, sin ``s``)."""
    return _vec(np.array([c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]]))


def _phased(b: Build) -> list[Part] | None:
    """The parts with tooth phases that interleave every mesh, rounded as the spec records
    them (the item is drawn and checked from the parts its spec gives the verifier); None
    if impossible."""
    kinds = {p.name: p for p in b.parts}
    meshes = [(lk.a, lk.b, 1 if lk.factor > 0 else -1, b.contacts[(lk.a, lk.b)])
              for lk in b.links if lk.kind == "mesh" and kinds[lk.b].kind != "rack"]
    phases = mech.mesh_phases(b.parts, meshes)
    if phases is None:
        return None
    out = [replace(p, phase=phases.get(p.name, 0.0)) for p in b.parts]
    named = {p.name: p for p in out}
    for lk in b.links:
        if named[lk.b].kind == "rack":
            pinion, rack = named[lk.a], named[lk.b]
            named[lk.b] = replace(rack, phase=mech.rack_phase(pinion, rack, pinion.phase))
    return [replace(named[p.name], phase=round(named[p.name].phase, 9)) for p in out]


def _word(part: Part, speed: Fraction) -> str:
    """The motion word of a part moving at signed ``speed``."""
    if part.turns:
        view = (0.0, 1.0, 0.0) if abs(part.axis[1]) > 0.5 else Z
        return mech.sense_seen(float(speed), part.axis, view)
    d = part.axis
    if abs(d[0]) > 0.5:
        return "right" if speed * int(d[0]) > 0 else "left"
    return "up" if speed * int(d[1]) > 0 else "down"


def _part_spec(p: Part) -> PartSpec:
    seen = None if not p.turns else ("above" if abs(p.axis[1]) > 0.5 else "front")
    return PartSpec(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, p.teeth, p.phase,
                    seen)


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        """L0: three gears, front view; L1: four to six parts with axles of two parts,
        belts, rings and racks (one of them drawn to be in every item), oblique; from L2 a
        bevel pair in every item, hoists too, and one part more a level up to level 13
        (the task's last: more parts than 18 would run out of labels)."""
        if level == 0:
            return {"parts": 3, "modules": ["mesh"], "needs": [], "one_of": [],
                    "oblique": False, "fastest": False}
        if level == 1:
            return {"parts": [4, 5, 6], "modules": ["mesh", "compound", "belt", "ring", "rack",
                                                    "mesh"],
                    "needs": [], "one_of": ["belt", "ring", "rack", "compound"],
                    "oblique": True, "fastest": True}
        return {"parts": min(len(LABELS) - 2, 5 + level),
                "modules": ["mesh", "compound", "belt", "ring", "rack", "hoist", "mesh"],
                "needs": ["bevel"], "one_of": ["hoist", "belt", "ring", "rack"],
                "oblique": True, "fastest": True}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        if level >= MIXED_FROM and rng.integers(MIXED_SHARE) == 0:
            sense = SENSES[int(rng.integers(2))]
            if rng.integers(2):  # half of them a worm driving a planetary train
                want = ("left", "right")[int(rng.integers(2))]  # the slider's way, balanced
                make, what = (lambda: crank_train.build(sense, want, rng),
                              "gear train driving a slider-crank")
            else:
                make, what = (lambda: worm_planetary.build(sense, rng),
                              "worm driving a planetary train")
            for _ in range(BUILD_TRIES):
                mixed = make()
                if mixed is not None:
                    return mixed
            raise Reject(f"no {what} met the item's draw")
        for first, share, family, name in ((1, PLANETARY_SHARE, planetary.build, "planetary train"),
                                           (2, WORM_SHARE, lambda s, r: worm.build(
                                               s, r, level >= 3), "worm drive")):
            if level >= first and rng.integers(share) == 0:
                sense = SENSES[int(rng.integers(2))]
                for _ in range(BUILD_TRIES):
                    draft = family(sense, rng)
                    if draft is not None:
                        return draft
                raise Reject(f"no {name} met the item's draw")
        chosen = linkage.family(level, rng)  # levers, slider-cranks, four-bars, cams
        if chosen is not None:
            return linkage.build(chosen, rng)
        p = dict(self.params(level))
        if isinstance(p["parts"], list):
            p["parts"] = int(p["parts"][int(rng.integers(len(p["parts"])))])
        if p["one_of"]:  # one module every item of the level shows, drawn
            p["needs"] = [*p["needs"], p["one_of"][int(rng.integers(len(p["one_of"])))]]
        kind = "motion"
        if p["fastest"] and rng.integers(3) == 0:  # a third ask for speeds, a ninth each
            kind = ("fastest", "slowest", "turns")[int(rng.integers(3))]
        jammed = kind == "motion" and rng.integers(3) == 0
        same = bool(rng.integers(2))  # the first asked part turns the driver's way
        sense = SENSES[int(rng.integers(2))]
        offer_jam = bool(rng.integers(2))
        for _ in range(BUILD_TRIES):
            grown = _grow(p, jammed, rng)
            if grown is None:
                continue
            b = _turned(grown)
            speeds, _ = mech.propagate(b.parts, b.links, LABELS[0],
                                       Fraction(-1 if sense == "clockwise" else 1))
            if (speeds is None) != jammed:
                continue
            parts = _phased(b)
            if parts is None:
                continue
            draft = _item(b, parts, speeds, kind, sense, same, offer_jam, rng)
            if draft is not None:
                return draft
        raise Reject("no mechanism met the item's draw")


def _item(b: Build, parts: list[Part], speeds: dict[str, Fraction] | None, kind: str,
          sense: str, same: bool, offer_jam: bool, rng: np.random.Generator) -> Draft | None:
    driver = parts[0]
    others = parts[1:]
    n_turns = None
    if kind == "turns":
        n_turns = turns.driver_turns(rng)
        asked_part = None if speeds is None else turns.asked_part(parts, speeds, n_turns, rng)
        if asked_part is None:
            return None
        asked = [asked_part.name]
    elif kind == "motion":
        firsts = others if speeds is None else [
            q for q in others if not (q.turns and _front(q)) or
            (_word(q, speeds[q.name]) == sense) == same]
        if not firsts:
            return None
        x = firsts[int(rng.integers(len(firsts)))]
        rest = [q for q in others if q.name != x.name]
        y = rest[int(rng.integers(len(rest)))]
        asked = [x.name, y.name]
    else:
        asked_parts = _candidates(parts, speeds, kind, rng)
        if asked_parts is None:
            return None
        asked = [q.name for q in asked_parts]
    spec_parts = [_part_spec(q) for q in parts]
    links = [LinkSpec(lk.kind, lk.a, lk.b) for lk in b.links]
    if kind == "motion":
        answer_word = OPEN_JAMMED if speeds is None else _word(
            next(q for q in parts if q.name == asked[0]), speeds[asked[0]])
    elif kind == "turns" and speeds is not None and n_turns is not None:
        answer_word = str(n_turns * abs(speeds[asked[0]]))
    else:
        answer_word = asked[0]
    spec = Spec(parts=spec_parts, links=links, driver=driver.name, driver_sense=sense,
                oblique=b.oblique, question=kind, asked=asked, open_answer=answer_word,
                driver_turns=n_turns)
    motion = exact_motion(spec)
    if motion.clash is not None and not motion.sense_clash:
        return None  # a jam of speeds alone: the picture cannot show it without teeth counted
    drawn = [(lk.kind, lk.a, lk.b) for lk in b.links]
    arrows = {driver.name: 1 if sense == "counterclockwise" else -1}
    picture = legibility.legible_drawing(
        parts, drawn, b.oblique, arrows, *legibility.needed(drawn, driver.name, asked,
                                                             speeds is None))
    if picture is None:
        return None
    data, ops = _options(spec, parts, speeds, asked, offer_jam, rng)
    return mechanism_draft(spec, picture, data, ops, lambda d: explanation(spec, d, motion))


def _candidates(parts: list[Part], speeds: dict[str, Fraction] | None, kind: str,
                rng: np.random.Generator) -> list[Part] | None:
    """Four turning parts on different axles, the answer (fastest or slowest) first, whose
    speed beats every other one's by ``FAST_MARGIN``."""
    if speeds is None:
        return None
    by_shaft: dict[int, Part] = {}
    for q in parts:
        if q.turns:
            by_shaft.setdefault(q.shaft, q)
    pool = list(by_shaft.values())
    if len(pool) < 4:
        return None
    for k in rng.permutation(len(list(combinations(range(len(pool)), 4))))[:20]:
        four = [pool[i] for i in list(combinations(range(len(pool)), 4))[int(k)]]
        ranked = sorted(four, key=lambda q: abs(speeds[q.name]), reverse=kind == "fastest")
        a, b = abs(speeds[ranked[0].name]), abs(speeds[ranked[1].name])
        if (a >= b * FAST_MARGIN) if kind == "fastest" else (b >= a * FAST_MARGIN):
            return ranked
    return None


def _options(spec: Spec, parts: list[Part], speeds: dict[str, Fraction] | None,
             asked: list[str], offer_jam: bool,
             rng: np.random.Generator) -> tuple[list[OptionData], list[str]]:
    """The answer's data first, then three wrong ones, and each one's operator."""
    if spec.question == "turns" and speeds is not None and spec.driver_turns is not None:
        return turns.options(abs(speeds[asked[0]]), spec.driver_turns, rng)
    if spec.question != "motion":
        return [OptionData(part=n) for n in asked], ["extreme_speed"] + ["other_part"] * 3
    x, y = (spec.part(n) for n in asked)
    combos = [{x.name: wx, y.name: wy} for wx in words(x) for wy in words(y)]
    if speeds is None:
        wrong = [combos[int(i)] for i in rng.permutation(4)[:3]]
        return ([OptionData(jammed=True)] + [OptionData(motions=c) for c in wrong],
                ["jammed"] + ["motion_of_a_jammed_mechanism"] * 3)
    named = {q.name: q for q in parts}
    truth = {n: _word(named[n], speeds[n]) for n in asked}
    others = [c for c in combos if c != truth]
    picked = [others[int(i)] for i in rng.permutation(3)]
    ops = ["true_motion"] + [_operator(truth, c) for c in picked]
    data = [OptionData(motions=truth)] + [OptionData(motions=c) for c in picked]
    if offer_jam:
        data[-1], ops[-1] = OptionData(jammed=True), "wrongly_jammed"
    return data, ops


def _operator(truth: dict[str, str], claim: dict[str, str]) -> str:
    wrong = [n for n in truth if truth[n] != claim[n]]
    return "both_reversed" if len(wrong) == 2 else "one_reversed"

