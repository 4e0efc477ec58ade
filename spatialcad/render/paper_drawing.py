"""Drawings of a grid sheet of paper: fold steps, the punched folded paper, hole patterns.

World coordinates follow ``spatialcad.geometry.paper``: x to the right, y downwards, one
unit per cell, the sheet is ``[0, cols] x [0, rows]``.  Every drawing of one item uses the
same frame, so the folded paper is drawn where it lies on the (faint) sheet.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from spatialcad.geometry.colours import PAPER, Colour

from .opencv import cv2

PANEL = (240, 240)
MARGIN = 14
FLAP: Colour = (176, 208, 246)
GHOST: Colour = (222, 222, 222)
GRID_LINE: Colour = (150, 150, 150)
OUTLINE: Colour = (0, 0, 0)
CREASE: Colour = (215, 30, 30)
ARROW: Colour = (20, 70, 190)
HOLE: Colour = (25, 25, 25)
HOLE_RADIUS = 0.22  # of a cell
MIN_ARROW = 36  # px from tail to tip
_SHIFT = 4
_ONE = 1 << _SHIFT


class SheetFrame:
    """Sheet coordinates -> pixels of a panel (the sheet centred, cells square)."""

    def __init__(self, rows: int, cols: int, size: tuple[int, int] = PANEL) -> None:
        self.rows, self.cols, self.size = rows, cols, size
        self.cell = min((size[0] - 2 * MARGIN) / cols, (size[1] - 2 * MARGIN) / rows)
        self.x0 = (size[0] - cols * self.cell) / 2
        self.y0 = (size[1] - rows * self.cell) / 2

    def px(self, pts: Iterable[tuple[float, float]]) -> np.ndarray:
        """Fixed-point pixel coordinates (for cv2 calls with ``shift``)."""
        a = np.asarray(pts if isinstance(pts, np.ndarray) else list(pts), float).reshape(-1, 2)
        xy: np.ndarray = a * self.cell + np.array([self.x0, self.y0])  # x0 + x * cell, ...
        return np.rint((xy - 0.5) * _ONE).astype(np.int32)

    def canvas(self) -> np.ndarray:
        return np.full((self.size[1], self.size[0], 3), 255, np.uint8)


def _parts(geom: BaseGeometry) -> list[BaseGeometry]:
    return list(getattr(geom, "geoms", [geom])) if not geom.is_empty else []


def _grid(img: np.ndarray, fr: SheetFrame, clip: BaseGeometry, colour: Colour) -> None:
    """Interior grid lines of the sheet, clipped to ``clip``."""
    ends = [(seg.coords[0], seg.coords[-1])
            for part in shapely.intersection(_grid_lines(fr.rows, fr.cols), clip)
            for seg in _parts(part) if isinstance(seg, LineString)]
    if ends:
        points = fr.px([p for pair in ends for p in pair]).tolist()
        for p, q in zip(points[::2], points[1::2], strict=True):  # in order: AA lines blend
            cv2.line(img, tuple(p), tuple(q), colour, 1, cv2.LINE_AA, _SHIFT)


@lru_cache(maxsize=32)
def _grid_lines(rows: int, cols: int) -> np.ndarray:
    """The sheet's interior grid lines (columns, then rows), an array of LineStrings."""
    lines = [LineString([(c, 0), (c, rows)]) for c in range(1, cols)]
    lines += [LineString([(0, r), (cols, r)]) for r in range(1, rows)]
    return np.array(lines, dtype=object)


def _fill(img: np.ndarray, fr: SheetFrame, shape: BaseGeometry, colour: Colour) -> None:
    for poly in _parts(shape):
        if isinstance(poly, Polygon):
            cv2.fillPoly(img, [fr.px(poly.exterior.coords)], colour, cv2.LINE_AA, _SHIFT)


def _outline(img: np.ndarray, fr: SheetFrame, shape: BaseGeometry, colour: Colour,
             width: int = 2) -> None:
    for poly in _parts(shape):
        if isinstance(poly, Polygon):
            cv2.polylines(img, [fr.px(poly.exterior.coords)], True, colour, width, cv2.LINE_AA,
                          _SHIFT)


@lru_cache(maxsize=32)
def _ghost_sheet(rows: int, cols: int, size: tuple[int, int]) -> np.ndarray:
    """A blank panel with the unfolded sheet drawn faint, so the folded paper can be
    located on it; drawn once per sheet and panel size (every fold step and punched
    picture starts from it), read-only."""
    fr = SheetFrame(rows, cols, size)
    img = fr.canvas()
    sheet = Polygon([(0, 0), (cols, 0), (cols, rows), (0, rows)])
    _grid(img, fr, sheet, GHOST)
    _outline(img, fr, sheet, GHOST, 1)
    img.flags.writeable = False
    return img


