"""Convex pieces (spatialcad.geometry.convex_pieces) against shapely: no FreeCAD needed."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from shapely import affinity

from spatialcad.geometry import convex_pieces as cp

EMPTY = shapely.Polygon()


def random_convex(rng: np.random.Generator) -> shapely.Geometry:
    """A random convex polygon: sometimes on a coarse grid (vertical and horizontal edges,
    collinear vertices), sometimes clockwise, sometimes a 128-gon ellipse."""
    if rng.random() < 0.2:
        t = np.linspace(0.0, 2.0 * np.pi, 128, endpoint=False)
        g = shapely.Polygon(np.c_[np.cos(t), rng.uniform(0.3, 1.0) * np.sin(t)])
    else:
        points = rng.normal(size=(int(rng.integers(3, 14)), 2)) * rng.uniform(0.2, 2.0, size=2)
        if rng.random() < 0.4:
            points = np.round(points, 1)
        g = shapely.MultiPoint(points).convex_hull
    if g.area == 0.0:
        return EMPTY
    if rng.random() < 0.3:
        g = shapely.Polygon(list(g.exterior.coords)[::-1])
    return affinity.translate(g, *rng.normal(scale=0.5, size=2))


def random_sections(rng: np.random.Generator, count: int, width: int) -> np.ndarray:
    rows = [[random_convex(rng) if rng.random() < 0.8 else EMPTY for _ in range(width)]
            for _ in range(count)]
    return np.array(rows, dtype=object)


def test_overlaps_are_the_sums_of_pairwise_intersection_areas() -> None:
    rng = np.random.default_rng(5)
    sections = random_sections(rng, 120, 3)
    pieces = cp.pieces_of(sections)
    ia, ib = rng.integers(0, 120, 600), rng.integers(0, 120, 600)
    ib[:60] = ia[:60]  # a section with itself: every edge shared
    got = cp.overlaps(pieces, ia, pieces, ib)
    want = [sum(shapely.intersection(a, b).area for a in sections[i] for b in sections[j])
            for i, j in zip(ia, ib, strict=True)]
    assert np.allclose(got, want, rtol=0.0, atol=1e-12)


@pytest.mark.parametrize(("a", "b", "area"), [
    (shapely.box(0, 0, 1, 1), shapely.box(1, 0, 2, 1), 0.0),  # sharing an edge
    (shapely.box(0, 0, 1, 1), shapely.box(1, 1, 2, 2), 0.0),  # sharing a corner
    (shapely.box(0, 0, 1, 1), shapely.box(0, 0.5, 1, 2), 0.5),  # same vertical sides
    (shapely.box(0, 0, 4, 4), shapely.box(1, 1, 2, 2), 1.0),  # one inside the other
    (shapely.box(0, 0, 1, 1), shapely.box(3, 0, 4, 1), 0.0),  # apart
    (shapely.box(0, 0, 2, 1), shapely.box(0, 3, 2, 4), 0.0),  # apart above each other
    (shapely.Polygon([(0, 0), (2, 0), (1, 2)]), shapely.Polygon([(0, 2), (2, 2), (1, 0)]), 1.0),
])
def test_overlap_of_touching_nested_and_apart_pieces(a: shapely.Geometry, b: shapely.Geometry,
                                                     area: float) -> None:
    pieces = cp.pieces_of(np.array([[a], [b]], dtype=object))
    assert cp.overlaps(pieces, [0, 1], pieces, [1, 0]) == pytest.approx([area, area], abs=1e-12)
    assert area == pytest.approx(shapely.intersection(a, b).area, abs=1e-12)


def test_areas_centroids_and_normalised_pieces() -> None:
    rng = np.random.default_rng(8)
    sections = random_sections(rng, 60, 1)
    pieces = cp.pieces_of(sections)
    area, centroid = cp.areas_and_centroids(pieces)
    assert np.allclose(area, shapely.area(sections[:, 0]), rtol=0.0, atol=1e-12)
    full = area > 0.0
    assert np.allclose(centroid[full], shapely.get_coordinates(shapely.centroid(
        sections[full, 0])), rtol=0.0, atol=1e-12)
    got = cp.described(pieces)
    assert np.array_equal(got.area, area) and np.array_equal(got.centroid, centroid)
    assert np.array_equal(got.shared, np.zeros(len(area)))  # one piece a section
    unit_area, unit_centroid = cp.areas_and_centroids(got.unit)
    assert np.allclose(unit_area[full], 1.0) and np.allclose(unit_centroid, 0.0, atol=1e-12)


def test_self_overlaps_and_normalised_pieces_of_sections_of_several_pieces() -> None:
    """A section's self-overlap is the sum of its piece pairs' intersection areas (pairs
    whose boxes only touch or are apart are skipped: they add 0), also for stacked pieces
    meeting along a joint; ``normalised`` gives ``described``'s unit pieces to the bit."""
    rng = np.random.default_rng(12)
    sections = random_sections(rng, 60, 3)
    joint = [shapely.box(0.0, 1.0, 2.0, 2.0), shapely.box(0.5, 0.0, 1.5, 1.0), EMPTY]
    sections = np.concatenate([sections, np.array([joint], dtype=object)])
    pieces = cp.pieces_of(sections)
    got = cp.described(pieces)
    want = [sum(shapely.intersection(row[k], row[m]).area
                for k in range(3) for m in range(k + 1, 3)) for row in sections]
    assert np.allclose(got.shared, want, rtol=0.0, atol=1e-12)
    assert got.shared[-1] == 0.0
    again = cp.normalised(pieces, got.area, got.centroid)
    assert np.array_equal(again.counts, got.unit.counts)
    assert np.array_equal(again.coords, got.unit.coords)
    assert np.array_equal(np.signbit(again.coords), np.signbit(got.unit.coords))


