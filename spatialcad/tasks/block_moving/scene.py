"""The FreeCAD scene of a BlockMoving item: the initial and the final state, cube by cube."""

from __future__ import annotations

from spatialcad.cad.scene import Piece, Record, Scene, cubes
from spatialcad.geometry.colours import BLOCK_COLOURS


def build(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    for title, key in (("Initial state", "voxels"), ("Final state", "final")):
        scene.put(title, [Piece(f"{name} cube", cubes([cell]), BLOCK_COLOURS[name])
                          for name, cell in zip(spec["colors"], spec[key], strict=True)])
