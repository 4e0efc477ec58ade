"""CubeReconstruction's step-by-step solution: the net shown, folded into the cube one
hinge at a time (spatialcad/tasks/cube_steps.py); the last step says which colour is
opposite the named face, or how the closed cube is turned to show the answer's corner
view."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.tasks.base import Step
from spatialcad.tasks.cube_reconstruction.spec import (
    OPPOSITE,
    OptionData,
    Spec,
    ViewOption,
    opposite_colour,
)
from spatialcad.tasks.cube_steps import best_pose, closed_cube, fold_picture, fold_steps, turned_so


def steps(spec: Spec, answer: OptionData) -> list[Step]:
    if spec.question == OPPOSITE:
        closing = (f"The cube is closed: the {opposite_colour(spec)} face is opposite the "
                   f"{spec.named} face.")
    else:
        if not isinstance(answer, ViewOption):
            raise ValueError("the view question's answer shows no view")
        cube = closed_cube(spec.cells)
        pose, wrong = best_pose(cube, spec.faces, answer.view.grids())
        if wrong:
            raise ValueError("the answer's view is not a view of the folded cube")
        closing = (f"The cube is closed. Turned {turned_so(cube, spec.faces, spec.cells, pose)}"
                   ", it looks like the answer's corner view.")
    return fold_steps(spec.cells, spec.faces, closing)


def picture(spec: Spec, answer: OptionData, state: Any) -> np.ndarray:
    return fold_picture(spec.cells, spec.faces, state)
