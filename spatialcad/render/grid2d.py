"""Pictures of 2DRotation grids: coloured cells, black grid lines, oriented black patterns
inside cells, and a red square on one grid corner.

The drawing is exactly equivariant: the picture of a grid turned (or mirrored) by
``spatialcad.geometry.grid2d`` is the picture of the grid turned with ``np.rot90`` (or
flipped), pixel for pixel, because the cells sit symmetrically on the canvas and every
orientation of a pattern is a ``rot90``/``fliplr`` of one rasterized base mask.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from spatialcad.geometry.colours import GRID_CELL_COLOURS as PALETTE
from spatialcad.geometry.colours import GRID_INK as INK
from spatialcad.geometry.colours import GRID_MARKER as MARKER
from spatialcad.geometry.colours import Colour
from spatialcad.geometry.grid2d import COLOURS, FLIP_SYMMETRIC, PATTERNS, Grid
from spatialcad.render.pixels import fill

from .opencv import cv2

LINE: Colour = (0, 0, 0)

# Base outlines in cell units (x right, y down), each pointing up; the L has arms of
# different lengths so that it has no symmetry at all.
_OUTLINES: dict[str, list[tuple[float, float]]] = {
    "arrow": [(0.5, 0.12), (0.82, 0.48), (0.61, 0.48), (0.61, 0.88), (0.39, 0.88),
              (0.39, 0.48), (0.18, 0.48)],
    "triangle": [(0.5, 0.12), (0.78, 0.88), (0.22, 0.88)],
    "l_shape": [(0.24, 0.12), (0.46, 0.12), (0.46, 0.66), (0.78, 0.66), (0.78, 0.88),
                (0.24, 0.88)],
}
_SHIFT = 4


def cell_pitch(cells: int) -> int:
    """Pixels from one grid line to the next for a grid ``cells`` wide (about 228 px)."""
    return max(24, 228 // cells)


@cache
def pattern_mask(name: str, size: int) -> np.ndarray:
    """Ink coverage (0..1) of a pattern in its base orientation in a ``size`` px cell."""
    canvas = np.zeros((size, size), dtype=np.uint8)
    pts = np.rint(np.array(_OUTLINES[name]) * size * (1 << _SHIFT)).astype(np.int32)
    cv2.fillPoly(canvas, [pts], 255, cv2.LINE_AA, _SHIFT)
    if name in FLIP_SYMMETRIC:  # make the declared mirror symmetry exact in pixels
        canvas = np.maximum(canvas, canvas[:, ::-1])
    mask = canvas.astype(np.float64) / 255.0
    mask.flags.writeable = False
    return mask


def _cell_tile(grid: Grid, r: int, c: int, size: int) -> np.ndarray:
    return _tile(int(grid.colours[r, c]), int(grid.patterns[r, c]), bool(grid.flips[r, c]),
                 int(grid.turns[r, c]), size)


@cache
def _tile(colour_index: int, kind: int, flip: bool, turns: int, size: int) -> np.ndarray:
    """A cell's picture (remembered: a drawing repeats its few kinds of cell); read-only."""
    colour = np.array(PALETTE[COLOURS[colour_index]], dtype=np.float64)
    tile = np.broadcast_to(colour, (size, size, 3))
    if kind:
        mask = pattern_mask(PATTERNS[kind - 1], size)
        if flip:
            mask = np.fliplr(mask)
        mask = np.rot90(mask, turns)[:, :, None]
        tile = tile * (1.0 - mask) + np.array(INK, dtype=np.float64) * mask
    out = np.rint(tile).astype(np.uint8)
    out.flags.writeable = False
    return out


def draw_grid(grid: Grid, pitch: int | None = None) -> np.ndarray:
    """RGB picture of ``grid`` with ``pitch`` px per cell (default: :func:`cell_pitch`)."""
    rows, cols = grid.shape
    pitch = pitch or cell_pitch(max(rows, cols))
    line = 3 if pitch >= 50 else 2
    pad = max(16, pitch // 3)
    height, width = 2 * pad + rows * pitch + line, 2 * pad + cols * pitch + line
    img = np.full((height, width, 3), 255, dtype=np.uint8)
    fill(img[pad : height - pad, pad : width - pad], LINE)
    inner = pitch - line
    for r in range(rows):
        for c in range(cols):
            y, x = pad + r * pitch + line, pad + c * pitch + line
            img[y : y + inner, x : x + inner] = _cell_tile(grid, r, c, inner)
    lo, hi = 3, pad + line  # the marker square covers the corner from outside the grid
    ys = slice(lo, hi) if grid.marker[0] == "t" else slice(height - hi, height - lo)
    xs = slice(lo, hi) if grid.marker[1] == "l" else slice(width - hi, width - lo)
    fill(img[ys, xs], MARKER)
    return img

