"""Fast sections of a stack along a plane family, from polyhedral approximations.

Slicing the FreeCAD solid costs ~5 ms a plane; sampling a family densely (hundreds of
offsets) is instead done here in numpy: every solid of the stack is convex, so its section
is the convex hull of the points where the plane crosses the edges of its polyhedron
(circles become ``N_CIRCLE``-gons, whose area is within 0.05% of the circle's), and the
section of the stack is the union of its solids' sections.
"""

from __future__ import annotations

import numpy as np

from spatialcad.cad import solids
from spatialcad.cad.section import plane_basis
from spatialcad.geometry import convex_pieces
from spatialcad.geometry.section_shape import unions

N_CIRCLE = 128


def polyhedron_edges(desc: solids.Desc, z0: float) -> np.ndarray:
    """Edges (E, 2, 3) of the polyhedron of ``desc`` standing at height ``z0``."""
    fp = solids.footprint(desc)
    ring = solids.outline_points(fp, N_CIRCLE)
    n = len(ring)
    bottom = np.column_stack([ring, np.full(n, z0)])
    top = np.column_stack([ring * fp.top_ratio, np.full(n, z0 + fp.height)])
    nxt = np.roll(np.arange(n), -1)
    edges = [np.stack([bottom, bottom[nxt]], axis=1), np.stack([bottom, top], axis=1)]
    if fp.top_ratio > 0.0:
        edges.append(np.stack([top, top[nxt]], axis=1))
    return np.concatenate(edges)


def stack_edges(descs: list[solids.Desc]) -> list[np.ndarray]:
    """:func:`polyhedron_edges` of every solid of a top-to-bottom stack."""
    return [polyhedron_edges(d, z0) for d, z0 in zip(descs, solids.stack_bases(descs), strict=True)]


def offset_range(edges: list[np.ndarray], normal: np.ndarray) -> tuple[float, float]:
    """Offsets d for which the plane n.p = d meets the stack."""
    d = np.concatenate([e.reshape(-1, 3) for e in edges]) @ np.asarray(normal, dtype=float)
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
    n = n / np.linalg.norm(n)
    frame = np.stack(plane_basis(n), axis=1)
    offsets = np.asarray(offsets, dtype=np.float64)
    points, groups = [], []
    for column, e in enumerate(edges):
        a, b = e[:, 0] @ n, e[:, 1] @ n  # (E,) signed heights of the edge ends
        da = a[None, :] - offsets[:, None]
        db = b[None, :] - offsets[:, None]
        crossing = (da * db <= 0.0) & (a != b)[None, :]
        k, j = np.nonzero(crossing)
        t = da[k, j] / (a[j] - b[j])
        # ends of edges lying in the plane (a == b == d) count too
        k2, j2 = np.nonzero((np.abs(da) < 1e-12) & (a == b)[None, :])
        points += [e[j, 0] + t[:, None] * (e[j, 1] - e[j, 0]), e[j2, 0], e[j2, 1]]
        groups += [(np.concatenate([k, k2, k2])) * len(edges) + column]
    return convex_pieces.hulls(np.concatenate(points) @ frame, np.concatenate(groups),
                               (len(offsets), len(edges)))
