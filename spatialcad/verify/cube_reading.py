"""Reading the cube tasks' pictures back from the image: every grid block of a drawn net or
of a drawn cube's visible faces is read at its centre and must show the recorded picture,
and dots must be legible (render/legibility.py; the pictures are read at their drawn size,
so a composite that shrank them fails the reading)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from spatialcad.geometry import exact
from spatialcad.geometry.cube_fields import CubeDrawingFields, FaceSetFields, NetDrawingFields
from spatialcad.render import legibility
from spatialcad.verify.cube_rolling import SHOWN, NetPicture

SCREEN_RIGHT = np.array([1.0, 1.0, 0.0]) / math.sqrt(2.0)
SCREEN_UP = np.array([-1.0, 1.0, 2.0]) / math.sqrt(6.0)
TOLERANCE = 40.0  # largest RGB distance between a read colour and its palette colour


def _classify(pixels: np.ndarray, faces: FaceSetFields) -> np.ndarray:
    """Palette index of each read colour, -1 where none is within TOLERANCE."""
    palette = np.asarray(faces.palette, dtype=float)
    dist = np.linalg.norm(pixels[..., None, :].astype(float) - palette, axis=-1)
    idx = dist.argmin(axis=-1)
    return np.where(dist.min(axis=-1) <= TOLERANCE, idx, -1)


def read_net(panel: np.ndarray, drawing: NetDrawingFields, cells: Sequence[NetPicture],
             faces: FaceSetFields) -> list[np.ndarray]:
    """The grid each net cell shows, read at its block centres (all cells at once)."""
    n = len(faces.faces[0])
    cell, (x0, y0) = drawing.cell, drawing.origin
    centres = (np.arange(n) + 0.5) * cell / n
    ys = np.stack([(y0 + r * cell + centres).astype(int) for r, _, _ in cells])
    xs = np.stack([(x0 + c * cell + centres).astype(int) for _, c, _ in cells])
    return list(_classify(panel[ys[:, :, None], xs[:, None, :]], faces))


def read_view(panel: np.ndarray, drawing: CubeDrawingFields, faces: FaceSetFields
              ) -> dict[str, np.ndarray]:
    """The grid each visible face of a drawn cube shows, read at its block centres (all
    three faces at once)."""
    (cx, cy) = drawing.center
    ys, xs = _block_centres(len(faces.faces[0]), float(drawing.scale), float(cx), float(cy))
    return dict(zip(SHOWN, _classify(panel[ys, xs], faces), strict=True))


@lru_cache(maxsize=64)
def _block_centres(n: int, s: float, cx: float, cy: float) -> tuple[np.ndarray, np.ndarray]:
    """The pixel rows and columns (3, n, n) of the visible faces' block centres (in the
    order of ``SHOWN``) in a drawn cube of scale ``s`` and centre (cx, cy): the same for
    every cube drawn at one size (read-only)."""
    t = (np.arange(n) + 0.5) / n - 0.5
    rows, cols = [], []
    for w, right, up in SHOWN.values():
        p = 0.5 * w + t[None, :, None] * right - t[:, None, None] * up
        cols.append((cx + exact.matmul(s * p, SCREEN_RIGHT)).astype(int))
        rows.append((cy - exact.matmul(s * p, SCREEN_UP)).astype(int))
    ys, xs = np.stack(rows), np.stack(cols)
    ys.setflags(write=False)
    xs.setflags(write=False)
    return ys, xs


def check_net_image(panel: np.ndarray, drawing: NetDrawingFields,
                    cells: Sequence[NetPicture], faces: FaceSetFields, what: str) -> list[str]:
    read = read_net(panel, drawing, cells, faces)
    bad = [f"{r},{c}" for (r, c, pic), got in zip(cells, read, strict=True)
           if not np.array_equal(pic, got)]
    failures = [f"{what}: cells {bad} do not show their pictures"] if bad else []
    if faces.style == "dots":
        n = len(faces.faces[0])
        failures += legibility.dot_failures(what, legibility.net_dot_px(drawing.cell, n))
    return failures


def check_view_image(panel: np.ndarray, view: dict[str, np.ndarray],
                     drawing: CubeDrawingFields, faces: FaceSetFields, what: str) -> list[str]:
    read = read_view(panel, drawing, faces)
    bad = [k for k in SHOWN if not np.array_equal(read[k], view[k])]
    failures = [f"{what}: the {bad} faces do not show their pictures"] if bad else []
    if faces.style == "dots":
        n = len(faces.faces[0])
        failures += legibility.dot_failures(what, legibility.view_dot_px(drawing.scale, n))
    return failures
