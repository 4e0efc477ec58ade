"""PaperFolding's step-by-step solution: the folds undone one by one, last fold first, each
step showing the paper with the holes it then has (the punched picture's drawing; the
last step is the unfolded sheet drawn like the options)."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import paper as pf
from spatialcad.render import paper_drawing as draw
from spatialcad.tasks.base import Step
from spatialcad.tasks.paper_folding.spec import OptionData, Spec


def _papers(spec: Spec) -> list[pf.Paper]:
    folds = [pf.Fold(f.kind, f.line, f.flap) for f in spec.folds]
    return pf.fold_all(spec.rows, spec.cols, folds)


def steps(spec: Spec, answer: OptionData) -> list[Step]:
    """State ``{"folds": j, "holes": [[row, col], ...]}``: the paper with its first j folds
    still made, and where the holes are on it."""
    papers = _papers(spec)
    sheet = papers[-1].unfold(list(spec.holes))
    out = []
    for j in range(len(spec.folds) - 1, -1, -1):
        holes = sorted(papers[j].folded_cells(sheet))
        fold = spec.folds[j]
        out.append(Step(f"Unfold fold {j + 1} (the {fold.kind} fold): {len(holes)} holes.",
                        {"folds": j, "holes": [list(h) for h in holes]}))
    return out


def picture(spec: Spec, answer: OptionData, state: Any) -> np.ndarray:
    holes = [(int(r), int(c)) for r, c in state["holes"]]
    if state["folds"] == 0:
        return draw.hole_pattern(spec.rows, spec.cols, holes)
    paper = _papers(spec)[state["folds"]]
    return draw.punched(spec.rows, spec.cols, paper.outline(), holes)
