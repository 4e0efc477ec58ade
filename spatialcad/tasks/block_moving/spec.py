"""BlockMoving's spec: the space, each cube's colour name and its cell in the initial and
the final state; an option's data: its move sequence.  Also the question and a move
sequence's text (the options)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spatialcad.geometry.blocks import Move, State
from spatialcad.geometry.voxels import Voxel
from spatialcad.record.spec import YES_NO, JsonSpec, Texts, scene_text

JUDGE_INTRO = (
    "The images show a stack of coloured cubes in an initial state and in a final state, each "
    "seen from the front-right and from the back-left; the arrows give the directions of the "
    "x, y and z axes and the checkered floor marks the cells. A move shifts one cube by one "
    "cell in the direction +x, -x, +y, -y, +z or -z; if that cell holds another cube, the two "
    "cubes swap places. After each move, every cube that rests neither on the floor nor on "
    "another cube falls straight down until it does. "
)
QUESTION = (JUDGE_INTRO + "Which sequence of moves, applied in order, turns the initial state "
            "into the final state? Answer with A, B, C or D.")


@dataclass(frozen=True)
class Spec(JsonSpec):
    space: list[int]  # cells along x, y and z
    colors: list[str]  # the cubes' colour names
    voxels: list[Voxel]  # the initial state: the cubes' cells, in the order of ``colors``
    final: list[Voxel]  # the final state, likewise
    views: list[str]  # the reference views of each state, in order

    def state(self, cells: Sequence[Voxel]) -> State:
        """The state with the cubes at ``cells`` (in the order of ``colors``)."""
        return dict(zip(self.colors, cells, strict=True))


@dataclass(frozen=True)
class OptionData(JsonSpec):
    moves: list[Move]  # (colour name, direction "+x", "-x", ... "-z")


def moves_text(moves: Sequence[Move]) -> str:
    """E.g. "red cube +x, blue cube -z"."""
    return ", ".join(f"{colour} cube {d}" for colour, d in moves)


def parse_spec(data: Any) -> Spec:
    return Spec.from_json(data)


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def texts(spec: Spec, options: Sequence[OptionData]) -> Texts:
    said = [moves_text(o.moves) for o in options]
    judge: list[str | None] = [
        f"{JUDGE_INTRO}Does this sequence of moves, applied in order, turn the initial state "
        f"into the final state: {text}?{YES_NO}" for text in said]
    return Texts(QUESTION, choices=said, judge=judge)


def scene_key(spec: Spec) -> str:
    """The coloured cubes in their initial and final cells."""
    return scene_text([spec.colors, sorted(map(list, spec.voxels)),
                       sorted(map(list, spec.final))])
