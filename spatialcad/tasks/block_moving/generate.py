"""BlockMoving: which sequence of moves turns one state of a coloured cube stack into
another?  (SpatialViz-Bench Alg. 20-21.)

Every cube has its own colour name, so a move reads "red cube +x".  The reference shows the
initial and the final state, each from the front-right and the back-left, with the axes
drawn.  Wrong options are other valid sequences of state-changing moves (the true one with
a move turned, a move given to another cube, two moves swapped, or a fresh random sequence)
whose final state looks different from the true final state.

Every cube shows in a view of each state, and no cell of the initial state or none of the
final state could hide one more cube, so no scene drawing the same pictures has another
answer (issue 35): a candidate otherwise is drawn again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from spatialcad.geometry import blocks
from spatialcad.geometry.blocks import Move, State
from spatialcad.geometry.colours import BLOCK_COLOURS as PALETTE
from spatialcad.render.block_views import (
    VIEWS,
    all_visible,
    colour_labels,
    drawn_apart,
    hidden_cells,
    looks_different,
    state_pictures,
)
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.block_moving.spec import OptionData, Spec, moves_text, texts


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        """L0: 3-4 cubes in 2x2x2, 1-2 moves; L1: 5 cubes in 3x3x2, 3 moves; each further
        level adds two cubes (up to the 10 colours), a move, and a cell to one side of the
        space (z, x, y in turn)."""
        if level == 0:
            return {"space": [2, 2, 2], "cubes": [3, 4], "moves": [1, 2]}
        space = [3, 3, 2]
        for i in range(level - 1):
            space[(2, 0, 1)[i % 3]] += 1
        n = min(len(PALETTE), 2 * level + 3)
        return {"space": space, "cubes": [n, n], "moves": [level + 2, level + 2]}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        p = self.params(level)
        space = p["space"]
        n = int(rng.integers(p["cubes"][0], p["cubes"][1] + 1))
        k = int(rng.integers(p["moves"][0], p["moves"][1] + 1))
        names = [str(c) for c in rng.permutation(list(PALETTE))[:n]]
        start = blocks.random_state(rng, space, names)
        moves = blocks.random_moves(rng, start, space, k)
        final = blocks.run(start, moves, space)
        assert final is not None
        must_pin_down(start, final, space)
        wrong = _distractors(rng, start, moves, space, colour_labels(final, space),
                             state_pictures(final, space))
        return state_draft(space, names, start, moves, wrong)


def must_pin_down(start: State, final: State, space: list[int]) -> None:
    """Reject states whose pictures leave a cube out or could hide one more (issue 35).

    Every cube must show in a view of each state (its colour names it, and a hidden cube's
    cell is unknown).  A scene drawing the same four pictures with one cube more would need
    that cube unseen in both states; when no cell of one of them can hide a standing cube,
    no such scene exists, so no hidden cube can support another, block a swap or make a
    wrong sequence right."""
    if not (all_visible(start, space) and all_visible(final, space)):
        raise Reject("a cube is hidden in both views")
    hide_start = hidden_cells(start, space)
    hide_final = hidden_cells(final, space) if hide_start else []
    if hide_final:
        raise Reject(f"one more cube could stand unseen at {list(hide_start[0])} in the "
                     f"initial state and at {list(hide_final[0])} in the final state")


def state_draft(space: list[int], names: list[str], start: State, moves: list[Move],
                wrong: list[tuple[str, list[Move], State]]) -> Draft:
    """The item: the states' pictures, the true sequence ``moves`` and the ``wrong`` ones
    (kind, sequence, end state)."""
    final = blocks.run(start, moves, space)
    assert final is not None
    spec = Spec(space, names, [start[c] for c in names], [final[c] for c in names],
                list(VIEWS))
    data = [OptionData(moves), *(OptionData(seq) for _, seq, _ in wrong)]
    said = texts(spec, data)
    assert said.choices is not None
    options = [Option(True, "true_sequence", "These moves turn the initial state into the "
                      "final state.", text=said.choices[0], data=data[0].to_json())]
    for (op, _, end), text, d in zip(wrong, said.choices[1:], data[1:], strict=True):
        options.append(Option(
            False, op,
            f"These moves end with {_describe_difference(end, final)}, unlike the final "
            "state.",
            text=text, data=d.to_json(),
        ))
    pictures = [state_pictures(start, space), state_pictures(final, space)]
    return Draft(
        question=said.question,
        spec=spec.to_json(),
        reference=[
            Panel(img, f"{when}: {view}")
            for when, imgs in zip(("Initial", "Final"), pictures, strict=True)
            for view, img in zip(VIEWS, imgs, strict=True)
        ],
        options=options,
    )


def _describe_difference(end: State, final: State) -> str:
    moved = [c for c in final if end[c] != final[c]]
    return ", ".join(f"the {c} cube at {end[c]} instead of {final[c]}" for c in moved)


Mutation = Callable[[np.random.Generator, list[Move], State], list[Move] | None]


def _turned(rng: np.random.Generator, moves: list[Move], state: State) -> list[Move] | None:
    i = int(rng.integers(len(moves)))
    others = [d for d in blocks.DIRECTIONS if d != moves[i][1]]
    return moves[:i] + [(moves[i][0], others[int(rng.integers(len(others)))])] + moves[i + 1:]


def _other_cube(rng: np.random.Generator, moves: list[Move], state: State) -> list[Move] | None:
    i = int(rng.integers(len(moves)))
    others = [c for c in state if c != moves[i][0]]
    return moves[:i] + [(others[int(rng.integers(len(others)))], moves[i][1])] + moves[i + 1:]


def _swapped(rng: np.random.Generator, moves: list[Move], state: State) -> list[Move] | None:
    if len(moves) < 2:
        return None
    i = int(rng.integers(len(moves) - 1))
    return moves[:i] + [moves[i + 1], moves[i]] + moves[i + 2:]


MUTATIONS: dict[str, Mutation] = {
    "turned_move": _turned,
    "other_cube": _other_cube,
    "swapped_moves": _swapped,
}


def _distractors(
    rng: np.random.Generator, start: State, moves: list[Move], space: list[int],
    final_look: list[np.ndarray], final_pictures: list[np.ndarray],
) -> list[tuple[str, list[Move], State]]:
    """Three valid sequences of state-changing moves whose end looks unlike the final state:
    its colours differ from ``final_look`` (:func:`colour_labels`) and, drawn, one of its
    pictures shows the difference from ``final_pictures`` (:func:`drawn_apart`, issue 48: a
    sequence whose end differs only where the views do not show would be a right answer
    to a solver who sees only the pictures)."""
    kinds = [*MUTATIONS, "random_sequence"]
    out: list[tuple[str, list[Move], State]] = []
    texts = {moves_text(moves)}
    for _ in range(40):
        if len(out) == 3:
            return out
        kind = kinds[int(rng.integers(len(kinds)))]
        if kind == "random_sequence":
            seq: list[Move] | None = blocks.random_moves(rng, start, space, len(moves))
        else:
            seq = MUTATIONS[kind](rng, moves, start)
        if seq is None or moves_text(seq) in texts:
            continue
        end = _changing_run(start, seq, space)
        if end is None or not looks_different(colour_labels(end, space), final_look, space
                                              ) or not drawn_apart(end, final_pictures, space):
            continue
        texts.add(moves_text(seq))
        out.append((kind, seq, end))
    raise Reject("could not find three distinct wrong sequences")


def _changing_run(start: State, seq: list[Move], space: list[int]) -> State | None:
    """The end state when every move is valid and changes the state, else None."""
    state = start
    for move in seq:
        after = blocks.apply_move(state, move, space)
        if after is None or after == state:
            return None
        state = after
    return state