def test_pieces_are_counter_clockwise_hulls_of_the_polygons() -> None:
    square_cw = shapely.Polygon([(0, 0), (0, 1), (1, 1), (1, 0)])
    line = shapely.LineString([(0, 0), (1, 1)])
    two = shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(2, 0, 3, 1)])
    with_line = shapely.GeometryCollection([shapely.box(0, 0, 1, 2), line])
    pieces = cp.pieces_of(np.array([[square_cw, line], [EMPTY, two], [with_line, EMPTY]],
                                   dtype=object))
    assert pieces.counts.tolist() == [[4, 0], [0, 4], [4, 0]]
    area, _ = cp.areas_and_centroids(pieces)
    assert area.tolist() == [1.0, 3.0, 2.0]
    assert np.array_equal(pieces.coords[0, 0, :4], [[0, 0], [1, 0], [1, 1], [0, 1]])


def test_hulls_of_points_taken_by_rows_are_the_hulls_of_the_points() -> None:
    """``by_rows`` hulls (chords' ends taken upward, no sorting) are the same polygons as the
    sorted ones, also for groups not in row order (which fall back to sorting) and for
    groups whose points all lie on one row (no piece)."""
    rng = np.random.default_rng(3)
    xy, group = [], []
    for g in range(60):
        rows = np.sort(rng.uniform(-1.0, 1.0, size=int(rng.integers(2, 40))))
        if g % 10 == 0:
            rows[:] = rows[0]  # every chord on one line
        half = rng.uniform(0.1, 1.0) * np.sqrt(np.clip(1.0 - rows**2, 0.0, None))
        if g % 3 == 0:
            half = np.round(half + 0.2, 1)  # straight sides: collinear ends
        ends = np.stack([np.c_[-half + 0.3, rows], np.c_[half + 0.3, rows]], axis=1)
        ends = ends.reshape(-1, 2)
        if g % 7 == 0:
            ends = ends[rng.permutation(len(ends))]  # not in row order
        xy.append(ends)
        group.append(np.full(len(ends), g))
    xy, group = np.concatenate(xy), np.concatenate(group)
    bounds = np.searchsorted(group, np.arange(61))
    fast = cp.grouped_hulls(xy, bounds, (20, 3), by_rows=True)
    sorted_ = cp.hulls(xy, group, (20, 3))
    assert np.array_equal(fast.counts, sorted_.counts)
    assert (fast.counts.ravel()[::10] == 0).all() and (fast.counts > 0).sum() > 40
    for a, b in zip(cp.polygons(fast).ravel(), cp.polygons(sorted_).ravel(), strict=True):
        assert a.equals(b) and (a.is_empty or a.exterior.is_ccw)


def test_gathering_rows_of_several_parts_pads_to_the_widest() -> None:
    rng = np.random.default_rng(2)
    small = cp.pieces_of(np.array([[shapely.box(0, 0, 1, 1)]] * 3, dtype=object))
    wide = cp.pieces_of(random_sections(rng, 2, 2))
    index = np.array([4, 0, 3, 2])
    got = cp.gathered([small, wide], index)
    k, m = 2, max(small.coords.shape[2], wide.coords.shape[2])
    assert got.coords.shape == (4, k, m, 2) and got.counts.shape == (4, k)
    for row, (part, local) in enumerate([(wide, 1), (small, 0), (wide, 0), (small, 2)]):
        pk, pm = part.coords.shape[1:3]
        assert np.array_equal(got.coords[row, :pk, :pm], part.coords[local])
        assert not got.coords[row, pk:].any() and not got.coords[row, :, pm:].any()
        assert np.array_equal(got.counts[row, :pk], part.counts[local])
        assert not got.counts[row, pk:].any()


