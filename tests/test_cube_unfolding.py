"""CubeUnfolding: a hand-checked fold, every distractor kind rejected as the answer, the
image read back, the typed spec read and written back, and the texts proved."""

from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np
from conftest import check_distractors, generated_items

from spatialcad.geometry import cube_nets as cn
from spatialcad.run.verification import run_verifier
from spatialcad.tasks.cube_unfolding.spec import parse_spec, texts
from spatialcad.verify.cube_rolling import roll, shows

# the cross: green in the centre, yellow above, purple below, blue right, brown and cyan left
CROSS = [(1, 2, "green"), (0, 2, "yellow"), (2, 2, "purple"), (1, 3, "blue"),
         (1, 1, "brown"), (1, 0, "cyan")]


def _view(top: str, front: str, right: str) -> dict[str, np.ndarray]:
    names = [c for _, _, c in CROSS]
    return {k: np.array([[names.index(c)]]) for k, c in
            (("top", top), ("front", front), ("right", right))}


def test_hand_checked_cross():
    """Folded away from the viewer, green (front), blue (right) and purple (bottom) meet
    at a corner; seen from outside the order is purple, blue, green counter-clockwise."""
    net = [cn.NetCell(r, c, i, 0) for i, (r, c, _) in enumerate(CROSS)]
    cube = cn.fold_net(net)
    grids = [np.array([[i]]) for i in range(6)]
    rolled = roll([(r, c, np.array([[i]])) for i, (r, c, _) in enumerate(CROSS)])
    for view, possible in ((_view("purple", "blue", "green"), True),
                           (_view("blue", "green", "purple"), True),
                           (_view("purple", "green", "blue"), False),
                           (_view("purple", "blue", "yellow"), False),
                           (_view("purple", "blue", "brown"), False)):
        assert bool(cn.possible_poses(cube, grids, view)) == possible
        assert shows(rolled, view) == possible


def test_each_distractor_fails_as_the_answer():
    kinds = check_distractors("cube_unfolding", (0, 1, 2), 4)
    assert kinds == {"same_cube", "hidden_shuffled", "swap_visible", "swap_opposite", "rotated"}


def test_image_must_show_the_data():
    record, image = next(generated_items("cube_unfolding", (1,), 1))
    bad = copy.deepcopy(record)
    bad["options"][0]["data"]["cells"][2][3] += 1  # a cell's picture turned, image unchanged
    assert any("do not show" in f for f in run_verifier(bad, image))
    bad = copy.deepcopy(record)
    bad["spec"]["view"]["top"] = np.rot90(bad["spec"]["view"]["top"]).tolist()
    assert any("the cube" in f for f in run_verifier(bad, image))


def test_the_texts_are_proved():
    record, image = next(generated_items("cube_unfolding", (1,), 1))
    spec = parse_spec(record["spec"])
    other = {"can": "cannot", "cannot": "can"}[spec.question]
    bad = copy.deepcopy(record)
    bad["Question"] = texts(replace(spec, question=other), []).question
    assert bad["Question"] != record["Question"]
    assert "its Question is not the text its spec gives" in run_verifier(bad, image)
    bad = copy.deepcopy(record)
    bad["Choices"][1] = "Image E"
    assert any(f.startswith("its Choices") for f in run_verifier(bad, image))
    bad = copy.deepcopy(record)
    bad["spec"]["question"] = "could"
    assert any("malformed" in f for f in run_verifier(bad, image))
