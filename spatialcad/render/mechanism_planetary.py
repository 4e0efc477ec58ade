"""The outlines of a planetary train's own pieces, in a turning part's plane (x, y around
its axle; render/mechanism_drawing.py puts them in space and draws them):

- a planet carrier: a band through its planets' axles (its silhouette, open inside so the
  sun gear and the planets show), spokes from its hub to the band midway between the
  planets (never over a mesh: the meshes lie on the lines to the planets), its hub, and a
  pin at each planet's axle;
- a held part's hatching: parallel slanted lines across a ring gear's rim or a carrier's
  band, or across a band around a gear's hub inside its tooth roots.
"""

from __future__ import annotations

import math

import numpy as np

from spatialcad.geometry import exact
from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.mechanisms import Part

SPOKE = 0.6  # half the width of a carrier's spoke
HUB = 1.6  # a carrier's hub radius
PIN = 0.7  # a planet's pin radius on the carrier
HATCH_STEP = 0.9  # modules between hatching lines


def arm_angles(carrier: Part) -> list[float]:
    """The angles of a carrier's arms (its planets' axles)."""
    return [carrier.phase + 2 * math.pi * k / carrier.teeth for k in range(carrier.teeth)]


def carrier_outlines(carrier: Part) -> tuple[np.ndarray, np.ndarray, list[np.ndarray],
                                             np.ndarray, list[np.ndarray]]:
    """(band's outer edge, band's inner edge, spokes, hub, pins): (k, 2) polygons."""
    r = carrier.radius
    outer = mech.circle(r + mech.CARRIER_BAND, 96)
    inner = mech.circle(r - mech.CARRIER_BAND, 96)
    spokes = []
    for a in arm_angles(carrier):
        (c, s), = exact.cos_sin([a + math.pi / carrier.teeth])
        u, n = np.array([c, s]), np.array([-s, c])
        reach = r - 0.5 * mech.CARRIER_BAND  # into the band, so the spoke joins it
        spokes.append(np.array([SPOKE * n, reach * u + SPOKE * n, reach * u - SPOKE * n,
                                -SPOKE * n]))
    pins = [a_xy + mech.circle(PIN, 16) for a_xy in
            r * exact.cos_sin(np.array(arm_angles(carrier)))]
    return outer, inner, spokes, mech.circle(HUB, 32), pins


def hatch_ticks(part: Part) -> list[np.ndarray]:
    """Parallel slanted lines (2 x 2 segments) that mark ``part`` as held, filling an
    annulus: a ring gear's rim, a carrier's band, or a band around a gear's hub."""
    if part.kind == "ring":
        lo, hi = part.radius + mech.DEDENDUM + 0.15, part.outer - 0.15
    elif part.kind == "carrier":
        lo, hi = part.radius - mech.CARRIER_BAND + 0.1, part.outer - 0.1
    else:
        lo, hi = 0.3 * part.radius, part.radius - mech.DEDENDUM - 0.3
    normal, along = np.array([1.0, -1.0]) / math.sqrt(2), np.array([1.0, 1.0]) / math.sqrt(2)
    out = []
    for k in range(-int(hi / HATCH_STEP), int(hi / HATCH_STEP) + 1):
        c = k * HATCH_STEP
        end = math.sqrt(hi * hi - c * c)
        start = math.sqrt(lo * lo - c * c) if abs(c) < lo else -end
        spans = [(-end, -start), (start, end)] if abs(c) < lo else [(-end, end)]
        out += [np.array([c * normal + t0 * along, c * normal + t1 * along])
                for t0, t1 in spans if t1 - t0 > 0.05]
    return out
