"""The FreeCAD scene of a CubeUnfolding item: the cube's visible faces, and each option's net
beside the cube it folds into."""

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
from spatialcad.tasks.cube_unfolding.spec import parse_option, parse_spec


def build(scene: Scene, record: Record) -> None:
    spec = parse_spec(record["spec"])
    colours = face_colours(spec.faces.to_json())
    grids = spec.faces.grids()
    scene.put("Reference cube, visible faces", tile_pieces(view_tiles(spec.view.grids(), colours)))
    for o in record["options"]:
        data = parse_option(o["data"])
        scene.put(option_title(o, f"net {data.net} ({o['operator'].replace('_', ' ')})"),
                  net_and_cube(data.cells, grids, colours))
