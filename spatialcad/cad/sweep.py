"""Polyhedral approximations of a stack: fast sections along a plane family, and meshes.

Slicing the FreeCAD solid costs ~5 ms a plane; sampling a family densely (hundreds of
offsets) is instead done here in numpy: every solid of the stack is convex, so its section
is the convex hull of the points where the plane crosses the edges of its polyhedron
(circles become ``N_CIRCLE``-gons, whose area is within 0.05% of the circle's), and the
section of the stack is the union of its solids' sections.  The same polyhedra, as
triangles, are the stack's render mesh (:func:`stack_mesh`): FreeCAD's mesher takes ~20 ms
a cone (it fills the face with rows of points a ruled surface does not need).
"""

from __future__ import annotations

import numba
import numpy as np

from spatialcad.cad import solids
from spatialcad.cad.section import plane_basis
from spatialcad.geometry import convex_pieces, exact
from spatialcad.geometry.section_shape import unions

N_CIRCLE = 128


def _rings(desc: solids.Desc, z0: float) -> tuple[np.ndarray, np.ndarray, bool]:
    """The bottom and top outlines (n, 3) of the polyhedron of ``desc`` standing at height
    ``z0``, and whether it has a top face (a pointed solid's top outline is its apex, n
    times)."""
    fp = solids.footprint(desc)
    ring = solids.outline_points(fp, N_CIRCLE)
    n = len(ring)
    bottom = np.column_stack([ring, np.full(n, z0)])
    top = np.column_stack([ring * fp.top_ratio, np.full(n, z0 + fp.height)])
    return bottom, top, fp.top_ratio > 0.0


def polyhedron_edges(desc: solids.Desc, z0: float) -> np.ndarray:
    """Edges (E, 2, 3) of the polyhedron of ``desc`` standing at height ``z0``."""
    bottom, top, flat_top = _rings(desc, z0)
    nxt = np.roll(np.arange(len(bottom)), -1)
    edges = [np.stack([bottom, bottom[nxt]], axis=1), np.stack([bottom, top], axis=1)]
    if flat_top:
        edges.append(np.stack([top, top[nxt]], axis=1))
    return np.concatenate(edges)


def stack_mesh(descs: list[solids.Desc]) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (V, 3) and triangles (T, 3) of the polyhedra of a top-to-bottom stack, each
    closed, for rendering.  The joint faces inside the stack need no boolean: a point of
    one solid's face that another solid covers is seen, from either side of the joint,
    only through the interior of that convex other solid, so the depth buffer hides it.
    Triangles run counter-clockwise seen from outside."""
    vertices: list[np.ndarray] = []
    triangles: list[np.ndarray] = []
    for desc, z0 in zip(descs, solids.stack_bases(descs), strict=True):
        bottom, top, flat_top = _rings(desc, z0)
        n, first = len(bottom), sum(len(v) for v in vertices)
        i, j = np.arange(n), np.roll(np.arange(n), -1)
        fan = np.stack([np.zeros(n - 2, dtype=np.int64), i[1:-1], i[2:]], axis=1)
        if flat_top:
            vertices += [bottom, top]
            faces = [fan[:, ::-1], n + fan, np.stack([i, j, n + j], axis=1),
                     np.stack([i, n + j, n + i], axis=1)]
        else:
            vertices += [bottom, top[:1]]
            faces = [fan[:, ::-1], np.stack([i, j, np.full(n, n)], axis=1)]
        triangles.append(first + np.concatenate(faces))
    return np.concatenate(vertices), np.concatenate(triangles)


def stack_edges(descs: list[solids.Desc]) -> list[np.ndarray]:
    """:func:`polyhedron_edges` of every solid of a top-to-bottom stack."""
    return [polyhedron_edges(d, z0) for d, z0 in zip(descs, solids.stack_bases(descs), strict=True)]


def offset_range(edges: list[np.ndarray], normal: np.ndarray) -> tuple[float, float]:
    """Offsets d for which the plane n.p = d meets the stack."""
    d = exact.matmul(np.concatenate([e.reshape(-1, 3) for e in edges]), normal)
    return float(d.min()), float(d.max())


def sections(edges: list[np.ndarray], normal: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Sections (object array of shapely geometries) of the stack at every offset.

    Coordinates are in :func:`spatialcad.cad.section.plane_basis` of ``normal``.
    """
    return unions(convex_pieces.polygons(section_pieces(edges, normal, offsets)))


def section_pieces(edges: list[np.ndarray], normal: np.ndarray,
                   offsets: np.ndarray) -> convex_pieces.Pieces:
    """The section of each solid (pieces k, top to bottom) at every offset (rows): the
    rows' unions are :func:`sections`."""
    n = np.asarray(normal, dtype=np.float64)
    n = exact.unit(n)
    frame = np.stack(plane_basis(n), axis=1)
    offsets = np.asarray(offsets, dtype=np.float64)
    points, groups = [], []
    for column, e in enumerate(edges):
        a, b = exact.matmul(e[:, 0], n), exact.matmul(e[:, 1], n)  # (E,) heights of the ends
        at, plane = _crossings(np.ascontiguousarray(e), a, b, offsets)
        points.append(at)
        groups.append(plane * len(edges) + column)
    return convex_pieces.hulls(exact.matmul(np.concatenate(points), frame), np.concatenate(groups),
                               (len(offsets), len(edges)))


@numba.njit(cache=True, nogil=True)
def _crossings(e: np.ndarray, a: np.ndarray, b: np.ndarray,
               offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """Where the planes n.p = offsets[k] cross the edges ``e`` (E, 2, 3) whose ends are at
    heights ``a`` and ``b`` along n, and each point's plane k: first the crossings of
    every plane and edge (planes, then edges, in order; d between the ends, both included),
    then both ends of the edges lying in a plane (first ends, then second ends)."""
    count = 0
    flat = 0
    for k in range(len(offsets)):
        for j in range(len(a)):
            da, db = a[j] - offsets[k], b[j] - offsets[k]
            if a[j] != b[j] and da * db <= 0.0:
                count += 1
            elif a[j] == b[j] and abs(da) < 1e-12:
                flat += 1
    points = np.empty((count + 2 * flat, 3))
    plane = np.empty(count + 2 * flat, dtype=np.int64)
    i, f = 0, count
    for k in range(len(offsets)):
        for j in range(len(a)):
            da, db = a[j] - offsets[k], b[j] - offsets[k]
            if a[j] != b[j] and da * db <= 0.0:
                t = da / (a[j] - b[j])
                for c in range(3):
                    points[i, c] = e[j, 0, c] + t * (e[j, 1, c] - e[j, 0, c])
                plane[i] = k
                i += 1
            elif a[j] == b[j] and abs(da) < 1e-12:
                for c in range(3):
                    points[f, c], points[f + flat, c] = e[j, 0, c], e[j, 1, c]
                plane[f], plane[f + flat] = k, k
                f += 1
    return points, plane
