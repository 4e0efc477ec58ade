"""What a mechanism's picture shows, proved on its drawing: who shows at each pixel
(:func:`mechanism_drawing.owners`, painted in the drawing's order with its arrows and
labels) decides.

- every part the answer depends on shows at least ``MIN_OUTLINE`` of its outline;
- every contact (a mesh's pitch point, a belt's tangent points, where a rope leaves its
  drum) shows only its two parts (their axle mates and axles) within
  :func:`mechanism_drawing.contact_radius`: no other part, belt, axle, arrow or label;
- parts on one axle show their shaft (at least ``MIN_AXLE`` of its line), as does a gear on
  a vertical axle;
- every label lies in the picture, apart from every other label, and either inside its own
  part's visible area (nothing else under it) or over white with a leader line to its
  part that crosses no other label;
- the teeth of every toothed part the answer depends on are at least ``MIN_TOOTH_PX``
  apart (countable).

A ring gear is drawn open inside, so what lies behind it shows and is measured as any
other part.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence

import numpy as np

from spatialcad.geometry import exact
from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.mechanisms import Part

from . import mechanism_drawing as md
from .opencv import cv2

MIN_OUTLINE = 0.6
MIN_AXLE = 0.5
MIN_TOOTH_PX = 8.0
MIN_FILL = 0.7  # of the picture's width or height that its ink spans


def loose_mesh(parts: Sequence[Part], links: md.Links, oblique: bool) -> bool:
    """Whether two parts in mesh are drawn farther apart, or two gears facing the viewer
    overlap more, than the verifier allows (the tooth phases interleave every mesh, but a
    drawn pair may still miss by a pixel or two)."""
    fr, masks = md.part_masks(parts, links, oblique)
    front = {p.name for p in parts if p.turns and abs(p.axis[2]) > 0.5}
    return any(md.mask_gap(masks[a], masks[b]) > fr.mesh_gap or
               (a in front and b in front and int((masks[a] & masks[b]).sum()) > fr.mesh_overlap)
               for kind, a, b in links if kind == "mesh")


def legible_drawing(parts: Sequence[Part], links: md.Links, oblique: bool,
                    arrows: Mapping[str, int], parts_needed: Sequence[str],
                    links_needed: Sequence[int]) -> np.ndarray | None:
    """The drawing with ``arrows`` when its meshes are drawn tight (:func:`loose_mesh`)
    and it shows what :func:`failures` asks; None when not, or when it is too large to
    be legible."""
    try:
        if loose_mesh(parts, links, oblique) or failures(parts, links, oblique, arrows,
                                                         parts_needed, links_needed):
            return None
        return md.draw(parts, links, oblique, arrows)
    except md.TooLarge:
        return None


def failures(parts: Sequence[Part], links: md.Links, oblique: bool, arrows: Mapping[str, int],
             parts_needed: Sequence[str], links_needed: Sequence[int]) -> list[str]:
    """What keeps the drawing with ``arrows`` from showing the parts ``parts_needed`` and
    the links (indices) ``links_needed``, and every label.  Remembered (a pure function of
    its arguments: the verifier of a just generated item asks again)."""
    return list(_failures(tuple(parts), tuple(tuple(lk) for lk in links), oblique,
                          tuple(sorted(arrows.items())), tuple(parts_needed),
                          tuple(links_needed)))


@functools.lru_cache(maxsize=64)
def _failures(parts: tuple[Part, ...], links: tuple[tuple[str, str, str], ...], oblique: bool,
              arrows: tuple[tuple[str, int], ...], parts_needed: tuple[str, ...],
              links_needed: tuple[int, ...]) -> tuple[str, ...]:
    pl, names, shown = md.owners(parts, links, oblique, dict(arrows), with_labels=False)
    out = label_failures(pl, names, shown)
    md.paint_labels(shown, pl, names)
    by_name = {p.name: p for p in parts}
    fr = pl.frame
    for name in parts_needed:
        share = outline_shown(pl, names, shown, by_name[name], oblique)
        if share < MIN_OUTLINE:
            out.append(f"{name} shows {share:.0%} of its outline")
        teeth = tooth_gap(fr, by_name[name], oblique)
        if teeth < MIN_TOOTH_PX:
            out.append(f"the teeth of {name} are {teeth:.1f} px apart")
    mates = {p.name: {q.name for q in parts if q.turns and p.turns and q.shaft == p.shaft}
             | {p.name} for p in parts}
    for i in links_needed:
        kind, a, b = links[i]
        own = {n for n in names if n.startswith("axle:")
               and set(n[5:].split("+")) & (mates[a] | mates[b])}  # their own axles
        allowed = {0} | {names.index(n) + 1 for n in (*mates[a], *mates[b], f"{a}-{b}", *own)
                         if n in names}
        for c in mech.contact_points(kind, by_name[a], by_name[b]):
            seen = set(np.unique(md.disc_pixels(shown, _pixel(fr, c, oblique),
                                                int(md.contact_radius(fr)))).tolist())
            hiding = sorted(names[k - 1] for k in seen - allowed)
            if hiding:
                out.append(f"the contact of {a} and {b} is under {', '.join(hiding)}")
                break
    for group in md.shafts(parts):
        named = [p.name for p in group]
        joined = any(links[i][0] == "shaft" and links[i][1] in named for i in links_needed)
        if joined or (md.upright(group[0]) and group[0].name in parts_needed):
            share = axle_shown(pl, shown, group, oblique)
            if share < MIN_AXLE:
                out.append(f"the axle of {'+'.join(named)} shows {share:.0%} of its length")
    return tuple(out)


def _pixel(fr: md.Frame, point: np.ndarray, oblique: bool) -> tuple[int, int]:
    xy = fr.pixel(md.project(point, oblique))[0]
    return int(round(float(xy[0]))), int(round(float(xy[1])))


def outline_shown(pl: md.Plan, names: list[str], shown: np.ndarray, part: Part,
                  oblique: bool) -> float:
    """The share of ``part``'s outline (its silhouette's edge pixels) that shows."""
    (x0, y0, x1, y1), m = md.shape_mask(pl.frame, md.part_shapes(part)[0], oblique,
                                        pl.frame.size, 1)
    edge = (m > 0) & (cv2.erode(m, np.ones((3, 3), np.uint8), borderValue=0) == 0)
    total = int(edge.sum())
    seen = shown[y0:y1, x0:x1][edge] == names.index(part.name) + 1
    return float(seen.sum()) / total if total else 0.0


def axle_shown(pl: md.Plan, shown: np.ndarray, group: Sequence[Part], oblique: bool) -> float:
    """The share of an axle's shaft line that shows."""
    shaft = md.axle_shapes(group)[0]
    (x0, y0, x1, y1), m = md.shape_mask(pl.frame, shaft, oblique, pl.frame.size)
    total = int(m.sum())
    seen = shown[y0:y1, x0:x1][m > 0] == pl.id(shaft.owner)
    return float(seen.sum()) / total if total else 0.0


