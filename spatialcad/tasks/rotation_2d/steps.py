"""2DRotation's step-by-step solution: the reference turned to the answer a quarter turn at
a time (90 degrees counter-clockwise per step; a 270-degree turn is one step clockwise),
each grid drawn like the item's panels."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import grid2d
from spatialcad.render.grid2d import draw_grid
from spatialcad.tasks.base import Step
from spatialcad.tasks.rotation_2d.spec import GridSpec, OptionData, Spec


def quarter_steps(turns: int) -> list[int]:
    """The quarter turns (+1 counter-clockwise, -1 clockwise) making ``turns`` CCW ones."""
    k = turns % 4
    return [-1] if k == 3 else [1] * k


def steps(spec: Spec, answer: OptionData) -> list[Step]:
    """The grid (as stored in records, :class:`GridSpec`) after each quarter turn."""
    grid = spec.reference.grid()
    out = []
    for turn in quarter_steps(answer.transform.turns):
        grid = grid2d.rotate(grid, turn)
        way = "counter-clockwise" if turn == 1 else "clockwise"
        out.append(Step(f"Rotate the grid 90 degrees {way}.", grid2d.to_json(grid)))
    return out


def picture(spec: Spec, answer: OptionData, state: Any) -> np.ndarray:
    return draw_grid(GridSpec.from_json(state, "state").grid())
