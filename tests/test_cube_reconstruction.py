"""CubeReconstruction: opposite faces by hand, every distractor kind rejected as the
answer, a symmetric cube whose mirrored views are possible, and the CLI end to end."""

from __future__ import annotations

import copy

import numpy as np
from conftest import check_distractors, with_answer

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.pipeline import make_item
from spatialcad.render.png import decode_png
from spatialcad.tasks.cube_unfolding.verify import roll, shows
from spatialcad.verification import run_verifier


def test_opposite_faces_of_the_staircase_by_hand():
    # 2-2-2: cells 0 and 3, 1 and 4, 2 and 5 (in reading order) are opposite
    rolled = roll([(r, c, np.array([[i]])) for i, (r, c) in enumerate(cn.NETS["2-2-2"])])
    opposite = {int(pic[0, 0]): int(rolled[tuple(-np.array(n))][0][0, 0])
                for n, (pic, _, _) in rolled.items()}
    assert opposite == {0: 3, 3: 0, 1: 4, 4: 1, 2: 5, 5: 2}


def test_each_distractor_fails_as_the_answer():
    kinds = check_distractors("cube_reconstruction", (0, 1, 2), 4)
    assert {"adjacent", "mirror", "turned_face", "opposite_pair"} <= kinds


def test_opposite_question_checks_the_texts():
    for i in range(8):
        result = make_item("cube_reconstruction", 0, i, 8, 3)
        if result.record["spec"]["question"] == "opposite":
            break
    record, image = result.record, decode_png(result.png)
    assert run_verifier(record, image) == []
    bad = copy.deepcopy(record)
    bad["spec"]["named"] = record["Choices"][0] if record["options"][0]["data"]["colour"] \
        else record["Choices"][1]
    assert run_verifier(bad, image)
    wrong = next(o["letter"] for o in record["options"] if not o["is_answer"])
    assert run_verifier(with_answer(record, wrong), image)


def test_a_mirrored_view_of_a_symmetric_cube_is_possible():
    """Opposite faces of one colour: the cube is its own mirror image, so a mirrored view
    is possible; both derivations must say so (the task rejects such a distractor)."""
    grids = [np.array([[i // 2]]) for i in range(6)]
    cube = {n: (i, next(v for v in cn.NORMALS if cn.dot(v, n) == 0))
            for i, n in enumerate(cn.NORMALS)}  # NORMALS lists opposite faces in pairs
    net = cn.unfold(cube, cn.NETS["3-3"], np.eye(3, dtype=int))
    rolled = roll([(c.row, c.col, np.rot90(grids[c.face], c.turns)) for c in net])
    for m in proper_rotations():
        mirrored = cn.corner_view(cube, grids, m @ cn.MIRROR)
        assert cn.possible_poses(cube, grids, mirrored)
        assert shows(rolled, mirrored)
