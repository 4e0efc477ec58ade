"""Scale-free comparison of plane sections (shapely polygons, possibly disconnected).

A section image is drawn fitted to its panel, so only its shape counts: sections are
normalised (centroid at the origin, unit area) and compared by the area of their symmetric
difference, minimised over the 8 symmetries of the square (quarter turns and mirrors: a
viewer cannot tell from which side, or with which edge up, a plane is seen).  Two unit-area
shapes have ``area(A ^ B) = 2 - 2 area(A & B)``: 0 for identical shapes, 2 for disjoint.
Multi-part sections are compared as a whole (one centroid, total area).

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
from typing import NamedTuple

import numba
import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

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
    g[~full] = shapely.Polygon()
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
    return np.array([shapely.transform(geom, lambda c, m=m: c @ m) for m in mats], dtype=object)


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


def dissimilarity(a: BaseGeometry, b: BaseGeometry) -> float:
    """min over the square's symmetries g of area(norm(a) ^ g norm(b)); 2 if either is empty."""
    return float(dissimilarities(a, [b])[0])


def pieces(geoms: np.ndarray, min_fraction: float = 0.01) -> np.ndarray:
    """Number of connected parts of each geometry holding ``min_fraction`` of its area."""
    geoms = np.asarray(geoms, dtype=object)
    parts, owner = shapely.get_parts(geoms, return_index=True)
    area = shapely.area(parts)
    total = np.bincount(owner, weights=area, minlength=len(geoms))
    return np.bincount(owner[area >= min_fraction * total[owner]], minlength=len(geoms))


# Profiles: the area of a shape in slabs across a direction.  For any shapes A, B and
# direction e, sum over slabs |area(A & slab) - area(B & slab)| <= area(A ^ B), so
# profiles bound dissimilarities from below at a fraction of the cost of exact overlaps.
_CUTS = np.linspace(-2.4, 2.4, 49)  # slab boundaries (the two outer slabs are unbounded)
_DIRS = np.array([[1.0, 0.0], [0.0, 1.0]])  # the square's symmetries permute them (up to sign)


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
    a, b = coords[:-1][same], coords[1:][same]
    owner = part_of[ring_of[index[:-1][same]]]  # sorted: shapes keep their order
    bounds = np.searchsorted(owner, np.arange(len(shapes) + 1))
    total = shapely.area(shapes)[:, None]
    out = []
    for e in _DIRS:
        s1, s2 = a @ e, b @ e
        w1, w2 = a @ [-e[1], e[0]], b @ [-e[1], e[0]]
        below = _areas_below(s1, w1, s2 - s1, w2 - w1, bounds, _CUTS)
        cumulative = np.hstack([np.zeros_like(total), below, total])
        out.append(np.diff(cumulative, axis=1))
    return np.stack(out, axis=1)


@numba.njit(cache=True, nogil=True)
def _areas_below(s1: np.ndarray, w1: np.ndarray, ds: np.ndarray, dw: np.ndarray,
                 bounds: np.ndarray, cuts: np.ndarray) -> np.ndarray:  # pragma: no cover
    """Per shape (edges ``bounds[i]:bounds[i + 1]``) and cut t, the area with s <= t.

    An edge is p(r) = a + r (b - a), 0 <= r <= 1; its part with s <= t is r <= r_t
    (ds > 0) or r >= r_t (ds < 0), and the integral of w ds from 0 to r is
    ds (w1 r + dw r^2 / 2); summed over the clockwise rings of a shape, that is its area
    below t.
    """
    out = np.zeros((len(bounds) - 1, len(cuts)))
    for i in range(len(bounds) - 1):
        for j in range(bounds[i], bounds[i + 1]):
            inv = 1.0 / ds[j] if ds[j] != 0.0 else 0.0
            whole = min(ds[j], 0.0) * (w1[j] + 0.5 * dw[j])
            for c in range(len(cuts)):
                r = min(max((cuts[c] - s1[j]) * inv, 0.0), 1.0)
                out[i, c] += abs(ds[j]) * r * (w1[j] + 0.5 * dw[j] * r) + whole
    return out


def _profile_bounds(pa: np.ndarray, pb: np.ndarray) -> np.ndarray:
    """Lower bounds (8, n) of area(a ^ g b_i) from the profiles of a (2, S) and b (n, 2, S)."""
    rows = []
    for mapping in _MAPS:
        image = np.stack([pb[:, k, ::-1] if flip else pb[:, k] for k, flip in mapping], axis=1)
        rows.append(np.abs(pa[None] - image).sum(axis=2).max(axis=1))
    return np.array(rows)


