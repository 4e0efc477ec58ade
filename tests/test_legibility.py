"""Legibility: cube sizes in the composite, cubes that tell a wrong option from a rotation
showing in its picture, and the verifiers refusing items that break either."""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest
from conftest import generated_items

from spatialcad.geometry.rotations import proper_rotations
from spatialcad.render import legibility
from spatialcad.render.camera import camera, orbit
from spatialcad.render.layout import MAX_WIDTH, compose
from spatialcad.render.stacks import common_isometric_framing
from spatialcad.run.verification import run_verifier

ISO = camera("isometric")
BLOCK = [tuple(v) for v in itertools.product(range(3), repeat=3)]


@pytest.fixture(scope="module")
def rotation_items():
    return list(generated_items("rotation_3d", (0, 1, 2, 3), 2, seed=7))


def _edge_in_composite(record):
    spec = record["spec"]
    framing = common_isometric_framing([spec["voxels"], *spec["option_voxels"]],
                                       tuple(spec["panel"]))
    boxes = [*record["layout"]["reference"], *record["layout"]["options"]]
    return min(legibility.cube_edge_px(ISO, framing.scale,
                                       legibility.shown_factor(b, spec["panel"])) for b in boxes)


def test_edge_factor_of_standard_and_orbit_views():
    assert legibility.edge_factor(ISO) == pytest.approx(np.sqrt(2 / 3))
    assert legibility.edge_factor(camera("front")) == pytest.approx(1.0)  # y edges end on
    # from the front 30 degrees up: depth (y) edges shrink to sin 30, vertical ones to cos 30
    assert legibility.edge_factor(orbit(0.0, 30.0)) == pytest.approx(0.5)


def test_grown_panel_draws_at_the_needed_scale():
    stacks = [BLOCK, [(x, 0, 0) for x in range(9)]]
    small = common_isometric_framing(stacks, (290, 290)).scale
    need = legibility.min_scale(ISO)
    side = legibility.grown_side(290, small, need)
    assert side > 290
    assert common_isometric_framing(stacks, (side, side)).scale >= need
    assert common_isometric_framing(stacks, (side - 1, side - 1)).scale < need


def test_rotation_3d_cubes_are_legible_in_every_composite(rotation_items):
    for record, image in rotation_items:
        assert _edge_in_composite(record) >= legibility.MIN_CUBE_EDGE_PX - 1e-6
        assert max(image.shape[:2]) <= MAX_WIDTH
        assert run_verifier(record, image) == []


def test_measured_cube_size_matches_the_pixels(rotation_items):
    """The stack's drawn width in the composite is its projected width times the scale
    the edge measure uses (to within the outline's width: 1.5 % here)."""
    record, image = rotation_items[-1]
    spec = record["spec"]
    framing = common_isometric_framing([spec["voxels"], *spec["option_voxels"]],
                                       tuple(spec["panel"]))
    x, y, w, h = record["layout"]["reference"][0]
    ink = np.any(image[y:y + h, x:x + w] < 250, axis=2)
    cols = np.flatnonzero(ink.any(axis=0))
    corners = np.array([np.add(v, c) for v in spec["voxels"]
                        for c in itertools.product((0, 1), repeat=3)])
    u = ISO.project(corners)[:, 0]
    drawn = cols[-1] - cols[0] + 1  # the 2 px anti-aliased outline adds 0-2 px each side
    assert 0 <= drawn - (u.max() - u.min()) * framing.scale <= 5


def test_verifier_refuses_small_cubes(rotation_items):
    """The same item composed into a narrower image (its rows shrunk, every picture still
    the drawing of its voxels) fails only the legibility check."""
    record, image = rotation_items[0]
    refs = len(record["layout"]["reference"])
    crops = [image[y:y + h, x:x + w] for x, y, w, h in
             [*record["layout"]["reference"], *record["layout"]["options"]]]
    small, layout = compose([(c, "Reference stack") for c in crops[:refs]], crops[refs:],
                            width=700)
    assert legibility.shown_factor(layout["options"][0], record["spec"]["panel"]) < 0.6
    failures = run_verifier({**record, "layout": layout}, small)
    assert failures and all("edges are" in f for f in failures)
    assert len(failures) == 4  # the four options (the two references still fit)


