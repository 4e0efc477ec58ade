"""CubeReconstruction: opposite faces by hand, every distractor kind rejected as the
answer, a symmetric cube whose mirrored views are possible, the typed spec read and written
back, and the texts proved."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

import numpy as np
import pytest
from conftest import check_distractors, generated_items, with_answer

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.render.png import decode_png
from spatialcad.run.pipeline import make_item
from spatialcad.run.verification import run_verifier
from spatialcad.tasks.cube_reconstruction.spec import (
    NONE_OF_THEM,
    OPPOSITE,
    VIEW,
    parse_option,
    parse_spec,
    texts,
)
from spatialcad.verify.cube_rolling import roll, shows


def test_opposite_faces_of_the_staircase_by_hand():
    # 2-2-2: cells 0 and 3, 1 and 4, 2 and 5 (in reading order) are opposite
    rolled = roll([(r, c, np.array([[i]])) for i, (r, c) in enumerate(cn.NETS["2-2-2"])])
    opposite = {int(pic[0, 0]): int(rolled[tuple(-np.array(n))][0][0, 0])
                for n, (pic, _, _) in rolled.items()}
    assert opposite == {0: 3, 3: 0, 1: 4, 4: 1, 2: 5, 5: 2}


def test_each_distractor_fails_as_the_answer():
    kinds = check_distractors("cube_reconstruction", (0, 1, 2), 4)
    assert {"adjacent", "mirror", "turned_face", "opposite_pair"} <= kinds


@pytest.fixture(scope="module")
def opposite_item():
    """A level-0 item asking for the opposite colour, with a "none of them" option:
    (record, image)."""
    for i in range(8):
        result = make_item("cube_reconstruction", 0, i, 8, 3)
        if result.record["spec"]["question"] == OPPOSITE and NONE_OF_THEM in result.record[
                "Choices"]:
            return result.record, decode_png(result.png)
    raise AssertionError("no such item among 8")


def test_opposite_question_checks_the_texts(opposite_item):
    record, image = opposite_item
    assert run_verifier(record, image) == []
    bad = copy.deepcopy(record)
    bad["spec"]["named"] = record["Choices"][0] if record["options"][0]["data"]["colour"] \
        else record["Choices"][1]
    assert run_verifier(bad, image)
    wrong = next(o["letter"] for o in record["options"] if not o["is_answer"])
    assert run_verifier(with_answer(record, wrong), image)


def _texts_fail(record, image, field: str, text) -> list[str]:
    """The failures of ``record`` with ``field`` replaced by ``text`` (which must differ)."""
    assert record[field] != text
    bad = copy.deepcopy(record)
    bad[field] = text
    return run_verifier(bad, image)


def test_the_opposite_items_texts_are_proved(opposite_item):
    record, image = opposite_item
    spec = parse_spec(record["spec"])
    options = [parse_option(o["data"]) for o in record["options"]]
    view_question = texts(replace(spec, question=VIEW, named=None), options).question
    message = "its {} is not the text its spec gives"
    assert message.format("Question") in _texts_fail(record, image, "Question", view_question)
    other = next(c for c in spec.faces.colour_names if c not in (spec.named,
                                                                 record["Answer_direct"]))
    for field in ("Question", "Question_direct"):
        renamed = record[field].replace(f"the {spec.named} face", f"the {other} face")
        assert message.format(field) in _texts_fail(record, image, field, renamed)
    failures = _texts_fail(record, image, "Answer_direct", other)
    assert message.format("Answer_direct") in failures
    assert any(f"not the {other} one" in f for f in failures)  # the verifier's own fold
    failures = _texts_fail(record, image, "Choices", record["Choices"][::-1])
    assert any(f.startswith("its Choices") for f in failures)


def test_the_view_items_texts_are_proved():
    record, image = next(generated_items("cube_reconstruction", (1,), 1))
    spec = parse_spec(record["spec"])
    assert spec.question == VIEW
    opposite = texts(replace(spec, question=OPPOSITE, named=spec.faces.colour_names[0]), [])
    failures = _texts_fail(record, image, "Question", opposite.question)
    assert "its Question is not the text its spec gives" in failures
    failures = _texts_fail(record, image, "Choices", record["Choices"][::-1])
    assert any(f.startswith("its Choices") for f in failures)


def test_spec_and_option_data_round_trip(opposite_item):
    items = [opposite_item, *generated_items("cube_reconstruction", (0, 1, 2), 2)]
    for record, _ in items:
        assert json.dumps(parse_spec(record["spec"]).to_json()) == json.dumps(record["spec"])
        for o in record["options"]:
            assert json.dumps(parse_option(o["data"]).to_json()) == json.dumps(o["data"])


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


@pytest.mark.parametrize("task", ["cube_reconstruction", "cube_unfolding"])
def test_glyph_faces_are_not_called_letters(task):
    """Level 1's glyphs are block shapes that often do not read as letters (and turn with
    their face): the question must not promise letters."""
    record, _ = next(generated_items(task, (1,), 1))
    assert record["spec"]["faces"]["style"] == "glyph"
    assert "letter" not in record["Question"].lower()
    assert "each with its own black block pattern" in record["Question"]
