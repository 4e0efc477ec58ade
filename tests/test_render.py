"""Tests of spatialcad.render: cameras, meshes, rasterizer, drawings, layout, PNG, grid read."""

from __future__ import annotations

import math
from itertools import product

import cv2
import numpy as np
import pytest
import shapely
from shapely.geometry import Point, box

from spatialcad.geometry import cube_nets, face_patterns
from spatialcad.geometry.cube_items import pattern_params
from spatialcad.render import (
    VIEWS,
    Camera,
    GridReadError,
    compose,
    cube_faces,
    decode_png,
    draw_polylines,
    draw_shapes,
    drawing,
    encode_png,
    feature_edges,
    fit_scale,
    merge,
    orbit,
    projected_bounds,
    raster,
    read_cell_colours,
    read_grid,
    render,
    solid_mesh,
    text_panel,
    voxel_mesh,
)
from spatialcad.render import camera as get_camera
from spatialcad.render import mesh as mesh_module
from spatialcad.render.cube_faces import face_image, warp_face
from spatialcad.render.drawing import _interp
from spatialcad.render.layout import GAP, MAX_WIDTH, PAD, height
from spatialcad.render.mesh import Mesh

WHITE = (255, 255, 255)


def to_pixel(cam: Camera, p, size=(400, 400), scale=40.0, center=(0.0, 0.0)) -> tuple[int, int]:
    """(row, col) of world point p in a render with the given scale and centre."""
    u, v, _ = cam.project(np.array([p], dtype=float))[0]
    x = (u - center[0]) * scale + size[0] / 2.0
    y = size[1] / 2.0 - (v - center[1]) * scale
    return int(math.floor(y)), int(math.floor(x))


def is_dark(px) -> bool:
    return int(np.max(px)) < 90


# ---------------------------------------------------------------- camera


@pytest.mark.parametrize(
    "name, expected",
    [
        ("front", (1, 3, 2)),  # u = x, v = z, depth = y
        ("back", (-1, 3, -2)),  # u = -x, v = z, depth = -y
        ("right", (2, 3, -1)),  # u = y, v = z, depth = -x
        ("left", (-2, 3, 1)),  # u = -y, v = z, depth = x
        ("top", (1, 2, -3)),  # u = x, v = y, depth = -z
        ("bottom", (1, -2, 3)),  # u = x, v = -y, depth = z
    ],
)
def test_named_views_project_known_point(name: str, expected: tuple[int, int, int]) -> None:
    uvd = get_camera(name).project(np.array([[1.0, 2.0, 3.0]]))[0]
    assert np.allclose(uvd, expected, atol=1e-12)


def test_isometric_view_conventions() -> None:
    cam = get_camera("isometric")
    r, u, f = cam.basis()
    assert np.allclose(np.stack([r, u, f]) @ np.stack([r, u, f]).T, np.eye(3), atol=1e-12)
    assert np.allclose(f, np.array([-1, 1, -1]) / math.sqrt(3))  # eye at (+1, -1, +1)
    pts = cam.project(np.array([[0, 0, 0], [1, -1, 1], [0, 0, 1], [1, 0, 0], [0, -1, 0]]))
    assert pts[1, 2] < pts[0, 2]  # the eye side is nearer
    assert abs(pts[2, 0]) < 1e-12 and pts[2, 1] > 0  # +z points straight up
    assert pts[3, 0] > 0 and pts[4, 0] < 0  # +x to the right, -y (front face) to the left


def test_camera_lookup_and_orbit() -> None:
    with pytest.raises(KeyError, match="front"):
        get_camera("sideways")
    probe = np.array([[1.0, 2.0, 3.0], [-0.5, 0.25, 2.0]])
    for (az, el), name in [
        ((0, 0), "front"),
        ((90, 0), "right"),
        ((180, 0), "back"),
        ((-90, 0), "left"),
        ((0, 90), "top"),
        ((0, -90), "bottom"),
        ((45, math.degrees(math.atan(1 / math.sqrt(2)))), "isometric"),
    ]:
        assert np.allclose(orbit(az, el).project(probe), VIEWS[name].project(probe), atol=1e-9)
    with pytest.raises(ValueError):
        Camera((0, 0, 1), (0, 0, 2))


# ---------------------------------------------------------------- meshes


def test_voxel_mesh_drops_internal_faces() -> None:
    one = voxel_mesh([(0, 0, 0)])
    assert len(one.triangles) == 12 and len(one.edges) == 12
    two = voxel_mesh([(0, 0, 0), (1, 0, 0)], colors={(1, 0, 0): (255, 0, 0)})
    assert len(two.triangles) == 20  # 10 exposed faces, two triangles each
    tri_x = two.vertices[two.triangles][:, :, 0]
    assert not np.any(np.all(tri_x == 1.0, axis=1))  # the shared face at x = 1 is gone
    # 8 end-square edges + 4 long edges split in two + the ring at x = 1
    assert len(two.edges) == 20
    keys = {tuple(sorted(map(tuple, e))) for e in two.edges}
    assert len(keys) == 20  # deduplicated
    red = two.vertices[two.triangles].mean(axis=1)[:, 0] > 1.0
    assert np.all(two.face_colors[red] == (255, 0, 0))
    assert np.all(two.face_colors[~red] == (200, 200, 200))
    # duplicates in the input do not matter
    assert len(voxel_mesh([(0, 0, 0), (0, 0, 0)]).triangles) == 12


def _cube_by_cube_mesh(voxels: list[tuple[int, int, int]],
                       colors: dict[tuple[int, int, int], tuple[int, int, int]]) -> tuple:
    """The voxel mesh built the plain way: cubes in sorted order, faces in _FACES order,
    every exposed face two triangles, sides as sorted (end, end) pairs."""
    verts, tris, cols, sides = [], [], [], set()
    cells = sorted(set(voxels))
    for x, y, z in cells:
        for (dx, dy, dz), corners in mesh_module._FACES:
            if (x + dx, y + dy, z + dz) in cells:
                continue
            pts = [(x + cx, y + cy, z + cz) for cx, cy, cz in corners]
            b = len(verts)
            verts += pts
            tris += [(b, b + 1, b + 2), (b, b + 2, b + 3)]
            cols += [colors.get((x, y, z), (200, 200, 200))] * 2
            sides |= {tuple(sorted((pts[i], pts[(i + 1) % 4]))) for i in range(4)}
    return verts, tris, cols, sorted(sides)


def test_voxel_mesh_equals_the_cube_by_cube_construction() -> None:
    rng = np.random.default_rng(5)
    for _ in range(40):
        count = int(rng.integers(1, 30))
        cells = [tuple(int(c) for c in v) for v in rng.integers(-2, 3, size=(count, 3))]
        colors = {c: tuple(int(v) for v in rng.integers(0, 256, 3)) for c in cells[::3]}
        m = voxel_mesh(cells, colors=colors)
        verts, tris, cols, sides = _cube_by_cube_mesh(cells, colors)
        assert np.array_equal(m.vertices, verts) and np.array_equal(m.triangles, tris)
        assert np.array_equal(m.face_colors, cols)
        assert np.array_equal(m.edges, np.array(sides, dtype=float))


