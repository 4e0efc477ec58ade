"""ArrowMoving: arrows on a grid moved by egocentric rules (SpatialViz-Bench Alg. 16-19).

Two question kinds.  "path": given the start and end states, which move sequence turns one
into the other (text options; wrong sequences are valid but end elsewhere: one move's
direction, length or arrow changed, or two moves swapped).  "state": given the start state
and the moves, which board is the final state (image options; wrong boards come from
changed moves or from breaking a rule: an arrow keeping its heading after moving, or after
being swapped).  Level 0 has one arrow on a small grid and asks "path"; from level 1 several
coloured arrows swap when one moves onto another, and either kind is asked.

Wrong options are chosen so that surface cues do not give the answer away: left alone,
the answer is the option most like the others (every wrong option is an edit of it).  A
pool of wrong options is built (up to ``ONE_EDIT`` one-edit and ``TWO_EDITS`` two-edit
sequences, the second edit made to another wrong sequence, plus the rule mistakes), and
three are drawn among the sets with at least two kinds of mistake that meet a target drawn
before the scene (scenes are redrawn under the same target when none does).  Image
options: the answer's thumbnail-distance ranks to the reference panels and to the other
options, as the shortcut audit measures them (:mod:`spatialcad.render.thumbnails`), in
``spec.answer_ranks``.  Text options: whether the answer is strictly the longest text
(one item in four) or some option is longer, in ``spec.answer_longest_text``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from spatialcad.geometry import arrows as ar
from spatialcad.geometry.colours import ARROW_COLOURS as PALETTE
from spatialcad.render.arrow_drawing import board
from spatialcad.render.drawing import text_panel
from spatialcad.render.thumbnails import balanced_set, random_target
from spatialcad.tasks import base
from spatialcad.tasks.arrow_moving.spec import Arrow, Move, OptionData, Spec, move_text, texts
from spatialcad.tasks.base import Draft, Option, Panel, Reject

TRIES = 20  # move sequences drawn for one start state
SCENE_DRAWS = 20  # scenes drawn for one item's target
ONE_EDIT = 20  # wrong move sequences one edit away from the true ones (at most)
TWO_EDITS = 20  # and two edits away


def _moves(moves: list[ar.Move]) -> list[Move]:
    return [Move.from_json(m.as_dict(), "move") for m in moves]


def _arrows(state: ar.State) -> list[Arrow]:
    return [Arrow.from_json(a.as_dict(), "arrow") for a in state]


def _describe(state: ar.State, single: bool) -> str:
    """Where the arrows end, cells as (column, row) from the bottom-left cell (0, 0)."""
    return "; ".join(("the arrow" if single else a.colour) +
                     f" at {a.cell} pointing {ar.HEADINGS[a.heading]}" for a in state)


def _picture(state: ar.State, size: ar.Cell) -> np.ndarray:
    return board(size[0], size[1], [(PALETTE[a.colour], a.cell, a.heading) for a in state])


@dataclass(frozen=True)
class Scene:
    """Start state, true moves and end state of an item on a grid of ``size``."""

    size: ar.Cell
    colours: list[str]
    start: ar.State
    moves: list[ar.Move]
    end: ar.State

    def spec(self, kind: str, drawn: int, *, longest: bool | None = None,
             ranks: tuple[int, int] | None = None) -> Spec:
        """The item's spec, with the target its options were drawn for."""
        return Spec(grid=self.size, palette={c: PALETTE[c] for c in self.colours},
                    start=_arrows(self.start), moves=_moves(self.moves), end=_arrows(self.end),
                    question=kind, answer_longest_text=longest, answer_ranks=ranks,
                    scenes_drawn=drawn)


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        """L0: one arrow on a 3x3, 3x4 or 4x3 grid, two moves; L1: three arrows on 3x3, two
        moves; then the grid side, the arrows (up to the palette's eight) and the moves grow
        by one a level.  ``grids``: the grids (columns, rows) a scene's is drawn from; level
        0 draws among three so that it holds over 2,000 scenes (2,820; the 3x3 grid alone
        held 540), one arrow and two moves on each."""
        if level == 0:
            return {"grids": [[3, 3], [3, 4], [4, 3]], "arrows": 1, "moves": 2,
                    "kinds": ["path"]}
        return {"grids": [[2 + level] * 2], "arrows": min(len(PALETTE), 2 + level),
                "moves": 1 + level, "kinds": ["path", "state"]}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        p = self.params(level)
        kind = str(p["kinds"][int(rng.integers(len(p["kinds"])))])
        # What the shortcut audit measures, drawn before the scene and kept while scenes are
        # redrawn so that it stays uniform: for image options the answer's two similarity
        # ranks, for text options whether the answer is the longest text (one time in four).
        target = random_target(rng) if kind == "state" else bool(rng.integers(4) == 0)
        for drawn in range(1, SCENE_DRAWS + 1):
            scene = _scene(p, rng)
            if scene is None:
                continue
            draft = (_state_item(scene, target, drawn, rng) if isinstance(target, tuple)
                     else _path_item(scene, target, drawn, rng))
            if draft is not None:
                return draft
        raise Reject(f"no option set met the target {target}")


