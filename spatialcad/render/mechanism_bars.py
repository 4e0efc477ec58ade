"""Outlines shared by drawings of linkages (render/mechanism_linkage.py) and of gear
trains that drive a slider-crank (render/mechanism_drawing.py): a bar with round ends, a
slider's block, its guide rails, a pin's disc.  World points (x, y, z); a bar's length
and widths are in the drawing's units (linkage units, gear modules)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from spatialcad.geometry import exact
from spatialcad.geometry.colours import Colour

BAR = 0.45  # a bar's half width
PIN = 0.28  # a pin's radius
SLIDER_HALF = 0.8  # a slider block's half height (across its travel)
RAIL_GAP = 0.12  # between a slider block and its guide rails
COLOURS: dict[str, Colour] = {
    "lever": (185, 205, 235), "crank": (185, 205, 235), "rod": (230, 210, 170),
    "rocker": (190, 225, 190), "slider": (205, 205, 210), "cam": (230, 190, 205),
    "follower": (205, 205, 210), "ground": (120, 120, 125),
}


def pt(x: float, y: float, z: float = 0.0) -> list[float]:
    return [x, y, z]


def capsule(a: Sequence[float], b: Sequence[float], half: float, z: float = 0.0) -> np.ndarray:
    """A bar's outline from a to b with round ends."""
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    pts = []
    for end, start in ((b, ang - math.pi / 2), (a, ang + math.pi / 2)):
        for k in range(13):
            t = start + math.pi * k / 12
            pts.append(pt(end[0] + half * math.cos(t), end[1] + half * math.sin(t), z))
    return np.array(pts)


def disc(c: Sequence[float] | np.ndarray, r: float, count: int = 24, z: float = 0.0) -> np.ndarray:
    ring = r * exact.cos_sin(2 * math.pi * np.arange(count) / count)
    return np.concatenate([ring + np.array([[c[0], c[1]]]), np.full((count, 1), z)], axis=1)


def slider_box(centre: Sequence[float], axis: Sequence[float], half: float,
               across: float = SLIDER_HALF) -> np.ndarray:
    """A slider's block: ``half`` along its travel ``axis``, ``across`` either side."""
    d = np.array([float(axis[0]), float(axis[1]), 0.0])
    n = np.array([-d[1], d[0], 0.0])
    c = np.array([float(centre[0]), float(centre[1]), float(centre[2])])
    return np.array([c + sx * half * d + sy * across * n for sx, sy in
                     ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def rails(c: Sequence[float], axis: Sequence[float], half: float,
          reach: float, z: float = 0.0) -> list[np.ndarray]:
    """Two guide rails either side of a sliding part's line through ``c``, ``half``
    from it, ``reach`` either way along ``axis``."""
    d = np.array([float(axis[0]), float(axis[1]), 0.0])
    n = np.array([-d[1], d[0], 0.0])
    c3 = np.array([float(c[0]), float(c[1]), z])
    return [np.array([c3 - reach * d + s * half * n, c3 + reach * d + s * half * n])
            for s in (-1, 1)]