def test_face_image_paints_each_pixel_with_its_grid_block() -> None:
    """A solid-style face picture: pixel x lies in block k when edges[k] <= x < edges[k + 1]
    with edges = round(k * px / n), in both directions (sizes divisible by n, drawn by
    OpenCV's scaling, and not divisible)."""
    rng = np.random.default_rng(1)
    palette = [tuple(int(v) for v in c) for c in rng.integers(0, 256, (6, 3))]
    for n, px in product((3, 4, 5, 8), (7, 50, 97, 413, 120, 384, 600)):
        grid = rng.integers(0, 6, (n, n))
        edges = np.rint(np.arange(n + 1) * px / n)
        block = np.searchsorted(edges, np.arange(px), side="right") - 1
        picture = face_image(grid, "solid", palette, px)
        assert picture.shape == (px, px, 3)
        for y, x in product(range(0, px, 3), range(0, px, 5)):
            assert tuple(picture[y, x]) == palette[grid[block[y], block[x]]]


def test_face_warp_within_its_box_is_the_whole_canvas_warp() -> None:
    """A face warped within its parallelogram's box (widened by the interpolation's reach)
    draws what warping the whole canvas draws, up to one grey level of round-off (noise
    pictures: any grey level is next to any other), for faces stretched, squeezed and
    sheared, and faces running off the canvas."""
    rng = np.random.default_rng(5)
    for _ in range(30):
        tex = int(rng.choice([96, 384]))
        face = rng.integers(0, 256, (tex, tex, 3), dtype=np.uint8)
        origin = rng.uniform(-100, 500, 2)
        right, down = rng.uniform(-300, 300, 2), rng.uniform(-300, 300, 2)
        if abs(right[0] * down[1] - right[1] * down[0]) < 2000:
            continue  # (nearly) flat: no face to draw
        corners = np.array([origin, origin + right, origin + right + down, origin + down])
        mine = np.full((600, 600, 3), 255, np.uint8)
        warp_face(face, corners, mine)
        src = np.array([[0, 0], [tex, 0], [0, tex]], dtype=np.float32) - 0.5
        dst = corners[[0, 1, 3]].astype(np.float32) - 0.5
        whole = np.full((600, 600, 3), 255, np.uint8)
        cv2.warpAffine(face, cv2.getAffineTransform(src, dst), (600, 600), dst=whole,
                       flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
        assert np.abs(mine.astype(int) - whole).max() <= 1  # a box too small: up to 255


def test_a_part_downsamples_as_the_whole_picture_does() -> None:
    """Reducing only the part of a supersampled picture outside which it is white gives the
    whole picture's reduction, for parts of any size and place (odd edges included)."""
    rng = np.random.default_rng(6)
    for _ in range(20):
        h, w = (int(v) * cube_faces.SS for v in rng.integers(20, 90, 2))
        x0, x1 = sorted(int(v) for v in rng.integers(0, w // cube_faces.SS + 1, 2))
        y0, y1 = sorted(int(v) for v in rng.integers(0, h // cube_faces.SS + 1, 2))
        big = np.full((h, w, 3), 255, np.uint8)
        ss = cube_faces.SS
        big[y0 * ss : y1 * ss, x0 * ss : x1 * ss] = rng.integers(
            0, 256, ((y1 - y0) * ss, (x1 - x0) * ss, 3), dtype=np.uint8)
        whole = cube_faces.downsample(big)
        assert np.array_equal(cube_faces.downsample(big, (x0, y0, x1, y1)), whole)


@pytest.mark.parametrize("style", ["solid", "glyph", "dots"])
def test_nets_and_cubes_paint_only_near_their_outlines(style: str, monkeypatch) -> None:
    """draw_net, drawn on a canvas just around the net, gives the picture the whole panel's
    canvas gives; draw_cube paints nothing outside the box it reduces."""
    rng = np.random.default_rng(7)
    faces = face_patterns.make_faces(pattern_params({"solid": 0, "glyph": 1, "dots": 2}[style]),
                                     rng)
    for name in ("1-4-1-0", "3-3", "2-2-2"):
        net = cube_nets.unfold(cube_nets.random_cube(rng), cube_nets.NETS[name],
                               np.eye(3, dtype=int))
        cells = [(c.row, c.col, face_patterns.turned(faces.grids[c.face], c.turns)) for c in net]
        image, drawing = cube_faces.draw_net(cells, faces.style, faces.palette, cell=60,
                                             size=(310, 190))
        ss, (x0, y0) = cube_faces.SS, drawing["origin"]
        whole = np.full((190 * ss, 310 * ss, 3), 255, np.uint8)
        for r, c, grid in cells:
            x, y = (x0 + c * 60) * ss, (y0 + r * 60) * ss
            whole[y : y + 60 * ss, x : x + 60 * ss] = cube_faces.face_image(
                grid, faces.style, faces.palette, 60 * ss)
        for r, c, _ in cells:
            x, y = x0 + c * 60, y0 + r * 60
            cube_faces.outline(whole, np.array([(x, y), (x + 60, y), (x + 60, y + 60),
                                                (x, y + 60)]))
        assert np.array_equal(image, cube_faces.downsample(whole))
    reduced, original = [], cube_faces.downsample

    def whole_too(big: np.ndarray, within: tuple[int, int, int, int] | None = None
                  ) -> np.ndarray:
        x0, y0, x1, y1 = within or (0, 0, big.shape[1], big.shape[0])
        outside = big.copy()
        outside[y0 * cube_faces.SS : y1 * cube_faces.SS,
                x0 * cube_faces.SS : x1 * cube_faces.SS] = 255
        assert (outside == 255).all()
        reduced.append(original(big))
        return original(big, within)

    monkeypatch.setattr(cube_faces, "downsample", whole_too)
    for size in (290, 300):
        view = cube_nets.corner_view(cube_nets.random_cube(rng), faces.grids, np.eye(3, dtype=int))
        image, _ = cube_faces.draw_cube(
            [(view[n], *cube_nets.VIEW_FACES[n]) for n in cube_nets.VIEW_FACES],
            faces.style, faces.palette, size=size)
        assert np.array_equal(image, reduced[-1])


def test_merge_and_solid_mesh() -> None:
    a = voxel_mesh([(0, 0, 0)])
    b = solid_mesh([[0, 0, 5], [1, 0, 5], [0, 1, 5]], [[0, 1, 2]], (10, 20, 30))
    m = merge([a, b])
    assert len(m.vertices) == len(a.vertices) + 3
    assert np.array_equal(m.triangles[-1], [len(a.vertices) + i for i in range(3)])
    assert tuple(m.face_colors[-1]) == (10, 20, 30)
    assert len(m.edges) == 12


def test_feature_edges_of_a_tessellated_box() -> None:
    m = voxel_mesh([(x, y, 0) for x in range(2) for y in range(2)])
    # coplanar seams between the four top faces are not features; the box outline is
    fe = feature_edges(m.vertices, m.triangles)
    assert len(fe) == 8 + 8 + 4  # top and bottom rims (split at x=1, y=1), 4 verticals
    assert np.all(np.abs(fe[:, 0] - fe[:, 1]).sum(axis=1) > 0)


# ---------------------------------------------------------------- rasterizer


def test_render_is_deterministic() -> None:
    m = voxel_mesh([(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)], colors={(1, 1, 1): (200, 60, 60)})
    a = render(m, get_camera("isometric"))
    b = render(
        voxel_mesh([(1, 1, 1), (1, 1, 0), (1, 0, 0), (0, 0, 0)], colors={(1, 1, 1): (200, 60, 60)}),
        get_camera("isometric"),
    )
    assert a.dtype == np.uint8 and a.shape == (400, 400, 3)
    assert a.tobytes() == b.tobytes()
    assert encode_png(a) == encode_png(b)


def _numpy_shade(mesh: Mesh, cam: Camera) -> np.ndarray:
    """Flat shading written with numpy's vectorised operations (the reference)."""
    v = mesh.vertices[mesh.triangles]
    n = np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0])
    nc = n @ np.stack(cam.basis(), axis=1)
    nc = np.where(nc[:, 2:3] > 0, -nc, nc)
    norm = np.linalg.norm(nc, axis=1)
    nc = nc / np.where(norm > 0, norm, 1.0)[:, None]
    lam = np.clip(nc @ raster.LIGHT_DIR, 0.0, None)
    shade = np.where(norm > 0, raster.AMBIENT + raster.DIFFUSE * lam, 1.0)
    return np.clip(np.rint(mesh.face_colors * shade[:, None]), 0, 255).astype(np.uint8)


def test_compiled_shading_gives_numpys_bytes() -> None:
    """Per-triangle shades equal the vectorised numpy computation byte for byte, on cube
    stacks and on random (also degenerate) triangles, from several cameras."""
    rng = np.random.default_rng(8)
    cams = [get_camera("isometric"), orbit(225.0, 35.26), orbit(31.0, 12.5)]
    for _ in range(60):
        count = int(rng.integers(1, 25))
        cubes = [tuple(int(c) for c in v) for v in rng.integers(0, 5, (count, 3))]
        colours = {v: tuple(int(c) for c in rng.integers(0, 256, 3)) for v in cubes}
        points = rng.normal(size=(40, 3)) * rng.uniform(0.01, 50.0)
        loose = Mesh(points, rng.integers(0, 40, (60, 3)), rng.integers(0, 256, (60, 3)),
                     np.zeros((0, 2, 3)))
        for mesh in (voxel_mesh(cubes, colours), loose):
            for cam in cams:
                shades = raster._shaded(mesh.vertices, mesh.triangles, mesh.face_colors,
                                         cam._to_camera, raster.LIGHT_DIR, raster.AMBIENT,
                                         raster.DIFFUSE)
                assert np.array_equal(shades, _numpy_shade(mesh, cam))


def _numpy_framing(mesh: Mesh, cam: Camera, size: tuple[int, int], scale: float | None,
                   center: tuple[float, float] | None, ssaa: int, pad: int
                   ) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int, int], float]:
    """The placement, window and scan written with numpy (the reference): screen x, y and
    depth of the vertices, the window within ``pad`` of every vertex and edge end (corners
    on multiples of ``ssaa``), and the pixels per unit."""
    if scale is None:
        scale = fit_scale(mesh, cam, size, 12)
    if center is None:
        umin, vmin, umax, vmax = projected_bounds(mesh, cam)
        center = ((umin + umax) / 2.0, (vmin + vmax) / 2.0)
    k, (W, H) = scale * ssaa, (size[0] * ssaa, size[1] * ssaa)

    def screen(p: np.ndarray) -> np.ndarray:
        q = cam.project(p)
        return np.stack([(q[:, 0] - center[0]) * k + W / 2.0,
                         H / 2.0 - (q[:, 1] - center[1]) * k, q[:, 2]])

    verts, ends = screen(mesh.vertices), screen(mesh.edges.reshape(-1, 3))
    xs, ys = np.concatenate([verts[0], ends[0]]), np.concatenate([verts[1], ends[1]])
    x0 = min(max(int(np.floor((xs.min() - pad) / ssaa)) * ssaa, 0), W)
    y0 = min(max(int(np.floor((ys.min() - pad) / ssaa)) * ssaa, 0), H)
    x1 = min(max(int(np.ceil((xs.max() + pad) / ssaa)) * ssaa, x0), W)
    y1 = min(max(int(np.ceil((ys.max() + pad) / ssaa)) * ssaa, y0), H)
    return verts, ends, (x0, y0, x1, y1), k


def test_compiled_framing_and_scan_match_numpy_steps() -> None:
    """The compiled call behind render() places, windows and scans a mesh exactly as numpy
    steps do (fit_scale, projected_bounds, the projection, the window, the scan kernel),
    fitted or at a given scale, centred on its bounds or on a given point."""
    rng = np.random.default_rng(12)
    cams = [get_camera("isometric"), orbit(225.0, -35.26), orbit(31.0, 12.5)]
    for trial in range(40):
        count = int(rng.integers(1, 12))
        cubes = [tuple(int(c) for c in v) for v in rng.integers(0, 4, (count, 3))]
        mesh = voxel_mesh(cubes)
        cam = cams[trial % len(cams)]
        size, ssaa = (int(rng.integers(40, 200)), int(rng.integers(40, 200))), 1 + trial % 2
        scale = None if trial % 3 == 0 else float(rng.uniform(5.0, 40.0))
        center = None if trial % 4 < 2 else (float(rng.normal()), float(rng.normal()))
        pad = 4 * ssaa + 4
        zbuf, ids, grad, ex, ey, ez, window, k, span = raster._framed_scan(
            mesh.vertices, mesh.triangles, mesh.one_sided, mesh.edges, cam._to_camera, size[0],
            size[1], ssaa, 1.0 if scale is None else scale, scale is None, *(center or (0.0, 0.0)),
            center is None, 12, pad, True)
        verts, ends, expected, expected_k = _numpy_framing(mesh, cam, size, scale, center,
                                                           ssaa, pad)
        assert tuple(int(v) for v in window) == expected and k == expected_k
        assert np.array_equal(np.stack([ex, ey, ez]), ends)
        assert span == float(np.ptp(verts[2]))
        x0, y0, x1, y1 = expected
        z = np.full((y1 - y0) * (x1 - x0), np.inf)
        i = np.full((y1 - y0) * (x1 - x0), -1, dtype=np.int32)
        g = raster._scan(verts[0], verts[1], verts[2], mesh.triangles, mesh.one_sided, z, i,
                         size[0] * ssaa, size[1] * ssaa, x0, y0, x1 - x0)
        assert np.array_equal(zbuf.ravel(), z) and np.array_equal(ids.ravel(), i)
        assert np.array_equal(grad, g)


def test_back_faces_of_cube_stacks_are_culled_leaving_the_front_faces_seen() -> None:
    """Cube stacks' triangles are one-sided (closed, counter-clockwise from outside): the
    scan skips those seen from behind.  From cameras all round (below included), the depths
    and triangles seen are those of scanning every triangle, except where a back face tied
    a front face on the silhouette (a pixel centre on their shared edge, at one depth up to
    rounding): there the front face now wins, as the surface seen should."""
    rng = np.random.default_rng(21)
    cams = [get_camera("isometric"), orbit(225.0, -35.26), orbit(31.0, 12.5),
            orbit(150.0, -70.0), get_camera("front"), get_camera("top")]
    skipped = ties = 0
    for trial in range(60):
        count = int(rng.integers(1, 14))
        cubes = [tuple(int(c) for c in v) for v in rng.integers(0, 4, (count, 3))]
        mesh = voxel_mesh(cubes)
        assert mesh.one_sided.all()
        cam = cams[trial % len(cams)]
        sx, sy, sz = raster._to_screen(cam.project(mesh.vertices), 17.0, 0.5, 0.5, 160, 150)
        scans = []
        for one_sided in (mesh.one_sided, np.zeros_like(mesh.one_sided)):
            z = np.full(160 * 150, np.inf)
            i = np.full(160 * 150, -1, dtype=np.int32)
            raster._scan(sx, sy, sz, mesh.triangles, one_sided, z, i, 160, 150, 0, 0, 160)
            scans.append((z, i))
        (culled_z, culled_ids), (all_z, all_ids) = scans
        t = mesh.triangles
        area2 = ((sx[t[:, 1]] - sx[t[:, 0]]) * (sy[t[:, 2]] - sy[t[:, 0]])
                 - (sx[t[:, 2]] - sx[t[:, 0]]) * (sy[t[:, 1]] - sy[t[:, 0]]))
        back = area2 > 0
        changed = (culled_ids != all_ids) | (culled_z != all_z)
        assert back[all_ids[changed]].all() and not back[culled_ids[changed]].any()
        assert np.allclose(culled_z[changed], all_z[changed], rtol=1e-13, atol=1e-13)
        assert not back[culled_ids[culled_ids >= 0]].any()
        ties += int(changed.sum())
        skipped += int(back.sum())
    assert skipped > 0 and ties > 0  # both cases are met


def test_a_mesh_merged_from_stacks_and_a_floor_culls_only_the_stacks() -> None:
    from spatialcad.render.stacks import floor_mesh
    cubes, floor = voxel_mesh([(0, 0, 0), (1, 0, 0)]), floor_mesh(2, 1)
    merged = mesh_module.merge([cubes, floor])
    assert merged.one_sided.tolist() == [True] * len(cubes.triangles) + [False] * 4
    assert not floor.one_sided.any()  # open: seen from below too
    with pytest.raises(ValueError, match="one-sided"):
        Mesh(cubes.vertices, cubes.triangles, cubes.face_colors, cubes.edges,
             np.ones(3, dtype=bool))


def test_isometric_cube_has_three_shades() -> None:
    cam = get_camera("isometric")
    m = voxel_mesh([(0, 0, 0)])
    img = render(m, cam, scale=100, center=tuple(cam.project(np.array([[0.5, 0.5, 0.5]]))[0, :2]))
    c = tuple(cam.project(np.array([[0.5, 0.5, 0.5]]))[0, :2])
    colors, counts = np.unique(img.reshape(-1, 3), axis=0, return_counts=True)
    big = {tuple(int(v) for v in col) for col, n in zip(colors, counts, strict=True) if n > 1500}
    assert WHITE in big and len(big) == 4  # background + three face shades
    faces = [(0.5, 0.5, 1.0), (0.5, 0.0, 0.5), (1.0, 0.5, 0.5)]  # top, front, right
    shades = {tuple(int(v) for v in img[to_pixel(cam, p, scale=100, center=c)]) for p in faces}
    assert len(shades) == 3 and shades <= big
    # a visible edge (front-top) is drawn dark
    assert is_dark(img[to_pixel(cam, (0.5, 0.0, 1.0), scale=100, center=c)])


def test_front_view_cells_are_crisp_squares() -> None:
    m = voxel_mesh([(x, 0, z) for x in range(3) for z in range(2)])
    img = render(m, get_camera("front"), scale=40)
    # the 3x2 block spans x 140..260 and y 160..240; each face is a uniform 40 px square
    colors = set()
    for col in range(3):
        for row in range(2):
            x0, y0 = 140 + 40 * col, 160 + 40 * row
            inner = img[y0 + 4 : y0 + 36, x0 + 4 : x0 + 36].reshape(-1, 3)
            assert len(np.unique(inner, axis=0)) == 1
            colors.add(tuple(inner[0]))
    assert len(colors) == 1 and WHITE not in colors
    row = img[180]
    for x in (140, 180, 220, 260):  # vertical edge lines between/around the cells
        assert is_dark(row[x - 1]) or is_dark(row[x])
    assert np.all(img[:150] == 255) and np.all(img[250:] == 255)


def test_zbuffer_near_cube_occludes_far_cube() -> None:
    red = voxel_mesh([(0, 0, 0)], default_color=(255, 0, 0))
    blue = voxel_mesh([(0, 2, 0)], default_color=(0, 0, 255))  # behind: eye is at -y
    cam = get_camera("front")
    for meshes in ([red, blue], [blue, red]):
        px = render(meshes, cam, scale=40)[200, 200]
        assert px[0] > 150 and px[2] < 50
    px = render([red, voxel_mesh([(0, -2, 0)], default_color=(0, 0, 255))], cam, scale=40)
    assert px[200, 200, 2] > 150 and px[200, 200, 0] < 50


def test_edges_hidden_behind_faces_are_not_drawn() -> None:
    cam = get_camera("front")
    quad = [[-1, 0, -1], [3, 0, -1], [3, 0, 3], [-1, 0, 3]]
    border = np.array([[quad[i], quad[(i + 1) % 4]] for i in range(4)], dtype=float)
    plate = solid_mesh(quad, [[0, 1, 2], [0, 2, 3]], (240, 240, 240), border)
    cube = voxel_mesh([(0, 1, 0)])  # behind the plate, its outline x, z in {0, 1}
    kw = {"scale": 40, "center": (1.0, 1.0)}
    probes = [to_pixel(cam, p, center=(1.0, 1.0)) for p in [(0.5, 0, 1), (0.0, 0, 0.5)]]
    alone = render(cube, cam, **kw)
    assert all(is_dark(alone[r, c]) for r, c in probes)
    both = render([plate, cube], cam, **kw)
    assert all(tuple(both[r, c]) == tuple(both[200, 250]) for r, c in probes)
    assert not is_dark(both[200, 250])
    # isometric: the three edges at the hidden corner (0, 1, 0) are not drawn
    iso = get_camera("isometric")
    c = tuple(iso.project(np.array([[0.5, 0.5, 0.5]]))[0, :2])
    img = render(voxel_mesh([(0, 0, 0)]), iso, scale=100, center=c)
    for p in [(0.0, 0.6, 0.0), (0.4, 1.0, 0.0), (0.0, 1.0, 0.4)]:
        assert not is_dark(img[to_pixel(iso, p, scale=100, center=c)])


def test_empty_scene_and_silhouettes() -> None:
    cam = get_camera("isometric")
    assert np.all(render([], cam, (50, 40)) == 255)
    assert render([], cam, (50, 40)).shape == (40, 50, 3)
    # a faceted sphere has no feature edges: only silhouette=True outlines it
    n = 24
    th, ph = np.meshgrid(np.linspace(0, np.pi, n + 1), np.linspace(0, 2 * np.pi, n + 1))
    v = np.stack([np.sin(th) * np.cos(ph), np.sin(th) * np.sin(ph), np.cos(th)], -1)
    i = (np.arange(n)[:, None] * (n + 1) + np.arange(n)[None, :]).ravel()
    t = np.concatenate([np.stack([i, i + 1, i + n + 2], 1), np.stack([i, i + n + 2, i + n + 1], 1)])
    sphere = solid_mesh(v.reshape(-1, 3), t, (200, 200, 200))
    plain = render(sphere, cam, scale=150)
    outlined = render(sphere, cam, scale=150, silhouette=True)
    assert not np.any(plain.max(axis=2) < 60)
    assert is_dark(outlined[200, 200 + 150]) and not is_dark(outlined[200, 200])
    assert np.array_equal(plain[150:250, 150:250], outlined[150:250, 150:250])


def _numpy_silhouettes(zbuf: np.ndarray, ids: np.ndarray, grad: np.ndarray,
                       tol: float) -> np.ndarray:
    """The silhouette mask as whole-array NumPy computes it (the compiled loop's
    definition)."""
    cov = ids >= 0
    z = np.where(cov, zbuf, 0.0)
    g = np.take(np.concatenate(([0.0], grad)), ids + 1)
    mask = np.zeros(cov.shape, dtype=bool)
    for a, b in (((slice(None), slice(None, -1)), (slice(None), slice(1, None))),
                 ((slice(None, -1), slice(None)), (slice(1, None), slice(None)))):
        jump = (cov[a] != cov[b]) | (cov[a] & cov[b]
                                     & (np.abs(z[a] - z[b]) > 2.0 * (g[a] + g[b]) + 4.0 * tol))
        mask[a] |= jump
        mask[b] |= jump
    return mask.astype(np.uint8)


def test_silhouettes_match_their_numpy_definition() -> None:
    rng = np.random.default_rng(3)
    for shape in [(1, 1), (1, 7), (6, 1), (40, 53)]:
        for _ in range(20):
            tris = int(rng.integers(1, 9))
            ids = rng.integers(-1, tris, size=shape).astype(np.int32)
            # depths on a few planes with steps, so that both sides of the threshold occur
            rows, cols = np.indices(shape)
            zbuf = (rng.normal(size=tris)[np.maximum(ids, 0)] * 5.0
                    + 0.01 * rows * rng.normal() + 0.01 * cols * rng.normal())
            zbuf = np.where(ids >= 0, np.round(zbuf, 2), np.inf)
            grad = np.abs(rng.normal(size=tris)) * rng.choice([0.0, 0.01, 1.0])
            tol = float(rng.choice([0.0, 1e-3, 0.5]))
            got = raster._silhouettes(zbuf, ids, grad, tol)
            assert got.dtype == np.uint8
            assert np.array_equal(got, _numpy_silhouettes(zbuf, ids, grad, tol))


def test_fit_scale_and_common_scale() -> None:
    m = voxel_mesh([(x, 0, 0) for x in range(5)])
    cam = get_camera("front")
    s = fit_scale(m, cam, (400, 400), 12)
    assert s == pytest.approx((400 - 24) / 5)
    assert np.array_equal(render(m, cam), render(m, cam, scale=s))
    small = voxel_mesh([(0, 0, 0)])
    common = min(s, fit_scale(small, cam, (400, 400), 12))
    img = render(small, cam, scale=common)
    width = int(np.count_nonzero(np.any(img[200] != 255, axis=1)))
    assert common < 80 and abs(width - common) <= 6  # cube + its outline, not 376 px


def test_a_mesh_of_thousands_of_triangles_renders_its_visible_side() -> None:
    n = 36  # a 36 x 36 x 2 x 2 = 5184-triangle wavy surface, seen isometrically
    g = np.linspace(0, 4, n + 1)
    xx, yy = np.meshgrid(g, g, indexing="ij")
    v = np.stack([xx, yy, 0.3 * np.sin(2 * xx) * np.cos(3 * yy)], axis=-1).reshape(-1, 3)
    i = np.arange(n)[:, None] * (n + 1) + np.arange(n)[None, :]
    a, b, c, d = i.ravel(), i.ravel() + 1, i.ravel() + n + 1, i.ravel() + n + 2
    t = np.concatenate([np.stack([a, b, d], 1), np.stack([a, d, c], 1)])
    top = solid_mesh(v, t, (180, 200, 230))
    under = solid_mesh(v - [0, 0, 1], t[:, ::-1], (120, 120, 120))
    m = merge([top, under])
    assert len(m.triangles) > 5000
    img = render(m, get_camera("isometric"), edge_width=0)
    assert np.array_equal(img, render(m, get_camera("isometric"), edge_width=0))
    rgb = img.reshape(-1, 3).astype(int)
    bluish = rgb[:, 2] > rgb[:, 0] + 25  # the top surface, whatever its shade
    grey = (np.ptp(rgb, axis=1) < 8) & (rgb[:, 0] < 200)  # the underside
    # the underside shows only as a band below the front edges (it lies one unit lower)
    assert bluish.sum() > 0.2 * len(rgb) and bluish.sum() > 2 * grey.sum() > 0


def test_channel_extremes_are_numpys() -> None:
    from spatialcad.render.pixels import brightest, darkest
    rng = np.random.default_rng(4)
    image = rng.integers(0, 256, (57, 83, 3), dtype=np.uint8)
    for part in (image, image[5:40, 7:60], image[::2, 1::3]):  # crops are views
        assert np.array_equal(darkest(part), part.min(axis=2))
        assert np.array_equal(brightest(part), part.max(axis=2))


def test_pixels_differing_counts_as_numpy_does() -> None:
    from spatialcad.render.pixels import pixels_differing
    rng = np.random.default_rng(5)
    a = rng.integers(0, 256, (57, 83, 3), dtype=np.uint8)
    b = a.copy()
    b[rng.random(a.shape) < 0.3] = rng.integers(0, 256, dtype=np.uint8)
    for x, y in ((a, b), (a[5:40, 7:60], b[5:40, 7:60])):  # crops are views
        gap = np.abs(x.astype(int) - y).max(axis=2)
        for more_than in (0, 40, 64, 254):
            assert pixels_differing(x, y, more_than) == np.count_nonzero(gap > more_than)
    assert pixels_differing(a, a) == 0


def test_mean_difference_is_numpys_mean_of_the_differences() -> None:
    from spatialcad.render.pixels import mean_difference
    rng = np.random.default_rng(6)
    a = rng.integers(0, 256, (61, 79, 3), dtype=np.uint8)
    b = a.copy()
    b[rng.random(a.shape) < 0.2] = rng.integers(0, 256, dtype=np.uint8)
    for x, y in ((a, b), (a[3:50, 9:70], b[3:50, 9:70]), (a, a)):  # crops are views
        assert mean_difference(x, y) == np.abs(x.astype(int) - y).mean()


def test_fill_paints_a_region_as_numpys_broadcast_does() -> None:
    from spatialcad.render.pixels import fill, plain
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, (41, 67, 3), dtype=np.uint8)
    for colour in ((0, 0, 0), (128, 128, 128), (220, 30, 40), (1, 2, 255)):
        for region in (np.s_[:, :], np.s_[3:30, 5:60], np.s_[::2, 1::3], np.s_[7:8, 2:50]):
            want, got = image.copy(), image.copy()
            want[region] = np.asarray(colour, dtype=np.uint8)
            fill(got[region], colour)
            assert np.array_equal(got, want)  # the region painted, nothing else touched
        assert np.array_equal(plain(67, 41, colour), np.broadcast_to(
            np.asarray(colour, dtype=np.uint8), (41, 67, 3)))


