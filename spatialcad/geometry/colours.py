"""Every named colour of spatialcad's pictures and FreeCAD scenes (RGB, 0-255), in one place.

Each task draws with its own set of named colours (the name is what questions and specs
say, the RGB what the pictures show and what verifiers read back); the sets are the tables
here.  Drawing-style colours that no spec names (grid lines, shading) stay with the
drawing code in render/.
"""

from __future__ import annotations

Colour = tuple[int, int, int]

WHITE: Colour = (255, 255, 255)
BLACK: Colour = (25, 25, 25)  # dots and glyphs on cube faces

# cube stacks: plain cubes, marked (red) cubes, 3DRotation's stacks
CUBE_GREY: Colour = (205, 210, 220)
RED: Colour = (220, 40, 40)
SAND: Colour = (235, 195, 120)

# CubeAssembly: the given parts, in turn, and the option pieces
PART_COLOURS: tuple[Colour, ...] = (
    (80, 130, 230), (80, 185, 105), (170, 115, 215), (225, 90, 90), (60, 190, 200),
)
OPTION_COLOUR: Colour = (245, 170, 60)

# CrossSection: the solids; their section planes and sections in the FreeCAD scene
SOLID: Colour = (175, 195, 225)
SECTION_PLANE: Colour = (120, 170, 255)
SECTION: Colour = (230, 60, 60)

# PaperFolding: the sheet
PAPER: Colour = (255, 243, 208)

# cube faces (CubeUnfolding, CubeReconstruction): solid faces, glyph tints; dots by level
FACE_COLOURS: dict[str, Colour] = {
    "red": (220, 40, 40),
    "orange": (245, 140, 20),
    "yellow": (245, 215, 40),
    "green": (40, 160, 60),
    "cyan": (70, 200, 225),
    "blue": (40, 80, 210),
    "purple": (140, 60, 180),
    "pink": (245, 150, 200),
    "brown": (130, 80, 40),
}
DOT_COLOURS: dict[str, Colour] = {
    "red": (220, 40, 40),
    "blue": (40, 80, 210),
    "green": (40, 160, 60),
    "orange": (245, 140, 20),
    "purple": (140, 60, 180),
    "black": BLACK,
}

# 2DRotation grids: cell colours (geometry/grid2d.py names them), symbols, corner marker
GRID_CELL_COLOURS: dict[str, Colour] = {
    "white": (255, 255, 255),
    "blue": (100, 155, 235),
    "yellow": (250, 215, 70),
    "green": (115, 200, 110),
    "purple": (185, 140, 225),
    "cyan": (125, 220, 230),
}
GRID_INK: Colour = (20, 20, 20)
GRID_MARKER: Colour = (225, 25, 25)

# BlockMoving: the blocks
BLOCK_COLOURS: dict[str, Colour] = {
    "red": (215, 35, 35),
    "orange": (255, 150, 20),
    "yellow": (250, 220, 40),
    "green": (40, 160, 60),
    "blue": (30, 80, 220),
    "purple": (130, 50, 180),
    "pink": (255, 130, 200),
    "white": (245, 245, 245),
    "cyan": (40, 200, 215),
    "brown": (125, 75, 35),
}

# ArrowMoving: the arrows, in the order levels add them
ARROW_COLOURS: dict[str, Colour] = {
    "red": (215, 40, 40), "blue": (40, 100, 225), "green": (40, 160, 60),
    "orange": (245, 145, 25), "purple": (135, 70, 200), "pink": (235, 105, 185),
    "teal": (0, 165, 185), "brown": (135, 85, 40),
}

# MechanicalSystem: each kind of part, belts and ropes, the motion arrows
MECHANISM_COLOURS: dict[str, Colour] = {
    "gear": (185, 205, 235), "ring": (220, 200, 160), "pulley": (190, 225, 190),
    "drum": (230, 210, 170), "bevel": (230, 190, 205), "rack": (205, 205, 210),
    "weight": (150, 150, 160), "belt": (55, 55, 60), "rope": (120, 85, 40),
    "arrow": (215, 35, 35), "carrier": (175, 150, 205),
    "worm": (200, 215, 170),
    "wheel": (185, 205, 235), "crank": (240, 200, 120), "rod": (230, 210, 170),
    "slider": (205, 205, 210),
}
