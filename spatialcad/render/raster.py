"""Deterministic z-buffer rasterizer (a numba-compiled scan of triangle boxes): flat-shaded
faces plus a visible-edge overlay."""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, cast

import numba
import numpy as np

from spatialcad.geometry.colours import Colour as Color
from spatialcad.geometry.exact import _matmul_2d
from spatialcad.render.pixels import plain

from .camera import Camera
from .mesh import Mesh, merge
from .opencv import cv2

# light direction in camera coordinates (right, up, forward), pointing toward the light:
# from the upper left, behind the viewer. In the isometric view a cube's top, front and
# right faces get clearly different shades; faces squarely facing the camera all get one.
LIGHT_DIR = np.array([-0.35, 0.55, -0.75]) / math.sqrt(0.35**2 + 0.55**2 + 0.75**2)
AMBIENT = 0.5
DIFFUSE = 0.5

_SHIFT = 4  # sub-pixel bits for cv2 drawing


def _as_mesh(meshes: Mesh | list[Mesh]) -> Mesh:
    """The meshes as one (drawn, never changed: a single mesh is not copied)."""
    if isinstance(meshes, Mesh):
        return meshes
    meshes = list(meshes)
    return meshes[0] if len(meshes) == 1 else merge(meshes)


def projected_bounds(meshes: Mesh | list[Mesh], cam: Camera) -> tuple[float, float, float, float]:
    """(umin, vmin, umax, vmax) of all vertices and edge endpoints seen by ``cam``."""
    ms = [meshes] if isinstance(meshes, Mesh) else list(meshes)
    pts = [m.vertices for m in ms] + [m.edges.reshape(-1, 3) for m in ms]
    allp = np.concatenate(pts) if pts else np.zeros((0, 3))
    if len(allp) == 0:
        return (0.0, 0.0, 0.0, 0.0)
    uv = cam.project(allp)[:, :2]
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


def fit_scale(
    meshes: Mesh | list[Mesh],
    cam: Camera,
    size: tuple[int, int] = (400, 400),
    margin: int = 12,
) -> float:
    """Pixels per world unit that fit the projected bounding box into ``size`` - margins."""
    umin, vmin, umax, vmax = projected_bounds(meshes, cam)
    aw, ah = max(1, size[0] - 2 * margin), max(1, size[1] - 2 * margin)
    du, dv = umax - umin, vmax - vmin
    cands = [aw / du] if du > 1e-12 else []
    if dv > 1e-12:
        cands.append(ah / dv)
    return float(min(cands)) if cands else 1.0


