"""Drawings of mechanisms (spatialcad/geometry/mechanisms.py): gears with their teeth,
ring gears (open inside: what lies behind shows), pulleys and belts, racks, drums with a
rope and a weight, axles, part labels and motion arrows.

``front`` drawings look along -z; ``oblique`` ones are cabinet projections (depth z drawn
at 0.6 of its length towards the lower left), so that parts on one axle at different depths and
gears in a horizontal plane show.  A drawing is scaled to fill the panel of a 1280 px wide
composite of at most ``MAX_PIXELS`` (``PANEL_W`` x ``PANEL_H``) in one of its two
directions.  Drawn at ``SUPER`` times the size with OpenCV's anti-aliased fixed-point
primitives and reduced by area averaging.  Axles are drawn over their parts (a shaft joins
the parts fixed on it).  Each label sits inside its part's visible area, clear of other ink,
or outside with a leader line (:func:`labels`); arrows keep off labels and contacts.

:func:`part_masks` gives each part's silhouette (and each belt's and rope's) at the
panel's size, which the verifier measures: parts that mesh touch, parts that do not are
``MIN_GAP_PX`` apart.  :func:`owners` paints who shows at each pixel of the drawing, from
which render/mechanism_legibility.py proves what the picture shows.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from spatialcad.geometry import exact
from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.colours import MECHANISM_COLOURS as COLOURS
from spatialcad.geometry.colours import WHITE, Colour
from spatialcad.geometry.mechanisms import Part

from . import layout
from . import mechanism_bars as bars
from . import mechanism_planetary as planetary
from . import mechanism_worm as worm
from .opencv import cv2
from .raster import remembered_as

SCALE = 8.0  # px per module of the smallest legible drawing the layout is sized for
MIN_SCALE = 5.0  # below this the teeth are not legible: the drawing is refused
MAX_SCALE = 32.0  # px per module at most (a small mechanism is not blown up further)
MAX_PIXELS = 1_003_520  # the most pixels a composite may have
# the panel that fills a 1280 px wide composite, whose caption and padding take 76 px of
# its height, within MAX_PIXELS
PANEL_W = layout.WIDTH - 2 * layout.PAD
PANEL_H = MAX_PIXELS // layout.WIDTH - (2 * layout.PAD + layout.CAPTION_H + 4)
MARGIN_PX = 12  # white around the drawing's room (its parts and their arrows' room)
SUPER = 2
SHIFT = 4
MIN_GAP_PX = 6.0  # parts that do not touch are drawn at least this far apart
MAX_MESH_PX = 1.5  # parts in mesh are drawn at most this far apart (at SCALE)
MAX_MESH_OVERLAP_PX = 30  # and gears of one plane in mesh share at most this many pixels
# (at SCALE px a module: Frame.mesh_overlap scales it with the area of a tooth)
LABEL_SCALE = 0.6  # the labels' font scale at SCALE px a module (larger drawings: larger)
LABEL_PX = 12  # the least height of a label's glyph
OBLIQUE = (-0.6 * math.cos(math.radians(45)), -0.6 * math.sin(math.radians(45)))
INK: Colour = (40, 40, 40)
AXLE: Colour = (70, 70, 70)
_OBLIQUE = np.array(OBLIQUE)
KEPT = 32000  # in an owner map: pixels kept free of labels
SLIDER_ACROSS = 1.2  # a slider's half height (modules) in a gear train's drawing
CRANK_HALF = 1.4  # a crank's half width (modules) there: wide enough to hold its label
Links = Sequence[tuple[str, str, str]]  # (kind, a, b)


class TooLarge(ValueError):
    """The mechanism does not fit a legible drawing."""


def project(points: np.ndarray, oblique: bool) -> np.ndarray:
    """(k, 3) world points -> (k, 2) drawing plane points (y up)."""
    p = np.asarray(points, dtype=float).reshape(-1, 3)
    if not oblique:
        return p[:, :2].copy()
    out: np.ndarray = p[:, :2] + p[:, 2:] * _OBLIQUE  # x + OBLIQUE[0] z, y + OBLIQUE[1] z
    return out


def in_plane(part: Part, flat: np.ndarray) -> np.ndarray:
    """(k, 2) points of a turning part's plane -> (k, 3) world points."""
    e1, e2 = mech.plane_basis(part.axis)
    out: np.ndarray = np.asarray(part.centre) + flat[:, :1] * e1 + flat[:, 1:2] * e2
    return out


@dataclass(frozen=True)
class Shape:
    """One outline of a part (or of a link, axle or arrow), in world coordinates.
    ``owner``: a part's name, "a-b" for a belt or rope, "axle:a+b" for the axle of parts
    a and b, "arrow:a" for part a's arrow."""

    owner: str
    points: np.ndarray  # (k, 3)
    fill: Colour | None  # None: a line, not filled
    width: float = 1.0  # line width in px at SCALE px a module (lines and outlines)
    colour: Colour = INK
    hole: np.ndarray | None = None  # (k, 3): an inner outline left open (a ring gear's)
    closed: bool = True  # a line of more than two points closes on itself