def _paper(img: np.ndarray, fr: SheetFrame, shape: BaseGeometry) -> None:
    _fill(img, fr, shape, PAPER)
    _grid(img, fr, shape, GRID_LINE)


def _holes(img: np.ndarray, fr: SheetFrame, holes: Iterable[tuple[int, int]]) -> None:
    radius = int(round(HOLE_RADIUS * fr.cell * _ONE))
    for x, y in fr.px([(c + 0.5, r + 0.5) for r, c in holes]).tolist():
        cv2.circle(img, (x, y), radius, HOLE, -1, cv2.LINE_AA, _SHIFT)


def _dashed(img: np.ndarray, fr: SheetFrame, seg: LineString, colour: Colour) -> None:
    (ax, ay), (bx, by) = seg.coords[0], seg.coords[-1]
    length = np.hypot(bx - ax, by - ay) * fr.cell
    n = max(1, int(length // 14))
    ends = [(ax + (bx - ax) * t, ay + (by - ay) * t) for i in range(n)
            for t in (i / n, (i + 0.6) / n)]
    points = fr.px(ends).tolist()
    for p, q in zip(points[::2], points[1::2], strict=True):
        cv2.line(img, tuple(p), tuple(q), colour, 3, cv2.LINE_AA, _SHIFT)


def _curved_arrow(img: np.ndarray, fr: SheetFrame, start: tuple[float, float],
                  end: tuple[float, float], colour: Colour) -> None:
    """A bent arrow from ``start`` to ``end`` (world points), head at ``end``."""
    s, e = np.asarray(start, float), np.asarray(end, float)
    chord = e - s
    short = MIN_ARROW / fr.cell / max(float(np.hypot(*chord)), 1e-9)
    if short > 1:  # lengthen a short arrow about its middle
        s, e = (s + e) / 2 - chord * short / 2, (s + e) / 2 + chord * short / 2
        chord = e - s
    ctrl = (s + e) / 2 + 0.35 * np.array([chord[1], -chord[0]])
    t = np.linspace(0, 1, 25)[:, None]
    curve = (1 - t) ** 2 * s + 2 * (1 - t) * t * ctrl + t**2 * e
    cv2.polylines(img, [fr.px(curve)], False, colour, 3, cv2.LINE_AA, _SHIFT)
    tip = curve[-1]
    back = tip - curve[-4]
    back = back / max(np.hypot(*back), 1e-9) * min(0.45, 14 / fr.cell)
    side = np.array([-back[1], back[0]]) * 0.6
    head = [tip, tip - back + side, tip - back - side]
    cv2.fillPoly(img, [fr.px(head)], colour, cv2.LINE_AA, _SHIFT)


def fold_step(
    rows: int, cols: int, paper: BaseGeometry, flap: BaseGeometry, crease: LineString,
    arrow: tuple[tuple[float, float], tuple[float, float]], size: tuple[int, int] = PANEL,
) -> np.ndarray:
    """The folded paper before a fold: the flap shaded, the fold line dashed red, and an
    arrow from the flap to where it lands."""
    fr = SheetFrame(rows, cols, size)
    img = _ghost_sheet(rows, cols, size).copy()
    _paper(img, fr, paper)
    _fill(img, fr, flap, FLAP)
    _grid(img, fr, flap, GRID_LINE)
    _outline(img, fr, paper, OUTLINE)
    for seg in _parts(crease):
        if isinstance(seg, LineString):
            _dashed(img, fr, seg, CREASE)
    _curved_arrow(img, fr, arrow[0], arrow[1], ARROW)
    return img


def punched(rows: int, cols: int, paper: BaseGeometry, holes: Iterable[tuple[int, int]],
            size: tuple[int, int] = PANEL) -> np.ndarray:
    """The folded paper with the holes punched through all layers."""
    fr = SheetFrame(rows, cols, size)
    img = _ghost_sheet(rows, cols, size).copy()
    _paper(img, fr, paper)
    _outline(img, fr, paper, OUTLINE)
    _holes(img, fr, holes)
    return img


def hole_pattern(rows: int, cols: int, holes: Iterable[tuple[int, int]],
                 size: tuple[int, int] = PANEL) -> np.ndarray:
    """The unfolded sheet with its holes."""
    img = _blank_sheet(rows, cols, size).copy()
    _holes(img, SheetFrame(rows, cols, size), holes)
    return img


@lru_cache(maxsize=32)
def _blank_sheet(rows: int, cols: int, size: tuple[int, int]) -> np.ndarray:
    """The unfolded sheet without holes, drawn once per sheet and panel size (a generator
    draws dozens of hole patterns per item); read-only."""
    fr = SheetFrame(rows, cols, size)
    img = fr.canvas()
    sheet = Polygon([(0, 0), (cols, 0), (cols, rows), (0, rows)])
    _paper(img, fr, sheet)
    _outline(img, fr, sheet, OUTLINE)
    img.flags.writeable = False
    return img
