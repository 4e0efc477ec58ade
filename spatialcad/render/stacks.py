"""Pictures of cube stacks: orthographic views at a common scale, and isometric views."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from spatialcad.render.camera import camera
from spatialcad.render.mesh import voxel_mesh
from spatialcad.render.raster import fit_scale, render

Voxel = tuple[int, int, int]
Colour = tuple[int, int, int]

CUBE_GREY: Colour = (205, 210, 220)
RED: Colour = (220, 40, 40)
MARGIN = 12


def stack_view(
    voxels: Iterable[Voxel],
    view: str,
    *,
    colors: Mapping[Voxel, Colour] | None = None,
    cell: int = 36,
) -> np.ndarray:
    """An orthographic view with every cube face ``cell`` pixels wide."""
    vox = [tuple(v) for v in voxels]
    mesh = voxel_mesh(vox, colors, default_color=CUBE_GREY)
    cam = camera(view)
    uv = cam.project(mesh.vertices)[:, :2]
    extent = uv.max(axis=0) - uv.min(axis=0)
    size = (int(round(extent[0] * cell)) + 2 * MARGIN, int(round(extent[1] * cell)) + 2 * MARGIN)
    return render(mesh, cam, size, scale=float(cell))


def stack_isometric(
    voxels: Iterable[Voxel],
    *,
    colors: Mapping[Voxel, Colour] | None = None,
    size: tuple[int, int] = (400, 400),
) -> np.ndarray:
    mesh = voxel_mesh([tuple(v) for v in voxels], colors, default_color=CUBE_GREY)
    cam = camera("isometric")
    return render(mesh, cam, size, scale=fit_scale([mesh], cam, size, MARGIN))