@numba.njit(cache=True, nogil=True)
def _scan(sx: np.ndarray, sy: np.ndarray, sz: np.ndarray, tris: np.ndarray,
          one_sided: np.ndarray, zbuf: np.ndarray, ids: np.ndarray, w: int, h: int, x0: int,
          y0: int, cw: int) -> np.ndarray:  # pragma: no cover - compiled
    """Scan every triangle of a (w, h) image into the z-buffer ``zbuf`` and ``ids`` of its
    window of width ``cw`` from pixel (x0, y0) (flat; the window holds every triangle's
    pixel box), except the ``one_sided`` ones seen from behind (:class:`Mesh`: wound
    clockwise on the screen, whose y grows downward); returns each triangle's
    |grad depth| (0 for degenerate and skipped ones).

    Edge function opposite vertex i: E_i(p) = A_i x + B_i y + C_i (edges 1->2, 2->0, 0->1),
    signs turned so that the inside is E_i >= 0 for either winding.  Pixel (x, y) of the
    triangle's box is tested at offsets (dx, dy) from the box origin's centre (ox, oy):
    inside when ``A_i dx >= -((A_i ox + B_i oy + C_i + eps_i) + B_i dy)`` for the three
    edges, depth ``(Az ox + Bz oy + Cz + Az dx) + Bz dy``; each test is monotone along a
    row, so a row's inside pixels are one run, found from its ends (:func:`_inside`).  The
    nearest depth wins, ties go to the higher triangle index (so the result does not depend
    on the order).
    """
    grad = np.zeros(len(tris))
    X, Y, Z = np.empty(3), np.empty(3), np.empty(3)
    A, B, C, eps = np.empty(3), np.empty(3), np.empty(3), np.empty(3)
    for t in range(len(tris)):
        for i in range(3):
            X[i], Y[i], Z[i] = sx[tris[t, i]], sy[tris[t, i]], sz[tris[t, i]]
        area2 = (X[1] - X[0]) * (Y[2] - Y[0]) - (X[2] - X[0]) * (Y[1] - Y[0])
        if one_sided[t] and area2 > 0:
            continue  # a back face: the front of its closed surface covers it
        sgn = -1.0 if area2 < 0 else 1.0
        for i in range(3):
            a, b = (i + 1) % 3, (i + 2) % 3
            A[i] = (Y[a] - Y[b]) * sgn
            B[i] = (X[b] - X[a]) * sgn
            C[i] = (X[a] * Y[b] - X[b] * Y[a]) * sgn
            eps[i] = 1e-6 * np.hypot(A[i], B[i])
        area = abs(area2)
        if not (np.isfinite(area) and area > 1e-9 and np.isfinite(Z[0]) and np.isfinite(Z[1])
                and np.isfinite(Z[2])):
            continue
        Az = (A[0] * Z[0] + A[1] * Z[1] + A[2] * Z[2]) / area
        Bz = (B[0] * Z[0] + B[1] * Z[1] + B[2] * Z[2]) / area
        Cz = (C[0] * Z[0] + C[1] * Z[1] + C[2] * Z[2]) / area
        grad[t] = np.hypot(Az, Bz)
        jx0 = int(min(max(np.ceil(_finite(min(X[0], X[1], X[2]) - 0.5, 0.0)), 0.0), w))
        jx1 = int(min(max(np.floor(_finite(max(X[0], X[1], X[2]) - 0.5, -1.0)), -1.0), w - 1))
        jy0 = int(min(max(np.ceil(_finite(min(Y[0], Y[1], Y[2]) - 0.5, 0.0)), 0.0), h))
        jy1 = int(min(max(np.floor(_finite(max(Y[0], Y[1], Y[2]) - 0.5, -1.0)), -1.0), h - 1))
        ox, oy = jx0 + 0.5, jy0 + 0.5
        e0 = A[0] * ox + B[0] * oy + C[0] + eps[0]
        e1 = A[1] * ox + B[1] * oy + C[1] + eps[1]
        e2 = A[2] * ox + B[2] * oy + C[2] + eps[2]
        z0 = Az * ox + Bz * oy + Cz
        for y in range(jy0, jy1 + 1):
            dy = float(y - jy0)
            r0, r1, r2 = -(e0 + B[0] * dy), -(e1 + B[1] * dy), -(e2 + B[2] * dy)
            # the row's pixels inside all three edges: A_i dx >= r_i
            first, last = _inside(A[0], r0, 0, jx1 - jx0)
            first, last = _inside(A[1], r1, first, last)
            first, last = _inside(A[2], r2, first, last)
            for x in range(jx0 + first, jx0 + last + 1):
                dx = float(x - jx0)
                depth = (z0 + Az * dx) + Bz * dy
                p = (y - y0) * cw + (x - x0)
                if depth < zbuf[p]:
                    zbuf[p] = depth
                    ids[p] = t
                elif depth == zbuf[p] and t > ids[p]:
                    ids[p] = t
    return grad


@numba.njit(cache=True, nogil=True, inline="always")
def _inside(a: float, r: float, first: int, last: int) -> tuple[int, int]:  # pragma: no cover
    """[first, last] narrowed to the integers m with ``a * m >= r`` (in floating point, as
    the scan tests each pixel).  fl(a m) is monotone in m, so they are the m from (a > 0) or
    up to (a < 0) one boundary, found from the quotient r / a and corrected by testing its
    neighbours; for a = 0, all or none."""
    if first > last:
        return first, last
    if a == 0.0:
        return (first, last) if 0.0 >= r else (1, 0)
    guess = r / a
    m = first if not guess > first else last + 1 if not guess < last + 1 else int(np.ceil(guess))
    if a > 0.0:  # the smallest m with a m >= r
        while m > first and a * (m - 1) >= r:
            m -= 1
        while m <= last and not a * m >= r:
            m += 1
        return m, last
    m = min(m, last)  # a < 0: the largest m with a m >= r
    while m < last and a * (m + 1) >= r:
        m += 1
    while m >= first and not a * m >= r:
        m -= 1
    return first, m


