"""ToyCount's FreeCAD scene: one unit cube per square."""

from __future__ import annotations

from spatialcad.cad.scene import Record, Scene, stack_piece
from spatialcad.geometry.colours import CUBE_GREY


def build(scene: Scene, record: Record) -> None:
    cells = [[c, -r, 0] for r, c in record["spec"]["cells"]]
    scene.put("Board", [stack_piece(cells, CUBE_GREY)])
