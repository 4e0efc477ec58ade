"""PaperFolding verifier.

Independent of the generator's layer tracking: the paper is described only by the region
it covers after each fold (the sheet cut by half-planes, in doubled integer coordinates),
and every punched hole is unfolded by reflecting its centre back across the fold lines in
reverse order, keeping each copy that lands on paper.  Each fold is checked to be legal
(the flap lands on the rest of the paper; by convexity it suffices to check the lattice of
half-cells).  The hole patterns drawn in the options and in the punched picture are read
back from the image.  The open answer (``Answer_direct``) is the number of unfolded holes.

Step-by-step solutions (spatialcad/run/verification.py: check_steps) are replayed one fold at
a time: each hole of the paper with ``j + 1`` folds made is reflected back across fold
``j + 1`` (:meth:`Sheet.unfold` stopping at ``j`` folds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spatialcad.render.opencv import cv2
from spatialcad.render.pixels import darkest
from spatialcad.tasks.paper_folding.spec import (
    Fold,
    OptionData,
    Spec,
    parse_option,
    parse_spec,
)
from spatialcad.verify.base import crop

HOLE_RADIUS = 0.22  # drawn hole radius, in cells

Point = tuple[int, int]  # doubled coordinates: (2x, 2y)
Constraint = tuple[tuple[int, int, int], int]  # (a, b, c), sign: sign*(aX + bY - 2c) >= 0
NORMALS = {"vertical": {(1, 0)}, "horizontal": {(0, 1)}, "diagonal": {(1, 1), (1, -1)}}


def _value(p: Point | np.ndarray, line: tuple[int, int, int]) -> Any:
    """``a X + b Y - 2 c`` of a point, or of each column of a (2, N) integer array."""
    a, b, c = line
    return a * p[0] + b * p[1] - 2 * c


def _mirror(p: Point | np.ndarray, line: tuple[int, int, int]) -> Any:
    a, b, _ = line
    k = 2 * _value(p, line) // (a * a + b * b)
    return p[0] - k * a, p[1] - k * b


def _inside(p: Point, region: list[Constraint], strict: bool) -> bool:
    return all((s * _value(p, line) > 0) if strict else (s * _value(p, line) >= 0)
               for line, s in region)


def _inside_all(points: np.ndarray, region: list[Constraint], strict: bool) -> np.ndarray:
    """:func:`_inside` of every column (X, Y) of the (2, N) integer array ``points``."""
    out = np.ones(points.shape[1], bool)
    for line, s in region:
        v = s * _value(points, line)  # exact integer arrays
        out &= (v > 0) if strict else (v >= 0)
    return out


class Sheet:
    """The regions covered by the paper before and after every fold."""

    def __init__(self, rows: int, cols: int, folds: Sequence[Fold]) -> None:
        self.rows, self.cols = rows, cols
        self.folds = [(f.line, f.flap) for f in folds]
        box: list[Constraint] = [((1, 0, 0), 1), ((1, 0, cols), -1), ((0, 1, 0), 1),
                                 ((0, 1, rows), -1)]
        self.regions = [box]
        for line, flap in self.folds:
            self.regions.append(self.regions[-1] + [(line, -flap)])
        x, y = np.meshgrid(np.arange(2 * cols + 1), np.arange(2 * rows + 1), indexing="ij")
        self.lattice = np.stack([x.ravel(), y.ravel()])  # (2, N): every doubled point

    def fold_problem(self, j: int) -> str | None:
        """Why fold ``j`` (0-based) is not a legal fold of the paper, or None."""
        line, flap = self.folds[j]
        region = self.regions[j]
        side = flap * _value(self.lattice, line)
        inner = _inside_all(self.lattice, region, True)
        if not (side[inner] > 0).any():
            return "folds nothing over"
        if not (side[inner] < 0).any():
            return "leaves no paper in place"
        flap_part = self.lattice[:, _inside_all(self.lattice, region, False) & (side >= 0)]
        landed = np.stack(_mirror(flap_part, line))
        if not _inside_all(landed, region, False).all():
            return "lands its flap outside the paper"
        return None

    def unfold(self, p: Point, j: int | None = None, stop: int = 0) -> list[Point]:
        """Positions of all layers at ``p`` after the first ``j`` folds, on the paper with
        the first ``stop`` folds made (0: the sheet)."""
        j = len(self.folds) if j is None else j
        if j == stop:
            return [p]
        line, _ = self.folds[j - 1]
        out = []
        for q in (p, _mirror(p, line)):
            if _inside(q, self.regions[j - 1], True):
                out += self.unfold(q, j - 1, stop)
        return out


def read_holes(panel: np.ndarray, rows: int, cols: int) -> set[tuple[int, int]]:
    """Cells (row, col) holding a hole (a round dark blob of the hole's size) in a drawing
    of the whole sheet or of folded paper on its faint ghost."""
    grey = darkest(panel)
    marked = grey < 245  # the drawing's extent: its first and last marked column and row
    xs, ys = np.flatnonzero(marked.any(axis=0)), np.flatnonzero(marked.any(axis=1))
    if len(xs) == 0:
        return set()
    x0, x1, y0, y1 = xs[0], xs[-1] + 1, ys[0], ys[-1] + 1
    px, py = (x1 - x0) / cols, (y1 - y0) / rows
    hole = np.pi * (HOLE_RADIUS * min(px, py)) ** 2
    count, _, stats, centres = cv2.connectedComponentsWithStats((grey < 110).astype(np.uint8))
    out = set()
    for (_, _, w, h, area), (cx, cy) in zip(stats[1:], centres[1:], strict=True):
        if 0.4 * hole < area < 1.8 * hole and max(w, h) < 0.6 * min(px, py):
            out.add((int((cy - y0) // py), int((cx - x0) // px)))
    return out


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    rows, cols, folds = spec.rows, spec.cols, spec.folds
    failures = []
    for j, f in enumerate(folds):
        a, b, _ = f.line
        if (a, b) not in NORMALS.get(f.kind, set()) or f.flap not in (-1, 1):
            failures.append(f"fold {j + 1} is not a {f.kind} fold")
        elif f.kind == "diagonal" and j != len(folds) - 1:
            failures.append(f"fold {j + 1} is diagonal but not the last fold")
    if failures:
        return failures
    sheet = Sheet(rows, cols, folds)
    for j in range(len(folds)):
        problem = sheet.fold_problem(j)
        if problem:
            failures.append(f"fold {j + 1} {problem}")
    holes = spec.holes
    final = sheet.regions[-1]
    for r, c in holes:
        corners = [(2 * c + dx, 2 * r + dy) for dx in (0, 2) for dy in (0, 2)]
        if not all(_inside(q, final, False) for q in corners):
            failures.append(f"hole {(r, c)} is not on a whole cell of the folded paper")
    if not holes or len(set(holes)) != len(holes):
        failures.append("holes repeat or are missing")
    if failures:
        return failures
    truth = {(y // 2, x // 2) for r, c in holes for x, y in sheet.unfold((2 * c + 1, 2 * r + 1))}
    if record.get("Answer_direct") != str(len(truth)):
        failures.append(f"the open answer {record.get('Answer_direct')!r} is not the "
                        f"{len(truth)} unfolded holes")

    patterns = {o["letter"]: set(parse_option(o["data"]).holes) for o in record["options"]}
    matching = [letter for letter, p in patterns.items() if p == truth]
    if matching != [record["Answer"]]:
        failures.append(f"options with the unfolded pattern: {matching}, answer "
                        f"{record['Answer']}")
    if len({frozenset(p) for p in patterns.values()}) != 4:
        failures.append("two options show the same pattern")
    boxes = record["layout"]
    for o, box in zip(record["options"], boxes["options"], strict=True):
        if read_holes(crop(image, box), rows, cols) != patterns[o["letter"]]:
            failures.append(f"option {o['letter']} does not draw its hole pattern")
    if len(boxes["reference"]) != len(folds) + 1:
        failures.append("the reference row does not show every fold and the punch")
    elif read_holes(crop(image, boxes["reference"][-1]), rows, cols) != set(holes):
        failures.append("the punched picture does not show the punched holes")
    return failures


def _state(folds: int, holes: set[tuple[int, int]] | list[tuple[int, int]]) -> dict[str, Any]:
    return {"folds": folds, "holes": [list(h) for h in sorted(holes)]}


def step_start(spec: Spec, answer: OptionData) -> dict[str, Any]:
    return _state(len(spec.folds), [tuple(h) for h in spec.holes])  # type: ignore[misc]


def step_next(spec: Spec, answer: OptionData, state: Any, k: int) -> Any:
    """The paper after undoing the next fold (step ``k``, 0-based); None when flat."""
    made = state["folds"]
    if k >= len(spec.folds) or made == 0:
        return None
    sheet = Sheet(spec.rows, spec.cols, spec.folds)
    holes = {(y // 2, x // 2) for r, c in state["holes"]
             for x, y in sheet.unfold((2 * c + 1, 2 * r + 1), made, made - 1)}
    return _state(made - 1, holes)


def step_goal(spec: Spec, answer: OptionData) -> dict[str, Any]:
    return _state(0, [tuple(h) for h in answer.holes])  # type: ignore[misc]
