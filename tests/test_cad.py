"""FreeCAD-backed geometry: basic solids, stacks, sections, polyhedral sweeps, tessellation."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from spatialcad import freecad_env
from spatialcad.cad import section as cut
from spatialcad.cad import solids, sweep, tessellate
from spatialcad.geometry import convex_pieces
from spatialcad.geometry.section_shape import dissimilarity

freecad_env.load()  # FreeCAD is required (make test installs it): never skip these tests

TRI = math.sqrt(3.0) / 4.0  # area of the equilateral triangle of side 1


def frustum_volume(bottom_area: float, top_area: float, h: float) -> float:
    return h / 3.0 * (bottom_area + top_area + math.sqrt(bottom_area * top_area))


CASES = [
    (solids.solid("cuboid", width=1.2, depth=0.7, height=0.9), 1.2 * 0.7 * 0.9),
    (solids.solid("square_prism", side=1.1, height=0.8), 1.1**2 * 0.8),
    (solids.solid("triangular_prism", side=1.5, height=0.6), TRI * 1.5**2 * 0.6),
    (solids.solid("cylinder", radius=0.7, height=1.3), math.pi * 0.49 * 1.3),
    (solids.solid("square_pyramid", side=1.4, height=1.1), 1.4**2 * 1.1 / 3.0),
    (solids.solid("triangular_pyramid", side=1.6, height=0.9), TRI * 1.6**2 * 0.9 / 3.0),
    (solids.solid("cone", radius=0.8, height=1.2), math.pi * 0.64 * 1.2 / 3.0),
    (solids.solid("square_frustum", bottom_side=1.4, top_side=0.6, height=0.9),
     frustum_volume(1.96, 0.36, 0.9)),
    (solids.solid("triangular_frustum", bottom_side=1.8, top_side=0.9, height=0.7),
     frustum_volume(TRI * 3.24, TRI * 0.81, 0.7)),
    (solids.solid("circular_frustum", bottom_radius=0.9, top_radius=0.4, height=1.0),
     frustum_volume(math.pi * 0.81, math.pi * 0.16, 1.0)),
]


@pytest.mark.parametrize(("desc", "volume"), CASES, ids=[d["kind"] for d, _ in CASES])
def test_solid_is_valid_with_expected_volume(desc: dict, volume: float) -> None:
    shape = solids.make_solid(desc, z0=0.5)
    assert shape.ShapeType == "Solid" and shape.isValid()
    assert shape.Volume == pytest.approx(volume, rel=1e-9)
    box = shape.BoundBox
    assert (box.ZMin, box.ZMax) == pytest.approx((0.5, 0.5 + desc["params"]["height"]))
    assert (box.XMin + box.XMax) == pytest.approx(0.0, abs=1e-9)  # centred on the z axis


@pytest.mark.parametrize("kind", ["cuboid", "square_prism", "square_pyramid", "square_frustum"])
def test_rectangle_based_solids_have_the_outline_corners_to_the_bit(kind: str) -> None:
    """Made from OpenCASCADE's wedge turned upright: its corners are exactly the outline's,
    scaled by the top ratio at the top, and every face is planar."""
    desc = next(d for d, _ in CASES if d["kind"] == kind)
    fp = solids.footprint(desc)
    z0 = 0.37
    ring = solids.outline_points(fp)
    want = {(float(x), float(y), z0) for x, y in ring}
    want |= {(float(x) * fp.top_ratio, float(y) * fp.top_ratio, z0 + fp.height)
             for x, y in ring}
    shape = solids.make_solid(desc, z0)
    assert {(v.X, v.Y, v.Z) for v in shape.Vertexes} == want
    assert {type(f.Surface).__name__ for f in shape.Faces} == {"Plane"}


def test_every_kind_is_covered_and_rejects_bad_params() -> None:
    assert {d["kind"] for d, _ in CASES} == set(solids.KINDS)
    with pytest.raises(ValueError):
        solids.solid("cone", radius=1.0)
    with pytest.raises(ValueError):
        solids.solid("cylinder", radius=0.0, height=1.0)


def cone_on_cylinder() -> list[dict]:
    return [solids.solid("cone", radius=0.9, height=1.2), solids.solid("cylinder", radius=0.6,
                                                                        height=1.0)]


def test_composite_is_one_solid_stacked_top_to_bottom() -> None:
    descs = [*cone_on_cylinder(), solids.solid("cuboid", width=2.0, depth=1.5, height=0.5)]
    shape = solids.make_composite(descs)
    assert shape.ShapeType == "Solid" and shape.isValid()
    parts = [solids.make_solid(d).Volume for d in descs]
    assert shape.Volume == pytest.approx(sum(parts), rel=1e-9)
    assert solids.stack_bases(descs) == pytest.approx([1.5, 0.5, 0.0])
    assert shape.BoundBox.ZMax == pytest.approx(sum(d["params"]["height"] for d in descs))


def test_xy_section_inside_the_cone_is_a_circle_of_the_expected_radius() -> None:
    shape = solids.make_composite(cone_on_cylinder())
    z = 1.0 + 0.5  # half way up the cone (base at z = 1): radius 0.9 * (1 - 0.5 / 1.2)
    radius = 0.9 * (1.0 - 0.5 / 1.2)
    g = cut.section(shape, cut.family_normal("XY"), z)
    assert g.geom_type == "Polygon"
    assert g.area == pytest.approx(math.pi * radius**2, rel=2e-3)
    assert g.bounds == pytest.approx((-radius, -radius, radius, radius), abs=1e-3)
    assert shapely.hausdorff_distance(g, shapely.Point(0, 0).buffer(radius, 256)) < 1e-3


def test_xz_section_of_a_cylinder_is_a_rectangle_of_the_expected_size() -> None:
    shape = solids.make_solid(solids.solid("cylinder", radius=0.5, height=1.3))
    g = cut.section(shape, cut.family_normal("XZ"), 0.3)
    half = math.sqrt(0.5**2 - 0.3**2)
    assert shapely.equals_exact(shapely.normalize(g), shapely.normalize(
        shapely.box(-half, 0.0, half, 1.3)), tolerance=1e-9)


def test_a_plane_that_misses_the_solid_gives_an_empty_section() -> None:
    shape = solids.make_composite(cone_on_cylinder())
    assert cut.section(shape, cut.family_normal("XY"), 5.0).is_empty
    assert cut.section(shape, cut.family_normal("YZ"), -1.0).is_empty


def test_sections_miss_narrow_parts() -> None:
    shape = solids.make_composite(cone_on_cylinder())
    g = cut.section(shape, cut.family_normal("XZ"), 0.7)  # misses the cylinder (r = 0.6):
    top = 1.0 + 1.2 * (1.0 - 0.7 / 0.9)  # a cap of the cone (r = 0.9) up to radius 0.7
    assert g.geom_type == "Polygon" and g.bounds[1::2] == pytest.approx((1.0, top), abs=1e-3)
    waist = [solids.solid("cylinder", radius=0.9, height=0.5),
             solids.solid("cylinder", radius=0.4, height=0.5),
             solids.solid("cylinder", radius=0.9, height=0.5)]
    g = cut.section(solids.make_composite(waist), cut.family_normal("XZ"), 0.6)
    assert g.geom_type == "MultiPolygon" and len(g.geoms) == 2


def test_plane_bases_are_the_documented_ones() -> None:
    expect = {"XY": ((1, 0, 0), (0, 1, 0)), "XZ": ((1, 0, 0), (0, 0, 1)),
              "YZ": ((0, 1, 0), (0, 0, 1))}
    for name, (u, v) in expect.items():
        assert np.array_equal(np.stack(cut.plane_basis(cut.family_normal(name))), [u, v])
    for name in cut.OBLIQUE_FAMILIES:
        n = cut.family_normal(name)
        u, v = cut.plane_basis(n)
        frame = np.stack([u, v, n])
        assert np.allclose(frame @ frame.T, np.eye(3))
        assert u[2] == 0.0 and v[2] > 0.0  # horizontal u, upright v
        axis = {"X": 0, "Y": 1, "Z": 2}[name[0]]
        assert n[axis] == 0.0  # the plane contains its rotation axis
        assert np.allclose(cut.plane_basis(-n), (u, v))


def test_sweep_agrees_with_exact_slices() -> None:
    descs = [solids.solid("triangular_pyramid", side=1.9, height=0.9),
             solids.solid("circular_frustum", bottom_radius=0.9, top_radius=0.5, height=0.8),
             solids.solid("cuboid", width=2.0, depth=1.2, height=0.6)]
    shape = solids.make_composite(descs)
    edges = sweep.stack_edges(descs)
    for name in cut.AXIS_FAMILIES + cut.OBLIQUE_FAMILIES:
        n = cut.family_normal(name)
        lo, hi = sweep.offset_range(edges, n)
        offsets = lo + (hi - lo) * np.array([0.3, 0.5, 0.8])
        for d, fast in zip(offsets, sweep.sections(edges, n, offsets), strict=True):
            exact = cut.section(shape, n, d)
            assert dissimilarity(exact, fast) < 0.01
            assert shapely.area(shapely.symmetric_difference(exact, fast)) < 0.01 * exact.area


def test_tessellation_and_feature_edges() -> None:
    shape = solids.make_solid(solids.solid("cylinder", radius=0.5, height=1.0))
    vertices, triangles = tessellate.triangles(shape, 0.01)
    assert vertices.shape[1] == 3 and triangles.shape[1] == 3 and len(triangles) > 50
    assert triangles.max() < len(vertices)
    assert np.allclose(np.ptp(vertices, axis=0), [1.0, 1.0, 1.0], atol=1e-3)
    edges = tessellate.feature_edges(shape, 0.005)
    # the two rims only: the cylinder's seam is no crease
    assert len(edges) > 20 and np.all(np.isin(np.round(edges[..., 2], 9), [0.0, 1.0]))
    box = tessellate.feature_edges(solids.make_solid(solids.solid("square_prism", side=1.0,
                                                                   height=1.0)), 0.01)
    assert len(box) == 12


def test_joined_polyhedral_section_is_the_fused_solids_section() -> None:
    """A drawn section (the stack's polyhedral pieces joined, convex_pieces.joined) is the
    FreeCAD section of the fused composite: valid, with the same parts (no sliver along a
    joint), within the 128-gons' and the discretization's errors; planes missing a solid or
    the whole stack included."""
    rng = np.random.default_rng(3)
    by_kind = {d["kind"]: d for d, _ in CASES}
    flat = sorted(set(solids.KINDS) - solids.POINTED)
    stacks = [[solids.solid("cylinder", radius=0.9, height=0.5),
               solids.solid("cylinder", radius=0.4, height=0.5),
               solids.solid("cylinder", radius=0.9, height=0.5)]]
    for top in sorted(solids.POINTED) + flat[:2]:
        below = [k for k in flat if k != top]
        stacks.append([by_kind[top], *(by_kind[below[i]] for i in
                                       rng.choice(len(below), size=2, replace=False))])
    for descs in stacks:
        edges, fused = sweep.stack_edges(descs), solids.make_composite(descs)
        for name in cut.AXIS_FAMILIES + cut.OBLIQUE_FAMILIES:
            n = cut.family_normal(name)
            lo, hi = sweep.offset_range(edges, n)
            for d in [*(lo + (hi - lo) * np.array([0.13, 0.31, 0.52, 0.71, 0.93])), hi + 0.1]:
                want = cut.section(fused, n, d)
                got = convex_pieces.joined(sweep.section_pieces(edges, n, np.array([d])))
                assert got.is_valid and got.geom_type == want.geom_type, (name, d)
                assert len(shapely.get_parts(got)) == len(shapely.get_parts(want)), (name, d)
                # FreeCAD's outline within its deflection (5e-4) of the true curve, a 128-gon
                # within 3e-4 of its radius (here at most 0.9): on average apart by less
                # than 5e-4 along the outline (3.5e-4 at most here)
                assert shapely.area(shapely.symmetric_difference(got, want)) <= (
                    5e-4 * want.length), ([x["kind"] for x in descs], name, d)
