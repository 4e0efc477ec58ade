"""A cube net partly folded (spatialcad/geometry/net_folding.py), drawn from the corner
view's isometric camera: each cell's face picture warped onto its square, the back of a
square that faces away plain grey, squares painted farthest first.

Drawn like the cube tasks' corner views (render/cube_faces.py: supersampled, outlined), at
one scale for every state of an item (:class:`FoldFraming`), large enough that dots stay
legible on the slanted squares (render/legibility.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from spatialcad.geometry import exact
from spatialcad.geometry.colours import Colour
from spatialcad.render import legibility
from spatialcad.render.camera import camera
from spatialcad.render.cube_faces import SS, downsample, face_image, outline, warp_face

from .opencv import cv2

# a cell's square: its drawing's top-left, top-right, bottom-right and bottom-left corners in
# 3D (spatialcad.geometry.net_folding.Square, or the same as JSON lists)
Corners = Sequence[Sequence[float]]
BACK: Colour = (150, 150, 150)  # the undrawn side of a square
BASE_SCALE = 80  # px per cell edge, unless dots need more
MARGIN = 14
_SHIFT = 4
_CAM = camera("isometric")


def fold_scale(style: str, grid: int) -> int:
    """Px per unit: ``BASE_SCALE``, or more so that dots on a slanted square are legible."""
    if style != "dots":
        return BASE_SCALE
    return max(BASE_SCALE, math.ceil(legibility.MIN_DOT_PX / legibility.view_dot_px(1.0, grid)))


@dataclass(frozen=True)
class FoldFraming:
    """Where a point p lands: ``(x0 + scale * p.r, y0 - scale * p.u)`` for the camera's
    right r and up u; the picture is ``size`` = (w, h)."""

    scale: int
    origin: tuple[float, float]
    size: tuple[int, int]

    def screen(self, points: np.ndarray) -> np.ndarray:
        uv = _CAM.project(points)
        return np.stack([self.origin[0] + self.scale * uv[:, 0],
                         self.origin[1] - self.scale * uv[:, 1]], axis=1)


def framing(states: Iterable[Sequence[Corners]], scale: int) -> FoldFraming:
    """One framing that fits every state's squares."""
    pts = np.array([p for state in states for sq in state for p in sq], dtype=float)
    uv = _CAM.project(pts)[:, :2] * scale
    lo, hi = uv.min(axis=0), uv.max(axis=0)
    w, h = (int(math.ceil(v)) + 2 * MARGIN for v in hi - lo)
    return FoldFraming(scale, (MARGIN - lo[0], MARGIN + hi[1]), (w, h))


def draw_folding(
    squares: Sequence[Corners],
    pictures: Sequence[np.ndarray],
    style: str,
    palette: Sequence[Colour],
    frame: FoldFraming,
) -> np.ndarray:
    """The squares, each showing its cell's picture (a grid as drawn in the flat net) on
    its drawn side."""
    _, _, forward = _CAM.basis()
    w, h = frame.size
    big = np.full((h * SS, w * SS, 3), 255, dtype=np.uint8)
    corners = [np.asarray(sq, dtype=float) for sq in squares]
    order = sorted(range(len(squares)), key=lambda i: -exact.dot(corners[i].mean(axis=0), forward))
    for i in order:
        tl, tr, br, bl = corners[i]
        screen = frame.screen(corners[i])
        if exact.dot(np.cross(tr - tl, tl - bl), forward) < 0:  # its drawn side faces us
            tex = face_image(pictures[i], style, palette, frame.scale * SS)
            warp_face(tex, screen * SS, big)
        else:
            fixed = np.rint((screen * SS - 0.5) * (1 << _SHIFT)).astype(np.int32)
            cv2.fillConvexPoly(big, fixed, BACK, cv2.LINE_AA, _SHIFT)
        outline(big, screen)
    return downsample(big)
