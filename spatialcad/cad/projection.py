"""Orthographic engineering views of a solid with TechDraw's hidden-line removal.

``TechDraw.projectEx(shape, d)`` returns the visible and hidden edges of ``shape`` seen from
direction ``d`` in a 2D frame of its own choosing.  Seen from +z that frame is the world's
(x, y), so :func:`project` first turns the solid so that the asked view's right, up and
toward-the-viewer axes become x, y and z, then projects from +z: the drawing's x is the
view's right and y its up, whatever the view.

projectEx tells smooth edges apart only where the shape says an edge is smooth (a fillet
does; the booleans that build DeepCAD parts do not), so :func:`project` also finds the
tangent edges itself, from the faces on either side, and leaves out the lines that are
their projections (unless a sharp edge projects there too, or the line is part of the
view's outer outline).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad import freecad_env
from spatialcad.geometry import line_drawing as ld
from spatialcad.geometry.line_drawing import LineDrawing, Polyline, length, without_duplicates

# projectEx's ten compounds: visible sharp, smooth, seam, outline, iso-lines, then the same
# five hidden.  Drawn as engineers draw (and TechDraw by default): sharp edges and outlines
# (silhouettes of curved faces).  Smooth (tangent) edges, where a flat face runs into a
# cylinder, seams and iso-parameter lines are no lines of an engineering drawing: a tangent
# edge drawn would show a step where the surface runs on smoothly.
SHARP, SMOOTH, SEAM, OUTLINE, ISO = range(5)
HIDDEN = 5  # index offset of the hidden compounds
SMOOTH_DEG = 1.0  # faces meeting at less than this along an edge meet tangentially
ON_EDGE = 0.9  # a line is a tangent edge's when this share of it lies on tangent edges
OFF_SHARP = 0.1  # and at most this share on sharp edges


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
        return tuple(out)

    visible, hidden = polylines((SHARP,)), polylines((HIDDEN + SHARP,))
    outlines = polylines((OUTLINE,))  # silhouettes: always drawn
    smooth, sharp = edges_by_kind(frame, deflection)
    if smooth:
        tol = 2.0 * deflection
        on_outline = ld.near_points(visible, ld.boundary_lines(
            ld.outline(LineDrawing(visible + outlines, ()), deflection)), tol)

        def tangent(lines: tuple[Polyline, ...]) -> list[bool]:
            on_smooth = ld.near_points(lines, smooth, tol)
            on_sharp = ld.near_points(lines, sharp, tol)
            return [s.mean() >= ON_EDGE and h.mean() <= OFF_SHARP
                    for s, h in zip(on_smooth, on_sharp, strict=True)]

        visible = tuple(p for p, t, o in zip(visible, tangent(visible), on_outline, strict=True)
                        if not t or o.mean() >= 0.5)
        hidden = tuple(p for p, t in zip(hidden, tangent(hidden), strict=True) if not t)
    drawing = LineDrawing(tuple(sorted(visible + outlines, key=_order)),
                          tuple(sorted(hidden + polylines((HIDDEN + OUTLINE,)), key=_order)))
    return without_duplicates(drawing, 2.0 * deflection)


def _order(p: Polyline) -> tuple[list[float], float]:
    """Lines are listed by their lower left corner, then length (a stable order)."""
    return np.round(p.min(axis=0), 6).tolist(), length(p)


def edges_by_kind(shape: Any, deflection: float
                  ) -> tuple[tuple[Polyline, ...], tuple[Polyline, ...]]:
    """(smooth, sharp) edges of ``shape`` projected along z, as (x, y) polylines: an edge
    between two faces whose normals agree within ``SMOOTH_DEG`` at a quarter, half and
    three quarters of it is smooth; seams (a face meeting itself) are neither."""
    _, Part = freecad_env.load()
    cos_lim = np.cos(np.radians(SMOOTH_DEG))
    smooth: list[Polyline] = []
    sharp: list[Polyline] = []
    for edge in shape.Edges:
        if edge.Length < deflection:
            continue
        pts = np.array([(v.x, v.y) for v in edge.discretize(Deflection=deflection)])
        faces = shape.ancestorsOfType(edge, Part.Face)
        if len(faces) != 2:
            if len(faces) > 2:
                sharp.append(pts)
            continue
        if faces[0].isSame(faces[1]):
            continue
        t0, t1 = edge.FirstParameter, edge.LastParameter
        tangent = True
        for k in (0.25, 0.5, 0.75):
            at = edge.valueAt(t0 + k * (t1 - t0))
            n0, n1 = (f.normalAt(*f.Surface.parameter(at)) for f in faces)
            tangent = tangent and abs(n0.dot(n1)) > cos_lim
        (smooth if tangent else sharp).append(pts)
    return tuple(smooth), tuple(sharp)
