"""BlockMoving: the gravity simulator by hand and by property, the verifier's own
simulation, distractors rejected as answers, and the CLI end to end."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from conftest import generated_items, only_the_answer_verifies

from spatialcad.geometry import blocks
from spatialcad.geometry.colours import BLOCK_COLOURS as PALETTE
from spatialcad.geometry.voxels import is_supported
from spatialcad.render import unseen
from spatialcad.render.axes import framing_beside_axes
from spatialcad.render.block_views import (
    VIEWS,
    colour_labels,
    drawn_apart,
    looks_different,
    panel,
    state_pictures,
)
from spatialcad.render.opencv import cv2
from spatialcad.render.pixels import pixels_differing
from spatialcad.render.png import decode_png
from spatialcad.run.pipeline import assemble, make_item
from spatialcad.run.verification import run_verifier
from spatialcad.tasks import registry
from spatialcad.tasks.block_moving.generate import MUTATIONS, Generator, _distractors, state_draft
from spatialcad.tasks.block_moving.spec import parse_option, parse_spec
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


def test_every_end_state_main_accepts_shows_its_difference_drawn():
    """Issue 48: no kind of wrong sequence ends in a state whose difference from the final
    state the two views hide.  Every candidate the colour rule accepts (each mutation kind
    and fresh sequences, as the generator draws them, in 200 items of levels 0-3), drawn,
    differs from the final state's pictures in one view by at least as many pixels as a
    cube must show, so the pixel rule the generator and the verifier add never refuses one
    (the same bytes)."""
    gen = Generator()
    tried: dict[str, int] = {}
    for level in range(4):
        p = gen.params(level)
        space = p["space"]
        for seed in range(50):  # 200 items
            rng = np.random.default_rng([48, level, seed])
            names = [str(c) for c in rng.permutation(list(PALETTE))[:p["cubes"][1]]]
            start = blocks.random_state(rng, space, names)
            moves = blocks.random_moves(rng, start, space, p["moves"][1])
            final = blocks.run(start, moves, space)
            final_look = colour_labels(final, space)
            final_pictures = state_pictures(final, space)
            for kind in [*MUTATIONS, "random_sequence"]:
                seq = (blocks.random_moves(rng, start, space, len(moves))
                       if kind == "random_sequence" else MUTATIONS[kind](rng, moves, start))
                end = None if seq is None else blocks.run(start, seq, space)
                if end is None or end == final or not looks_different(
                        colour_labels(end, space), final_look, space):
                    continue
                shown = [pixels_differing(a, b, unseen.SHADE) / unseen.tolerance(
                    framing_beside_axes(cam, space, panel(space)).scale)
                    for a, b, cam in zip(state_pictures(end, space), final_pictures,
                                         VIEWS.values(), strict=True)]
                assert max(shown) >= 1.0, (kind, level, seed, shown)
                tried[kind] = tried.get(kind, 0) + 1
    assert set(tried) == {*MUTATIONS, "random_sequence"}
    assert sum(tried.values()) >= 400


def test_a_final_panel_that_does_not_show_a_wrong_end_state_fails(items):
    """The verifier proves each wrong option's difference on the stored final-state panels:
    with the final panels drawing a wrong option's end state instead, that option's end
    looks like them (its own rule), whatever the spec says."""
    record, image = items[-1]
    spec = parse_spec(record["spec"])
    wrong = next(o for o in record["options"] if o["letter"] != record["Answer"])
    end = blocks.run(spec.state(spec.voxels), parse_option(wrong["data"]).moves, spec.space)
    assert end is not None
    bad = image.copy()
    for box, picture in zip(record["layout"]["reference"][2:], state_pictures(end, spec.space),
                            strict=True):
        x, y, w, h = box
        bad[y:y + h, x:x + w] = cv2.resize(picture, (w, h), interpolation=cv2.INTER_AREA)
    drawn_alike = [f for f in run_verifier(record, bad) if "drawn like the final" in f]
    assert drawn_alike == [f"option {wrong['letter']} ends in a state drawn like the final "
                           "state's panels: they do not show what makes it wrong"]
    assert run_verifier(record, image) == []


# Issue 48: swapping the orange and the yellow cube of this state changes only pixels that
# show their darkest faces, (128, 75, 10) against (125, 110, 20): within SHADE in every
# channel.  Their colours differ over more than a cube face's area, so the colour rule
# alone calls the two states different.
HUES = {"orange": (1, 1, 0), "yellow": (0, 1, 0), "brown": (0, 0, 0), "purple": (0, 0, 1),
        "pink": (0, 2, 0), "cyan": (1, 0, 0), "blue": (0, 2, 1), "red": (0, 1, 1),
        "white": (1, 1, 1)}
HUES_SPACE = [3, 3, 2]
SWAPPED = {**HUES, "orange": HUES["yellow"], "yellow": HUES["orange"]}
BACK_AND_FORTH = [("orange", "+x"), ("orange", "-x")]  # from SWAPPED, back to SWAPPED


def test_an_end_state_whose_difference_the_pictures_do_not_show_is_told_apart():
    pictures = state_pictures(HUES, HUES_SPACE)
    assert looks_different(colour_labels(SWAPPED, HUES_SPACE), colour_labels(HUES, HUES_SPACE),
                           HUES_SPACE)
    for a, b in zip(state_pictures(SWAPPED, HUES_SPACE), pictures, strict=True):
        assert pixels_differing(a, b, unseen.SHADE) == 0
    assert not drawn_apart(SWAPPED, pictures, HUES_SPACE)
    moved = blocks.run(HUES, [("pink", "+x")], HUES_SPACE)
    assert drawn_apart(moved, pictures, HUES_SPACE)


def test_a_wrong_sequence_ending_drawn_like_the_final_state_is_redrawn(monkeypatch):
    """The generator passes over it: every other kind of candidate is drawn instead."""
    monkeypatch.setitem(MUTATIONS, "turned_move", lambda rng, moves, state: BACK_AND_FORTH)
    moves = [("orange", "+x")]
    assert blocks.run(SWAPPED, moves, HUES_SPACE) == HUES
    rng = np.random.default_rng(3)
    for _ in range(5):
        wrong = _distractors(rng, SWAPPED, moves, HUES_SPACE, colour_labels(HUES, HUES_SPACE),
                             state_pictures(HUES, HUES_SPACE))
        assert BACK_AND_FORTH not in [seq for _, seq, _ in wrong]


def test_the_verifier_rejects_a_wrong_option_the_pictures_do_not_show():
    moves = [("orange", "+x")]
    wrong = [BACK_AND_FORTH, [("pink", "+x")], [("cyan", "+x")]]
    ends = [blocks.run(SWAPPED, w, HUES_SPACE) for w in wrong]
    draft = state_draft(HUES_SPACE, list(SWAPPED), SWAPPED, moves,
                        [("other_cube", w, e) for w, e in zip(wrong, ends, strict=True)])
    record, image = assemble(registry.task("block_moving"), draft, level=0, image_id="0000",
                             letter="A", item_seed=1)
    letter = next(o["letter"] for o in record["options"]
                  if parse_option(o["data"]).moves == BACK_AND_FORTH)
    assert run_verifier(record, image) == [
        f"option {letter} ends in a state drawn like the final state's panels: they do not "
        "show what makes it wrong"]
