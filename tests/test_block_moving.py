"""BlockMoving: the gravity simulator by hand and by property, the verifier's own
simulation, distractors rejected as answers, and the CLI end to end."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from conftest import generated_items, only_the_answer_verifies

from spatialcad.geometry import blocks
from spatialcad.geometry.voxels import is_supported
from spatialcad.render.png import decode_png
from spatialcad.run.pipeline import make_item
from spatialcad.run.verification import run_verifier
from spatialcad.tasks.block_moving.verify import simulate

SPACE = (3, 2, 3)


def test_a_cube_moved_off_its_support_falls():
    state = {"red": (0, 0, 0), "blue": (0, 0, 1)}
    assert blocks.apply_move(state, ("blue", "+x"), SPACE) == {"red": (0, 0, 0),
                                                                "blue": (1, 0, 0)}


def test_a_move_onto_an_occupied_cell_swaps_the_cubes():
    state = {"red": (0, 0, 0), "green": (1, 0, 0), "blue": (1, 0, 1)}
    after = blocks.apply_move(state, ("red", "+x"), SPACE)
    assert after == {"red": (1, 0, 0), "green": (0, 0, 0), "blue": (1, 0, 1)}
    # vertical swaps: the lower cube goes up, the upper one comes down
    after = blocks.apply_move(state, ("blue", "-z"), SPACE)
    assert after == {"red": (0, 0, 0), "green": (1, 0, 1), "blue": (1, 0, 0)}


def test_the_cube_above_a_moved_cube_falls():
    state = {"red": (0, 0, 0), "blue": (0, 0, 1), "pink": (0, 0, 2)}
    after = blocks.apply_move(state, ("red", "+y"), SPACE)
    assert after == {"red": (0, 1, 0), "blue": (0, 0, 0), "pink": (0, 0, 1)}


def test_invalid_and_idle_moves():
    state = {"red": (0, 0, 0), "blue": (2, 1, 0)}
    assert blocks.apply_move(state, ("red", "-x"), SPACE) is None
    assert blocks.apply_move(state, ("blue", "+y"), SPACE) is None
    assert blocks.apply_move(state, ("green", "+x"), SPACE) is None
    # lifted into empty space, a lone cube falls straight back: not offered as a move
    assert blocks.apply_move(state, ("red", "+z"), SPACE) == state
    assert ("red", "+z") not in blocks.changing_moves(state, SPACE)
    assert blocks.run(state, [("red", "+x"), ("red", "-x"), ("red", "-x")], SPACE) is None


def test_gravity_holds_after_every_move_and_simulators_agree():
    rng = np.random.default_rng(4)
    colours = ["a", "b", "c", "d", "e", "f", "g"]
    for _ in range(40):
        space = tuple(int(v) for v in rng.integers(2, 5, size=3))
        n = int(rng.integers(2, min(len(colours), space[0] * space[1] * space[2]) + 1))
        state = blocks.random_state(rng, space, colours[:n])
        assert is_supported(state.values())
        start, moves = dict(state), []
        for _ in range(8):
            move = (colours[int(rng.integers(n))], list(blocks.DIRECTIONS)[rng.integers(6)])
            after = blocks.apply_move(state, move, space)
            if after is None:
                continue
            moves.append(move)
            state = after
            cells = list(state.values())
            assert is_supported(cells) and len(set(cells)) == n
            assert all(blocks.inside(c, space) for c in cells)
        mine = simulate(space, [start[c] for c in colours[:n]],
                        [(colours.index(c), d) for c, d in moves])
        assert mine == [state[c] for c in colours[:n]]


def test_random_moves_never_revisit_a_state():
    rng = np.random.default_rng(8)
    state = blocks.random_state(rng, (3, 3, 2), ["a", "b", "c", "d", "e"])
    moves = blocks.random_moves(rng, state, (3, 3, 2), 6)
    seen = [state]
    for move in moves:
        state = blocks.apply_move(state, move, (3, 3, 2))
        assert state not in seen
        seen.append(state)


@pytest.fixture(scope="module")
def items():
    out = []
    for level, index in ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2)):
        result = make_item("block_moving", level, index, 4, 11)
        out.append((result.record, decode_png(result.png)))
    return out


def test_every_kind_of_wrong_sequence_fails_as_the_answer(items):
    kinds = set()
    for record, image in items:
        kinds |= only_the_answer_verifies(record, image)
    assert kinds >= {"turned_move", "other_cube", "random_sequence"}


def test_tampered_records_fail(items):
    record, image = items[-1]
    bad = copy.deepcopy(record)
    bad["spec"]["final"] = bad["spec"]["voxels"]
    assert run_verifier(bad, image)
    bad = copy.deepcopy(record)
    bad["layout"]["reference"] = bad["layout"]["reference"][::-1]
    assert any("panel" in f for f in run_verifier(bad, image))


@pytest.fixture(scope="module")
def levels_0_to_2():
    return list(generated_items("block_moving", (0, 1, 2), 2))


def test_an_edited_option_text_or_question_fails(levels_0_to_2):
    for record, image in levels_0_to_2:
        bad = copy.deepcopy(record)
        first = bad["Choices"][0]
        bad["Choices"][0] = first.replace("+", "-", 1) if "+" in first else first.replace("-", "+")
        assert any(f.startswith("its Choices") for f in run_verifier(bad, image))
        bad = copy.deepcopy(record)
        bad["Question"] = bad["Question"].replace("initial state into the final", "final state "
                                                  "into the initial")
        assert "its Question is not the text its spec gives" in run_verifier(bad, image)