def test_alignments_are_the_best_overlapping_turned_and_moved_copies():
    """Brute force: every rotation and every shift bringing a reference cube onto an option
    cube, kept when its overlap is within one cube of the best, in the order of rotations
    and then of shifts."""
    rng = np.random.default_rng(12)
    for _ in range(40):
        option = sorted({tuple(int(c) for c in v) for v in rng.integers(-2, 4, (7, 3))})
        reference = sorted({tuple(int(c) for c in v) for v in rng.integers(0, 3, (6, 3))})
        copies = []
        for m in proper_rotations():
            turned = [tuple(int(c) for c in np.asarray(m) @ v) for v in reference]
            for shift in sorted({tuple(np.subtract(a, t)) for a in option for t in turned}):
                copy = {tuple(int(c) for c in np.add(t, shift)) for t in turned}
                copies.append((len(copy & set(option)), copy))
        best = max(n for n, _ in copies)
        expected = [(set(option) - c, c - set(option)) for n, c in copies if n >= best - 1]
        assert legibility.alignments(option, reference, proper_rotations()) == expected


def test_a_difference_only_in_a_hidden_cube_is_found():
    """The 3x3x3 block without its back-left-bottom cube looks like the block from the
    front-right above; without its front-right-top corner it does not."""
    hidden = [v for v in BLOCK if v != (0, 2, 0)]
    seen = [v for v in BLOCK if v != (2, 0, 2)]
    scale = legibility.min_scale(ISO)
    assert legibility.hidden_difference(hidden, BLOCK, proper_rotations(), [(ISO, scale)])
    assert not legibility.hidden_difference(seen, BLOCK, proper_rotations(), [(ISO, scale)])
    assert not legibility.gap_shows(hidden, (0, 2, 0), ISO, scale)
    assert legibility.gap_shows(seen, (2, 0, 2), ISO, scale)


def test_rotation_3d_verifier_refuses_a_wrong_option_with_a_hidden_difference(rotation_items):
    record, image = next(r for r in rotation_items if r[0]["spec"]["question"] == "cannot")
    wrong = next(o for o in record["options"] if o["operator"] != "rotation")
    tampered = copy.deepcopy(record)
    tampered["spec"]["voxels"] = [list(v) for v in BLOCK]
    option = next(o for o in tampered["options"] if o["letter"] == wrong["letter"])
    option["data"]["voxels"] = [list(v) for v in BLOCK if v != (0, 2, 0)]
    failures = run_verifier(tampered, image)
    assert any(f"option {wrong['letter']} differs" in f and "does not show" in f
               for f in failures)
    assert not any("does not show" in f for f in run_verifier(record, image))


def _shrunk(record, image, width):
    """The item composed again from its own panels into a composite ``width`` px wide."""
    layout = record["layout"]
    crops = [[image[y:y + h, x:x + w] for x, y, w, h in layout[k]]
             for k in ("reference", "options")]
    small, new = compose([(c, "view") for c in crops[0]], crops[1] or None, width=width)
    return {**record, "layout": new}, small


@pytest.mark.parametrize(("task", "levels"), [("cube_counting", (0, 2, 3)),
                                              ("three_view", (0,))])
def test_orthographic_views_have_legible_cells(task, levels):
    """Read from the pixels: every view's cells are >= 32 px, and a composite that shrinks
    them fails the verifier."""
    from spatialcad.render.gridread import read_grid
    items = list(generated_items(task, levels, 2, seed=5))
    for record, image in items:
        for box in [*record["layout"]["reference"][:3 if task == "cube_counting" else 0],
                    *record["layout"]["options"]]:
            x, y, w, h = box
            grid = read_grid(image[y:y + h, x:x + w])
            assert legibility.grid_failures("view", box, grid.shape) == []
            assert (w - 2 * 12) / grid.shape[1] >= legibility.MIN_CUBE_EDGE_PX
    record, image = items[-1]
    small, composite = _shrunk(record, image, 400)
    assert any("px wide, fewer than 32" in f for f in run_verifier(small, composite))


def test_cube_assembly_cubes_are_legible():
    from spatialcad.render.piece_pictures import (
        option_framings,
        picture_size,
        reference_framings,
        view_size,
    )
    items = list(generated_items("cube_assembly", (0, 3), 1, seed=5))
    for record, image in items:
        space, k = record["spec"]["space"], record["spec"]["pieces"]
        for box in record["layout"]["reference"]:
            assert box[2:] == list(picture_size(view_size(space)))
        for box in record["layout"]["options"]:
            assert box[2:] == list(picture_size(option_framings(space, k)[0].size))
        for f in [*reference_framings(space), *option_framings(space, k)]:
            assert legibility.cube_edge_px(f.cam, f.scale) >= legibility.MIN_CUBE_EDGE_PX
        assert max(image.shape[:2]) <= MAX_WIDTH
    small, composite = _shrunk(*items[-1], 700)
    assert any("edges are" in f for f in run_verifier(small, composite))


