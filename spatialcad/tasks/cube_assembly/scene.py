"""The FreeCAD scene of a CubeAssembly item: the whole stack, the given parts in place, the
options' pieces."""

from __future__ import annotations

from spatialcad.cad.scene import Record, Scene, option_title, stack_piece
from spatialcad.geometry.colours import CUBE_GREY, OPTION_COLOUR, PART_COLOURS
from spatialcad.tasks.cube_assembly.spec import parse_option, parse_spec


def build(scene: Scene, record: Record) -> None:
    spec = parse_spec(record["spec"])
    scene.put("Complete stack", [stack_piece(spec.voxels, CUBE_GREY)])
    scene.put("Given parts, in place", [
        stack_piece(part, PART_COLOURS[i % len(PART_COLOURS)],
               f"part {i + 1}") for i, part in enumerate(spec.parts)])
    for o in record["options"]:
        scene.put(option_title(o), [stack_piece(parse_option(o["data"]).voxels, OPTION_COLOUR)])