@numba.njit(cache=True, nogil=True, inline="always")
def _finite(v: float, nan: float) -> float:  # pragma: no cover - compiled
    """``v`` with NaN read as ``nan`` and infinities as the largest finite floats (as
    numpy.nan_to_num does)."""
    if np.isnan(v):
        return nan
    return min(max(v, -1.7976931348623157e308), 1.7976931348623157e308)


Window = tuple[int, int, int, int]  # x0, y0, x1, y1: the pixels drawn of a larger image


@numba.njit(cache=True, nogil=True)
def _grow_box(box: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> None:  # pragma: no cover
    """Grow ``box`` (x min, y min, x max, y max) over the points whose coordinates are
    finite."""
    for i in range(len(xs)):
        if np.isfinite(xs[i]) and np.isfinite(ys[i]):
            box[0], box[1] = min(box[0], xs[i]), min(box[1], ys[i])
            box[2], box[3] = max(box[2], xs[i]), max(box[3], ys[i])


@numba.njit(cache=True, nogil=True)
def _paint(ids: np.ndarray, palette: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """The RGB image ``palette[ids + 1]`` (row 0 of ``palette``: where no triangle is)."""
    h, w = ids.shape
    out = np.empty((h, w, 3), dtype=np.uint8)
    for y in range(h):
        for x in range(w):
            c = ids[y, x] + 1
            out[y, x, 0], out[y, x, 1], out[y, x, 2] = palette[c, 0], palette[c, 1], palette[c, 2]
    return out


@numba.njit(cache=True, nogil=True)
def _shaded(vertices: np.ndarray, triangles: np.ndarray, colours: np.ndarray,
            to_camera: np.ndarray, light: np.ndarray, ambient: float,
            diffuse: float) -> np.ndarray:  # pragma: no cover - compiled
    """Each triangle's colour times ``ambient + diffuse * max(n . light, 0)``, rounded, for
    its unit normal n in camera coordinates turned toward the camera (degenerate triangles
    keep their colour).  Arithmetic in numpy's order: the same bytes as the vectorised
    form, a tenth of its time on a few hundred triangles."""
    out = np.empty((len(triangles), 3), dtype=np.uint8)
    nc = np.empty(3)
    for t in range(len(triangles)):
        p, q, r = triangles[t, 0], triangles[t, 1], triangles[t, 2]
        ax, ay, az = (vertices[q, 0] - vertices[p, 0], vertices[q, 1] - vertices[p, 1],
                      vertices[q, 2] - vertices[p, 2])
        bx, by, bz = (vertices[r, 0] - vertices[p, 0], vertices[r, 1] - vertices[p, 1],
                      vertices[r, 2] - vertices[p, 2])
        n0, n1, n2 = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
        for j in range(3):
            nc[j] = n0 * to_camera[0, j] + n1 * to_camera[1, j] + n2 * to_camera[2, j]
        if nc[2] > 0:
            nc[0], nc[1], nc[2] = -nc[0], -nc[1], -nc[2]
        norm = np.sqrt(nc[0] * nc[0] + nc[1] * nc[1] + nc[2] * nc[2])
        shade = 1.0
        if norm > 0:
            lam = (nc[0] / norm) * light[0] + (nc[1] / norm) * light[1] + (nc[2] / norm) * light[2]
            shade = ambient + diffuse * max(lam, 0.0)
        for j in range(3):
            out[t, j] = min(max(np.rint(colours[t, j] * shade), 0.0), 255.0)
    return out


@numba.njit(cache=True, nogil=True)
def _visible_runs(ex: np.ndarray, ey: np.ndarray, ez: np.ndarray, n: np.ndarray, x0: int,
                  y0: int, zbuf: np.ndarray, ids: np.ndarray,
                  slack: np.ndarray) -> np.ndarray:  # pragma: no cover - compiled
    """The visible runs of segments (x, y, depth: (K, 2) each) sampled at ``n[k]`` evenly
    spaced points each, as fixed-point line ends ((R, 2, 2) int32, ``_SHIFT`` bits, rounded
    half to even as Python's round, relative to the window at pixel (x0, y0)): a run is two
    or more consecutive visible samples of one segment (:func:`_seen`; a lone visible
    sample is noise at an occluder's border)."""
    out = np.empty((n.sum(), 2, 2), dtype=np.int32)
    runs = 0
    x = y = fx = fy = lx = ly = 0.0
    for k in range(len(n)):
        first = last = -1  # the current run's first and last samples
        for i in range(n[k] + 1):
            visible = False
            if i < n[k]:
                t = i / (n[k] - 1)
                x = ex[k, 0] + t * (ex[k, 1] - ex[k, 0])
                y = ey[k, 0] + t * (ey[k, 1] - ey[k, 0])
                z = ez[k, 0] + t * (ez[k, 1] - ez[k, 0])
                visible = _seen(int(np.floor(y)) - y0, int(np.floor(x)) - x0, z, zbuf, ids,
                                slack)
            if visible:
                if first < 0:
                    first, fx, fy = i, x, y
                last, lx, ly = i, x, y
            elif first >= 0:
                if last > first:
                    out[runs, 0, 0], out[runs, 0, 1] = _fixed(fx, x0), _fixed(fy, y0)
                    out[runs, 1, 0], out[runs, 1, 1] = _fixed(lx, x0), _fixed(ly, y0)
                    runs += 1
                first = -1
    return out[:runs]


@numba.njit(cache=True, nogil=True, inline="always")
def _fixed(v: float, origin: int) -> int:  # pragma: no cover - compiled
    """Pixel coordinate ``v`` in fixed point (``_SHIFT`` bits, rounded half to even, as
    Python's round) from pixel ``origin``, as cv2 drawing takes it."""
    return int(np.rint((v - 0.5) * (1 << _SHIFT))) - (origin << _SHIFT)


@numba.njit(cache=True, nogil=True, inline="always")
def _seen(row: int, col: int, z: float, zbuf: np.ndarray, ids: np.ndarray,
          slack: np.ndarray) -> bool:  # pragma: no cover - compiled
    """Whether a sample at pixel (row, col) and depth ``z`` shows: outside the window, or
    not deeper than the largest depth limit of the 3x3 pixels around it (the border
    repeated outward: the window's border pixels are background, as the image's beyond it
    are); a pixel's limit is its depth plus the ``slack`` of the triangle seen there
    (``slack[ids + 1]``; inf where no triangle is)."""
    h, w = zbuf.shape
    if row < 0 or row >= h or col < 0 or col >= w:
        return True
    best = -np.inf
    for dr in (-1, 0, 1):
        r = min(max(row + dr, 0), h - 1)
        for dc in (-1, 0, 1):
            c = min(max(col + dc, 0), w - 1)
            best = max(best, zbuf[r, c] + slack[ids[r, c] + 1])
    return z <= best


@numba.njit(cache=True, nogil=True)
def _silhouettes(zbuf: np.ndarray, ids: np.ndarray, grad: np.ndarray,
                 tol: float) -> np.ndarray:  # pragma: no cover - compiled
    """uint8 mask of pixels on either side of a coverage edge or a depth jump: each pair of
    neighbours (right, below) where one pixel is covered and the other not, or both are and
    their depths differ by more than ``2 (|grad| + |grad'|) + 4 tol``."""
    h, w = ids.shape
    mask = np.zeros((h, w), dtype=np.uint8)
    for r in range(h):
        for c in range(w):
            for dr, dc in ((0, 1), (1, 0)):
                r2, c2 = r + dr, c + dc
                if r2 >= h or c2 >= w:
                    continue
                i, j = ids[r, c], ids[r2, c2]
                if i >= 0 and j >= 0:
                    jump = abs(zbuf[r, c] - zbuf[r2, c2]) > 2.0 * (grad[i] + grad[j]) + 4.0 * tol
                else:
                    jump = (i >= 0) != (j >= 0)
                if jump:
                    mask[r, c] = mask[r2, c2] = 1
    return mask


MEMO_BYTES = 96 << 20  # images kept per process, at most


class _Memo:
    """The images drawn last, least recently used first, ``MEMO_BYTES`` at most."""

    def __init__(self) -> None:
        self.images: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self.nbytes = 0

    def clear(self) -> None:
        self.images.clear()
        self.nbytes = 0

    def get(self, key: bytes, make: Callable[[], np.ndarray]) -> np.ndarray:
        """A copy of the image remembered under ``key``, made (and remembered) if it is
        not."""
        if key in self.images:
            self.images.move_to_end(key)
        else:
            self.images[key] = make()
            self.nbytes += self.images[key].nbytes
            while self.nbytes > MEMO_BYTES and len(self.images) > 1:
                self.nbytes -= self.images.popitem(last=False)[1].nbytes
        return self.images[key].copy()


_MEMO = _Memo()


def _memo_key(mesh: Mesh, cam: Camera, *params: object) -> bytes:
    digest = hashlib.blake2b(repr((cam, params)).encode(), digest_size=20)
    digest.update(mesh.content_key())
    return digest.digest()


def remembered(key: bytes, make: Callable[[], np.ndarray]) -> np.ndarray:
    """A copy of the image remembered under ``key``, made (and remembered) if it is not:
    the memory :func:`render` keeps its images in, emptied by :func:`forget`."""
    return _MEMO.get(key, make)


def remembered_as(what: object, make: Callable[[], np.ndarray]) -> np.ndarray:
    """:func:`remembered` under the digest of ``repr(what)``: for a key of plain values
    whose repr is exact (ints, floats, strings, tuples and frozen dataclasses of them, such
    as a piece's cells and its :class:`~spatialcad.render.stacks.Framing`)."""
    return _MEMO.get(hashlib.blake2b(repr(what).encode(), digest_size=20).digest(), make)


def forget() -> None:
    """Drop the remembered images (the pipeline does so before each item: they serve the
    item's own verifier, and kept across items they would only grow a long run's memory)."""
    _MEMO.clear()


def render(
    meshes: Mesh | list[Mesh],
    cam: Camera,
    size: tuple[int, int] = (400, 400),
    *,
    scale: float | None = None,
    center: tuple[float, float] | None = None,
    margin: int = 12,
    background: Color = (255, 255, 255),
    edge_color: Color = (0, 0, 0),
    edge_width: int = 2,
    shading: bool = True,
    ssaa: int = 2,
    silhouette: bool = False,
) -> np.ndarray:
    """Render meshes orthographically to an RGB uint8 image of ``size`` = (width, height).

    ``scale`` is pixels per world unit (None: fit the projected bounds into size - margin);
    ``center`` is the projected (u, v) placed at the image centre (None: bounds centre).
    Faces are flat shaded (both sides); feature edges are drawn where not hidden by faces.
    ``silhouette`` also outlines depth discontinuities found in the z-buffer (outlines of
    curved solids, which have no feature edge there).

    The last images drawn are remembered per process (the verifier of a just generated item
    draws its pictures again); a remembered image is returned as a copy.
    """
    mesh = _as_mesh(meshes)
    key = _memo_key(mesh, cam, size, scale, center, margin, background, edge_color,
                    edge_width, shading, ssaa, silhouette)
    return _MEMO.get(key, lambda: _render(mesh, cam, size, scale, center, margin, background,
                                            edge_color, edge_width, shading, ssaa, silhouette))


def triangle_ids(mesh: Mesh, cam: Camera, size: tuple[int, int], *,
                 scale: float | None = None, center: tuple[float, float] | None = None,
                 margin: int = 12) -> np.ndarray:
    """Per pixel of an image of ``size`` (placed as :func:`render` places it), the index of
    the mesh triangle seen there, or -1: what a one-sample drawing in one code colour per
    triangle would show.  Remembered like :func:`render`'s images."""
    def scan() -> np.ndarray:
        drawn, window = _triangle_window(mesh, cam, size, scale, center, margin)
        W, H = int(size[0]), int(size[1])
        return _placed(drawn, window, (W, H), 1, lambda: np.full((H, W), -1, dtype=np.int32))

    return _MEMO.get(_memo_key(mesh, cam, "triangle ids", size, scale, center, margin), scan)


def triangle_pixels(mesh: Mesh, cam: Camera, size: tuple[int, int], *,
                    scale: float | None = None, center: tuple[float, float] | None = None,
                    margin: int = 12) -> np.ndarray:
    """Per mesh triangle, the pixels of :func:`triangle_ids` that show it (counted without
    making that image).  Remembered like :func:`render`'s images."""
    def count() -> np.ndarray:
        drawn, _ = _triangle_window(mesh, cam, size, scale, center, margin)
        return np.bincount(drawn[drawn >= 0], minlength=len(mesh.triangles))

    return _MEMO.get(_memo_key(mesh, cam, "triangle pixels", size, scale, center, margin),
                     count)


def _triangle_window(mesh: Mesh, cam: Camera, size: tuple[int, int], scale: float | None,
                     center: tuple[float, float] | None, margin: int
                     ) -> tuple[np.ndarray, Window]:
    """The triangle ids of the window of :func:`triangle_ids`'s image holding the mesh, and
    that window."""
    framing = _framing_args(mesh, cam, size, scale, center, margin, 1)
    _, ids, _, _, _, _, window, _, _ = _framed_scan(*framing, 1, False)
    x0, y0, x1, y1 = (int(v) for v in window)
    return ids, (x0, y0, x1, y1)


# the mesh's arrays, its camera's matrix, image width and height, supersampling, scale, whether
# to fit it, centre x and y, whether to centre the bounds, margin: _framed_scan's first
FramingArgs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int, int,
                    float, bool, float, float, bool, int]


def _framing_args(mesh: Mesh, cam: Camera, size: tuple[int, int], scale: float | None,
                  center: tuple[float, float] | None, margin: int, s: int) -> FramingArgs:
    """The arguments of :func:`_framed_scan` up to ``pad``: the mesh as compiled code takes
    it, and where it is placed in an image of ``size`` drawn ``s`` times larger."""
    width, height = int(size[0]), int(size[1])
    if width <= 0 or height <= 0:
        raise ValueError(f"bad image size {size!r}")
    return (np.ascontiguousarray(mesh.vertices, dtype=np.float64),
            np.ascontiguousarray(mesh.triangles, dtype=np.int64),
            np.ascontiguousarray(mesh.one_sided, dtype=np.bool_),
            np.ascontiguousarray(mesh.edges, dtype=np.float64), cam._to_camera, width, height,
            s, 1.0 if scale is None else float(scale), scale is None,
            *((0.0, 0.0) if center is None else (float(center[0]), float(center[1]))),
            center is None, int(margin))


def _render(mesh: Mesh, cam: Camera, size: tuple[int, int], scale: float | None,
            center: tuple[float, float] | None, margin: int, background: Color,
            edge_color: Color, edge_width: int, shading: bool, ssaa: int,
            silhouette: bool) -> np.ndarray:
    width, height = int(size[0]), int(size[1])
    s = max(1, int(ssaa))
    thickness = max(1, int(round(edge_width * s)))
    framing = _framing_args(mesh, cam, size, scale, center, margin, s)
    drawn, zbuf, ids, grad, runs, window, tol = _draw_faces(
        *framing, thickness, np.ascontiguousarray(mesh.face_colors, dtype=np.uint8),
        np.asarray(background, dtype=np.uint8).reshape(3), bool(shading), LIGHT_DIR, AMBIENT,
        DIFFUSE, edge_width > 0)
    if silhouette and edge_width > 0:
        mask = _silhouettes(zbuf, ids, grad, tol)
        kk = max(1, thickness - 1)
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kk, kk)))
        drawn[mask > 0] = np.asarray(edge_color, dtype=np.uint8)
    if len(runs):  # (R, 2, 2): R two-point lines, drawn as the list of them would be
        cv2.polylines(drawn, cast(Sequence[np.ndarray], runs), False,
                      tuple(int(c) for c in edge_color), thickness, cv2.LINE_AA, _SHIFT)
    x0, y0, x1, y1 = (int(v) for v in window)
    if s > 1 and drawn.size:
        drawn = cv2.resize(drawn, ((x1 - x0) // s, (y1 - y0) // s), interpolation=cv2.INTER_AREA)
    return _placed(drawn, (x0, y0, x1, y1), (width * s, height * s), s,
                   lambda: plain(width, height, background))


@numba.njit(cache=True, nogil=True)
def _framed_scan(vertices: np.ndarray, triangles: np.ndarray, one_sided: np.ndarray,
                 edges: np.ndarray, to_camera: np.ndarray, width: int, height: int, s: int,
                 scale: float, fit: bool, cx: float, cy: float, centred: bool, margin: int,
                 pad: int, edge_points: bool) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """A mesh placed in an image of (width, height) drawn ``s`` times larger and scanned
    there, in one compiled call: where it lies (``fit``: the scale that fits the projected
    bounds of vertices and edges into the image less ``margin``, else ``scale``;
    ``centred``: those bounds centred, else the projected point (cx, cy)), the window of
    pixels within ``pad`` of its vertices (and of its edges' ends with ``edge_points``),
    corners on multiples of ``s``, and the depths and triangle ids in that window (see
    :func:`_scan`, whose per-triangle |grad depth| comes too).  Returns (depths, ids, grad,
    edge ends' screen x, y and depth, window (x0, y0, x1, y1), pixels per unit, the
    vertices' depth span)."""
    qv = _matmul_2d(vertices, to_camera)
    qe = _matmul_2d(edges.reshape(-1, 3), to_camera)
    if fit or centred:
        umin, vmin, umax, vmax = _bounds(qv, qe)
        if fit:
            aw, ah = max(1, width - 2 * margin), max(1, height - 2 * margin)
            du, dv = umax - umin, vmax - vmin
            scale = 1.0
            if du > 1e-12:
                scale = aw / du
                if dv > 1e-12:
                    scale = min(scale, ah / dv)
            elif dv > 1e-12:
                scale = ah / dv
        if centred:
            cx, cy = (umin + umax) / 2.0, (vmin + vmax) / 2.0
    k = scale * s
    W, H = width * s, height * s
    sx, sy, sz = _to_screen(qv, k, cx, cy, W, H)
    ex, ey, ez = _to_screen(qe, k, cx, cy, W, H)
    # only the pixels near the mesh are drawn: the rest of the image is background
    box = np.array([np.inf, np.inf, -np.inf, -np.inf])
    _grow_box(box, sx, sy)
    if edge_points:
        _grow_box(box, ex, ey)
    x0 = y0 = x1 = y1 = 0
    if box[0] <= box[2]:
        x0 = min(max(int(np.floor((box[0] - pad) / s)) * s, 0), W)
        y0 = min(max(int(np.floor((box[1] - pad) / s)) * s, 0), H)
        x1 = min(max(int(np.ceil((box[2] + pad) / s)) * s, x0), W)
        y1 = min(max(int(np.ceil((box[3] + pad) / s)) * s, y0), H)
    cw, ch = x1 - x0, y1 - y0
    zbuf = np.full(ch * cw, np.inf)
    ids = np.full(ch * cw, -1, dtype=np.int32)
    grad = _scan(sx, sy, sz, triangles, one_sided, zbuf, ids, W, H, x0, y0, cw)
    span = _ptp(sz) if len(sz) else 0.0
    return (zbuf.reshape(ch, cw), ids.reshape(ch, cw), grad, ex, ey, ez,
            np.array([x0, y0, x1, y1]), k, span)


@numba.njit(cache=True, nogil=True)
def _draw_faces(vertices: np.ndarray, triangles: np.ndarray, one_sided: np.ndarray,
                edges: np.ndarray, to_camera: np.ndarray, width: int, height: int, s: int,
                scale: float, fit: bool, cx: float, cy: float, centred: bool, margin: int,
                thickness: int, colours: np.ndarray, background: np.ndarray, shading: bool,
                light: np.ndarray, ambient: float, diffuse: float,
                with_edges: bool) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """:func:`render`'s work up to the drawing of the edges in one compiled call: the mesh
    framed and scanned (:func:`_framed_scan`, in a window holding the edges' width), the
    window painted (shaded with :func:`_shaded`, painted with :func:`_paint`), and the
    visible runs of the edges (:func:`_edge_runs`; none without ``with_edges``).  Returns
    (painted window, its depths, its triangle ids, grad, runs, window, depth tolerance)."""
    zbuf, ids, grad, ex, ey, ez, window, k, span = _framed_scan(
        vertices, triangles, one_sided, edges, to_camera, width, height, s, scale, fit, cx, cy,
        centred, margin, 2 * thickness + 4, True)
    # row 0 of the palette stands for "no triangle" (ids == -1)
    palette = np.empty((len(triangles) + 1, 3), dtype=np.uint8)
    palette[0] = background
    if shading and len(triangles):
        palette[1:] = _shaded(vertices, triangles, colours, to_camera, light, ambient, diffuse)
    else:
        palette[1:] = colours
    drawn = _paint(ids, palette)
    tol = 0.5 / k + 1e-9 * (1.0 + span)
    runs = np.empty((0, 2, 2), dtype=np.int32)
    if with_edges and len(edges):
        runs = _edge_runs(ex, ey, ez, int(window[0]), int(window[1]), zbuf, ids, grad, tol)
    return drawn, zbuf, ids, grad, runs, window, tol


@numba.njit(cache=True, nogil=True)
def _to_screen(q: np.ndarray, k: float, cx: float, cy: float, W: int, H: int
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """Screen x, y (pixels, y down) and depth of points already projected (rows of u, v,
    depth), at ``k`` pixels per unit with the projected point (cx, cy) at the centre of a
    (W, H) image."""
    sx, sy, sz = np.empty(len(q)), np.empty(len(q)), np.empty(len(q))
    for i in range(len(q)):
        sx[i] = (q[i, 0] - cx) * k + W / 2.0
        sy[i] = H / 2.0 - (q[i, 1] - cy) * k
        sz[i] = q[i, 2]
    return sx, sy, sz


@numba.njit(cache=True, nogil=True)
def _bounds(qv: np.ndarray, qe: np.ndarray
            ) -> tuple[float, float, float, float]:  # pragma: no cover - compiled
    """:func:`projected_bounds` of points already projected (rows ``qv`` and ``qe``): as
    numpy's min and max give them, NaN where a coordinate is NaN."""
    if len(qv) + len(qe) == 0:
        return 0.0, 0.0, 0.0, 0.0
    lo_u, hi_u = _low_high(qv[:, 0], qe[:, 0])
    lo_v, hi_v = _low_high(qv[:, 1], qe[:, 1])
    return lo_u, lo_v, hi_u, hi_v


@numba.njit(cache=True, nogil=True)
def _low_high(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:  # pragma: no cover
    """(min, max) over two arrays, NaN when either holds a NaN."""
    lo, hi = np.inf, -np.inf
    for values in (a, b):
        for v in values:
            if np.isnan(v):
                return np.nan, np.nan
            lo, hi = min(lo, v), max(hi, v)
    return lo, hi


@numba.njit(cache=True, nogil=True)
def _ptp(a: np.ndarray) -> float:  # pragma: no cover - compiled
    lo, hi = _low_high(a, a[:0])
    return hi - lo


@numba.njit(cache=True, nogil=True)
def _edge_runs(ex: np.ndarray, ey: np.ndarray, ez: np.ndarray, x0: int, y0: int,
               zbuf: np.ndarray, ids: np.ndarray, grad: np.ndarray,
               tol: float) -> np.ndarray:  # pragma: no cover - compiled
    """The visible runs (:func:`_visible_runs`) of the edges whose screen ends are rows
    2k, 2k + 1 of (ex, ey, ez), leaving out those shorter than half a pixel (or not
    finite); each is sampled about once per pixel, and a sample is visible where its depth
    does not exceed the depth limit of one of the 3x3 pixels around it (:func:`_seen`)."""
    m = len(ex) // 2
    keep = np.zeros(m, dtype=np.bool_)
    length = np.empty(m)
    for e in range(m):
        length[e] = np.hypot(ex[2 * e + 1] - ex[2 * e], ey[2 * e + 1] - ey[2 * e])
        keep[e] = np.isfinite(length[e]) and length[e] >= 0.5
    kept = np.flatnonzero(keep)
    if len(kept) == 0:
        return np.empty((0, 2, 2), dtype=np.int32)
    kx, ky, kz = np.empty((len(kept), 2)), np.empty((len(kept), 2)), np.empty((len(kept), 2))
    n = np.empty(len(kept), dtype=np.int64)
    for j in range(len(kept)):
        e = kept[j]
        for end in range(2):
            kx[j, end], ky[j, end], kz[j, end] = (ex[2 * e + end], ey[2 * e + end],
                                                  ez[2 * e + end])
        n[j] = int(np.ceil(length[e])) + 1
    slack = np.empty(len(grad) + 1)
    slack[0] = tol + 1.5 * 0.0
    for t in range(len(grad)):
        slack[t + 1] = tol + 1.5 * grad[t]
    return _visible_runs(kx, ky, kz, n, x0, y0, zbuf, ids, slack)


def _placed(drawn: np.ndarray, window: Window, size: tuple[int, int], shrink: int,
            empty: Callable[[], np.ndarray]) -> np.ndarray:
    """The image of ``size`` whose ``window`` (both shrunk ``shrink`` times since) is
    ``drawn``, the rest as in ``empty()``: ``drawn`` itself when the window is everything."""
    if window == (0, 0, *size):
        return drawn
    x0, y0, x1, y1 = (v // shrink for v in window)
    img = empty()
    img[y0:y1, x0:x1] = drawn
    return img
