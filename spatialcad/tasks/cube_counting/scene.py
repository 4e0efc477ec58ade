"""The FreeCAD scene of a CubeCounting item: its stack."""

from __future__ import annotations

from spatialcad.cad.scene import Record, Scene, stack_piece
from spatialcad.geometry.colours import CUBE_GREY
from spatialcad.tasks.cube_counting.spec import parse_spec


def build(scene: Scene, record: Record) -> None:
    scene.put("Stack", [stack_piece(parse_spec(record["spec"]).voxels, CUBE_GREY)])
