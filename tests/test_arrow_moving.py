"""ArrowMoving: the move rules by hand, the verifier's own simulation, the drawings, the CLI."""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest

from spatialcad.evaluate.baselines import image_scores, text_scores
from spatialcad.geometry import arrows as ar
from spatialcad.geometry.colours import ARROW_COLOURS as PALETTE
from spatialcad.pipeline import assemble, make_item
from spatialcad.records import answer_letter
from spatialcad.render.png import decode_png
from spatialcad.render.thumbnails import TIE
from spatialcad.seeding import derive_seed, item_rng
from spatialcad.tasks import registry
from spatialcad.tasks.arrow_moving.generate import _picture
from spatialcad.tasks.arrow_moving.spec import (
    QUESTIONS,
    Move,
    move_text,
)
from spatialcad.tasks.arrow_moving.verify import read_board, simulate
from spatialcad.verification import run_verifier

GRID = (3, 3)
NORTH, EAST, SOUTH, WEST = range(4)


def one(cell, heading, colour="red") -> ar.State:
    return (ar.Arrow(colour, cell, heading),)


def test_forward_on_north_moves_up():
    assert ar.apply(one((1, 0), NORTH), ar.Move("red", "forward", 2), GRID) == one((1, 2), NORTH)


def test_left_turns_the_arrow_west():
    assert ar.apply(one((1, 1), NORTH), ar.Move("red", "left", 1), GRID) == one((0, 1), WEST)


def test_right_and_backward_are_relative_to_the_heading():
    # heading east: right is south, backward is west
    assert ar.apply(one((1, 1), EAST), ar.Move("red", "right", 1), GRID) == one((1, 0), SOUTH)
    assert ar.apply(one((1, 1), EAST), ar.Move("red", "backward", 1), GRID) == one((0, 1), WEST)


def test_moves_off_the_grid_are_invalid():
    assert ar.apply(one((0, 0), NORTH), ar.Move("red", "left", 1), GRID) is None
    assert ar.run(one((0, 0), NORTH), [ar.Move("red", "forward", 2),
                                       ar.Move("red", "forward", 1)], GRID) is None


def test_swap_turns_the_other_arrow_by_its_own_move():
    # red at (0, 0) facing east jumps 2 cells east onto blue (facing north): blue goes west
    # into (0, 0), which is a "left" move for blue, so blue now faces west
    start = (ar.Arrow("blue", (2, 0), NORTH), ar.Arrow("red", (0, 0), EAST))
    after = ar.apply(start, ar.Move("red", "forward", 2), GRID)
    assert after == (ar.Arrow("blue", (0, 0), WEST), ar.Arrow("red", (2, 0), EAST))
    assert ar.swap_count(start, [ar.Move("red", "forward", 2)], GRID) == 1
    # the rule mistakes used as wrong answers
    keeps = ar.apply(start, ar.Move("red", "forward", 2), GRID, other_turns=False)
    assert keeps == (ar.Arrow("blue", (0, 0), NORTH), ar.Arrow("red", (2, 0), EAST))


def _board(state: ar.State) -> dict:
    return {a.colour: (a.cell, ar.HEADINGS[a.heading]) for a in state}


def test_verifier_simulation_agrees_with_the_generator():
    rng = np.random.default_rng(4)
    for _ in range(60):
        size = (int(rng.integers(2, 6)), int(rng.integers(2, 6)))
        n = int(rng.integers(1, min(5, size[0] * size[1]) + 1))
        start = ar.random_state(rng, size, list(PALETTE)[:n])
        moves = [ar.Move(str(rng.choice(list(PALETTE)[:n])), str(rng.choice(list(ar.TURNS))),
                         int(rng.integers(1, 4))) for _ in range(4)]
        got = ar.run(start, moves, size)
        other = simulate(_board(start), [Move(m.colour, m.relative, m.steps) for m in moves],
                         size)
        assert (got is None and other is None) or _board(got) == other


def test_boards_read_back():
    rng = np.random.default_rng(8)
    palette = {c: list(v) for c, v in PALETTE.items()}
    for side in (3, 5, 8):
        state = ar.random_state(rng, (side, side), list(PALETTE))
        assert read_board(_picture(state, (side, side)), [side, side], palette) == _board(state)


def test_move_text():
    moves = [Move("red", "forward", 1), Move("blue", "left", 2)]
    assert move_text(moves, True) == "forward 1, left 2"
    assert move_text(moves, False) == "red forward 1, blue left 2"


def _swap_answer(record: dict, letter: str) -> dict:
    out = copy.deepcopy(record)
    for o in out["options"]:
        o["is_answer"] = o["letter"] == letter
    out["Answer"] = letter
    return out


@pytest.fixture(scope="module")
def items():
    return [make_item("arrow_moving", level, i, 8, 2) for level in (0, 1, 2) for i in range(4)]


def test_verifier_rejects_every_distractor_as_answer(items):
    kinds, operators = set(), set()
    for item in items:
        image = decode_png(item.png)
        assert run_verifier(item.record, image) == []
        kinds.add(item.record["spec"]["question"])
        for o in item.record["options"]:
            if not o["is_answer"]:
                operators.add(o["operator"])
                assert run_verifier(_swap_answer(item.record, o["letter"]), image), o["operator"]
    assert kinds == {"path", "state"}
    assert len(operators) >= 4


