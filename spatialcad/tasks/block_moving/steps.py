"""BlockMoving's step-by-step solution: one step per move of the answer, each showing the
stack after it (and after the cubes fell) from both views of the item's panels."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import blocks
from spatialcad.render.block_views import state_pictures
from spatialcad.tasks.base import Step
from spatialcad.tasks.block_moving.spec import OptionData, Spec


def steps(spec: Spec, answer: OptionData) -> list[Step]:
    """The cubes' cells (colour: [x, y, z]) after each of the answer's moves."""
    state = spec.state(spec.voxels)
    out = []
    for k, move in enumerate(answer.moves, 1):
        after = blocks.apply_move(state, move, spec.space)
        if after is None:
            raise ValueError(f"move {k} leaves the space")
        state = after
        out.append(Step(f"Move the {move[0]} cube {move[1]}.",
                        {c: list(state[c]) for c in spec.colors}))
    return out


def picture(spec: Spec, answer: OptionData, state: Any) -> np.ndarray:
    """The two views of the reference panels, side by side."""
    cells = {c: (int(v[0]), int(v[1]), int(v[2])) for c, v in state.items()}
    return np.hstack(state_pictures(cells, spec.space))
