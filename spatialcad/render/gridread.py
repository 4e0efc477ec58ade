"""Read a rendered orthographic view of a cube stack back into an occupancy matrix.

The reader knows neither the cell size nor the matrix shape: cube faces are the light
regions enclosed by dark edge lines; their median size plus the line width gives the
cell pitch, and the bounding box of everything that is not background gives the grid.
"""

from __future__ import annotations

import numpy as np

from spatialcad.geometry.colours import Colour as Color
from spatialcad.render.pixels import brightest

from .opencv import cv2


class GridReadError(ValueError):
    """The image does not show a readable grid of cube faces."""


def _face_mask(img: np.ndarray, nonbg: np.ndarray) -> np.ndarray:
    """Non-background pixels that are not part of a dark line (uint8 0/1)."""
    val = brightest(img)
    # black-hat: how much darker a pixel is than its surroundings after closing away
    # thin dark lines (face colours need not be known)
    closed = cv2.morphologyEx(val, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    dark = closed.astype(np.int16) - val.astype(np.int16)
    line = dark > np.maximum(24, closed.astype(np.int16) // 4)
    face = (nonbg & ~line).astype(np.uint8)
    # drop 1-2 px slivers (anti-aliasing fringes outside the outer lines)
    return cv2.morphologyEx(face, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def _fit_pitch(cx: np.ndarray, cy: np.ndarray, guess: float) -> float:
    """Cell pitch by least squares on face centres (x and y share one pitch)."""
    pitch = guess
    for _ in range(3):
        ix = np.rint((cx - cx.min()) / pitch)
        iy = np.rint((cy - cy.min()) / pitch)
        dx, dy = ix - ix.mean(), iy - iy.mean()
        den = float(np.sum(dx * dx) + np.sum(dy * dy))
        if den == 0.0:
            return pitch
        new = float(np.sum((cx - cx.mean()) * dx) + np.sum((cy - cy.mean()) * dy)) / den
        if not new > 0.5 * guess:
            return pitch
        pitch = new
    return pitch


def read_grid(view: np.ndarray, background: Color = (255, 255, 255)) -> np.ndarray:
    """Occupancy (int8, rows top-to-bottom, columns left-to-right) of a grid view.

    Raises GridReadError when no cube face is found or the faces do not form a grid.
    """
    return _read(view, background)[0]


def read_cell_colours(view: np.ndarray, background: Color = (255, 255, 255)) -> np.ndarray:
    """Like :func:`read_grid`, with cell codes 0 empty, 1 grey face, 2 red face.

    A face is grey when its colour is unsaturated and red when red clearly dominates;
    any other colour raises GridReadError.
    """
    occ, centres = _read(view, background)
    img = np.asarray(view).astype(np.float64)
    out = occ.copy()
    for (r, c), (y0, y1, x0, x1) in centres.items():
        if not occ[r, c]:
            continue
        rgb = np.median(img[y0:y1, x0:x1].reshape(-1, 3), axis=0)
        hi, lo = float(rgb.max()), float(rgb.min())
        if hi - lo < 0.25 * max(hi, 1.0):
            out[r, c] = 1
        elif rgb[0] == hi and rgb[0] - max(rgb[1], rgb[2]) > 0.25 * hi:
            out[r, c] = 2
        else:
            rgb_s = tuple(int(v) for v in rgb)
            raise GridReadError(f"cell ({r}, {c}) has colour {rgb_s}: neither grey nor red")
    return out


def _read(
    view: np.ndarray, background: Color
) -> tuple[np.ndarray, dict[tuple[int, int], tuple[int, int, int, int]]]:
    """Occupancy and each cell's centre region (y0, y1, x0, x1)."""
    img = np.asarray(view)
    if img.ndim != 3 or img.shape[2] != 3 or img.dtype != np.uint8:
        raise GridReadError(f"expected an RGB uint8 image, got {img.dtype} {img.shape}")
    diff = np.abs(img.astype(np.int16) - np.asarray(background, dtype=np.int16)).max(axis=2)
    nonbg = diff > 24
    if not nonbg.any():
        raise GridReadError("no cells: the image is blank (background only)")
    ys, xs = np.nonzero(nonbg)
    bx0, bx1, by0, by1 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1

    face = _face_mask(img, nonbg)
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    rects = np.array([cv2.boundingRect(c) for c in contours], dtype=np.float64).reshape(-1, 4)
    big = (rects[:, 2] >= 4) & (rects[:, 3] >= 4)
    rects = rects[big]
    if len(rects) == 0:
        raise GridReadError("no cells: no cube faces enclosed by edge lines were found")
    fill = np.array([cv2.contourArea(c) for c, b in zip(contours, big, strict=True) if b])
    if np.any(fill < 0.8 * (rects[:, 2] - 1) * (rects[:, 3] - 1)):
        raise GridReadError("inconsistent contours: some faces are not axis-aligned squares")
    rx, ry, rw, rh = rects.T
    med = float(np.median(np.concatenate([rw, rh])))
    tol = 0.15 * med + 2.0
    if np.any(np.abs(rw - med) > tol) or np.any(np.abs(rh - med) > tol):
        raise GridReadError(
            f"inconsistent contour sizes: faces of {int(rw.min())}..{int(rw.max())} x "
            f"{int(rh.min())}..{int(rh.max())} px around a median of {med:.1f} px; "
            "not a grid of equal square cells"
        )
    # line width ~ gap between the outermost faces and the drawing's bounding box
    gaps = [rx.min() - bx0, bx1 - (rx + rw).max(), ry.min() - by0, by1 - (ry + rh).max()]
    line = max(0.0, float(np.median(gaps)))
    cx, cy = rx + rw / 2.0, ry + rh / 2.0
    pitch = _fit_pitch(cx, cy, med + line)
    nx, ny = (bx1 - bx0 - line) / pitch, (by1 - by0 - line) / pitch
    cols, rows = int(round(nx)), int(round(ny))
    if cols < 1 or rows < 1 or abs(nx - cols) > 0.35 or abs(ny - rows) > 0.35:
        raise GridReadError(
            f"inconsistent grid: extent {bx1 - bx0}x{by1 - by0} px is not a whole number "
            f"of {pitch:.1f} px cells ({nx:.2f} x {ny:.2f})"
        )
    px = py = pitch
    # the grid is centred in the bounding box (its outer lines stick out equally)
    ox, oy = (bx0 + bx1 - cols * px) / 2.0, (by0 + by1 - rows * py) / 2.0

    # every face must sit on one cell of the grid, one face per cell
    fc = (cx - ox) / px - 0.5
    fr = (cy - oy) / py - 0.5
    ci, ri = np.rint(fc).astype(int), np.rint(fr).astype(int)
    if (
        np.any(np.abs(fc - ci) > 0.25)
        or np.any(np.abs(fr - ri) > 0.25)
        or np.any((ci < 0) | (ci >= cols) | (ri < 0) | (ri >= rows))
    ):
        raise GridReadError("face contours are not aligned to a regular grid")
    from_contours = np.zeros((rows, cols), dtype=np.int8)
    np.add.at(from_contours, (ri, ci), 1)
    if from_contours.max() > 1:
        raise GridReadError("several face contours fall in one grid cell")

    occ = np.zeros((rows, cols), dtype=np.int8)
    centres: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    half = max(1, int(round(0.2 * min(px, py))))
    for r in range(rows):
        y = int(oy + (r + 0.5) * py)
        for c in range(cols):
            x = int(ox + (c + 0.5) * px)
            box = (max(0, y - half), y + half, max(0, x - half), x + half)
            centres[(r, c)] = box
            region = face[box[0] : box[1], box[2] : box[3]]
            occ[r, c] = 1 if region.size and region.mean() > 0.5 else 0
    if not np.array_equal(occ, from_contours):
        raise GridReadError("cell centres and face contours disagree: not a clean grid view")
    return occ, centres