def _scan_pixel_by_pixel(sx, sy, sz, tris, w, h):
    """The z-buffer and ids of ``raster._scan`` with its edge and depth tests made at every
    pixel of each triangle's box (as its docstring states them), in plain Python."""
    zbuf, ids = np.full((h, w), np.inf), np.full((h, w), -1)
    for t, tri in enumerate(tris):
        X, Y, Z = sx[tri], sy[tri], sz[tri]
        area2 = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0])
        sgn = -1.0 if area2 < 0 else 1.0
        A, B, C = np.zeros(3), np.zeros(3), np.zeros(3)
        for i in range(3):
            a, b = (i + 1) % 3, (i + 2) % 3
            A[i], B[i] = (Y[a] - Y[b]) * sgn, (X[b] - X[a]) * sgn
            C[i] = (X[a] * Y[b] - X[b] * Y[a]) * sgn
        if not abs(area2) > 1e-9:
            continue
        eps = [1e-6 * np.hypot(A[i], B[i]) for i in range(3)]
        az, bz, cz = (float(sum(M[i] * Z[i] for i in range(3)) / abs(area2)) for M in (A, B, C))
        jx0, jx1 = max(int(np.ceil(X.min() - 0.5)), 0), min(int(np.floor(X.max() - 0.5)), w - 1)
        jy0, jy1 = max(int(np.ceil(Y.min() - 0.5)), 0), min(int(np.floor(Y.max() - 0.5)), h - 1)
        ox, oy = jx0 + 0.5, jy0 + 0.5
        e = [A[i] * ox + B[i] * oy + C[i] + eps[i] for i in range(3)]
        for y in range(jy0, jy1 + 1):
            dy = float(y - jy0)
            for x in range(jx0, jx1 + 1):
                dx = float(x - jx0)
                if all(A[i] * dx >= -(e[i] + B[i] * dy) for i in range(3)):
                    depth = ((az * ox + bz * oy + cz) + az * dx) + bz * dy
                    if depth < zbuf[y, x] or (depth == zbuf[y, x] and t > ids[y, x]):
                        zbuf[y, x], ids[y, x] = depth, t
    return zbuf, ids


