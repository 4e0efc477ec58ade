"""Drawings of mechanisms (spatialcad/geometry/mechanisms.py): gears with their teeth,
ring gears, pulleys and belts, racks, drums with a rope and a weight, axles, part labels
and motion arrows.

``front`` drawings look along -z; ``oblique`` ones are cabinet projections (depth z drawn
at 0.6 of its length towards the lower left), so that parts on one axle at different depths and
gears in a horizontal plane show.  Drawn at ``SUPER`` times the size with OpenCV's
anti-aliased fixed-point primitives and reduced by area averaging.  :func:`part_masks`
gives each part's silhouette (and each belt's and rope's) at the panel's size, which the
verifier measures: parts that mesh touch, parts that do not are ``MIN_GAP_PX`` apart.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from spatialcad.geometry import exact
from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.colours import MECHANISM_COLOURS as COLOURS
from spatialcad.geometry.colours import WHITE, Colour
from spatialcad.geometry.mechanisms import Part

from .opencv import cv2
from .raster import remembered_as

SCALE = 8.0  # px per module where the panel allows it
MIN_SCALE = 5.0  # below this the teeth are not legible: the drawing is refused
MAX_PANEL = 1300  # px, the longest side of a drawing
MARGIN = 3.0  # modules around the parts
SUPER = 2
SHIFT = 4
MIN_GAP_PX = 6.0  # parts that do not touch are drawn at least this far apart
MAX_MESH_PX = 1.5  # parts in mesh are drawn at most this far apart
MAX_MESH_OVERLAP_PX = 30  # and gears of one plane in mesh share at most this many pixels
LABEL_SCALE = 0.6
LABEL_PX = 12  # the least height of a label's glyph
OBLIQUE = (-0.6 * math.cos(math.radians(45)), -0.6 * math.sin(math.radians(45)))
INK: Colour = (40, 40, 40)
_OBLIQUE = np.array(OBLIQUE)
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
    """One filled outline of a part, in world coordinates."""

    owner: str
    points: np.ndarray  # (k, 3)
    fill: Colour | None  # None: a line, not filled
    width: float = 1.0  # line width in px (lines and outlines)
    colour: Colour = INK


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
    """The outlines that draw ``part`` (back to front); do not change them (remembered)."""
    fill = COLOURS[part.kind]
    if part.kind in ("gear", "bevel"):
        teeth = in_plane(part, mech.tooth_outline(part.teeth, part.radius, part.phase))
        hub = in_plane(part, mech.circle(0.3 * part.radius))
        return [Shape(part.name, teeth, fill, 1.0), Shape(part.name, hub, None, 1.0)]
    if part.kind == "ring":
        rim = in_plane(part, mech.circle(part.outer, 96))
        teeth = in_plane(part, mech.tooth_outline(part.teeth, part.radius, part.phase, True))
        return [Shape(part.name, rim, fill, 1.0), Shape(part.name, teeth, WHITE, 1.0)]
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


def link_shapes(parts: Mapping[str, Part], kind: str, a: str, b: str) -> list[Shape]:
    """Belts (two straight spans) and ropes (from the drum down to the weight)."""
    pa, pb = parts[a], parts[b]
    if kind in ("belt", "crossed"):
        e1, e2 = mech.plane_basis(pa.axis)
        flat = [np.array([exact.dot(p.centre, e) for e in (e1, e2)]) for p in (pa, pb)]
        origin = np.asarray(pa.centre) - flat[0][0] * e1 - flat[0][1] * e2
        out = []
        for u, v in mech.belt_spans(flat[0], pa.radius, flat[1], pb.radius, kind == "crossed"):
            seg = np.array([origin + u[0] * e1 + u[1] * e2, origin + v[0] * e1 + v[1] * e2])
            out.append(Shape(f"{a}-{b}", seg, None, 3.0, COLOURS["belt"]))
        return out
    if kind == "rope":
        top = np.array([pb.centre[0], pa.centre[1], pb.centre[2]])
        bottom = np.array([pb.centre[0], pb.centre[1] + pb.radius, pb.centre[2]])
        return [Shape(f"{a}-{b}", np.array([top, bottom]), None, 2.0, COLOURS["rope"])]
    return []


def axle(parts: Sequence[Part]) -> np.ndarray:
    """The axle of parts on one shaft: a segment along the axis through all of them."""
    axis = np.asarray(parts[0].axis, dtype=float)
    depth = [exact.dot(p.centre, axis) for p in parts]
    c = np.asarray(parts[0].centre, dtype=float) - depth[0] * axis
    return np.array([c + (min(depth) - 1.5) * axis, c + (max(depth) + 1.5) * axis])


def _arc(part: Part, middle: float) -> np.ndarray:
    """An arrow's arc around a turning part, 100 degrees centred on angle ``middle``."""
    r = part.outer + 1.2
    t = np.linspace(middle - math.radians(50), middle + math.radians(50), 24)
    return np.concatenate([r * exact.cos_sin(t), t[:, None]], axis=1)


