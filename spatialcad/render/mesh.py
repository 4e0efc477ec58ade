"""Triangle meshes with per-face colours and feature edges, and builders for voxel stacks."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numba
import numpy as np
import numpy.typing as npt

from spatialcad.geometry.colours import Colour as Color
from spatialcad.geometry.voxels import Voxel


@dataclass(eq=False)
class Mesh:
    """Triangles with flat face colours plus 3D feature-edge segments drawn as lines.

    ``one_sided`` marks the triangles of closed surfaces wound counter-clockwise seen from
    outside (empty: none): such a triangle seen from behind is always covered by the front
    of its own surface, so the rasterizer skips it (back-face culling).  Arrays are
    coerced to the documented dtypes/shapes; meshes compare by identity.
    """

    vertices: np.ndarray  # (N, 3) float64
    triangles: np.ndarray  # (M, 3) int64
    face_colors: np.ndarray  # (M, 3) uint8
    edges: np.ndarray  # (K, 2, 3) float64
    one_sided: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.bool_))  # (M,)

    def __post_init__(self) -> None:
        self.vertices = np.asarray(self.vertices, dtype=np.float64).reshape(-1, 3)
        self.triangles = np.asarray(self.triangles, dtype=np.int64).reshape(-1, 3)
        self.face_colors = _as_colors(self.face_colors).reshape(-1, 3)
        self.edges = np.asarray(self.edges, dtype=np.float64).reshape(-1, 2, 3)
        self.one_sided = np.asarray(self.one_sided, dtype=np.bool_).reshape(-1)
        if not len(self.one_sided):
            self.one_sided = np.zeros(len(self.triangles), dtype=np.bool_)
        if len(self.face_colors) != len(self.triangles):
            raise ValueError(
                f"{len(self.face_colors)} face colours for {len(self.triangles)} triangles"
            )
        if len(self.one_sided) != len(self.triangles):
            raise ValueError(
                f"{len(self.one_sided)} one-sided flags for {len(self.triangles)} triangles")
        if len(self.triangles) and (
            self.triangles.min() < 0 or self.triangles.max() >= len(self.vertices)
        ):
            raise ValueError("triangle index out of range")

    def freeze(self) -> Mesh:
        """Make the arrays read-only and remember their digest (:meth:`content_key`): for a
        mesh that is drawn many times over and never changed."""
        for array in self._arrays():
            array.flags.writeable = False
        self.__dict__["_frozen_key"] = self._digest()
        return self

    def content_key(self) -> bytes:
        """A digest of the arrays (their bytes and shapes); a frozen mesh's is kept."""
        kept: bytes | None = self.__dict__.get("_frozen_key")
        return kept if kept is not None else self._digest()

    def _arrays(self) -> tuple[np.ndarray, ...]:
        return (self.vertices, self.triangles, self.face_colors, self.edges, self.one_sided)

    def _digest(self) -> bytes:
        digest = hashlib.blake2b(digest_size=20)
        for array in self._arrays():
            digest.update(np.ascontiguousarray(array).tobytes())
            digest.update(repr(array.shape).encode())
        return digest.digest()


