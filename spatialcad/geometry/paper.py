"""Paper folding on a grid sheet: folds, punched holes and the unfolded hole pattern.

Coordinates: x to the right (columns), y downwards (rows), one unit per cell; the sheet
of ``rows x cols`` cells is ``[0, cols] x [0, rows]`` and cell ``(row, col)`` has its
centre at ``(col + 0.5, row + 0.5)``.  The folded paper stays where it lies on the sheet.

The folded paper is a stack of *layers*: each layer is a region of the sheet (a shapely
polygon) and the isometry (integer matrix and translation) placing it in the folded
state.  A fold splits every layer along the fold line and reflects the pieces on the
flap side; punched holes are pulled back through every layer under them.  The legal folds
offered here keep the flap no larger than the rest, so the folded paper stays inside the
sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import shapely
from shapely import unary_union
from shapely.geometry import LineString, Point, Polygon, box

Cell = tuple[int, int]  # (row, col)
GRID = 0.5  # every vertex of every region lies on this lattice
_FAR = 1000.0


@dataclass(frozen=True)
class Fold:
    """Fold along ``a*x + b*y = c``; the part where ``a*x + b*y - c`` has sign ``flap``
    is folded over onto the other side.  ``(a, b)`` is (1, 0), (0, 1), (1, 1) or (1, -1)."""

    kind: str  # "vertical" | "horizontal" | "diagonal"
    line: tuple[int, int, int]
    flap: int  # +1 or -1

    def matrix(self) -> Iso:
        """The reflection across the fold line, as an exact integer isometry."""
        a, b, c = self.line
        n2 = a * a + b * b  # 1 or 2, so 2/n2 is an integer
        k = 2 // n2
        return Iso((1 - k * a * a, -k * a * b, -k * a * b, 1 - k * b * b), (k * c * a, k * c * b))

    def reflect(self, point: tuple[float, float]) -> tuple[float, float]:
        return self.matrix().apply(point)

    def _frame(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A point of the line, a far vector along it and a far vector along the normal."""
        a, b, c = self.line
        normal = np.array([a, b], float)
        return normal * c / (a * a + b * b), np.array([-b, a], float) * _FAR, normal * _FAR

    def side(self, sign: int) -> Polygon:
        """The (large) half-plane where ``a*x + b*y - c`` has sign ``sign``."""
        p0, d, n = self._frame()
        return Polygon([p0 - d, p0 + d, p0 + d + sign * n, p0 - d + sign * n])

    def long_line(self) -> LineString:
        p0, d, _ = self._frame()
        return LineString([p0 - d, p0 + d])


@dataclass(frozen=True)
class Iso:
    """``p -> M p + t`` with an orthogonal integer matrix ``M = (m00, m01, m10, m11)``."""

    m: tuple[int, int, int, int]
    t: tuple[int, int]

    def apply(self, p: tuple[float, float]) -> tuple[float, float]:
        m00, m01, m10, m11 = self.m
        return (m00 * p[0] + m01 * p[1] + self.t[0], m10 * p[0] + m11 * p[1] + self.t[1])

    def then(self, other: Iso) -> Iso:
        """``other`` after ``self``."""
        a00, a01, a10, a11 = other.m
        b00, b01, b10, b11 = self.m
        m = (a00 * b00 + a01 * b10, a00 * b01 + a01 * b11,
             a10 * b00 + a11 * b10, a10 * b01 + a11 * b11)
        tx, ty = other.apply(self.t)
        return Iso(m, (int(tx), int(ty)))

    def inverse(self) -> Iso:
        m00, m01, m10, m11 = self.m  # orthogonal: the inverse is the transpose
        inv = Iso((m00, m10, m01, m11), (0, 0))
        tx, ty = inv.apply(self.t)
        return Iso(inv.m, (int(-tx), int(-ty)))


IDENTITY = Iso((1, 0, 0, 1), (0, 0))


@dataclass(frozen=True)
class Layer:
    region: Polygon  # part of the sheet, sheet coordinates
    place: Iso  # sheet -> folded state

    def image_vertices(self) -> np.ndarray:
        """The vertices (N, 2) of the layer's image in the folded state, in order."""
        return _moved(shapely.get_coordinates(self.region)[:-1], self.place)

    def image(self) -> Polygon:
        return shapely.polygons(self.image_vertices())