def arrow_angle(part: Part, parts: Sequence[Part], oblique: bool) -> float:
    """Where around a turning part its arrow goes: of twelve directions, the one whose arc
    keeps farthest from the other parts (the first such)."""
    others = [q for q in parts if q.name != part.name and not (q.turns and q.shaft == part.shaft)]
    centres = project(np.array([q.centre for q in others]), oblique)[:, None, :]
    reach = np.array([q.outer if q.turns else 2 * q.radius for q in others])
    best, where = -math.inf, 0.0
    for k in range(12):
        middle = math.radians(90 + 30 * k)
        arc = project(in_plane(part, _arc(part, middle)[:, :2]), oblique)
        gaps = arc[None] - centres  # (other, arc point, xy)
        score = float(np.min(np.min(np.hypot(gaps[..., 0], gaps[..., 1]), axis=1) - reach)) \
            if others else 0.0
        if score > best + 1e-9:
            best, where = score, middle
    return where


def arrow_shapes(part: Part, sign: int, middle: float = math.pi / 2) -> list[Shape]:
    """A motion arrow: an arc around a turning part centred on angle ``middle`` (head in
    the sense ``sign`` about its axis), or a straight arrow beside a sliding part (head
    towards ``sign`` x axis)."""
    colour = COLOURS["arrow"]
    if part.turns:
        arc3 = _arc(part, middle)
        arc, t = arc3[:, :2], arc3[:, 2]
        end, before = (arc[-1], t[-1]) if sign > 0 else (arc[0], t[0])
        along = np.array([-math.sin(before), math.cos(before)]) * (1 if sign > 0 else -1)
        out = np.array([math.cos(before), math.sin(before)])
        head = np.array([end + 1.2 * along, end + 0.8 * out, end - 0.8 * out])
        return [Shape(part.name, in_plane(part, arc), None, 3.0, colour),
                Shape(part.name, in_plane(part, head), colour, 1.0, colour)]
    d = np.asarray(part.axis, dtype=float) * sign
    if part.kind == "rack":  # beyond the rack's body
        c = np.asarray(part.centre, dtype=float) + (mech.DEDENDUM + 4.0) * rack_normal(part)
    else:  # right of the weight
        c = np.asarray(part.centre, dtype=float) + (part.radius + 1.5, 0.0, 0.0)
    tail, tip = c - 1.8 * d, c + 1.8 * d
    perp = np.array([-d[1], d[0], 0.0])
    head = np.array([tip + 1.2 * d, tip + 0.8 * perp, tip - 0.8 * perp])
    return [Shape(part.name, np.array([tail, tip]), None, 3.0, colour),
            Shape(part.name, head, colour, 1.0, colour)]


def label_spot(part: Part) -> np.ndarray:
    """Where a part's label is written (world point)."""
    c = np.asarray(part.centre, dtype=float)
    if part.kind == "rack":
        return c + (mech.DEDENDUM + 1.3) * rack_normal(part)
    return c


