"""Scale-free comparison of plane sections (shapely polygons, possibly disconnected).

A section image is drawn fitted to its panel, so only its shape counts: sections are
normalised (centroid at the origin, unit area) and compared by the area of their symmetric
difference, minimised over the 8 symmetries of the square (quarter turns and mirrors: a
viewer cannot tell from which side, or with which edge up, a plane is seen).  Two unit-area
shapes have ``area(A ^ B) = 2 - 2 area(A & B)``: 0 for identical shapes, 2 for disjoint.
Multi-part sections are compared as a whole (one centroid, total area).

Sections of a stack of convex solids are unions of convex pieces, one per solid, that meet
only along joints; dense sampling keeps them so (:mod:`spatialcad.geometry.convex_pieces`),
and where both sides of a comparison come with their pieces, overlap areas are sums of
convex-convex overlaps computed by compiled code instead of GEOS overlays (same values to
rounding; tests compare both).

``SIMILAR_BELOW = 0.08``: one true section computed by the three engines (exact FreeCAD
slice, polyhedral sweep, the verifier's analytic chords) differs by at most 0.008 (540
random planes of random stacks: p99 0.006; tests/test_cross_section.py asserts < 0.01),
and moving a plane by 0.1% of its family's range changes its section by less than 0.02
(p90) away from true jumps (a plane reaching a flat face, an XY plane passing a joint),
so the threshold is ten times the noise; it is still a visible change (a rectangle's
aspect ratio changed by 8.5%).  Proofs against densely sampled families ask for
``SIMILAR_BELOW + DENSE_STEP``: a section between two samples is within ``DENSE_STEP`` of
one of them.

``OPTIONS_APART = 0.2``: any two options of an item differ at least this much, so that no
two pictures differ only slightly in proportion (a rectangle's aspect ratio changed by
23 %, a disc against an ellipse of axes 1 : 1.23; two unit-area rectangles of aspect
ratios r < s have dissimilarity 2 - 2 sqrt(r / s)).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import numba
import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from spatialcad.geometry import convex_pieces as cp
from spatialcad.geometry import exact

SIMILAR_BELOW = 0.08
OPTIONS_APART = 0.2
# dense sampling refines until neighbouring samples differ by less than this, so any section
# between samples is (for these piecewise-smooth families) within DENSE_STEP of a sample
DENSE_STEP = 0.04

# the dihedral group of the square as 2x2 matrices acting on row vectors (p @ M)
_D4 = [
    np.array(m, dtype=np.float64)
    for m in (
        [[1, 0], [0, 1]], [[0, 1], [-1, 0]], [[-1, 0], [0, -1]], [[0, -1], [1, 0]],
        [[1, 0], [0, -1]], [[0, 1], [1, 0]], [[-1, 0], [0, 1]], [[0, -1], [-1, 0]],
    )
]


def normalized(geoms: np.ndarray | list[BaseGeometry]) -> np.ndarray:
    """Each geometry translated to centroid 0 and scaled to unit area (no area: empty)."""
    g = shapely.make_valid(np.asarray(geoms, dtype=object))
    area = shapely.area(g)
    full = area > 0.0
    g[~full] = cp.EMPTY
    centers = np.zeros((len(g), 2))
    centers[full] = shapely.get_coordinates(shapely.centroid(g[full]))
    scale = np.sqrt(np.where(full, area, 1.0))
    _, index = shapely.get_coordinates(g, return_index=True)
    out: np.ndarray = shapely.transform(g, lambda c: (c - centers[index]) / scale[index, None])
    return out


def symmetries(geom: BaseGeometry, inverse: bool = False) -> np.ndarray:
    """The 8 images of ``geom`` under the symmetries of the square about the origin, in the
    order of ``_D4`` (or under their inverses)."""
    mats = [m.T if inverse else m for m in _D4]
    return np.array([shapely.transform(geom, lambda c, m=m: exact.matmul(c, m)) for m in mats],
                    dtype=object)


def dissimilarities(shape: BaseGeometry, others: np.ndarray | list[BaseGeometry]) -> np.ndarray:
    """Dissimilarity of ``shape`` to each of ``others`` (vectorised :func:`dissimilarity`)."""
    others = np.asarray(others, dtype=object)
    out = np.full(len(others), 2.0)
    (a,) = normalized([shape])
    if a.is_empty or len(others) == 0:
        return out
    b = normalized(others)
    full = shapely.area(b) > 0.0
    images = symmetries(a)
    overlap = shapely.area(shapely.intersection(images[:, None], b[None, full]))
    out[full] = np.clip(2.0 - 2.0 * overlap.max(axis=0), 0.0, 2.0)
    return out


def dissimilarity(a: BaseGeometry, b: BaseGeometry,
                  pieces: tuple[cp.Pieces | None, cp.Pieces | None] = (None, None)) -> float:
    """min over the square's symmetries g of area(norm(a) ^ g norm(b)); 2 if either is empty.
    ``pieces``: ``a`` and ``b`` as convex pieces with disjoint interiors (one section each,
    in their coordinates), when known: the overlaps are then computed without GEOS."""
    pa, pb = pieces
    if pa is None or pb is None:
        return float(dissimilarities(a, [b])[0])
    if shapely.area(a) <= 0.0 or shapely.area(b) <= 0.0:
        return 2.0
    unit_b = _piece_images(b, pb, [np.eye(2)])
    overlap = cp.overlaps(_piece_images(a, pa, _D4), np.arange(len(_D4)), unit_b,
                          np.zeros(len(_D4), dtype=np.int64))
    return float(np.clip(2.0 - 2.0 * overlap.max(), 0.0, 2.0))


def similar(a: BaseGeometry, b: BaseGeometry) -> bool:
    """Whether ``dissimilarity(a, b) < SIMILAR_BELOW``; shapes that match as they lie (one
    overlap: an upper bound) need no other symmetry."""
    pair = np.array([a, b], dtype=object)
    return bool(aligned_differences(pair[:1], pair[1:])[0] < SIMILAR_BELOW
                or dissimilarity(a, b) < SIMILAR_BELOW)


def close_pairs(geoms: list[BaseGeometry], need: float) -> list[tuple[int, int, float]]:
    """The pairs (j, i), j < i, of ``geoms`` less than ``need`` apart, with their
    dissimilarity; the overlaps are computed only for pairs their profiles do not already
    prove at least ``need`` apart."""
    unit = normalized(geoms)
    full = shapely.area(unit) > 0.0  # an empty shape is 2 apart from any
    prof = _profiles_or_zero(unit)
    out = []
    for i in range(len(unit)):
        for j in range(i):
            if not (full[i] and full[j]) or _profile_bounds(prof[i], prof[j:j + 1]).min() >= need:
                continue
            if (d := dissimilarity(geoms[i], geoms[j])) < need:
                out.append((j, i, d))
    return out


# Profiles: the area of a shape in slabs across a direction.  For any shapes A, B and
# direction e, sum over slabs |area(A & slab) - area(B & slab)| <= area(A ^ B), so
# profiles bound dissimilarities from below at a fraction of the cost of exact overlaps.
_CUTS = np.linspace(-2.4, 2.4, 49)  # slab boundaries (the two outer slabs are unbounded)
_DIRS = np.array([[1.0, 0.0], [0.0, 1.0]])  # the square's symmetries permute them (up to sign)
_MERGED = 4  # inner slabs per slab of a coarse profile (symmetric: the inner ones split evenly)
assert (len(_CUTS) - 1) % _MERGED == 0


def _profile_map(m: np.ndarray) -> list[tuple[int, bool]]:
    """For a symmetry p -> p @ m: the profile of the image along _DIRS[j] is the profile
    along _DIRS[k] (reversed when ``flip``), as (k, flip) for every j."""
    out = []
    for e in _DIRS:
        v = m @ e  # (p @ m) . e = p . (m @ e)
        k = int(np.argmax(np.abs(_DIRS @ v)))
        out.append((k, bool(_DIRS[k] @ v < 0)))
    return out


_MAPS = [_profile_map(m) for m in _D4]


def profiles(shapes: np.ndarray | list[BaseGeometry]) -> np.ndarray:
    """Slab areas (n, 2, len(_CUTS) + 1) of each shape across each direction of _DIRS.

    Across direction e (coordinates s = p.e, w = p.rot90(e)), the area with s <= t is
    -sum over boundary edges of the integral of w ds where s <= t, for counter-clockwise
    rings (the closing edge along s = t adds nothing).  Shapes must not be empty.
    """
    shapes = shapely.normalize(np.asarray(shapes, dtype=object))  # shells CW, holes CCW
    parts, part_of = shapely.get_parts(shapes, return_index=True)
    rings, ring_of = shapely.get_rings(parts, return_index=True)
    coords, index = shapely.get_coordinates(rings, return_index=True)
    same = index[1:] == index[:-1]
    owner = part_of[ring_of[index[:-1][same]]]  # sorted: shapes keep their order
    return _edge_profiles(coords[:-1][same], coords[1:][same], owner, shapely.area(shapes))


def _edge_profiles(a: np.ndarray, b: np.ndarray, owner: np.ndarray,
                   total: np.ndarray) -> np.ndarray:
    """:func:`profiles` of shapes with clockwise boundary edges a -> b (shape ``owner``,
    sorted) and areas ``total``."""
    bounds = np.searchsorted(owner, np.arange(len(total) + 1))
    below = []
    for e in _DIRS:
        s1, s2 = exact.matmul(a, e), exact.matmul(b, e)
        w1, w2 = exact.matmul(a, [-e[1], e[0]]), exact.matmul(b, [-e[1], e[0]])
        below.append(_areas_below(s1, w1, s2 - s1, w2 - w1, bounds, _CUTS))
    return _slabs(np.stack(below, axis=1), total)


@numba.njit(cache=True, nogil=True)
def _slabs(below: np.ndarray, total: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Slab areas (n, D, C + 1) from the areas below each cut (n, D, C) and the total areas
    (n,): a slab's area is the difference of the areas below its two cuts (below the
    first: 0; below the last: the total)."""
    out = np.empty((below.shape[0], below.shape[1], below.shape[2] + 1))
    for s in range(below.shape[0]):
        for d in range(below.shape[1]):
            last = 0.0
            for c in range(below.shape[2]):
                out[s, d, c] = below[s, d, c] - last
                last = below[s, d, c]
            out[s, d, below.shape[2]] = total[s] - last
    return out