class ShapeSet:
    """Normalised shapes with their profiles, for repeated "is anything like this?" queries:
    profiles bound each dissimilarity from below; exact overlaps are computed only where
    the bound is low."""

    def __init__(self, geoms: np.ndarray | list[BaseGeometry],
                 known: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """The set of ``geoms``; ``known``: their :func:`normalized` shapes and profiles,
        when already computed (as :func:`of_samples` passes them)."""
        if known is None:
            norm = normalized(geoms)
            known = (norm, _profiles_or_zero(norm))
        norm, prof = known
        full = shapely.area(norm) > 0.0
        self.shapes, self.profiles = norm[full], prof[full]

    @classmethod
    def of_samples(cls, samples: Iterable[Samples]) -> ShapeSet:
        """The set of all sections of ``samples``, from the normalised shapes and profiles
        that dense sampling computed."""
        samples = list(samples)
        return cls(np.concatenate([s.shapes for s in samples]),
                   (np.concatenate([s.normalized for s in samples]),
                    np.concatenate([s.profiles for s in samples])))

    def __len__(self) -> int:
        return len(self.shapes)

    def nearest(self, geom: BaseGeometry, need: float) -> float:
        """The smallest dissimilarity of ``geom`` to the set if it is below ``need``;
        otherwise some value >= ``need`` (a proof that nothing in the set is that close)."""
        (a,) = normalized([geom])
        if a.is_empty or len(self) == 0:
            return 2.0
        bound = _profile_bounds(profiles([a])[0], self.profiles)
        g, i = np.nonzero(bound < need)
        if len(g) == 0:
            return float(bound.min())
        # area(a ^ g b) = area(g^-1 a ^ b), and g^-1 is the transposed matrix
        images = symmetries(a, inverse=True)
        overlap = shapely.area(shapely.intersection(images[g], self.shapes[i]))
        exact = bound.copy()
        exact[g, i] = 2.0 - 2.0 * overlap
        return float(max(exact.min(), 0.0))


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


def _profiles_or_zero(norm: np.ndarray) -> np.ndarray:
    """:func:`profiles` of the shapes with area; zeros for the empty ones."""
    out = np.zeros((len(norm), len(_DIRS), len(_CUTS) + 1))
    full = shapely.area(norm) > 0.0
    if full.any():
        out[full] = profiles(norm[full])
    return out


def _steps(norm: np.ndarray, prof: np.ndarray, first: np.ndarray) -> np.ndarray:
    """For each i in ``first``, how far normalised shape i + 1 is from shape i, as dense
    sampling needs it: area(norm_i ^ norm_i+1) (aligned), or, where their profiles already
    prove that area at least ``DENSE_STEP``, that lower bound (no overlay computed)."""
    a, b = norm[first], norm[first + 1]
    bound = np.abs(prof[first] - prof[first + 1]).sum(axis=2).max(axis=1)
    full = (shapely.area(a) > 0.0) & (shapely.area(b) > 0.0)
    sure = full & (bound >= DENSE_STEP + 1e-9)  # the margin covers rounding in the bound
    out = np.where(sure, bound, 0.0)
    rest = ~sure
    out[rest] = _aligned(a[rest], b[rest])
    return out


class Samples(NamedTuple):
    """Sections of a plane family at sorted offsets; ``steps[i]`` is how far sections i
    and i + 1 are apart: below ``DENSE_STEP``, their aligned difference (an upper bound of
    their dissimilarity); otherwise some value of at least ``DENSE_STEP``.  ``normalized``
    and ``profiles``: :func:`normalized` of the shapes and their profiles (zeros for
    empty ones)."""

    offsets: np.ndarray
    shapes: np.ndarray
    steps: np.ndarray
    normalized: np.ndarray
    profiles: np.ndarray


def dense_samples(
    section_at: Callable[[np.ndarray], np.ndarray],
    lo: float,
    hi: float,
    count: int = 100,
    min_gap: float = 1e-3,
) -> Samples:
    """Sections of a plane family over its range ``(lo, hi)``.

    ``section_at(offsets)`` returns the sections at ``offsets``.  Starts from ``count``
    evenly spaced offsets plus two within ``min_gap`` of the ends, then bisects every gap
    whose two sections differ by ``DENSE_STEP`` or more (aligned, without symmetries: an
    upper bound), until gaps are narrower than ``min_gap`` times the range: true jumps
    (an XY plane passing from one solid to the next) stay jumps, and the sections skipped
    at the very ends are slivers.
    """
    width = hi - lo
    ends: list[npt.ArrayLike] = [[min_gap], (np.arange(count) + 0.5) / count, [1.0 - min_gap]]
    offsets = lo + width * np.concatenate(ends)
    shapes = section_at(offsets)
    norm = normalized(shapes)
    prof = _profiles_or_zero(norm)
    steps = _steps(norm, prof, np.arange(len(norm) - 1))
    while True:
        split = (steps >= DENSE_STEP) & (np.diff(offsets) > min_gap * width)
        if not split.any():
            return Samples(offsets, shapes, steps, norm, prof)
        at = np.flatnonzero(split)
        mids = (offsets[at] + offsets[at + 1]) / 2.0
        new = section_at(mids)
        new_norm = normalized(new)
        # the sorted order after inserting mid k right after sample at[k]
        offsets = np.insert(offsets, at + 1, mids)
        shapes = np.insert(shapes, at + 1, new)
        norm = np.insert(norm, at + 1, new_norm)
        prof = np.insert(prof, at + 1, _profiles_or_zero(new_norm), axis=0)
        steps = np.insert(steps, at + 1, 0.0)
        changed = np.concatenate([at + np.arange(len(at)), at + np.arange(len(at)) + 1])
        steps[changed] = _steps(norm, prof, changed)


def to_text(geom: BaseGeometry) -> str:
    """WKT with 5 decimals (sections are a few units wide), as stored in records."""
    text: str = shapely.to_wkt(geom, rounding_precision=5, trim=True)
    return text


def from_text(text: str) -> BaseGeometry:
    return shapely.from_wkt(text)
