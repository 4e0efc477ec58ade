"""Drawings of linkages and cams seen from the front (geometry/linkages.py): levers,
cranks, connecting rods and rockers as bars, pins as small white circles, fixed pivots as
triangles on hatched ground, a slider's block between its guide rails, a cam's profile
and its follower in a guide.  Every part is labelled; the driver gets the red arrow.

Parts are :class:`mechanisms.Part` (``centre``: a bar's pivot or first end, ``radius``
its length, ``phase`` its angle; a slider's and follower's ``centre`` is its pin or tip,
``axis`` its direction of motion); a cam's profile knots come in ``profiles``.  The
drawing uses mechanism_drawing's shapes, frame, labels and painting, and
:func:`failures` proves on the owner map (who shows at each pixel) the readability rules
of mechanism_legibility.py: every part shows at least ``MIN_OUTLINE`` of its outline,
every joint and fixed pivot shows only its own parts, every label is legible, apart and
on its part or over white with a leader line.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from spatialcad.geometry import linkages as lk
from spatialcad.geometry.colours import WHITE
from spatialcad.geometry.mechanisms import Part

from . import mechanism_bars as bars
from . import mechanism_drawing as md
from . import mechanism_legibility as legibility
from .opencv import cv2
from .raster import remembered_as

COLOURS = bars.COLOURS
BAR = bars.BAR  # a bar's half width (units)
INNER, INNER_WIDTH = (120, 150, 210), 0.5  # a lever arm along a longer one: colour, width
PIN = bars.PIN
MAX_SCALE = 120.0  # px per unit at most
PIVOTED = ("lever", "crank", "rocker", "cam")  # turning about a fixed pivot
Profiles = Mapping[str, Sequence[float]]
Joints = Sequence[tuple[str, str, str]]  # (kind, a, b): "pin", "cam" or "shaft"


_pt, _capsule, _disc = bars.pt, bars.capsule, bars.disc


def end(p: Part) -> tuple[float, float]:
    """A bar's far end (a slider's or follower's own point)."""
    if p.kind in ("slider", "follower"):
        return (float(p.centre[0]), float(p.centre[1]))
    return lk.bar_end(p.centre, p.radius, p.phase)


def cam_outline(p: Part, knots: Sequence[float], count: int = 180) -> np.ndarray:
    """A cam's profile turned by its phase (radians), world points."""
    out = []
    for k in range(count):
        psi = 360.0 * k / count
        r = p.radius + lk.cam_lift(knots, psi)
        t = math.radians(psi) + p.phase
        out.append(_pt(p.centre[0] + r * math.cos(t), p.centre[1] + r * math.sin(t)))
    return np.array(out)


def _ground(owner: str, c: Sequence[float] | np.ndarray,
            d: tuple[float, float] = (0.0, -1.0)) -> list[md.Shape]:
    """A fixed pivot: a triangle from the pin towards ``d`` on a hatched base."""
    n = (-d[1], d[0])
    x, y = float(c[0]), float(c[1])

    def at(a: float, b: float) -> list[float]:  # a along d, b along n
        return _pt(x + a * d[0] + b * n[0], y + a * d[1] + b * n[1])

    out = [md.Shape(owner, np.array([at(0, 0), at(1.4, -0.9), at(1.4, 0.9)]),
                    COLOURS["ground"], 1.0),
           md.Shape(owner, np.array([at(1.4, -1.3), at(1.4, 1.3)]), None, 1.5)]
    for k in range(5):
        u = -1.1 + 0.5 * k
        out.append(md.Shape(owner, np.array([at(1.4, -u), at(1.9, -u + 0.4)]), None, 1.0))
    return out


GROUND_WAYS = ((0.0, -1.0), (-1.0, 0.0), (1.0, 0.0), (0.0, 1.0))  # down, left, right, up


