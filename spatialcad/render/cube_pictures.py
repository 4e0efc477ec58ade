"""A face set's pictures as the cube tasks draw them: a net of turned face pictures, and a
cube seen from its corner (+1, -1, +1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry.face_patterns import FaceSet, turned
from spatialcad.render.cube_faces import draw_cube, draw_net


def net_image(net: list[cn.NetCell], faces: FaceSet, cell: int, size: tuple[int, int]
              ) -> tuple[np.ndarray, dict[str, Any]]:
    """The net in a ``size`` = (w, h) panel, and where its cells lie (see ``draw_net``)."""
    cells = [(c.row, c.col, turned(faces.grids[c.face], c.turns)) for c in net]
    return draw_net(cells, faces.style, faces.palette, cell=cell, size=size)


def view_image(view: cn.View, faces: FaceSet, size: int) -> tuple[np.ndarray, dict[str, Any]]:
    """The corner view in a ``size`` px square panel, and where the cube lies (see
    ``draw_cube``)."""
    shown = [(view[name], *cn.VIEW_FACES[name]) for name in cn.VIEW_FACES]
    return draw_cube(shown, faces.style, faces.palette, size=size)
