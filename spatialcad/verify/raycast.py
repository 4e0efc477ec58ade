"""Views of a cube stack by walking each pixel ray from the eye (the verifiers' own
derivation, independent of geometry.voxels.view_labels)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from spatialcad.geometry.voxels import Voxel


def nearest_cubes(vox: set[Voxel], view: str) -> np.ndarray:
    """Object matrix (image order, row 0 on top): the first cube each ray meets, or None."""
    lo = [min(v[i] for v in vox) for i in range(3)]
    nx, ny, nz = (max(v[i] for v in vox) - lo[i] + 1 for i in range(3))
    # For each view: (rows, cols, depth, cube at (row, col, k-th step from the eye)).
    rays: dict[str, tuple[int, int, int, Callable[[int, int, int], Voxel]]] = {
        "top": (ny, nx, nz, lambda r, c, k: (c, ny - 1 - r, nz - 1 - k)),
        "front": (nz, nx, ny, lambda r, c, k: (c, k, nz - 1 - r)),
        "left": (nz, ny, nx, lambda r, c, k: (k, ny - 1 - c, nz - 1 - r)),
        "right": (nz, ny, nx, lambda r, c, k: (nx - 1 - k, c, nz - 1 - r)),
    }
    rows, cols, depth, at = rays[view]
    out = np.full((rows, cols), None, dtype=object)
    for r in range(rows):
        for c in range(cols):
            for k in range(depth):
                x, y, z = at(r, c, k)
                cube = (x + lo[0], y + lo[1], z + lo[2])
                if cube in vox:
                    out[r, c] = cube
                    break
    return out


def occupancy(vox: set[Voxel], view: str) -> np.ndarray:
    return np.vectorize(lambda v: v is not None, otypes=[bool])(nearest_cubes(vox, view))
