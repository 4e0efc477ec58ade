"""PaperFolding's spec: the sheet, its folds and the punched holes (sheet coordinates, see
spatialcad/geometry/paper.py), and the similarity ranks the answer was given; an option's
data: the holes of its unfolded sheet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spatialcad.geometry import paper as pf
from spatialcad.record.spec import CANDIDATE, JsonSpec, Texts, judged_alike, scene_text

STEPS = (
    "A sheet of grid paper is folded step by step as shown: in each step the shaded part is "
    "folded over along the dashed red line, in the direction of the arrow. Then holes are "
    "punched through all layers of the folded paper as shown in the last picture. "
)
QUESTION = (STEPS + "Which option shows the holes when the paper is completely unfolded? "
            "Answer with A, B, C or D.")
OPEN_QUESTION = (STEPS.replace("the last picture", "the last picture of the top row")
                 + "How many holes does the paper have when it is completely unfolded? "
                 "Answer with a single integer.")
COORDINATES = "x right (columns), y down (rows); holes are [row, col]"

Cell = tuple[int, int]  # (row, col)


@dataclass(frozen=True)
class Fold(JsonSpec):
    """Fold along ``a*x + b*y = c``, the side where ``a*x + b*y - c`` has sign ``flap``
    folded over (as :class:`spatialcad.geometry.paper.Fold`)."""

    kind: str  # "vertical" | "horizontal" | "diagonal"
    line: tuple[int, int, int]  # a, b, c
    flap: int  # +1 or -1


@dataclass(frozen=True)
class Spec(JsonSpec):
    rows: int
    cols: int
    folds: list[Fold]
    holes: list[Cell]  # punched in the folded paper
    coordinates: str  # COORDINATES, for readers of the record
    answer_ranks: tuple[int, int]  # the answer's similarity ranks (render/thumbnails.py)
    scenes_drawn: int  # scenes tried for these ranks


@dataclass(frozen=True)
class OptionData(JsonSpec):
    holes: list[Cell]  # of the unfolded sheet, sorted


def parse_spec(data: Any) -> Spec:
    return Spec.from_json(data)


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def unfolded_holes(spec: Spec) -> set[Cell]:
    """The holes of the completely unfolded sheet (spatialcad/geometry/paper.py)."""
    folds = [pf.Fold(f.kind, f.line, f.flap) for f in spec.folds]
    return pf.fold_all(spec.rows, spec.cols, folds)[-1].unfold(list(spec.holes))


def texts(spec: Spec, options: list[OptionData]) -> Texts:
    """The open form asks how many holes the unfolded sheet has."""
    return Texts(QUESTION, OPEN_QUESTION, str(len(unfolded_holes(spec))), judge=judged_alike(
        "A sheet of grid paper is folded step by step as shown, then holes are punched "
        f"through all layers as shown in the last picture of the top row. Does {CANDIDATE} "
        "show the holes when the paper is completely unfolded?"))


def scene_key(spec: Spec) -> str:
    """The sheet, its folds and the punched holes."""
    return scene_text([spec.rows, spec.cols, [f.to_json() for f in spec.folds],
                       sorted(spec.holes)])
