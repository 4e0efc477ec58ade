"""PaperFolding: a grid sheet is folded, punched through all layers; which unfolded sheet?

After SpatialViz-Bench Alg. 6-7.  The reference row shows every fold (the flap shaded, the
fold line dashed, an arrow to where the flap lands) and the punched folded paper; the
options are hole patterns of the whole sheet: the true one, and wrong ones made from it by
mirroring, adding, deleting or moving a hole, or swapping two rows or two columns, and by
one more such edit of one of those (e.g. mirrored with a hole moved).

The wrong options are chosen so that picture similarity does not give the answer away:
left alone, the answer is the option most like the others (every wrong option is an edit
of it).  Two target ranks for the answer are drawn uniformly, its thumbnail distance to
the reference panels and its summed distance to the other options (what the shortcut
audit measures, :mod:`spatialcad.render.thumbnails`), and three wrong options are drawn
from a larger pool among the sets giving the answer exactly these ranks (the scene is
redrawn under the same target when none does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialcad.geometry import paper as pf
from spatialcad.render import paper_drawing as draw
from spatialcad.render.thumbnails import balanced_set, random_target
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.paper_folding import listing
from spatialcad.tasks.paper_folding.spec import COORDINATES, Fold, OptionData, Spec, texts

Cell = tuple[int, int]
Pattern = frozenset[Cell]
Edit = Callable[[Pattern, int, int, np.random.Generator], Pattern | None]

SCENE_DRAWS = 20  # scenes tried for one item's similarity-rank target
EDITS_PER_OPERATOR = 3  # draws of each operator on the true pattern
SECOND_EDITS = ("move_hole", "add_hole", "delete_hole")  # applied once more to a wrong pattern
UNDOING = {"add_hole", "delete_hole"}  # not combined: together they read as a move


@dataclass(frozen=True)
class Wrong:
    operator: str  # operator names joined by "+", in the order applied
    explanation: str
    pattern: Pattern


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        """L0: a sheet of 3 to 5 by 3 to 5 cells, 2 folds, 1 hole; L1: 4 or 5 by 4 or 5, 3
        folds (the last may be diagonal), 2 holes; L2: 5x6, 3 folds, 3 holes; higher: the
        sheet, the folds and the holes keep growing up to 8x9 cells, 5 folds and 6 holes
        (beyond that the pictures, one per fold, get too small to read).  ``sizes``: the
        sheets (rows, cols) a scene's is drawn from.  Levels 0-1 draw among several so
        that each holds over 2,000 scenes (2,624 and 19,984; 3x3 to 4x4 sheets held 616 at
        level 0, the 4x4 sheet 1,392 at level 1, of them 96 with a diagonal fold); the
        folds and holes, which make a level hard, are the same on each."""
        if level == 0:
            return {"sizes": [[r, c] for r in range(3, 6) for c in range(3, 6)], "folds": 2,
                    "holes": 1, "diagonal": False}
        if level == 1:
            return {"sizes": [[r, c] for r in range(4, 6) for c in range(4, 6)], "folds": 3,
                    "holes": 2, "diagonal": True}
        rows, cols = min(3 + level, 8), min(3 + level + (level % 2 == 0), 9)
        return {"sizes": [[rows, cols]], "folds": min(3 + (level - 1) // 2, 5),
                "holes": min(level + 1, 6), "diagonal": True}

    def scene_count(self, level: int) -> int | None:
        """Levels of small sheets: their listed scenes (spatialcad/tasks/paper_folding/
        listing.py), which a run's items take in turn."""
        p = self.params(level)
        return listing.count(p) if listing.lists(p) else None

    def lists_scenes(self, level: int) -> bool:
        return listing.lists(self.params(level))

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        # Similarity ranks of the answer (to the reference, and summed to the other options),
        # drawn first and kept while the scene is redrawn, so that they stay uniform.
        target = random_target(rng)
        p = self.params(level)
        at = (self.own_scene().next(listing.count(p), level, weights=listing.weights(p))
              if listing.lists(p) else None)
        if at is not None:  # the next attempt tries it again, for another target
            draft = self._try_scene(level, rng, target, 1, listing.scene(p, at))
            if draft is None:
                raise Reject(f"the item's listed scene gave no option set the ranks {target}")
            return draft
        for drawn in range(1, SCENE_DRAWS + 1):
            draft = self._try_scene(level, rng, target, drawn)
            if draft is not None:
                return draft
        raise Reject(f"no option set gave the answer the similarity ranks {target}")

    def _try_scene(self, level: int, rng: np.random.Generator, target: tuple[int, int],
                   drawn: int, listed: listing.Scene | None = None) -> Draft | None:
        """Draft ``drawn`` of a scene for the ranks ``target`` (the ``listed`` one, else
        drawn at random); None if no option set fits."""
        rows, cols, scene_folds, holes = listed or drawn_scene(self.params(level), rng)
        folds = list(scene_folds)
        states = pf.fold_all(rows, cols, folds)
        truth = frozenset(states[-1].unfold(holes))
        pool = wrong_pool(truth, rows, cols, rng)
        if len(pool) < 3:
            return None

        reference = []
        for i, (state, fold) in enumerate(zip(states, folds, strict=False)):
            flap = state.flap(fold)
            start = flap.centroid.coords[0]
            image = draw.fold_step(rows, cols, state.outline(), flap, state.fold_segment(fold),
                                   (start, fold.reflect(start)))
            reference.append(Panel(image, f"Fold {i + 1}"))
        reference.append(Panel(draw.punched(rows, cols, states[-1].outline(), holes), "Punch"))

        # the option panels exactly as composed (four 240 px panels fit the row unscaled)
        images = [draw.hole_pattern(rows, cols, sorted(t))
                  for t in (truth, *(w.pattern for w in pool))]

        def accept(picked: tuple[int, ...]) -> bool:  # kinds mixed
            return len({pool[i].operator.split("+")[0] for i in picked}) >= 2

        picked = balanced_set(images[0], [r.image for r in reference], images[1:], target, rng,
                              accept)
        if picked is None:
            return None
        chosen = [("unfold", f"Unfolding copies each punched hole across every fold line it "
                   f"lies under: the {len(holes)} punched holes become these {len(truth)} holes.",
                   truth, images[0])]
        chosen += [(pool[i].operator, pool[i].explanation, pool[i].pattern, images[1 + i])
                   for i in picked]
        data = [OptionData(sorted(pattern)) for _, _, pattern, _ in chosen]
        options = [Option(is_answer=k == 0, operator=op, explanation=why, image=image,
                          data=d.to_json())
                   for k, ((op, why, _, image), d) in enumerate(zip(chosen, data, strict=True))]
        spec = Spec(rows, cols, [Fold(f.kind, f.line, f.flap) for f in folds], holes, COORDINATES,
                    target, drawn)
        said = texts(spec, data)
        return Draft(said.question, spec.to_json(), reference, options,
                     question_direct=said.question_direct, answer_direct=said.answer_direct)