def _scene(p: dict[str, Any], rng: np.random.Generator) -> Scene | None:
    """Start state, moves and end state; several arrows need a swap.  None if not drawn."""
    grids = p["grids"]
    grid = grids[int(rng.integers(len(grids)))] if len(grids) > 1 else grids[0]
    size = (grid[0], grid[1])
    colours = list(PALETTE)[: p["arrows"]]
    start = ar.random_state(rng, size, colours)
    for _ in range(TRIES):
        moves = ar.random_moves(rng, start, size, p["moves"])
        end = ar.run(start, moves, size)
        if end is not None and end != start and (
                len(colours) == 1 or ar.swap_count(start, moves, size) > 0):
            return Scene(size, colours, start, moves, end)
    return None


def _path_item(scene: Scene, longest: bool, drawn: int,
               rng: np.random.Generator) -> Draft | None:
    """Text options: the true moves and three wrong sequences; the answer is strictly the
    longest text exactly when ``longest``."""
    paths = _wrong_paths(scene, rng)
    spec = scene.spec("path", drawn, longest=longest)
    data = [OptionData(moves=_moves(moves)) for moves in [scene.moves, *(w for _, w, _ in paths)]]
    said = texts(spec, data)  # the answer's text, then every wrong sequence's
    assert said.choices is not None
    picked = _text_set(said.choices[0], said.choices[1:], longest, rng,
                       _mixed([op for op, _, _ in paths]))
    if picked is None:
        return None
    options = [Option(True, "true_moves", "These moves lead to the end state.",
                      text=said.choices[0], data=data[0].to_json())]
    for i in picked:
        op, _, end = paths[i]
        why = ("These moves end elsewhere (cells as (column, row) from the bottom-left "
               f"cell): {_describe(end, spec.single)}.")
        options.append(Option(False, op, why, text=said.choices[i + 1],
                              data=data[i + 1].to_json()))
    reference = [Panel(_picture(scene.start, scene.size), "Start"),
                 Panel(_picture(scene.end, scene.size), "End")]
    return Draft(said.question, spec.to_json(), reference, options)


def _state_item(scene: Scene, ranks: tuple[int, int], drawn: int,
                rng: np.random.Generator) -> Draft | None:
    """Image options: the end board and three wrong boards; the answer has the
    thumbnail-distance ``ranks``."""
    spec = scene.spec("state", drawn, ranks=ranks)
    listing = "\n".join(f"{i + 1}. {move_text([m], False)}" for i, m in enumerate(spec.moves))
    reference = [Panel(_picture(scene.start, scene.size), "Start"),
                 Panel(text_panel(listing, (280, 280)), "Moves")]
    states = _wrong_states(scene, rng)
    answer = _picture(scene.end, scene.size)
    images = [_picture(state, scene.size) for _, _, state in states]
    picked = balanced_set(answer, [r.image for r in reference], images, ranks, rng,
                          _mixed([op for op, _, _ in states]))
    if picked is None:
        return None
    data = [OptionData(arrows=_arrows(scene.end)),
            *(OptionData(arrows=_arrows(states[i][2])) for i in picked)]
    options = [Option(True, "final_state", "This is the state the moves lead to.",
                      image=answer, data=data[0].to_json())]
    for i, d in zip(picked, data[1:], strict=True):
        op, why, _ = states[i]
        options.append(Option(False, op, why, image=images[i], data=d.to_json()))
    said = texts(spec, data)
    return Draft(said.question, spec.to_json(), reference, options,
                 question_direct=said.question_direct, answer_direct=said.answer_direct)


