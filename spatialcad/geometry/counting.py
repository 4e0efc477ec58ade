"""Exact bounds on the number of cubes of a stack given two or three of its views.

The stacks obey gravity, so a stack is a height map ``H[x, y]`` (0 off the footprint).
The top view gives the footprint; the front view gives ``F[x] = max_y H[x, y]``; the left
view gives ``L[y] = max_x H[x, y]``.  The bounds are optima over every height map with the
same views:

* two views (top, front): each column ``x`` with ``c_x`` footprint cells holds between
  ``c_x - 1 + F[x]`` and ``c_x * F[x]`` cubes;
* three views: the maximum puts ``min(F[x], L[y])`` on every footprint cell; the minimum
  puts 1 everywhere except where a row or column must reach its height.  A cell raised to
  height ``v`` can serve at most one row with ``F = v`` and one column with ``L = v``, so at
  each height the saving is a maximum bipartite matching between those rows and columns
  over the footprint cells.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.optimize import linear_sum_assignment


class InconsistentViews(ValueError):
    """The views cannot come from one stack of cubes standing under gravity."""


@dataclass(frozen=True)
class Profiles:
    """What the views say: footprint ``[x, y]``, front heights ``[x]``, left heights ``[y]``."""

    footprint: np.ndarray
    front: np.ndarray
    left: np.ndarray | None = None


def _heights(matrix: np.ndarray, name: str) -> np.ndarray:
    """Column heights of a side view (rows top-to-bottom), which must be gap-free columns."""
    up = np.asarray(matrix, dtype=bool)[::-1]  # rows bottom-to-top
    heights: npt.NDArray[np.int_] = up.sum(axis=0)
    expected = np.arange(up.shape[0])[:, None] < heights[None, :]
    if not np.array_equal(up, expected):
        raise InconsistentViews(f"the {name} view has a floating cube (gap in a column)")
    return heights


def profiles(top: np.ndarray, front: np.ndarray, left: np.ndarray | None = None) -> Profiles:
    """Profiles from view matrices in image order (see geometry.voxels.view_matrix)."""
    footprint = np.asarray(top, dtype=bool)[::-1].T  # top: rows are y descending, cols x
    f = _heights(front, "front")
    if f.shape[0] != footprint.shape[0] or not np.array_equal(f > 0, footprint.any(axis=1)):
        raise InconsistentViews("the top and front views disagree on the occupied columns")
    lh = None
    if left is not None:
        lh = _heights(left, "left")[::-1]  # left: columns are y descending
        if lh.shape[0] != footprint.shape[1] or not np.array_equal(lh > 0, footprint.any(axis=0)):
            raise InconsistentViews("the top and left views disagree on the occupied rows")
        reach = np.where(footprint, np.minimum(f[:, None], lh[None, :]), 0)
        if not (np.array_equal(reach.max(axis=1), f) and np.array_equal(reach.max(axis=0), lh)):
            raise InconsistentViews("no height map has these front and left views")
    return Profiles(footprint, f, lh)


def bounds(p: Profiles) -> tuple[int, int]:
    """``(min, max)`` number of cubes over all stacks with these views."""
    cells = p.footprint.sum(axis=1)
    if p.left is None:
        occupied = cells > 0
        return int((cells - 1 + p.front)[occupied].sum()), int((cells * p.front).sum())
    cap = np.minimum(p.front[:, None], p.left[None, :])
    high = int(np.where(p.footprint, cap, 0).sum())
    low = int(p.footprint.sum())
    for v in set(p.front.tolist()) | set(p.left.tolist()):
        if v <= 1:
            continue
        rows = np.flatnonzero(p.front == v)
        cols = np.flatnonzero(p.left == v)
        matched = _max_matching(p.footprint[np.ix_(rows, cols)])
        low += (v - 1) * (len(rows) + len(cols) - matched)
    return low, high


def _max_matching(adjacency: np.ndarray) -> int:
    """Size of a maximum matching in the bipartite graph given by a boolean matrix."""
    if adjacency.size == 0 or not adjacency.any():
        return 0
    rows, cols = linear_sum_assignment(adjacency.astype(int), maximize=True)
    return int(adjacency[rows, cols].sum())
