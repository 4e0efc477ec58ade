"""Plane sections of FreeCAD solids as shapely polygons in the plane's own 2D coordinates.

Plane families: ``XY`` (normal z, offset = z), ``XZ`` (normal y, offset = y), ``YZ``
(normal x, offset = x) and the oblique ``X45``, ``X135``, ``Y45``, ``Y135``, ``Z45``,
``Z135``: the XZ plane turned about the x axis, the YZ plane about the y axis and the YZ
plane about the z axis by 45 or 135 degrees (right-handed).  A plane is ``{p : n.p = d}``.

In-plane basis (:func:`plane_basis`), fixed per plane orientation whatever the sign of n:
a horizontal plane uses (x, y); any other plane uses u = the horizontal unit vector of the
plane with its first non-zero coordinate positive and v = the in-plane unit vector
perpendicular to u pointing up.  So XZ gives (x, z), YZ gives (y, z), and the section is
drawn upright.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from spatialcad import freecad_env
from spatialcad.geometry import exact
from spatialcad.geometry.convex_pieces import EMPTY

AXIS_FAMILIES = ("XY", "XZ", "YZ")
OBLIQUE_FAMILIES = ("X45", "X135", "Y45", "Y135", "Z45", "Z135")
# oblique family axis -> (rotation axis, normal of the plane it starts from)
_START = {"X": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)), "Y": ((0.0, 1.0, 0.0), (1.0, 0.0, 0.0)),
          "Z": ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0))}


def family_normal(name: str) -> np.ndarray:
    """Unit normal of a plane family (see the module docstring)."""
    fixed = {"XY": (0.0, 0.0, 1.0), "XZ": (0.0, 1.0, 0.0), "YZ": (1.0, 0.0, 0.0)}
    if name in fixed:
        return np.array(fixed[name])
    if name not in OBLIQUE_FAMILIES:
        raise KeyError(f"unknown plane family {name!r}")
    axis, start = (np.array(a) for a in _START[name[0]])
    t = math.radians(float(name[1:]))
    # Rodrigues' rotation of `start` (perpendicular to `axis`) about `axis` by t
    n = start * math.cos(t) + np.cross(axis, start) * math.sin(t)
    return _clean(n)


def _clean(v: np.ndarray) -> np.ndarray:
    """Unit vector with round-off zeros snapped (e.g. cos 90 deg), for stable records."""
    v = np.where(np.abs(v) < 1e-12, 0.0, v)
    return v / exact.norm(v) + 0.0  # + 0.0 turns -0.0 into 0.0


def plane_basis(normal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """In-plane unit vectors (u, v) of the plane with this normal (module docstring), worked
    out once per normal (read-only)."""
    return _plane_basis(tuple(float(c) for c in np.asarray(normal, dtype=np.float64)))


@lru_cache(maxsize=256)
def _plane_basis(normal: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    n = np.array(normal)
    n = exact.unit(n)
    h = np.cross((0.0, 0.0, 1.0), n)
    if exact.norm(h) < 1e-9:
        u, v = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    else:
        u = _clean(h)
        u = _clean(u if u[np.flatnonzero(u)[0]] > 0 else -u)
        v = _clean(np.cross(n, u))
        v = _clean(v if v[2] > 0 else -v)
    u.flags.writeable = v.flags.writeable = False
    return u, v


def section(shape: Any, normal: np.ndarray, offset: float, deflection: float = 5e-4) -> Any:
    """Section of ``shape`` by the plane ``n.p = offset`` as a shapely (Multi)Polygon.

    Coordinates are in the plane's basis (:func:`plane_basis`); curved edges are
    discretized to ``deflection``; nested wires become holes (even-odd rule).  Empty when
    the plane misses the shape.
    """
    FreeCAD, Part = freecad_env.load()
    n = np.asarray(normal, dtype=np.float64)
    n = exact.unit(n)
    frame = np.stack(plane_basis(n), axis=1)
    # a common with the unbounded plane: half the time of shape.slice, same curves
    plane = Part.Plane(FreeCAD.Vector(*(n * float(offset))), FreeCAD.Vector(*n)).toShape()
    rings = []
    for group in Part.sortEdges(shape.section(plane).Edges):  # edges come unordered
        wire = Part.Wire(group)
        if not wire.isClosed():
            continue
        pts = np.array([(p.x, p.y, p.z) for p in wire.discretize(Deflection=deflection)])
        if exact.norm(pts[0] - pts[-1]) < 1e-7:
            pts = pts[:-1]  # a closed wire's last point (nearly) repeats its first
        if len(pts) < 3:
            continue  # a plane touching an edge
        ring = shapely.Polygon(exact.matmul(pts, frame))
        if ring.is_valid and ring.area > 0.0:
            rings.append(ring)
    result: BaseGeometry = EMPTY
    for ring in rings:
        result = result.symmetric_difference(ring)
    return shapely.normalize(result)


def box_corners(shape: Any) -> np.ndarray:
    """The eight corners (8, 3) of ``shape``'s bounding box."""
    box = shape.BoundBox
    return np.array([(x, y, z) for x in (box.XMin, box.XMax) for y in (box.YMin, box.YMax)
                     for z in (box.ZMin, box.ZMax)])
