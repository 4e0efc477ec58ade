"""The typed spec pieces both cube tasks store (CubeUnfolding, CubeReconstruction): their
field lists live in spatialcad/geometry/cube_fields.py (where the verifiers' toolkit reads
them too); here they become JSON specs (spatialcad/record/spec.py)."""

from __future__ import annotations

from dataclasses import dataclass

from spatialcad.geometry.cube_fields import (
    CubeDrawingFields,
    FaceSetFields,
    NetDrawingFields,
    ViewFields,
)
from spatialcad.record.spec import JsonSpec


@dataclass(frozen=True)
class Faces(FaceSetFields, JsonSpec):
    """The six face pictures and their palette."""


@dataclass(frozen=True)
class View(ViewFields, JsonSpec):
    """The pictures a corner view shows."""


@dataclass(frozen=True)
class CubeDrawing(CubeDrawingFields, JsonSpec):
    """Where a cube is drawn."""


@dataclass(frozen=True)
class NetDrawing(NetDrawingFields, JsonSpec):
    """Where a net's cells are drawn."""
