"""Arrows on a grid moving by egocentric rules (after SpatialViz-Bench Alg. 16-17).

A grid of ``W x H`` cells; cell ``(x, y)`` has x to the right and y upwards (north).  An
arrow has a colour (its name), a cell and a heading (0 north, 1 east, 2 south, 3 west).
A move names an arrow, a direction relative to its heading (forward, right, backward,
left) and a number of cells; the arrow jumps there and turns to face the way it moved.
If the destination holds another arrow, the two swap: the other arrow moves the opposite
way into the mover's old cell and turns to face the way it moved.  A move that would
leave the grid is invalid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

Cell = tuple[int, int]
HEADINGS = ("north", "east", "south", "west")
STEP: tuple[Cell, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
TURNS = {"forward": 0, "right": 1, "backward": 2, "left": 3}


@dataclass(frozen=True, order=True)
class Arrow:
    colour: str
    cell: Cell
    heading: int

    def as_dict(self) -> dict[str, Any]:
        return {"colour": self.colour, "cell": list(self.cell), "heading": HEADINGS[self.heading]}


@dataclass(frozen=True)
class Move:
    colour: str
    relative: str  # a key of TURNS
    steps: int

    def as_dict(self) -> dict[str, Any]:
        return {"colour": self.colour, "relative": self.relative, "steps": self.steps}


State = tuple[Arrow, ...]  # sorted by colour


def apply(state: State, move: Move, size: Cell, *, mover_turns: bool = True,
          other_turns: bool = True) -> State | None:
    """The state after ``move``, or None when it leaves the grid.

    ``mover_turns`` / ``other_turns`` switched off give the rule mistakes used as wrong
    answers (an arrow that keeps its heading after moving or after being swapped)."""
    arrows = {a.colour: a for a in state}
    mover = arrows[move.colour]
    heading = (mover.heading + TURNS[move.relative]) % 4
    dx, dy = STEP[heading]
    target = (mover.cell[0] + dx * move.steps, mover.cell[1] + dy * move.steps)
    if not (0 <= target[0] < size[0] and 0 <= target[1] < size[1]):
        return None
    for other in state:
        if other.cell == target:
            back = (heading + 2) % 4
            arrows[other.colour] = Arrow(other.colour, mover.cell,
                                         back if other_turns else other.heading)
    arrows[mover.colour] = Arrow(mover.colour, target, heading if mover_turns else mover.heading)
    return tuple(sorted(arrows.values()))


def run(state: State, moves: list[Move], size: Cell, **rules: bool) -> State | None:
    """The state after every move in turn, or None if one of them is invalid."""
    for move in moves:
        after = apply(state, move, size, **rules)
        if after is None:
            return None
        state = after
    return state


def swap_count(state: State, moves: list[Move], size: Cell) -> int:
    """How many of the moves land on another arrow."""
    count = 0
    for move in moves:
        after = apply(state, move, size)
        assert after is not None, "swap_count takes valid moves"
        occupied = {a.cell for a in state if a.colour != move.colour}
        count += next(a.cell for a in after if a.colour == move.colour) in occupied
        state = after
    return count


def random_state(rng: np.random.Generator, size: Cell, colours: list[str]) -> State:
    """The arrows ``colours`` on distinct random cells with random headings."""
    cells = rng.choice(size[0] * size[1], len(colours), replace=False)
    return tuple(sorted(Arrow(c, (int(i) % size[0], int(i) // size[0]), int(rng.integers(4)))
                        for c, i in zip(colours, cells, strict=True)))


def valid_moves(state: State, size: Cell) -> list[Move]:
    """Every move of any arrow that stays on the grid."""
    longest = max(size) - 1
    return [Move(a.colour, rel, k) for a in state for rel in TURNS for k in range(1, longest + 1)
            if apply(state, Move(a.colour, rel, k), size) is not None]


def random_moves(rng: np.random.Generator, state: State, size: Cell, count: int) -> list[Move]:
    """``count`` valid moves drawn uniformly one after the other."""
    moves = []
    for _ in range(count):
        options = valid_moves(state, size)
        moves.append(options[int(rng.integers(len(options)))])
        after = apply(state, moves[-1], size)
        assert after is not None  # valid_moves only offers moves that stay on the grid
        state = after
    return moves
