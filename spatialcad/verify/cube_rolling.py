"""Folding a cube net by rolling a cube under it, and matching corner views (the cube
tasks' verifiers' own derivation, independent of geometry.cube_nets).

A cube is *rolled* under the net from cell to cell (each roll is found by searching the 24
rotations for the one that brings the face on the rolling side up), every cell stamping its
picture on the face that touches the net.  A view is matched against the folded cube by
trying all 24 poses and counting quarter turns with ``np.rot90``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spatialcad.geometry.cube_fields import CellRow
from spatialcad.geometry.cube_nets import cross
from spatialcad.geometry.rotations import proper_rotations

X, Y, Z = np.eye(3, dtype=int)
# visible face -> (outward normal, right, up) seen from outside, camera at (+1, -1, +1)
SHOWN = {"top": (Z, X, Y), "front": (-Y, X, Z), "right": (X, Y, Z)}

NetPicture = tuple[int, int, np.ndarray]  # row, col, picture as drawn
Folded = dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray]]


def _roll_towards(d: np.ndarray) -> np.ndarray:
    """The rotation that rolls a cube under a ceiling one cell towards ``d``."""
    return next(m for m in proper_rotations()
                if np.array_equal(m @ d, Z) and np.array_equal(m @ Z, -d))


def roll(cells: Sequence[NetPicture]) -> Folded:
    """Body normal -> (picture, picture right, picture up) in body coordinates, rolling a
    cube under the net from its first cell; raises ValueError if it is not a cube net."""
    where = {(r, c): pic for r, c, pic in cells}
    if len(where) != 6:
        raise ValueError("a net needs six different cells")
    start = (cells[0][0], cells[0][1])
    pose = {start: np.eye(3, dtype=int)}
    queue = [start]
    while queue:
        r, c = queue.pop(0)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            nb = (r + dr, c + dc)
            if nb in where and nb not in pose:
                pose[nb] = _roll_towards(np.array([dc, -dr, 0])) @ pose[(r, c)]
                queue.append(nb)
    if len(pose) != 6:
        raise ValueError("the net is not connected")
    folded: Folded = {}
    for cell, m in pose.items():
        folded[tuple(m.T @ Z)] = (where[cell], m.T @ X, m.T @ Y)
    if len(folded) != 6:
        raise ValueError("two cells fold onto the same face")
    return folded


def seen(folded: Folded, pose: np.ndarray) -> dict[str, np.ndarray]:
    """The three pictures the posed cube shows, each read in its face's frame."""
    out = {}
    for name, (w, _, up) in SHOWN.items():
        pic, _, body_up = folded[tuple(pose.T @ w)]
        target, turns, v = tuple(pose @ body_up), 0, tuple(up)
        while v != target:  # integer 3-vectors as tuples: numpy's cross is slow on them
            v, turns = cross(tuple(w), v), turns + 1
        out[name] = np.rot90(pic, turns)
    return out


def shows(folded: Folded, view: dict[str, np.ndarray]) -> bool:
    """Some pose of the folded cube shows exactly ``view``."""
    return any(
        all(np.array_equal(s[k], view[k]) for k in SHOWN)
        for s in (seen(folded, m) for m in proper_rotations())
    )


def net_pictures(cells: Sequence[CellRow], faces: list[np.ndarray]) -> list[NetPicture]:
    """``(row, col, picture as drawn)`` of a stored net; faces must be used once each."""
    if sorted(f for _, _, f, _ in cells) != list(range(6)):
        raise ValueError("the net does not use each face exactly once")
    return [(r, c, np.rot90(faces[f], t)) for r, c, f, t in cells]