def _segment_gap(q: np.ndarray, a: Sequence[float], b: Sequence[float]) -> float:
    ab = (b[0] - a[0], b[1] - a[1])
    t = ((q[0] - a[0]) * ab[0] + (q[1] - a[1]) * ab[1]) / max(1e-12, ab[0] ** 2 + ab[1] ** 2)
    t = min(1.0, max(0.0, t))
    return math.hypot(q[0] - a[0] - t * ab[0], q[1] - a[1] - t * ab[1])


def ground_way(c: np.ndarray, parts: Sequence[Part],
               lines: Sequence[md.Shape]) -> tuple[float, float]:
    """The way a fixed pivot's triangle points: of down, left, right and up, the first
    whose triangle keeps farthest from the bars, sliders, followers and guide rails."""
    segments = [((p.centre[0], p.centre[1]), end(p), BAR if p.kind != "slider" else 1.6)
                for p in parts if p.kind != "cam"]
    segments += [((s.points[0][0], s.points[0][1]), (s.points[1][0], s.points[1][1]), 0.1)
                 for s in lines]
    best, way = -math.inf, GROUND_WAYS[0]
    for d in GROUND_WAYS:
        n = (-d[1], d[0])
        samples = [np.array([c[0] + a * d[0] + b * n[0], c[1] + a * d[1] + b * n[1]])
                   for a, b in ((0.8, 0.0), (1.4, -1.3), (1.4, 1.3), (1.4, 0.0), (1.9, 0.0))]
        score = min(_segment_gap(q, a, b) - half for q in samples for a, b, half in segments)
        if score > best + 1e-9:
            best, way = score, d
    return way


def _rails(owner: str, c: Sequence[float], axis: Sequence[float], half: float,
           reach: float) -> list[md.Shape]:
    """Two guide rails either side of a sliding part, ``half`` from its line."""
    return [md.Shape(owner, line, None, 1.5) for line in bars.rails(c, axis, half, reach)]


def inner_arms(parts: Sequence[Part]) -> set[str]:
    """Lever arms lying along a longer arm of their lever (one side of the pivot): drawn
    narrower, over it, in ``INNER``."""
    return {p.name for p in parts for q in parts
            if p.kind == q.kind == "lever" and p.shaft == q.shaft and q.radius > p.radius and
            abs(math.remainder(p.phase - q.phase, 2 * math.pi)) < 1e-6}


def part_shapes(p: Part, profiles: Profiles, inner: bool = False) -> list[md.Shape]:
    """The outlines that draw ``p`` (``inner``: a lever arm along a longer one), its
    silhouette first."""
    fill = INNER if inner else COLOURS[p.kind]
    if p.kind in ("lever", "crank", "rod", "rocker"):
        a, b = (float(p.centre[0]), float(p.centre[1])), end(p)
        half = BAR * (INNER_WIDTH if inner else 1.0)
        out = [md.Shape(p.name, _capsule(a, b, half), fill, 1.0)]
        if p.kind == "lever":  # a tick across the arm at every unit from the pivot
            u = (math.cos(p.phase), math.sin(p.phase))
            for k in range(1, int(round(p.radius))):
                m = (a[0] + k * u[0], a[1] + k * u[1])
                out.append(md.Shape(p.name, np.array([
                    _pt(m[0] - half * u[1], m[1] + half * u[0]),
                    _pt(m[0] + half * u[1], m[1] - half * u[0])]), None, 1.0))
        return out
    if p.kind == "slider":
        return [md.Shape(p.name, bars.slider_box(p.centre, p.axis, p.radius), fill, 1.0)]
    if p.kind == "cam":
        return [md.Shape(p.name, cam_outline(p, profiles[p.name]), fill, 1.0)]
    # a follower: a knife-edge tip and a stem rising from it along its axis
    x, y = float(p.centre[0]), float(p.centre[1])
    top = y + p.radius
    stem = np.array([_pt(x, y), _pt(x + 0.35, y + 0.6), _pt(x + 0.35, top), _pt(x - 0.35, top),
                     _pt(x - 0.35, y + 0.6)])
    return [md.Shape(p.name, stem, fill, 1.0)]


