"""ArrowMoving: arrows on a grid moved by egocentric rules (SpatialViz-Bench Alg. 16-19).

Two question kinds.  "path": given the start and end states, which move sequence turns one
into the other (text options; wrong sequences are valid but end elsewhere: one move's
direction, length or arrow changed, or two moves swapped).  "state": given the start state
and the moves, which board is the final state (image options; wrong boards come from
changed moves or from breaking a rule: an arrow keeping its heading after moving, or after
being swapped).  Level 0 has one arrow on a 3x3 grid and asks "path"; from level 1 several
coloured arrows swap when one moves onto another, and either kind is asked.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import arrows as ar
from spatialcad.render.arrow_drawing import board
from spatialcad.render.drawing import text_panel
from spatialcad.tasks.base import Draft, Option, Panel, Reject, Task
from spatialcad.tasks.registry import register

PALETTE: dict[str, tuple[int, int, int]] = {
    "red": (215, 40, 40), "blue": (40, 100, 225), "green": (40, 160, 60),
    "orange": (245, 145, 25), "purple": (135, 70, 200), "pink": (235, 105, 185),
    "teal": (0, 165, 185), "brown": (135, 85, 40),
}
TRIES = 20
RULES_ONE = (
    "An arrow moves on a grid. A move goes forward, backward, left or right by a number of "
    "cells, relative to the way the arrow points ('forward' is the direction it points); "
    "after each move the arrow points in the direction it moved. "
)
RULES_MANY = (
    "Coloured arrows move on a grid. A move names an arrow by its colour and goes forward, "
    "backward, left or right by a number of cells, relative to the way that arrow points "
    "('forward' is the direction it points); the arrow jumps straight to the destination cell "
    "and then points in the direction it moved. If the destination holds another arrow, the "
    "two arrows swap cells: the other arrow moves the opposite way into the first arrow's old "
    "cell and then points in the direction it moved. No move leaves the grid. "
)
QUESTIONS = {
    "path_one": RULES_ONE + "The first image shows the arrow's start state and the second its "
    "end state. Which sequence of moves takes the arrow from the start state to the end "
    "state? Answer with A, B, C or D.",
    "path_many": RULES_MANY + "The first image shows the start state and the second the end "
    "state. Which sequence of moves, made in order, turns the start state into the end "
    "state? Answer with A, B, C or D.",
    "state_many": RULES_MANY + "The first image shows the start state. The arrows make these "
    "moves in order: {moves}. Which option shows the final state? Answer with A, B, C or D.",
}


def move_text(moves: list[dict[str, Any]], single: bool) -> str:
    """"forward 1, left 2" for one arrow, "red forward 1, blue left 2" for several."""
    return ", ".join(("" if single else f"{m['colour']} ") + f"{m['relative']} {m['steps']}"
                     for m in moves)


def _describe(state: ar.State, single: bool) -> str:
    """Where the arrows end, cells as (column, row) from the bottom-left cell (0, 0)."""
    return "; ".join(("the arrow" if single else a.colour) +
                     f" at {a.cell} pointing {ar.HEADINGS[a.heading]}" for a in state)


def _picture(state: ar.State, size: ar.Cell) -> np.ndarray:
    return board(size[0], size[1], [(PALETTE[a.colour], a.cell, a.heading) for a in state])


@register
class ArrowMoving(Task):
    name = "arrow_moving"
    record_task = "ArrowMoving"
    category = "MentalAnimation"

    def params(self, level: int) -> dict[str, Any]:
        """L0: one arrow on 3x3, two moves; L1: three arrows on 3x3, two moves; then the
        grid side, the arrows (up to the palette's eight) and the moves grow by one a level."""
        if level == 0:
            return {"grid": [3, 3], "arrows": 1, "moves": 2, "kinds": ["path"]}
        return {"grid": [2 + level] * 2, "arrows": min(len(PALETTE), 2 + level),
                "moves": 1 + level, "kinds": ["path", "state"]}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        p = self.params(level)
        size = tuple(p["grid"])
        colours = list(PALETTE)[: p["arrows"]]
        single = len(colours) == 1
        start = ar.random_state(rng, size, colours)
        for _ in range(TRIES):  # several arrows: some move must swap two of them
            moves = ar.random_moves(rng, start, size, p["moves"])
            end = ar.run(start, moves, size)
            if end != start and (single or ar.swap_count(start, moves, size) > 0):
                break
        else:
            raise Reject("no move sequence changing the state (with a swap) was drawn")
        kind = str(p["kinds"][int(rng.integers(len(p["kinds"])))])
        truth = {"moves": [m.as_dict() for m in moves]}
        spec = {
            "grid": list(size),
            "palette": {c: list(PALETTE[c]) for c in colours},
            "start": [a.as_dict() for a in start],
            "moves": truth["moves"],
            "end": [a.as_dict() for a in end],
            "question": kind,
            "coordinates": "cells (x, y): x to the right, y upwards from the bottom-left cell",
        }
        said = move_text(truth["moves"], single)
        if kind == "path":
            options = [Option(True, "true_moves", "These moves lead to the end state.",
                              text=said, data=truth)]
            for op, wrong in _wrong_paths(start, moves, end, size, colours, rng):
                data = {"moves": [m.as_dict() for m in wrong]}
                why = ("These moves end elsewhere (cells as (column, row) from the bottom-left "
                       f"cell): {_describe(ar.run(start, wrong, size), single)}.")
                options.append(Option(False, op, why, text=move_text(data["moves"], single),
                                      data=data))
            reference = [Panel(_picture(start, size), "Start"), Panel(_picture(end, size), "End")]
            question = QUESTIONS["path_one" if single else "path_many"]
        else:
            options = [Option(True, "final_state", "This is the state the moves lead to.",
                              image=_picture(end, size),
                              data={"arrows": [a.as_dict() for a in end]})]
            for op, why, state in _wrong_states(start, moves, end, size, colours, rng):
                options.append(Option(False, op, why, image=_picture(state, size),
                                      data={"arrows": [a.as_dict() for a in state]}))
            listing = "\n".join(f"{i + 1}. {move_text([m], False)}"
                                for i, m in enumerate(truth["moves"]))
            reference = [Panel(_picture(start, size), "Start"),
                         Panel(text_panel(listing, (280, 280)), "Moves")]
            question = QUESTIONS["state_many"].format(moves=said)
        if len(options) < 4:
            raise Reject("too few distinct wrong options")
        return Draft(question=question, spec=spec, reference=reference, options=options)


def _variants(moves: list[ar.Move], colours: list[str], size: ar.Cell):
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


def _spread(candidates: list, rng: np.random.Generator, count: int) -> list:
    """``count`` candidates, taking operators in turn (random order) to vary the mistakes."""
    groups: dict[str, list] = {}
    for i in rng.permutation(len(candidates)):
        groups.setdefault(candidates[i][0], []).append(candidates[i])
    out = []
    while len(out) < count and any(groups.values()):
        for name in sorted(groups, key=lambda g: rng.random()):
            if groups[name] and len(out) < count:
                out.append(groups[name].pop(0))
    return out


def _wrong_paths(start: ar.State, moves: list[ar.Move], end: ar.State, size: ar.Cell,
                 colours: list[str], rng: np.random.Generator) -> list[tuple[str, list[ar.Move]]]:
    seen, pool = {tuple(moves)}, []
    for op, wrong in _variants(moves, colours, size):
        state = ar.run(start, wrong, size)
        if state is not None and state != end and tuple(wrong) not in seen:
            seen.add(tuple(wrong))
            pool.append((op, wrong))
    return _spread(pool, rng, 3)


def _wrong_states(start: ar.State, moves: list[ar.Move], end: ar.State, size: ar.Cell,
                  colours: list[str], rng: np.random.Generator) -> list[tuple[str, str, ar.State]]:
    seen, out, pool = {end}, [], []
    rule_errors = [
        ("other_keeps_heading", "A swapped arrow wrongly keeps its heading.",
         ar.run(start, moves, size, other_turns=False)),
        ("mover_keeps_heading", "A moving arrow wrongly keeps its heading.",
         ar.run(start, moves, size, mover_turns=False)),
    ]
    for op, why, state in rule_errors:
        if state is not None and state not in seen and rng.random() < 0.6:
            seen.add(state)
            out.append((op, why, state))
    for op, wrong in _variants(moves, colours, size):
        state = ar.run(start, wrong, size)
        if state is not None and state not in seen:
            seen.add(state)
            said = move_text([m.as_dict() for m in wrong], False)
            pool.append((op, f"It is where the moves {said} lead instead.", state))
    return out + _spread(pool, rng, 3 - len(out))