def _first(items, question: str, level: int = 1) -> tuple[dict, np.ndarray]:
    item = next(i for i in items if i.record["spec"]["question"] == question
                and i.record["Level"] == f"Level{level}")
    return item.record, decode_png(item.png)


def _fails_texts(record: dict, image: np.ndarray, field: str) -> bool:
    return any(f.startswith(f"its {field}") for f in run_verifier(record, image))


def test_question_of_the_other_kind_or_other_moves_fails(items):
    record, image = _first(items, "path")
    moves = [Move(**m) for m in record["spec"]["moves"]]
    bad = copy.deepcopy(record)
    bad["Question"] = QUESTIONS["state_many"].format(moves=move_text(moves, False))
    assert _fails_texts(bad, image, "Question")
    record, image = _first(items, "state")
    bad = copy.deepcopy(record)
    bad["Question"] = QUESTIONS["path_many"]
    assert _fails_texts(bad, image, "Question")
    moves = [Move(**m) for m in record["spec"]["moves"]]
    edited = [Move(moves[0].colour, moves[0].relative, moves[0].steps + 1), *moves[1:]]
    bad = copy.deepcopy(record)
    bad["Question"] = bad["Question"].replace(move_text(moves, False), move_text(edited, False))
    assert bad["Question"] != record["Question"] and _fails_texts(bad, image, "Question")


@pytest.mark.parametrize("level", [0, 1])
def test_an_option_text_that_is_not_its_moves_fails(items, level):
    record, image = _first(items, "path", level)
    bad = copy.deepcopy(record)
    bad["Choices"][0] = re.sub(r"\d+$", lambda m: str(int(m.group()) + 1), bad["Choices"][0])
    assert _fails_texts(bad, image, "Choices")


def test_verifier_checks_the_pictures(items):
    state_item = next(i for i in items if i.record["spec"]["question"] == "state")
    record = copy.deepcopy(state_item.record)
    wrong = next(o for o in record["options"] if not o["is_answer"])
    wrong["data"] = next(o for o in record["options"] if o["is_answer"])["data"]
    failures = run_verifier(record, decode_png(state_item.png))
    assert any("does not draw" in f for f in failures)
    path_item = next(i for i in items if i.record["spec"]["question"] == "path")
    record = copy.deepcopy(path_item.record)
    record["spec"]["start"][0]["heading"] = "north" if record["spec"]["start"][0][
        "heading"] != "north" else "south"
    assert any("start picture" in f for f in run_verifier(record, decode_png(path_item.png)))


def _first_items(level: int, question: str, count: int) -> list[tuple[dict, np.ndarray]]:
    """The first ``count`` items asking ``question``, built from make_item's first sub-seeds
    and composed as the pipeline composes them."""
    task, out = registry.task("arrow_moving"), []
    generator = task.generator()
    for index in range(10 * count):
        seed = derive_seed(0, "arrow_moving", level, index, 0)
        draft = generator.build(level, item_rng(seed))
        if draft.spec["question"] == question:
            out.append(assemble(task, draft, level=level, image_id="0000", item_seed=seed,
                                letter=answer_letter(0, "arrow_moving", level, index)))
        if len(out) == count:
            return out
    raise AssertionError(f"fewer than {count} {question} items")


def _rank(values: np.ndarray, i: int) -> int:
    return int(np.count_nonzero(values < values[i]))


def test_no_audit_heuristic_finds_the_answer_of_state_items():
    """Over 40 fixed level-1 image items the audit's own scores on the composite give the
    answer the ranks the generator drew, and the answer is the most typical / odd one out /
    nearest / farthest option in 2..20 items each.  By design each count is Binomial(40,
    1/4) (mean 10, sd 2.7); the unbalanced generator's answer was the most typical in 88%
    of such items and the odd one out in about 3%."""
    counts = np.zeros((2, 4), dtype=int)
    for record, image in _first_items(1, "state", 40):
        scores = image_scores(image, record["layout"])
        i = "ABCD".index(record["Answer"])
        to_ref, spread = scores["farthest_from_reference"], 3 * scores["odd_one_out"]
        for values in (to_ref, spread):  # no near tie with the answer: the audit's pick is sure
            assert np.abs(np.delete(values, i) - values[i]).min() > TIE / 2
        ranks = _rank(to_ref, i), _rank(spread, i)
        assert list(ranks) == record["spec"]["answer_ranks"]
        counts[0, ranks[0]] += 1
        counts[1, ranks[1]] += 1
    extremes = counts[:, [0, 3]]  # [nearest, farthest], [most typical, odd one out]
    assert extremes.min() >= 2 and extremes.max() <= 20, counts.tolist()


@pytest.mark.parametrize("level", [0, 1])
def test_longest_text_finds_the_answer_of_path_items_one_time_in_four(level):
    """The answer is strictly the longest option text exactly in the items whose drawn target
    says so (else some option is longer), which is 2..20 of 40 fixed items (Binomial(40,
    1/4)); the unbalanced generator's answer was the longest in about 10% of items."""
    longest = 0
    for record, _ in _first_items(level, "path", 40):
        lengths = np.array([len(c) for c in record["Choices"]])
        i = "ABCD".index(record["Answer"])
        is_longest = bool(np.all(np.delete(lengths, i) < lengths[i]))
        assert is_longest == record["spec"]["answer_longest_text"]
        if not is_longest:
            assert lengths.max() > lengths[i]
        longest += is_longest
        assert text_scores(record["Choices"])["longest_text"].argmax() == i or not is_longest
    assert 2 <= longest <= 20, longest