def tooth_gap(fr: md.Frame, part: Part, oblique: bool) -> float:
    """The least pixel distance between neighbouring teeth (at the pitch circle) of a
    toothed turning part as drawn; infinite for parts without teeth.  A worm's teeth are
    its thread's ridges along its axle (drawn from the side), an axial pitch (pi) apart."""
    if not part.teeth or not part.turns:
        return float("inf")
    if part.kind == "worm":
        return math.pi * fr.scale
    angles = part.phase + 2 * np.pi * np.arange(part.teeth) / part.teeth
    ring = md.in_plane(part, part.radius * exact.cos_sin(angles))
    xy = fr.pixel(md.project(ring, oblique))
    step = np.roll(xy, -1, axis=0) - xy
    return float(np.hypot(step[:, 0], step[:, 1]).min())


def label_failures(pl: md.Plan, names: list[str], shown: np.ndarray) -> list[str]:
    """What keeps the labels from being read in the owner map ``shown`` of a drawing
    without its labels: too small a font, a label cut by the picture's edge, two labels
    overlapping, a label over another part's ink (or an arrow) or away from its part."""
    h, w = shown.shape
    out = [] if md.label_height(pl.frame) >= md.LABEL_PX else ["the labels are too small to read"]
    for i, lb in enumerate(pl.labels):
        x, y, r = lb.centre[0], lb.centre[1], lb.radius
        if x - r < 0 or y - r < 0 or x + r >= w or y + r >= h:
            out.append(f"label {lb.name} is cut by the picture's edge")
            continue
        for other in pl.labels[i + 1:]:
            if (x - other.centre[0]) ** 2 + (y - other.centre[1]) ** 2 < (r + other.radius) ** 2:
                out.append(f"labels {lb.name} and {other.name} overlap")
        pid = names.index(lb.name) + 1
        under = set(np.unique(md.disc_pixels(shown, lb.centre, r)).tolist())
        if lb.leader is None:  # on its part: a thin bar's label may reach over white
            if not under <= {0, pid} or shown[y, x] != pid:
                out.append(f"label {lb.name} is not on its part alone")
            continue
        line = md.leader_pixels(*lb.leader)
        if under != {0} or shown[line[-1, 1], line[-1, 0]] != pid:
            out.append(f"label {lb.name} is neither on its part nor over white leading to it")
        for other in pl.labels:
            gaps = np.hypot(line[:, 0] - other.centre[0], line[:, 1] - other.centre[1])
            if other is not lb and float(gaps.min()) <= other.radius:
                out.append(f"label {lb.name}'s leader line crosses label {other.name}")
    return out