def _joint_points(by_name: Mapping[str, Part], joints: Joints) -> list[tuple[str, np.ndarray]]:
    """Each pin joint's point (owner "pin:a-b") and each fixed pivot's ("pivot:a")."""
    out = []
    for kind, a, b in joints:
        if kind == "pin":
            e = end(by_name[a])
            out.append((f"pin:{a}-{b}", np.array([e[0], e[1], 0.0])))
    for p in by_name.values():
        if p.kind in PIVOTED and not any(o == f"pivot:{q.name}" for o, _ in out
                                         for q in by_name.values() if q.shaft == p.shaft):
            out.append((f"pivot:{p.name}", np.array([p.centre[0], p.centre[1], 0.0])))
    return out


def shapes(parts: Sequence[Part], joints: Joints, profiles: Profiles) -> list[md.Shape]:
    """Every shape in drawing order: grounds and guides, cams, sliders, bars (rods over
    cranks, rockers and sliders: a rod is seen to reach its slider's pin), followers,
    then the pins."""
    by_name = {p.name: p for p in parts}
    pins = _joint_points(by_name, joints)
    rails: list[md.Shape] = []
    for p in parts:
        if p.kind == "slider":  # rails along the slider's travel, centred on its middle
            crank = next(q for q in parts if q.kind == "crank")
            rod = next(q for q in parts if q.kind == "rod")
            side = 1.0 if p.centre[0] > crank.centre[0] else -1.0
            mid = (crank.centre[0] + side * rod.radius, p.centre[1])
            rails += _rails(f"guide:{p.name}", mid, p.axis, bars.SLIDER_HALF + bars.RAIL_GAP,
                            crank.radius + p.radius + 0.6)
        if p.kind == "follower":
            top = (p.centre[0], p.centre[1] + 0.7 * p.radius)
            rails += _rails(f"guide:{p.name}", top, p.axis, 0.35 + 0.15, 0.2 * p.radius)
    out: list[md.Shape] = []
    for owner, c in pins:  # a cam's axle is a pin on the cam (the cam hides its ground)
        if owner.startswith("pivot:") and by_name[owner[6:]].kind != "cam":
            out += _ground(owner.replace("pivot:", "ground:"), c, ground_way(c, parts, rails))
    out += rails
    order = {"cam": 0, "slider": 1, "lever": 1, "crank": 1, "rocker": 1, "rod": 2, "follower": 3}
    inner = inner_arms(parts)
    for p in sorted(parts, key=lambda q: (order[q.kind], q.name in inner)):
        out += part_shapes(p, profiles, p.name in inner)
    for owner, c in pins:
        out.append(md.Shape(owner, _disc(c, PIN), WHITE, 1.0))
    return out


def _arrow_part(p: Part, profiles: Profiles) -> Part:
    """The disc the driver's arrow goes round: a cam's largest radius, a small one round
    a crank's or lever's pivot."""
    reach = p.radius + max(profiles[p.name][1::2]) if p.kind == "cam" else 1.1
    return Part(p.name, "pulley", p.shaft, p.centre, p.axis, reach)


def frame(parts: Sequence[Part], joints: Joints, profiles: Profiles,
          arrows: Sequence[md.Shape] | None = None) -> md.Frame:
    """The frame holding every shape and the ``arrows`` (None: room for an arrow round
    every pivot), filling the panel in one direction."""
    pts = [s.points[:, :2] for s in shapes(parts, joints, profiles)]
    if arrows is None:
        for p in parts:
            if p.kind in PIVOTED:
                room = _arrow_part(p, profiles).radius + 2.8
                pts.append(_disc(p.centre, room, 16)[:, :2])
    else:
        pts += [s.points[:, :2] for s in arrows]
    flat = np.concatenate(pts)
    lo, hi = flat.min(axis=0), flat.max(axis=0)
    span = hi - lo
    scale = min(MAX_SCALE, (md.PANEL_W - 2 * md.MARGIN_PX) / float(span[0]),
                (md.PANEL_H - 2 * md.MARGIN_PX) / float(span[1]))
    size = (min(md.PANEL_W, int(math.ceil(span[0] * scale)) + 2 * md.MARGIN_PX),
            min(md.PANEL_H, int(math.ceil(span[1] * scale)) + 2 * md.MARGIN_PX))
    return md.Frame(scale, float(lo[0]) - md.MARGIN_PX / scale,
                    float(hi[1]) + md.MARGIN_PX / scale, size)