def _rack_outline(part: Part) -> np.ndarray:
    """A rack: teeth pointing from its pitch line away from its body (:func:`rack_normal`)."""
    d = np.asarray(part.axis, dtype=float)
    normal = rack_normal(part)
    c = np.asarray(part.centre, dtype=float)
    half = part.radius
    pitch = math.pi
    root, tip = mech.DEDENDUM, -mech.ADDENDUM
    body = root + 2.5
    pts = [c - half * d + body * normal]
    first = part.phase - pitch * math.ceil((half + part.phase) / pitch)
    s = first
    pts.append(c - half * d + root * normal)
    while s <= half:
        for ds, h in ((-0.29, root), (-0.14, tip), (0.14, tip), (0.29, root)):
            t = s + ds * pitch
            if -half <= t <= half:
                pts.append(c + t * d + h * normal)
        s += pitch
    pts += [c + half * d + root * normal, c + half * d + body * normal]
    return np.array(pts)


def rack_normal(part: Part) -> np.ndarray:
    """The side of a rack's pitch line that its body lies on (its teeth point the other
    way): z x axis."""
    x, y, z = (float(v) for v in part.axis)  # np.cross's products, written out
    return np.array([0.0 * z - 1.0 * y, 1.0 * x - 0.0 * z, 0.0 * y - 0.0 * x])


@functools.lru_cache(maxsize=512)
def part_shapes(part: Part) -> list[Shape]:
    """The outlines that draw ``part`` (back to front), its silhouette first, and a held
    part's hatching last; do not change them (remembered)."""
    shapes = _own_shapes(part)
    if part.fixed:
        shapes += [Shape(part.name, in_plane(part, tick), None, 1.0)
                   for tick in planetary.hatch_ticks(part)]
    return shapes


