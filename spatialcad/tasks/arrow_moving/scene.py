"""The FreeCAD scene of an ArrowMoving item: the start and end boards, and each option's board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from spatialcad.cad.scene import (
    RAISE,
    Record,
    Scene,
    Tile,
    flat_face,
    grid_tiles,
    option_title,
    tile_pieces,
)
from spatialcad.geometry.arrows import HEADINGS
from spatialcad.geometry.colours import WHITE
from spatialcad.render.arrow_drawing import SHAPE as ARROW_SHAPE
from spatialcad.tasks.arrow_moving.spec import Arrow, parse_option, parse_spec


def build(scene: Scene, record: Record) -> None:
    spec = parse_spec(record["spec"])
    boards = [("Start", spec.start), ("End", spec.end)]
    for o in record["options"]:
        arrows = parse_option(o["data"]).arrows
        if arrows is not None:
            boards.append((option_title(o), arrows))
    for title, shown in boards:
        scene.put(title, tile_pieces(board_tiles(spec.grid, shown, spec.palette)))


def board_tiles(size: Sequence[int], arrows: Sequence[Arrow],
                palette: Mapping[str, tuple[int, int, int]]) -> list[Tile]:
    """An ArrowMoving board: white cells, cell (x, y) at [x, x+1] x [y, y+1], and each arrow
    a coloured outline pointing its heading, slightly above its cell."""
    cells = np.zeros((size[1], size[0]), dtype=int)  # row 0 on top is y = size[1] - 1
    tiles = grid_tiles(cells, {0: ("white", WHITE)}, (0.0, size[1], 0.0), (1.0, 0.0, 0.0),
                       (0.0, 1.0, 0.0))
    for a in arrows:
        shape = ARROW_SHAPE
        for _ in range(HEADINGS.index(a.heading)):  # a quarter turn clockwise per step
            shape = np.stack([shape[:, 1], -shape[:, 0]], axis=1)
        x, y = a.cell
        corners = [(x + 0.5 + du, y + 0.5 + dv, RAISE) for du, dv in shape]
        tiles.append((f"{a.colour} arrow", palette[a.colour], flat_face(corners)))
    return tiles