@pytest.mark.parametrize("task", ["cube_unfolding", "cube_reconstruction"])
def test_dots_are_legible(task):
    """Dotted faces (levels 2 and 3: 3x3 and 4x4 grids) have dots >= 10 px on nets and
    in corner views; a record claiming smaller net cells fails on its dots."""
    for record, image in generated_items(task, (2, 3), 1, seed=5):
        spec = record["spec"]
        grid = len(spec["faces"]["faces"][0])
        cells = [o["data"]["drawing"]["cell"] for o in record["options"]
                 if "cell" in o["data"].get("drawing", {})]
        cells += [spec["net_drawing"]["cell"]] if "net_drawing" in spec else []
        scales = [o["data"]["drawing"]["scale"] for o in record["options"]
                  if "scale" in o["data"].get("drawing", {})]
        scales += [spec["view_drawing"]["scale"]] if "view_drawing" in spec else []
        assert cells and scales
        assert min(legibility.net_dot_px(c, grid) for c in cells) >= legibility.MIN_DOT_PX
        assert min(legibility.view_dot_px(s, grid) for s in scales) >= legibility.MIN_DOT_PX
        assert run_verifier(record, image) == []
    tampered = copy.deepcopy(record)
    drawing = (tampered["spec"]["net_drawing"] if "net_drawing" in tampered["spec"]
               else tampered["options"][0]["data"]["drawing"])
    drawing["cell"] = 40
    assert any("dots are" in f for f in run_verifier(tampered, image))


def test_block_moving_panels_grow_with_the_space():
    from spatialcad.render.axes import framing_beside_axes
    from spatialcad.render.block_views import PANEL, VIEWS, panel
    from spatialcad.tasks.block_moving import TASK
    from spatialcad.tasks.block_moving.generate import Generator
    assert panel([3, 3, 2]) == PANEL  # small spaces keep the usual panel
    top = TASK.max_level
    assert top is not None
    for level in (4, top):  # the four state pictures (text options) fit up to the last level
        space = Generator().params(level)["space"]
        size = panel(space)
        assert size[0] > PANEL[0] and legibility.fits(size[0], 0, size[1], references=4)
        for cam in VIEWS.values():
            scale = framing_beside_axes(cam, space, size).scale
            assert legibility.cube_edge_px(cam, scale) >= legibility.MIN_CUBE_EDGE_PX
    size = panel(Generator().params(top + 1)["space"])  # 474 x 441: fits no composite
    assert not legibility.fits(size[0], 0, size[1], references=4)
    record, image = next(generated_items("block_moving", (4,), 1, seed=5))
    assert run_verifier(record, image) == []
    small, composite = _shrunk(record, image, 900)
    assert any("edges are" in f for f in run_verifier(small, composite))


def test_cube_assembly_verifier_refuses_a_wrong_piece_with_a_hidden_difference():
    """A wrong option that is the missing piece without a cube its pictures would not show
    (tampered record) fails; the generated items pass."""
    from spatialcad.render.piece_pictures import option_framings
    record, image = next(generated_items("cube_assembly", (0,), 1, seed=5))
    assert not any("do not show" in f for f in run_verifier(record, image))
    views = [(f.cam, f.scale) for f in option_framings([3, 3, 3], 2)]
    block = [list(v) for v in BLOCK]
    centre = [v for v in block if v != [1, 1, 1]]  # the hidden centre cube removed
    assert legibility.hidden_difference(centre, BLOCK, [np.eye(3, dtype=int)], views)
    tampered = copy.deepcopy(record)
    spec = tampered["spec"]
    spec["space"], spec["voxels"] = [3, 3, 3], block
    spec["parts"] = [[]] * (spec["pieces"] - 1)  # the whole block is the missing piece
    wrong = next(o for o in tampered["options"] if not o["is_answer"])
    wrong["data"]["voxels"] = centre
    failures = run_verifier(tampered, image)
    assert any(f"option {wrong['letter']} differs from the missing piece only" in f
               for f in failures)
