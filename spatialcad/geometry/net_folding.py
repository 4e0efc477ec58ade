"""Folding a cube net one hinge at a time, from the flat net to the closed cube.

Conventions are those of :mod:`spatialcad.geometry.cube_nets`: the net lies in the plane
z = 0 with its drawn side up (+z, toward the viewer), cell ``(row, col)`` covering
x in [col, col + 1] and y in [-row - 1, -row]; it folds away from the viewer, and its first
cell stays in place as the closed cube's top face (the cube fills z in [-1, 0] under it).

The cells form a tree (a net has no 2 x 2 block): each cell but the first hangs on the
edge it shares with its parent, the neighbour one step nearer the first cell.  Folding a
cell turns it, and everything hanging on it, 90 degrees about that edge, drawn side out.
Cells fold in :func:`fold_order`: nearest the first cell first (steps along the net),
ties top to bottom, then left to right.  Where a cell lies after some folds is exact
integer geometry: its square's four corners (:data:`Square`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from spatialcad.geometry import cube_nets as cn

Cell = cn.Cell
Point = tuple[int, int, int]
# a cell's corners in 3D: its drawing's top-left, top-right, bottom-right, bottom-left
Square = tuple[Point, Point, Point, Point]
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def distances(cells: Sequence[Cell]) -> dict[Cell, int]:
    """Steps along the net from its first cell to every cell."""
    dist = {cells[0]: 0}
    todo = [cells[0]]
    for r, c in todo:
        for dr, dc in STEPS:
            nb = (r + dr, c + dc)
            if nb in cells and nb not in dist:
                dist[nb] = dist[(r, c)] + 1
                todo.append(nb)
    if len(dist) != len(set(cells)):
        raise ValueError("the layout is not connected")
    return dist


def fold_order(cells: Sequence[Cell]) -> list[Cell]:
    """The cells but the first, in the order they fold."""
    dist = distances(cells)
    return sorted((c for c in dist if dist[c]), key=lambda c: (dist[c], c))


def parents(cells: Sequence[Cell]) -> dict[Cell, Cell]:
    """Each cell but the first, and the neighbour one step nearer the first cell: the cell
    hangs on their shared edge."""
    dist = distances(cells)
    return {(r, c): next((r + dr, c + dc) for dr, dc in STEPS
                         if dist.get((r + dr, c + dc)) == dist[(r, c)] - 1)
            for r, c in fold_order(cells)}


def _hinge(cell: Cell, parent: Cell) -> tuple[np.ndarray, np.ndarray]:
    """The fold of ``cell`` in the flat net's coordinates: x -> m @ x + t, a quarter turn
    about the edge it shares with ``parent``, taking the drawn side (+z) to the direction
    from the parent to the cell."""
    pr, pc = parent
    d = np.array([cell[1] - pc, pr - cell[0], 0])
    axis = np.cross((0, 0, 1), d)
    m = np.outer(axis, axis) + np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]],
                                         [-axis[1], axis[0], 0]])  # Rodrigues, 90 degrees
    # a point of the shared edge: the parent's centre moved half a cell toward the cell
    edge = np.array([2 * pc + 1, -2 * pr - 1, 0]) + d
    return m, (edge - m @ edge) // 2


def squares(cells: Sequence[Cell], folded: Collection[Cell]) -> list[Square]:
    """Each cell's square (in the order of ``cells``) once the cells ``folded`` are."""
    made = set(folded)
    hinge = parents(cells)
    if not made <= set(hinge):
        raise ValueError(f"cells {sorted(made - set(hinge))} cannot fold")
    out = []
    for r, c in cells:
        corners = np.array([(c, -r, 0), (c + 1, -r, 0), (c + 1, -r - 1, 0), (c, -r - 1, 0)]).T
        cell = (r, c)
        while cell in hinge:  # the cell's own fold first, then its parent's, ...
            if cell in made:
                m, t = _hinge(cell, hinge[cell])
                corners = m @ corners + t[:, None]
            cell = hinge[cell]
        out.append(tuple(tuple(int(v) for v in p) for p in corners.T))
    return out  # type: ignore[return-value]


def states(cells: Sequence[Cell]) -> list[list[Cell]]:
    """The cells folded after each step: one more per step, ending with all of them."""
    order = fold_order(cells)
    return [order[:k] for k in range(1, len(order) + 1)]


def closed_cube(net: Sequence[cn.NetCell]) -> cn.Cube:
    """The cube a net's squares make with every cell folded: each square's drawn side
    (its outward normal) and its face picture's top edge, turned as the cell draws it."""
    cells = [(c.row, c.col) for c in net]
    cube: cn.Cube = {}
    for c, (tl, tr, _, bl) in zip(net, squares(cells, fold_order(cells)), strict=True):
        right = tuple(b - a for a, b in zip(tl, tr, strict=True))
        up = tuple(a - b for a, b in zip(tl, bl, strict=True))
        normal = cn.cross(right, up)  # type: ignore[arg-type]
        top: cn.Vec = up  # type: ignore[assignment]
        for _ in range(c.turns % 4):
            top = cn.cross(normal, top)
        cube[normal] = (c.face, top)
    if len(cube) != 6:
        raise ValueError("the squares do not close into a cube")
    return cube
