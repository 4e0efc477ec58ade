"""Cube stacks as voxel sets: random connected stacks with gravity, and their views.

A stack is a set of integer cube positions ``(x, y, z)`` with z up; the cube ``(x, y, z)``
fills ``[x, x+1] x [y, y+1] x [z, z+1]``.  Views use the camera conventions of
``spatialcad.render.camera`` and are returned as matrices in image order (row 0 at the top).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import numpy as np

Voxel = tuple[int, int, int]

# Orthographic view -> (axis of screen-right, its sign, axis of screen-up, its sign, depth axis,
# depth sign).  Depth sign +1: the eye looks along +axis, so the nearest cube has the lowest
# coordinate on that axis.
VIEW_AXES: dict[str, tuple[int, int, int, int, int, int]] = {
    "front": (0, +1, 2, +1, 1, +1),
    "back": (0, -1, 2, +1, 1, -1),
    "right": (1, +1, 2, +1, 0, -1),
    "left": (1, -1, 2, +1, 0, +1),
    "top": (0, +1, 1, +1, 2, -1),
    "bottom": (0, +1, 1, -1, 2, +1),
}


def digit_keys(rows: np.ndarray, base: int) -> np.ndarray:
    """Integer rows (the last axis) of entries in [0, base) read as the digits of one
    integer, most significant first: the keys order as the rows do lexicographically
    (sorting them sorts the rows many times faster than sorting tuples)."""
    keys: np.ndarray = np.asarray(rows, dtype=np.int64) @ _digit_weights(base, np.shape(rows)[-1])
    return keys


def digit_rows(keys: np.ndarray, base: int, width: int) -> np.ndarray:
    """The rows of ``width`` digits that :func:`digit_keys` read as ``keys``."""
    out: np.ndarray = np.asarray(keys)[..., None] // _digit_weights(base, width) % base
    return out


def _digit_weights(base: int, width: int) -> np.ndarray:
    return base ** np.arange(width - 1, -1, -1, dtype=np.int64)


def normalized(voxels: Iterable[Voxel]) -> list[Voxel]:
    """Sorted voxels translated so that the minimum of each coordinate is 0."""
    arr = np.array(sorted(set(map(tuple, voxels))), dtype=int).reshape(-1, 3)
    if len(arr) == 0:
        return []
    arr -= arr.min(axis=0)
    return sorted(map(tuple, arr.tolist()))


def to_grid(voxels: Iterable[Voxel]) -> np.ndarray:
    """Boolean occupancy ``occ[x, y, z]`` of the stack's bounding box (voxels normalized)."""
    vox = np.array(normalized(voxels), dtype=int).reshape(-1, 3)
    occ = np.zeros(tuple(vox.max(axis=0) + 1), dtype=bool)
    occ[tuple(vox.T)] = True
    return occ


def from_grid(occ: np.ndarray) -> list[Voxel]:
    return sorted((x, y, z) for x, y, z in np.argwhere(occ).tolist())


def is_supported(voxels: Iterable[Voxel]) -> bool:
    """Every cube stands on the ground (z = 0) or on another cube."""
    vs = set(map(tuple, voxels))
    return all(z == 0 or (x, y, z - 1) in vs for x, y, z in vs)


def is_connected(voxels: Iterable[Voxel]) -> bool:
    """The cubes form one face-connected piece."""
    vs = set(map(tuple, voxels))
    if not vs:
        return False
    start = next(iter(vs))
    seen = {start}
    todo = deque([start])
    while todo:
        x, y, z = todo.popleft()
        for dx, dy, dz in ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)):
            n = (x + dx, y + dy, z + dz)
            if n in vs and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(vs)


def random_stack(
    rng: np.random.Generator, size: tuple[int, int, int], fill: float = 0.5
) -> list[Voxel]:
    """A random face-connected stack with gravity inside ``size = (X, Y, Z)``.

    After SpatialViz-Bench Alg. 2: each cell of a layer is filled with probability ``fill``
    when the cell below is filled; then the ground regions are joined by L-shaped paths of
    ground cubes (4-connected, so the stack is face-connected, not only corner-connected).
    """
    sx, sy, sz = size
    occ = np.zeros((sx, sy, sz), dtype=bool)
    occ[:, :, 0] = rng.random((sx, sy)) < fill
    if not occ[:, :, 0].any():
        occ[rng.integers(sx), rng.integers(sy), 0] = True
    for z in range(1, sz):
        occ[:, :, z] = occ[:, :, z - 1] & (rng.random((sx, sy)) < fill)
    _join_ground_regions(occ, rng)
    return normalized(from_grid(occ))


def _ground_regions(ground: np.ndarray) -> list[list[tuple[int, int]]]:
    seen = np.zeros_like(ground)
    regions = []
    for x, y in zip(*np.nonzero(ground), strict=True):
        if seen[x, y]:
            continue
        region, todo = [], deque([(int(x), int(y))])
        seen[x, y] = True
        while todo:
            cx, cy = todo.popleft()
            region.append((cx, cy))
            for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                if 0 <= nx < ground.shape[0] and 0 <= ny < ground.shape[1]:
                    if ground[nx, ny] and not seen[nx, ny]:
                        seen[nx, ny] = True
                        todo.append((nx, ny))
        regions.append(region)
    return regions


def _join_ground_regions(occ: np.ndarray, rng: np.random.Generator) -> None:
    """Connect the ground regions with L-shaped paths of ground cubes (in place)."""
    while len(regions := _ground_regions(occ[:, :, 0])) > 1:
        a, b = regions[0], regions[1]
        pairs = [(abs(p[0] - q[0]) + abs(p[1] - q[1]), p, q) for p in a for q in b]
        _, (x, y), (tx, ty) = min(pairs)
        x_first = bool(rng.random() < 0.5)
        while (x, y) != (tx, ty):
            if (x != tx and x_first) or y == ty:
                x += 1 if tx > x else -1
            else:
                y += 1 if ty > y else -1
            occ[x, y, 0] = True


def view_matrix(voxels: Iterable[Voxel], view: str) -> np.ndarray:
    """Occupancy of an orthographic view, rows top-to-bottom and columns left-to-right."""
    return view_labels(voxels, view) >= 0


def view_labels(voxels: Iterable[Voxel], view: str) -> np.ndarray:
    """Per view cell, the index (into ``normalized(voxels)``) of the nearest cube, or -1."""
    vox = np.array(normalized(voxels), dtype=int).reshape(-1, 3)
    ra, rs, ua, us, da, ds = VIEW_AXES[view]
    extent = vox.max(axis=0) + 1
    cols = vox[:, ra] if rs > 0 else extent[ra] - 1 - vox[:, ra]
    rows = extent[ua] - 1 - vox[:, ua] if us > 0 else vox[:, ua]
    depth = vox[:, da] * ds
    labels = np.full((extent[ua], extent[ra]), -1, dtype=int)
    best = np.full(labels.shape, np.iinfo(int).max)
    for i in np.argsort(depth, kind="stable"):
        if best[rows[i], cols[i]] == np.iinfo(int).max:
            best[rows[i], cols[i]] = depth[i]
            labels[rows[i], cols[i]] = i
    return labels
