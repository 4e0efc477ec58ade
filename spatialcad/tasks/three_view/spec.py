"""3ViewProjection's specs and option data, and the question texts.

Level 0 (:class:`StackSpec`): a cube stack with red cubes; an option is a view of the stack
with its red cubes (:class:`StackOption`).  Levels 1-3 (:class:`PartSpec`): a part file
turned by an axis rotation and drawn at one scale; an option is the recipe of its drawing,
a view of the part optionally edited (:class:`PartOption`).  A record's spec is a part spec
when it has the key ``part``, an option's data a stack option when it has ``red``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from spatialcad.geometry.drawing_edits import TRANSFORMS, edited
from spatialcad.geometry.line_drawing import LineDrawing
from spatialcad.geometry.voxels import Voxel
from spatialcad.record.spec import (
    CANDIDATE,
    JsonSpec,
    SpecError,
    Texts,
    judged_alike,
    optional,
    scene_text,
)

STACK_REFERENCE = ("isometric", "front", "top")
STACK_ASKED = "left"
LEFT_VIEW_NOTE = "The {thing}'s front appears on the right of a left view."
STACK_QUESTION = (
    "The top row shows a stack of cubes, some of them red, in an isometric view, a front view "
    "and a top view. Which option is the left view of the stack (seen from its left side, "
    "looking in the direction of the front view's right)? "
    + LEFT_VIEW_NOTE.format(thing="stack") + " Answer with A, B, C or D."
)
SEEN_FROM = {
    "front": "seen from the front",
    "back": "seen from behind",
    "top": "seen from above, the front at the bottom",
    "bottom": "seen from below",
    "left": "seen from the part's left side",
    "right": "seen from the part's right side",
}
PRINCIPAL = ("front", "top", "left")  # a part's reference and asked views are these
PART_QUESTION = (
    "The top row shows a machine part in an isometric view, its {first} view and its {second} "
    "view (orthographic; visible edges solid, hidden edges dashed). Which option is its "
    "{asked} view, {seen}?{note} Answer with A, B, C or D."
)


def left_view_note(views: list[str], thing: str) -> str:
    """The sentence placing a left view's front (with a leading space) when ``views`` holds
    the left view, else ""; without it a reader may take a left view for a right view."""
    return " " + LEFT_VIEW_NOTE.format(thing=thing) if "left" in views else ""


def view_words(view: str) -> str:
    """E.g. "the top view (seen from above, the front at the bottom)"."""
    return f"the {view} view ({SEEN_FROM[view]})"


@dataclass(frozen=True)
class StackSpec(JsonSpec):
    voxels: list[Voxel]
    red: list[Voxel]  # the red cubes, sorted
    space: list[int]  # the box the stack was drawn in: x, y, z sizes
    reference_views: list[str]  # STACK_REFERENCE
    asked_view: str  # STACK_ASKED


@dataclass(frozen=True)
class StackOption(JsonSpec):
    view: str  # "left" or "right"
    red: list[Voxel]  # the cubes it shows red, sorted


@dataclass(frozen=True)
class PartFile(JsonSpec):
    name: str
    file: str  # as cad.parts.portable gives it, or a generated part's recipe name
    sha256: str
    faces: int


@dataclass(frozen=True)
class PartSpec(JsonSpec):
    part: PartFile
    rotation: list[list[int]]  # 3x3, one of the 24 proper rotations
    reference_views: list[str]  # "isometric" and two of PRINCIPAL
    asked_view: str  # the remaining one of PRINCIPAL
    scale_px_per_mm: float
    deflection_mm: float  # curve discretization of the projections
    answer_ranks: list[int]  # the answer's similarity ranks (render/thumbnails.py)
    parts_drawn: int  # parts tried until one gave an option set with those ranks


@dataclass(frozen=True)
class PartOption(JsonSpec):
    """The recipe of an option's drawing: a view of the turned part, then edited."""

    view: str
    transform: str | None = optional()  # a name of geometry.drawing_edits.TRANSFORMS
    deleted: tuple[bool, int] | None = optional()  # (hidden, index) of a line taken out

    def drawing(self, views: Mapping[str, LineDrawing]) -> LineDrawing:
        """The drawing this recipe makes from the part's ``views``."""
        return edited(views[self.view], self.transform, self.deleted)


Spec = StackSpec | PartSpec
OptionData = StackOption | PartOption


def parse_spec(data: Any) -> Spec:
    if isinstance(data, dict) and "part" in data:
        part = PartSpec.from_json(data)
        views = part.reference_views
        if (len(views) != 3 or views[0] != "isometric"
                or sorted([*views[1:], part.asked_view]) != sorted(PRINCIPAL)):
            raise SpecError(f"spec: views {views} and {part.asked_view!r} are not the "
                            f"isometric view and {', '.join(PRINCIPAL)}")
        return part
    stack = StackSpec.from_json(data)
    if tuple(stack.reference_views) != STACK_REFERENCE or stack.asked_view != STACK_ASKED:
        raise SpecError(f"spec: a stack item shows {list(STACK_REFERENCE)} and asks for "
                        f"{STACK_ASKED!r}, not {stack.reference_views} and {stack.asked_view!r}")
    return stack


def parse_option(data: Any) -> OptionData:
    if isinstance(data, dict) and "red" in data:
        return StackOption.from_json(data, "option")
    option = PartOption.from_json(data, "option")
    if option.view not in SEEN_FROM or option.transform not in (None, *TRANSFORMS):
        raise SpecError(f"option: no view {option.view!r} or edit {option.transform!r}")
    return option


def texts(spec: Spec, options: list[OptionData]) -> Texts:
    if isinstance(spec, StackSpec):
        return Texts(STACK_QUESTION, judge=judged_alike(
            "The top row shows a stack of cubes, some of them red, in an isometric view, a "
            f"front view and a top view. Is {CANDIDATE} the left view of the stack (seen "
            "from its left side, looking in the direction of the front view's right)?"
            + left_view_note([STACK_ASKED], "stack")))
    first, second = spec.reference_views[1:]
    asked = spec.asked_view
    note = left_view_note([first, second, asked], "part")
    return Texts(PART_QUESTION.format(first=first, second=second, asked=asked,
                                      seen=SEEN_FROM[asked], note=note), judge=judged_alike(
        f"The top row shows a machine part in an isometric view, its {first} view and its "
        f"{second} view (orthographic; visible edges solid, hidden edges dashed). Is "
        f"{CANDIDATE} its {asked} view, {SEEN_FROM[asked]}?{note}"))


def scene_key(spec: Spec) -> str:
    """A stack with its red cubes up to translation (the views depend on its turn); a part
    by its file's SHA-256 (every turn and view of one part is one scene)."""
    if isinstance(spec, StackSpec):
        low = [min(c) for c in zip(*spec.voxels, strict=True)]
        return scene_text([sorted(_moved(spec.voxels, low)), sorted(_moved(spec.red, low))])
    return part_scene_key(spec.part.sha256)


def part_scene_key(sha256: str) -> str:
    """The scene key of every item on the part whose file has this SHA-256."""
    return scene_text(["part", sha256])


def _moved(cubes: list[Voxel], low: list[int]) -> list[list[int]]:
    return [[c - o for c, o in zip(v, low, strict=True)] for v in cubes]