def test_a_piece_store_reads_back_what_gathering_the_batches_gives() -> None:
    """Batches of sections appended to a store (growing, and widening when a batch has
    more pieces or more vertices) read back as :func:`gathered` reads the batches."""
    rng = np.random.default_rng(4)
    store, batches = cp.PieceStore(), []
    for size, width in ((3, 1), (5, 2), (1, 3), (9, 2), (2, 1)):
        batches.append(cp.pieces_of(random_sections(rng, size, width)))
        store.add(batches[-1])
        index = rng.permutation(store.size)[: max(1, store.size // 2)]
        got, want = store.rows(index), cp.gathered(batches, index)
        assert np.array_equal(got.coords, want.coords)
        assert np.array_equal(got.counts, want.counts)


def stacked_section(rng: np.random.Generator, width: int) -> list[shapely.Geometry]:
    """The pieces of a random section of a stack, top to bottom, on a grid of halves (so
    that GEOS unites exactly): each a trapezoid between two joint lines, its ends apart
    from, touching (at a point or along an edge) or overlapping the next piece's; some
    missing."""
    joints = np.cumsum(rng.integers(1, 4, size=width + 1))[::-1].astype(float)
    out = []
    for k in range(width):
        if rng.random() < 0.15:
            out.append(EMPTY)
            continue
        lo, hi = joints[k + 1], joints[k]
        if rng.random() < 0.15:  # a piece reaching into the next one's band (overlap)
            lo -= 0.5
        elif rng.random() < 0.2:  # a piece short of its band's bottom (apart)
            lo += 0.5
        top = np.sort(rng.integers(-6, 7, size=2) / 2.0)
        bottom = np.sort(rng.integers(-6, 7, size=2) / 2.0)
        out.append(shapely.MultiPoint([(top[0], hi), (top[1], hi), (bottom[0], lo),
                                       (bottom[1], lo)]).convex_hull)
    return out


def test_part_areas_are_those_of_the_unions_connected_parts() -> None:
    rng = np.random.default_rng(11)
    rows = [stacked_section(rng, 4) for _ in range(300)]
    areas = cp.part_areas(cp.pieces_of(np.array(rows, dtype=object)))
    kinds = set()
    for row, got in zip(rows, areas, strict=True):
        union = shapely.union_all([g for g in row if g.area > 0.0])
        want = sorted(shapely.area(shapely.get_parts(union))) if union.area > 0.0 else []
        assert sorted(got[got > 0.0]) == pytest.approx(want, abs=1e-12)
        kinds.add(len(want))
    assert {1, 2, 3} <= kinds  # connected, split and split in three all came up


def test_part_areas_join_pieces_on_a_joint_tilted_by_round_off() -> None:
    turn = np.radians(30.0)
    m = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    above = np.array([[-1.0, 0.0], [1.0, 0.0], [1.0, 1.0], [-1.0, 1.0]]) @ m @ m.T
    below = np.array([[-0.5, -1.0], [0.5, -1.0], [0.5, 0.0], [-0.5, 0.0]]) @ m @ m.T
    sections = np.array([[shapely.Polygon(above), shapely.Polygon(below)]], dtype=object)
    areas = cp.part_areas(cp.pieces_of(sections))
    assert areas[0, 0] == pytest.approx(3.0) and areas[0, 1] == 0.0


def test_widths_are_the_least_extents_over_many_directions() -> None:
    """A convex piece's width (its least extent across an edge's normal) against a brute
    force over 20 000 directions (never above it; below by no more than the directions'
    spacing allows), and exact for rectangles; no piece: 0."""
    rng = np.random.default_rng(11)
    sections = random_sections(rng, 30, 3)
    got = cp.widths(cp.pieces_of(sections))
    angles = np.linspace(0.0, np.pi, 20_000, endpoint=False)
    directions = np.c_[np.cos(angles), np.sin(angles)]
    for (s, k), g in np.ndenumerate(sections):
        if g.is_empty:
            assert got[s, k] == 0.0
            continue
        spans = shapely.get_coordinates(g) @ directions.T
        brute = float((spans.max(axis=0) - spans.min(axis=0)).min())
        spacing = np.pi / len(angles) * float(np.ptp(spans, axis=0).max())
        assert brute - spacing <= got[s, k] <= brute + 1e-12
    box = np.array([[shapely.box(0.0, 0.0, 3.0, 0.5), shapely.box(-1.0, 2.0, 1.5, 4.5)]],
                   dtype=object)
    assert np.allclose(cp.widths(cp.pieces_of(box)), [[0.5, 2.5]], rtol=0.0, atol=1e-12)


def test_points_sort_by_x_then_y_as_two_stable_sorts() -> None:
    """The hulls' sort (no allocation) orders points as a stable sort by y and then a stable
    sort by x do, ties (equal points, 0.0 and -0.0) kept in their given order, so the hulls
    take their points in the same order."""
    rng = np.random.default_rng(6)
    for size in (0, 1, 2, 15, 16, 17, 33, 100, 257):
        for _ in range(20):
            points = rng.integers(-2, 3, size=(size, 2)) * rng.choice([-0.0, 0.5, 1.0])
            points += (rng.random(points.shape) < 0.3) * rng.normal(0.0, 1.0, points.shape)
            by_y = np.argsort(points[:, 1], kind="mergesort")
            expected = by_y[np.argsort(points[by_y, 0], kind="mergesort")]
            order = np.empty(size, dtype=np.int64)
            cp._sort_by_x_then_y(points, order, np.empty(size, dtype=np.int64))
            assert order.tolist() == expected.tolist()