def test_the_scan_fills_exactly_the_pixels_whose_centres_pass_the_edge_tests() -> None:
    """Each row's inside pixels are found as one run from its ends: the same pixels, depths
    and ids as testing every pixel, for slivers, axis-aligned edges and shared edges too."""
    rng = np.random.default_rng(8)
    w, h = 37, 29
    for trial in range(60):
        pts = rng.uniform(-5, 42, (12, 2))
        if trial % 3 == 0:  # pixel-centre and integer coordinates: edges through centres
            pts = np.round(pts * 2) / 2
        if trial % 5 == 0:  # slivers
            pts[1::3] = pts[::3] + rng.normal(0, 1e-3, pts[::3].shape)
        tris = np.array([[0, 1, 2], [2, 1, 3], [4, 5, 6], [7, 8, 9], [9, 10, 11], [0, 2, 11]])
        sz = rng.uniform(0, 3, 12)
        zbuf, ids = np.full(h * w, np.inf), np.full(h * w, -1, dtype=np.int32)
        raster._scan(pts[:, 0].copy(), pts[:, 1].copy(), sz, tris.astype(np.int64),
                     np.zeros(len(tris), dtype=np.bool_), zbuf, ids, w, h, 0, 0, w)
        zbuf, ids = zbuf.reshape(h, w), ids.reshape(h, w)
        want_z, want_ids = _scan_pixel_by_pixel(pts[:, 0], pts[:, 1], sz, tris, w, h)
        assert np.array_equal(ids, want_ids) and np.array_equal(zbuf, want_z)

