"""Cube nets: the 11 layouts, folding (checked against the verifier's rolling), unfolding,
corner views and face pictures."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry import face_patterns as fp
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.verify.cube_rolling import quarter_turned, roll, shows


def hexominoes() -> set[tuple]:
    """All free hexominoes, grown cell by cell."""
    shapes = {((0, 0),)}
    for _ in range(5):
        shapes = {
            cn.shape_key([*s, (r + dr, c + dc)])
            for s in shapes for r, c in s for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
            if (r + dr, c + dc) not in s
        }
    return shapes


def test_exactly_the_eleven_nets_fold_into_cubes():
    shapes = hexominoes()
    assert len(shapes) == 35
    nets = {s for s in shapes if cn.is_net(s)}
    assert nets == {cn.shape_key(c) for c in cn.NETS.values()}
    assert len(nets) == 11


@pytest.mark.parametrize("name", list(cn.NETS))
def test_every_face_has_exactly_one_opposite(name):
    frames = cn.fold(cn.NETS[name])
    normals = [f.normal for f in frames.values()]
    for n in normals:
        assert normals.count(cn.opposite(n)) == 1
        assert normals.count(n) == 1


def test_cross_centre_is_opposite_the_cell_two_below():
    cross = [(1, 1), (0, 1), (1, 0), (1, 2), (2, 1), (3, 1)]
    frames = cn.fold(cross)
    assert frames[(1, 1)].normal == (0, 0, 1)
    assert frames[(3, 1)].normal == (0, 0, -1)
    assert frames[(1, 0)].normal == cn.opposite(frames[(1, 2)].normal)
    assert frames[(0, 1)].normal == cn.opposite(frames[(2, 1)].normal)


def test_hinges_by_hand():
    frames = cn.fold([(0, 0), (0, 1), (1, 0)])  # not a net: only the hinges matter
    assert frames[(0, 1)] == cn.Frame((1, 0, 0), (0, 1, 0))  # right: the right face
    assert frames[(1, 0)] == cn.Frame((0, -1, 0), (0, 0, 1))  # below: front, up to the top


@pytest.mark.parametrize("name", list(cn.NETS))
def test_hinge_folding_agrees_with_rolling(name):
    for quarter in range(4):
        for flip in (False, True):
            cells = cn.layout_turned(cn.NETS[name], quarter, flip)
            frames = cn.fold(cells)
            rolled = roll([(r, c, np.array([[r * 10 + c]])) for r, c in cells])
            for (r, c), f in frames.items():
                pic, right, up = rolled[f.normal]
                assert pic[0, 0] == r * 10 + c
                assert tuple(up) == f.up and tuple(right) == f.right


def test_fold_unfold_round_trip():
    rng = np.random.default_rng(1)
    faces = fp.glyph_faces(rng)
    for name, cells in cn.NETS.items():
        cube = cn.random_cube(rng)
        pose = proper_rotations()[int(rng.integers(24))]
        net = cn.unfold(cube, cells, pose)
        assert cn.fold_net(net) == cn.posed(cube, pose), name
        again = cn.unfold(cn.fold_net(net), cells, np.eye(3, dtype=int))
        assert again == net
        views = [cn.corner_view(cube, faces.grids, m) for m in proper_rotations()]
        assert cn.possible_poses(cn.fold_net(net), faces.grids, views[5])


def test_views_are_the_24_poses_and_mirrors_are_not():
    rng = np.random.default_rng(2)
    faces = fp.glyph_faces(rng)
    cube = cn.random_cube(rng)
    net = cn.unfold(cube, cn.NETS["2-2-2"], np.eye(3, dtype=int))
    rolled = roll([(c.row, c.col, fp.turned(faces.grids[c.face], c.turns)) for c in net])
    for i, m in enumerate(proper_rotations()):
        view = cn.corner_view(cube, faces.grids, m)
        assert cn.possible_poses(cube, faces.grids, view) == [i]
        assert shows(rolled, view)
        mirrored = cn.corner_view(cube, faces.grids, m @ cn.MIRROR)
        assert not cn.possible_poses(cube, faces.grids, mirrored)
        assert not shows(rolled, mirrored)


def test_pose_search_stops_early_but_agrees_with_whole_views():
    """possible_poses and shows compare a pose's faces one at a time; they find the poses
    whose whole three-face view equals the given one, also for views that match a pose in
    one or two faces only, and for solid faces (several poses show one view)."""
    rng = np.random.default_rng(5)
    for faces in (fp.glyph_faces(rng), fp.solid_faces(rng)):
        cube = cn.random_cube(rng)
        net = cn.unfold(cube, cn.NETS["1-4-1-2"], np.eye(3, dtype=int))
        rolled = roll([(c.row, c.col, fp.turned(faces.grids[c.face], c.turns)) for c in net])
        views = [cn.corner_view(cube, faces.grids, m) for m in proper_rotations()]
        for k in range(24):
            view = dict(views[k])
            for name in list(cn.VIEW_FACES)[: int(rng.integers(4))]:
                view[name] = fp.turned(view[name], int(rng.integers(1, 4)))
            whole = [i for i, v in enumerate(views)
                     if all(np.array_equal(v[n], view[n]) for n in cn.VIEW_FACES)]
            assert cn.possible_poses(cube, faces.grids, view) == whole
            assert shows(rolled, view) == bool(whole)


def test_quarter_turned_is_rot90():
    pic = np.arange(12).reshape(3, 4)
    for k in range(4):
        turned = quarter_turned(pic, k)
        assert turned.shape == np.rot90(pic, k).shape and np.array_equal(turned, np.rot90(pic, k))


def test_visible_faces_meet_at_a_corner():
    for m in proper_rotations():
        a, b, c = cn.visible_normals(m).values()
        assert cn.dot(a, b) == cn.dot(b, c) == cn.dot(a, c) == 0


def test_transfer_turns_and_mirrors():
    g = np.arange(16).reshape(4, 4)
    x, y, z = (1, 0, 0), (0, 1, 0), (0, 0, 1)
    up = y
    for k in range(4):
        assert np.array_equal(cn.transfer(g, cn.cross(up, z), up, x, y), np.rot90(g, k))
        up = cn.cross(z, up)
    assert np.array_equal(cn.transfer(g, cn.neg(x), y, x, y), np.fliplr(g))


def test_transfer_equals_the_cell_by_cell_definition():
    """Every frame of a plane to every other, odd and even sizes: the cell centre's
    coordinates in the new frame, read in the old one, name the source cell."""
    x, y = (1, 0, 0), (0, 1, 0)
    frames = [(r, u) for r in (x, cn.neg(x), y, cn.neg(y)) for u in (x, cn.neg(x), y, cn.neg(y))
              if cn.dot(r, u) == 0]
    assert len(frames) == 8
    for n in (3, 4, 5, 8):
        g = np.arange(n * n * 2).reshape(n, n, 2)
        for (right, up), (to_right, to_up) in product(frames, frames):
            want = np.empty_like(g)
            for i, j in product(range(n), range(n)):
                a, b = 2 * j - (n - 1), (n - 1) - 2 * i
                p = tuple(a * s + b * t for s, t in zip(to_right, to_up, strict=True))
                want[i, j] = g[((n - 1) - cn.dot(p, up)) // 2, (cn.dot(p, right) + n - 1) // 2]
            assert np.array_equal(cn.transfer(g, right, up, to_right, to_up), want)


def test_face_pictures():
    for rows in fp.GLYPHS.values():
        glyph = np.array([[ch == "#" for ch in row] for row in rows]).astype(int)
        assert len({fp.key(im) for im in fp.images(glyph)}) == 8
    rng = np.random.default_rng(3)
    for faces in (fp.solid_faces(rng), fp.glyph_faces(rng), fp.dot_faces(rng, 3, 3, 0.55)):
        assert fp.pairwise_distinct(faces.grids)
        if faces.style != "solid":
            assert all(fp.rotationally_asymmetric(g) for g in faces.grids)