def _own_shapes(part: Part) -> list[Shape]:
    fill = COLOURS[part.kind]
    if part.kind == "carrier":
        outer, inner, spokes, hub, pins = planetary.carrier_outlines(part)
        return [Shape(part.name, in_plane(part, outer), fill, 1.0, hole=in_plane(part, inner)),
                *[Shape(part.name, in_plane(part, s), fill, 1.0) for s in spokes],
                Shape(part.name, in_plane(part, hub), fill, 1.0),
                *[Shape(part.name, in_plane(part, pin), AXLE, 1.0, AXLE) for pin in pins]]
    if part.kind == "worm":
        view = worm.end_view(part)
        return [Shape(part.name, worm.shaft(part), None, 3.0, AXLE),
                Shape(part.name, worm.body(part), fill, 1.0),
                *[Shape(part.name, line, None, 1.5) for line in worm.crest_lines(part)],
                Shape(part.name, in_plane(view, mech.circle(view.radius, 48)), fill, 1.0),
                Shape(part.name, in_plane(view, mech.circle(0.45, 16)), AXLE, 1.0, AXLE)]
    if part.kind in ("crank", "rod"):  # a bar from its pivot (or first pin) to its far end
        half = CRANK_HALF if part.kind == "crank" else bars.BAR
        return [Shape(part.name, bars.capsule(part.centre, bar_end(part), half,
                                              part.centre[2]), fill, 1.0)]
    if part.kind == "slider":
        return [Shape(part.name, bars.slider_box(part.centre, part.axis, part.radius,
                                                 SLIDER_ACROSS), fill, 1.0)]
    if part.kind == "wheel":  # a worm wheel: its toothed rim, open inside
        teeth = in_plane(part, mech.tooth_outline(part.teeth, part.radius, part.phase))
        inner = in_plane(part, mech.circle(part.radius - mech.DEDENDUM - mech.RIM, 96))
        return [Shape(part.name, teeth, fill, 1.0, hole=inner)]
    if part.kind in ("gear", "bevel"):
        teeth = in_plane(part, mech.tooth_outline(part.teeth, part.radius, part.phase))
        hub = in_plane(part, mech.circle(0.3 * part.radius))
        return [Shape(part.name, teeth, fill, 1.0), Shape(part.name, hub, None, 1.0)]
    if part.kind == "ring":
        rim = in_plane(part, mech.circle(part.outer, 96))
        teeth = in_plane(part, mech.tooth_outline(part.teeth, part.radius, part.phase, True))
        return [Shape(part.name, rim, fill, 1.0, hole=teeth)]
    if part.kind in ("pulley", "drum"):
        rim = in_plane(part, mech.circle(part.radius, 64))
        groove = in_plane(part, mech.circle(part.radius - 0.6, 64))
        return [Shape(part.name, rim, fill, 1.0), Shape(part.name, groove, None, 1.0)]
    if part.kind == "rack":
        return [Shape(part.name, _rack_outline(part), fill, 1.0)]
    # a weight: a square of side 2 radius around its centre
    c, h = np.asarray(part.centre, dtype=float), part.radius
    box = np.array([c + (sx * h, sy * h, 0.0) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    return [Shape(part.name, box, fill, 1.0)]


def bar_end(part: Part) -> tuple[float, float, float]:
    """A crank's or connecting rod's far end (world point)."""
    c = part.centre
    return (c[0] + part.radius * math.cos(part.phase), c[1] + part.radius * math.sin(part.phase),
            c[2])


def link_shapes(parts: Mapping[str, Part], kind: str, a: str, b: str) -> list[Shape]:
    """Belts (two straight spans), ropes (from the drum down to the weight), pins (at
    the far end of bar ``a``; a slider's also its guide rails, along the slider's travel
    from the crank's pivot's reach)."""
    pa, pb = parts[a], parts[b]
    if kind == "pin":
        out = [Shape(f"{a}-{b}", bars.disc(bar_end(pa), bars.PIN, z=pa.centre[2]), WHITE, 1.0)]
        if pb.kind == "slider":
            crank = next(q for q in parts.values() if q.kind == "crank")
            side = 1.0 if pb.centre[0] > crank.centre[0] else -1.0
            mid = (crank.centre[0] + side * pa.radius, pb.centre[1])
            out += [Shape(f"{a}-{b}", line, None, 1.5) for line in bars.rails(
                mid, pb.axis, SLIDER_ACROSS + bars.RAIL_GAP, crank.radius + pb.radius + 0.6,
                pb.centre[2])]
        return out
    if kind in ("belt", "crossed"):
        return [Shape(f"{a}-{b}", np.array([u, v]), None, 3.0, COLOURS["belt"])
                for u, v in mech.belt_world_spans(pa, pb, kind == "crossed")]
    if kind == "rope":
        top = np.array([pb.centre[0], pa.centre[1], pb.centre[2]])
        bottom = np.array([pb.centre[0], pb.centre[1] + pb.radius, pb.centre[2]])
        return [Shape(f"{a}-{b}", np.array([top, bottom]), None, 2.0, COLOURS["rope"])]
    return []


def upright(part: Part) -> bool:
    """A gear on a vertical axle (standing on another gear, seen from above)."""
    return part.kind == "bevel" and abs(part.axis[1]) > 0.5


def axle(parts: Sequence[Part]) -> np.ndarray:
    """The axle of parts on one shaft: a segment along the axis through all of them (a
    vertical axle rises well above its gear, so that it reads as standing up)."""
    axis = np.asarray(parts[0].axis, dtype=float)
    depth = [exact.dot(p.centre, axis) for p in parts]
    c = np.asarray(parts[0].centre, dtype=float) - depth[0] * axis
    top = max(depth) + (parts[0].radius + 4.0 if upright(parts[0]) else 1.5)
    return np.array([c + (min(depth) - 1.5) * axis, c + top * axis])


def axle_shapes(group: Sequence[Part]) -> list[Shape]:
    """An axle's shaft and the hub at its front end (a disc facing the viewer)."""
    owner = "axle:" + "+".join(p.name for p in group)
    ends = axle(group)
    front = ends[int(np.argmax(ends[:, 2]))] if abs(group[0].axis[2]) > 0.5 else ends[1]
    hub = front + np.concatenate([0.45 * mech.circle(1.0, 16), np.zeros((16, 1))], axis=1)
    return [Shape(owner, ends, None, 3.0, AXLE), Shape(owner, hub, AXLE, 1.0, AXLE)]


def _arc(part: Part, middle: float) -> np.ndarray:
    """An arrow's arc around a turning part, 100 degrees centred on angle ``middle``."""
    r = part.outer + 1.2
    t = np.linspace(middle - math.radians(50), middle + math.radians(50), 24)
    return np.concatenate([r * exact.cos_sin(t), t[:, None]], axis=1)


def arrow_angle(part: Part, parts: Sequence[Part], oblique: bool,
                avoid: Sequence[tuple[float, float, float]] = ()) -> float:
    """Where around a turning part its arrow goes: of twelve directions, the one whose arc
    keeps farthest from the other parts (the first such), among those whose arc keeps off
    the discs ``avoid`` (x, y, radius in the drawing plane: labels and contacts) when any
    does."""
    others = [q for q in parts if q.name != part.name and not (q.turns and q.shaft == part.shaft)]
    centres = project(np.array([q.centre for q in others]), oblique)[:, None, :] \
        if others else np.zeros((0, 1, 2))
    reach = np.array([q.outer if q.turns else (q.radius if q.kind == "slider" else 0.0)
                      if q.kind in ("rod", "slider") else 2 * q.radius for q in others])
    keep = np.array(avoid, dtype=float).reshape(-1, 3)
    best, where = (False, -math.inf), 0.0
    for k in range(12):
        middle = math.radians(90 + 30 * k)
        arc = project(in_plane(part, _arc(part, middle)[:, :2]), oblique)
        gaps = arc[None] - centres  # (other, arc point, xy)
        score = float(np.min(np.min(np.hypot(gaps[..., 0], gaps[..., 1]), axis=1) - reach)) \
            if others else 0.0
        near = arc[None] - keep[:, None, :2]
        clear = bool(np.all(np.hypot(near[..., 0], near[..., 1]) > keep[:, None, 2] + 0.8))
        if (clear, score) > (best[0], best[1] + 1e-9):
            best, where = (clear, score), middle
    return where


def arrow_shapes(part: Part, sign: int, middle: float = math.pi / 2) -> list[Shape]:
    """A motion arrow: an arc around a turning part centred on angle ``middle`` (head in
    the sense ``sign`` about its axis), or a straight arrow beside a sliding part (head
    towards ``sign`` x axis)."""
    colour = COLOURS["arrow"]
    owner = f"arrow:{part.name}"
    if part.kind == "worm":  # around the worm seen from its right end
        part = worm.end_view(part)
    if part.turns:
        arc3 = _arc(part, middle)
        arc, t = arc3[:, :2], arc3[:, 2]
        end, before = (arc[-1], t[-1]) if sign > 0 else (arc[0], t[0])
        along = np.array([-math.sin(before), math.cos(before)]) * (1 if sign > 0 else -1)
        out = np.array([math.cos(before), math.sin(before)])
        head = np.array([end + 1.2 * along, end + 0.8 * out, end - 0.8 * out])
        return [Shape(owner, in_plane(part, arc), None, 3.0, colour, closed=False),
                Shape(owner, in_plane(part, head), colour, 1.0, colour)]
    d = np.asarray(part.axis, dtype=float) * sign
    if part.kind == "rack":  # beyond the rack's body
        c = np.asarray(part.centre, dtype=float) + (mech.DEDENDUM + 4.0) * rack_normal(part)
    else:  # right of the weight
        c = np.asarray(part.centre, dtype=float) + (part.radius + 1.5, 0.0, 0.0)
    tail, tip = c - 1.8 * d, c + 1.8 * d
    perp = np.array([-d[1], d[0], 0.0])
    head = np.array([tip + 1.2 * d, tip + 0.8 * perp, tip - 0.8 * perp])
    return [Shape(owner, np.array([tail, tip]), None, 3.0, colour),
            Shape(owner, head, colour, 1.0, colour)]


def label_spot(part: Part) -> np.ndarray:
    """Where a part's label would best be written (world point): its centre, a rack's
    body, a bar's middle."""
    c = np.asarray(part.centre, dtype=float)
    if part.kind == "rack":
        return c + (mech.DEDENDUM + 1.3) * rack_normal(part)
    if part.kind in ("crank", "rod"):  # a bar's middle
        middle: np.ndarray = (c + np.asarray(bar_end(part), dtype=float)) / 2
        return middle
    return c


def _depth(part: Part) -> float:
    """Where a part's outlines go in the drawing order: by depth, a gear on a vertical
    axle (standing on another gear) after the parts of its depth."""
    return float(part.centre[2]) + (0.5 if upright(part) else 0.0)


@dataclass(frozen=True)
class Frame:
    """Drawing plane -> pixel mapping of one drawing."""

    scale: float
    left: float
    top: float
    size: tuple[int, int]  # (w, h)

    def px(self, flat: np.ndarray, factor: int = 1) -> np.ndarray:
        """Fixed-point int32 pixel coordinates at ``factor`` times the panel's size."""
        x = (flat[:, 0] - self.left) * self.scale * factor - 0.5
        y = (self.top - flat[:, 1]) * self.scale * factor - 0.5
        return np.rint(np.stack([x, y], axis=1) * (1 << SHIFT)).astype(np.int32)

    def pixel(self, flat: np.ndarray) -> np.ndarray:
        """(k, 2) float pixel coordinates (x right, y down) of drawing plane points."""
        return np.stack([(flat[:, 0] - self.left) * self.scale - 0.5,
                         (self.top - flat[:, 1]) * self.scale - 0.5], axis=1)

    def flat(self, xy: Sequence[float]) -> np.ndarray:
        """The drawing plane point of pixel (x, y)."""
        return np.array([(xy[0] + 0.5) / self.scale + self.left,
                         self.top - (xy[1] + 0.5) / self.scale])

    @property
    def thick(self) -> float:
        """How much thicker lines and labels are than at SCALE px a module."""
        return min(2.5, max(1.0, self.scale / (1.25 * SCALE)))

    @property
    def mesh_gap(self) -> float:
        """The most pixels apart two parts in mesh may be drawn at this scale (their
        teeth's play grows with it)."""
        return MAX_MESH_PX * max(1.0, self.scale / SCALE)

    @property
    def mesh_overlap(self) -> int:
        """The most pixels two gears of one plane in mesh may share at this scale."""
        return int(MAX_MESH_OVERLAP_PX * (self.scale / SCALE) ** 2)

    def line(self, width: float, factor: int = 1) -> int:
        return max(1, int(round(width * self.thick * factor)))


def shafts(parts: Sequence[Part]) -> list[list[Part]]:
    groups: dict[int, list[Part]] = {}
    for p in parts:
        if p.turns:
            groups.setdefault(p.shaft, []).append(p)
    return list(groups.values())


def _base_shapes(parts: Sequence[Part], links: Links) -> list[Shape]:
    """The parts, belts, ropes and axles, in drawing order (by depth, stable)."""
    by_name = {p.name: p for p in parts}
    out: list[tuple[float, Shape]] = []
    for p in parts:
        order = 0.0 if p.kind == "ring" else (0.05 if p.kind == "slider" else 0.1)
        out += [(_depth(p) + order, s) for s in part_shapes(p)]
    for kind, a, b in links:  # a slider's guide rails (a pin's lines) under the slider
        out += [(_depth(by_name[a]) + (-0.01 if kind == "pin" and len(s.points) == 2 else 0.15),
                 s) for s in link_shapes(by_name, kind, a, b)]
    for group in shafts(parts):
        if len(group) > 1 or upright(group[0]):  # a lone axle pointing at the viewer: its hub
            out += [(max(_depth(p) for p in group) + 0.2, s) for s in axle_shapes(group)]
    return [s for _, s in sorted(out, key=lambda t: t[0])]


def contacts(parts: Sequence[Part], links: Links) -> list[tuple[int, np.ndarray]]:
    """Every link's contact points (world), with the link's index."""
    by_name = {p.name: p for p in parts}
    return [(i, c) for i, (kind, a, b) in enumerate(links)
            for c in mech.contact_points(kind, by_name[a], by_name[b])]


def frame(parts: Sequence[Part], links: Links, oblique: bool) -> Frame:
    """The frame that holds every part (and the arrows' room) at the scale that fills
    ``PANEL_W`` x ``PANEL_H`` in one direction (up to ``MAX_SCALE``); :class:`TooLarge`
    if that scale is below ``MIN_SCALE``."""
    return _frame(tuple(parts), tuple(tuple(lk) for lk in links), oblique)


@functools.lru_cache(maxsize=64)
def _frame(parts: tuple[Part, ...], links: tuple[tuple[str, str, str], ...],
           oblique: bool) -> Frame:
    """:func:`frame`, worked out once per mechanism (checking its labels, drawing it and
    measuring its parts' masks each need it)."""
    pts = [project(s.points, oblique) for s in _base_shapes(parts, links)]
    for p in parts:
        if p.turns:
            ring = in_plane(p, mech.circle(p.outer + 2.6, 16))
            pts.append(project(ring, oblique))
        else:
            pts.append(project(np.asarray(p.centre)[None] + np.array(
                [[0, 6.0, 0], [0, -6.0, 0], [5.0, 0, 0], [-5.0, 0, 0]]), oblique))
    flat = np.concatenate(pts)
    lo, hi = flat.min(axis=0), flat.max(axis=0)
    span = hi - lo
    scale = min(MAX_SCALE, (PANEL_W - 2 * MARGIN_PX) / float(span[0]),
                (PANEL_H - 2 * MARGIN_PX) / float(span[1]))
    if scale < MIN_SCALE:
        raise TooLarge(f"a {span[0]:.0f} x {span[1]:.0f} module mechanism is not legible")
    size = (min(PANEL_W, int(math.ceil(span[0] * scale)) + 2 * MARGIN_PX),
            min(PANEL_H, int(math.ceil(span[1] * scale)) + 2 * MARGIN_PX))
    return Frame(scale, float(lo[0]) - MARGIN_PX / scale, float(hi[1]) + MARGIN_PX / scale,
                 size)


def paint(target: np.ndarray, fr: Frame, s: Shape, oblique: bool, value: int,
           factor: int = 1, aa: bool = False, offset: tuple[int, int] = (0, 0)) -> None:
    """Paint one shape: ``value`` into an owner map, or its colours into a picture;
    ``target``'s pixel (0, 0) is the drawing's ``offset``."""
    shift = np.array([[offset[0] << SHIFT, offset[1] << SHIFT]], np.int32)
    pts = fr.px(project(s.points, oblique), factor) - shift
    kind = cv2.LINE_AA if aa else cv2.LINE_8
    width = fr.line(s.width, factor)
    polys = [pts] if s.hole is None else [pts, fr.px(project(s.hole, oblique), factor) - shift]
    if s.fill is not None:
        cv2.fillPoly(target, polys, s.fill if aa else value, kind, SHIFT)
    for poly in polys:
        cv2.polylines(target, [poly], s.fill is not None or (s.closed and len(poly) > 2),
                      s.colour if aa else value, width, kind, SHIFT)


@dataclass(frozen=True)
class Label:
    """A part's label: a disc of ``radius`` px at ``centre`` (pixel x, y), and a leader
    line (from the disc's edge to the part) when it sits outside its part."""

    name: str
    centre: tuple[int, int]
    radius: int
    leader: tuple[tuple[int, int], tuple[int, int]] | None


def label_font(fr: Frame) -> float:
    return min(1.0, LABEL_SCALE * fr.thick)


@functools.lru_cache(maxsize=256)
def text_size(text: str, font: float) -> tuple[int, int]:
    """(w, h) of a label's text at font scale ``font``."""
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font, 2)
    return int(tw), int(th)


def label_radius(fr: Frame, text: str) -> int:
    return (max(text_size(text, label_font(fr))) + 10) // 2


def label_height(fr: Frame) -> int:
    """The pixel height of a label's capital letter."""
    return text_size("W", label_font(fr))[1]


def disc_pixels(shown: np.ndarray, centre: tuple[int, int], radius: int) -> np.ndarray:
    """The values of ``shown`` within ``radius`` of pixel ``centre`` (x, y)."""
    h, w = shown.shape
    x0, x1 = max(0, centre[0] - radius), min(w, centre[0] + radius + 1)
    y0, y1 = max(0, centre[1] - radius), min(h, centre[1] + radius + 1)
    ys, xs = np.ogrid[y0:y1, x0:x1]
    inside = (xs - centre[0]) ** 2 + (ys - centre[1]) ** 2 <= radius * radius
    return np.asarray(shown[y0:y1, x0:x1][inside])


def window(fr: Frame, s: Shape, oblique: bool, size: tuple[int, int],
           pad: int = 0) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the pixels a shape can paint (its points' box, its line width and
    ``pad`` around), within a drawing of ``size`` (w, h)."""
    xy = fr.pixel(project(s.points, oblique))
    grow = fr.line(s.width) + 2 + pad
    return (max(0, int(math.floor(float(xy[:, 0].min()))) - grow),
            max(0, int(math.floor(float(xy[:, 1].min()))) - grow),
            min(size[0], int(math.ceil(float(xy[:, 0].max()))) + grow + 1),
            min(size[1], int(math.ceil(float(xy[:, 1].max()))) + grow + 1))


def shape_mask(fr: Frame, s: Shape, oblique: bool, size: tuple[int, int],
               pad: int = 0) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """A shape's pixels as a uint8 mask of its :func:`window` (and that window)."""
    x0, y0, x1, y1 = box = window(fr, s, oblique, size, pad)
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    paint(m, fr, s, oblique, 1, offset=(x0, y0))
    return box, m


@dataclass(frozen=True)
class Plan:
    """What a drawing of one mechanism shows, before its arrows: the frame, the shapes in
    drawing order, who shows at each pixel (ids into ``owners``, 0: nothing) and the
    labels."""

    frame: Frame
    shapes: list[Shape]
    owners: list[str]  # owner of id k + 1
    shown: np.ndarray  # (h, w) int16
    labels: list[Label]

    def id(self, owner: str) -> int:
        return self.owners.index(owner) + 1 if owner in self.owners else -1


def plan(parts: Sequence[Part], links: Links, oblique: bool) -> Plan:
    """The mechanism's :class:`Plan` (worked out once: drawing, checking and every step's
    picture share it); do not change it."""
    return _plan(tuple(parts), tuple(tuple(lk) for lk in links), oblique)


@functools.lru_cache(maxsize=16)
def _plan(parts: tuple[Part, ...], links: tuple[tuple[str, str, str], ...],
          oblique: bool) -> Plan:
    fr = frame(parts, links, oblique)
    shapes = _base_shapes(parts, links)
    owners: list[str] = []
    for s in shapes:
        if s.owner not in owners:
            owners.append(s.owner)
    shown = np.zeros((fr.size[1], fr.size[0]), np.int16)
    for s in shapes:
        paint(shown, fr, s, oblique, owners.index(s.owner) + 1)
    shown.flags.writeable = False
    kept = shown.copy()  # the links' contacts are kept free of labels
    r = int(contact_radius(fr))
    for _, c in contacts(parts, links):
        xy = fr.pixel(project(c, oblique))[0]
        cv2.circle(kept, (int(round(float(xy[0]))), int(round(float(xy[1])))), r, KEPT, -1)
    return Plan(fr, shapes, owners, shown, _labels(parts, fr, owners, kept, oblique))


def _labels(parts: Sequence[Part], fr: Frame, owners: list[str], shown: np.ndarray,
            oblique: bool) -> list[Label]:
    """Each part's label: inside its visible area, clear of other ink (and of the links'
    contacts, ``KEPT`` in ``shown``) by 2 px, nearest its :func:`label_spot`; else outside
    over white, with a leader line to the part (over other parts if need be, never over a
    contact or another label); else (left to the checks to refuse) at its spot.  Labels
    keep apart."""
    clear: list[np.ndarray] = []  # how far each pixel is from ink, made when first needed
    out: list[Label] = []
    for p in parts:
        pid = owners.index(p.name) + 1
        r = label_radius(fr, p.name)
        spot = fr.pixel(project(label_spot(p), oblique))[0]
        centre = fr.pixel(project(np.asarray(p.centre), oblique))[0]
        at = (int(round(float(spot[0]))), int(round(float(spot[1]))))
        if np.all(disc_pixels(shown, at, r + 2) == pid) and _apart(at[0], at[1], r, out):
            out.append(Label(p.name, at, r, None))  # its spot has room: no search
            continue
        placed = _inside(p, fr, shown, pid, r, spot, out, oblique)
        if placed is None:
            if not clear:
                clear.append(cv2.distanceTransform((shown == 0).astype(np.uint8),
                                                   cv2.DIST_L2, 5))
            placed = _outside(p, fr, shown, clear[0], pid, r, centre, out)
        if placed is None:
            placed = Label(p.name, (int(round(spot[0])), int(round(spot[1]))), r, None)
        out.append(placed)
    return out


def _apart(x: np.ndarray | int, y: np.ndarray | int, r: int,
           placed: Sequence[Label]) -> np.ndarray:
    """Whether a label of radius ``r`` at (x, y) keeps 4 px from every ``placed`` one."""
    ok = np.ones(np.broadcast(x, y).shape, bool)
    for q in placed:
        ok &= (x - q.centre[0]) ** 2 + (y - q.centre[1]) ** 2 >= (r + q.radius + 4) ** 2
    return ok


def _inside(p: Part, fr: Frame, shown: np.ndarray, pid: int, r: int, spot: np.ndarray,
            placed: Sequence[Label], oblique: bool) -> Label | None:
    x0, y0, x1, y1 = window(fr, part_shapes(p)[0], oblique, fr.size)
    own = np.zeros((y1 - y0 + 2, x1 - x0 + 2), np.uint8)  # a border of others around it
    own[1:-1, 1:-1] = shown[y0:y1, x0:x1] == pid
    room = cv2.distanceTransform(own, cv2.DIST_L2, 5)[1:-1, 1:-1]
    yy, xx = np.nonzero(room >= r + 2)
    if not len(xx):
        return None
    xx, yy = xx + x0, yy + y0
    ok = _apart(xx, yy, r, placed)
    if not ok.any():
        return None
    xx, yy = xx[ok], yy[ok]
    k = int(np.argmin((xx - spot[0]) ** 2 + (yy - spot[1]) ** 2))
    return Label(p.name, (int(xx[k]), int(yy[k])), r, None)


def _outside(p: Part, fr: Frame, shown: np.ndarray, clear: np.ndarray, pid: int, r: int,
             centre: np.ndarray, placed: Sequence[Label]) -> Label | None:
    """The label over white nearest its part: of 24 directions from the part's centre,
    the one whose disc clears all ink (by 2 px) and other labels with the shortest leader
    from the part's farthest visible pixel that way (at least ``gap`` px)."""
    h, w = shown.shape
    reach = (p.outer if p.turns else 2.0 * p.radius + 4.0) * fr.scale + 4
    gap = max(8, int(round(0.8 * fr.scale)))
    longest = gap + int(6 * fr.scale)
    best: tuple[int, Label] | None = None
    for k in range(24):
        a = math.radians(90 + 15 * k)
        u = np.array([math.cos(a), -math.sin(a)])
        ray = np.rint(centre[None] + np.arange(int(reach), -1, -1)[:, None] * u).astype(int)
        inside = (ray[:, 0] >= 0) & (ray[:, 0] < w) & (ray[:, 1] >= 0) & (ray[:, 1] < h)
        hit = np.nonzero(inside)[0]
        hit = hit[shown[ray[hit, 1], ray[hit, 0]] == pid]
        if not len(hit):
            continue
        start = ray[hit[0]]
        d = np.arange(gap, longest, 2)
        c = np.rint(start[None] + (d + r)[:, None] * u).astype(int)
        ok = (c[:, 0] >= r + 1) & (c[:, 0] < w - r - 1) & (c[:, 1] >= r + 1) & \
            (c[:, 1] < h - r - 1)
        ok[ok] = clear[c[ok, 1], c[ok, 0]] >= r + 2
        ok &= _apart(c[:, 0], c[:, 1], r, placed)
        for i in np.nonzero(ok)[0][:1]:
            if best is not None and d[i] >= best[0]:
                break
            end = np.rint(start + d[i] * u).astype(int)
            ends = ((int(end[0]), int(end[1])), (int(start[0]), int(start[1])))
            if _leader_clear(shown, pid, ends[1], ends[0]):
                best = (int(d[i]), Label(p.name, (int(c[i, 0]), int(c[i, 1])), r, ends))
    return None if best is None else best[1]


def leader_pixels(start: tuple[int, int], end: tuple[int, int]) -> np.ndarray:
    """(k, 2) pixels (x, y) along a leader line."""
    n = max(abs(end[0] - start[0]), abs(end[1] - start[1])) + 1
    t = np.linspace(0.0, 1.0, n)
    return np.rint(np.stack([start[0] + t * (end[0] - start[0]),
                             start[1] + t * (end[1] - start[1])], axis=1)).astype(int)


def _leader_clear(shown: np.ndarray, pid: int, start: tuple[int, int],
                  end: tuple[int, int]) -> bool:
    """Whether a leader line keeps off the contacts (it may cross other parts)."""
    px = leader_pixels(start, end)
    return not bool(np.any(shown[px[:, 1], px[:, 0]] == KEPT))


def arrow_list(parts: Sequence[Part], links: Links, oblique: bool,
               arrows: Mapping[str, int]) -> list[Shape]:
    """The arrows' shapes, each keeping off the labels and the links' contacts (worked out
    once per mechanism and arrows; do not change them)."""
    return _arrow_list(tuple(parts), tuple(tuple(lk) for lk in links), oblique,
                       tuple(sorted(arrows.items())))


@functools.lru_cache(maxsize=64)
def _arrow_list(parts: tuple[Part, ...], links: tuple[tuple[str, str, str], ...],
                oblique: bool, arrows: tuple[tuple[str, int], ...]) -> list[Shape]:
    pl = plan(parts, links, oblique)
    fr = pl.frame
    keep = [(*fr.flat(lb.centre), (lb.radius + 2) / fr.scale) for lb in pl.labels]
    keep += [(*project(c, oblique)[0], contact_radius(fr) / fr.scale)
             for _, c in contacts(parts, links)]
    by_name = {p.name: p for p in parts}
    out: list[Shape] = []
    for name, sign in arrows:
        p = by_name[name]
        middle = (math.pi / 2 if p.kind == "worm" else arrow_angle(p, parts, oblique, keep)) \
            if p.turns else 0.0
        out += arrow_shapes(p, sign, middle)
    return out


def contact_radius(fr: Frame) -> float:
    """The px radius around a contact point that must show only the linked parts."""
    return max(5.0, 1.0 * fr.scale)


def owners(parts: Sequence[Part], links: Links, oblique: bool, arrows: Mapping[str, int],
           with_labels: bool = True) -> tuple[Plan, list[str], np.ndarray]:
    """Who shows at each pixel of the drawing with ``arrows``: the plan, the owners (ids
    k + 1) and the (h, w) int16 map, arrows ("arrow:a") and (``with_labels``) labels
    ("label:a", disc and leader) painted over the plan's parts."""
    pl = plan(parts, links, oblique)
    names = list(pl.owners)
    shown = pl.shown.copy()
    for s in arrow_list(parts, links, oblique, arrows):
        if s.owner not in names:
            names.append(s.owner)
        paint(shown, pl.frame, s, oblique, names.index(s.owner) + 1)
    if with_labels:
        paint_labels(shown, pl, names)
    return pl, names, shown


def paint_labels(shown: np.ndarray, pl: Plan, names: list[str]) -> None:
    """Paint the labels ("label:a": disc and leader) into an owner map, adding their
    owners to ``names``."""
    for lb in pl.labels:
        names.append(f"label:{lb.name}")
        if lb.leader is not None:
            cv2.line(shown, lb.leader[0], lb.leader[1], len(names), pl.frame.line(1.0))
        cv2.circle(shown, lb.centre, lb.radius, len(names), -1)


def draw(parts: Sequence[Part], links: Links, oblique: bool,
         arrows: Mapping[str, int] | None = None) -> np.ndarray:
    """The mechanism with ``arrows`` (part name -> +1/-1, see :func:`arrow_shapes`) and
    every part labelled with its name.  Remembered (render/raster.py) under everything
    drawn: the verifier of a just generated item draws the same mechanism again."""
    key = ("mechanism", tuple(parts), tuple(tuple(lk) for lk in links), bool(oblique),
           tuple(sorted((arrows or {}).items())))
    return remembered_as(key, lambda: _draw(parts, links, oblique, arrows or {}))


def _draw(parts: Sequence[Part], links: Links, oblique: bool,
          arrows: Mapping[str, int]) -> np.ndarray:
    pl = plan(parts, links, oblique)
    fr = pl.frame
    w, h = fr.size
    factor = SUPER if fr.scale < 2 * SCALE else 1  # lines of 2 px and more need no more
    img = np.full((h * factor, w * factor, 3), 255, np.uint8)
    for s in [*pl.shapes, *arrow_list(parts, links, oblique, arrows)]:
        paint(img, fr, s, oblique, 0, factor, aa=True)
    if factor > 1:
        img = np.asarray(cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA), np.uint8)
    for lb in pl.labels:
        _label(img, fr, lb)
    return img