def test_cube_labels_name_the_cube_seen_at_each_pixel() -> None:
    from spatialcad.render.stacks import box_framing, cube_labels, cube_visibility
    framing = box_framing(get_camera("isometric"), (3, 3, 3), (300, 300))
    assert (cube_labels([], framing) == -1).all()
    alone = cube_labels([(1, 1, 1)], framing)
    assert set(np.unique(alone)) == {-1, 0}
    # the isometric camera looks along (-1, 1, -1): a cube at (2, 0, 2) hides (1, 1, 1)
    front = cube_labels([(1, 1, 1), (2, 0, 2)], framing)
    assert cube_visibility([(1, 1, 1), (2, 0, 2)], framing) == [0, int((alone == 0).sum())]
    assert np.array_equal(front >= 0, alone >= 0)
    # side by side, each cube keeps its own pixels where the other does not cover them
    pair = [(0, 0, 0), (2, 2, 0)]
    labels = cube_labels(pair, framing)
    for k, cube in enumerate(pair):
        own = cube_labels([cube], framing) == 0
        assert (labels[own] == k).mean() > 0.9 and (labels[~own] != k).all()



def test_cube_visibility_counts_the_pixels_cube_labels_give_each_cube() -> None:
    from spatialcad.render.stacks import box_framing, cube_labels, cube_visibility
    rng = np.random.default_rng(4)
    assert cube_visibility([], box_framing(get_camera("isometric"), (3, 3, 3), (90, 90))) == []
    for _ in range(20):
        cubes = sorted({tuple(int(c) for c in rng.integers(0, 4, 3)) for _ in range(9)})
        framing = box_framing(orbit(float(rng.uniform(0, 360)), float(rng.uniform(-40, 70))),
                              (4, 4, 4), (int(rng.integers(60, 300)), int(rng.integers(60, 300))))
        labels = cube_labels(cubes, framing)
        want = [int((labels == k).sum()) for k in range(len(cubes))]
        assert cube_visibility(cubes, framing) == want and sum(want) > 0

