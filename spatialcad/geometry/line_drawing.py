"""Engineering line drawings as data: visible and hidden polylines of one orthographic view.

A :class:`LineDrawing` holds polylines in view coordinates (millimetres, x right, y up).
The wrong options of 3ViewProjection are edits of drawings (a line deleted, the view turned
or flipped), and two drawings are told apart by :func:`difference`: how much line one has
where the other has none of the same kind (solid vs dashed), after sampling both densely.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numba
import numpy as np
import shapely
from shapely.geometry import MultiLineString
from shapely.ops import unary_union

from spatialcad.geometry import exact

Polyline = np.ndarray  # (k, 2) float64, k >= 2


@dataclass(frozen=True)
class LineDrawing:
    visible: tuple[Polyline, ...]
    hidden: tuple[Polyline, ...]

    def lines(self, hidden: bool) -> tuple[Polyline, ...]:
        return self.hidden if hidden else self.visible

    def bounds(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of all lines."""
        return self._bounds

    @cached_property
    def _bounds(self) -> tuple[float, float, float, float]:
        """:meth:`bounds`, worked out once (a drawing is centred, turned and drawn by its
        bounds; its lines are never changed in place)."""
        pts = self.points()
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])

    def size(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.bounds()
        return x1 - x0, y1 - y0

    def transformed(self, matrix: np.ndarray) -> LineDrawing:
        """The drawing mapped by a 2x2 matrix about the centre of its bounds."""
        x0, y0, x1, y1 = self.bounds()
        c = np.array([(x0 + x1) / 2.0, (y0 + y1) / 2.0])
        m = np.asarray(matrix, dtype=np.float64)

        # all points in one product: each row of exact.matmul is its own sum, so the bits
        # are those of a product per line
        return self.moved(exact.matmul(self.points() - c, m.T) + c)

    def points(self) -> np.ndarray:
        """Every line's points, visible lines first, in one (N, 2) array (kept: not to be
        changed in place)."""
        return self._points

    @cached_property
    def _points(self) -> np.ndarray:
        return np.concatenate([*self.visible, *self.hidden])

    def moved(self, points: np.ndarray) -> LineDrawing:
        """The drawing whose lines have :meth:`points` ``points`` (each line a view of
        them)."""
        lines = (*self.visible, *self.hidden)
        ends = np.cumsum([len(p) for p in lines]).tolist()
        out = tuple(points[end - len(p):end] for p, end in zip(lines, ends, strict=True))
        return LineDrawing(out[:len(self.visible)], out[len(self.visible):])

    def without(self, hidden: bool, index: int) -> LineDrawing:
        """The drawing with one line removed."""
        kept = tuple(p for i, p in enumerate(self.lines(hidden)) if i != index)
        return LineDrawing(self.visible, kept) if hidden else LineDrawing(kept, self.hidden)

    def to_json(self) -> dict[str, Any]:
        def r(lines: tuple[Polyline, ...]) -> list[Any]:
            return [np.round(p, 4).tolist() for p in lines]

        return {"visible": r(self.visible), "hidden": r(self.hidden)}

    @staticmethod
    def from_json(data: dict[str, Any]) -> LineDrawing:
        def a(lines: list[Any]) -> tuple[Polyline, ...]:
            return tuple(np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in lines)

        return LineDrawing(a(data["visible"]), a(data["hidden"]))


# Turns and flips of a view, as 2x2 matrices acting on (x right, y up).
TURN_CCW = np.array([[0.0, -1.0], [1.0, 0.0]])
TURN_CW = TURN_CCW.T
FLIP_LR = np.array([[-1.0, 0.0], [0.0, 1.0]])
FLIP_UD = np.array([[1.0, 0.0], [0.0, -1.0]])


def length(p: Polyline) -> float:
    return float(np.hypot(*np.diff(p, axis=0).T).sum())


def sample(lines: tuple[Polyline, ...], step: float) -> np.ndarray:
    """Points every ``step`` (or closer) along the polylines, ends included: (N, 2).

    Each segment a-b gets the n + 1 points ``a + t (b - a)``, n = ceil(|b - a| / step) (at
    least 1), t = k / n as ``numpy.linspace(0, 1, n + 1)`` gives it (the last t exactly 1).
    """
    if not lines:
        return np.zeros((0, 2))
    vertices = np.ascontiguousarray(np.concatenate(lines), dtype=np.float64)
    return _sample(vertices, np.cumsum([len(p) for p in lines]), float(step))


@numba.njit(cache=True, nogil=True)
def _sample(vertices: np.ndarray, ends: np.ndarray, step: float) -> np.ndarray:  # pragma: no cover
    """:func:`sample` of the polylines ``vertices[ends[i - 1]:ends[i]]``."""
    count = 0
    for i in range(len(ends)):
        for j in range(ends[i - 1] if i else 0, ends[i] - 1):
            dx, dy = vertices[j + 1, 0] - vertices[j, 0], vertices[j + 1, 1] - vertices[j, 1]
            count += max(1, int(np.ceil(np.hypot(dx, dy) / step))) + 1
    out = np.empty((count, 2))
    at = 0
    for i in range(len(ends)):
        for j in range(ends[i - 1] if i else 0, ends[i] - 1):
            x, y = vertices[j, 0], vertices[j, 1]
            dx, dy = vertices[j + 1, 0] - x, vertices[j + 1, 1] - y
            n = max(1, int(np.ceil(np.hypot(dx, dy) / step)))
            inv = 1.0 / n
            for k in range(n + 1):
                t = 1.0 if k == n else k * inv
                out[at, 0], out[at, 1] = x + t * dx, y + t * dy
                at += 1
    return out


class PointGrid:
    """Points binned in square cells a little wider than ``tol``: the points nearer than
    ``tol`` to a query are all in the 3x3 cells around it (as a k-d tree's
    ``query(..., distance_upper_bound=tol)`` finds them: squared distance below tol^2).
    Only occupied cells are stored (points sorted by cell number, found by binary search):
    a drawing many thousand tolerances wide has millions of cells, nearly all empty."""

    def __init__(self, points: np.ndarray, tol: float) -> None:
        self.tol = float(tol)
        self.cell = self.tol * (1.0 + 1e-9)  # rounding in x / cell never hides a neighbour
        pts = np.ascontiguousarray(points, dtype=np.float64).reshape(-1, 2)
        self.origin, self.shape = np.zeros(2, dtype=np.int64), (0, 0)
        self.points, self.keys = pts, np.zeros(0, dtype=np.int64)
        if len(pts) == 0:
            return
        self.origin, nx, ny, self.points, self.keys = _binned(pts, self.cell)
        self.shape = (int(nx), int(ny))

    def matched(self, queries: np.ndarray) -> np.ndarray:
        """Per query, whether a point is nearer than ``tol``."""
        q = np.ascontiguousarray(queries, dtype=np.float64).reshape(-1, 2)
        if len(self.points) == 0:
            return np.zeros(len(q), dtype=bool)
        return _matched(q, self.points, self.keys, self.origin, self.shape[0], self.shape[1],
                        self.cell, self.tol * self.tol)


@numba.njit(cache=True, nogil=True)
def _binned(pts: np.ndarray, cell: float
            ) -> tuple[np.ndarray, int, int, np.ndarray, np.ndarray]:  # pragma: no cover
    """:class:`PointGrid`'s binning of (N >= 1, 2) points: the lowest cell (x, y), the
    grid's columns and rows, and the points and their cell keys (column * rows + row)
    sorted by key (stably)."""
    cells = np.empty((len(pts), 2), dtype=np.int64)
    for i in range(len(pts)):
        cells[i, 0] = int(np.floor(pts[i, 0] / cell))
        cells[i, 1] = int(np.floor(pts[i, 1] / cell))
    origin = np.empty(2, dtype=np.int64)
    origin[0], origin[1] = cells[:, 0].min(), cells[:, 1].min()
    nx = cells[:, 0].max() - origin[0] + 1
    ny = cells[:, 1].max() - origin[1] + 1
    key = (cells[:, 0] - origin[0]) * ny + (cells[:, 1] - origin[1])
    if nx * ny > 8 * len(pts):  # sparse: a sort
        order = np.argsort(key, kind="mergesort")
        return origin, nx, ny, pts[order], key[order]
    first = np.zeros(nx * ny + 1, dtype=np.int64)  # else a counting sort (also stable)
    for k in key:
        first[k + 1] += 1
    for c in range(nx * ny):
        first[c + 1] += first[c]
    points, keys = np.empty_like(pts), np.empty_like(key)
    for i in range(len(pts)):
        at = first[key[i]]
        first[key[i]] += 1
        points[at], keys[at] = pts[i], key[i]
    return origin, nx, ny, points, keys


@numba.njit(cache=True, nogil=True)
def _matched(q: np.ndarray, points: np.ndarray, keys: np.ndarray, origin: np.ndarray,
             nx: int, ny: int, cell: float, tol2: float) -> np.ndarray:  # pragma: no cover
    """:meth:`PointGrid.matched`.  The three cells of a grid column around a query have
    consecutive keys, so their points are one run of ``keys``: one binary search per column
    (the query's own column first, where a match usually is)."""
    out = np.zeros(len(q), dtype=np.bool_)
    for i in range(len(q)):
        cx = int(np.floor(q[i, 0] / cell)) - origin[0]
        cy = int(np.floor(q[i, 1] / cell)) - origin[1]
        if cy < -1 or cy > ny:
            continue  # no row of the grid within one cell
        for d in (0, -1, 1):
            gx = cx + d
            if gx < 0 or gx >= nx:
                continue
            last = gx * ny + min(cy + 1, ny - 1)
            j = np.searchsorted(keys, gx * ny + max(cy - 1, 0))
            while j < len(keys) and keys[j] <= last:
                dx, dy = q[i, 0] - points[j, 0], q[i, 1] - points[j, 1]
                if dx * dx + dy * dy < tol2:
                    out[i] = True
                    break
                j += 1
            if out[i]:
                break
    return out


def _unmatched(a: np.ndarray, b: np.ndarray, tol: float, grid: PointGrid | None = None) -> int:
    """How many points of ``a`` are at least ``tol`` from every point of ``b`` (``grid``:
    b's, when one is kept)."""
    if len(a) == 0:
        return 0
    return int(np.count_nonzero(~(grid or PointGrid(b, tol)).matched(a)))


def difference(a: LineDrawing, b: LineDrawing, tol: float, step: float | None = None
               ) -> tuple[float, float]:
    """How differently two drawings look, as two lengths (the larger of both directions):
    line that one shows where the other has no line at all, and line shown as a different
    kind (solid where the other is dashed).  Hidden lines running on visible ones do not
    show (a solid line covers the dashes).  Drawings are compared in place (no
    re-centring); lines closer than ``tol`` count as the same line."""
    return Ink(a, tol, step).difference(Ink(b, tol, step))


class Ink:
    """A drawing sampled as :func:`difference` compares it: points every ``step`` along its
    visible lines, and along its hidden lines where no visible line covers them, with
    point grids of them built when first needed (one drawing is compared with many)."""

    def __init__(self, d: LineDrawing, tol: float, step: float | None = None,
                 centre: bool = False) -> None:
        """``centre``: sampled as :func:`centred` ``(d)`` (the same points, without making
        that drawing)."""
        self.tol, self.step = tol, step or tol / 2.0
        visible, hidden = _shown(d, tol, self.step, centre)
        self.points = (visible, hidden, np.concatenate([visible, hidden]))
        self._grids: dict[int, PointGrid] = {}

    def difference(self, other: Ink, missing: int | None = None) -> tuple[float, float]:
        """:func:`difference` of the two drawings (sampled with the same tol and step);
        ``missing``: :meth:`missing` of them, when the caller has it."""
        missing = self.missing(other) if missing is None else missing
        kind = max(max(self._unmatched(other, k), other._unmatched(self, k)) for k in (0, 1))
        return missing * self.step, max(0, kind - missing) * self.step

    def missing(self, other: Ink) -> int:
        """The first count of :meth:`difference` in points (times ``step``: its length): a
        caller that needs no more than a lower bound of the difference can stop here."""
        return max(self.lacking(other), other.lacking(self))

    def lacking(self, other: Ink) -> int:
        """How many of our points are farther than tol from every one of other's: one way
        of :meth:`missing` (a lower bound of it, measured on other's point grid)."""
        everything = 2
        return self._unmatched(other, everything)

    def _unmatched(self, other: Ink, part: int) -> int:
        """How many of our ``part`` points are farther than tol from every one of other's."""
        return _unmatched(self.points[part], other.points[part], self.tol, other._grid(part))

    def _grid(self, part: int) -> PointGrid:
        if part not in self._grids:
            self._grids[part] = PointGrid(self.points[part], self.tol)
        return self._grids[part]


def _shown(d: LineDrawing, tol: float, step: float, centre: bool = False
           ) -> tuple[np.ndarray, np.ndarray]:
    """Sample points of the visible lines and of the hidden lines not covered by them
    (``centre``: of :func:`centred` ``(d)``)."""
    visible, hidden = d.visible, d.hidden
    if centre:  # the lines as centred(d) holds them, without making that drawing
        c = _centre(d)
        visible, hidden = tuple(p - c for p in visible), tuple(p - c for p in hidden)
    vis, hid = sample(visible, step), sample(hidden, step)
    if len(vis) and len(hid):
        hid = hid[~PointGrid(vis, tol).matched(hid)]
    return vis, hid


def without_duplicates(d: LineDrawing, tol: float) -> LineDrawing:
    """The drawing without lines that lie wholly on other lines: a visible line on a longer
    visible line, a hidden line on any visible or longer hidden line.  Hidden-line removal
    reports such lines (the back edges behind an outline; the two ends of a hole, which
    project to one circle), and drawing two dashed copies of a line fills its gaps."""

    def dedupe(lines: tuple[Polyline, ...], covering: np.ndarray) -> tuple[Polyline, ...]:
        kept: list[int] = []
        for i in sorted(range(len(lines)), key=lambda i: -length(lines[i])):
            pts = sample((lines[i],), tol / 2.0)
            if _unmatched(pts, covering, tol):
                kept.append(i)
                covering = np.concatenate([covering, pts])
        return tuple(lines[i] for i in sorted(kept))

    visible = dedupe(d.visible, np.zeros((0, 2)))
    return LineDrawing(visible, dedupe(d.hidden, sample(visible, tol / 2.0)))


def centred(d: LineDrawing) -> LineDrawing:
    """The drawing translated so that the centre of its bounds is the origin."""
    return d.moved(d.points() - _centre(d))


def _centre(d: LineDrawing) -> np.ndarray:
    x0, y0, x1, y1 = d.bounds()
    return np.array([(x0 + x1) / 2.0, (y0 + y1) / 2.0])


def outline(d: LineDrawing, tol: float) -> Any:
    """The region enclosed by the visible lines (shapely), for telling internal lines.
    Lines are thickened by ``tol`` and the outer rings of what they make are filled, then
    shrunk back by ``tol``: gaps under 2 tol close (hidden-line removal leaves such gaps
    where it splits off an edge shorter than the drawing's resolution), and lines that
    enclose nothing vanish."""
    if not d.visible:
        return shapely.Polygon()
    fat = MultiLineString([p.tolist() for p in d.visible]).buffer(tol)
    filled = [shapely.Polygon(g.exterior) for g in shapely.get_parts(fat)]
    return unary_union(filled).buffer(-tol)


@numba.njit(cache=True, nogil=True)
def _segment_distance(px: float, py: float, ax: float, ay: float, bx: float,
                      by: float) -> float:  # pragma: no cover - compiled
    """A point's distance to the segment a-b, as GEOS computes it."""
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    r = ((px - ax) * dx + (py - ay) * dy) / length2 if length2 > 0.0 else 0.0
    if r <= 0.0:
        return math.hypot(px - ax, py - ay)
    if r >= 1.0:
        return math.hypot(px - bx, py - by)
    return abs(((ay - py) * dx - (ax - px) * dy) / length2) * math.sqrt(length2)


@numba.njit(cache=True, nogil=True)
def _within(points: np.ndarray, a: np.ndarray, b: np.ndarray,
            tol: float) -> np.ndarray:  # pragma: no cover - compiled
    """Whether each point is within ``tol`` of one of the segments a_i-b_i.

    The segments' boxes (grown by ``tol``) are filed in a grid of about one cell per
    segment; a point is measured against the segments filed in its cell only, the one
    that was near the last point first (consecutive points lie along one line).
    """
    out = np.zeros(len(points), dtype=np.bool_)
    if len(a) == 0:
        return out
    lo_x, hi_x = np.minimum(a[:, 0], b[:, 0]) - tol, np.maximum(a[:, 0], b[:, 0]) + tol
    lo_y, hi_y = np.minimum(a[:, 1], b[:, 1]) - tol, np.maximum(a[:, 1], b[:, 1]) + tol
    x0, y0, x1, y1 = lo_x.min(), lo_y.min(), hi_x.max(), hi_y.max()
    side = int(math.sqrt(len(a))) + 1  # cells along each axis
    cw, ch = max(x1 - x0, 1e-12) / side, max(y1 - y0, 1e-12) / side
    cells = np.zeros((len(a), 4), dtype=np.int64)  # each box's first and last column, row
    per_cell = np.zeros(side * side, dtype=np.int64)
    for j in range(len(a)):
        cells[j] = (_cell(lo_x[j], x0, cw, side), _cell(hi_x[j], x0, cw, side),
                    _cell(lo_y[j], y0, ch, side), _cell(hi_y[j], y0, ch, side))
        for cy in range(cells[j, 2], cells[j, 3] + 1):
            per_cell[cy * side + cells[j, 0]:cy * side + cells[j, 1] + 1] += 1
    first = np.zeros(side * side + 1, dtype=np.int64)  # cell c: filed[first[c]:first[c + 1]]
    first[1:] = np.cumsum(per_cell)
    filed = np.empty(first[-1], dtype=np.int64)
    fill = first[:-1].copy()
    for j in range(len(a)):
        for cy in range(cells[j, 2], cells[j, 3] + 1):
            for c in range(cy * side + cells[j, 0], cy * side + cells[j, 1] + 1):
                filed[fill[c]] = j
                fill[c] += 1
    last = -1
    for i in range(len(points)):
        px, py = points[i, 0], points[i, 1]
        if last >= 0 and _segment_distance(px, py, a[last, 0], a[last, 1], b[last, 0],
                                           b[last, 1]) <= tol:
            out[i] = True
            continue
        if px < x0 or py < y0 or px > x1 or py > y1:
            continue  # outside every segment's box
        c = _cell(py, y0, ch, side) * side + _cell(px, x0, cw, side)
        for k in range(first[c], first[c + 1]):
            j = filed[k]
            if px < lo_x[j] or px > hi_x[j] or py < lo_y[j] or py > hi_y[j]:
                continue
            if _segment_distance(px, py, a[j, 0], a[j, 1], b[j, 0], b[j, 1]) <= tol:
                out[i] = True
                last = j
                break
    return out


@numba.njit(cache=True, nogil=True)
def _cell(v: float, v0: float, width: float, side: int) -> int:  # pragma: no cover
    """The grid column (or row) of coordinate ``v``, clamped to the grid."""
    return min(max(int((v - v0) / width), 0), side - 1)


def near_points(lines: tuple[Polyline, ...], targets: tuple[Polyline, ...],
                tol: float) -> list[np.ndarray]:
    """Per line of ``lines``, whether each of its sample points (every tol / 2, ends
    included) lies within ``tol`` of one of the ``targets`` polylines' segments."""
    points = [sample((p,), tol / 2.0) for p in lines]
    if not lines or not targets:
        return [np.zeros(len(q), dtype=bool) for q in points]
    a = np.concatenate([p[:-1] for p in targets])
    b = np.concatenate([p[1:] for p in targets])
    near = _within(np.concatenate(points), a, b, tol)
    starts = np.cumsum([0] + [len(q) for q in points])
    return [near[s:e] for s, e in zip(starts[:-1], starts[1:], strict=True)]


def boundary_lines(region: Any) -> tuple[Polyline, ...]:
    """The boundary of a shapely region as polylines."""
    if region.is_empty:
        return ()
    return tuple(shapely.get_coordinates(part) for part in shapely.get_parts(region.boundary))


ENDS_ON_OUTLINE = 8  # sample points near the outline that a line's two ends may have


def internal_lines(d: LineDrawing, tol: float, region: Any = None) -> list[tuple[bool, int]]:
    """(hidden, index) of every line that is not part of the view's outer outline: every
    hidden line, and every visible line that meets the outline's boundary at most at its
    ends (no more than ``ENDS_ON_OUTLINE`` of its sample points within ``tol`` of it).
    Deleting one of them leaves the outline closed; a view whose visible lines enclose
    nothing has no internal visible line.  ``region``: :func:`outline` of ``d`` at ``tol``
    when the caller has it."""
    boundary = boundary_lines(outline(d, tol) if region is None else region)
    internal = [bool(boundary) and int(np.count_nonzero(near)) <= ENDS_ON_OUTLINE
                for near in near_points(d.visible, boundary, tol)]
    return ([(False, int(i)) for i in np.flatnonzero(internal)]
            + [(True, i) for i in range(len(d.hidden))])
