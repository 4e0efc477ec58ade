"""The FreeCAD scene of a 2DRotation item: the reference grid and every option's grid as
coloured tiles, symbols and the corner marker."""

from __future__ import annotations

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
from spatialcad.geometry import grid2d
from spatialcad.geometry.colours import GRID_CELL_COLOURS, GRID_INK, GRID_MARKER
from spatialcad.render import grid2d as grid_drawing
from spatialcad.tasks.rotation_2d.spec import GridSpec, parse_option, parse_spec

PATTERN_PIXELS = 12  # a cell symbol as a grid of this many tiles a side


def build(scene: Scene, record: Record) -> None:
    reference = parse_spec(record["spec"]).reference
    scene.put("Reference grid", tile_pieces(rotation_grid_tiles(reference)))
    for o in record["options"]:
        grid = parse_option(o["data"]).grid
        scene.put(option_title(o), tile_pieces(rotation_grid_tiles(grid)))


def rotation_grid_tiles(data: GridSpec) -> list[Tile]:
    """A 2DRotation grid in the z = 0 plane, cell (row, col) at x = col, y = -row: coloured
    cells, black symbols slightly above them, and the red corner marker."""
    grid = data.grid()
    rows, cols = grid.shape
    names = {i: (n, GRID_CELL_COLOURS[n]) for i, n in enumerate(grid2d.COLOURS)}
    tiles = grid_tiles(grid.colours, names, (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    ink = {True: ("black", GRID_INK)}
    step = 1.0 / PATTERN_PIXELS
    for (r, c), kind in np.ndenumerate(grid.patterns):
        if kind:
            mask = grid_drawing.pattern_mask(grid2d.PATTERNS[kind - 1], PATTERN_PIXELS) >= 0.5
            mask = np.rot90(np.fliplr(mask) if grid.flips[r, c] else mask, int(grid.turns[r, c]))
            tiles += grid_tiles(mask, ink, (c, -r, RAISE), (step, 0.0, 0.0), (0.0, step, 0.0))
    size = 0.3  # the marker square sits just outside its corner
    x = -size if grid.marker[1] == "l" else cols
    y = 0.0 if grid.marker[0] == "t" else -rows - size
    marker = [(x, y + size, 0.0), (x + size, y + size, 0.0), (x + size, y, 0.0), (x, y, 0.0)]
    return [*tiles, ("red marker", GRID_MARKER, flat_face(marker))]
