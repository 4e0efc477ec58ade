"""The FreeCAD scene of a 3DRotation item: the reference stack and every option's stack."""

from __future__ import annotations

from spatialcad.cad.scene import Record, Scene, option_title, stack_piece
from spatialcad.tasks.rotation_3d.spec import parse_option, parse_spec


def build(scene: Scene, record: Record) -> None:
    spec = parse_spec(record["spec"])
    scene.put("Reference stack", [stack_piece(spec.voxels, spec.colour)])
    for o in record["options"]:
        scene.put(option_title(o), [stack_piece(parse_option(o["data"]).voxels, spec.colour)])
