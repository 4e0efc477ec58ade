"""The record fields both cube tasks (CubeUnfolding, CubeReconstruction) store: a face set,
a net's cells, a corner view, and where a drawing put a net's cells or a cube's faces.

Plain frozen dataclasses, so that this layer imports nothing of ours: each task's
``spec.py`` makes them JSON specs by adding ``spatialcad.record.spec.JsonSpec`` as a second base
(``class Faces(FaceSetFields, JsonSpec)``).  The field lists have one home, and the
verifiers' toolkit (spatialcad/verify/) reads the same types.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

import numpy as np

from spatialcad.geometry.colours import Colour
from spatialcad.geometry.cube_nets import VIEW_FACES, NetCell, View
from spatialcad.geometry.face_patterns import FaceSet

CellRow = tuple[int, int, int, int]  # a stored net cell: row, col, face, quarter turns (CCW)
Grid = list[list[int]]  # a face picture: palette indices, row 0 on top


def cell_rows(net: Sequence[NetCell]) -> list[CellRow]:
    return [(c.row, c.col, c.face, c.turns) for c in net]


@dataclass(frozen=True)
class FaceSetFields:
    """A :class:`FaceSet` as stored: ``faces[i]`` is face picture ``i``."""

    style: str  # "solid" | "glyph" | "dots"
    palette: list[Colour]
    colour_names: list[str]  # of the palette's colours (dots: "white" and the dot colours)
    faces: list[Grid]

    @classmethod
    def of(cls, faces: FaceSet) -> Self:
        return cls(faces.style, list(faces.palette), list(faces.names),
                   [g.tolist() for g in faces.grids])

    def grids(self) -> list[np.ndarray]:
        return [np.array(g, dtype=int) for g in self.faces]


@dataclass(frozen=True)
class ViewFields:
    """A corner view: the pictures of the top, front and right faces, each in its face's
    frame (:data:`~spatialcad.geometry.cube_nets.VIEW_FACES`)."""

    top: Grid
    front: Grid
    right: Grid

    @classmethod
    def of(cls, view: View) -> Self:
        return cls(*(view[name].tolist() for name in VIEW_FACES))

    def grids(self) -> View:
        return {name: np.array(getattr(self, name), dtype=int) for name in VIEW_FACES}


@dataclass(frozen=True)
class NetDrawingFields:
    """Where a drawn net lies (spatialcad.render.cube_faces.draw_net): cell ``(r, c)``
    covers x in ``[x0 + c * cell, x0 + (c + 1) * cell)`` and likewise y with ``r``."""

    cell: int  # px
    origin: tuple[int, int]  # x0, y0


@dataclass(frozen=True)
class CubeDrawingFields:
    """Where a drawn cube lies (spatialcad.render.cube_faces.draw_cube): a world point p
    is at ``(x + scale * p.r, y - scale * p.u)`` for the camera's right r and up u."""

    scale: float  # px per unit
    center: tuple[float, float]  # x, y