# ---------------------------------------------------------------- grid read-back

_VIEW_AXES = {  # view -> (u-range, v) of the unit cell of voxel (x, y, z) in that view
    "front": lambda x, y, z: (x, z),
    "back": lambda x, y, z: (-x - 1, z),
    "right": lambda x, y, z: (y, z),
    "left": lambda x, y, z: (-y - 1, z),
    "top": lambda x, y, z: (x, y),
}


def expected_grid(voxels: list[tuple[int, int, int]], view: str) -> np.ndarray:
    """Occupancy of a view derived from the camera conventions (row 0 = top of image)."""
    cells = {_VIEW_AXES[view](*v) for v in voxels}
    us = [u for u, _ in cells]
    vs = [v for _, v in cells]
    grid = np.zeros((max(vs) - min(vs) + 1, max(us) - min(us) + 1), dtype=np.int8)
    for u, v in cells:
        grid[max(vs) - v, u - min(us)] = 1
    return grid


def random_stack(rng: np.random.Generator) -> list[tuple[int, int, int]]:
    nx, ny = (int(k) for k in rng.integers(1, 6, 2))
    heights = rng.integers(0, 5, (nx, ny))
    heights[rng.integers(nx), rng.integers(ny)] = rng.integers(1, 5)
    return [(x, y, z) for x in range(nx) for y in range(ny) for z in range(heights[x, y])]


def test_expected_grid_helper() -> None:
    vox = [(0, 0, 0), (1, 0, 0), (1, 0, 1), (1, 2, 0)]
    assert expected_grid(vox, "front").tolist() == [[0, 1], [1, 1]]
    assert expected_grid(vox, "top").tolist() == [[0, 1], [0, 0], [1, 1]]
    assert expected_grid(vox, "left").tolist() == [[0, 0, 1], [1, 0, 1]]
    assert expected_grid(vox, "right").tolist() == [[1, 0, 0], [1, 0, 1]]


