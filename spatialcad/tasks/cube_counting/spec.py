"""CubeCounting's spec (the stack, its views, the question kind and the exact bounds), an
option's data (its count, or None for "none of them") and the question texts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spatialcad.geometry.voxels import Voxel
from spatialcad.record.spec import (
    YES_NO,
    JsonSpec,
    SpecError,
    Texts,
    one_of,
    scene_text,
    view_orientation,
)

NONE_OF_THEM = "All three other options are incorrect"
VIEW_CAPTIONS = {"top": "Top view", "front": "Front view", "left": "Left view"}
NUMBER_WORDS = {2: "two", 3: "three"}
INTRO = ("The images show {count} views ({names}) of a stack of identical cubes. Every cube "
         "rests on the ground or on another cube. ")
ASKED = {  # question kind -> (multiple-choice question, fill-in question)
    "min": ("What is the minimum number of cubes the stack can have?",
            "What is the minimum number of cubes the stack can have? Answer with a single "
            "integer."),
    "max": ("What is the maximum number of cubes the stack can have?",
            "What is the maximum number of cubes the stack can have? Answer with a single "
            "integer."),
    "possible": ("How many cubes could the stack have?",
                 "What are the minimum and maximum numbers of cubes the stack can have? Answer "
                 "as two integers separated by a comma: min,max."),
}
KINDS = tuple(ASKED)
JUDGED = {  # question kind -> the yes/no question about one number
    "min": "Is {count} the minimum number of cubes the stack can have?",
    "max": "Is {count} the maximum number of cubes the stack can have?",
    "possible": "Could the stack have {count} cubes?",
}
CHOOSE = " Answer with A, B, C or D."


@dataclass(frozen=True)
class Bounds(JsonSpec):
    min: int
    max: int


@dataclass(frozen=True)
class Spec(JsonSpec):
    voxels: list[Voxel]
    space: list[int]  # the stack's box: x, y, z sizes
    views: list[str]  # the reference views, in the picture's order
    question: str  # one of KINDS
    bounds: Bounds  # fewest and most cubes any stack with these views has


@dataclass(frozen=True)
class OptionData(JsonSpec):
    value: int | None  # None: the "none of them" option


def parse_spec(data: Any) -> Spec:
    spec = Spec.from_json(data)
    one_of(spec.question, KINDS, "spec.question")
    if len(spec.views) not in NUMBER_WORDS or not set(spec.views) <= set(VIEW_CAPTIONS):
        raise SpecError(f"spec.views: expected 2 or 3 of {list(VIEW_CAPTIONS)}, "
                        f"got {spec.views!r}")
    return spec


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def choice_text(option: OptionData) -> str:
    return NONE_OF_THEM if option.value is None else str(option.value)


def texts(spec: Spec, options: list[OptionData]) -> Texts:
    intro = INTRO.format(count=NUMBER_WORDS[len(spec.views)],
                         names=", ".join(VIEW_CAPTIONS[v].lower() for v in spec.views))
    intro += view_orientation(spec.views)
    asked, direct = ASKED[spec.question]
    low, high = spec.bounds.min, spec.bounds.max
    answer = {"min": str(low), "max": str(high), "possible": f"{low},{high}"}[spec.question]
    judge = [None if o.value is None else  # "none of the others" means nothing alone
             intro + JUDGED[spec.question].format(count=o.value) + YES_NO for o in options]
    return Texts(intro + asked + CHOOSE, intro + direct, answer,
                 [choice_text(o) for o in options], judge)


def scene_key(spec: Spec) -> str:
    """The views shown (what the question is about) and the stack up to translation."""
    low = [min(c) for c in zip(*spec.voxels, strict=True)]
    cubes = sorted([c - o for c, o in zip(v, low, strict=True)] for v in spec.voxels)
    return scene_text([spec.question, spec.views, cubes])
