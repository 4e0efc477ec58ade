"""PaperFolding: a grid sheet is folded, punched through all layers; which unfolded sheet?

After SpatialViz-Bench Alg. 6-7.  The reference row shows every fold (the flap shaded, the
fold line dashed, an arrow to where the flap lands) and the punched folded paper; the
options are hole patterns of the whole sheet: the true one, and the true one mirrored,
with a hole added, deleted or moved, or with two rows or two columns swapped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from spatialcad.geometry import paper as pf
from spatialcad.render import paper_drawing as draw
from spatialcad.tasks.base import Draft, Option, Panel, Reject, Task
from spatialcad.tasks.registry import register

Cell = tuple[int, int]
Pattern = frozenset[Cell]

QUESTION = (
    "A sheet of grid paper is folded step by step as shown: in each step the shaded part is "
    "folded over along the dashed red line, in the direction of the arrow. Then holes are "
    "punched through all layers of the folded paper as shown in the last picture. Which "
    "option shows the holes when the paper is completely unfolded? Answer with A, B, C or D."
)


@register
class PaperFolding(Task):
    name = "paper_folding"
    record_task = "PaperFolding"
    category = "MentalFolding"

    def params(self, level: int) -> dict[str, Any]:
        """L0: 3x3 sheet, 2 folds, 1 hole; L1: 4x4, 3 folds (the last may be diagonal),
        2 holes; L2: 5x6, 3 folds, 3 holes; higher: the sheet, the folds and the holes keep
        growing up to 8x9 cells, 5 folds and 6 holes (beyond that the pictures, one per
        fold, get too small to read)."""
        if level == 0:
            return {"rows": 3, "cols": 3, "folds": 2, "holes": 1, "diagonal": False}
        return {"rows": min(3 + level, 8), "cols": min(3 + level + (level % 2 == 0), 9),
                "folds": min(3 + (level - 1) // 2, 5), "holes": min(level + 1, 6),
                "diagonal": True}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        p = self.params(level)
        rows, cols = p["rows"], p["cols"]
        diagonal = p["diagonal"] and bool(rng.random() < 0.5)
        folds = pf.random_folds(rng, rows, cols, p["folds"], diagonal=diagonal,
                                min_cells=p["holes"])
        if folds is None:
            raise Reject("no fold sequence leaves room for the holes")
        states = pf.fold_all(rows, cols, folds)
        free = states[-1].full_cells()
        holes = sorted(free[i] for i in rng.choice(len(free), p["holes"], replace=False))
        truth = frozenset(states[-1].unfold(holes))
        wrong = _distractors(truth, rows, cols, rng)
        if len(wrong) < 3:
            raise Reject("too few distinct wrong hole patterns")

        reference = []
        for i, (state, fold) in enumerate(zip(states, folds, strict=False)):
            flap = state.flap(fold)
            start = flap.centroid.coords[0]
            image = draw.fold_step(rows, cols, state.outline(), flap, state.fold_segment(fold),
                                   (start, fold.reflect(start)))
            reference.append(Panel(image, f"Fold {i + 1}"))
        reference.append(Panel(draw.punched(rows, cols, states[-1].outline(), holes), "Punch"))

        answer = Option(
            is_answer=True, operator="unfold",
            explanation=f"Unfolding copies each punched hole across every fold line it lies "
            f"under: the {len(holes)} punched holes become these {len(truth)} holes.",
        )
        options = [(answer, truth)] + [
            (Option(is_answer=False, operator=op, explanation=why), pattern)
            for op, why, pattern in wrong
        ]
        for option, pattern in options:
            option.image = draw.hole_pattern(rows, cols, sorted(pattern))
            option.data = {"holes": [list(c) for c in sorted(pattern)]}
        return Draft(
            question=QUESTION,
            spec={
                "rows": rows,
                "cols": cols,
                "folds": [f.as_dict() for f in folds],
                "holes": [list(h) for h in holes],
                "coordinates": "x right (columns), y down (rows); holes are [row, col]",
            },
            reference=reference,
            options=[o for o, _ in options],
        )


def _mirror(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
    flips = [frozenset((r, cols - 1 - c) for r, c in t), frozenset((rows - 1 - r, c) for r, c in t)]
    differing = [f for f in flips if f != t]
    return differing[int(rng.integers(len(differing)))] if differing else None


def _move(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
    moves = [(h, (h[0] + dr, h[1] + dc)) for h in sorted(t)
             for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    moves = [(h, n) for h, n in moves if 0 <= n[0] < rows and 0 <= n[1] < cols and n not in t]
    if not moves:
        return None
    old, new = moves[int(rng.integers(len(moves)))]
    return (t - {old}) | {new}


def _add(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
    empty = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in t]
    return t | {empty[int(rng.integers(len(empty)))]} if empty else None


def _delete(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
    if len(t) < 2:
        return None
    cells = sorted(t)
    return t - {cells[int(rng.integers(len(cells)))]}


def _swap_lines(axis: int) -> Callable[[Pattern, int, int, np.random.Generator], Pattern | None]:
    """Swap two rows (axis 0) or two columns (axis 1) whose holes differ."""

    def swap(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
        n = (rows, cols)[axis]
        lines = [{h[1 - axis] for h in t if h[axis] == i} for i in range(n)]
        pairs = [(i, j) for i in range(n) for j in range(i) if lines[i] != lines[j]]
        if not pairs:
            return None
        i, j = pairs[int(rng.integers(len(pairs)))]
        swap_ij = {i: j, j: i}

        def moved(h: Cell) -> Cell:
            k = swap_ij.get(h[axis], h[axis])
            return (k, h[1]) if axis == 0 else (h[0], k)

        return frozenset(moved(h) for h in t)

    return swap


OPERATORS = {
    "mirror": ("The true pattern mirrored: the holes are on the wrong side.", _mirror),
    "move_hole": ("One hole is moved by one cell.", _move),
    "add_hole": ("It has one hole too many.", _add),
    "delete_hole": ("One hole is missing.", _delete),
    "swap_rows": ("Two rows of holes are swapped.", _swap_lines(0)),
    "swap_cols": ("Two columns of holes are swapped.", _swap_lines(1)),
}


def _distractors(truth: Pattern, rows: int, cols: int,
                 rng: np.random.Generator) -> list[tuple[str, str, Pattern]]:
    """Up to three wrong patterns made by different operators, all distinct."""
    seen, out = {truth}, []
    for name in rng.permutation(sorted(OPERATORS)):
        why, make = OPERATORS[str(name)]
        pattern = make(truth, rows, cols, rng)
        if pattern and pattern not in seen:
            seen.add(pattern)
            out.append((str(name), why, pattern))
        if len(out) == 3:
            break
    return out
