"""CubeAssembly's spec: the complete stack, how many pieces it is split into and the given
pieces in place; an option's data: its piece (moved to the origin) and, for a wrong piece,
the one-cube edits of the missing piece that made it.  Also the question it asks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spatialcad.geometry.voxels import Voxel
from spatialcad.record.spec import (
    CANDIDATE,
    JsonSpec,
    Texts,
    judged_alike,
    optional,
    scene_text,
    spoken_list,
)

SCENE = (
    "The first picture shows a complete stack of identical cubes; every cube rests on the "
    "floor or on another cube. The stack is split into {k} face-connected pieces. All pieces "
    "but one are shown, each in its place in the stack ({parts}). Every picture shows its "
    "cubes from the front-right (upper view) and from the back-left (lower view), all at the "
    "same scale. Dark floor tiles mark the cells under each piece's cubes. "
)
QUESTION = (SCENE + "Which option is the missing piece that completes the stack? The options "
            "are moved, but not rotated. Answer with A, B, C or D.")
OPEN_QUESTION = (SCENE.replace("The first picture", "The first picture of the top row")
                 .replace("All pieces but one are shown", "All pieces but one are shown in the "
                          "top row")
                 + "How many cubes does the missing piece have? Answer with a single integer.")


@dataclass(frozen=True)
class Spec(JsonSpec):
    voxels: list[Voxel]  # the complete stack
    space: tuple[int, int, int]  # the box the stack was built in (and the floor drawn)
    pieces: int  # the stack is split into this many pieces
    parts: list[list[Voxel]]  # the given pieces (all but the missing one), in place
    answer_ranks: tuple[int, int]  # the answer's picture-similarity ranks (render.thumbnails)
    stacks_drawn: int  # stacks tried until one gave the answer these ranks


@dataclass(frozen=True)
class OptionData(JsonSpec):
    voxels: list[Voxel]  # the option's piece, moved to its minimum corner
    edits: list[str] | None = optional()  # a wrong piece's edits of the missing one


def part_names(k: int) -> list[str]:
    """The captions of the given pieces of a stack split into ``k``."""
    return [f"Part {i + 1}" for i in range(k - 1)]


def parse_spec(data: Any) -> Spec:
    return Spec.from_json(data)


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def texts(spec: Spec, options: list[OptionData]) -> Texts:
    """The question, naming the pieces of ``spec``; the options are pictures.  The open form
    asks how many cubes the missing piece has (the stack's cubes less the given pieces')."""
    given = spoken_list(part_names(spec.pieces))
    missing = len(set(spec.voxels)) - sum(len(set(p)) for p in spec.parts)
    judge = judged_alike(
        f"The top images show a stack of cubes split into {spec.pieces} pieces, and the "
        f"pieces {given} in place. Is {CANDIDATE} the missing piece that completes the "
        "stack?")
    return Texts(QUESTION.format(k=spec.pieces, parts=given),
                 OPEN_QUESTION.format(k=spec.pieces, parts=given), str(missing), judge=judge)


def scene_key(spec: Spec) -> str:
    """The whole stack and its given pieces, up to translation."""
    return scene_text([sorted(map(list, spec.voxels)), sorted(sorted(map(list, p))
                                                              for p in spec.parts)])
