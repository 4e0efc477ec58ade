"""Orthographic cameras (world z is up): the named standard views and orbit cameras."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from spatialcad.geometry import exact

Vec3 = tuple[float, float, float]


def _vec3(v: object, what: str) -> Vec3:
    a = np.asarray(v, dtype=np.float64)
    if a.shape != (3,) or not np.all(np.isfinite(a)):
        raise ValueError(f"camera {what} must be 3 finite numbers, got {v!r}")
    return (float(a[0]), float(a[1]), float(a[2]))


@dataclass(frozen=True)
class Camera:
    """Orthographic camera.

    ``direction`` is the viewing direction (from the eye toward the scene); ``up`` is any
    vector not parallel to it, whose projection onto the image plane is screen-up.
    """

    direction: Vec3
    up: Vec3

    def __post_init__(self) -> None:
        d = _vec3(self.direction, "direction")
        u = _vec3(self.up, "up")
        nd, nu = exact.norm(d), exact.norm(u)
        if nd == 0.0 or nu == 0.0:
            raise ValueError("camera direction and up must be non-zero")
        if exact.norm(np.cross(d, u)) < 1e-9 * nd * nu:
            raise ValueError("camera up must not be parallel to the viewing direction")
        object.__setattr__(self, "direction", d)
        object.__setattr__(self, "up", u)

    def basis(
        self,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Unit vectors (right, up, forward) of the camera frame in world coordinates."""
        return self._basis

    @cached_property
    def _basis(
        self,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        f = np.asarray(self.direction, dtype=np.float64)
        f = exact.unit(f)
        r = exact.unit(np.cross(f, np.asarray(self.up, dtype=np.float64)))
        u = exact.unit(np.cross(r, f))
        for v in (r, u, f):
            v.flags.writeable = False  # shared by every call: nobody may change them
        return r, u, f

    def project(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Project world points (N, 3) to (N, 3) rows of (u, v, depth).

        u is screen-right, v is screen-up and depth grows away from the eye.
        """
        p = np.asarray(points, dtype=np.float64).reshape(-1, 3)
        return exact.matmul(p, self._to_camera)

    @cached_property
    def _to_camera(self) -> npt.NDArray[np.float64]:
        m: npt.NDArray[np.float64] = np.stack(self.basis(), axis=1)
        m.flags.writeable = False
        return m


_S3 = 1.0 / math.sqrt(3.0)
_S6 = 1.0 / math.sqrt(6.0)

VIEWS: dict[str, Camera] = {
    "front": Camera((0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "back": Camera((0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
    "right": Camera((-1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
    "left": Camera((1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
    "top": Camera((0.0, 0.0, -1.0), (0.0, 1.0, 0.0)),
    "bottom": Camera((0.0, 0.0, 1.0), (0.0, -1.0, 0.0)),
    # eye at (+1, -1, +1): shows the front (-y), right (+x) and top (+z) faces
    "isometric": Camera((-_S3, _S3, -_S3), (-_S6, _S6, 2.0 * _S6)),
}


def camera(name: str) -> Camera:
    """The named standard view (see ``VIEWS``)."""
    try:
        return VIEWS[name]
    except KeyError:
        valid = ", ".join(sorted(VIEWS))
        raise KeyError(f"unknown view {name!r}; valid names: {valid}") from None


def orbit(azimuth_deg: float, elevation_deg: float) -> Camera:
    """Camera whose eye lies at the given azimuth/elevation, looking at the origin.

    Azimuth turns around +z from -y (0 deg, the front view) toward +x (90 deg, the right
    view); elevation is the angle of the eye above the xy plane. Screen-up is the
    projection of +z (continuous through the poles: at +90 deg it is the top view's up).
    """
    a = math.radians(float(azimuth_deg))
    e = math.radians(float(elevation_deg))
    sa, ca, se, ce = math.sin(a), math.cos(a), math.sin(e), math.cos(e)
    eye = (sa * ce, -ca * ce, se)
    up = (-sa * se, ca * se, ce)
    return Camera((-eye[0], -eye[1], -eye[2]), up)
