"""Folding a cube net by rolling a cube under it, and matching corner views (the cube
tasks' verifiers' own derivation, independent of geometry.cube_nets).

A cube is *rolled* under the net from cell to cell (each roll is found by searching the 24
rotations for the one that brings the face on the rolling side up), every cell stamping its
picture on the face that touches the net.  A view is matched against the folded cube by
trying all 24 poses and counting quarter turns with ``np.rot90``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

import numpy as np

from spatialcad.geometry.cube_fields import CellRow
from spatialcad.geometry.cube_nets import Rows, Vec, cross, rows, same_picture, times, vec
from spatialcad.geometry.rotations import proper_rotations

X, Y, Z = np.eye(3, dtype=int)
# visible face -> (outward normal, right, up) seen from outside, camera at (+1, -1, +1)
SHOWN = {"top": (Z, X, Y), "front": (-Y, X, Z), "right": (X, Y, Z)}

NetPicture = tuple[int, int, np.ndarray]  # row, col, picture as drawn
Folded = dict[tuple[int, ...], tuple[np.ndarray, np.ndarray, np.ndarray]]


@cache
def _roll_towards(dx: int, dy: int) -> np.ndarray:
    """The rotation that rolls a cube under a ceiling one cell towards (dx, dy, 0) (one of
    ``proper_rotations()``, found once per direction)."""
    d = np.array([dx, dy, 0])
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
                pose[nb] = _roll_towards(dc, -dr) @ pose[(r, c)]
                queue.append(nb)
    if len(pose) != 6:
        raise ValueError("the net is not connected")
    folded: Folded = {}
    for cell, m in pose.items():
        folded[tuple(m.T @ Z)] = (where[cell], m.T @ X, m.T @ Y)
    if len(folded) != 6:
        raise ValueError("two cells fold onto the same face")
    return folded


@cache
def _poses() -> tuple[tuple[Rows, Rows], ...]:
    """Each proper rotation and its inverse as integer rows."""
    return tuple((rows(m), rows(m.T)) for m in proper_rotations())


_FRAMES = {name: (vec(w), vec(up)) for name, (w, _, up) in SHOWN.items()}


def _seen(faces: dict[Vec, tuple[np.ndarray, Vec]], pose: Rows, inverse: Rows,
          turned: dict[tuple[Vec, int], np.ndarray]) -> Iterator[tuple[str, np.ndarray]]:
    """The three pictures the posed cube shows, each read in its face's frame, one at a
    time (``turned`` remembers the pictures turned so far)."""
    for name, (w, up) in _FRAMES.items():
        normal = times(inverse, w)
        pic, body_up = faces[normal]
        target, turns, v = times(pose, body_up), 0, up
        while v != target:  # integer 3-vectors as tuples: numpy's cross is slow on them
            v, turns = cross(w, v), turns + 1
        if (normal, turns) not in turned:
            turned[(normal, turns)] = quarter_turned(pic, turns)
        yield name, turned[(normal, turns)]


def quarter_turned(pic: np.ndarray, turns: int) -> np.ndarray:
    """``np.rot90(pic, turns)`` for turns 0-3, by slicing (a view; np.rot90's axis checks
    cost 30 times more on these small pictures)."""
    if turns == 1:
        return pic.T[::-1]
    if turns == 2:
        return pic[::-1, ::-1]
    if turns == 3:
        return pic[::-1].T
    return pic


def shows(folded: Folded, view: dict[str, np.ndarray]) -> bool:
    """Some pose of the folded cube shows exactly ``view`` (each pose's faces compared one
    at a time, up to the first that differs)."""
    faces = {vec(n): (pic, vec(up)) for n, (pic, _, up) in folded.items()}
    turned: dict[tuple[Vec, int], np.ndarray] = {}
    return any(all(same_picture(pic, view[name]) for name, pic in _seen(faces, m, inv, turned))
               for m, inv in _poses())


def net_pictures(cells: Sequence[CellRow], faces: list[np.ndarray]) -> list[NetPicture]:
    """``(row, col, picture as drawn)`` of a stored net; faces must be used once each."""
    if sorted(f for _, _, f, _ in cells) != list(range(6)):
        raise ValueError("the net does not use each face exactly once")
    return [(r, c, np.rot90(faces[f], t)) for r, c, f, t in cells]
