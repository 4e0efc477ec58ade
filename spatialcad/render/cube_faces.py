"""Pictures of patterned cubes: a net of face pictures, and a cube seen from a corner.

A face picture is a square grid of palette indices (row 0 at the top), drawn as one solid
colour, as blocks (glyphs) or as dots on a white face.  Everything is drawn at ``SS`` times
the final resolution and reduced with area averaging, so edges are anti-aliased and the
geometry is exact in *edge coordinates* (pixel x covers [x, x + 1)): the record stores the
cell size and origin of a net, or the scale and centre of a cube view, so a verifier can
find the centre of every grid block.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from spatialcad.geometry import exact
from spatialcad.geometry.colours import Colour
from spatialcad.geometry.cube_nets import Vec, vec
from spatialcad.render.pixels import plain

from .camera import camera
from .opencv import cv2

SS = 4  # supersampling factor
OUTLINE: Colour = (0, 0, 0)
LINE = 2  # outline width in final pixels
DOT_RADIUS = 0.34  # of a grid block
_SHIFT = 4
_REACH = LINE + 2  # final px around a drawing's outline within which it paints


def face_image(grid: np.ndarray, style: str, palette: Sequence[Colour], px: int) -> np.ndarray:
    """A ``px`` x ``px`` picture of one face (no outline)."""
    grid = np.asarray(grid)
    n = grid.shape[0]
    colours = np.asarray(palette, dtype=np.uint8)
    if style != "dots":
        blocks = colours[grid]
        if px % n == 0:  # equal blocks: OpenCV's exact nearest-pixel scaling repeats them
            scaled: np.ndarray = cv2.resize(blocks, (px, px),
                                            interpolation=cv2.INTER_NEAREST_EXACT)
            return scaled
        # block k covers pixels edges[k] .. edges[k + 1] - 1 in both directions; the n rows
        # are widened first, then copied whole (30 times faster than the other order)
        widths = np.diff(np.rint(np.arange(n + 1) * px / n).astype(int))
        picture: npt.NDArray[np.uint8] = np.repeat(np.repeat(blocks, widths, axis=1), widths,
                                                   axis=0)
        return picture
    r, g, b = (int(c) for c in colours[0])
    img = plain(px, px, (r, g, b))
    block = px / n
    one = 1 << _SHIFT
    for (i, j), v in np.ndenumerate(grid):
        if v:  # centre of block (i, j) in pixel-centre coordinates, fixed point
            c = (int(round(((j + 0.5) * block - 0.5) * one)),
                 int(round(((i + 0.5) * block - 0.5) * one)))
            cv2.circle(img, c, int(round(DOT_RADIUS * block * one)),
                       tuple(int(x) for x in colours[v]), -1, cv2.LINE_AA, _SHIFT)
    return img


def downsample(img: np.ndarray, within: tuple[int, int, int, int] | None = None
               ) -> np.ndarray:
    """A picture drawn at ``SS`` times the final size, reduced to it (area averaging).

    ``within`` = (x0, y0, x1, y1) in final pixels: only that part is reduced, and the rest
    of the picture must be white.  Area averaging by a whole factor reduces each
    ``SS`` x ``SS`` block on its own, so the part reduces to the same pixels."""
    h, w = img.shape[0] // SS, img.shape[1] // SS
    if within is None:
        return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    x0, y0, x1, y1 = within
    out = np.full((h, w, 3), 255, dtype=np.uint8)
    if x1 > x0 and y1 > y0:
        out[y0:y1, x0:x1] = cv2.resize(img[y0 * SS : y1 * SS, x0 * SS : x1 * SS],
                                       (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    return out


def outline(img: np.ndarray, pts: np.ndarray) -> None:
    """Closed outline through ``pts`` given in final edge coordinates (``img`` is drawn at
    ``SS`` times the final size)."""
    fixed = np.rint((np.asarray(pts) * SS - 0.5) * (1 << _SHIFT)).astype(np.int32)
    cv2.polylines(img, [fixed], True, OUTLINE, LINE * SS, cv2.LINE_AA, _SHIFT)


def draw_net(
    cells: Sequence[tuple[int, int, np.ndarray]],
    style: str,
    palette: Sequence[Colour],
    *,
    cell: int,
    size: tuple[int, int],
) -> tuple[np.ndarray, dict[str, Any]]:
    """A net of ``(row, col, picture)`` cells, centred in a ``size`` = (w, h) panel.

    Returns the image and ``{"cell": px, "origin": [x, y]}``: cell (r, c) covers
    x in [x0 + c * cell, x0 + (c + 1) * cell) and likewise y with r (edge coordinates).
    """
    rows = max(r for r, _, _ in cells) + 1
    cols = max(c for _, c, _ in cells) + 1
    w, h = size
    x0, y0 = (w - cols * cell) // 2, (h - rows * cell) // 2
    if x0 < LINE or y0 < LINE:
        raise ValueError(f"a {rows}x{cols} net of {cell} px cells does not fit {size}")
    # drawn on a canvas just around the net (the outlines reach LINE / 2 px and their
    # anti-aliasing one more beyond the cells), placed by whole pixels in the white panel
    bx0, by0 = max(x0 - _REACH, 0), max(y0 - _REACH, 0)
    bx1, by1 = min(x0 + cols * cell + _REACH, w), min(y0 + rows * cell + _REACH, h)
    big = np.full(((by1 - by0) * SS, (bx1 - bx0) * SS, 3), 255, dtype=np.uint8)
    c4 = cell * SS
    for r, c, grid in cells:
        x, y = (x0 - bx0 + c * cell) * SS, (y0 - by0 + r * cell) * SS
        big[y : y + c4, x : x + c4] = face_image(grid, style, palette, c4)
    for r, c, _ in cells:
        x, y = x0 - bx0 + c * cell, y0 - by0 + r * cell
        outline(big, np.array([(x, y), (x + cell, y), (x + cell, y + cell), (x, y + cell)]))
    image = np.full((h, w, 3), 255, dtype=np.uint8)
    image[by0:by1, bx0:bx1] = downsample(big)
    return image, {"cell": cell, "origin": [x0, y0]}


def warp_face(face: np.ndarray, corners: np.ndarray, big: np.ndarray) -> None:
    """Draw the square picture ``face`` onto the parallelogram ``corners`` (top-left,
    top-right, bottom-right, bottom-left; edge coordinates of ``big``).  Only the
    parallelogram's bounding box is warped, widened by what one source pixel spans (the
    interpolation's reach): warping the whole canvas cost three times as much."""
    tex = face.shape[0]
    src = np.array([[0, 0], [tex, 0], [0, tex]], dtype=np.float32) - 0.5
    to_big = cv2.getAffineTransform(src, corners[[0, 1, 3]].astype(np.float32) - 0.5)
    reach = int(np.ceil(np.abs(to_big[:, :2]).sum(axis=1).max())) + 1
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - reach, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + reach, big.shape[1::-1])
    to_box = to_big - [[0, 0, x0], [0, 0, y0]]
    cv2.warpAffine(face, to_box, (int(x1 - x0), int(y1 - y0)), dst=big[y0:y1, x0:x1],
                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)


