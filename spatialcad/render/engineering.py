"""Engineering drawings of parts: orthographic views (hidden lines dashed) and a shaded
isometric picture, all of one item at one scale."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from spatialcad.geometry.line_drawing import LineDrawing
from spatialcad.render.camera import VIEWS
from spatialcad.render.drawing import draw_polylines
from spatialcad.render.mesh import solid_mesh
from spatialcad.render.raster import remembered, render

PART_PX = 230  # the part's largest dimension in a view, pixels
# a thin part is drawn larger, up to this for its largest dimension, so that its thinnest
# view is legible; four option panels of it still fit the composite (layout.MAX_WIDTH)
MAX_PART_PX = 440
MARGIN = 14
MIN_PANEL_PX = 120  # narrower views are centred on a canvas this wide (room for captions)
LINE_WIDTH = 2
DASH = (9.0, 5.0)  # hidden lines: on, off pixels
PART_GREY = (200, 205, 212)
ISO_SIZE = (280, 280)


def view_scale(extents_mm: Sequence[float], min_px: float = 0.0) -> float:
    """Pixels per millimetre for a part of these bounding-box extents: its largest shown
    ``PART_PX`` long, or longer (up to ``MAX_PART_PX``) where that shows its smallest
    shorter than ``min_px``."""
    largest, smallest = float(max(extents_mm)), float(min(extents_mm))
    return min(max(PART_PX / largest, min_px / smallest), MAX_PART_PX / largest)


def panel_size(drawing: LineDrawing, scale: float) -> tuple[int, int]:
    w, h = drawing.size()
    return (max(MIN_PANEL_PX, int(round(w * scale)) + 2 * MARGIN),
            max(MIN_PANEL_PX, int(round(h * scale)) + 2 * MARGIN))


def draw_view(drawing: LineDrawing, scale: float) -> np.ndarray:
    """The view on a canvas just large enough for it: visible lines solid, hidden dashed.
    Remembered by content as :func:`spatialcad.render.raster.render`'s images are: an
    item's tries draw views of one part again (its turns show each axis view turned one of
    four ways), and its verifier draws its panels again."""
    lines = [*drawing.visible, *drawing.hidden]
    key = hashlib.blake2b(repr(("view", scale, len(drawing.visible))).encode(), digest_size=20)
    key.update(np.array([len(p) for p in lines], dtype=np.int64).tobytes())
    key.update(np.ascontiguousarray(drawing.points(), dtype=np.float64).tobytes())
    return remembered(key.digest(), lambda: _drawn_view(drawing, scale))


def _drawn_view(drawing: LineDrawing, scale: float) -> np.ndarray:
    """:func:`draw_view`, drawn."""
    lines = [*drawing.visible, *drawing.hidden]
    dashed = [False] * len(drawing.visible) + [True] * len(drawing.hidden)
    return draw_polylines(lines, dashed, panel_size(drawing, scale), scale=scale,
                          bounds=drawing.bounds(), width=LINE_WIDTH, dash=DASH, margin=MARGIN)


def draw_isometric(vertices: np.ndarray, triangles: np.ndarray, edges: Any) -> np.ndarray:
    """A flat-shaded isometric picture of a tessellated part with its feature edges."""
    mesh = solid_mesh(vertices, triangles, PART_GREY, edges)
    return render([mesh], VIEWS["isometric"], ISO_SIZE, silhouette=True)
