"""PaperFolding's listed scenes: every (sheet, fold sequence, punched holes) a level of at
most ``LISTED_FOLDS`` folds can draw, numbered, so that a run's items take them in turn
(spatialcad/run/scenes.py): level 0 2,624 scenes (3x3 to 5x5 sheets), level 1 19,984,
level 2 74,016.  Scene ``k`` is found without building the list of scenes: the level's
fold sequences are listed with the number of hole sets each leaves room for, and ``k`` is
unranked into a sequence and a set of its full cells.

Listing the sequences folds every one of them (~0.35 s at level 0, ~3 s at level 1, ~1 s
at level 2): it is done once per machine and kept in the disk cache
(spatialcad/cad/disk_cache.py, kind ``fold-listings``, named by a digest of the level's
parameters and of the code that folds), as the sheet and the place of each fold among
those the paper offered (``pf.grid_folds`` / ``pf.diagonal_folds``, in their order).
Level 3's four folds would take ~17 s to list: levels above 2 draw their scenes (kept
apart in blocks).
"""

from __future__ import annotations

import bisect
import hashlib
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from spatialcad.cad import disk_cache
from spatialcad.geometry import paper as pf

LISTED_FOLDS = 3  # the most folds of a level whose scenes are listed

Cell = tuple[int, int]
Scene = tuple[int, int, tuple[pf.Fold, ...], list[Cell]]  # rows, cols, folds, holes
Key = tuple[tuple[tuple[int, int], ...], int, int, bool]  # sheets, folds, holes, diagonal


def lists(p: dict[str, Any]) -> bool:
    """Whether the level of params ``p`` lists its scenes."""
    return p["folds"] <= LISTED_FOLDS


def _key(p: dict[str, Any]) -> Key:
    return tuple((r, c) for r, c in p["sizes"]), p["folds"], p["holes"], p["diagonal"]


def _list(key: Key) -> dict[str, np.ndarray]:
    """The level's fold sequences that leave room for its holes, in a fixed order: per
    sequence its sheet (rows, cols), whether its last fold is diagonal, the place of each
    fold among the folds its paper offered and their number, and the running total of the
    hole sets."""
    sheets, folds, holes, diagonal = key
    sheet, last, picks, offered, sets = [], [], [], [], []
    for r, c in sheets:
        for last_diagonal in (False, True) if diagonal else (False,):
            for seq, paper in pf.fold_sequences(r, c, folds, diagonal=last_diagonal):
                full = len(paper.full_cells())
                if full >= holes:
                    choices = _choices(r, c, seq, last_diagonal)
                    sheet.append((r, c))
                    last.append(last_diagonal)
                    picks.append([place for place, _ in choices])
                    offered.append([n for _, n in choices])
                    sets.append(math.comb(full, holes))
    return {"sheet": np.array(sheet, np.int64).reshape(-1, 2), "diagonal": np.array(last),
            "picks": np.array(picks, np.int64).reshape(-1, folds),
            "offered": np.array(offered, np.int64).reshape(-1, folds),
            "totals": np.cumsum(np.array(sets, np.int64))}


def _offered(paper: pf.Paper, diagonal: bool) -> list[pf.Fold]:
    return (pf.diagonal_folds if diagonal else pf.grid_folds)(paper)


def _choices(rows: int, cols: int, seq: tuple[pf.Fold, ...], last_diagonal: bool
             ) -> list[tuple[int, int]]:
    """Per fold of ``seq``: its place among the folds its paper offered, and their number."""
    out = []
    for i, fold in enumerate(seq):
        paper = pf.fold_all(rows, cols, list(seq[:i]))[-1]
        offered = _offered(paper, last_diagonal and i == len(seq) - 1)
        out.append((offered.index(fold), len(offered)))
    return out


@lru_cache(maxsize=8)
def _listed(key: Key) -> dict[str, np.ndarray]:
    """:func:`_list` of ``key``, from the disk cache when it holds it."""
    digest = hashlib.sha256(repr(key).encode())
    for source in (str(pf.__file__), __file__):  # the code that folds and lists
        digest.update(Path(source).read_bytes())
    name = digest.hexdigest()[:32]
    return disk_cache.cached("fold-listings", name, name, lambda: _list(key))


def weights(p: dict[str, Any]) -> np.ndarray:
    """Per scene of the level of params ``p``, the odds that a draw at random
    (``Generator.build`` without a listed scene) makes it: a sheet and, where the level
    folds diagonally, whether the last fold is diagonal, each pair with sequences alike
    (a pair without any is redrawn); then each fold uniformly among those the paper
    offers, a sequence without room for the holes drawn again (``pf.random_folds``); then
    the holes uniformly among its full cells.  The run's order follows them
    (``seeding.scene_order``), so that a run takes scenes as drawing them would (uniform
    scenes favour big sheets and grid folds: at level 1, 5% diagonal last folds where
    drawing gives 49%, and 6.2 unfolded holes where it gives 8.4)."""
    return _weights(_key(p))


@lru_cache(maxsize=8)
def _weights(key: Key) -> np.ndarray:
    listed = _listed(key)
    chance = np.ones(len(listed["offered"]))
    for n in listed["offered"].T:  # IEEE divisions, in order: the same on every CPU
        chance = chance / n
    pair = listed["sheet"][:, 0] * 1000 + listed["sheet"][:, 1] * 2 + listed["diagonal"]
    pairs, group = np.unique(pair, return_inverse=True)
    chance = chance / np.bincount(group, weights=chance)[group] / len(pairs)
    sets = np.diff(listed["totals"], prepend=0)
    return np.repeat(chance / sets, sets)


def count(p: dict[str, Any]) -> int:
    """The number of scenes of the level of params ``p`` (one that lists them)."""
    return int(_listed(_key(p))["totals"][-1])


def scene(p: dict[str, Any], k: int) -> Scene:
    """Scene ``k`` of the level of params ``p`` (``0 <= k < count(p)``)."""
    listed = _listed(_key(p))
    totals = listed["totals"]
    at = bisect.bisect_right(totals, k)
    rows, cols = (int(v) for v in listed["sheet"][at])
    last_diagonal = bool(listed["diagonal"][at])
    picks = [int(v) for v in listed["picks"][at]]
    folds: list[pf.Fold] = []
    for i, place in enumerate(picks):
        paper = pf.fold_all(rows, cols, folds)[-1]
        folds.append(_offered(paper, last_diagonal and i == len(picks) - 1)[place])
    full = pf.fold_all(rows, cols, folds)[-1].full_cells()
    rank = k - (int(totals[at - 1]) if at else 0)
    return rows, cols, tuple(folds), sorted(_nth_combination(full, p["holes"], rank))


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
