"""3DRotation's step-by-step solution: how the answer is made from the reference stack.
For a "can" item, the answer's turns one quarter turn (90 degrees, right-handed) about a
named axis at a time; for a "cannot" item the answer is no rotation, and the steps show it
made from the reference: mirrored or one cube removed first, then turned likewise.  Each
stack is drawn like the item's panels (isometric, the same colour), at one scale fitting
the item's stacks and every step's."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import rotations
from spatialcad.geometry.voxels import Voxel
from spatialcad.render.stacks import common_isometric_framing, stack_picture
from spatialcad.tasks.base import Step
from spatialcad.tasks.rotation_3d.spec import OptionData, Spec

AXIS_WORDS = {"x": "x (left-right)", "y": "y (front-back)", "z": "z (vertical)"}


def _json(stack: tuple[Voxel, ...]) -> list[list[int]]:
    return [list(v) for v in stack]


def steps(spec: Spec, answer: OptionData) -> list[Step]:
    """The stack (sorted cells, moved to the origin) after each step."""
    stack = rotations.normalize(spec.voxels)
    out = []
    if answer.mirror_axis is not None:
        stack = rotations.mirror(stack, "xyz".index(answer.mirror_axis))
        out.append(Step(f"Mirror the stack along the {AXIS_WORDS[answer.mirror_axis]} axis.",
                        _json(stack)))
    if answer.removed is not None:
        stack = rotations.normalize(v for v in spec.voxels if v != tuple(answer.removed))
        out.append(Step(f"Remove the cube at {list(answer.removed)}.", _json(stack)))
    for axis, quarters in answer.steps:
        for _ in range(quarters % 4):
            stack = rotations.rotate(stack, rotations.axis_rotation(axis, 1))
            out.append(Step(f"Turn the stack 90 degrees about the {AXIS_WORDS[axis]} axis.",
                            _json(stack)))
    return out


def picture(spec: Spec, answer: OptionData, state: Any) -> np.ndarray:
    stacks = [spec.voxels, *spec.option_voxels, *(s.state for s in steps(spec, answer))]
    framing = common_isometric_framing([[tuple(v) for v in s] for s in stacks], spec.panel)
    cells = [(int(x), int(y), int(z)) for x, y, z in state]
    return stack_picture(cells, framing, colors=dict.fromkeys(cells, spec.colour))
