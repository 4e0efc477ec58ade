"""PaperFolding's listed scenes: every (sheet, fold sequence, punched holes) a small level
can draw, numbered, so that a run's items take them in turn (spatialcad/run/scenes.py).

A level lists its scenes when it makes at most ``LISTED_FOLDS`` folds (level 0: 2,624
scenes from 3x3 to 5x5 sheets, listed in ~0.35 s a process); three folds take seven times
as long to list (level 1's 19,984 scenes: ~2.4 s in every worker) and are drawn at random
as before, kept apart in blocks (spatialcad/run/scenes.py).  Scene ``k`` is found
without building the list of scenes: the fold sequences are listed (``fold_sequences``) with
the number of hole sets each leaves room for, and ``k`` is unranked into a sequence and a
set of its full cells.
"""

from __future__ import annotations

import bisect
import math
from functools import lru_cache
from itertools import accumulate
from typing import Any

from spatialcad.geometry import paper as pf

LISTED_FOLDS = 2  # the most folds of a level whose scenes are listed

Cell = tuple[int, int]
Scene = tuple[int, int, tuple[pf.Fold, ...], list[Cell]]  # rows, cols, folds, holes


def lists(p: dict[str, Any]) -> bool:
    """Whether the level of params ``p`` lists its scenes."""
    return p["folds"] <= LISTED_FOLDS


@lru_cache(maxsize=8)
def _sequences(sheets: tuple[tuple[int, int], ...], folds: int, holes: int, diagonal: bool
               ) -> tuple[list[tuple[int, int, tuple[pf.Fold, ...]]], list[int]]:
    """The level's fold sequences (each with its sheet) that leave room for the holes, and
    the running total of the hole sets they leave room for."""
    found, sets = [], []
    for r, c in sheets:
        for last_diagonal in (False, True) if diagonal else (False,):
            for seq, paper in pf.fold_sequences(r, c, folds, diagonal=last_diagonal):
                full = len(paper.full_cells())
                if full >= holes:
                    found.append((r, c, seq))
                    sets.append(math.comb(full, holes))
    return found, list(accumulate(sets))


def _full(rows: int, cols: int, folds: tuple[pf.Fold, ...]) -> list[Cell]:
    return pf.fold_all(rows, cols, list(folds))[-1].full_cells()


def _key(p: dict[str, Any]) -> tuple[tuple[tuple[int, int], ...], int, int, bool]:
    return tuple((r, c) for r, c in p["sizes"]), p["folds"], p["holes"], p["diagonal"]


def count(p: dict[str, Any]) -> int:
    """The number of scenes of the level of params ``p`` (one that lists them)."""
    return _sequences(*_key(p))[1][-1]


def scene(p: dict[str, Any], k: int) -> Scene:
    """Scene ``k`` of the level of params ``p`` (``0 <= k < count(p)``)."""
    found, totals = _sequences(*_key(p))
    at = bisect.bisect_right(totals, k)
    rows, cols, folds = found[at]
    full = _full(rows, cols, folds)
    rank = k - (totals[at - 1] if at else 0)
    return rows, cols, folds, sorted(_nth_combination(full, p["holes"], rank))


def _nth_combination(pool: list[Cell], r: int, index: int) -> list[Cell]:
    """The ``index``-th ``r``-subset of ``pool`` in ``itertools.combinations`` order."""
    n, out = len(pool), []
    start = 0
    for left in range(r, 0, -1):
        for i in range(start, n):
            below = math.comb(n - i - 1, left - 1)  # subsets whose next element is pool[i]
            if index < below:
                out.append(pool[i])
                start = i + 1
                break
            index -= below
    return out
