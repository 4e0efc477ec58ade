"""Per-pixel channel extremes and differences of RGB uint8 images, computed by OpenCV
(numpy's reduction over the channel axis is some 30 times slower on a panel), and images of
one colour."""

from __future__ import annotations

import numpy as np

from .opencv import cv2


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


def pixels_differing(a: np.ndarray, b: np.ndarray, more_than: int = 0) -> int:
    """How many pixels of two equally sized RGB uint8 images differ by more than
    ``more_than`` in some channel."""
    largest = brightest(cv2.absdiff(a, b))
    return int(cv2.countNonZero(cv2.threshold(largest, more_than, 255, cv2.THRESH_BINARY)[1]))


def mean_difference(a: np.ndarray, b: np.ndarray) -> float:
    """The mean absolute difference of two equally sized uint8 images over all pixels and
    channels (the sum is exact, so this is numpy's mean of |a - b| in int)."""
    return float(cv2.norm(a, b, cv2.NORM_L1)) / a.size


def shows(panel: np.ndarray, picture: np.ndarray) -> bool:
    """Whether a panel cut from a composite image is ``picture``: the same size, and on
    average at most one grey level off per channel."""
    return panel.shape == picture.shape and mean_difference(panel, picture) <= 1.0


def plain(width: int, height: int, colour: tuple[int, int, int]) -> np.ndarray:
    """An RGB uint8 image of one colour."""
    img = np.empty((height, width, 3), dtype=np.uint8)
    fill(img, colour)
    return img


def fill(region: np.ndarray, colour: tuple[int, int, int]) -> None:
    """Paint ``region`` (H, W, 3) uint8, e.g. a slice of an image, one colour in place: a
    grey as one value, any other as one painted row copied to every row (numpy's broadcast
    of an RGB triple over the region is some 40 times slower, a step per pixel)."""
    if colour[0] == colour[1] == colour[2]:
        region[...] = colour[0]
    else:
        region[...] = np.tile(np.asarray(colour, dtype=np.uint8), (region.shape[1], 1))
