"""CubeUnfolding's step-by-step solution: the answer's net folded into its cube one hinge
at a time (spatialcad/tasks/cube_steps.py).  For a "can" item the last step says how the
closed cube is turned to look exactly like the cube shown.  For a "cannot" item the same
folding is the honest chain (the cube shown has hidden faces, so it has no net of its own
to fold): the last step turns the closed cube to match the picture as well as any turn
can, and names where it still differs."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.tasks.base import Step
from spatialcad.tasks.cube_steps import (
    best_pose,
    closed_cube,
    difference,
    fold_picture,
    fold_steps,
    turned_so,
)
from spatialcad.tasks.cube_unfolding.spec import OptionData, Spec


def steps(spec: Spec, answer: OptionData) -> list[Step]:
    cube = closed_cube(answer.cells)
    view = spec.view.grids()
    pose, wrong = best_pose(cube, spec.faces, view)
    turned = turned_so(cube, spec.faces, answer.cells, pose)
    if not wrong:
        closing = f"The cube is closed. Turned {turned}, it looks exactly like the cube shown."
    else:
        differs = " and ".join(difference(cube, spec.faces, answer.cells, view, pose, name)
                               for name in wrong)
        closing = (f"The cube is closed, and no turn makes it look like the cube shown: "
                   f"turned {turned}, it comes closest, yet {differs}.")
    return fold_steps(answer.cells, spec.faces, closing)


def picture(spec: Spec, answer: OptionData, state: Any) -> np.ndarray:
    return fold_picture(answer.cells, spec.faces, state)
