"""The FreeCAD scene of a CubeUnfolding item: the cube's visible faces, and each option's net
beside the cube it folds into."""

from __future__ import annotations

import numpy as np

from spatialcad.cad.scene import (
    Record,
    Scene,
    face_colours,
    net_and_cube,
    option_title,
    tile_pieces,
    view_tiles,
)


def build(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    colours = face_colours(spec["faces"])
    grids = [np.array(g) for g in spec["faces"]["faces"]]
    scene.put("Reference cube, visible faces", tile_pieces(view_tiles(spec["view"], colours)))
    for o in record["options"]:
        scene.put(option_title(o, f"net {o['data']['net']} ({o['operator'].replace('_', ' ')})"),
                  net_and_cube(o["data"]["cells"], grids, colours))
