"""The FreeCAD scene of a 3ViewProjection item: the stack with its red cubes and every
option's view as tiles (level 0), or the part as the item turns it (levels 1-3)."""

from __future__ import annotations

import numpy as np

from spatialcad.cad import parts
from spatialcad.cad.projection import turned
from spatialcad.cad.scene import (
    Piece,
    Record,
    Scene,
    grid_tiles,
    option_title,
    stack_piece,
    tile_pieces,
)
from spatialcad.geometry.colours import CUBE_GREY, RED
from spatialcad.geometry.colours import SOLID as SOLID_COLOUR
from spatialcad.tasks.three_view.generate import colour_grid
from spatialcad.tasks.three_view.spec import PartSpec, StackOption, parse_option, parse_spec


def build(scene: Scene, record: Record) -> None:
    spec = parse_spec(record["spec"])
    if isinstance(spec, PartSpec):
        _part(scene, spec)
        return
    red = set(spec.red)
    scene.put("Stack with red cubes", [
        stack_piece([v for v in spec.voxels if v not in red], CUBE_GREY, "grey cubes"),
        stack_piece(sorted(red), RED, "red cubes")])
    codes = {1: ("grey", CUBE_GREY), 2: ("red", RED)}
    for o in record["options"]:
        data = parse_option(o["data"])
        assert isinstance(data, StackOption)
        picture = colour_grid(spec.voxels, set(data.red), data.view)
        tiles = grid_tiles(picture, codes, (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
        scene.put(option_title(o), tile_pieces(tiles))


def _part(scene: Scene, spec: PartSpec) -> None:
    """The part of a 3ViewProjection item (level >= 1), turned as the item shows it."""
    solid = turned(parts.load_part(parts.resolve(spec.part.file)), np.array(spec.rotation))
    scene.put(f"Part {spec.part.name}", [Piece("solid", solid, SOLID_COLOUR)])