def described_profiles(pieces: cp.Pieces) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                   np.ndarray]:
    """Each section's area, centroid and self-overlap (:func:`convex_pieces.described`) and
    the :func:`profiles` of its normalised pieces (zeros for empty ones; profiles add up
    over pieces with disjoint interiors), in one compiled pass that normalises one section
    at a time (the same arithmetic as ``described``'s unit pieces: the same bits) instead
    of making every section's normalised pieces."""
    return _described_profiles(pieces.coords, pieces.counts, _DIRS, _CUTS)


@numba.njit(cache=True, nogil=True)
def _described_profiles(coords: np.ndarray, counts: np.ndarray, dirs: np.ndarray,
                        cuts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                   np.ndarray]:  # pragma: no cover
    """:func:`described_profiles`: each section's pieces normalised into one scratch
    array, their area summed as :func:`convex_pieces.areas_and_centroids` sums it, and
    their areas below the cuts."""
    area, centroid = cp._areas_and_centroids(coords, counts)
    shared = cp._self_overlaps(coords, counts)
    unit = np.zeros(coords.shape[1:])
    unit_area = np.zeros(len(counts))
    below = np.zeros((len(counts), len(dirs), len(cuts)))
    for s in range(len(counts)):
        cp.normalise_into(coords[s], counts[s], area[s], centroid[s], unit)
        total = 0.0
        for k in range(counts.shape[1]):
            n = counts[s, k]
            for i in range(n):
                j = i + 1 if i + 1 < n else 0
                total += 0.5 * (unit[k, i, 0] * unit[k, j, 1] - unit[k, j, 0] * unit[k, i, 1])
        unit_area[s] = total
        _section_areas_below(unit, counts[s], dirs, cuts, below[s])
    return area, centroid, shared, _slabs(below, unit_area)