def _anchor(p: Part) -> np.ndarray:
    """Where a part's label points: a bar's middle, a slider's or cam's centre, a
    follower's stem."""
    if p.kind in ("lever", "crank", "rod", "rocker"):
        e = end(p)
        return np.array([(p.centre[0] + e[0]) / 2, (p.centre[1] + e[1]) / 2, 0.0])
    if p.kind == "follower":
        return np.array([p.centre[0], p.centre[1] + 0.85 * p.radius, 0.0])
    if p.kind == "cam":
        return np.array([p.centre[0], p.centre[1] - 0.6 * p.radius, 0.0])
    return np.array([p.centre[0] + 0.7 * p.radius * p.axis[0],
                     p.centre[1] + 0.7 * p.radius * p.axis[1], 0.0])


@functools.lru_cache(maxsize=32)
def _plan(parts: tuple[Part, ...], joints: tuple[tuple[str, str, str], ...],
          profiles: tuple[tuple[str, tuple[float, ...]], ...],
          arrows: tuple[tuple[str, int], ...]) -> tuple[md.Plan, list[md.Shape]]:
    prof = dict(profiles)
    base = shapes(parts, joints, prof)
    arrow = _arrows(parts, frame(parts, joints, prof), base, prof, dict(arrows))
    fr = frame(parts, joints, prof, arrow)  # tight round the drawing and its arrow
    owners: list[str] = []
    for s in [*base, *arrow]:
        if s.owner not in owners:
            owners.append(s.owner)
    shown = np.zeros((fr.size[1], fr.size[0]), np.int16)
    for s in [*base, *arrow]:
        md.paint(shown, fr, s, False, owners.index(s.owner) + 1)
    shown.flags.writeable = False
    labels = _labels(parts, fr, owners, shown)
    return md.Plan(fr, base, owners, shown, labels), arrow


def plan(parts: Sequence[Part], joints: Joints, profiles: Profiles,
         arrows: Mapping[str, int]) -> tuple[md.Plan, list[md.Shape]]:
    """The drawing's plan (its owner map holds the arrows too) and the arrows' shapes."""
    return _plan(tuple(parts), tuple(tuple(j) for j in joints),
                 tuple(sorted((k, tuple(v)) for k, v in profiles.items())),
                 tuple(sorted(arrows.items())))


def _arrows(parts: Sequence[Part], fr: md.Frame, base: list[md.Shape], profiles: Profiles,
            arrows: Mapping[str, int]) -> list[md.Shape]:
    """Each arrow at the first of twelve places round its part whose pixels meet the
    fewest pixels of other parts' ink."""
    by_name = {p.name: p for p in parts}
    ink = np.zeros((fr.size[1], fr.size[0]), np.uint8)
    for s in base:
        md.paint(ink, fr, s, False, 1)
    out: list[md.Shape] = []
    for name, sign in sorted(arrows.items()):
        disc = _arrow_part(by_name[name], profiles)
        best: tuple[int, list[md.Shape]] | None = None
        for k in range(12):
            trial = _smaller_head(md.arrow_shapes(disc, sign, math.radians(90 + 30 * k)),
                                  min(1.0, 0.5 + disc.radius / 8))
            boxes = [md.window(fr, s, False, fr.size, 3) for s in trial]
            x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
            x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
            m = np.zeros((y1 - y0, x1 - x0), np.uint8)
            for s in trial:
                md.paint(m, fr, s, False, 1, offset=(x0, y0))
            grown = np.asarray(cv2.dilate(m, np.ones((7, 7), np.uint8)), np.uint8)
            hits = int((grown & ink[y0:y1, x0:x1]).sum())
            if best is None or hits < best[0]:
                best = (hits, trial)
        assert best is not None
        out += best[1]
    return out