@dataclass(frozen=True)
class Paper:
    rows: int
    cols: int
    layers: tuple[Layer, ...]  # bottom to top

    @staticmethod
    @lru_cache(maxsize=32)
    def sheet(rows: int, cols: int) -> Paper:
        """The unfolded sheet (one shared immutable instance per size, so that its outline
        is worked out once: every fold sequence drawn starts from it)."""
        return Paper(rows, cols, (Layer(box(0, 0, cols, rows), IDENTITY),))

    def outline(self) -> Polygon:
        """The folded paper's shape (union of the layer images)."""
        return self._outline

    @cached_property
    def _outline(self) -> Polygon:
        return unary_union([layer.image() for layer in self.layers], grid_size=GRID)

    def flap(self, fold: Fold) -> Polygon:
        """The part of the folded paper that ``fold`` turns over."""
        return self.outline().intersection(fold.side(fold.flap), grid_size=GRID)

    def fold(self, fold: Fold) -> Paper:
        stay: list[Layer] = []
        flap: list[Layer] = []
        mirror = fold.matrix()
        for layer in self.layers:
            image = layer.image_vertices()
            back = layer.place.inverse()
            for sign, out, place in ((-fold.flap, stay, layer.place),
                                     (fold.flap, flap, layer.place.then(mirror))):
                piece = _clip(image, fold.line, sign)
                if piece is not None:
                    region = shapely.polygons(_moved(piece, back))
                    out.append(Layer(region.normalize(), place))
        return Paper(self.rows, self.cols, tuple(stay + flap[::-1]))

    def full_cells(self) -> list[Cell]:
        """Cells wholly covered by the folded paper (where a hole can be punched)."""
        r, c = np.divmod(np.arange(self.rows * self.cols), self.cols)
        covered = shapely.covers(self.outline(), shapely.box(c, r, c + 1, r + 1))
        return [(int(i), int(j)) for i, j in zip(r[covered], c[covered], strict=True)]

    def sheet_points(self, cell: Cell) -> list[Cell]:
        """The sheet cells lying under folded-state cell ``cell``, one per layer."""
        centre = (cell[1] + 0.5, cell[0] + 0.5)
        out = []
        for layer in self.layers:
            x, y = layer.place.inverse().apply(centre)
            if layer.region.contains(Point(x, y)):
                out.append((int(np.floor(y)), int(np.floor(x))))
        return out

    def unfold(self, holes: list[Cell]) -> set[Cell]:
        """The holes on the unfolded sheet after punching ``holes`` in the folded state."""
        return {p for h in holes for p in self.sheet_points(h)}

    def folded_cells(self, sheet_cells: set[Cell] | list[Cell]) -> set[Cell]:
        """Where the sheet cells ``sheet_cells`` lie on this folded paper (one cell for
        all the layers stacked there)."""
        out = set()
        for r, c in sheet_cells:
            centre = (c + 0.5, r + 0.5)
            for layer in self.layers:
                if layer.region.contains(Point(centre)):
                    x, y = layer.place.apply(centre)
                    out.add((int(np.floor(y)), int(np.floor(x))))
        return out

    def fold_segment(self, fold: Fold) -> LineString:
        """The part of the fold line crossing the folded paper."""
        return self.outline().intersection(fold.long_line(), grid_size=GRID)


def _moved(ring: np.ndarray, iso: Iso) -> np.ndarray:
    """Vertices ``ring`` (N x 2) moved by ``iso``.  The matrix entries are -1, 0 or 1 and
    the vertices lie on the ``GRID`` lattice, so every product and sum is exact: the same
    bits as ``spatialcad.geometry.exact.matmul``, without its per-call overhead."""
    m00, m01, m10, m11 = iso.m
    x, y = ring[:, 0], ring[:, 1]
    moved = np.empty((len(ring), 2))
    moved[:, 0] = m00 * x + m01 * y + iso.t[0]
    moved[:, 1] = m10 * x + m11 * y + iso.t[1]
    return moved


def _clip(ring: np.ndarray, line: tuple[int, int, int], sign: int) -> np.ndarray | None:
    """The convex polygon ``ring`` (vertices in order, not closed) cut to where
    ``sign * (a*x + b*y - c) >= 0``; None when that part has no area.  Layers are convex
    (the sheet cut by half-planes), so one pass over the edges does it (Sutherland-Hodgman);
    every vertex lies on the ``GRID`` lattice, and the cut points are rounded onto it as a
    snapping overlay would."""
    a, b, c = line
    f = sign * (a * ring[:, 0] + b * ring[:, 1] - c)  # exact, as in _moved
    if not (f > 0).any():  # a vertex strictly inside: the part around it has area
        return None
    out = []
    for i in range(len(ring)):
        j = (i + 1) % len(ring)
        if f[i] >= 0:
            out.append(ring[i])
        if f[i] * f[j] < 0:
            cut = ring[i] + (ring[j] - ring[i]) * (f[i] / (f[i] - f[j]))
            out.append(np.round(cut / GRID) * GRID)
    return np.array(out)


