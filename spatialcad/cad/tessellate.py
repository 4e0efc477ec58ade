"""Triangles and feature edges of FreeCAD shapes as numpy arrays, for the renderer."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from spatialcad import freecad_env


def triangles(shape: Any, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    """``(vertices (N, 3) float64, triangles (M, 3) int64)`` of ``shape.tessellate``."""
    points, tris = shape.tessellate(tolerance)
    vertices = np.array([(p.x, p.y, p.z) for p in points], dtype=np.float64).reshape(-1, 3)
    return vertices, np.array(tris, dtype=np.int64).reshape(-1, 3)


def feature_edges(shape: Any, deflection: float, crease_deg: float = 20.0) -> np.ndarray:
    """Segments (K, 2, 3) of the B-rep edges where the surface creases.

    Seam edges (a periodic face meeting itself), degenerate edges (a cone's apex) and
    edges between faces meeting at less than ``crease_deg`` are left out; curved edges are
    discretized to ``deflection``.
    """
    _, Part = freecad_env.load()
    cos_lim = math.cos(math.radians(crease_deg))
    segments: list[np.ndarray] = []
    for edge in shape.Edges:
        if edge.Length < 1e-9:
            continue
        faces = shape.ancestorsOfType(edge, Part.Face)
        if len(faces) != 2:
            continue
        mid = edge.valueAt(0.5 * (edge.FirstParameter + edge.LastParameter))
        n0, n1 = (f.normalAt(*f.Surface.parameter(mid)) for f in faces)
        if abs(n0.dot(n1)) > cos_lim:
            continue
        pts = np.array([(p.x, p.y, p.z) for p in edge.discretize(Deflection=deflection)])
        segments.append(np.stack([pts[:-1], pts[1:]], axis=1))
    return np.concatenate(segments) if segments else np.zeros((0, 2, 3))
