"""Coloured grids with oriented cell patterns and a red corner marker (2DRotation).

A grid is ``H x W`` cells in image order (row 0 on top, column 0 on the left).  Each cell
has a colour (an index into ``COLOURS``, 0 being blank white) and optionally a pattern
(an index into ``PATTERNS`` plus one; 0 is none) drawn in one of the eight orientations of
the square: the pattern's base drawing, mirrored left-right when ``flips`` is 1, then
turned ``turns`` quarter turns counter-clockwise.  A red marker sits at one grid corner.

Transformations act on the whole drawing as seen on screen: :func:`rotate` turns it
counter-clockwise, :func:`mirror` reflects it; both move cells, marker and the patterns
inside the cells consistently.  :func:`turn_patterns` turns only the patterns in their
cells, which no rigid motion of the drawing does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

COLOURS = ("white", "blue", "yellow", "green", "purple", "cyan")
PATTERNS = ("arrow", "triangle", "l_shape")
# Patterns whose base drawing is its own left-right mirror image (they point up).
FLIP_SYMMETRIC = frozenset({"arrow", "triangle"})
# Corners in clockwise order; a counter-clockwise quarter turn moves each one step back.
CORNERS = ("tl", "tr", "br", "bl")
_MIRRORED_CORNER = {
    "lr": {"tl": "tr", "tr": "tl", "bl": "br", "br": "bl"},
    "ud": {"tl": "bl", "bl": "tl", "tr": "br", "br": "tr"},
}


@dataclass(frozen=True, eq=False)
class Grid:
    colours: np.ndarray  # (H, W) int, index into COLOURS
    patterns: np.ndarray  # (H, W) int, 0 = none, else 1 + index into PATTERNS
    turns: np.ndarray  # (H, W) int in 0..3, counter-clockwise quarter turns of the pattern
    flips: np.ndarray  # (H, W) int in {0, 1}, pattern mirrored left-right before turning
    marker: str  # one of CORNERS

    @property
    def shape(self) -> tuple[int, int]:
        h, w = self.colours.shape
        return h, w


def rotate(grid: Grid, quarter_turns: int) -> Grid:
    """The drawing turned ``90 * quarter_turns`` degrees counter-clockwise."""
    k = quarter_turns % 4
    return Grid(
        _rot90(grid.colours, k),
        _rot90(grid.patterns, k),
        (_rot90(grid.turns, k) + k) % 4,
        _rot90(grid.flips, k),
        CORNERS[(CORNERS.index(grid.marker) - k) % 4],
    )


def _rot90(a: np.ndarray, k: int) -> np.ndarray:
    """``np.rot90(a, k)`` of a 2D array for k in 0..3, by slicing (a view, as rot90 gives,
    without its argument handling: rotations are tried thousands of times an item)."""
    return (a, a.T[::-1], a[::-1, ::-1], a.T[:, ::-1])[k]


def mirror(grid: Grid, axis: str) -> Grid:
    """The drawing reflected left-right (``"lr"``) or upside down (``"ud"``).

    A left-right reflection H maps a pattern state R^t H^f to R^-t H^(f+1); the upside-down
    one is R^2 H, giving R^(2-t) H^(f+1).
    """
    flip = np.fliplr if axis == "lr" else np.flipud
    offset = 0 if axis == "lr" else 2
    return Grid(
        flip(grid.colours),
        flip(grid.patterns),
        (offset - flip(grid.turns)) % 4,
        1 - flip(grid.flips),
        _MIRRORED_CORNER[axis][grid.marker],
    )


def turn_patterns(grid: Grid, quarter_turns: int) -> Grid:
    """Every pattern turned counter-clockwise inside its own cell; cells stay put."""
    return Grid(grid.colours, grid.patterns, (grid.turns + quarter_turns) % 4, grid.flips,
                grid.marker)


def _orientations(grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """Turns and flips with zeros in the cells without a pattern."""
    has = grid.patterns > 0
    return np.where(has, grid.turns, 0), np.where(has, grid.flips, 0)


# pattern index (0: none) -> whether its flip shows in the drawing
_FLIP_SHOWS = np.array([False] + [name not in FLIP_SYMMETRIC for name in PATTERNS])


def drawing_key(grid: Grid) -> tuple[tuple[int, int], str, bytes, bytes, bytes, bytes]:
    """A hashable key equal for two grids exactly when they draw the same picture (turns
    count where a cell has a pattern, flips where its pattern is not its own mirror
    image)."""
    turns = np.where(grid.patterns > 0, grid.turns, 0)
    flips = np.where(_FLIP_SHOWS[grid.patterns], grid.flips, 0)
    return (grid.shape, grid.marker, grid.colours.tobytes(), grid.patterns.tobytes(),
            turns.astype(np.int64).tobytes(), flips.astype(np.int64).tobytes())


def same_drawing(a: Grid, b: Grid) -> bool:
    return drawing_key(a) == drawing_key(b)


def random_grid(
    rng: np.random.Generator, size: int, fill: float, patterned: int
) -> Grid:
    """A ``size x size`` grid: cells coloured with probability ``fill`` (else white),
    ``patterned`` random cells carrying a random pattern in a random orientation."""
    cells = size * size
    colours = np.where(rng.random((size, size)) < fill,
                       rng.integers(1, len(COLOURS), (size, size)), 0)
    patterns = np.zeros(cells, dtype=int)
    chosen = rng.choice(cells, size=min(patterned, cells), replace=False)
    patterns[chosen] = rng.integers(1, len(PATTERNS) + 1, len(chosen))
    grid = Grid(
        colours.astype(int),
        patterns.reshape(size, size),
        rng.integers(0, 4, (size, size)),
        rng.integers(0, 2, (size, size)),
        CORNERS[int(rng.integers(4))],
    )
    return Grid(grid.colours, grid.patterns, *_orientations(grid), grid.marker)


def to_json(grid: Grid) -> dict[str, Any]:
    """The grid as JSON: colour and pattern names per cell, orientations, marker corner."""
    turns, flips = _orientations(grid)
    return {
        "colours": [[COLOURS[c] for c in row] for row in grid.colours.tolist()],
        "patterns": [[PATTERNS[p - 1] if p else None for p in row]
                     for row in grid.patterns.tolist()],
        "turns": turns.tolist(),
        "flips": flips.tolist(),
        "marker": grid.marker,
    }


def from_json(data: dict[str, Any]) -> Grid:
    return Grid(
        np.array([[COLOURS.index(c) for c in row] for row in data["colours"]], dtype=int),
        np.array([[PATTERNS.index(p) + 1 if p else 0 for p in row] for row in data["patterns"]],
                 dtype=int),
        np.array(data["turns"], dtype=int),
        np.array(data["flips"], dtype=int),
        data["marker"],
    )