def _bounds(shape: Polygon) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = (int(round(v)) for v in shape.bounds)
    return x0, y0, x1, y1


def is_rectangle(shape: Polygon) -> bool:
    x0, y0, x1, y1 = _bounds(shape)
    area: float = shape.area
    return abs(area - (x1 - x0) * (y1 - y0)) < 1e-9


def grid_folds(paper: Paper) -> list[Fold]:
    """Folds along interior grid lines of a rectangular folded paper, flap <= rest."""
    shape = paper.outline()
    if not is_rectangle(shape):
        return []
    x0, y0, x1, y1 = _bounds(shape)
    out = []
    for kind, line, lo, hi in (("vertical", (1, 0), x0, x1), ("horizontal", (0, 1), y0, y1)):
        for c in range(lo + 1, hi):
            if c - lo <= hi - c:
                out.append(Fold(kind, (*line, c), -1))
            if hi - c <= c - lo:
                out.append(Fold(kind, (*line, c), +1))
    return out


def diagonal_folds(paper: Paper) -> list[Fold]:
    """Folds along either diagonal of a square folded paper (at least 2 x 2), either side."""
    shape = paper.outline()
    x0, y0, x1, y1 = _bounds(shape)
    if not is_rectangle(shape) or x1 - x0 != y1 - y0 or x1 - x0 < 2:
        return []
    lines = ((1, -1, x0 - y0), (1, 1, x1 + y0))
    return [Fold("diagonal", line, s) for line in lines for s in (-1, 1)]


def random_folds(
    rng: np.random.Generator, rows: int, cols: int, count: int, *, diagonal: bool,
    min_cells: int, tries: int = 60,
) -> list[Fold] | None:
    """``count`` random legal folds (the last one diagonal if asked) leaving at least
    ``min_cells`` full cells to punch; None when no such sequence was found."""
    for _ in range(tries):
        paper, folds = Paper.sheet(rows, cols), []
        for i in range(count):
            options = (diagonal_folds if diagonal and i == count - 1 else grid_folds)(paper)
            if not options:
                break
            folds.append(options[int(rng.integers(len(options)))])
            paper = _folded(rows, cols, tuple(folds))
        else:
            if len(paper.full_cells()) >= min_cells:
                return folds
    return None


def all_folds(rows: int, cols: int, count: int, *, diagonal: bool, min_cells: int
              ) -> list[tuple[Fold, ...]]:
    """Every sequence :func:`random_folds` can return for these arguments, in a fixed order
    (depth first, each step's folds in the order ``grid_folds``/``diagonal_folds`` give)."""
    found: list[tuple[Fold, ...]] = []

    def extend(folds: tuple[Fold, ...]) -> None:
        paper = _folded(rows, cols, folds)
        if len(folds) == count:
            if len(paper.full_cells()) >= min_cells:
                found.append(folds)
            return
        last = diagonal and len(folds) == count - 1
        for fold in (diagonal_folds if last else grid_folds)(paper):
            extend((*folds, fold))

    extend(())
    return found


def fold_all(rows: int, cols: int, folds: list[Fold]) -> list[Paper]:
    """The paper before the first fold and after each fold."""
    key = tuple(Fold(f.kind, (f.line[0], f.line[1], f.line[2]), f.flap) for f in folds)
    return [_folded(rows, cols, key[:i]) for i in range(len(key) + 1)]  # lines may be lists


@lru_cache(maxsize=256)
def _folded(rows: int, cols: int, folds: tuple[Fold, ...]) -> Paper:
    """The paper after ``folds``, each sequence worked out once from the one before it
    (``random_folds`` tries sequences fold by fold, sharing their beginnings; the item's
    drawings, question text, spoken text and the check of its texts fold the chosen one
    again; papers are immutable)."""
    if not folds:
        return Paper.sheet(rows, cols)
    return _folded(rows, cols, folds[:-1]).fold(folds[-1])
