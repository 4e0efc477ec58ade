"""Per-pixel channel extremes of RGB uint8 images, computed by OpenCV (numpy's reduction
over the channel axis is some 30 times slower on a panel)."""

from __future__ import annotations

import cv2
import numpy as np


def darkest(image: np.ndarray) -> np.ndarray:
    """Per pixel, the smallest of its three channels (H, W) uint8."""
    red, green, blue = cv2.split(np.asarray(image, dtype=np.uint8))
    out: np.ndarray = cv2.min(cv2.min(red, green), blue)
    return out


def brightest(image: np.ndarray) -> np.ndarray:
    """Per pixel, the largest of its three channels (H, W) uint8."""
    red, green, blue = cv2.split(np.asarray(image, dtype=np.uint8))
    out: np.ndarray = cv2.max(cv2.max(red, green), blue)
    return out
