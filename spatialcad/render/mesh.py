"""Triangle meshes with per-face colours and feature edges, and builders for voxel stacks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from spatialcad.geometry.colours import Colour as Color
from spatialcad.geometry.voxels import Voxel, digit_keys, digit_rows


@dataclass(eq=False)
class Mesh:
    """Triangles with flat face colours plus 3D feature-edge segments drawn as lines.

    Arrays are coerced to the documented dtypes/shapes; meshes compare by identity.
    """

    vertices: np.ndarray  # (N, 3) float64
    triangles: np.ndarray  # (M, 3) int64
    face_colors: np.ndarray  # (M, 3) uint8
    edges: np.ndarray  # (K, 2, 3) float64

    def __post_init__(self) -> None:
        self.vertices = np.asarray(self.vertices, dtype=np.float64).reshape(-1, 3)
        self.triangles = np.asarray(self.triangles, dtype=np.int64).reshape(-1, 3)
        self.face_colors = _as_colors(self.face_colors).reshape(-1, 3)
        self.edges = np.asarray(self.edges, dtype=np.float64).reshape(-1, 2, 3)
        if len(self.face_colors) != len(self.triangles):
            raise ValueError(
                f"{len(self.face_colors)} face colours for {len(self.triangles)} triangles"
            )
        if len(self.triangles) and (
            self.triangles.min() < 0 or self.triangles.max() >= len(self.vertices)
        ):
            raise ValueError("triangle index out of range")


def _as_colors(c: object) -> np.ndarray:
    a = np.asarray(c)
    if a.size and (np.any(a < 0) or np.any(a > 255)):
        raise ValueError("colours must be in 0..255")
    return a.astype(np.uint8)


def empty_mesh() -> Mesh:
    """A mesh with nothing in it."""
    return Mesh(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 3)), np.zeros((0, 2, 3)))


# outward face direction -> its 4 corners (offsets from the cube's min corner), CCW from outside
_FACES: tuple[tuple[Voxel, tuple[Voxel, ...]], ...] = (
    ((1, 0, 0), ((1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1))),
    ((-1, 0, 0), ((0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0))),
    ((0, 1, 0), ((0, 1, 0), (0, 1, 1), (1, 1, 1), (1, 1, 0))),
    ((0, -1, 0), ((0, 0, 0), (1, 0, 0), (1, 0, 1), (0, 0, 1))),
    ((0, 0, 1), ((0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1))),
    ((0, 0, -1), ((0, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 0))),
)
_FACE_DIRS = np.array([d for d, _ in _FACES])
_FACE_CORNERS = np.array([c for _, c in _FACES])


def voxel_mesh(
    voxels: Iterable[Sequence[int]],
    colors: Mapping[tuple[int, int, int], tuple[int, int, int]] | None = None,
    default_color: Color = (200, 200, 200),
) -> Mesh:
    """Unit cubes [x, x+1] x [y, y+1] x [z, z+1]; faces shared by two cubes are dropped.

    Every exposed face is two triangles coloured with its cube's colour; the edges are the
    four sides of every exposed face (deduplicated), so each cube's outline is drawable.
    """
    cells = tuple(sorted({(int(v[0]), int(v[1]), int(v[2])) for v in voxels}))
    colors = colors or {}
    return _voxel_mesh(cells, tuple(tuple(int(c) for c in colors.get(v, default_color))
                                    for v in cells))


@lru_cache(maxsize=2048)
def _voxel_mesh(cells: tuple[Voxel, ...], colors: tuple[Color, ...]) -> Mesh:
    """:func:`voxel_mesh` of sorted distinct ``cells`` coloured ``colors``; remembered (the
    same pieces are drawn from several sides and tested again and again), so its arrays
    are read-only."""
    if not cells:
        return empty_mesh()
    cube = np.array(cells, dtype=np.int64)
    cell_colors = np.array(colors)
    # occupancy on a grid padded by one cell, so every neighbour lookup is in range
    low = cube.min(axis=0) - 1
    grid = np.zeros(tuple(cube.max(axis=0) - low + 2), dtype=bool)
    grid[tuple((cube - low).T)] = True
    neighbours = cube[:, None, :] - low + _FACE_DIRS[None]  # (C, 6, 3)
    # exposed faces, cube by cube and in _FACES order within a cube
    cube_of, face = np.nonzero(~grid[tuple(np.moveaxis(neighbours, 2, 0))])
    pts = cube[cube_of][:, None, :] + _FACE_CORNERS[face]  # (F, 4, 3)
    base = 4 * np.arange(len(face))[:, None]
    tris = np.stack([base + [0, 1, 2], base + [0, 2, 3]], axis=1)  # (F, 2, 3)
    # a face side's ends differ in one coordinate, so min/max order them as tuples would
    after = np.roll(pts, -1, axis=1)
    sides = np.concatenate([np.minimum(pts, after), np.maximum(pts, after)], axis=2)
    rows = sides.reshape(-1, 6)
    least = int(rows.min())
    radix = int(rows.max()) - least + 1
    # the distinct sides, sorted
    edges = digit_rows(np.unique(digit_keys(rows - least, radix)), radix, 6) + least
    mesh = Mesh(pts.reshape(-1, 3).astype(np.float64), tris.reshape(-1, 3),
                np.repeat(cell_colors[cube_of], 2, axis=0),
                edges.reshape(-1, 2, 3).astype(np.float64))
    for array in (mesh.vertices, mesh.triangles, mesh.face_colors, mesh.edges):
        array.flags.writeable = False
    return mesh


def merge(meshes: list[Mesh]) -> Mesh:
    """One mesh holding all triangles and edges of ``meshes`` (in order)."""
    meshes = list(meshes)
    if not meshes:
        return empty_mesh()
    if len(meshes) == 1:
        m = meshes[0]
        return Mesh(m.vertices.copy(), m.triangles.copy(), m.face_colors.copy(), m.edges.copy())
    offsets = np.cumsum([0] + [len(m.vertices) for m in meshes[:-1]])
    return Mesh(
        np.concatenate([m.vertices for m in meshes]),
        np.concatenate([m.triangles + o for m, o in zip(meshes, offsets, strict=True)]),
        np.concatenate([m.face_colors for m in meshes]),
        np.concatenate([m.edges for m in meshes]),
    )


def solid_mesh(
    vertices: np.ndarray | Sequence[Sequence[float]],
    triangles: np.ndarray | Sequence[Sequence[int]],
    color: Color = (200, 200, 200),
    edges: np.ndarray | Sequence[Sequence[Sequence[float]]] | None = None,
) -> Mesh:
    """A uniformly coloured mesh, e.g. from FreeCAD ``Shape.tessellate()`` (verts, tris).

    ``edges`` are feature-edge segments (K, 2, 3) supplied by the caller (None: no edges).
    """
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    t = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    c = np.tile(_as_colors(color).reshape(1, 3), (len(t), 1))
    e = np.zeros((0, 2, 3)) if edges is None else np.asarray(edges, dtype=np.float64)
    return Mesh(v, t, c, e.reshape(-1, 2, 3))


def feature_edges(
    vertices: np.ndarray, triangles: np.ndarray, angle_deg: float = 30.0, tol: float = 1e-9
) -> np.ndarray:
    """Segments (K, 2, 3) where a tessellated surface creases by more than ``angle_deg``.

    Boundary edges (used by one triangle) count as features. Vertices closer than ``tol``
    are welded first, so unshared per-face vertices (e.g. FreeCAD faces) work too.
    """
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    t = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    if len(t) == 0:
        return np.zeros((0, 2, 3))
    key = np.round(v / max(tol, 1e-12)).astype(np.int64)
    _, weld = np.unique(key, axis=0, return_inverse=True)
    weld = weld.reshape(-1)
    tw = weld[t]
    n = np.cross(v[t[:, 1]] - v[t[:, 0]], v[t[:, 2]] - v[t[:, 0]])
    norm = np.linalg.norm(n, axis=1)
    keep = norm > 0
    tw, t, n = tw[keep], t[keep], n[keep] / norm[keep, None]
    pairs = np.concatenate([tw[:, [0, 1]], tw[:, [1, 2]], tw[:, [2, 0]]])
    orig = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    face = np.tile(np.arange(len(tw)), 3)
    pairs_sorted = np.sort(pairs, axis=1)
    order = np.lexsort((face, pairs_sorted[:, 1], pairs_sorted[:, 0]))
    ps, fs, os_ = pairs_sorted[order], face[order], orig[order]
    cos_lim = np.cos(np.radians(angle_deg))
    new_group = np.ones(len(ps), dtype=bool)
    new_group[1:] = np.any(ps[1:] != ps[:-1], axis=1)
    starts = np.flatnonzero(new_group)
    counts = np.diff(np.append(starts, len(ps)))
    # boundary (1 face) and non-manifold (>2 faces) edges are features
    feature = counts != 2
    two = np.flatnonzero(counts == 2)
    # tessellations may flip orientation: compare normals up to sign
    dots = np.abs(np.sum(n[fs[starts[two]]] * n[fs[starts[two] + 1]], axis=1))
    feature[two] = dots < cos_lim
    feature &= ps[starts, 0] != ps[starts, 1]
    sel = starts[feature]
    segments: npt.NDArray[np.float64] = v[os_[sel]]
    return segments.reshape(-1, 2, 3)
