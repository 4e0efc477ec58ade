"""2DRotation: which option is the reference grid rotated in its plane?

After SpatialViz-Bench Alg. 1.  The reference is a grid of coloured cells with a red
square on one corner; from level 1 some cells carry black symbols (arrow, triangle, L)
that are not centrally symmetric.  The answer is the grid turned by 90, 180 or 270
degrees.  Distractors: mirror images of the grid (reflected left-right or upside down,
possibly also turned, always moving the marker), and from level 1 the grid turned with
the symbols inside the cells left unturned or turned the opposite way.  A distractor that
draws the same as some rotation of the grid (a symmetric grid) is never offered.

No picture similarity gives the answer away.  Left alone, a rotation is the option least
like the reference (on a 3x3 grid it fixes only the centre cell, a mirror a whole line)
and the most typical one (its distance to each mirror is a mirror's distance to the
reference, two mirrors differ by a rotation).  So the generator measures what the shortcut
audit (``spatialcad.evaluate.baselines``) measures: every candidate option's 32 px
thumbnail, its mean absolute difference to the reference's and, summed, to the other
options'.  It draws two target ranks for the answer uniformly and independently from the
item rng, the rank of its distance to the reference and of its summed distance to the
others, then chooses the answer's turn and the distractors (all 3 rotations times every
choice of pattern errors and mirrors) uniformly among the sets where the answer has
exactly these ranks (near ties excluded).  A grid with no such set is replaced by a new
grid under the same targets, so the shipped ranks stay uniform: nearest / farthest /
odd one out / most typical each pick the answer with probability 1/4 by construction.
The pair is recorded in ``spec.answer_ranks``, the grids tried in ``spec.grids_drawn``.
Level 0 has no choice of distractors (just three mirrors move the marker); on a 3x3 grid
the answer is then almost always the most typical option, so level 0 uses 4x4 grids (the
straight mirrors fix no line of cells), where every rank pair occurs (the rarest, farthest
and odd one out at once, in about one grid in 500).  Cues outside the audit remain at
level 0, where the option set is forced: the answer shares its marker corner with a
mirror, and it is more often than not in the closest pair of options.
The thumbnails of turned and mirrored grids are the reference thumbnail turned or flipped
(the drawing is exactly equivariant; shrinking it commutes with that up to one grey
level), so trying many grids is cheap.  The measure is the audit's exactly while the
composite shows the panels at their own size (every level: from level 10 the five panels
stand in one row, ``layout.arrangement``; from level 13 they would fit no composite).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from spatialcad.geometry import grid2d
from spatialcad.geometry.grid2d import Grid
from spatialcad.render.grid2d import draw_grid
from spatialcad.render.thumbnails import distances, sets_with_ranks, thumbnail
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.rotation_2d.spec import (
    AnswerRanks,
    GridSpec,
    OptionData,
    Spec,
    Transform,
    texts,
)

# The four reflections of the square: a mirror, then counter-clockwise quarter turns.
REFLECTIONS = (("lr", 0), ("ud", 0), ("lr", 1), ("lr", 3))
MIRROR_WORDS = {"lr": "reflected left-right", "ud": "reflected upside down"}
# (operator, quarter turns of cells and marker, quarter turns of the symbols)
PATTERN_ERRORS = (("unturned_patterns", 1, 0), ("unturned_patterns", 2, 0),
                  ("unturned_patterns", 3, 0), ("patterns_turned_back", 1, -1),
                  ("patterns_turned_back", 3, -3))
MAX_GRIDS = 5000  # grids tried for one target pair (the rarest needs ~500 on average)


def turn_words(quarter_turns: int) -> str:
    return {1: "90 degrees counter-clockwise", 2: "180 degrees",
            3: "90 degrees clockwise"}[quarter_turns % 4]


@dataclass(frozen=True)
class Candidate:
    """A possible option: its grid, how it was made and its thumbnail."""

    operator: str
    grid: Grid
    transform: Transform
    explanation: str
    thumb: np.ndarray


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        """L0: 4x4 solid colours, three mirror distractors; L1: 4x4, a third of the cells
        patterned, one pattern distractor; L2: a larger share of patterned cells, two
        pattern distractors; L3+: one more row and column per level, more patterns."""
        size = max(4, level + 2)
        share = 0.0 if level == 0 else min(0.9, 0.3 + 0.15 * (level - 1))
        return {
            "size": size,
            "fill": 0.6,
            "patterned": max(int(level > 0), round(share * size * size)),
            "pattern_distractors": min(level, 2),
        }

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        p = self.params(level)
        target = (int(rng.integers(4)), int(rng.integers(4)))
        grid, choices, drawn = _balanced_grid(p, target, rng)
        chosen = choices[int(rng.integers(len(choices)))]
        data = [OptionData(GridSpec.of(c.grid), c.transform) for c in chosen]
        spec = Spec(GridSpec.of(grid), (p["size"], p["size"]), p["patterned"],
                    AnswerRanks(*target), drawn)
        return Draft(
            question=texts(spec, data).question,
            spec=spec.to_json(),
            reference=[Panel(draw_grid(grid), "Reference grid")],
            options=[Option(i == 0, c.operator, c.explanation, image=draw_grid(c.grid),
                            data=d.to_json())
                     for i, (c, d) in enumerate(zip(chosen, data, strict=True))],
        )


def _balanced_grid(
    p: dict[str, Any], target: tuple[int, int], rng: np.random.Generator
) -> tuple[Grid, list[tuple[Candidate, ...]], int]:
    """The first random grid with option sets giving the answer the ``target`` ranks,
    those sets, and how many grids were drawn."""
    for drawn in range(1, MAX_GRIDS + 1):
        grid = grid2d.random_grid(rng, p["size"], p["fill"], p["patterned"])
        if np.count_nonzero((grid.colours > 0) | (grid.patterns > 0)) < 3:
            continue  # fewer than three cells show anything
        choices = balanced_choices(grid, p["pattern_distractors"], target)
        if choices:
            return grid, choices, drawn
    raise Reject(f"no grid of {MAX_GRIDS} lets the answer have the ranks {target}")


def _reflect(grid: Grid, axis: str, quarter_turns: int) -> Grid:
    return grid2d.rotate(grid2d.mirror(grid, axis), quarter_turns)


def rotations(grid: Grid, ref_thumb: np.ndarray) -> list[Candidate]:
    return [Candidate("rotation", grid2d.rotate(grid, t), Transform(turns=t),
                      f"It is the reference turned {turn_words(t)}.", np.rot90(ref_thumb, t))
            for t in (1, 2, 3)]


def mirrors(grid: Grid, ref_thumb: np.ndarray) -> list[Candidate]:
    """The reflections that move the marker (one that keeps it is ruled out at a glance)."""
    out = []
    for axis, extra in REFLECTIONS:
        wrong = _reflect(grid, axis, extra)
        if wrong.marker == grid.marker:
            continue
        then = f", then turned {turn_words(extra)}" if extra else ""
        flipped = ref_thumb[:, ::-1] if axis == "lr" else ref_thumb[::-1]
        out.append(Candidate(
            "mirror", wrong, Transform(mirror=axis, turns=extra),
            f"It is a mirror image of the reference ({MIRROR_WORDS[axis]}{then}); "
            "no rotation produces a mirror image.", np.rot90(flipped, extra)))
    return out


def pattern_errors(grid: Grid) -> list[Candidate]:
    """The grid turned with its symbols left as they were, or turned the opposite way."""
    out = []
    for kind, turns, symbol_turns in PATTERN_ERRORS:
        how = ("the symbols inside the cells were not turned with them" if symbol_turns == 0
               else "the symbols inside the cells were turned the opposite way")
        wrong = grid2d.turn_patterns(grid2d.rotate(grid, turns), symbol_turns - turns)
        out.append(Candidate(
            kind, wrong, Transform(turns=turns, symbol_turns=symbol_turns),
            f"The cells and the marker are turned {turn_words(turns)}, but {how}.",
            thumbnail(draw_grid(wrong))))
    return out


def distinct_distractors(grid: Grid, candidates: list[Candidate]) -> list[Candidate]:
    """The candidates that draw unlike every rotation of the grid and unlike each other."""
    seen = {grid2d.drawing_key(grid2d.rotate(grid, k)) for k in range(4)}
    out = []
    for c in candidates:
        key = grid2d.drawing_key(c.grid)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def balanced_choices(
    grid: Grid, pattern_distractors: int, target: tuple[int, int]
) -> list[tuple[Candidate, ...]]:
    """Every option set (answer first) in which the answer has the ``target`` ranks."""
    ref_thumb = thumbnail(draw_grid(grid))
    errors = pattern_errors(grid) if pattern_distractors else []
    distinct = distinct_distractors(grid, mirrors(grid, ref_thumb) + errors)
    pool = rotations(grid, ref_thumb) + distinct  # pool[i] is row i + 1 of dist
    dist = distances([ref_thumb] + [c.thumb for c in pool])
    wrong_mirrors = [i + 1 for i, c in enumerate(pool) if c.operator == "mirror"]
    errs = [i + 1 for i, c in enumerate(pool) if c.operator not in ("mirror", "rotation")]
    sets = [(answer, *chosen_errs, *chosen_mirrors) for answer in (1, 2, 3)
            for chosen_errs in combinations(errs, pattern_distractors)
            for chosen_mirrors in combinations(wrong_mirrors, 3 - pattern_distractors)]
    fits = sets_with_ranks(dist, [0], sets, target)
    return [tuple(pool[i - 1] for i in options)
            for options, fit in zip(sets, fits, strict=True) if fit]
