"""ArrowMoving's step-by-step solution: one step per move of the true sequence, each
showing the board after it (drawn like the item's boards)."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import arrows as ar
from spatialcad.render.arrow_drawing import board
from spatialcad.tasks.arrow_moving.spec import Arrow, Move, OptionData, Spec
from spatialcad.tasks.base import Step


def _state(arrows: list[Arrow]) -> ar.State:
    return tuple(sorted(ar.Arrow(a.colour, (a.cell[0], a.cell[1]), ar.HEADINGS.index(a.heading))
                        for a in arrows))


def _json(state: ar.State) -> list[dict[str, Any]]:
    return [a.as_dict() for a in state]


def _mover(spec: Spec, m: Move) -> str:
    return "the arrow " if spec.single else f"the {m.colour} arrow "


def steps(spec: Spec, answer: OptionData) -> list[Step]:
    """The board after each of the item's moves (those of the answer, for "path" items)."""
    state = _state(spec.start)
    out = []
    for k, m in enumerate(spec.moves, 1):
        after = ar.apply(state, ar.Move(m.colour, m.relative, m.steps), spec.grid)
        if after is None:
            raise ValueError(f"move {k} leaves the grid")
        state = after
        out.append(Step(f"Move {_mover(spec, m)}{m.relative} {m.steps}.", _json(state)))
    return out


def picture(spec: Spec, answer: OptionData, state: Any) -> np.ndarray:
    arrows = [Arrow.from_json(a, "arrow") for a in state]
    return board(spec.grid[0], spec.grid[1],
                 [(spec.palette[a.colour], a.cell, ar.HEADINGS.index(a.heading)) for a in arrows])