def _mixed(operators: list[str]) -> Callable[[tuple[int, ...]], bool]:
    """Accepts option sets whose wrong options come from at least two operators."""
    return lambda picked: len({operators[i] for i in picked}) >= 2


def _text_set(answer: str, texts: list[str], longest: bool, rng: np.random.Generator,
              accept: Callable[[tuple[int, ...]], bool]) -> tuple[int, ...] | None:
    """Three indices of ``texts``, drawn uniformly among the sets passing ``accept`` in which
    the answer is strictly the longest text (``longest``) or some option is longer than it
    (the audit's "longest text" then picks the answer in exactly the ``longest`` items)."""
    sets = list(combinations(range(len(texts)), 3))
    for k in rng.permutation(len(sets)):
        picked = sets[int(k)]
        most = max(len(texts[i]) for i in picked)
        if (most < len(answer) if longest else most > len(answer)) and accept(picked):
            return picked
    return None


def _variants(moves: list[ar.Move], colours: list[str],
              size: ar.Cell) -> list[tuple[str, list[ar.Move]]]:
    """(operator, moves) with one move's direction, length or arrow changed, or two moves
    swapped."""
    out = []
    for i, m in enumerate(moves):
        def at(new: ar.Move, i: int = i) -> list[ar.Move]:
            return moves[:i] + [new] + moves[i + 1:]

        out += [("changed_direction", at(ar.Move(m.colour, r, m.steps)))
                for r in ar.TURNS if r != m.relative]
        out += [("changed_steps", at(ar.Move(m.colour, m.relative, k)))
                for k in range(1, max(size)) if k != m.steps]
        out += [("changed_arrow", at(ar.Move(c, m.relative, m.steps)))
                for c in colours if c != m.colour]
    for i in range(len(moves)):
        for j in range(i + 1, len(moves)):
            if moves[i] != moves[j]:
                swapped = list(moves)
                swapped[i], swapped[j] = moves[j], moves[i]
                out.append(("swapped_order", swapped))
    return out


def _edited_sequences(moves: list[ar.Move], colours: list[str], size: ar.Cell,
                      rng: np.random.Generator) -> list[tuple[str, list[ar.Move]]]:
    """Up to ``ONE_EDIT`` sequences one edit away from ``moves`` (random order) and up to
    ``TWO_EDITS`` two edits away: an edit of another wrong sequence, so that the answer is
    not the one sequence every other option is an edit of."""
    once = _variants(moves, colours, size)
    out = [once[int(i)] for i in rng.permutation(len(once))[:ONE_EDIT]]
    for _ in range(TWO_EDITS):
        _, first = once[int(rng.integers(len(once)))]
        again = _variants(first, colours, size)
        out.append(("two_changes", again[int(rng.integers(len(again)))][1]))
    return out


def _wrong_paths(scene: Scene,
                 rng: np.random.Generator) -> list[tuple[str, list[ar.Move], ar.State]]:
    """(operator, moves, where they end): valid move sequences, other than the true ones,
    that end elsewhere than the end state."""
    seen, pool = {tuple(scene.moves)}, []
    for op, wrong in _edited_sequences(scene.moves, scene.colours, scene.size, rng):
        state = ar.run(scene.start, wrong, scene.size)
        if state is not None and state != scene.end and tuple(wrong) not in seen:
            seen.add(tuple(wrong))
            pool.append((op, wrong, state))
    return pool


def _wrong_states(scene: Scene, rng: np.random.Generator) -> list[tuple[str, str, ar.State]]:
    """(operator, explanation, state): distinct states other than the end state, the true
    moves under a broken rule, and where edited move sequences lead."""
    start, moves, size = scene.start, scene.moves, scene.size
    seen, pool = {scene.end}, []
    rule_errors = [
        ("other_keeps_heading", "A swapped arrow wrongly keeps its heading.",
         ar.run(start, moves, size, other_turns=False)),
        ("mover_keeps_heading", "A moving arrow wrongly keeps its heading.",
         ar.run(start, moves, size, mover_turns=False)),
    ]
    for op, why, state in rule_errors:
        if state is not None and state not in seen:
            seen.add(state)
            pool.append((op, why, state))
    for op, wrong in _edited_sequences(moves, scene.colours, size, rng):
        state = ar.run(start, wrong, size)
        if state is not None and state not in seen:
            seen.add(state)
            said = move_text(_moves(wrong), False)
            pool.append((op, f"It is where the moves {said} lead instead.", state))
    return pool
