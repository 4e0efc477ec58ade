"""CrossSection verifier.

Independent of the generator's geometry code (polyhedral sweeps, FreeCAD solids): the
stack is rebuilt from ``record["spec"]`` analytically.  A solid's horizontal cross-section
at height z is its outline (rectangle, equilateral triangle with a vertex toward +y, or
disk) scaled linearly from 1 at its base to its top ratio at its top.  The section by a
plane is computed row by row: every plane used has a horizontal in-plane axis u, so the
plane meets each height z in a horizontal line, which meets the solid in an exact chord;
chords at ``ROWS`` heights spanning where the plane meets a solid make its (convex)
section, and the stack's section is the union of its solids'.

Checks: every option's polygon is the section of its stated solids (the original ones for
true options, the same kinds with altered sizes for the answer) by its stated plane; the
answer's polygon is unlike every section of the original stack along every plane family
of the level, sampled densely (horizontal planes: one per solid, as any horizontal section
strictly inside a solid is its outline scaled, the same shape); every two options differ
at least ``OPTIONS_APART`` (none differs from another only slightly in proportion); the
option panels show the polygons, all at the spec's one ``scale`` (which fits each into its
panel), as View 3 shows the stack (its outline as tall as the stack at that scale); View 3
is level with the stack, and every overhang between two solids (an upper solid's base
sticking out beyond the top of the one below, which no view from above shows) that sticks
out ``2 MIN_STEP_PX`` somewhere jogs its outline at least ``MIN_STEP_PX`` (render/
legibility.py) on its left or right.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
import shapely

from spatialcad.geometry import convex_pieces, exact
from spatialcad.geometry import section_shape as shape
from spatialcad.render.camera import orbit
from spatialcad.render.drawing import draw_shapes, fitted_scale
from spatialcad.render.legibility import MIN_STEP_PX, shown_factor, sliver_failures
from spatialcad.render.opencv import cv2
from spatialcad.tasks.cross_section.spec import (
    OptionData,
    SolidDesc,
    Spec,
    parse_option,
    parse_spec,
)
from spatialcad.verify.base import check_answer_letter, crop

ROWS = 128  # chords per solid for an option's section
DENSE_ROWS = 40  # chords per solid for the dense samples (within 0.006 of exact sections)
AXIS_FAMILIES = {"XY": (0.0, 0.0, 1.0), "XZ": (0.0, 1.0, 0.0), "YZ": (1.0, 0.0, 0.0)}
OBLIQUE = ("X45", "X135", "Y45", "Y135", "Z45", "Z135")
# oblique family -> (rotation axis, normal of the plane turned about it)
TURNED = {"X": ((1, 0, 0), (0, 1, 0)), "Y": ((0, 1, 0), (1, 0, 0)), "Z": ((0, 0, 1), (1, 0, 0))}
# kind -> (outline, parameter of the base size, parameter of the top size or None)
KINDS = {
    "cuboid": ("rectangle", "width", None),
    "square_prism": ("square", "side", None),
    "triangular_prism": ("triangle", "side", None),
    "cylinder": ("disk", "radius", None),
    "square_pyramid": ("square", "side", "apex"),
    "triangular_pyramid": ("triangle", "side", "apex"),
    "cone": ("disk", "radius", "apex"),
    "square_frustum": ("square", "bottom_side", "top_side"),
    "triangular_frustum": ("triangle", "bottom_side", "top_side"),
    "circular_frustum": ("disk", "bottom_radius", "top_radius"),
}
MATCH_AREA = 0.05  # a stored polygon may differ from the recomputed one by 5% of its area
MIN_INK = 0.02  # share of a panel's pixels that must not be background
MIN_IOU = 0.9  # drawn option vs. the stored polygon drawn again
DRAWN = (300, 300)  # size every panel is drawn at, before the layout scales them
DIRECTIONS = 360  # horizontal directions, one a degree, in which steps are looked for
HEIGHT_PX = 4  # View 3's outline is the stack's height at the scale within this (+ lines)
LIGHT = (200, 200, 200)  # a pixel with every channel at least this is background, not ink


def family_normal(name: str) -> np.ndarray:
    if name in AXIS_FAMILIES:
        return np.array(AXIS_FAMILIES[name])
    axis, start = (np.array(v, dtype=float) for v in TURNED[name[0]])
    a = math.radians(int(name[1:]))
    return start * math.cos(a) + np.cross(axis, start) * math.sin(a)


def level_families(level: int) -> list[str]:
    return list(AXIS_FAMILIES) + (list(OBLIQUE) if level >= 2 else [])


def in_plane_axes(n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """u: the plane's horizontal direction, first non-zero coordinate positive; v: the
    in-plane direction perpendicular to it, pointing up ((x, y) for horizontal planes)."""
    x, y, z = (float(c) for c in n)
    length = math.hypot(x, y)  # of (0, 0, 1) x n = (-y, x, 0)
    if length < 1e-9:
        return np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    u = np.array([-y / length, x / length, 0.0])
    u = u if u[0] > 1e-12 or (abs(u[0]) <= 1e-12 and u[1] > 0) else -u
    v = np.array([y * u[2] - z * u[1], z * u[0] - x * u[2], x * u[1] - y * u[0]])  # n x u
    return u, (v if v[2] > 0 else -v)


class Solid:
    """One solid of the stack: outline half-planes (or a disk), scale law, heights."""

    def __init__(self, desc: SolidDesc, z0: float) -> None:
        outline, base, top = KINDS[desc.kind]
        p = desc.params
        self.z0, self.z1 = z0, z0 + p["height"]
        self.top = 0.0 if top == "apex" else (1.0 if top is None else p[top] / p[base])
        self.radius = p[base] if outline == "disk" else 0.0
        # convex outline as half-planes n . q <= c, and its vertices (for extents)
        if outline in ("rectangle", "square"):
            a = p[base] / 2.0
            b = p["depth"] / 2.0 if outline == "rectangle" else a
            self.normals = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])
            self.limits = np.array([a, a, b, b])
            self.corners = np.array([[a, b], [-a, b], [-a, -b], [a, -b]])
        elif outline == "triangle":
            r = p[base] / math.sqrt(3.0)  # circumradius; the inradius is r / 2
            # the outward normals of the three sides
            self.normals = exact.cos_sin(np.radians([270.0, 30.0, 150.0]))
            self.limits = np.full(3, r / 2.0)
            self.corners = r * exact.cos_sin(np.radians([90.0, 210.0, 330.0]))
        else:
            self.normals = np.zeros((0, 2))
            self.limits = np.zeros(0)
            self.corners = np.zeros((0, 2))
        y = self.corners[:, 1]
        self.y_range = (float(y.min()), float(y.max())) if len(y) else (-self.radius, self.radius)

    def scale(self, z: np.ndarray) -> np.ndarray:
        return 1.0 + (self.top - 1.0) * (z - self.z0) / (self.z1 - self.z0)

    def extent(self, nxy: np.ndarray) -> tuple[float, float]:
        """Min and max of nxy . q over the unscaled outline."""
        if self.radius:
            reach = self.radius * float(np.hypot(nxy[0], nxy[1]))
            return -reach, reach
        along = exact.matmul(self.corners, nxy)
        return float(along.min()), float(along.max())

    def reaches(self, dirs: np.ndarray) -> np.ndarray:
        """The max of :meth:`extent` for each row of ``dirs``, in one product."""
        if self.radius or not len(self.corners):
            return np.array([self.extent(d)[1] for d in dirs])
        return exact.matmul(self.corners, dirs.T).max(axis=0)

    def support(self, n: np.ndarray) -> tuple[float, float]:
        """Min and max of n . p over the solid."""
        values = []
        for z in (self.z0, self.z1):
            k = float(self.scale(np.array(z)))
            if self.radius:
                reach = self.radius * k * float(np.hypot(n[0], n[1]))
                values += [n[2] * z - reach, n[2] * z + reach]
            else:
                values += list(exact.matmul(k * self.corners, n[:2]) + n[2] * z)
        return min(values), max(values)


def stack(descs: list[SolidDesc]) -> list[Solid]:
    """The solids of a top-to-bottom stack, the bottom one standing on z = 0."""
    out, z = [], 0.0
    for d in reversed(descs):
        out.append(Solid(d, z))
        z += d.params["height"]
    return out


def sections(
    solids: list[Solid], n: np.ndarray, offsets: np.ndarray, rows: int = ROWS
) -> np.ndarray:
    """Sections of the stack by the planes n . p = d for each d, in (u, v) coordinates,
    from ``rows`` chords per solid."""
    return shape.unions(convex_pieces.polygons(section_pieces(solids, n, offsets, rows)))


def section_pieces(
    solids: list[Solid], n: np.ndarray, offsets: np.ndarray, rows: int = ROWS
) -> convex_pieces.Pieces:
    """The (convex) section of each solid (pieces k) by each plane (rows): the convex hull
    of its chords' ends; the rows' unions are :func:`sections`."""
    return cutter(solids, n, rows)(offsets)


def cutter(solids: list[Solid], n: np.ndarray, rows: int = ROWS
           ) -> Callable[[np.ndarray], convex_pieces.Pieces]:
    """:func:`section_pieces` of ``solids`` by planes with normal ``n`` as a function of
    their offsets, set up once (dense sampling calls it round after round)."""
    n = np.asarray(n, dtype=float)
    u, v = in_plane_axes(n)
    sides = np.zeros((len(solids), 4, 2))  # at most four sides
    limits = np.zeros((len(solids), 4))
    for i, s in enumerate(solids):
        sides[i, : len(s.limits)], limits[i, : len(s.limits)] = s.normals, s.limits
    per_solid = np.array([[s.z0, s.z1, s.top, s.radius, len(s.limits), *s.extent(n[:2]),
                           *s.y_range] for s in solids])
    line = np.linspace(0.0, 1.0, rows)

    def at(offsets: np.ndarray) -> convex_pieces.Pieces:
        offsets = np.asarray(offsets, dtype=float)
        xy, bounds = _chord_ends(offsets, n, u, v, line, per_solid, sides, limits)
        return convex_pieces.grouped_hulls(xy, bounds, (len(offsets), len(solids)),
                                           by_rows=True)

    return at


@numba.njit(cache=True, nogil=True)
def _narrowed(lo: float, hi: float, ok: bool, rate: float, room: float,
              slack: float) -> tuple[float, float, bool]:  # pragma: no cover - compiled
    """[lo, hi] narrowed to the t with ``rate t <= room`` (for rate ~ 0, ``ok`` stays only
    if ``room >= -slack``)."""
    if abs(rate) < 1e-12:
        return lo, hi, ok and room >= -slack
    if rate > 0:
        return lo, min(hi, room / rate), ok
    return max(lo, room / rate), hi, ok


@numba.njit(cache=True, nogil=True)
def _chord_ends(offsets: np.ndarray, n: np.ndarray, u: np.ndarray, v: np.ndarray,
                line: np.ndarray, per_solid: np.ndarray, sides: np.ndarray, limits: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """Both ends (u, v) of every chord of every solid (``per_solid`` rows: z0, z1, top scale,
    radius, number of sides, unscaled outline's extent along n_xy (min, max), its y range
    (min, max); ``sides``/``limits``: its outline's half-planes q . side <= limit) with
    every plane n . p = offsets[k], at ``len(line)`` heights, grouped by piece g = k *
    solids + solid: its ends are ``xy[bounds[g]:bounds[g + 1]]``.

    Heights: the plane meets the horizontal plane at height z in the line n_xy . q =
    d - n_z z, which meets the solid's cross-section there (its outline scaled by k(z) = a
    + b z, between k(z) m and k(z) M along n_xy) when two conditions linear in z hold;
    those meet [z0, z1] in the heights spanned by the rows (moved inward by 1e-9 of the
    height, where chords could round to nothing), so that a plane clipping a corner still
    gets all its rows there.  A horizontal plane (v = y) gets rows across the
    cross-section's y range instead, ends included.
    """
    count, solids, rows = len(offsets), len(per_solid), len(line)
    xy = np.empty((2 * count * solids * rows, 2))
    bounds = np.zeros(count * solids + 1, dtype=np.int64)
    horizontal = abs(v[2]) <= 1e-12
    out = 0
    for k in range(count):
        d = offsets[k]
        for s in range(solids):
            z0, z1, top, radius = per_solid[s, 0], per_solid[s, 1], per_solid[s, 2], \
                per_solid[s, 3]
            lo, hi, meets = z0, z1, True
            if not horizontal:
                b = (top - 1.0) / (z1 - z0)
                a = 1.0 - b * z0
                low, big = per_solid[s, 5], per_solid[s, 6]
                # d - n_z z <= k(z) M  and  k(z) m <= d - n_z z
                lo, hi, meets = _narrowed(lo, hi, meets, -n[2] - b * big, a * big - d, 1e-12)
                lo, hi, meets = _narrowed(lo, hi, meets, n[2] + b * low, d - a * low, 1e-12)
                inset = 1e-9 * (z1 - z0)
                meets = meets and lo <= hi
                if hi - lo > 2 * inset:
                    lo, hi = lo + inset, hi - inset
            for j in range(rows):
                if horizontal:
                    z = d * n[2]
                    scale = 1.0 + (top - 1.0) * (z - z0) / (z1 - z0)
                    row = scale * per_solid[s, 7] + (scale * per_solid[s, 8]
                                                     - scale * per_solid[s, 7]) * line[j]
                else:
                    z = lo + (hi - lo) * line[j] if meets else z0
                    scale = 1.0 + (top - 1.0) * (z - z0) / (z1 - z0)
                    row = (z - d * n[2]) / v[2]
                bx, by = d * n[0] + row * v[0], d * n[1] + row * v[1]
                if radius:
                    along = bx * u[0] + by * u[1]
                    disc = along**2 - ((bx * bx + by * by) - (radius * scale) ** 2)
                    root = np.sqrt(max(disc, 0.0))
                    t0, t1, ok = -along - root, -along + root, disc >= -1e-12
                else:
                    t0, t1, ok = -np.inf, np.inf, True
                    for i in range(int(per_solid[s, 4])):
                        rate = sides[s, i, 0] * u[0] + sides[s, i, 1] * u[1]
                        room = limits[s, i] * scale - (bx * sides[s, i, 0] + by * sides[s, i, 1])
                        t0, t1, ok = _narrowed(t0, t1, ok, rate, room, 1e-9)
                if ok and t0 <= t1 and z0 - 1e-9 <= z <= z1 + 1e-9:
                    for t in (t0, t1):
                        xy[out, 0], xy[out, 1] = t, row
                        out += 1
            bounds[k * solids + s + 1] = out
    return xy[:out], bounds


def family_range(solids: list[Solid], n: np.ndarray) -> tuple[float, float]:
    ends = np.array([s.support(n) for s in solids])
    return float(ends[:, 0].min()), float(ends[:, 1].max())


def without_mirror_twins(families: list[str], solids: list[Solid]) -> list[str]:
    """``families`` without those whose planes a mirror of the stack maps onto another
    family's (their sections are then mirror images: same dissimilarities).

    x -> -x maps Y135 onto Y45 and Z135 onto Z45; y -> -y maps X135 onto X45; the swap
    x <-> y maps YZ onto XZ and Y45 onto X135 (so, with y -> -y, onto X45).
    """
    def symmetric(mirror: np.ndarray) -> bool:  # disks are; polygons if corners map onto corners
        for s in solids:
            if len(s.corners):
                mirrored = exact.matmul(s.corners, mirror)
                gaps = np.abs(mirrored[:, None] - s.corners[None]).sum(axis=2).min(axis=1)
                if gaps.max() > 1e-9:
                    return False
        return True

    skip = set()
    if symmetric(np.diag([-1.0, 1.0])):
        skip |= {"Y135", "Z135"}
    if symmetric(np.diag([1.0, -1.0])):
        skip.add("X135")
        if symmetric(np.array([[0.0, 1.0], [1.0, 0.0]])):
            skip |= {"YZ", "Y45"}
    return [f for f in families if f not in skip]


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    level = int(record["Level"].removeprefix("Level"))
    families = level_families(level)
    failures = check_answer_letter(record)
    if spec.families != families:
        failures.append(f"spec families {spec.families} are not level {level}'s {families}")
    original = stack(spec.solids)
    polygons, cuts = [], []
    for o in record["options"]:
        data = parse_option(o["data"])
        found, pieces = _check_option(o, data, spec, families, original)
        failures += found
        polygons.append(shape.from_text(data.polygon))
        cuts.append(pieces)
    letters = [o["letter"] for o in record["options"]]
    for j, i, d in shape.close_pairs(polygons, shape.OPTIONS_APART):
        failures.append(f"options {letters[j]} and {letters[i]} differ only slightly "
                        f"(dissimilarity {d:.3f} < {shape.OPTIONS_APART})")
    need = shape.SIMILAR_BELOW + shape.DENSE_STEP  # any section is within DENSE_STEP of a sample
    truths = []
    for name in without_mirror_twins(families, original):
        n = family_normal(name)
        section_at = cutter(original, n, DENSE_ROWS)
        if name == "XY":  # a horizontal section is a solid's outline scaled: one per solid
            middles = np.array([(s.z0 + s.z1) / 2.0 for s in original])
            truths.append(shape.samples_at(section_at, middles))
        else:
            truths.append(shape.dense_samples(section_at, *family_range(original, n)))
    every = shape.ShapeSet.of_samples(truths)
    for g, o in zip(polygons, record["options"], strict=True):
        if o["is_answer"] and (near := every.nearest(g, need)) < need:
            failures.append(f"answer {o['letter']} is a true section: dissimilarity {near:.3f}")
    failures += _check_panels(record, image, polygons, spec.scale)
    failures += _check_scale(record, image, spec, original, polygons)
    failures += _check_steps(spec, original)
    for o, box, g, pieces in zip(record["options"], record["layout"]["options"], polygons,
                                 cuts, strict=True):
        failures += _slivers(o, box, g, pieces, spec.scale)
    return failures


def _check_scale(record: dict[str, Any], image: np.ndarray, spec: Spec,
                 original: list[Solid], polygons: list[Any]) -> list[str]:
    """The common scale fits every option into its panel, and View 3 shows the stack at it
    (its outline's height, read from the image, is the stack's at that scale)."""
    failures = [f"option {o['letter']} does not fit its panel at the common scale"
                for o, g in zip(record["options"], polygons, strict=True)
                if not g.is_empty and fitted_scale(g.bounds, DRAWN) < spec.scale * (1 - 1e-6)]
    boxes = record["layout"]["reference"]
    if len(spec.views) != 3 or len(boxes) != 3 or spec.views[2].elevation != 0.0:
        return failures + ["the reference is not two views from above and View 3, level"]
    box = boxes[2]
    rows = np.flatnonzero(_ink(crop(image, box)).any(axis=1))
    tall = (rows[-1] - rows[0] + 1) / shown_factor(box, DRAWN) if len(rows) else 0.0
    want = max(s.z1 for s in original) * spec.scale
    if not want - HEIGHT_PX <= tall <= want + HEIGHT_PX + 2:
        failures.append(f"View 3 is {tall:.0f} px tall, not the stack's {want:.0f} px at the "
                        "common scale")
    return failures


def _check_steps(spec: Spec, original: list[Solid]) -> list[str]:
    """Every overhang between two solids sticking out ``2 MIN_STEP_PX`` (at the common
    scale) in some direction shows in View 3's outline, on its left or right, by at least
    ``MIN_STEP_PX``."""
    if not spec.views:
        return []
    angles = exact.cos_sin(np.radians(np.arange(DIRECTIONS, dtype=float)))
    right = orbit(spec.views[-1].azimuth, spec.views[-1].elevation).basis()[0][:2]
    sides = np.array([right, -right])
    failures = []
    for lower, upper in zip(original, original[1:], strict=False):
        def reach(s: Solid, k: float, dirs: np.ndarray) -> np.ndarray:
            return s.reaches(dirs) * k
        jut = reach(upper, 1.0, angles) - reach(lower, lower.top, angles)
        shown = reach(upper, 1.0, sides) - reach(lower, lower.top, sides)
        if jut.max() * spec.scale >= 2 * MIN_STEP_PX and shown.max() * spec.scale < MIN_STEP_PX:
            failures.append(f"the overhang at height {upper.z0:g} does not show in View 3 "
                            f"({shown.max() * spec.scale:.1f} px, fewer than {MIN_STEP_PX:g})")
    return failures


def _slivers(o: dict[str, Any], box: list[int], polygon: Any,
             pieces: convex_pieces.Pieces | None, scale: float) -> list[str]:
    """Every piece (one solid's part) of option ``o``'s section, recomputed from its stored
    solids and plane (``pieces``, when :func:`_check_option` already did), is at least
    ``MIN_PIECE_PX`` wide as drawn at ``scale`` in its panel ``box``."""
    if polygon.is_empty:
        return []  # reported by _check_option
    if pieces is None:
        pieces = _option_pieces(parse_option(o["data"]))
    return sliver_failures(f"option {o['letter']}", convex_pieces.widths(pieces).ravel(),
                           scale * shown_factor(box, DRAWN))


def _option_pieces(data: OptionData) -> convex_pieces.Pieces:
    """The section of option ``data``'s stated solids by its stated plane, one (convex)
    piece per solid, from ``ROWS`` chords each."""
    return section_pieces(stack(data.solids), family_normal(data.plane.family),
                          np.array([data.plane.offset]))


def _check_option(o: dict[str, Any], data: OptionData, spec: Spec, families: list[str],
                  original: list[Solid]) -> tuple[list[str], convex_pieces.Pieces | None]:
    """Option ``o`` (data ``data``): its polygon is its stated solids' section by its stated
    plane; and that section's pieces (as :func:`_option_pieces` makes them; None where the
    check stopped before making them).  ``original``: the stack of ``spec``'s solids."""
    letter, plane, descs = o["letter"], data.plane, data.solids
    failures: list[str] = []
    if plane.family not in families:
        return [f"option {letter}: plane family {plane.family} is not used at this level"], None
    n = family_normal(plane.family)
    if not np.allclose(plane.normal, n, atol=1e-5):
        failures.append(f"option {letter}: normal {list(plane.normal)} is not "
                        f"{plane.family}'s")
    kinds = [d.kind for d in descs]
    if o["is_answer"]:
        if o["operator"] != "altered_proportions" or kinds != [d.kind for d in spec.solids]:
            failures.append(f"option {letter}: the answer is not the same solids resized")
        elif descs == spec.solids:
            failures.append(f"option {letter}: the answer's solids are not altered")
    elif descs != spec.solids:
        failures.append(f"option {letter}: a true option is cut from other solids")
    solids = original if descs == spec.solids else stack(descs)
    lo, hi = family_range(solids, n)
    if not lo < plane.offset < hi:
        return failures + [f"option {letter}: the plane misses the solid"], None
    pieces = section_pieces(solids, n, np.array([plane.offset]))
    (truth,) = shape.unions(convex_pieces.polygons(pieces))
    stored = shape.from_text(data.polygon)
    if stored.is_empty or not stored.is_valid or truth.area == 0.0:
        return failures + [f"option {letter}: stored polygon or section is empty or invalid"], \
            pieces
    moved = shapely.area(shapely.symmetric_difference(stored, truth)) / truth.area
    if moved > MATCH_AREA or not shape.similar(stored, truth):
        failures.append(f"option {letter}: polygon is not the section by its plane")
    return failures, pieces