def needed(links: md.Links, driver: str, asked: Sequence[str],
           jammed: bool) -> tuple[list[str], list[int]]:
    """The parts whose outlines must show: those on the paths that hand the motion from
    the driver to each asked part, or (a jammed mechanism, whose answer rests on every
    path) all of them; and the links whose contacts and axles must show: every link (a
    step-by-step solution hands the motion on along each of them)."""
    chosen = list(range(len(links))) if jammed else mech.answer_links(links, driver, asked)
    names = {driver, *asked} | {n for i in chosen for n in links[i][1:]}
    return sorted(names), list(range(len(links)))


def ink_share(image: np.ndarray, box: Sequence[int]) -> tuple[float, float]:
    """How much of the composite ``image``'s width and height the ink of its panel at
    ``box`` (x, y, w, h) spans (pixels darker than 250 in some channel)."""
    x, y, w, h = (int(v) for v in box)
    dark = np.asarray(np.asarray(image)[y:y + h, x:x + w] < 250)  # (h, w, 3)
    rows = np.nonzero(dark.reshape(h, -1).any(axis=1))[0]
    if not len(rows):
        return 0.0, 0.0
    cols = np.nonzero(np.asarray(dark.any(axis=0)).any(axis=1))[0]
    height, width = image.shape[:2]
    return (int(cols[-1]) + 1 - int(cols[0])) / width, (int(rows[-1]) + 1 - int(rows[0])) / height


def fill_failures(image: np.ndarray, box: Sequence[int]) -> list[str]:
    """What keeps the composite ``image`` from showing its mechanism panel (at ``box``)
    large: more than ``md.MAX_PIXELS`` pixels, or ink spanning less than ``MIN_FILL`` of
    the picture both across and down (a drawing fills its panel in one direction; the
    other follows the mechanism's shape, which the generator turns to fill it when its
    parts allow)."""
    h, w = image.shape[:2]
    out = [f"the picture has {h * w} pixels"] if h * w > md.MAX_PIXELS else []
    across, down = ink_share(image, box)
    if max(across, down) < MIN_FILL:
        out.append(f"the mechanism spans {across:.0%} of the picture's width and {down:.0%} "
                   "of its height")
    return out