def _depth(part: Part) -> float:
    """Where a part's outlines go in the drawing order: by depth, a gear on a vertical
    axle (standing on another gear) after the parts of its depth."""
    upright = part.kind == "bevel" and abs(part.axis[1]) > 0.5
    return float(part.centre[2]) + (0.5 if upright else 0.0)


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


def _shapes(parts: Sequence[Part], links: Links, arrows: Mapping[str, int],
            oblique: bool) -> list[tuple[float, Shape]]:
    """Every outline with its drawing depth (drawn in increasing depth)."""
    by_name = {p.name: p for p in parts}
    out: list[tuple[float, Shape]] = []
    for p in parts:
        order = 0.0 if p.kind == "ring" else 0.1
        out += [(_depth(p) + order, s) for s in part_shapes(p)]
    shafts: dict[int, list[Part]] = {}
    for p in parts:
        if p.turns:
            shafts.setdefault(p.shaft, []).append(p)
    for group in shafts.values():
        ends = axle(group)
        out.append((min(_depth(p) for p in group) - 0.05,
                    Shape(group[0].name, ends, None, 3.0, INK)))
        out.append((max(_depth(p) for p in group) + 0.2,
                    Shape(group[0].name, ends[1:], (80, 80, 80), 1.0, INK)))
    for kind, a, b in links:
        out += [(_depth(by_name[a]) + 0.15, s) for s in link_shapes(by_name, kind, a, b)]
    for name, sign in arrows.items():
        p = by_name[name]
        middle = arrow_angle(p, parts, oblique) if p.turns else 0.0
        out += [(100.0, s) for s in arrow_shapes(p, sign, middle)]
    return out


def frame(parts: Sequence[Part], links: Links, oblique: bool) -> Frame:
    """The frame that holds every part (and the arrows' room) at the largest legible scale
    up to ``SCALE``; :class:`TooLarge` if none is legible."""
    return _frame(tuple(parts), tuple(tuple(lk) for lk in links), oblique)


@functools.lru_cache(maxsize=64)
def _frame(parts: tuple[Part, ...], links: tuple[tuple[str, str, str], ...],
           oblique: bool) -> Frame:
    """:func:`frame`, worked out once per mechanism (checking its labels, drawing it and
    measuring its parts' masks each need it)."""
    pts = [project(s.points, oblique) for _, s in _shapes(parts, links, {}, oblique)]
    for p in parts:
        if p.turns:
            ring = in_plane(p, mech.circle(p.outer + 2.6, 16))
            pts.append(project(ring, oblique))
        else:
            pts.append(project(np.asarray(p.centre)[None] + np.array(
                [[0, 6.0, 0], [0, -6.0, 0], [5.0, 0, 0], [-5.0, 0, 0]]), oblique))
    flat = np.concatenate(pts)
    lo, hi = flat.min(axis=0) - MARGIN, flat.max(axis=0) + MARGIN
    span = hi - lo
    scale = min(SCALE, MAX_PANEL / float(span.max()))
    if scale < MIN_SCALE:
        raise TooLarge(f"a {span[0]:.0f} x {span[1]:.0f} module mechanism is not legible")
    size = (int(math.ceil(span[0] * scale)), int(math.ceil(span[1] * scale)))
    return Frame(scale, float(lo[0]), float(hi[1]), size)


def _line_px(width: float) -> int:
    return max(1, int(round(width * SUPER)))


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
    fr = frame(parts, links, oblique)
    w, h = fr.size
    img = np.full((h * SUPER, w * SUPER, 3), 255, np.uint8)
    for _, s in sorted(_shapes(parts, links, arrows, oblique), key=lambda t: t[0]):
        pts = fr.px(project(s.points, oblique), SUPER)
        if s.fill is not None:
            cv2.fillPoly(img, [pts], s.fill, cv2.LINE_AA, SHIFT)
            cv2.polylines(img, [pts], True, s.colour, _line_px(s.width), cv2.LINE_AA, SHIFT)
        else:
            closed = len(pts) > 2
            cv2.polylines(img, [pts], closed, s.colour, _line_px(s.width), cv2.LINE_AA, SHIFT)
    img = np.asarray(cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA), np.uint8)
    for p in parts:
        _label(img, fr, p.name, project(label_spot(p), oblique))
    return img