def _check_panels(record: dict[str, Any], image: np.ndarray, polygons: list[Any],
                  scale: float) -> list[str]:
    """Reference panels are not blank; each option panel shows its polygon at ``scale``."""
    failures = []
    for i, box in enumerate(record["layout"]["reference"]):
        if _share(_ink(crop(image, box))) < MIN_INK:
            failures.append(f"reference panel {i + 1} is blank")
    for o, box, g in zip(record["options"], record["layout"]["options"], polygons, strict=True):
        panel = crop(image, box)
        drawn = _ink(panel)
        if _share(drawn) < MIN_INK:
            failures.append(f"option {o['letter']} panel is blank")
            continue
        h, w = panel.shape[:2]
        again = cv2.resize(draw_shapes([g], DRAWN, scale=scale), (w, h),
                           interpolation=cv2.INTER_AREA)
        expected = _ink(again)
        both = cv2.countNonZero(cv2.bitwise_and(drawn, expected))
        iou = both / max(1, cv2.countNonZero(cv2.bitwise_or(drawn, expected)))
        if iou < MIN_IOU:
            failures.append(f"option {o['letter']} panel does not show its polygon (IoU {iou:.2f})")
    return failures


def _ink(panel: np.ndarray) -> np.ndarray:
    """Pixels clearly darker than the white background (255; 0 elsewhere): some channel
    below 200, the complement of the pixels with every channel in 200-255 (one pass)."""
    dark: np.ndarray = cv2.bitwise_not(cv2.inRange(panel, LIGHT, (255, 255, 255)))
    return dark


def _share(mask: np.ndarray) -> float:
    """The share of a mask's pixels that are set."""
    return cv2.countNonZero(mask) / mask.size