@numba.njit(cache=True, nogil=True, inline="always")
def _add_below(out: np.ndarray, s1: float, w1: float, ds: float, dw: float,
               cuts: np.ndarray) -> None:  # pragma: no cover
    """Add to ``out[c]`` the integral of w ds over the part of edge (s1, w1) + r (ds, dw),
    0 <= r <= 1, with s <= cuts[c].

    Its part with s <= t is r <= r_t (ds > 0) or r >= r_t (ds < 0), and the integral of
    w ds from 0 to r is ds (w1 r + dw r^2 / 2); summed over the clockwise rings of a
    shape, that is its area below t.
    """
    inv = 1.0 / ds if ds != 0.0 else 0.0
    whole = min(ds, 0.0) * (w1 + 0.5 * dw)
    for c in range(len(cuts)):
        r = min(max((cuts[c] - s1) * inv, 0.0), 1.0)
        out[c] += abs(ds) * r * (w1 + 0.5 * dw * r) + whole


@numba.njit(cache=True, nogil=True)
def _areas_below(s1: np.ndarray, w1: np.ndarray, ds: np.ndarray, dw: np.ndarray,
                 bounds: np.ndarray, cuts: np.ndarray) -> np.ndarray:  # pragma: no cover
    """Per shape (edges ``bounds[i]:bounds[i + 1]``) and cut t, the area with s <= t."""
    out = np.zeros((len(bounds) - 1, len(cuts)))
    for i in range(len(bounds) - 1):
        for j in range(bounds[i], bounds[i + 1]):
            _add_below(out[i], s1[j], w1[j], ds[j], dw[j], cuts)
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def _section_areas_below(coords: np.ndarray, counts: np.ndarray, dirs: np.ndarray,
                         cuts: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """Add to ``out`` (D, C) one section's (convex pieces ``coords`` (K, M, 2), counter-
    clockwise, :mod:`convex_pieces`) areas with s <= t per direction and cut t:
    :func:`_areas_below` over their edges run clockwise."""
    for k in range(len(counts)):
        n = counts[k]
        for i in range(n):
            j = i + 1 if i + 1 < n else 0  # clockwise: the edge from vertex j to i
            ax, ay, bx, by = coords[k, j, 0], coords[k, j, 1], coords[k, i, 0], coords[k, i, 1]
            for d in range(len(dirs)):
                ex, ey = dirs[d, 0], dirs[d, 1]
                s1, w1 = ax * ex + ay * ey, ay * ex - ax * ey
                s2, w2 = bx * ex + by * ey, by * ex - bx * ey
                _add_below(out[d], s1, w1, s2 - s1, w2 - w1, cuts)


def _profile_bounds(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Lower bounds (8, n) of area(a ^ g b_i) from the profiles of a (2, S) and b (n, 2, S):
    for each symmetry g, the largest over directions of sum |profile of a - that of g b|."""
    return _mapped_distances(np.ascontiguousarray(pa, dtype=np.float64),
                             np.ascontiguousarray(pb, dtype=np.float64), _MAP_TABLE)


assert len(_CUTS) + 1 <= 128  # _numpy_sum follows numpy only for rows this short
_MAP_TABLE = np.array([[(k, flip) for k, flip in mapping] for mapping in _MAPS], dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def _mapped_distances(pa: np.ndarray, pb: np.ndarray,
                      maps: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """:func:`_profile_bounds` (``maps[g, j]``: the direction k and reversal of g b's
    profile along direction j).  Each sum is added up as numpy's does a contiguous row
    (pairwise, 8 running sums), so the bounds are those numpy would give, to the bit.
    The symmetries pair each direction of a with each direction of b, reversed or not,
    twice: each such distance is summed once per shape of b and then shared."""
    out = np.empty((len(maps), len(pb)))
    diff = np.empty(pa.shape[1])
    dist = np.empty((pa.shape[0], pb.shape[1], 2))
    for i in range(len(pb)):
        for j in range(pa.shape[0]):
            for k in range(pb.shape[1]):
                for flip in range(2):
                    dist[j, k, flip] = _distance(pa[j], pb[i, k], flip == 1, diff)
        for g in range(len(maps)):
            worst = -np.inf
            for j in range(pa.shape[0]):
                worst = max(worst, dist[j, maps[g, j, 0], maps[g, j, 1]])
            out[g, i] = worst
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def _distance(a: np.ndarray, b: np.ndarray, flip: bool,
              diff: np.ndarray) -> float:  # pragma: no cover - compiled
    """sum |a - b| over two profile rows (``b`` reversed when ``flip``), added up as numpy
    adds up a row (:func:`_numpy_sum`); ``diff``: scratch of their length."""
    for s in range(len(diff)):
        diff[s] = abs(a[s] - b[len(diff) - 1 - s if flip else s])
    return _numpy_sum(diff)


@numba.njit(cache=True, nogil=True, inline="always")
def _numpy_sum(a: np.ndarray) -> float:  # pragma: no cover - compiled
    """The sum of ``a`` in numpy's order for a contiguous row of up to 128 values: in order
    below 8 values, else 8 running sums over blocks of 8, combined in pairs, then the rest."""
    n = len(a)
    if n < 8:
        total = 0.0
        for i in range(n):
            total += a[i]
        return total
    r0, r1, r2, r3, r4, r5, r6, r7 = a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
    i = 8
    while i < n - n % 8:
        r0, r1, r2, r3 = r0 + a[i], r1 + a[i + 1], r2 + a[i + 2], r3 + a[i + 3]
        r4, r5, r6, r7 = r4 + a[i + 4], r5 + a[i + 5], r6 + a[i + 6], r7 + a[i + 7]
        i += 8
    paired: float = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        paired += a[i]
        i += 1
    return paired


class ShapeSet:
    """Shapes known by the profiles of their normalised forms, for repeated "is anything
    like this?" queries: profiles bound each dissimilarity from below; exact overlaps are
    computed only where the bound is low (and only those shapes made and normalised), from
    convex pieces where both sides have them."""

    def __init__(self, profiles: np.ndarray, shapes_at: Callable[[np.ndarray], np.ndarray],
                 pieces_at: Callable[[np.ndarray], tuple[cp.Pieces, np.ndarray]] | None = None
                 ) -> None:
        """``profiles``: of each shape's normalised form (zeros: an empty shape, left out);
        ``shapes_at(indices)``: those shapes (anywhere, at any scale); ``pieces_at(sorted
        indices)``: their normalised convex pieces, and whether those are disjoint."""
        self._index = np.flatnonzero(_has_area(profiles))
        self.profiles = profiles[self._index]
        self._shapes_at, self._pieces_at = shapes_at, pieces_at
        self._normalized = np.full(len(self._index), None, dtype=object)
        self._known = np.zeros(len(self._index), dtype=bool)
        self._coarse: np.ndarray | None = None  # coarse profiles, made at the first query

    @classmethod
    def of_shapes(cls, geoms: np.ndarray | list[BaseGeometry]) -> ShapeSet:
        geoms = np.asarray(geoms, dtype=object)
        return cls(_profiles_or_zero(normalized(geoms)), lambda i: geoms[i])

    @classmethod
    def of_samples(cls, samples: Iterable[Samples]) -> ShapeSet:
        """The set of all sections of ``samples``, with the profiles and pieces dense
        sampling computed."""
        samples = list(samples)
        starts = np.cumsum([0] + [len(s.offsets) for s in samples])

        def shapes_at(index: np.ndarray) -> np.ndarray:
            out = np.empty(len(index), dtype=object)
            owner = np.searchsorted(starts, index, side="right") - 1
            for k in np.unique(owner):
                mine = owner == k
                out[mine] = samples[k].sections(index[mine] - starts[k])
            return out

        def pieces_at(index: np.ndarray) -> tuple[cp.Pieces, np.ndarray]:
            raw = cp.gathered([s.pieces for s in samples], index)
            return cp.normalised(raw, area[index], centroid[index]), disjoint[index]

        disjoint = np.concatenate([s.disjoint for s in samples])
        area = np.concatenate([s.area for s in samples])
        centroid = np.concatenate([s.centroid for s in samples])
        return cls(np.concatenate([s.profiles for s in samples]), shapes_at, pieces_at)

    def __len__(self) -> int:
        return len(self._index)

    def shapes(self, index: np.ndarray) -> np.ndarray:
        """The normalised shapes ``index`` (into the non-empty ones), made when first asked."""
        todo = np.unique(index[~self._known[index]])
        if len(todo):
            self._normalized[todo] = normalized(self._shapes_at(self._index[todo]))
            self._known[todo] = True
        shapes: np.ndarray = self._normalized[index]
        return shapes

    def nearest(self, geom: BaseGeometry, need: float, pieces: cp.Pieces | None = None
                ) -> float:
        """The smallest dissimilarity of ``geom`` to the set if it is below ``need``;
        otherwise some value >= ``need`` (a proof that nothing in the set is that close).
        ``pieces``: ``geom`` as convex pieces with disjoint interiors (one section, in its
        coordinates), for overlaps computed without GEOS."""
        (a,) = normalized([geom])
        if a.is_empty or len(self) == 0:
            return 2.0
        bound = self._bounds(profiles([a])[0], need)
        g, i = np.nonzero(bound < need)
        if len(g) == 0:
            return float(bound.min())
        overlap = np.zeros(len(g))
        slow = np.ones(len(g), dtype=bool)
        if pieces is not None and self._pieces_at is not None:
            members, at = np.unique(i, return_inverse=True)
            theirs, disjoint = self._pieces_at(self._index[members])
            slow = ~disjoint[at]
            quick = np.flatnonzero(~slow)
            mapped = _piece_images(geom, pieces, [m.T for m in _D4])  # as symmetries(inverse)
            overlap[quick] = cp.overlaps(mapped, g[quick], theirs, at[quick])
        if slow.any():
            # area(a ^ g b) = area(g^-1 a ^ b), and g^-1 is the transposed matrix
            images = symmetries(a, inverse=True)
            overlap[slow] = shapely.area(shapely.intersection(images[g[slow]],
                                                              self.shapes(i[slow])))
        exact = bound.copy()
        exact[g, i] = 2.0 - 2.0 * overlap
        return float(max(exact.min(), 0.0))

    def _bounds(self, pa: np.ndarray, need: float) -> np.ndarray:
        """:func:`_profile_bounds` of profile ``pa`` against the set's where they are below
        ``need``; elsewhere some lower bound at least ``need`` (coarse profiles rule most
        shapes out at a quarter of the cost)."""
        if self._coarse is None:
            self._coarse = _coarse(self.profiles)
        bound = _profile_bounds(_coarse(pa), self._coarse)
        close = np.flatnonzero((bound < need + 1e-9).any(axis=0))  # the margin: rounding
        bound[:, close] = _profile_bounds(pa, self.profiles[close])
        return bound


def _coarse(profiles: np.ndarray) -> np.ndarray:
    """``profiles`` with every ``_MERGED`` neighbouring inner slabs added up into one: their
    bounds are never above those of the fine profiles (|sum a - sum b| <= sum |a - b|)."""
    inner = profiles[..., 1:-1]
    merged = inner[..., ::_MERGED].copy()
    for j in range(1, _MERGED):  # strided adds: numpy's sum over an axis of 4 is far slower
        merged += inner[..., j::_MERGED]
    return np.concatenate([profiles[..., :1], merged, profiles[..., -1:]], axis=-1)


def _piece_images(geom: BaseGeometry, pieces: cp.Pieces,
                  matrices: list[np.ndarray]) -> cp.Pieces:
    """The pieces of ``geom`` normalised as :func:`normalized` normalises ``geom``, mapped
    by each of ``matrices`` (points as row vectors, p @ m, as :func:`symmetries` maps them):
    one section per matrix."""
    valid = shapely.make_valid(geom)
    centre = np.asarray(shapely.get_coordinates(shapely.centroid(valid))[0])
    unit = (pieces.coords[0] - centre) / np.sqrt(shapely.area(valid))
    images = _mapped_pieces(unit, pieces.counts[0], np.array(matrices, dtype=np.float64))
    return cp.Pieces(images, np.repeat(pieces.counts, len(matrices), axis=0))


@numba.njit(cache=True, nogil=True)
def _mapped_pieces(unit: np.ndarray, counts: np.ndarray,
                   matrices: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """Pieces ``unit`` (K, M, 2) mapped by each of ``matrices`` (p @ m): (G, K, M, 2); a
    mirror (det < 0) turns them clockwise, so its images are walked back."""
    out = np.empty((len(matrices), unit.shape[0], unit.shape[1], 2))
    for g in range(len(matrices)):
        m = matrices[g]
        mirror = m[0, 0] * m[1, 1] < m[0, 1] * m[1, 0]
        for k in range(unit.shape[0]):
            n = counts[k]
            for j in range(unit.shape[1]):
                src = n - 1 - j if mirror and j < n else j
                x, y = unit[k, src, 0], unit[k, src, 1]
                # summed from 0.0 as numpy's matmul does: the same zeros' signs
                out[g, k, j, 0] = (0.0 + x * m[0, 0]) + y * m[1, 0]
                out[g, k, j, 1] = (0.0 + x * m[0, 1]) + y * m[1, 1]
    return out


def _aligned(na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    """Pairwise area(na_i ^ nb_i) of normalised shapes without any symmetry (an upper bound
    of their dissimilarity); 0 for two empty shapes, 2 for one."""
    full = (shapely.area(na) > 0.0) & (shapely.area(nb) > 0.0)
    out = np.where(shapely.is_empty(na) & shapely.is_empty(nb), 0.0, 2.0)
    out[full] = 2.0 - 2.0 * shapely.area(shapely.intersection(na[full], nb[full]))
    return np.clip(out, 0.0, 2.0)


def aligned_differences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise area(norm(a_i) ^ norm(b_i)) without symmetries: upper bounds of the
    dissimilarities (:func:`dissimilarity`)."""
    return _aligned(normalized(a), normalized(b))


def _has_area(profiles: np.ndarray) -> np.ndarray:
    """Which shapes have area, from their profiles (a shape's slabs add up to its area)."""
    has: np.ndarray = profiles[:, 0].sum(axis=1) > 0.0
    return has


def _profiles_or_zero(norm: np.ndarray) -> np.ndarray:
    """:func:`profiles` of the shapes with area; zeros for the empty ones."""
    out = np.zeros((len(norm), len(_DIRS), len(_CUTS) + 1))
    full = shapely.area(norm) > 0.0
    if full.any():
        out[full] = profiles(norm[full])
    return out


@dataclass(frozen=True)
class Samples:
    """Sections of a plane family at sorted offsets, as convex pieces (``pieces``, with the
    ``area`` and ``centroid`` of each section, which normalise them as :func:`normalized`
    normalises their union: :func:`convex_pieces.normalised`); ``steps[i]`` is how far
    sections i and i + 1 are apart: below ``DENSE_STEP``, their aligned difference (an upper
    bound of their dissimilarity); otherwise some value of at least ``DENSE_STEP``.
    ``disjoint``: whether a section's pieces meet only along edges (else it is compared as
    their union); ``profiles``: those of the normalised sections (zeros for empty ones)."""

    offsets: np.ndarray
    steps: np.ndarray
    pieces: cp.Pieces
    area: np.ndarray
    centroid: np.ndarray
    disjoint: np.ndarray
    profiles: np.ndarray

    @property
    def shapes(self) -> np.ndarray:
        """Every section as a shapely geometry (made on each call)."""
        return unions(cp.polygons(self.pieces))

    def sections(self, index: np.ndarray) -> np.ndarray:
        """Sections ``index`` as shapely geometries (the unions of their pieces)."""
        return unions(cp.polygons(self.pieces.rows(index)))


def unions(pieces: np.ndarray) -> np.ndarray:
    """The union of each row of an (S, K) object array of polygons."""
    out = np.array([cp.EMPTY] * len(pieces), dtype=object)
    for column in np.asarray(pieces, dtype=object).T:
        present = np.flatnonzero(shapely.area(column) > 0.0)
        out[present] = shapely.union(out[present], column[present])
    return out


class _Taken:
    """The sections dense sampling took so far, in the order taken: the per-section arrays
    and the pieces in columns and stores that grow by doubling (joining every round's
    arrays again each round cost more than the sampling).  The normalised pieces are not
    kept: steps normalise the two sections they compare (the same arithmetic as
    :func:`convex_pieces.described`: the same bits)."""

    _COLUMNS = ("offsets", "area", "centroid", "disjoint", "profiles", "has")

    def __init__(self, capacity: int) -> None:
        """Nothing taken yet; room for ``capacity`` sections made at the first take."""
        self.size, self._capacity = 0, capacity
        self._columns: dict[str, np.ndarray] = {}
        self.pieces = cp.PieceStore(capacity)

    def add(self, s: Samples) -> np.ndarray:
        """Take the sections ``s``; returns their indices."""
        first, end = self.size, self.size + len(s.offsets)
        new = (s.offsets, s.area, s.centroid, s.disjoint, s.profiles, _has_area(s.profiles))
        for name, values in zip(self._COLUMNS, new, strict=True):
            column = self._columns.get(name)
            if column is None or end > len(column):
                rows = max(end, 2 * first, self._capacity)
                grown = np.empty((rows, *values.shape[1:]), dtype=values.dtype)
                if column is not None:
                    grown[:first] = column[:first]
                self._columns[name] = column = grown
            column[first:end] = values
        self.pieces.add(s.pieces)
        self.size = end
        return np.arange(first, end)

    def column(self, name: str) -> np.ndarray:
        """The per-section array ``name`` of the sections taken."""
        return self._columns[name][: self.size]

    def sections(self, index: np.ndarray) -> np.ndarray:
        return unions(cp.polygons(self.pieces.rows(index)))

    def in_order(self, order: np.ndarray, steps: np.ndarray) -> Samples:
        """The sections ``order`` (sorted by offset), ``steps`` apart."""
        c = self.column
        return Samples(c("offsets")[order], steps, self.pieces.rows(order), c("area")[order],
                       c("centroid")[order], c("disjoint")[order], c("profiles")[order])


def _steps(s: _Taken, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """For each pair (a[t], b[t]) of neighbouring sections, how far they are apart, as
    dense sampling needs it: area(norm_a ^ norm_b) (aligned), or, where their profiles
    already prove that area at least ``DENSE_STEP``, that lower bound (no overlap
    computed)."""
    out, slow = _step_values(s.column("profiles"), s.column("has"), s.column("disjoint"),
                             s.pieces.coords, s.pieces.counts, s.column("area"),
                             s.column("centroid"), a, b, DENSE_STEP + 1e-9)
    if len(slow):  # pieces overlap
        out[slow] = np.clip(aligned_differences(s.sections(a[slow]), s.sections(b[slow])),
                            0.0, 2.0)
    return out


@numba.njit(cache=True, nogil=True)
def _step_values(profiles: np.ndarray, has: np.ndarray, disjoint: np.ndarray,
                 coords: np.ndarray, counts: np.ndarray, area: np.ndarray,
                 centroid: np.ndarray, a: np.ndarray, b: np.ndarray,
                 sure: float) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """:func:`_step_bounds`, with the overlaps of the ``quick`` pairs (pieces ``coords``,
    ``counts`` of sections of areas ``area`` and centroids ``centroid``, normalised as
    :func:`convex_pieces.described` normalises them) computed as
    :func:`convex_pieces.overlaps` computes them; the ``slow`` pairs are left to the
    caller."""
    out, quick, slow = _step_bounds(profiles, has, disjoint, a, b, sure)
    chains = np.empty((8, coords.shape[2] + 1))
    boxes = np.empty((2, counts.shape[1], 4))
    unit_i, unit_j = np.empty(coords.shape[1:]), np.empty(coords.shape[1:])
    for t in quick:
        i, j = a[t], b[t]
        cp.normalise_into(coords[i], counts[i], area[i], centroid[i], unit_i)
        cp.normalise_into(coords[j], counts[j], area[j], centroid[j], unit_j)
        overlap = cp._section_overlap(unit_i, counts[i], unit_j, counts[j], chains, boxes)
        out[t] = min(max(2.0 - 2.0 * overlap, 0.0), 2.0)
    return out, slow


@numba.njit(cache=True, nogil=True)
def _step_bounds(profiles: np.ndarray, has: np.ndarray, disjoint: np.ndarray, a: np.ndarray,
                 b: np.ndarray, sure: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover
    """:func:`_steps` as far as profiles tell: each pair's step where the profiles' bound
    (their largest sum |profile a - profile b| over directions, summed as numpy sums a row)
    is at least ``sure`` (the margin covers rounding), 2 where one section is empty, 0 where
    both are; and the pairs whose overlap is still needed: ``quick`` (pieces only meet
    along edges) and ``slow`` (they overlap: compared as unions)."""
    out = np.empty(len(a))
    quick, slow = np.empty(len(a), dtype=np.int64), np.empty(len(a), dtype=np.int64)
    found_quick = found_slow = 0
    diff = np.empty(profiles.shape[2])
    for t in range(len(a)):
        i, j = a[t], b[t]
        if not (has[i] and has[j]):
            out[t] = 2.0 if has[i] or has[j] else 0.0
            continue
        bound = -np.inf
        for d in range(profiles.shape[1]):
            bound = max(bound, _distance(profiles[i, d], profiles[j, d], False, diff))
        out[t] = bound
        if bound >= sure:
            continue
        if disjoint[i] and disjoint[j]:
            quick[found_quick] = t
            found_quick += 1
        else:
            slow[found_slow] = t
            found_slow += 1
    return out, quick[:found_quick], slow[:found_slow]


def _sampled(section_at: Callable[[np.ndarray], cp.Pieces], offsets: np.ndarray) -> Samples:
    """The sections at ``offsets`` (steps not yet known: zeros, one per section)."""
    pieces = section_at(offsets)
    area, centroid, shared, prof = described_profiles(pieces)
    disjoint = shared <= 1e-9 * area
    if not disjoint.all():  # overlapping pieces: the profiles of their unions
        overlapping = unions(cp.polygons(pieces.rows(~disjoint)))
        prof[~disjoint] = _profiles_or_zero(normalized(overlapping))
    return Samples(offsets, np.zeros(len(offsets)), pieces, area, centroid, disjoint,
                   prof)


def samples_at(section_at: Callable[[np.ndarray], cp.Pieces], offsets: np.ndarray) -> Samples:
    """The sections at sorted ``offsets`` (``section_at`` as for :func:`dense_samples`), not
    known to be close to one another (steps 2)."""
    s = _sampled(section_at, np.asarray(offsets, dtype=float))
    return replace(s, steps=np.full(max(len(s.offsets) - 1, 0), 2.0))


def dense_samples(
    section_at: Callable[[np.ndarray], cp.Pieces],
    lo: float,
    hi: float,
    count: int = 100,
    min_gap: float = 1e-3,
) -> Samples:
    """Sections of a plane family over its range ``(lo, hi)``.

    ``section_at(offsets)`` returns the sections at ``offsets`` as convex pieces (one per
    row, :class:`spatialcad.geometry.convex_pieces.Pieces`), whose unions are the
    sections.  Starts from ``count`` evenly spaced offsets plus two within ``min_gap`` of
    the ends, then bisects every gap whose two sections differ by ``DENSE_STEP`` or more
    (aligned, without symmetries: an upper bound), until gaps are narrower than ``min_gap``
    times the range: true jumps (an XY plane passing from one solid to the next) stay
    jumps, and the sections skipped at the very ends are slivers.
    """
    width = hi - lo
    ends: list[npt.ArrayLike] = [[min_gap], (np.arange(count) + 0.5) / count, [1.0 - min_gap]]
    taken = _Taken(3 * (count + 2))  # room for most families' samples
    order = taken.add(_sampled(section_at, lo + width * np.concatenate(ends)))
    steps = _steps(taken, order[:-1], order[1:])
    while True:
        offsets = taken.column("offsets")[order]
        split = (steps >= DENSE_STEP) & (np.diff(offsets) > min_gap * width)
        if not split.any():
            return taken.in_order(order, steps)
        at = np.flatnonzero(split)
        mids = taken.add(_sampled(section_at, (offsets[at] + offsets[at + 1]) / 2.0))
        # mid k goes right after the sample at[k], to new place at[k] + k + 1: the steps on
        # both sides of it are new
        placed = at + np.arange(1, len(at) + 1)
        kept = np.ones(len(order) + len(at), dtype=bool)
        kept[placed] = False
        order, steps = _spread(order, kept, placed, mids), _spread(steps, kept[:-1], placed, 0.0)
        changed = np.concatenate([placed - 1, placed])
        steps[changed] = _steps(taken, order[changed], order[changed + 1])


def _spread(values: np.ndarray, kept: np.ndarray, placed: np.ndarray,
            new: np.ndarray | float) -> np.ndarray:
    """``values`` at the places ``kept`` of a longer array, ``new`` at the places ``placed``
    (the rest): ``np.insert`` without its overhead on short arrays."""
    out = np.empty(len(kept), dtype=values.dtype)
    out[kept] = values
    out[placed] = new
    return out


def to_text(geom: BaseGeometry) -> str:
    """WKT with 5 decimals (sections are a few units wide), as stored in records; the
    coordinates are rounded first, so round-off next to 0 reads 0, not -5.55112e-17."""
    rounded = shapely.transform(geom, lambda c: np.round(c, 5) + 0.0)  # + 0.0: no -0
    text: str = shapely.to_wkt(rounded, rounding_precision=5, trim=True)
    return text


def from_text(text: str) -> BaseGeometry:
    return shapely.from_wkt(text)
