"""The FreeCAD scene of a CubeReconstruction item: the net beside the cube it folds into, and
the options' corner views."""

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
    scene.put(f"Reference net {spec['net']}", net_and_cube(spec["cells"], grids, colours))
    for o in record["options"]:
        if "view" in o["data"]:
            scene.put(option_title(o), tile_pieces(view_tiles(o["data"]["view"], colours)))