def _smaller_head(arrow: list[md.Shape], k: float) -> list[md.Shape]:
    """A turning arrow with its head shrunk by ``k`` about the arc's end (a small arc
    round a pivot gets a smaller head)."""
    arc, head = arrow
    tip = (head.points[1] + head.points[2]) / 2
    return [arc, replace(head, points=tip + k * (head.points - tip))]


def _labels(parts: Sequence[Part], fr: md.Frame, owners: list[str],
            shown: np.ndarray) -> list[md.Label]:
    """Each part's label inside its visible area (clear of other ink by 2 px) when it has
    room, else over white nearest its anchor with a leader line to the anchor."""
    clear: list[np.ndarray] = []  # how far each pixel is from ink, made when first needed
    h, w = shown.shape
    out: list[md.Label] = []
    for p in parts:
        pid = owners.index(p.name) + 1
        r = md.label_radius(fr, p.name)
        a = fr.pixel(_anchor(p)[None, :2])[0]
        at = (int(round(float(a[0]))), int(round(float(a[1]))))
        x0, y0, x1, y1 = md.window(fr, part_shapes(p, {}, False)[0] if p.kind != "cam" else
                                   md.Shape(p.name, _disc(p.centre, 2 * p.radius), None),
                                   False, fr.size)
        own = np.zeros((y1 - y0 + 2, x1 - x0 + 2), np.uint8)  # a border of others round it
        own[1:-1, 1:-1] = shown[y0:y1, x0:x1] == pid
        room = cv2.distanceTransform(own, cv2.DIST_L2, 5)[1:-1, 1:-1]
        yy, xx = np.nonzero(room >= r + 2)
        xx, yy = xx + x0, yy + y0
        if len(xx):
            ok = md._apart(xx, yy, r, out)
            if ok.any():
                xx, yy = xx[ok], yy[ok]
                k = int(np.argmin((xx - at[0]) ** 2 + (yy - at[1]) ** 2))
                out.append(md.Label(p.name, (int(xx[k]), int(yy[k])), r, None))
                continue
        if not (0 <= at[0] < w and 0 <= at[1] < h) or shown[at[1], at[0]] != pid:
            ys, xs = np.nonzero(shown == pid)
            k = int(np.argmin((xs - at[0]) ** 2 + (ys - at[1]) ** 2))
            at = (int(xs[k]), int(ys[k]))
        if not clear:
            clear.append(cv2.distanceTransform((shown == 0).astype(np.uint8), cv2.DIST_L2, 5))
        best: tuple[float, md.Label] | None = None
        for k in range(24):
            t = math.radians(90 + 15 * k)
            u = (math.cos(t), -math.sin(t))
            for d in range(r + 8, r + 8 + int(6 * fr.scale), 3):
                c = (int(round(at[0] + d * u[0])), int(round(at[1] + d * u[1])))
                if not (r + 1 <= c[0] < w - r - 1 and r + 1 <= c[1] < h - r - 1):
                    break
                if clear[0][c[1], c[0]] < r + 2 or not md._apart(c[0], c[1], r, out):
                    continue
                start = (int(round(c[0] - r * u[0])), int(round(c[1] - r * u[1])))
                line = md.leader_pixels(start, at)
                seen = shown[line[:, 1], line[:, 0]]
                crossing = int(((seen != 0) & (seen != pid)).sum())
                score = d + 1000 * crossing
                if best is None or score < best[0]:
                    best = (score, md.Label(p.name, c, r, (start, at)))
                break
        out.append(best[1] if best is not None else md.Label(p.name, at, r, None))
    return out