def draw_cube(
    faces: Sequence[tuple[np.ndarray, Vec, Vec, Vec]],
    style: str,
    palette: Sequence[Colour],
    *,
    size: int,
    margin: int = 14,
) -> tuple[np.ndarray, dict[str, Any]]:
    """The unit cube centred at the origin seen by the isometric camera, with the given
    faces ``(picture, outward normal, right, up)`` drawn (right and up seen from outside).

    Returns the image and ``{"scale": px per unit, "center": [x, y]}``: a world point p is
    at (x + scale * p.r, y - scale * p.u) for the camera's right r and up u (edge coords).
    """
    frames = tuple((vec(n), vec(r), vec(u)) for _, n, r, u in faces)
    scale, center, corners, painted = _cube_layout(size, margin, frames)
    big = np.full((size * SS, size * SS, 3), 255, dtype=np.uint8)
    tex = 96 * SS
    for (grid, _, _, _), face in zip(faces, corners, strict=True):
        warp_face(face_image(grid, style, palette, tex), face * SS, big)
    for face in corners:
        outline(big, face)
    return (downsample(big, painted),
            {"scale": round(float(scale), 6), "center": [center[0], center[1]]})


@lru_cache(maxsize=32)
def _cube_layout(size: int, margin: int, frames: tuple[tuple[Vec, Vec, Vec], ...]
                 ) -> tuple[float, tuple[float, float], tuple[np.ndarray, ...],
                            tuple[int, int, int, int]]:
    """``draw_cube``'s scale, centre, faces' screen corners (top-left, top-right,
    bottom-right, bottom-left; read-only) for faces ``(normal, right, up)``, and the box
    (x0, y0, x1, y1) outside which nothing is painted: the same for every cube drawn at
    one size, so worked out once."""
    right, up, _ = camera("isometric").basis()
    corners = np.array([(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
    span = max(np.ptp(exact.matmul(corners, right)), np.ptp(exact.matmul(corners, up)))
    scale = (size - 2 * margin) / span
    center = (size / 2, size / 2)

    def screen(p: np.ndarray) -> np.ndarray:
        return np.array([center[0] + exact.matmul(scale * p, right),
                         center[1] - exact.matmul(scale * p, up)])

    faces = []
    for normal, r, u in frames:
        n, r3, u3 = (np.asarray(v, dtype=float) for v in (normal, r, u))
        mid = 0.5 * n
        tl, tr, bl = mid - 0.5 * r3 + 0.5 * u3, mid + 0.5 * r3 + 0.5 * u3, mid - 0.5 * r3 - 0.5 * u3
        face = np.array([screen(p) for p in (tl, tr, mid + 0.5 * r3 - 0.5 * u3, bl)])
        face.setflags(write=False)
        faces.append(face)
    lo, hi = np.min(faces, axis=(0, 1)), np.max(faces, axis=(0, 1))
    x0, y0 = (max(int(np.floor(v)) - _REACH, 0) for v in lo)
    x1, y1 = (min(int(np.ceil(v)) + _REACH, size) for v in hi)
    return scale, center, tuple(faces), (x0, y0, x1, y1)
