"""The FreeCAD scene of a 3DRotation item: the reference stack and every option's stack."""

from __future__ import annotations

from spatialcad.cad.scene import Record, Scene, option_title, stack_piece


def build(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    colour = tuple(spec["colour"])
    scene.put("Reference stack", [stack_piece(spec["voxels"], colour)])
    for o in record["options"]:
        scene.put(option_title(o), [stack_piece(o["data"]["voxels"], colour)])