@pytest.mark.parametrize("seed", range(32))
def test_read_grid_round_trip(seed: int) -> None:
    rng = np.random.default_rng(seed)
    vox = random_stack(rng)
    m = voxel_mesh(vox)
    views = ["front", "top", "left", "right"]
    imgs = {}
    for view in views:
        scale = float(rng.integers(20, 61)) if seed % 2 else float(rng.uniform(20, 60))
        imgs[view] = render(m, get_camera(view), scale=scale)
        assert np.array_equal(read_grid(imgs[view]), expected_grid(vox, view)), (view, scale)
    comp, layout = compose(
        [(imgs["front"], "Front"), (imgs["top"], "Top")], [imgs["left"], imgs["right"]]
    )
    comp = decode_png(encode_png(comp))
    boxes = layout["reference"] + layout["options"]
    for view, (x, y, w, h) in zip(views, boxes, strict=True):
        crop = comp[y : y + h, x : x + w]
        assert np.array_equal(crop, imgs[view])
        assert np.array_equal(read_grid(crop), expected_grid(vox, view))


def test_read_grid_survives_downscaled_composite() -> None:
    vox = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 0, 1), (2, 1, 0), (2, 1, 1), (2, 1, 2)]
    m = voxel_mesh(vox)
    panels = [render(m, get_camera(v), scale=40) for v in ("front", "top", "left", "right")]
    comp, layout = compose([], panels, width=1280)
    x, y, w, h = layout["options"][2]
    assert w < 400  # the row was scaled down
    assert np.array_equal(read_grid(comp[y : y + h, x : x + w]), expected_grid(vox, "left"))


def test_read_grid_rejects_non_grids() -> None:
    with pytest.raises(GridReadError, match="no cells"):
        read_grid(np.full((200, 300, 3), 255, np.uint8))
    with pytest.raises(GridReadError):
        read_grid(render(voxel_mesh([(0, 0, 0), (1, 0, 0)]), get_camera("isometric")))
    with pytest.raises(GridReadError):
        read_grid(draw_shapes([Point(0, 0).buffer(1.0)]))
    with pytest.raises(GridReadError):
        read_grid(draw_shapes([box(0, 0, 1, 1), box(2, 0, 2.4, 0.4)]))
    assert issubclass(GridReadError, ValueError)


def test_read_grid_other_colours() -> None:
    vox = [(0, 0, 0), (1, 0, 0), (0, 0, 1)]
    colors = {(0, 0, 0): (230, 80, 80), (1, 0, 0): (90, 140, 230)}
    img = render(voxel_mesh(vox, colors), get_camera("front"), scale=30)
    assert read_grid(img).tolist() == [[1, 0], [1, 1]]
    with pytest.raises(GridReadError, match="neither grey nor red"):
        read_cell_colours(img)  # the blue cube


def test_read_cell_colours_grey_and_red() -> None:
    vox = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 0, 1), (2, 1, 1), (2, 1, 0)]
    colors = {(1, 0, 0): (220, 40, 40), (2, 1, 1): (220, 40, 40)}
    m = voxel_mesh(vox, colors, default_color=(205, 210, 220))
    front = render(m, get_camera("front"), scale=36)
    assert read_cell_colours(front).tolist() == [[1, 0, 2], [1, 2, 1]]
    top = render(m, get_camera("top"), scale=25)
    assert read_cell_colours(top).tolist() == [[0, 0, 2], [1, 2, 1]]


# ---------------------------------------------------------------- layout


def _panel(w: int, h: int, seed: int) -> np.ndarray:
    img = np.random.default_rng(seed).integers(0, 256, (h, w, 3)).astype(np.uint8)
    return img


def test_compose_boxes_crop_back_panels() -> None:
    refs = [(_panel(400, 300, 1), "Front view"), (_panel(300, 300, 2), "Top view")]
    opts = [_panel(250, 200, 10 + i) for i in range(4)]
    img, layout = compose(refs, opts, title="Which option shows the left view?")
    assert img.shape[1] == 1280 and layout["width"] == 1280
    assert img.shape[0] == layout["height"] and img.dtype == np.uint8
    assert len(layout["reference"]) == 2 and len(layout["options"]) == 4
    for (x, y, w, h), (p, _) in zip(layout["reference"], refs, strict=True):
        assert np.array_equal(img[y : y + h, x : x + w], p)
    for (x, y, w, h), p in zip(layout["options"], opts, strict=True):
        assert np.array_equal(img[y : y + h, x : x + w], p)
        label = img[y + h : y + h + 60, x : x + w]  # the letter under the panel
        assert np.count_nonzero(label.max(axis=2) < 80) > 200
    # options lie below the reference row, left to right, without overlap
    ys = [b[1] for b in layout["options"]]
    assert min(ys) > max(b[1] + b[3] for b in layout["reference"])
    xs = [(b[0], b[0] + b[2]) for b in layout["options"]]
    assert all(a[1] < b[0] for a, b in zip(xs, xs[1:], strict=False))


def test_compose_scales_wide_rows_down() -> None:
    opts = [_panel(400, 400, i) for i in range(4)]
    img, layout = compose([(_panel(200, 100, 9), "")], opts, width=1280)
    assert img.shape[1] == 1280
    for x, y, w, h in layout["options"]:
        assert w < 400 and abs(w - h) <= 1
        assert 0 <= x and x + w <= 1280 and y + h <= img.shape[0]
    x, y, w, h = layout["reference"][0]
    assert (w, h) == (200, 100)
    with pytest.raises(ValueError):
        compose([], [_panel(10, 10, 0)] * 5)


def test_compose_widens_for_large_panels_up_to_the_maximum() -> None:
    narrow, _ = compose([(_panel(200, 100, 9), "")], [_panel(200, 200, i) for i in range(4)])
    assert narrow.shape[1] == 1280
    big = [_panel(300, 300, i) for i in range(4)]
    img, layout = compose([(_panel(200, 100, 9), "Reference")], big)
    assert img.shape[1] == 4 * 300 + 3 * GAP + 2 * PAD
    assert [b[2:] for b in layout["options"]] == [[300, 300]] * 4
    assert img.shape[0] == height(100, 300)
    # a panel no arrangement fits at its own size is shrunk to the widest composite
    huge, layout = compose([(_panel(2100, 100, 9), "Reference")])
    assert huge.shape[1] == MAX_WIDTH and layout["reference"][0][2] < 2100


def test_compose_is_deterministic() -> None:
    refs = [(_panel(300, 200, 3), "Reference")]
    a, la = compose(refs, [_panel(200, 200, i) for i in range(4)], title="T")
    b, lb = compose(refs, [_panel(200, 200, i) for i in range(4)], title="T")
    assert la == lb and a.tobytes() == b.tobytes()


# ---------------------------------------------------------------- drawings and PNG


def test_draw_shapes_hole_is_background() -> None:
    ring = box(-2, -2, 2, 2).difference(box(-1, -1, 1, 1))
    img = draw_shapes([ring], (400, 400), fill=(170, 200, 235))
    assert tuple(img[200, 200]) == WHITE  # the hole
    assert tuple(img[200, 200 + 130]) == (170, 200, 235)  # inside the ring
    assert tuple(img[5, 5]) == WHITE  # outside
    assert is_dark(img[200, 200 + 92])  # the hole's outline (hole edge at 92 px)


def test_draw_shapes_flip_y() -> None:
    shape = box(0, 0, 1, 1).union(box(0, 1, 0.2, 2))  # a square with a bar on its left
    up = draw_shapes([shape], (200, 200), fill=(0, 0, 255), width=0)
    down = draw_shapes([shape], (200, 200), fill=(0, 0, 255), width=0, flip_y=False)
    # y up: the square is at the bottom and the bar rises above it on the left
    assert up[40, 130, 0] == 255 and up[160, 130, 0] == 0 and up[40, 65, 0] == 0
    assert down[40, 130, 0] == 0 and down[160, 130, 0] == 255 and down[160, 65, 0] == 0


