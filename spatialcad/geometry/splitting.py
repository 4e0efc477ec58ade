"""Pyramid-like cube stacks and their splits into face-connected parts.

After SpatialViz-Bench Alg. 15 (``CreateCubesPyramid``) and Alg. 14 (region growing), with
the parts grown together from ``k`` seeds so that every part is connected by construction.
Also the one-cube edits of a part (remove / add a cube) that keep it connected.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from spatialcad.geometry.voxels import Voxel, is_connected

NEIGHBOURS: tuple[Voxel, ...] = (
    (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1),
)


def neighbours(cube: Voxel) -> list[Voxel]:
    x, y, z = cube
    return [(x + dx, y + dy, z + dz) for dx, dy, dz in NEIGHBOURS]


def pyramid_stack(rng: np.random.Generator, size: tuple[int, int, int]) -> list[Voxel]:
    """A staircase stack in ``size = (X, Y, Z)``, tallest at the back-left corner.

    Every layer is a set of rows ``y`` holding the cubes ``x < n(y)``, with ``n`` growing
    with ``y`` and bounded by the layer below; the ground row ``y`` holds at most ``y + 2``
    cubes.  The top layer fills each supported cell with probability 1/2 (the paper fills
    any cell; only supported ones keep the stack standing).  The stack is connected and
    every column is solid from the ground up.
    """
    sx, sy, sz = size
    rows: list[list[int]] = []
    n = 1
    ground = []
    for y in range(sy):
        n = int(rng.integers(n, min(y + 2, sx) + 1))
        ground.append(n)
    rows.append(ground)
    for _ in range(1, sz - 1):
        n, layer = 0, []
        for y in range(sy):
            n = int(rng.integers(n, rows[-1][y] + 1))  # rows below grow with y, so n <= it
            layer.append(n)
        rows.append(layer)
    cubes = [(x, y, z) for z, layer in enumerate(rows) for y, n in enumerate(layer)
             for x in range(n)]
    if sz > 1:  # rows holds layers 0 .. sz - 2
        cubes += [(x, y, sz - 1) for y in range(sy) for x in range(rows[-1][y])
                  if rng.random() < 0.5]
    return sorted(cubes)


def split_connected(
    rng: np.random.Generator, cubes: Iterable[Voxel], k: int
) -> list[list[Voxel]]:
    """Split a connected stack into ``k`` face-connected parts by growing them from seeds.

    Each step grows one part by one unassigned neighbouring cube; smaller parts are more
    likely to grow (weight ``1 / size**2``), which keeps the parts of similar size.
    """
    todo = {(x, y, z) for x, y, z in cubes}
    if not is_connected(todo) or len(todo) < k:
        raise ValueError("need a connected stack with at least k cubes")
    order = sorted(todo)
    parts = [{order[i]} for i in rng.choice(len(order), size=k, replace=False)]
    todo -= set().union(*parts)
    near = [{n for c in p for n in neighbours(c)} for p in parts]  # grown with each part
    while todo:
        growable = [i for i, cells in enumerate(near) if not cells.isdisjoint(todo)]
        weights = np.array([1.0 / len(parts[i]) ** 2 for i in growable])
        i = growable[int(rng.choice(len(growable), p=weights / weights.sum()))]
        frontier = sorted(near[i] & todo)
        cube = frontier[int(rng.integers(len(frontier)))]
        parts[i].add(cube)
        near[i].update(neighbours(cube))
        todo.discard(cube)
    return [sorted(p) for p in parts]


def removable_cubes(part: Iterable[Voxel]) -> list[Voxel]:
    """Cubes whose removal leaves ``part`` connected and non-empty."""
    cubes = sorted({(x, y, z) for x, y, z in part})
    if len(cubes) > 1 and is_connected(cubes):
        cut = cut_cubes(cubes)
        return [c for c in cubes if c not in cut]
    return [c for c in cubes if len(cubes) > 1 and is_connected(set(cubes) - {c})]


def cut_cubes(part: Iterable[Voxel]) -> set[Voxel]:
    """The cubes whose removal splits the face-connected ``part`` (its articulation points,
    found in one depth-first search instead of a connectivity test per cube): every other
    cube of a connected part of two or more can go, leaving it connected."""
    cubes = {(x, y, z) for x, y, z in part}
    order: dict[Voxel, int] = {}  # depth-first discovery order
    low: dict[Voxel, int] = {}  # least order reachable through the cube's subtree, one back edge
    cut: set[Voxel] = set()
    for root in sorted(cubes):
        if root in order:
            continue
        order[root] = low[root] = len(order)
        children = 0
        path = [(root, iter(neighbours(root)))]
        while path:
            cube, todo = path[-1]
            step = next((n for n in todo if n in cubes), None)
            if step is None:
                path.pop()
                if path:
                    parent = path[-1][0]
                    low[parent] = min(low[parent], low[cube])
                    if parent != root and low[cube] >= order[parent]:
                        cut.add(parent)
            elif step not in order:
                order[step] = low[step] = len(order)
                if cube == root:
                    children += 1
                path.append((step, iter(neighbours(step))))
            else:
                low[cube] = min(low[cube], order[step])
        if children > 1:
            cut.add(root)
    return cut


def addable_cells(part: Iterable[Voxel], within: tuple[Voxel, Voxel]) -> list[Voxel]:
    """Empty cells face-adjacent to ``part`` inside the box ``within = (low, high)``."""
    cubes = {(x, y, z) for x, y, z in part}
    (x0, y0, z0), (x1, y1, z1) = within
    return sorted({
        (x, y, z) for c in cubes for x, y, z in neighbours(c)
        if (x, y, z) not in cubes and x0 <= x <= x1 and y0 <= y <= y1 and z0 <= z <= z1
    })