def _mirror(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
    flips = [frozenset((r, cols - 1 - c) for r, c in t), frozenset((rows - 1 - r, c) for r, c in t)]
    differing = [f for f in flips if f != t]
    return differing[int(rng.integers(len(differing)))] if differing else None


def _move(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
    moves = [(h, (h[0] + dr, h[1] + dc)) for h in sorted(t)
             for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
    moves = [(h, n) for h, n in moves if 0 <= n[0] < rows and 0 <= n[1] < cols and n not in t]
    if not moves:
        return None
    old, new = moves[int(rng.integers(len(moves)))]
    return (t - {old}) | {new}


def _add(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
    empty = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in t]
    return t | {empty[int(rng.integers(len(empty)))]} if empty else None


def _delete(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
    if len(t) < 2:
        return None
    cells = sorted(t)
    return t - {cells[int(rng.integers(len(cells)))]}


def _swap_lines(axis: int) -> Edit:
    """Swap two rows (axis 0) or two columns (axis 1) whose holes differ."""

    def swap(t: Pattern, rows: int, cols: int, rng: np.random.Generator) -> Pattern | None:
        n = (rows, cols)[axis]
        lines = [{h[1 - axis] for h in t if h[axis] == i} for i in range(n)]
        pairs = [(i, j) for i in range(n) for j in range(i) if lines[i] != lines[j]]
        if not pairs:
            return None
        i, j = pairs[int(rng.integers(len(pairs)))]
        swap_ij = {i: j, j: i}

        def moved(h: Cell) -> Cell:
            k = swap_ij.get(h[axis], h[axis])
            return (k, h[1]) if axis == 0 else (h[0], k)

        return frozenset(moved(h) for h in t)

    return swap


# operator -> (what it does, as a phrase after "the true pattern", the edit)
OPERATORS: dict[str, tuple[str, Edit]] = {
    "mirror": ("mirrored, so the holes are on the wrong side", _mirror),
    "move_hole": ("with one hole moved by one cell", _move),
    "add_hole": ("with one hole too many", _add),
    "delete_hole": ("with one hole missing", _delete),
    "swap_rows": ("with two rows of holes swapped", _swap_lines(0)),
    "swap_cols": ("with two columns of holes swapped", _swap_lines(1)),
}


def drawn_scene(p: dict[str, Any], rng: np.random.Generator) -> listing.Scene:
    """A scene of the level of params ``p`` drawn at random: a sheet, whether the last fold
    is diagonal, the folds one by one, the holes among the full cells (the odds
    ``listing.weights`` gives a listed level's scenes)."""
    sizes = p["sizes"]
    rows, cols = sizes[int(rng.integers(len(sizes)))] if len(sizes) > 1 else sizes[0]
    diagonal = p["diagonal"] and bool(rng.random() < 0.5)
    folds = pf.random_folds(rng, rows, cols, p["folds"], diagonal=diagonal,
                            min_cells=p["holes"])
    if folds is None:
        raise Reject("no fold sequence leaves room for the holes")
    free = pf.fold_all(rows, cols, folds)[-1].full_cells()
    holes = sorted(free[i] for i in rng.choice(len(free), p["holes"], replace=False))
    return rows, cols, tuple(folds), holes


def wrong_pool(truth: Pattern, rows: int, cols: int, rng: np.random.Generator) -> list[Wrong]:
    """Distinct wrong patterns: up to ``EDITS_PER_OPERATOR`` edits of the truth by each
    operator, and each of those edited once more by a hole edit of another kind (so that
    some wrong options are nearer to each other than to the truth)."""
    seen, first = {truth}, []
    for name in sorted(OPERATORS):
        for _ in range(EDITS_PER_OPERATOR):
            pattern = OPERATORS[name][1](truth, rows, cols, rng)
            if pattern is not None and pattern not in seen:
                seen.add(pattern)
                first.append(([name], pattern))
    second = []
    for names, edited in first:
        others = [n for n in SECOND_EDITS if n != names[0] and {n, names[0]} != UNDOING]
        name = others[int(rng.integers(len(others)))]
        pattern = OPERATORS[name][1](edited, rows, cols, rng)
        if pattern is not None and pattern not in seen:
            seen.add(pattern)
            second.append(([*names, name], pattern))
    return [Wrong("+".join(names), "It is the true pattern "
                  + ", and ".join(OPERATORS[n][0] for n in names) + ".", pattern)
            for names, pattern in first + second]
