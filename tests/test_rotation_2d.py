"""2DRotation: grid model, exact drawing equivariance, verifier proofs, CLI end to end."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from spatialcad.geometry import grid2d as G
from spatialcad.pipeline import make_item
from spatialcad.records import assemble
from spatialcad.render.grid2d import draw_grid
from spatialcad.render.png import decode_png
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.rotation_2d import Rotation2D, _check_distinct, _reflect
from spatialcad.verify import run_verifier
from spatialcad.verify.rotation_2d import Drawing


def _grid(colours, marker="tl", patterns=None, turns=None, flips=None) -> G.Grid:
    colours = np.array(colours)
    zero = np.zeros_like(colours)
    return G.Grid(colours, zero if patterns is None else np.array(patterns),
                  zero if turns is None else np.array(turns),
                  zero if flips is None else np.array(flips), marker)


def _item(level: int, index: int):
    result = make_item("rotation_2d", level, index, 20, 11)
    return result.record, decode_png(result.png)


def _random_transform(grid: G.Grid, rng: np.random.Generator) -> G.Grid:
    for _ in range(int(rng.integers(1, 4))):
        grid = (G.mirror(grid, str(rng.choice(["lr", "ud"]))) if rng.random() < 0.4
                else G.rotate(grid, int(rng.integers(1, 4))))
    return grid


def test_hand_checked_turn_and_mirrors():
    g = _grid([[1, 2, 3], [4, 5, 0]], marker="tl")
    turned = G.rotate(g, 1)  # counter-clockwise: the right column becomes the top row
    assert turned.colours.tolist() == [[3, 0], [2, 5], [1, 4]] and turned.marker == "bl"
    assert G.rotate(g, 3).marker == "tr" and G.rotate(g, 2).marker == "br"
    lr = G.mirror(g, "lr")
    assert lr.colours.tolist() == [[3, 2, 1], [0, 5, 4]] and lr.marker == "tr"
    assert G.mirror(g, "ud").marker == "bl"
    # an L turned a quarter counter-clockwise, then mirrored left-right: turns -1, flipped
    ell = _grid([[1]], patterns=[[G.PATTERNS.index("l_shape") + 1]])
    assert G.rotate(ell, 1).turns.tolist() == [[1]]
    m = G.mirror(G.rotate(ell, 1), "lr")
    assert (m.turns.tolist(), m.flips.tolist()) == ([[3]], [[1]])


def test_arrow_points_up_and_a_quarter_turn_points_it_left():
    def ink(turns: int) -> np.ndarray:
        arrow = _grid([[0]], patterns=[[G.PATTERNS.index("arrow") + 1]], turns=[[turns]])
        img = draw_grid(arrow, pitch=90)  # 30 px padding, 3 px lines: the cell is 33..119
        return img[33:120, 33:120].sum(axis=2) < 100

    half = 87 // 2
    assert np.argmax(ink(0).sum(axis=1)) < half  # the head's wide base is above the centre
    assert np.argmax(ink(1).sum(axis=0)) < half  # ... and left of it after a quarter turn


def test_drawing_is_exactly_equivariant():
    rng = np.random.default_rng(3)
    for size in (3, 4, 6):
        g = G.random_grid(rng, size, 0.6, size * size // 2)
        img = draw_grid(g)
        for k in range(4):
            assert np.array_equal(draw_grid(G.rotate(g, k)), np.rot90(img, k))
        assert np.array_equal(draw_grid(G.mirror(g, "lr")), img[:, ::-1])
        assert np.array_equal(draw_grid(G.mirror(g, "ud")), img[::-1])


def test_generator_and_verifier_models_agree_on_equal_drawings():
    rng = np.random.default_rng(8)
    agree = {True: 0, False: 0}
    for _ in range(150):
        g = G.random_grid(rng, 2, 0.5, int(rng.integers(0, 3)))
        a, b = _random_transform(g, rng), _random_transform(g, rng)
        same = G.same_drawing(a, b)
        assert same == (Drawing.parse(G.to_json(a)).key() == Drawing.parse(G.to_json(b)).key())
        assert same == np.array_equal(draw_grid(a), draw_grid(b))
        agree[same] += 1
    assert min(agree.values()) > 10


def test_symmetric_grid_mirror_equal_to_a_rotation_is_rejected():
    g = _grid([[1, 2, 3], [2, 4, 5], [3, 5, 1]], marker="tl")  # symmetric about the diagonal
    answer = G.rotate(g, 1)
    mirrors = [G.mirror(g, "lr"), G.mirror(g, "ud"), _reflect(g, "lr", 3)]

    def option(grid: G.Grid, is_answer: bool) -> Option:
        return Option(is_answer, "rotation" if is_answer else "mirror", "", image=draw_grid(grid),
                      data={"grid": G.to_json(grid), "transform": {}})

    options = [option(answer, True)] + [option(m, False) for m in mirrors]
    with pytest.raises(Reject):
        _check_distinct(g, list(zip(options, [answer, *mirrors], strict=True)))
    draft = Draft("q", {"reference": G.to_json(g)}, [Panel(draw_grid(g), "Reference grid")],
                  options)
    record, image = assemble(Rotation2D(), draft, level=0, image_id="0000", letter="B",
                             item_seed=1)
    failures = run_verifier(record, image)
    assert sum("is a distractor but equals the reference turned" in f for f in failures) == 3


@pytest.mark.parametrize("level", [0, 1, 2])
def test_every_distractor_swapped_in_as_answer_fails(level):
    operators = set()
    for index in range(2):
        record, image = _item(level, index)
        assert run_verifier(record, image) == []
        for o in record["options"]:
            if o["is_answer"]:
                continue
            operators.add(o["operator"])
            bad = copy.deepcopy(record)
            for b in bad["options"]:
                b["is_answer"] = b["letter"] == o["letter"]
            bad["Answer"] = o["letter"]
            assert run_verifier(bad, image), (level, index, o["operator"])
    expected = {0: {"mirror"}, 1: {"mirror", "unturned_patterns"},
                2: {"mirror", "unturned_patterns", "patterns_turned_back"}}[level]
    assert operators == expected


def test_option_data_must_match_its_picture():
    record, image = _item(1, 0)
    bad = copy.deepcopy(record)
    answer = next(o for o in bad["options"] if o["is_answer"])
    grid = answer["data"]["grid"]
    r, c = next((r, c) for r, row in enumerate(grid["patterns"]) for c, p in enumerate(row) if p)
    grid["turns"][r][c] = (grid["turns"][r][c] + 2) % 4
    failures = run_verifier(bad, image)
    assert any("not the drawing of its grid" in f for f in failures)


def test_same_seed_same_item():
    a, b = make_item("rotation_2d", 1, 3, 5, 2), make_item("rotation_2d", 1, 3, 5, 2)
    assert a.png == b.png and a.record == b.record


@pytest.mark.parametrize("level", [0, 1, 2])
def test_cli(spatialcad, tmp_path, level):
    out = tmp_path / "b"
    code, _, err = spatialcad("generate", "--task", "rotation_2d", "--level", level, "--n", 3,
                              "--out", out)
    assert code == 0, err
    assert spatialcad("verify", out)[0] == 0
