"""3DRotation's spec (the reference stack, the question kind, every option's stack and how
they are drawn), an option's data (its stack and how it was made) and the question."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spatialcad.geometry import rotations
from spatialcad.geometry.colours import Colour
from spatialcad.geometry.voxels import Voxel
from spatialcad.record.spec import (
    CANDIDATE,
    JsonSpec,
    SpecError,
    Texts,
    judged_alike,
    one_of,
    optional,
    scene_text,
    spoken_list,
)
from spatialcad.render.stacks import OPPOSITE_CORNERS

QUESTIONS = {
    "can": "Which option can be obtained by rotating this stack in space? "
    "Answer with A, B, C or D.",
    "cannot": "Which option cannot be obtained by rotating this stack in space? "
    "Answer with A, B, C or D.",
}
KINDS = tuple(QUESTIONS)
VIEWS = tuple(OPPOSITE_CORNERS)
SIDES = ("left", "right")


@dataclass(frozen=True)
class Spec(JsonSpec):
    voxels: list[Voxel]  # the reference stack
    space: list[int]  # the box it was drawn in: x, y, z sizes
    question: str  # "can" or "cannot"
    chiral: bool
    option_voxels: list[list[Voxel]]  # the options' stacks, before shuffling
    colour: Colour  # of every cube
    panel: tuple[int, int]  # width, height of every picture
    views: list[str]  # the reference's pictures, left to right (render/stacks.py)


@dataclass(frozen=True)
class OptionData(JsonSpec):
    voxels: list[Voxel]
    steps: list[tuple[str, int]]  # the quarter turns applied: (axis, how many)
    mirror_axis: str | None = optional()  # a mirror option: the axis reflected along
    removed: Voxel | None = optional()  # a removed-cube option: the cube taken away


def parse_spec(data: Any) -> Spec:
    spec = Spec.from_json(data)
    one_of(spec.question, KINDS, "spec.question")
    if not 1 <= len(spec.views) <= len(SIDES):
        raise SpecError(f"spec.views: expected 1 or 2 views, got {len(spec.views)}")
    for view in spec.views:
        one_of(view, VIEWS, "spec.views")
    return spec


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def shown(spec: Spec) -> str:
    """What the reference pictures show, in words."""
    if len(spec.views) == 1:
        return f"The top image shows a stack of identical cubes seen from the {spec.views[0]}."
    sides = SIDES[: len(spec.views)]
    seen = spoken_list([f"from the {v} ({s})" for v, s in zip(spec.views, sides, strict=True)])
    return f"The top row shows one stack of identical cubes seen {seen}."


def texts(spec: Spec, options: list[OptionData]) -> Texts:
    judge = judged_alike(f"{shown(spec)} Can {CANDIDATE} be obtained by rotating this stack "
                         "in space?")
    return Texts(f"{shown(spec)} {QUESTIONS[spec.question]}", judge=judge,
                 judge_polarity=spec.question == "can")


def scene_key(spec: Spec) -> str:
    """The reference stack up to translation and the 24 rotations."""
    return scene_text([spec.question, rotations.canonical(spec.voxels)])