def test_draw_polylines_dashed_and_solid() -> None:
    lines = [np.array([[0, 0], [10, 0]], dtype=float), np.array([[0, 5], [10, 5]], dtype=float)]
    img = draw_polylines(lines, [False, True], (400, 200), margin=20)
    solid_row = img[180, 45:355].max(axis=1)
    dashed_row = img[20, 45:355].max(axis=1)
    assert np.all(solid_row < 100)
    assert np.any(dashed_row == 255) and np.count_nonzero(dashed_row < 100) > 150
    with pytest.raises(ValueError):
        draw_polylines(lines, [True])


def test_grey_polylines_are_each_channel_of_a_colour_drawing() -> None:
    """Grey on grey is drawn in one channel and copied: each channel is what the drawing in
    colour draws in a channel of the same values (the blend is per channel)."""
    rng = np.random.default_rng(5)
    for _ in range(60):
        lines = [np.cumsum(rng.normal(size=(int(rng.integers(2, 12)), 2)), axis=0)
                 for _ in range(int(rng.integers(1, 25)))]
        dashed = rng.random(len(lines)) < 0.4
        size = (int(rng.integers(60, 300)), int(rng.integers(60, 300)))
        width = int(rng.integers(1, 4))
        ink, paper = int(rng.integers(0, 120)), int(rng.integers(130, 256))
        grey = draw_polylines(lines, dashed, size, color=(ink, ink, ink),
                              background=(paper, paper, paper), width=width, dash=(9.0, 5.0))
        colour = draw_polylines(lines, dashed, size, color=(ink, ink, 255 - ink),
                                background=(paper, paper, 17), width=width, dash=(9.0, 5.0))
        assert grey.shape == colour.shape and grey.dtype == np.uint8
        for channel in range(3):
            assert np.array_equal(grey[:, :, channel], colour[:, :, 0])
        assert np.array_equal(colour[:, :, 1], colour[:, :, 0])
    assert np.all(draw_polylines([], None, (30, 20)) == 255)
    assert draw_polylines([], None, (30, 20)).shape == (20, 30, 3)


def test_dashes_run_along_a_finely_discretized_curve() -> None:
    """A hidden circle made of 400 short pieces still shows gaps (dashes span pieces)."""
    t = np.linspace(0.0, 2.0 * np.pi, 401)
    circle = np.stack([np.cos(t), np.sin(t)], axis=1)
    img = draw_polylines([circle], [True], (300, 300), margin=20, width=2)
    yy, xx = np.mgrid[:300, :300]
    ring = np.abs(np.hypot(xx - 149.5, yy - 149.5) - 130) < 1.0
    dark = img.max(axis=2) < 128
    covered = np.count_nonzero(dark & ring) / np.count_nonzero(ring)
    assert 0.45 < covered < 0.8  # on 10 px, off 6 px: about 62% of the ring is inked


def test_dash_ends_are_interpolated_exactly_as_numpy_does() -> None:
    """The compiled dashing interpolates dash ends bit for bit as np.interp (drawings keep
    their bytes), also at repeated arc lengths (zero-length steps) and the ends."""
    rng = np.random.default_rng(3)
    for _ in range(300):
        xp = np.cumsum(np.where(rng.random(12) < 0.3, 0.0, rng.uniform(0.0, 5.0, 12)))
        fp = rng.normal(size=12) * 100.0
        xs = np.concatenate([rng.uniform(xp[0] - 1.0, xp[-1] + 1.0, 20), xp])
        for x in xs:
            assert _interp(float(x), xp, fp) == np.interp(x, xp, fp)


def test_text_panel_wraps_and_is_deterministic() -> None:
    text = "How many cubes are needed at least to build the stack shown in the three views?"
    a = text_panel(text, (300, 140))
    assert a.shape == (140, 300, 3)
    assert a.tobytes() == text_panel(text, (300, 140)).tobytes()
    dark_rows = np.flatnonzero((a.max(axis=2) < 100).any(axis=1))
    assert dark_rows.max() - dark_rows.min() > 60  # several lines
    assert not (a[:, :8].max(axis=2) < 100).any()  # left margin kept


def test_png_round_trip(tmp_path) -> None:
    img = _panel(37, 21, 5)
    data = encode_png(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data == encode_png(img.copy())
    assert np.array_equal(decode_png(data), img)
    path = tmp_path / "x.png"
    path.write_bytes(data)
    assert np.array_equal(decode_png(path), img)
    assert np.array_equal(decode_png(str(path)), img)
    with pytest.raises(ValueError):
        encode_png(img.astype(np.float32))


def test_plain_images_are_one_colour() -> None:
    from spatialcad.render.pixels import plain

    for colour in ((255, 255, 255), (0, 0, 0), (12, 200, 7)):
        img = plain(5, 3, colour)
        assert img.shape == (3, 5, 3) and img.dtype == np.uint8
        assert np.array_equal(img.reshape(-1, 3), np.tile(colour, (15, 1)))


def test_drawn_shapes_are_remembered_as_copies() -> None:
    """A second drawing of the same shapes with the same settings comes from memory, as a
    copy the caller may paint on; other shapes or settings are drawn anew."""
    raster.forget()
    made = []
    original = drawing._drawn_shapes

    def counted(*args: object) -> np.ndarray:
        made.append(args[0])
        return original(*args)

    drawing._drawn_shapes = counted
    try:
        square, wide = box(0, 0, 1, 1), box(0, 0, 2, 1)
        first = drawing.draw_shapes([square], (80, 80))
        first[:] = 0  # the caller's copy: the remembered image stays as drawn
        again = drawing.draw_shapes([shapely.from_wkt(square.wkt)], (80, 80))
        assert len(made) == 1 and again.min() < 255 and again.max() == 255  # drawn, not 0
        assert not np.array_equal(drawing.draw_shapes([wide], (80, 80)), again)
        drawing.draw_shapes([square], (80, 80), fill=None)
        drawing.draw_shapes([square], (90, 80))
        assert len(made) == 4
        raster.forget()
        assert np.array_equal(drawing.draw_shapes([square], (80, 80)), again) and len(made) == 5
    finally:
        drawing._drawn_shapes = original
        raster.forget()


def test_a_frozen_mesh_keeps_the_digest_of_its_arrays():
    """A frozen mesh's arrays cannot change, so its content key is worked out once; it is
    the key the same arrays give unfrozen, and any change of content changes the key."""
    cubes = [(0, 0, 0), (1, 0, 0), (1, 1, 0)]
    frozen = mesh_module.voxel_mesh(cubes)
    loose = Mesh(frozen.vertices.copy(), frozen.triangles.copy(), frozen.face_colors.copy(),
                 frozen.edges.copy(), frozen.one_sided.copy())
    assert not frozen.vertices.flags.writeable and loose.vertices.flags.writeable
    assert frozen.content_key() == loose.content_key()
    loose.one_sided[0] = False
    assert loose.content_key() != frozen.content_key()
    loose.one_sided[0] = True
    loose.face_colors[0] = (1, 2, 3)
    assert loose.content_key() != frozen.content_key()
    with pytest.raises(ValueError):
        frozen.face_colors[0] = (1, 2, 3)
