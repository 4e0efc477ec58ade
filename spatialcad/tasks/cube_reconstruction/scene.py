"""The FreeCAD scene of a CubeReconstruction item: the net beside the cube it folds into, and
the options' corner views."""

from __future__ import annotations

from spatialcad.cad.scene import (
    Record,
    Scene,
    face_colours,
    net_and_cube,
    option_title,
    tile_pieces,
    view_tiles,
)
from spatialcad.tasks.cube_reconstruction.spec import ViewOption, parse_option, parse_spec


def build(scene: Scene, record: Record) -> None:
    spec = parse_spec(record["spec"])
    colours = face_colours(spec.faces.to_json())
    scene.put(f"Reference net {spec.net}", net_and_cube(spec.cells, spec.faces.grids(), colours))
    for o in record["options"]:
        data = parse_option(o["data"])
        if isinstance(data, ViewOption):
            scene.put(option_title(o), tile_pieces(view_tiles(data.view.grids(), colours)))
