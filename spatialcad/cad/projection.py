"""Orthographic engineering views of a solid with TechDraw's hidden-line removal.

``TechDraw.projectEx(shape, d)`` returns the visible and hidden edges of ``shape`` seen from
direction ``d`` in a 2D frame of its own choosing.  Seen from +z that frame is the world's
(x, y), so :func:`project` first turns the solid so that the asked view's right, up and
toward-the-viewer axes become x, y and z, then projects from +z: the drawing's x is the
view's right and y its up, whatever the view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad import freecad_env
from spatialcad.geometry.line_drawing import LineDrawing, length, without_duplicates

# projectEx's ten compounds: visible sharp, smooth, seam, outline, iso-lines, then the same
# five hidden.  Drawn: sharp edges, smooth (tangent) edges and outlines (silhouettes of
# curved faces); seams and iso-parameter lines are not lines of an engineering drawing.
_VISIBLE = (0, 1, 3)
_HIDDEN = (5, 6, 8)


def turned(shape: Any, rotation: np.ndarray) -> Any:
    """A copy of ``shape`` turned by the 3x3 rotation matrix (about the origin)."""
    FreeCAD, _ = freecad_env.load()
    r = np.asarray(rotation, dtype=np.float64)
    m = FreeCAD.Matrix(*r[0], 0.0, *r[1], 0.0, *r[2], 0.0)
    out = shape.copy()
    out.transformShape(m)
    return out


def project(shape: Any, right: np.ndarray, up: np.ndarray, deflection: float) -> LineDrawing:
    """The drawing of ``shape`` seen with screen axes ``right`` and ``up`` (unit vectors in
    world coordinates; the viewer looks along ``up x right``).  Curved edges are
    discretized to ``deflection``; edges shorter than it in the view are dropped, and so are
    edges drawn wholly on other edges (see :func:`without_duplicates`)."""
    FreeCAD, _ = freecad_env.load()
    import TechDraw  # noqa: PLC0415 - only importable once FreeCAD's path is set up

    r, u = np.asarray(right, dtype=np.float64), np.asarray(up, dtype=np.float64)
    frame = turned(shape, np.stack([r, u, np.cross(r, u)]))
    parts = TechDraw.projectEx(frame, FreeCAD.Vector(0, 0, 1))

    def polylines(indices: tuple[int, ...]) -> tuple[np.ndarray, ...]:
        out = []
        for i in indices:
            if parts[i].isNull():
                continue
            for edge in parts[i].Edges:
                pts = edge.discretize(Deflection=deflection)
                p = np.array([(v.x, v.y) for v in pts], dtype=np.float64)
                if len(p) >= 2 and length(p) > deflection:
                    out.append(p)
        out.sort(key=lambda p: (np.round(p.min(axis=0), 6).tolist(), length(p)))
        return tuple(out)

    drawing = LineDrawing(polylines(_VISIBLE), polylines(_HIDDEN))
    return without_duplicates(drawing, 2.0 * deflection)
