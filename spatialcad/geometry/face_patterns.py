"""What the six faces of a patterned cube show: solid colours, letter glyphs, coloured dots.

A face is a square grid of palette indices as drawn upright (row 0 at the top, column 0 at
the left).  Turning a face's picture counter-clockwise by quarter turns is ``np.rot90``, and
its mirror image is ``np.fliplr``, so every comparison of two faces, in any orientation, is
an exact array comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialcad.geometry.colours import BLACK, DOT_COLOURS, WHITE, Colour
from spatialcad.geometry.colours import FACE_COLOURS as NAMED

# 5x5 block letters without any rotational or mirror symmetry
GLYPHS: dict[str, tuple[str, ...]] = {
    "F": ("#####", "#....", "####.", "#....", "#...."),
    "G": (".###.", "#....", "#.###", "#...#", ".###."),
    "J": ("..###", "...#.", "...#.", "#..#.", ".##.."),
    "L": ("#....", "#....", "#....", "#....", "####."),
    "P": ("####.", "#...#", "####.", "#....", "#...."),
    "R": ("####.", "#...#", "####.", "#..#.", "#...#"),
    "4": ("#..#.", "#..#.", "#####", "...#.", "...#."),
    "7": ("#####", "....#", "...#.", "..#..", "..#.."),
}


@dataclass(frozen=True)
class FaceSet:
    """Six face pictures over one palette; ``names`` names palette colours (or is empty)."""

    style: str  # "solid" | "glyph" | "dots"
    palette: list[Colour]
    names: list[str]
    grids: list[np.ndarray]

    def label(self, face: int, position: str) -> str:
        """A face's name in explanations: by colour, or for dot faces by its ``position``
        in a picture ("the red face", "the top face")."""
        if self.style == "dots":
            return f"the {position} face"
        return f"the {self.names[face]} face"


def turned(grid: np.ndarray, quarter_turns: int) -> np.ndarray:
    """The picture turned counter-clockwise by ``quarter_turns`` * 90 degrees."""
    return np.rot90(grid, quarter_turns % 4)


def images(grid: np.ndarray) -> list[np.ndarray]:
    """The 8 images of a picture under rotations and mirroring (rotations first)."""
    return [turned(g, k) for g in (grid, np.fliplr(grid)) for k in range(4)]


def key(grid: np.ndarray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (grid.shape, tuple(grid.ravel().tolist()))


def rotationally_asymmetric(grid: np.ndarray) -> bool:
    """No quarter, half or three-quarter turn maps the picture onto itself."""
    return all(not np.array_equal(turned(grid, k), grid) for k in (1, 2, 3))


def pairwise_distinct(grids: list[np.ndarray]) -> bool:
    """No picture equals another one turned or mirrored."""
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    for g in grids:
        keys = {key(im) for im in images(g)}
        if keys & seen:
            return False
        seen |= keys
    return True


def solid_faces(rng: np.random.Generator) -> FaceSet:
    names = [str(n) for n in rng.choice(list(NAMED), size=6, replace=False)]
    return FaceSet("solid", [NAMED[n] for n in names], names,
                   [np.array([[i]]) for i in range(6)])


def _tint(c: Colour, white: float = 0.45) -> Colour:
    r, g, b = (int(round(v + (255 - v) * white)) for v in c)
    return r, g, b


def glyph_faces(rng: np.random.Generator) -> FaceSet:
    """Tinted faces of six colours, each with a black block letter (index 6 is black)
    inside a one-block margin (7 x 7 grids)."""
    names = [str(n) for n in rng.choice(list(NAMED), size=6, replace=False)]
    letters = [str(s) for s in rng.choice(list(GLYPHS), size=6, replace=False)]
    grids = []
    for i, letter in enumerate(letters):
        ink = np.pad(np.array([[ch == "#" for ch in row] for row in GLYPHS[letter]]), 1)
        grids.append(np.where(ink, 6, i))
    return FaceSet("glyph", [_tint(NAMED[n]) for n in names] + [BLACK], names + ["black"], grids)


def dot_faces(
    rng: np.random.Generator, size: int, colours: int, density: float, tries: int = 200
) -> FaceSet:
    """White faces with coloured dots on a ``size`` x ``size`` grid (index 0 is white).

    The six faces are pairwise distinct even turned or mirrored, and none is symmetric
    under a rotation, so a face's orientation can always be told.
    """
    names = list(DOT_COLOURS)[:colours]
    palette = [WHITE] + [DOT_COLOURS[n] for n in names]
    grids: list[np.ndarray] = []
    for _ in range(tries):
        filled = rng.random((size, size)) < density
        grid = np.where(filled, rng.integers(1, colours + 1, size=(size, size)), 0)
        if filled.sum() < 2 or not rotationally_asymmetric(grid):
            continue
        if pairwise_distinct([*grids, grid]):
            grids.append(grid)
            if len(grids) == 6:
                return FaceSet("dots", palette, ["white", *names], grids)
    raise ValueError("could not draw six distinct dot faces")


def make_faces(params: dict[str, Any], rng: np.random.Generator) -> FaceSet:
    """The face set a level's pattern parameters ask for (see the cube tasks' params)."""
    if params["style"] == "solid":
        return solid_faces(rng)
    if params["style"] == "glyph":
        return glyph_faces(rng)
    return dot_faces(rng, params["grid"], params["colours"], params["density"])
