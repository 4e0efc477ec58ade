"""Orthographic views of a part file turned by one of the 24 axis-aligned rotations.

Hidden-line removal is the slow step (up to seconds for intersecting cylinders) and depends
only on the viewing direction, so a part is projected at most once from each of its six
axis directions per process; a view of the turned part is such a projection turned in the
drawing plane.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from spatialcad.cad.parts import cached_part
from spatialcad.cad.projection import project
from spatialcad.geometry.line_drawing import LineDrawing


def canonical_axes(toward: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Screen (right, up) used to project from the axis direction ``toward``: up is +z, or
    +y when looking along z."""
    up = np.array([0, 1, 0]) if abs(toward[2]) else np.array([0, 0, 1])
    return np.cross(up, toward), up


@lru_cache(maxsize=512)
def _axis_drawing(path: Path, toward: tuple[int, int, int], deflection: float) -> LineDrawing:
    right, up = canonical_axes(np.array(toward))
    return project(cached_part(path), right, up, deflection)


def part_view(path: Path, rotation: np.ndarray, right: np.ndarray, up: np.ndarray,
              deflection: float) -> LineDrawing:
    """The view with screen axes ``right`` and ``up`` (axis-aligned unit vectors in world
    coordinates) of the part in ``path`` turned by ``rotation`` (one of the 24)."""
    r0 = np.rint(rotation.T @ right).astype(int)
    u0 = np.rint(rotation.T @ up).astype(int)
    toward = np.cross(r0, u0)
    rc, uc = canonical_axes(toward)
    in_plane = np.array([[r0 @ rc, r0 @ uc], [u0 @ rc, u0 @ uc]], dtype=np.float64)
    return _axis_drawing(path, tuple(int(t) for t in toward), deflection).transformed(in_plane)
