"""ArrowMoving: the move rules by hand, the verifier's own simulation, the drawings, the CLI."""

from __future__ import annotations

import copy
import re

import numpy as np
import pytest

from spatialcad.evaluate.baselines import image_scores, text_scores
from spatialcad.evaluate.extract import extract_open, match_open
from spatialcad.geometry import arrows as ar
from spatialcad.geometry.colours import ARROW_COLOURS as PALETTE
from spatialcad.record.records import answer_letter
from spatialcad.render.png import decode_png
from spatialcad.render.thumbnails import TIE
from spatialcad.run.pipeline import assemble, make_item
from spatialcad.run.verification import run_verifier
from spatialcad.seeding import derive_seed, item_rng
from spatialcad.tasks import registry
from spatialcad.tasks.arrow_moving.generate import Generator, _picture
from spatialcad.tasks.arrow_moving.spec import (
    QUESTIONS,
    Arrow,
    Move,
    move_text,
    parse_spec,
    state_text,
)
from spatialcad.tasks.arrow_moving.verify import open_answer, read_board, simulate

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


def test_boards_of_grids_longer_than_wide_read_back():
    rng = np.random.default_rng(9)
    palette = {c: list(v) for c, v in PALETTE.items()}
    for size in ((3, 4), (4, 3)):
        state = ar.random_state(rng, size, ["red"])
        assert read_board(_picture(state, size), list(size), palette) == _board(state)


def _scenes(size: tuple[int, int], moves: int) -> int:
    """Level 0's scenes on one grid: a start (one arrow, any cell and heading) and ``moves``
    valid moves ending elsewhere than the start (spec.scene_key: the question kind is always
    "path")."""
    def sequences(start: ar.State, state: ar.State, left: int) -> int:
        if not left:
            return int(state != start)
        return sum(sequences(start, ar.apply(state, m, size), left - 1)
                   for m in ar.valid_moves(state, size))

    return sum(sequences(s, s, moves) for s in
               (one((x, y), h) for x in range(size[0]) for y in range(size[1]) for h in range(4)))


def test_level_0_holds_over_2000_scenes():
    p = Generator().params(0)
    assert p["arrows"] == 1 and p["kinds"] == ["path"]
    assert sum(_scenes((cols, rows), p["moves"]) for cols, rows in p["grids"]) >= 2000


def test_move_text():
    moves = [Move("red", "forward", 1), Move("blue", "left", 2)]
    assert move_text(moves, True) == "forward 1, left 2"
    assert move_text(moves, False) == "red forward 1, blue left 2"


def test_open_answer_by_hand():
    """Columns and rows from 1 at the bottom-left cell, headings as picture directions,
    colours in alphabetical order; the spec's text and the verifier's agree."""
    arrows = [Arrow("red", (0, 0), "east"), Arrow("blue", (2, 1), "north"),
              Arrow("green", (1, 2), "west"), Arrow("teal", (2, 2), "south")]
    want = "blue 3,2,up; green 2,3,left; red 1,1,right; teal 3,3,down"
    assert state_text(arrows) == want
    assert open_answer({a.colour: (a.cell, a.heading) for a in arrows}) == want


def test_open_answer_is_the_independently_simulated_board():
    """The spec's open answer (from the generator's simulation, geometry/arrows.py) equals
    the verifier's text of its own simulation, on random small boards and moves."""
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(80):
        size = (int(rng.integers(2, 5)), int(rng.integers(2, 5)))
        start = ar.random_state(rng, size, list(PALETTE)[: int(rng.integers(2, 5))])
        moves = ar.random_moves(rng, start, size, 3)
        end = ar.run(start, moves, size)
        assert end is not None
        spoken = state_text([Arrow.from_json(a.as_dict()) for a in end])
        own = simulate(_board(start), [Move(**m.as_dict()) for m in moves], size)
        assert own is not None and spoken == open_answer(own)
        checked += 1
    assert checked == 80


def _swap_answer(record: dict, letter: str) -> dict:
    out = copy.deepcopy(record)
    for o in out["options"]:
        o["is_answer"] = o["letter"] == letter
    out["Answer"] = letter
    return out


@pytest.fixture(scope="module")
def items():
    return [make_item("arrow_moving", level, i, 8, 2) for level in (0, 1, 2) for i in range(4)]


def test_level_0_draws_its_grids(items):
    grids = {tuple(g) for g in Generator().params(0)["grids"]}
    drawn = [tuple(item.record["spec"]["grid"]) for item in items[:4]]  # the level 0 items
    assert set(drawn) <= grids and len(set(drawn)) > 1, drawn


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


def test_state_items_have_an_open_form_and_path_items_none(items):
    for item in items:
        record = item.record
        if record["spec"]["question"] == "path":
            assert "Question_direct" not in record and "Answer_direct" not in record
            continue
        spec = parse_spec(record["spec"])
        assert record["Answer_direct"] == state_text(spec.end)
        # the same rules, start and moves as the choice question; no options named
        given = record["Question"].split("Which option")[0]
        assert record["Question_direct"].startswith(given)
        assert "A, B, C or D" not in record["Question_direct"]
        colours = sorted(a.colour for a in spec.start)
        assert all(c in record["Question_direct"] for c in colours)
        assert f"columns 1 to {spec.grid[0]}" in record["Question_direct"]
        # a reply phrased in words scores right; the first arrow turned round scores wrong
        entries = [_entry(e) for e in record["Answer_direct"].split("; ")]
        worded = "; ".join(f"the {c} arrow is at column {x}, row {y}, pointing {way}"
                           for c, x, y, way in entries)
        assert match_open(extract_open(f"<think>..</think><answer>{worded}</answer>").value,
                          record["Answer_direct"])
        c, x, y, way = entries[0]
        turned = "; ".join([f"{c} {x},{y},{OPPOSITE[way]}",
                            *record["Answer_direct"].split("; ")[1:]])
        assert not match_open(turned, record["Answer_direct"])


OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


def _entry(text: str) -> tuple[str, str, str, str]:
    """"blue 3,2,down" -> ("blue", "3", "2", "down")."""
    colour, rest = text.split(" ")
    x, y, way = rest.split(",")
    return colour, x, y, way


def test_a_wrong_open_answer_fails(items):
    record, image = _first(items, "state")
    bad = copy.deepcopy(record)
    entries = bad["Answer_direct"].split("; ")
    colour, column, row, way = _entry(entries[0])
    entries[0] = f"{colour} {column},{row},{OPPOSITE[way]}"
    bad["Answer_direct"] = "; ".join(entries)
    failures = run_verifier(bad, image)
    assert "its Answer_direct is not the text its spec gives" in failures
    assert any(f.startswith("the open answer") for f in failures)
    bad = copy.deepcopy(record)
    bad["Question_direct"] = bad["Question_direct"].replace("from the bottom", "from the top")
    assert "its Question_direct is not the text its spec gives" in run_verifier(bad, image)


def test_an_end_state_the_moves_do_not_reach_fails_the_open_answer(items):
    """A spec whose stated end (and so its open answer, consistently re-derived) is not where
    the moves lead passes the texts check but not the verifier's own simulation."""
    record, image = _first(items, "state")
    bad = copy.deepcopy(record)
    end = bad["spec"]["end"][0]
    end["heading"] = "south" if end["heading"] != "south" else "north"
    bad["Answer_direct"] = state_text(parse_spec(bad["spec"]).end)
    failures = run_verifier(bad, image)
    assert not any(f.startswith("its ") for f in failures)
    assert any(f.startswith("the open answer") for f in failures)
