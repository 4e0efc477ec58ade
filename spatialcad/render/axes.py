"""An axis gizmo (the world x, y and z axes as labelled arrows) beside a framed scene."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from spatialcad.geometry.colours import Colour as Color
from spatialcad.geometry.voxels import Voxel

from .camera import Camera
from .drawing import FONT
from .opencv import cv2
from .stacks import Framing, box_framing, stack_picture

LENGTH = 30  # arrow length in pixels
PAD = 8
_SCALE, _THICK = 0.6, 2


@lru_cache(maxsize=16)
def _gizmo(cam: Camera) -> tuple[tuple[tuple[str, np.ndarray, np.ndarray], ...], np.ndarray]:
    """Per axis (name, arrow tip, label centre) relative to the origin, and the gizmo's
    bounding box ``[xmin, ymin, xmax, ymax]`` in pixels (screen y down), worked out once per
    camera; read-only."""
    (tw, th), _ = cv2.getTextSize("x", FONT, _SCALE, _THICK)
    r, u, _ = cam.basis()
    items, pts = [], [np.zeros(2)]
    for axis, name in enumerate("xyz"):
        d = np.array([r[axis], -u[axis]], dtype=float)  # screen y grows downward
        d /= max(float(np.hypot(*d)), 1e-9)
        tip = LENGTH * d
        label = (LENGTH + 4 + max(tw, th) / 2) * d
        items.append((name, tip, label))
        pts += [tip, label - (tw / 2, th / 2), label + (tw / 2, th / 2)]
    arr = np.array(pts)
    bbox = np.concatenate([arr.min(axis=0) - 2, arr.max(axis=0) + 2])
    for a in (bbox, *(v for _, tip, label in items for v in (tip, label))):
        a.flags.writeable = False
    return tuple(items), bbox


def framing_beside_axes(cam: Camera, box: Sequence[int], size: tuple[int, int]) -> Framing:
    """Fit the box ``[0, X] x [0, Y] x [0, Z]`` into ``size`` right of the gizmo's strip."""
    return _framing_beside_axes(cam, tuple(box), (size[0], size[1]))


@lru_cache(maxsize=64)
def _framing_beside_axes(cam: Camera, box: tuple[int, ...], size: tuple[int, int]) -> Framing:
    """:func:`framing_beside_axes`, worked out once per camera, box and size (an item asks
    for its few some 50 times)."""
    _, bbox = _gizmo(cam)
    strip = int(np.ceil(bbox[2] - bbox[0])) + PAD
    inner = box_framing(cam, box, (size[0] - strip, size[1]))
    assert inner.center is not None
    cu = inner.center[0] - strip / 2 / inner.scale  # the scene moves right by strip / 2
    return Framing(cam, inner.scale, size, (cu, inner.center[1]))


def draw_axes(img: np.ndarray, cam: Camera, color: Color = (0, 0, 0)) -> np.ndarray:
    """A copy of ``img`` with the gizmo of ``cam`` in its bottom-left corner."""
    out = img.copy()
    items, bbox = _gizmo(cam)
    origin = np.array([PAD - bbox[0], out.shape[0] - 1 - PAD - bbox[3]])
    (tw, th), _ = cv2.getTextSize("x", FONT, _SCALE, _THICK)
    for name, tip, label in items:
        cv2.arrowedLine(out, _pt(origin), _pt(origin + tip), color, _THICK, cv2.LINE_AA, 0, 0.3)
        at = origin + label + (-tw / 2, th / 2)
        cv2.putText(out, name, _pt(at), FONT, _SCALE, color, _THICK, cv2.LINE_AA)
    return out


def scene_with_axes(
    voxels: Sequence[Voxel],
    colors: dict[Voxel, Color],
    cam: Camera,
    space: Sequence[int],
    size: tuple[int, int],
) -> np.ndarray:
    """Cubes on the checkered floor of ``space``, framed to fit the whole space beside
    the axis gizmo (so pictures of different states of one space align)."""
    framing = framing_beside_axes(cam, space, size)
    return draw_axes(stack_picture(voxels, framing, colors=colors, floor=(space[0], space[1])),
                     cam)


def _pt(p: np.ndarray) -> tuple[int, int]:
    return int(round(float(p[0]))), int(round(float(p[1])))
