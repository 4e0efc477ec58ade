"""Scale-free section comparison (spatialcad.geometry.section_shape): no FreeCAD needed."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from shapely import affinity

from spatialcad.geometry import convex_pieces as cp
from spatialcad.geometry import section_shape as ss

L_SHAPE = shapely.Polygon([(0, 0), (3, 0), (3, 1), (1, 1), (1, 2), (0, 2)])
TRIANGLE = shapely.Polygon([(0, 0), (2, 0), (0.5, 1.5)])
TRAPEZOID = shapely.Polygon([(0, 0), (2, 0), (1.4, 1.5), (0.6, 1.5)])
SQUARE = shapely.box(0, 0, 1, 1)
CIRCLE = shapely.Point(0, 0).buffer(1.0, 64)
HOLED = shapely.Polygon([(0, 0), (4, 0), (4, 3), (0, 3)], [[(1, 1), (2, 1), (1, 2)]])
TWO = shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(2, 0, 2.5, 3)])


@pytest.mark.parametrize("g", [L_SHAPE, TRIANGLE, HOLED, TWO], ids=["L", "tri", "holed", "two"])
def test_same_shape_moved_scaled_turned_or_mirrored_is_similar(g: shapely.Geometry) -> None:
    for image in (
        affinity.translate(affinity.scale(g, 3.0, 3.0), 5.0, -2.0),
        affinity.rotate(g, 90.0),
        affinity.rotate(g, 180.0),
        affinity.scale(g, -1.0, 1.0),
        affinity.rotate(affinity.scale(g, 1.0, -1.0), 270.0),
    ):
        assert ss.dissimilarity(g, image) < 1e-9


def test_different_shapes_are_dissimilar() -> None:
    assert ss.dissimilarity(CIRCLE, SQUARE) > 2 * ss.SIMILAR_BELOW
    assert ss.dissimilarity(TRIANGLE, TRAPEZOID) > 2 * ss.SIMILAR_BELOW
    assert ss.dissimilarity(L_SHAPE, affinity.rotate(L_SHAPE, 45.0)) > 2 * ss.SIMILAR_BELOW
    # a whole that is not a union of similar parts: two squares apart vs a long box
    assert ss.dissimilarity(TWO, shapely.box(0, 0, 4, 1)) > 1.0
    assert ss.dissimilarity(SQUARE, shapely.Polygon()) == 2.0
    # 8.5% longer: the threshold is a visible change
    assert ss.dissimilarity(SQUARE, shapely.box(0, 0, 1.085, 1)) == pytest.approx(0.08, abs=2e-3)


def test_text_round_trip() -> None:
    back = ss.from_text(ss.to_text(HOLED))
    assert back.equals(HOLED) and "." not in ss.to_text(SQUARE).split("(")[-1]
    # round-off next to 0 (FreeCAD's section points) is stored as 0, never as 1e-16 or -0
    noisy = shapely.Polygon([(-5.551115e-17, 0.0), (1.0, -2.2e-16), (0.4999999999, 0.866025404)])
    assert ss.to_text(noisy) == "POLYGON ((0 0, 1 0, 0.5 0.86603, 0 0))"


def random_shapes(rng: np.random.Generator, count: int) -> list[shapely.Geometry]:
    out = []
    for _ in range(count):
        hull = shapely.MultiPoint(rng.normal(size=(8, 2)) * [1.0, rng.uniform(0.3, 1.5)])
        g = hull.convex_hull
        if rng.random() < 0.4:
            g = g.union(affinity.translate(shapely.box(0, 0, 0.6, 0.4), *rng.normal(size=2)))
        out.append(g)
    return out


def test_profiles_are_the_areas_of_the_slabs() -> None:
    """Each profile entry is the shape's area between two consecutive cuts across its
    direction (the outer slabs unbounded), as clipping by a box gives it."""
    rng = np.random.default_rng(11)
    shapes = ss.normalized(random_shapes(rng, 8) + [HOLED, TWO])
    profiles = ss.profiles(shapes)
    ends = np.r_[-1e3, ss._CUTS, 1e3]
    for shape, profile in zip(shapes, profiles, strict=True):
        for d in range(2):
            for c in range(len(ends) - 1):
                lo, hi = ends[c], ends[c + 1]
                slab = shapely.box(lo, -1e3, hi, 1e3) if d == 0 else shapely.box(-1e3, lo, 1e3, hi)
                assert profile[d, c] == pytest.approx(
                    shapely.area(shapely.intersection(shape, slab)), abs=1e-9)


def test_described_profiles_describe_the_pieces_and_profile_their_unions() -> None:
    """described_profiles gives convex_pieces.described's area, centroid and self-overlap
    to the bit, and the profiles of each section's normalised union (zeros for an empty
    one), worked out one section at a time without making the normalised pieces."""
    rng = np.random.default_rng(4)
    rows = []
    for s in range(30):  # two or three convex pieces stacked along y, sometimes one missing
        pieces = []
        for k in range(3):
            n = int(rng.integers(3, 12))
            angles = np.sort(rng.uniform(0.0, 2.0 * np.pi, n))
            ring = np.c_[rng.uniform(0.3, 1.0) * np.cos(angles) + rng.uniform(-0.2, 0.2),
                         rng.uniform(0.1, 0.4) * np.sin(angles) + 1.0 * k]
            pieces.append(shapely.Polygon(ring).convex_hull if (s + k) % 7 else shapely.Polygon())
        rows.append(pieces)
    rows.append([shapely.Polygon()] * 3)
    pieces = cp.pieces_of(np.array(rows, dtype=object))
    area, centroid, shared, profiles = ss.described_profiles(pieces)
    expected = cp.described(pieces)
    for got, want in zip((area, centroid, shared), expected[:3], strict=True):
        assert np.array_equal(got.view(np.uint64), want.view(np.uint64))
    unions = ss.unions(cp.polygons(pieces))
    assert np.allclose(profiles, ss._profiles_or_zero(ss.normalized(unions)), atol=1e-12)
    assert not profiles[-1].any()


def test_profile_bounds_never_exceed_the_exact_dissimilarity() -> None:
    rng = np.random.default_rng(7)
    shapes = ss.normalized(random_shapes(rng, 12) + [HOLED, TWO])
    profiles = ss.profiles(shapes)
    for i, a in enumerate(shapes):
        bound = ss._profile_bounds(profiles[i], profiles)
        exact = np.array([[shapely.area(shapely.symmetric_difference(a, img)) for img in
                           ss.symmetries(b)] for b in shapes]).T
        assert np.all(bound <= exact + 1e-9)
        assert bound.mean() > 0.5 * exact.mean()  # and they are useful
        coarse = ss._profile_bounds(ss._coarse(profiles[i]), ss._coarse(profiles))
        assert np.all(coarse <= bound + 1e-12) and coarse.mean() > 0.5 * bound.mean()


def test_shape_set_nearest_is_the_brute_force_minimum() -> None:
    rng = np.random.default_rng(3)
    pool = random_shapes(rng, 40)
    index = ss.ShapeSet.of_shapes(pool)
    for probe in random_shapes(rng, 6) + [pool[5], affinity.rotate(pool[9], 90.0)]:
        truth = ss.dissimilarities(probe, pool).min()
        for need in (0.1, 0.3, 0.6):
            got = index.nearest(probe, need)
            assert got == pytest.approx(truth, abs=1e-9) if truth < need else got >= need


def test_shape_set_bounds_are_the_fine_ones_wherever_they_are_below_need() -> None:
    """Coarse profiles only rule shapes out: every bound below ``need`` is the fine bound,
    and no fine bound below ``need`` is missed."""
    rng = np.random.default_rng(8)
    index = ss.ShapeSet.of_shapes(random_shapes(rng, 60))
    for probe in ss.normalized(random_shapes(rng, 8)):
        fine = ss._profile_bounds(ss.profiles([probe])[0], index.profiles)
        for need in (0.1, 0.3, 0.6):
            got = index._bounds(ss.profiles([probe])[0], need)
            low = fine < need
            assert np.array_equal(got[low], fine[low]) and np.all(got[~low] >= need)
            assert np.all(got <= fine + 1e-12)  # rounding of the merged slabs


def test_dense_samples_refine_until_neighbours_are_close() -> None:
    def section_at(offsets: np.ndarray) -> np.ndarray:
        # a family with smooth stretches, fast change near 0.3 and a jump at 0.7
        out = []
        for d in offsets:
            width = 1.0 + 3.0 / (1.0 + np.exp(-(d - 0.3) * 50.0))
            g = shapely.box(0, 0, width, 1) if d < 0.7 else TRIANGLE
            out.append([g])
        return cp.pieces_of(np.array(out, dtype=object))

    samples = ss.dense_samples(section_at, 0.0, 1.0, count=20)
    assert np.all(np.diff(samples.offsets) > 0)
    exact = ss.aligned_differences(samples.shapes[:-1], samples.shapes[1:])
    wide = samples.steps >= ss.DENSE_STEP
    # below DENSE_STEP a step is the aligned difference; at or above it, so is that
    assert np.allclose(samples.steps[~wide], exact[~wide])
    assert np.all(exact[wide] >= ss.DENSE_STEP)
    assert wide.sum() == 1  # only the jump stays, bracketed within 1e-3
    assert np.diff(samples.offsets)[wide][0] <= 1e-3
    assert samples.offsets[np.flatnonzero(wide)[0]] == pytest.approx(0.7, abs=1e-3)


def test_shape_set_of_samples_is_the_shape_set_of_their_sections() -> None:
    """Dense sampling's profiles (from the normalised convex pieces) build the same set as
    the sections themselves (the empty ones left out)."""
    def section_at(offsets: np.ndarray) -> cp.Pieces:
        return cp.pieces_of(np.array([[shapely.box(0, 0, 1.0 + 2.0 * d, 1) if d < 0.9
                                       else shapely.Polygon()] for d in offsets], dtype=object))

    families = [ss.dense_samples(section_at, 0.0, 1.0, count=30),
                ss.dense_samples(lambda d: cp.pieces_of(np.full((len(d), 1), TRIANGLE,
                                                                dtype=object)), 0, 1)]
    quick = ss.ShapeSet.of_samples(families)
    plain = ss.ShapeSet.of_shapes(np.concatenate([s.shapes for s in families]))
    assert len(quick) == len(plain) < sum(len(s.offsets) for s in families)
    assert np.allclose(quick.profiles, plain.profiles, rtol=0.0, atol=1e-12)
    every = np.arange(len(quick))
    assert all(a.equals(b) for a, b in zip(quick.shapes(every), plain.shapes(every),
                                           strict=True))
    for probe in (TRAPEZOID, SQUARE, shapely.box(0, 0, 2.5, 1)):
        assert quick.nearest(probe, 0.5) == pytest.approx(plain.nearest(probe, 0.5), abs=1e-12)


def test_stacked_pieces_are_compared_as_their_union() -> None:
    """Dense sampling of two stacked convex pieces (a square on a trapezoid, sliding apart)
    gives the steps and profiles of the unions; at the offsets where the pieces overlap (a
    plane exactly at a joint), it falls back to comparing the unions themselves."""
    def matrix(offsets: np.ndarray) -> np.ndarray:
        rows = []
        for d in offsets:
            top = affinity.translate(SQUARE, 0.4 + d, 1.5 if d < 0.5 else 1.2)
            rows.append([top, TRAPEZOID, shapely.Polygon()])
        return np.array(rows, dtype=object)

    samples = ss.dense_samples(lambda d: cp.pieces_of(matrix(d)), 0.0, 1.0, count=30)
    unions = ss.unions(matrix(samples.offsets))
    assert all(a.equals(b) for a, b in zip(samples.shapes, unions, strict=True))
    assert np.array_equal(samples.disjoint, samples.offsets < 0.5)
    normal = ss.normalized(samples.shapes)
    assert np.allclose(samples.profiles, ss.profiles(normal), rtol=0.0, atol=1e-12)
    exact = ss.aligned_differences(samples.shapes[:-1], samples.shapes[1:])
    calm = samples.steps < ss.DENSE_STEP
    assert calm.sum() > 20
    assert np.allclose(samples.steps[calm], exact[calm], rtol=0.0, atol=1e-12)


def test_nearest_from_pieces_is_nearest_from_shapes() -> None:
    """A query given with its convex pieces (cut into bands) finds the same nearest
    dissimilarity as the GEOS overlays of the whole shapes."""
    def section_at(offsets: np.ndarray) -> cp.Pieces:
        rows = [[affinity.scale(TRAPEZOID, 1.0 + d, 1.0, origin=(0, 0)),
                 affinity.translate(shapely.box(0, 0, 1.0, 0.5 + d), 0.3, 1.5)]
                for d in offsets]
        return cp.pieces_of(np.array(rows, dtype=object))

    samples = ss.dense_samples(section_at, 0.0, 1.0, count=30)
    index = ss.ShapeSet.of_samples([samples])
    rng = np.random.default_rng(4)
    for d in rng.uniform(-0.3, 1.3, size=12):
        query = ss.unions(np.array([[affinity.scale(TRAPEZOID, 1.0 + d, 1.0, origin=(0, 0)),
                                     affinity.translate(shapely.box(0, 0, 1.1, 0.6 + d), 0.2,
                                                        1.5)]], dtype=object))[0]
        query = affinity.rotate(query, 90.0 * int(rng.integers(4)))
        pieces = cp.banded(query, np.array([1.5])) if query.bounds[3] > 2.0 else None
        for need in (0.05, 0.2, 0.6):
            plain = index.nearest(query, need)
            quick = index.nearest(query, need, pieces)
            assert quick == pytest.approx(plain, abs=1e-9) if plain < need else quick >= need


def test_banded_refuses_a_concave_band() -> None:
    ell = L_SHAPE  # its lower band (y < 1) is a rectangle, the whole is not convex
    assert cp.banded(ell, np.array([1.0])) is not None
    assert cp.banded(ell, np.array([0.5])) is None


def test_dissimilarity_from_pieces_is_the_dissimilarity_of_the_shapes() -> None:
    """Two-piece sections (a box on a trapezoid), one of them turned or mirrored: the
    dissimilarity from their convex pieces is the one GEOS overlays give; without the
    pieces of both, GEOS is used."""
    rng = np.random.default_rng(6)
    for _ in range(20):
        rows = []
        for _ in range(2):
            sx, sy = rng.uniform(0.5, 2.0, size=2)
            rows.append([affinity.scale(TRAPEZOID, sx, sy, origin=(0, 0)),
                         affinity.translate(shapely.box(0, 0, *rng.uniform(0.3, 2.0, size=2)),
                                            rng.uniform(-0.5, 0.5), 1.5 * sy)])
        turn = (90.0 * int(rng.integers(4)), -1.0 if rng.random() < 0.5 else 1.0)
        rows[1] = [affinity.scale(affinity.rotate(g, turn[0], origin=(0, 0)), turn[1], 1.0,
                                  origin=(0, 0)) for g in rows[1]]
        (pa, a), (pb, b) = ((cp.pieces_of(np.array([r], dtype=object)),
                             ss.unions(np.array([r], dtype=object))[0]) for r in rows)
        plain = ss.dissimilarity(a, b)
        assert ss.dissimilarity(a, b, (pa, pb)) == pytest.approx(plain, abs=1e-9)
        assert ss.dissimilarity(b, a, (pb, pa)) == pytest.approx(plain, abs=1e-9)
        assert ss.dissimilarity(a, b, (pa, None)) == plain


def test_profile_bounds_are_numpys_to_the_bit() -> None:
    """The compiled bounds add up as numpy does: equal to the plain numpy expression."""
    rng = np.random.default_rng(6)
    for n in (1, 7, 300):
        pa = rng.random((2, len(ss._CUTS) + 1)) ** 3
        pb = rng.random((n, 2, len(ss._CUTS) + 1)) ** 3 * 10.0 ** rng.integers(-6, 2, (n, 1, 1))
        want = np.array([np.abs(pa[None] - np.stack(
            [pb[:, k, ::-1] if flip else pb[:, k] for k, flip in mapping], axis=1))
            .sum(axis=2).max(axis=1) for mapping in ss._MAPS])
        assert np.array_equal(ss._profile_bounds(pa, pb), want)


def test_mapped_pieces_are_numpys_matrix_products_to_the_bit() -> None:
    """Symmetries applied by compiled code give numpy's ``unit @ m`` (zeros' signs too),
    mirrors walked back to counter-clockwise."""
    rng = np.random.default_rng(9)
    unit = np.round(rng.normal(size=(3, 6, 2)), 1)  # zeros of both signs, padding too
    unit[0, 0] = [0.0, -0.0]
    counts = np.array([6, 4, 0])
    images = ss._mapped_pieces(unit, counts, np.array(ss._D4))
    for m, image in zip(ss._D4, images, strict=True):
        want = unit @ m
        if np.linalg.det(m) < 0:
            for k, n in enumerate(counts):
                want[k, :n] = want[k, :n][::-1]
        assert np.array_equal(image, want) and np.array_equal(np.signbit(image),
                                                                np.signbit(want))


def test_dense_samplings_step_bounds_are_numpys_to_the_bit() -> None:
    """Neighbouring samples' steps from profiles: numpy's sums where they prove a step, 2
    or 0 where a sample is empty, the rest left to overlaps (quick: pieces apart)."""
    rng = np.random.default_rng(7)
    prof = rng.random((40, 2, len(ss._CUTS) + 1)) ** 3 * 10.0 ** rng.integers(-6, 2, (40, 1, 1))
    prof[::9] = 0.0
    has, disjoint = ss._has_area(prof), rng.random(40) < 0.8
    a, b = rng.integers(0, 40, 300), rng.integers(0, 40, 300)
    out, quick, slow = ss._step_bounds(prof, has, disjoint, a, b, 0.05)
    bound = np.abs(prof[a] - prof[b]).sum(axis=2).max(axis=1)
    both = has[a] & has[b]
    sure = both & (bound >= 0.05)
    assert np.array_equal(out[sure], bound[sure])
    assert np.array_equal(out[~both], np.where(has[a] | has[b], 2.0, 0.0)[~both])
    apart = disjoint[a] & disjoint[b]
    assert quick.tolist() == np.flatnonzero(both & ~sure & apart).tolist()
    assert slow.tolist() == np.flatnonzero(both & ~sure & ~apart).tolist()
    assert len(quick) and len(slow) and sure.any() and (~both).any()


def test_close_pairs_are_those_every_dissimilarity_finds() -> None:
    rng = np.random.default_rng(4)
    shapes = [L_SHAPE, TRIANGLE, TRAPEZOID, SQUARE, CIRCLE, HOLED, TWO, shapely.Polygon()]
    shapes += [affinity.scale(affinity.rotate(g, 90.0 * int(rng.integers(4))),
                              float(rng.uniform(0.9, 1.15)), float(rng.uniform(0.9, 1.15)))
               for g in shapes[:7]]  # turned copies, stretched a little or a lot
    for need in (ss.SIMILAR_BELOW, ss.OPTIONS_APART, 0.5):
        want = [(j, i, ss.dissimilarity(shapes[i], shapes[j])) for i in range(len(shapes))
                for j in range(i)]
        want = [w for w in want if w[2] < need]
        got = ss.close_pairs(shapes, need)
        assert [(j, i) for j, i, _ in got] == [(j, i) for j, i, _ in want]
        assert [d for *_, d in got] == pytest.approx([d for *_, d in want], abs=1e-12)
        assert len(want) >= 4  # each copy with its shape, at least


def test_similar_is_a_dissimilarity_below_the_threshold() -> None:
    pairs = [(g, affinity.scale(affinity.rotate(g, turn), stretch, 1.0))
             for g in (L_SHAPE, TRIANGLE, HOLED, TWO) for turn in (0.0, 90.0)
             for stretch in (1.02, 1.2)]  # as they lie or turned; close or not
    verdicts = [ss.similar(a, b) for a, b in pairs]
    assert verdicts == [ss.dissimilarity(a, b) < ss.SIMILAR_BELOW for a, b in pairs]
    assert any(verdicts) and not all(verdicts)
