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

from collections.abc import Callable

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
    return cutter(edges, normal)(offsets)


def cutter(edges: list[np.ndarray], normal: np.ndarray
           ) -> Callable[[np.ndarray], convex_pieces.Pieces]:
    """:func:`section_pieces` of the stack by planes with normal ``normal`` as a function
    of their offsets, set up once (dense sampling calls it round after round): the edges'
    ends projected on the normal once, the crossings of each round found and projected on
    the plane's basis in one compiled pass."""
    n = exact.unit(np.asarray(normal, dtype=np.float64))
    u, v = plane_basis(n)
    ends = np.ascontiguousarray(np.concatenate(edges), dtype=np.float64)
    a, b = exact.matmul(ends[:, 0], n), exact.matmul(ends[:, 1], n)  # heights of the ends
    starts = np.cumsum([0] + [len(e) for e in edges])

    def at(offsets: np.ndarray) -> convex_pieces.Pieces:
        offsets = np.asarray(offsets, dtype=np.float64)
        xy, bounds = _crossings(ends, a, b, starts, offsets, u, v)
        return convex_pieces.grouped_hulls(xy, bounds, (len(offsets), len(edges)))

    return at


@numba.njit(cache=True, nogil=True)
def _crossings(e: np.ndarray, a: np.ndarray, b: np.ndarray, starts: np.ndarray,
               offsets: np.ndarray, u: np.ndarray, v: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """Where the planes n.p = offsets[k] cross the edges ``e`` (E, 2, 3) whose ends are at
    heights ``a`` and ``b`` along n, in the plane's basis (u, v), grouped by plane and solid
    (group k * solids + s: solid s's edges are ``starts[s]:starts[s + 1]``; its points are
    ``bounds[g]:bounds[g + 1]``): in each group first the crossings of its edges, in order
    (d between the ends, both included), then both ends of the edges lying in the plane
    (first ends, then second ends)."""
    solids = len(starts) - 1
    cross = np.zeros(len(offsets) * solids, dtype=np.int64)
    flat = np.zeros(len(offsets) * solids, dtype=np.int64)
    bounds = np.zeros(len(offsets) * solids + 1, dtype=np.int64)
    for k in range(len(offsets)):
        for s in range(solids):
            g = k * solids + s
            for j in range(starts[s], starts[s + 1]):
                da, db = a[j] - offsets[k], b[j] - offsets[k]
                if a[j] != b[j] and da * db <= 0.0:
                    cross[g] += 1
                elif a[j] == b[j] and abs(da) < 1e-12:
                    flat[g] += 1
            bounds[g + 1] = bounds[g] + cross[g] + 2 * flat[g]
    xy = np.empty((bounds[-1], 2))
    p = np.empty(3)
    for k in range(len(offsets)):
        for s in range(solids):
            g = k * solids + s
            i, f = bounds[g], bounds[g] + cross[g]
            for j in range(starts[s], starts[s + 1]):
                da, db = a[j] - offsets[k], b[j] - offsets[k]
                if a[j] != b[j] and da * db <= 0.0:
                    t = da / (a[j] - b[j])
                    for c in range(3):
                        p[c] = e[j, 0, c] + t * (e[j, 1, c] - e[j, 0, c])
                    _project(p, u, v, xy[i])
                    i += 1
                elif a[j] == b[j] and abs(da) < 1e-12:
                    _project(e[j, 0], u, v, xy[f])
                    _project(e[j, 1], u, v, xy[f + flat[g]])
                    f += 1
    return xy, bounds


@numba.njit(cache=True, nogil=True, inline="always")
def _project(p: np.ndarray, u: np.ndarray, v: np.ndarray,
             out: np.ndarray) -> None:  # pragma: no cover - compiled
    """The point ``p`` in the basis (u, v), summed in order as :func:`exact.matmul` sums."""
    out[0] = (p[0] * u[0] + p[1] * u[1]) + p[2] * u[2]
    out[1] = (p[0] * v[0] + p[1] * v[1]) + p[2] * v[2]