def _label(img: np.ndarray, fr: Frame, lb: Label) -> None:
    if lb.leader is not None:
        cv2.line(img, lb.leader[0], lb.leader[1], INK, fr.line(1.0), cv2.LINE_AA)
    cv2.circle(img, lb.centre, lb.radius, WHITE, -1, cv2.LINE_AA)
    cv2.circle(img, lb.centre, lb.radius, INK, 1, cv2.LINE_AA)
    font = label_font(fr)
    tw, th = text_size(lb.name, font)
    org = (lb.centre[0] - tw // 2, lb.centre[1] + th // 2)
    cv2.putText(img, lb.name, org, cv2.FONT_HERSHEY_SIMPLEX, font, (0, 0, 0), 2, cv2.LINE_AA)


def part_masks(parts: Sequence[Part], links: Links,
               oblique: bool) -> tuple[Frame, dict[str, np.ndarray]]:
    """Each part's silhouette, and each belt's or rope's (named "a-b"), as a boolean
    mask of the drawing's pixels; axles, hubs and arrows are left out.  Remembered (the
    generator's check and the verifier of a just generated item ask alike): do not change
    the masks."""
    return _part_masks(tuple(parts), tuple(tuple(lk) for lk in links), oblique)


@functools.lru_cache(maxsize=16)
def _part_masks(parts: tuple[Part, ...], links: tuple[tuple[str, str, str], ...],
                oblique: bool) -> tuple[Frame, dict[str, np.ndarray]]:
    fr = frame(parts, links, oblique)
    w, h = fr.size
    by_name = {p.name: p for p in parts}
    masks: dict[str, np.ndarray] = {}
    shapes = [part_shapes(p)[0] for p in parts]
    for kind, a, b in links:
        shapes += link_shapes(by_name, kind, a, b)
    for s in shapes:
        m = masks.setdefault(s.owner, np.zeros((h, w), np.uint8))
        paint(m, fr, s, oblique, 1)
    out = {k: v.astype(bool) for k, v in masks.items()}
    for v in out.values():
        v.flags.writeable = False
    return fr, out


def _box(mask: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(mask.any(axis=1))[0], np.nonzero(mask.any(axis=0))[0]
    return int(xs[0]), int(ys[0]), int(xs[-1]) + 1, int(ys[-1]) + 1


def boxes_apart(a: np.ndarray, b: np.ndarray, px: float) -> bool:
    """Whether the masks' bounding boxes alone put them at least ``px`` apart: then
    :func:`mask_gap` is at least ``px`` too (its chamfer steps, 1, 1.4 and 2.1969, never
    cost less than the Chebyshev distance they cover)."""
    if not a.any() or not b.any():
        return True
    ba, bb = _box(a), _box(b)
    return max(bb[0] - ba[2], ba[0] - bb[2], bb[1] - ba[3], ba[1] - bb[3]) + 1 >= px


def mask_gap(a: np.ndarray, b: np.ndarray) -> float:
    """The least pixel distance between two masks (0 where they overlap), measured in the
    window that holds both."""
    if not a.any() or not b.any():
        return math.inf
    ba, bb = _box(a), _box(b)
    x0, y0 = min(ba[0], bb[0]), min(ba[1], bb[1])
    x1, y1 = max(ba[2], bb[2]), max(ba[3], bb[3])
    wa, wb = a[y0:y1, x0:x1], b[y0:y1, x0:x1]
    if (wa & wb).any():
        return 0.0
    dist = cv2.distanceTransform((~wa).astype(np.uint8), cv2.DIST_L2, 5)
    return float(dist[wb].min())
