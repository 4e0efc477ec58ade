"""The FreeCAD scene of a BlockMoving item: the initial and the final state, cube by cube."""

from __future__ import annotations

from spatialcad.cad.scene import Piece, Record, Scene, cubes
from spatialcad.geometry.colours import BLOCK_COLOURS
from spatialcad.tasks.block_moving.spec import parse_spec


def build(scene: Scene, record: Record) -> None:
    spec = parse_spec(record["spec"])
    for title, cells in (("Initial state", spec.voxels), ("Final state", spec.final)):
        scene.put(title, [Piece(f"{name} cube", cubes([cell]), BLOCK_COLOURS[name])
                          for name, cell in zip(spec.colors, cells, strict=True)])
