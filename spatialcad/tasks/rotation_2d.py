"""2DRotation: which option is the reference grid rotated in its plane?

After SpatialViz-Bench Alg. 1.  The reference is a grid of coloured cells with a red
square on one corner; from level 1 some cells carry black symbols (arrow, triangle, L)
that are not centrally symmetric.  The answer is the grid turned by 90, 180 or 270
degrees.  Distractors: mirror images of the grid (reflected left-right or upside down,
possibly also turned, always moving the marker), and from level 1 the grid turned with
the symbols inside the cells left unturned or turned the opposite way.  A distractor that
draws the same as some rotation of the grid (a symmetric grid) rejects the candidate.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import grid2d
from spatialcad.geometry.grid2d import Grid
from spatialcad.render.grid2d import draw_grid
from spatialcad.tasks.base import Draft, Option, Panel, Reject, Task
from spatialcad.tasks.registry import register

QUESTION = (
    "The top image shows a grid of cells with a red square on one of its corners. Which "
    "option shows this grid rotated in its plane (turned as a whole, not flipped over)? "
    "Answer with A, B, C or D."
)
# The four reflections of the square: a mirror, then counter-clockwise quarter turns.
REFLECTIONS = (("lr", 0), ("ud", 0), ("lr", 1), ("lr", 3))
MIRROR_WORDS = {"lr": "reflected left-right", "ud": "reflected upside down"}
PATTERN_ERRORS = ("unturned_patterns", "patterns_turned_back")


def turn_words(quarter_turns: int) -> str:
    return {1: "90 degrees counter-clockwise", 2: "180 degrees",
            3: "90 degrees clockwise"}[quarter_turns % 4]


@register
class Rotation2D(Task):
    name = "rotation_2d"
    record_task = "2DRotation"
    category = "MentalRotation"

    def params(self, level: int) -> dict[str, Any]:
        """L0: 3x3 solid colours, three mirror distractors; L1: 3x3, a third of the cells
        patterned, one pattern distractor; L2+: one more row and column per level, a larger
        share of patterned cells, two pattern distractors."""
        size = 3 if level <= 1 else level + 2
        share = 0.0 if level == 0 else min(0.9, 0.3 + 0.15 * (level - 1))
        return {
            "size": size,
            "fill": 0.6,
            "patterned": max(int(level > 0), round(share * size * size)),
            "pattern_distractors": min(level, 2),
        }

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        p = self.params(level)
        grid = grid2d.random_grid(rng, p["size"], p["fill"], p["patterned"])
        if np.count_nonzero((grid.colours > 0) | (grid.patterns > 0)) < 3:
            raise Reject("fewer than three cells show anything")
        turns = int(rng.integers(1, 4))
        options = [_option(True, "rotation", grid2d.rotate(grid, turns), {"turns": turns},
                           f"It is the reference turned {turn_words(turns)}.")]
        for kind in PATTERN_ERRORS[: p["pattern_distractors"]]:
            options.append(_pattern_error(grid, kind, rng))
        mirrors = [r for r in REFLECTIONS if _reflect(grid, *r).marker != grid.marker]
        for i in rng.permutation(len(mirrors))[: 4 - len(options)]:
            axis, extra = mirrors[int(i)]
            then = f", then turned {turn_words(extra)}" if extra else ""
            options.append(_option(
                False, "mirror", _reflect(grid, axis, extra), {"mirror": axis, "turns": extra},
                f"It is a mirror image of the reference ({MIRROR_WORDS[axis]}{then}); "
                "no rotation produces a mirror image."))
        _check_distinct(grid, options)
        return Draft(
            question=QUESTION,
            spec={"reference": grid2d.to_json(grid), "size": [p["size"], p["size"]],
                  "patterned": p["patterned"]},
            reference=[Panel(draw_grid(grid), "Reference grid")],
            options=[o for o, _ in options],
        )


def _option(
    is_answer: bool, operator: str, grid: Grid, transform: dict[str, Any], explanation: str
) -> tuple[Option, Grid]:
    data = {"grid": grid2d.to_json(grid), "transform": transform}
    option = Option(is_answer, operator, explanation, image=draw_grid(grid), data=data)
    return option, grid


def _reflect(grid: Grid, axis: str, quarter_turns: int) -> Grid:
    return grid2d.rotate(grid2d.mirror(grid, axis), quarter_turns)


def _pattern_error(grid: Grid, kind: str, rng: np.random.Generator) -> tuple[Option, Grid]:
    """The grid turned with its symbols left as they were, or turned the opposite way."""
    if kind == "unturned_patterns":
        turns = int(rng.integers(1, 4))
        symbol_turns = 0
        how = "the symbols inside the cells were not turned with them"
    else:
        turns = int(rng.choice([1, 3]))
        symbol_turns = -turns
        how = "the symbols inside the cells were turned the opposite way"
    wrong = grid2d.turn_patterns(grid2d.rotate(grid, turns), symbol_turns - turns)
    text = f"The cells and the marker are turned {turn_words(turns)}, but {how}."
    return _option(False, kind, wrong, {"turns": turns, "symbol_turns": symbol_turns}, text)


def _check_distinct(grid: Grid, options: list[tuple[Option, Grid]]) -> None:
    """Reject when a distractor draws like a rotation of the grid or two options coincide."""
    rotations = {grid2d.drawing_key(grid2d.rotate(grid, k)) for k in range(4)}
    keys = [grid2d.drawing_key(g) for _, g in options]
    for (option, _), key in zip(options[1:], keys[1:], strict=True):
        if key in rotations:
            raise Reject(f"a {option.operator} distractor draws like a rotation of the grid")
    if len(set(keys)) < len(keys):
        raise Reject("two options draw the same")
