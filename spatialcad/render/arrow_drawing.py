"""A grid board with arrows, each drawn as a filled arrow with a large head.

Cells are ``(x, y)`` with x to the right and y upwards; headings are 0 north (up), 1 east,
2 south, 3 west.  The board is centred in the panel with square cells.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from spatialcad.geometry.colours import Colour

from .opencv import cv2

PANEL = (280, 280)
MARGIN = 12
LINE: Colour = (70, 70, 70)
OUTLINE: Colour = (0, 0, 0)
# an arrow pointing north in cell units around the cell centre (v upwards)
SHAPE = np.array([(-0.09, -0.36), (0.09, -0.36), (0.09, 0.02), (0.28, 0.02), (0.0, 0.38),
                  (-0.28, 0.02), (-0.09, 0.02)])
_SHIFT = 4


def board(cols: int, rows: int, arrows: Iterable[tuple[Colour, tuple[int, int], int]],
          size: tuple[int, int] = PANEL) -> np.ndarray:
    """The grid with ``arrows`` given as (colour, cell, heading)."""
    cell = min((size[0] - 2 * MARGIN) / cols, (size[1] - 2 * MARGIN) / rows)
    x0, y0 = (size[0] - cols * cell) / 2, (size[1] - rows * cell) / 2
    img = np.full((size[1], size[0], 3), 255, np.uint8)

    def px(x: float, y: float) -> tuple[int, int]:
        """Grid point (x right, y up, in cells from the bottom left) -> fixed-point pixel."""
        return (int(round((x0 + x * cell - 0.5) * (1 << _SHIFT))),
                int(round((y0 + (rows - y) * cell - 0.5) * (1 << _SHIFT))))

    for i in range(cols + 1):
        cv2.line(img, px(i, 0), px(i, rows), LINE, 2, cv2.LINE_AA, _SHIFT)
    for j in range(rows + 1):
        cv2.line(img, px(0, j), px(cols, j), LINE, 2, cv2.LINE_AA, _SHIFT)
    for colour, (x, y), heading in arrows:
        shape = SHAPE
        for _ in range(heading % 4):  # a quarter turn clockwise per step
            shape = np.stack([shape[:, 1], -shape[:, 0]], axis=1)
        pts = np.array([px(x + 0.5 + u, y + 0.5 + v) for u, v in shape], np.int32)
        cv2.fillPoly(img, [pts], tuple(int(c) for c in colour), cv2.LINE_AA, _SHIFT)
        cv2.polylines(img, [pts], True, OUTLINE, 1, cv2.LINE_AA, _SHIFT)
    return img
