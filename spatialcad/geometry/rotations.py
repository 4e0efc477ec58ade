"""The 24 proper rotations of the cube, canonical forms of voxel sets, and chirality.

Rotations are 3x3 integer matrices with determinant +1 acting on column vectors.  The
canonical form of a voxel set is the lexicographically smallest sorted tuple among its 24
rotated and normalized copies, so two sets are congruent (equal up to rotation and
translation) exactly when their canonical forms are equal.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import cache

import numpy as np

from spatialcad.geometry.voxels import Voxel, digit_keys, digit_rows


@cache
def proper_rotations() -> tuple[np.ndarray, ...]:
    """The 24 signed permutation matrices with determinant +1 (identity first)."""
    mats = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=int)
            m[range(3), perm] = signs
            if round(np.linalg.det(m)) == 1:
                mats.append(m)
    mats.sort(key=lambda m: (not np.array_equal(m, np.eye(3, dtype=int)), m.ravel().tolist()))
    return tuple(mats)


def axis_rotation(axis: str, quarter_turns: int) -> np.ndarray:
    """Rotation by ``90 * quarter_turns`` degrees about the x, y or z axis (right-handed)."""
    c, s = [(1, 0), (0, 1), (-1, 0), (0, -1)][quarter_turns % 4]
    i, j = {"x": (1, 2), "y": (2, 0), "z": (0, 1)}[axis]
    m = np.eye(3, dtype=int)
    m[i, i], m[i, j], m[j, i], m[j, j] = c, -s, s, c
    return m


def normalize(voxels: Iterable[Voxel]) -> tuple[Voxel, ...]:
    """Sorted voxels translated so each coordinate's minimum is 0."""
    arr = np.array(list(voxels), dtype=int).reshape(-1, 3)
    if len(arr) == 0:
        return ()
    arr = arr - arr.min(axis=0)
    return tuple(sorted(map(tuple, arr.tolist())))


def rotate(voxels: Iterable[Voxel], matrix: np.ndarray) -> tuple[Voxel, ...]:
    """The voxel set rotated by ``matrix`` (about cube centres), normalized."""
    arr = np.array(list(voxels), dtype=int).reshape(-1, 3)
    return normalize(map(tuple, (arr @ np.asarray(matrix).T).tolist()))


def mirror(voxels: Iterable[Voxel], axis: int = 0) -> tuple[Voxel, ...]:
    """Reflection across a plane perpendicular to ``axis`` (an improper congruence)."""
    arr = np.array(list(voxels), dtype=int).reshape(-1, 3)
    arr[:, axis] = -arr[:, axis]
    return normalize(map(tuple, arr.tolist()))


def canonical(voxels: Iterable[Voxel]) -> tuple[Voxel, ...]:
    """``min(rotate(voxels, m) for m in proper_rotations())``, all 24 at once: each
    normalized copy is read as the sorted integer keys of its voxels (coordinates as the
    digits of one number), which order as its sorted tuple does."""
    arr = np.array(list(voxels), dtype=np.int64).reshape(-1, 3)
    if len(arr) == 0:
        return ()
    turned = arr @ _turns().transpose(0, 2, 1)  # (24, n, 3): arr @ m.T for every m
    turned -= turned.min(axis=1, keepdims=True)
    base = int(turned.max()) + 1
    keys = np.sort(digit_keys(turned, base), axis=1)
    best = digit_rows(keys[np.lexsort(keys.T[::-1])[0]], base, 3).tolist()
    return tuple((x, y, z) for x, y, z in best)


@cache
def _turns() -> np.ndarray:
    return np.array(proper_rotations(), dtype=np.int64)


def congruent(a: Iterable[Voxel], b: Iterable[Voxel]) -> bool:
    """Equal up to a proper rotation and a translation."""
    return canonical(a) == canonical(b)


def is_chiral(voxels: Iterable[Voxel]) -> bool:
    """True when the mirror image cannot be obtained by rotating the set."""
    vox = list(voxels)
    return not congruent(vox, mirror(vox))