def _as_colors(c: object) -> np.ndarray:
    a = np.asarray(c)
    if a.dtype == np.uint8:  # in range: no check
        return a.copy()
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

    Every exposed face is two triangles coloured with its cube's colour, one-sided (the
    faces close each connected group of cubes, wound counter-clockwise from outside); the
    edges are the four sides of every exposed face (deduplicated), so each cube's outline
    is drawable.
    """
    cells = tuple(sorted({(int(v[0]), int(v[1]), int(v[2])) for v in voxels}))
    default = tuple(map(int, default_color))
    if not colors:
        return _voxel_mesh(cells, (default,) * len(cells))
    return _voxel_mesh(cells, tuple(default if (c := colors.get(v)) is None
                                    else tuple(map(int, c)) for v in cells))


@lru_cache(maxsize=2048)
def _voxel_mesh(cells: tuple[Voxel, ...], colors: tuple[Color, ...]) -> Mesh:
    """:func:`voxel_mesh` of sorted distinct ``cells`` coloured ``colors``; remembered (the
    same pieces are drawn from several sides and tested again and again), so its arrays
    are read-only."""
    if not cells:
        return empty_mesh()
    cube_of, vertices, triangles, edges = _cube_faces(np.array(cells, dtype=np.int64),
                                                      _FACE_DIRS, _FACE_CORNERS)
    return Mesh(vertices, triangles, np.repeat(np.array(colors)[cube_of], 2, axis=0),
                edges, np.ones(len(triangles), dtype=np.bool_)).freeze()


@numba.njit(cache=True, nogil=True)
def _cube_faces(cube: np.ndarray, dirs: np.ndarray, corners: np.ndarray
                ) -> tuple[np.ndarray, ...]:  # pragma: no cover - compiled
    """The exposed faces of unit cubes (C >= 1, 3), cube by cube and in ``_FACES`` order within a
    cube: each face's cube, its corners as vertices (4 per face), two triangles per face,
    and the distinct sides of all faces, sorted, as edges (E, 2, 3), each side's ends
    ordered (they differ in one coordinate)."""
    low = np.empty(3, dtype=np.int64)
    size = np.empty(3, dtype=np.int64)
    for c in range(3):
        low[c] = cube[:, c].min() - 1
        size[c] = cube[:, c].max() - low[c] + 2
    grid = np.zeros((size[0], size[1], size[2]), dtype=np.bool_)
    for i in range(len(cube)):
        grid[cube[i, 0] - low[0], cube[i, 1] - low[1], cube[i, 2] - low[2]] = True
    cube_of = np.empty(6 * len(cube), dtype=np.int64)
    face = np.empty(6 * len(cube), dtype=np.int64)
    count = 0
    for i in range(len(cube)):
        for f in range(6):
            if not grid[cube[i, 0] - low[0] + dirs[f, 0], cube[i, 1] - low[1] + dirs[f, 1],
                        cube[i, 2] - low[2] + dirs[f, 2]]:
                cube_of[count], face[count] = i, f
                count += 1
    points = np.empty((count, 4, 3), dtype=np.int64)
    triangles = np.empty((2 * count, 3), dtype=np.int64)
    for r in range(count):
        for k in range(4):
            points[r, k] = cube[cube_of[r]] + corners[face[r], k]
        triangles[2 * r, 0], triangles[2 * r, 1], triangles[2 * r, 2] = 4 * r, 4 * r + 1, 4 * r + 2
        triangles[2 * r + 1, 0], triangles[2 * r + 1, 1], triangles[2 * r + 1, 2] = \
            4 * r, 4 * r + 2, 4 * r + 3
    sides = np.empty((4 * count, 6), dtype=np.int64)
    for r in range(count):
        for k in range(4):
            for c in range(3):
                a, b = points[r, k, c], points[r, (k + 1) % 4, c]
                sides[4 * r + k, c], sides[4 * r + k, 3 + c] = min(a, b), max(a, b)
    # distinct sides in lexicographic order: sort their base-radix keys
    least = sides.min()
    radix = sides.max() - least + 1
    keys = np.zeros(4 * count, dtype=np.int64)
    for r in range(4 * count):
        for c in range(6):
            keys[r] = keys[r] * radix + (sides[r, c] - least)
    distinct = np.unique(keys)
    edges = np.empty((len(distinct), 2, 3))
    for r in range(len(distinct)):
        key = distinct[r]
        for c in range(5, -1, -1):
            edges[r, c // 3, c % 3] = key % radix + least
            key //= radix
    return cube_of[:count], points.reshape(-1, 3).astype(np.float64), triangles, edges


def merge(meshes: list[Mesh]) -> Mesh:
    """One mesh holding all triangles and edges of ``meshes`` (in order)."""
    meshes = list(meshes)
    if not meshes:
        return empty_mesh()
    if len(meshes) == 1:
        m = meshes[0]
        return Mesh(m.vertices.copy(), m.triangles.copy(), m.face_colors.copy(), m.edges.copy(),
                    m.one_sided.copy())
    offsets = np.cumsum([0] + [len(m.vertices) for m in meshes[:-1]])
    return Mesh(
        np.concatenate([m.vertices for m in meshes]),
        np.concatenate([m.triangles + o for m, o in zip(meshes, offsets, strict=True)]),
        np.concatenate([m.face_colors for m in meshes]),
        np.concatenate([m.edges for m in meshes]),
        np.concatenate([m.one_sided for m in meshes]),
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
    cos_lim = math.cos(math.radians(angle_deg))
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
