"""Deterministic PNG encoding/decoding of RGB uint8 images."""

from __future__ import annotations

import os

import numpy as np

from .opencv import cv2

# The images are flat colour areas with thin lines: unfiltered rows compress better than
# libpng's adaptive per-row filter choice, which cost most of the encode time.  zlib level 3
# is the last of its fast levels (level 4 starts the slow ones, 2.4x the time for 16% less
# size).  On the three-level benchmark's 1,320 images: 6.5 ms and 61 KiB an image, where
# level 6 with adaptive filters took 34 ms for 54 KiB.
COMPRESSION = 3


def encode_png(img: np.ndarray) -> bytes:
    """PNG bytes of an RGB (H, W, 3) or grey (H, W) uint8 image (fixed compression)."""
    a = np.asarray(img)
    if a.dtype != np.uint8 or a.ndim not in (2, 3) or (a.ndim == 3 and a.shape[2] != 3):
        raise ValueError(f"expected RGB uint8 (H, W, 3), got {a.dtype} {a.shape}")
    # OpenCV wants BGR; its own conversion is ~20 times faster than numpy's reversed copy
    a = cv2.cvtColor(np.ascontiguousarray(a), cv2.COLOR_RGB2BGR) if a.ndim == 3 else (
        np.ascontiguousarray(a))
    params = [cv2.IMWRITE_PNG_COMPRESSION, COMPRESSION,
              cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_FILTER_NONE]
    ok, buf = cv2.imencode(".png", a, params)
    if not ok:
        raise ValueError("PNG encoding failed")
    return buf.tobytes()


def decode_png(data: bytes | str | os.PathLike[str]) -> np.ndarray:
    """RGB uint8 image from PNG bytes or a file path."""
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
    else:
        with open(data, "rb") as f:
            raw = f.read()
    img = cv2.imdecode(np.frombuffer(raw, dtype=np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError("not a decodable PNG image")
    rgb: np.ndarray = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
    return rgb
