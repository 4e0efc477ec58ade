"""2DRotation's spec: the reference grid and the answer's similarity ranks; an option's
data: its grid and how it was made from the reference.  The question is fixed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spatialcad.geometry import grid2d
from spatialcad.geometry.grid2d import Grid
from spatialcad.record.spec import CANDIDATE, JsonSpec, Texts, judged_alike, optional, scene_text

QUESTION = (
    "The top image shows a grid of cells with a red square on one of its corners. Which "
    "option shows this grid rotated in its plane (turned as a whole, not flipped over)? "
    "Answer with A, B, C or D."
)


@dataclass(frozen=True)
class GridSpec(JsonSpec):
    """A grid as stored (:func:`spatialcad.geometry.grid2d.to_json`): per cell its colour
    name, its pattern name or None and the pattern's orientation; the marker's corner."""

    colours: list[list[str]]
    patterns: list[list[str | None]]
    turns: list[list[int]]  # counter-clockwise quarter turns of each pattern
    flips: list[list[int]]  # 1: the pattern is mirrored left-right before turning
    marker: str  # "tl", "tr", "br" or "bl"

    @classmethod
    def of(cls, grid: Grid) -> GridSpec:
        return cls.from_json(grid2d.to_json(grid), "grid")

    def grid(self) -> Grid:
        return grid2d.from_json(self.to_json())


@dataclass(frozen=True)
class AnswerRanks(JsonSpec):
    """The answer's rank (0 = smallest) among the options by thumbnail distance."""

    distance_to_reference: int
    distance_to_options: int


@dataclass(frozen=True)
class Spec(JsonSpec):
    reference: GridSpec
    size: tuple[int, int]  # rows, columns
    patterned: int  # cells carrying a symbol
    answer_ranks: AnswerRanks
    grids_drawn: int  # random grids tried until one allowed the drawn ranks


@dataclass(frozen=True, kw_only=True)
class Transform(JsonSpec):
    """How an option's grid was made: an optional mirror (``"lr"`` or ``"ud"``), then
    ``turns`` counter-clockwise quarter turns; ``symbol_turns``: the symbols' own turns
    when they were not turned with the grid."""

    mirror: str | None = optional()
    turns: int
    symbol_turns: int | None = optional()


@dataclass(frozen=True)
class OptionData(JsonSpec):
    grid: GridSpec
    transform: Transform


def parse_spec(data: Any) -> Spec:
    return Spec.from_json(data)


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def texts(spec: Spec, options: Sequence[OptionData]) -> Texts:
    return Texts(QUESTION, judge=judged_alike(
        f"The top image shows a grid of cells with a red square on one of its corners. Is "
        f"{CANDIDATE} this grid rotated in its plane (turned as a whole, not flipped over)?"))


def scene_key(spec: Spec) -> str:
    """The reference grid up to the 8 symmetries of the square (the question is the same
    for a turned or mirrored reference)."""
    grid = spec.reference.grid()
    mirrored = grid2d.mirror(grid, "lr")
    return min(scene_text(grid2d.to_json(grid2d.rotate(g, k)))
               for g in (grid, mirrored) for k in range(4))
