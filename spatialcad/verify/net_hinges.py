"""The cube tasks' step proofs: a net folded one hinge at a time, by the verifiers' own
simulation (independent of geometry.net_folding, which draws the steps).

A state is the JSON the steps store: ``{"folded": [[row, col], ...], "corners": [...]}``,
the cells folded so far in order and every cell's square in 3D (its drawing's top-left,
top-right, bottom-right and bottom-left corners; the flat net lies in z = 0, cell
(row, col) at x in [col, col + 1], y in [-row - 1, -row]).  A fold turns a cell and all the
cells beyond it (away from the first cell) a quarter turn about the edge it shares with
the cell before it, the rotation found among the 24 by where it takes the drawn side;
cells fold nearest the first cell first, ties top to bottom then left to right.  The
closed cube is derived a second way, by rolling a cube under the net
(verify/cube_rolling.py): the cube under the first cell, each face's square placed by the
picture frame the roll gives it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy as np

from spatialcad.geometry.cube_fields import CellRow
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.verify.cube_rolling import roll

Cell = tuple[int, int]
Z = np.array([0, 0, 1])


def _tree(cells: Sequence[Cell]) -> dict[Cell, tuple[Cell | None, int]]:
    """Each cell's neighbour on the way to the first cell, and how many steps away it is."""
    tree: dict[Cell, tuple[Cell | None, int]] = {cells[0]: (None, 0)}
    queue = deque([cells[0]])
    while queue:
        cell = queue.popleft()
        for nb in ((cell[0] - 1, cell[1]), (cell[0] + 1, cell[1]), (cell[0], cell[1] - 1),
                   (cell[0], cell[1] + 1)):
            if nb in cells and nb not in tree:
                tree[nb] = (cell, tree[cell][1] + 1)
                queue.append(nb)
    if len(tree) != 6 or len(set(cells)) != 6:
        raise ValueError("not six connected cells")
    return tree


def order(cells: Sequence[Cell]) -> list[Cell]:
    tree = _tree(cells)
    return sorted(cells[1:], key=lambda c: (tree[c][1], c[0], c[1]))


def _fold(child: Cell, parent: Cell) -> np.ndarray:
    """The fold of ``child`` about its edge with ``parent`` (flat net coordinates) as a
    4 x 4 matrix acting on doubled homogeneous points."""
    d = np.array([child[1] - parent[1], parent[0] - child[0], 0])
    m = next(m for m in proper_rotations()
             if np.array_equal(m @ Z, d) and np.array_equal(m @ d, -Z))
    hinge = np.array([2 * parent[1] + 1, -2 * parent[0] - 1, 0]) + d  # doubled
    out = np.eye(4, dtype=int)
    out[:3, :3] = m
    out[:3, 3] = hinge - m @ hinge
    return out


def _state(cells: Sequence[Cell], folded: Sequence[Cell]) -> dict[str, Any]:
    tree = _tree(cells)
    corners = []
    for r, c in cells:
        pts = np.array([[c, -r, 0], [c + 1, -r, 0], [c + 1, -r - 1, 0], [c, -r - 1, 0]]).T
        pts = np.vstack([2 * pts, np.ones(4, dtype=int)])
        path, cell = [], (r, c)
        while (up := tree[cell][0]) is not None:
            path.append((cell, up))
            cell = up
        for child, parent in path:  # the fold nearest the cell first
            if child in folded:
                pts = _fold(child, parent) @ pts
        corners.append((pts[:3].T // 2).tolist())
    return {"folded": [list(c) for c in folded], "corners": corners}


def cells_of(rows: Sequence[CellRow]) -> list[Cell]:
    return [(int(r), int(c)) for r, c, _, _ in rows]


def start(rows: Sequence[CellRow]) -> dict[str, Any]:
    """The flat net."""
    return _state(cells_of(rows), [])


def step(rows: Sequence[CellRow], k: int) -> dict[str, Any] | None:
    """The net after fold ``k`` (0-based); None after the last."""
    cells = cells_of(rows)
    folds = order(cells)
    return _state(cells, folds[: k + 1]) if k < len(folds) else None


def closed(rows: Sequence[CellRow]) -> dict[str, Any]:
    """The closed cube, every cell folded, from rolling a cube under the net."""
    cells = cells_of(rows)
    folded = roll([(r, c, np.array([[i]])) for i, (r, c) in enumerate(cells)])
    r0, c0 = cells[0]
    centre = np.array([2 * c0 + 1, -2 * r0 - 1, -1])  # doubled
    corners: list[Any] = [None] * 6
    for normal, (mark, right, up) in folded.items():
        mid = centre + np.array(normal)
        pts = [mid - right + up, mid + right + up, mid + right - up, mid - right - up]
        corners[int(mark[0, 0])] = [(p // 2).tolist() for p in pts]
    return {"folded": [list(c) for c in order(cells)], "corners": corners}
