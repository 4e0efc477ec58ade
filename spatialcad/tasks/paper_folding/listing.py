"""PaperFolding's listed scenes: every (sheet, fold sequence, punched holes) a small level
can draw, numbered, so that a run's items take them in turn (spatialcad/run/scenes.py).

A level lists its scenes when every sheet it draws has at most ``LISTED_CELLS`` cells
(levels 0 and 1: a few hundred fold sequences, about a second to list); larger sheets hold
far more scenes (level 2: 74,016) and are drawn at random as before.  Scene ``k`` is found
without building the list of scenes: the fold sequences are listed (``all_folds``) with
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

LISTED_CELLS = 16  # the most cells of a sheet of a level whose scenes are listed

Cell = tuple[int, int]
Scene = tuple[int, int, tuple[pf.Fold, ...], list[Cell]]  # rows, cols, folds, holes


def lists(p: dict[str, Any]) -> bool:
    """Whether the level of params ``p`` lists its scenes."""
    return p["rows"][1] * p["cols"][1] <= LISTED_CELLS


@lru_cache(maxsize=8)
def _sequences(rows: tuple[int, int], cols: tuple[int, int], folds: int, holes: int,
               diagonal: bool) -> tuple[list[tuple[int, int, tuple[pf.Fold, ...]]], list[int]]:
    """The level's fold sequences (each with its sheet) and the running total of the hole
    sets they leave room for."""
    found = []
    for r in range(rows[0], rows[1] + 1):
        for c in range(cols[0], cols[1] + 1):
            for last_diagonal in (False, True) if diagonal else (False,):
                found += [(r, c, seq) for seq in pf.all_folds(r, c, folds,
                                                              diagonal=last_diagonal,
                                                              min_cells=holes)]
    sizes = [math.comb(len(_full(r, c, seq)), holes) for r, c, seq in found]
    return found, list(accumulate(sizes))


def _full(rows: int, cols: int, folds: tuple[pf.Fold, ...]) -> list[Cell]:
    return pf.fold_all(rows, cols, list(folds))[-1].full_cells()


def _key(p: dict[str, Any]) -> tuple[tuple[int, int], tuple[int, int], int, int, bool]:
    return tuple(p["rows"]), tuple(p["cols"]), p["folds"], p["holes"], p["diagonal"]


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