def draw(parts: Sequence[Part], joints: Joints, profiles: Profiles,
         arrows: Mapping[str, int]) -> np.ndarray:
    """The mechanism with its arrows and labels (remembered: the verifier draws it
    again)."""
    key = ("linkage", tuple(parts), tuple(tuple(j) for j in joints),
           tuple(sorted((k, tuple(v)) for k, v in profiles.items())),
           tuple(sorted(arrows.items())))
    return remembered_as(key, lambda: _draw(parts, joints, profiles, arrows))


def _draw(parts: Sequence[Part], joints: Joints, profiles: Profiles,
          arrows: Mapping[str, int]) -> np.ndarray:
    pl, arrow = plan(parts, joints, profiles, arrows)
    fr = pl.frame
    w, h = fr.size
    factor = md.SUPER if fr.scale < 2 * md.SCALE else 1
    img = np.full((h * factor, w * factor, 3), 255, np.uint8)
    for s in [*pl.shapes, *arrow]:
        md.paint(img, fr, s, False, 0, factor, aa=True)
    if factor > 1:
        img = np.asarray(cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA), np.uint8)
    for lb in pl.labels:
        md._label(img, fr, lb)
    return img


def failures(parts: Sequence[Part], joints: Joints, profiles: Profiles,
             arrows: Mapping[str, int]) -> list[str]:
    """What keeps the drawing from being read: labels (mechanism_legibility's rules), a
    part showing less than ``MIN_OUTLINE`` of its outline, a joint or fixed pivot under
    anything but its own parts (pins, grounds)."""
    pl, _ = plan(parts, joints, profiles, arrows)
    names = list(pl.owners)
    shown = pl.shown.copy()
    out = legibility.label_failures(pl, names, shown)
    md.paint_labels(shown, pl, names)
    fr = pl.frame
    prof = dict(profiles)
    inner = inner_arms(parts)
    for p in parts:
        (x0, y0, x1, y1), m = md.shape_mask(fr, part_shapes(p, prof, p.name in inner)[0], False,
                                            fr.size, 1)
        edge = (m > 0) & (cv2.erode(m, np.ones((3, 3), np.uint8), borderValue=0) == 0)
        total = int(edge.sum())
        seen = int((shown[y0:y1, x0:x1][edge] == names.index(p.name) + 1).sum())
        if not total or seen / total < legibility.MIN_OUTLINE:
            out.append(f"{p.name} shows {seen / max(total, 1):.0%} of its outline")
    by_name = {p.name: p for p in parts}
    for owner, c in _joint_points(by_name, joints):
        if owner.startswith("pin:"):
            mine = set(owner[4:].split("-"))
        else:
            mine = {q.name for q in parts if q.kind in PIVOTED and
                    q.shaft == by_name[owner[6:]].shaft}
        allowed = {0, names.index(owner) + 1} | {names.index(n) + 1 for n in mine}
        ground = owner.replace("pivot:", "ground:")
        if ground in names:
            allowed.add(names.index(ground) + 1)
            share = _shown_share(pl, shown, names.index(ground) + 1, ground)
            if share < legibility.MIN_OUTLINE:
                out.append(f"the fixed pivot of {owner[6:]} shows {share:.0%} of its ink")
        xy = fr.pixel(c[None, :2])[0]
        seen_ids = set(np.unique(md.disc_pixels(
            shown, (int(round(float(xy[0]))), int(round(float(xy[1])))),
            int(PIN * fr.scale) + 3)).tolist())
        hiding = sorted(names[k - 1] for k in seen_ids - allowed)
        if hiding:
            out.append(f"the joint {owner} is under {', '.join(hiding)}")
    return out


def _shown_share(pl: md.Plan, shown: np.ndarray, pid: int, owner: str) -> float:
    """The share of ``owner``'s own pixels (all its shapes) that show."""
    fr = pl.frame
    mask = np.zeros(shown.shape, np.uint8)
    for s in pl.shapes:
        if s.owner == owner:
            md.paint(mask, fr, s, False, 1)
    total = int(mask.sum())
    return float((shown[mask > 0] == pid).sum()) / total if total else 0.0