def label_box(fr: Frame, text: str, at: np.ndarray) -> tuple[int, int, int, int]:
    """(x, y, w, h) of the white disc's square that a label is written in."""
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, LABEL_SCALE, 2)
    side = max(tw, th) + 10
    c = fr.px(at) >> SHIFT
    return int(c[0, 0]) - side // 2, int(c[0, 1]) - side // 2, side, side


def label_clashes(parts: Sequence[Part], links: Links, oblique: bool) -> list[str]:
    """What keeps the labels from being read: too small a font, a label cut by the
    drawing's edge, two labels overlapping."""
    fr = frame(parts, links, oblique)
    boxes = [label_box(fr, p.name, project(label_spot(p), oblique)) for p in parts]
    out = [] if label_height() >= LABEL_PX else ["the labels are too small to read"]
    for (x, y, w, h), p in zip(boxes, parts, strict=True):
        if x < 0 or y < 0 or x + w > fr.size[0] or y + h > fr.size[1]:
            out.append(f"label {p.name} is cut by the picture's edge")
    for i, j in itertools.combinations(range(len(parts)), 2):
        a, b = boxes[i], boxes[j]
        if a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and \
                b[1] < a[1] + a[3]:
            out.append(f"labels {parts[i].name} and {parts[j].name} overlap")
    return out


def _label(img: np.ndarray, fr: Frame, text: str, at: np.ndarray) -> None:
    x, y, side, _ = label_box(fr, text, at)
    cv2.circle(img, (x + side // 2, y + side // 2), side // 2, WHITE, -1, cv2.LINE_AA)
    cv2.circle(img, (x + side // 2, y + side // 2), side // 2, INK, 1, cv2.LINE_AA)
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, LABEL_SCALE, 2)
    org = (x + (side - tw) // 2, y + (side + th) // 2)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, LABEL_SCALE, (0, 0, 0), 2,
                cv2.LINE_AA)


def label_height() -> int:
    """The pixel height of a label's capital letter."""
    return int(cv2.getTextSize("W", cv2.FONT_HERSHEY_SIMPLEX, LABEL_SCALE, 2)[0][1])


def part_masks(parts: Sequence[Part], links: Links,
               oblique: bool) -> tuple[Frame, dict[str, np.ndarray]]:
    """Each part's silhouette, and each belt's or rope's (named "a-b"), as a boolean
    mask of the drawing's pixels; axles, hubs and arrows are left out."""
    fr = frame(parts, links, oblique)
    w, h = fr.size
    by_name = {p.name: p for p in parts}
    masks: dict[str, np.ndarray] = {}
    shapes = [s for p in parts for s in part_shapes(p)[: 2 if p.kind == "ring" else 1]]
    for kind, a, b in links:
        shapes += link_shapes(by_name, kind, a, b)
    for s in shapes:
        m = masks.setdefault(s.owner, np.zeros((h, w), np.uint8))
        pts = fr.px(project(s.points, oblique))
        if s.fill == WHITE:  # a ring gear's hole
            cv2.fillPoly(m, [pts], 0, cv2.LINE_8, SHIFT)
        elif s.fill is not None:
            cv2.fillPoly(m, [pts], 1, cv2.LINE_8, SHIFT)
        cv2.polylines(m, [pts], s.fill is not None, 1, max(1, int(round(s.width))),
                      cv2.LINE_8, SHIFT)
    return fr, {k: v.astype(bool) for k, v in masks.items()}


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
