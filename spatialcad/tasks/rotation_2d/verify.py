"""2DRotation verifier.

Independent of the generator's numpy model: grids are re-read from the record into cell
dictionaries, turned by index arithmetic, and symbol orientations are 2x2 integer
matrices compared up to each symbol's own symmetries.  The answer must equal the
reference turned by 90, 180 or 270 degrees and every other option must differ from all
four rotations.  Then the pictures: every panel must be the drawing of its grid, and the
drawings themselves must agree: the answer's is the reference's turned with ``np.rot90``
and each distractor's differs visibly from all four turned copies.

Step-by-step solutions (spatialcad/run/verification.py: check_steps) are replayed with
:meth:`Drawing.turned`: one quarter turn per step (three for a clockwise one) until the
answer's turn is made, each compared by :meth:`Drawing.key`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.render.grid2d import draw_grid
from spatialcad.render.opencv import cv2
from spatialcad.render.pixels import pixels_differing
from spatialcad.tasks.rotation_2d.spec import (
    GridSpec,
    OptionData,
    Spec,
    parse_option,
    parse_spec,
)
from spatialcad.verify.base import crop

Matrix = tuple[tuple[int, int], tuple[int, int]]
Cell = tuple[str, str | None, Matrix]  # colour, symbol, orientation
IDENTITY: Matrix = ((1, 0), (0, 1))
QUARTER: Matrix = ((0, -1), (1, 0))  # counter-clockwise, x right and y up
FLIP_LR: Matrix = ((-1, 0), (0, 1))
SYMMETRIES: dict[str, tuple[Matrix, ...]] = {
    "arrow": (IDENTITY, FLIP_LR),  # drawn pointing up: its own left-right mirror image
    "triangle": (IDENTITY, FLIP_LR),
    "l_shape": (IDENTITY,),
}
MIN_PIXELS = 30  # a distractor's drawing differs from every rotation in at least this many


def _mul(a: Matrix, b: Matrix) -> Matrix:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(2)) for j in range(2))
                 for i in range(2))  # type: ignore[return-value]


class Drawing:
    """A grid as ``{(row, col): (colour, symbol, orientation)}`` plus the marker's cell."""

    def __init__(self, rows: int, cols: int, cells: dict[tuple[int, int], Cell],
                 marker: tuple[int, int]) -> None:
        self.rows, self.cols, self.cells, self.marker = rows, cols, cells, marker

    @classmethod
    def parse(cls, data: GridSpec) -> Drawing:
        rows, cols = len(data.colours), len(data.colours[0])
        cells = {}
        for r in range(rows):
            for c in range(cols):
                m = FLIP_LR if data.flips[r][c] else IDENTITY
                for _ in range(data.turns[r][c] % 4):
                    m = _mul(QUARTER, m)
                cells[r, c] = (data.colours[r][c], data.patterns[r][c], m)
        corner = data.marker
        marker = (0 if corner[0] == "t" else rows - 1, 0 if corner[1] == "l" else cols - 1)
        return cls(rows, cols, cells, marker)

    def turned(self) -> Drawing:
        """Counter-clockwise quarter turn: cell (r, c) goes to (cols - 1 - c, r)."""
        cells = {(self.cols - 1 - c, r): (colour, symbol, _mul(QUARTER, m))
                 for (r, c), (colour, symbol, m) in self.cells.items()}
        r, c = self.marker
        return Drawing(self.cols, self.rows, cells, (self.cols - 1 - c, r))

    def key(self) -> tuple:
        cells = []
        for pos in sorted(self.cells):
            colour, symbol, m = self.cells[pos]
            shape = frozenset(_mul(m, s) for s in SYMMETRIES[symbol]) if symbol else None
            cells.append((pos, colour, symbol, shape))
        return self.rows, self.cols, self.marker, tuple(cells)


def _panel_failures(name: str, image: np.ndarray, box: list[int], drawn: np.ndarray) -> list[str]:
    shown = crop(image, box)
    if shown.shape != drawn.shape:  # the composite shrank the row
        drawn = cv2.resize(drawn, (shown.shape[1], shown.shape[0]), interpolation=cv2.INTER_AREA)
    return [] if np.array_equal(shown, drawn) else [f"{name} is not the drawing of its grid"]


def _pixel_turns(turned_refs: list[np.ndarray], drawn: np.ndarray) -> list[int]:
    """Differing pixel counts between ``drawn`` and the reference turned k quarter turns
    (``turned_refs[k]``)."""
    return [pixels_differing(turned, drawn) if turned.shape == drawn.shape else drawn.size
            for turned in turned_refs]


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    failures = []
    ref = Drawing.parse(spec.reference)
    turned = [ref]
    for _ in range(3):
        turned.append(turned[-1].turned())
    keys = [t.key() for t in turned]
    ref_img = draw_grid(spec.reference.grid())
    failures += _panel_failures("the reference", image, record["layout"]["reference"][0], ref_img)
    turned_refs = [np.ascontiguousarray(np.rot90(ref_img, k)) for k in range(4)]
    fitting = []
    for o, box in zip(record["options"], record["layout"]["options"], strict=True):
        name = f"option {o['letter']}"
        grid = parse_option(o["data"]).grid
        key = Drawing.parse(grid).key()
        matches = [k for k in range(4) if keys[k] == key]
        drawn = draw_grid(grid.grid())
        failures += _panel_failures(name, image, box, drawn)
        diffs = _pixel_turns(turned_refs, drawn)
        if matches:
            fitting.append(o["letter"])
            if 0 in matches:
                failures.append(f"{name} is the reference itself, not turned")
            if not any(diffs[k] == 0 for k in matches):
                failures.append(f"{name} is not drawn as the reference turned")
        elif min(diffs) < MIN_PIXELS:
            failures.append(f"{name} is no rotation but its drawing differs from one by "
                            f"{min(diffs)} pixels only")
        if o["is_answer"] and not matches:
            failures.append(f"{name} is the answer but no rotation of the reference")
        if not o["is_answer"] and matches:
            failures.append(f"{name} is a distractor but equals the reference turned "
                            f"{90 * matches[0]} degrees")
    if fitting != [record["Answer"]]:
        failures.append(f"options that are rotations: {fitting}, answer {record['Answer']}")
    return failures


def _quarters(answer: OptionData) -> list[int]:
    """Counter-clockwise quarter turns per step: 1 each, or 3 for one clockwise step."""
    k = answer.transform.turns % 4
    return [3] if k == 3 else [1] * k


def step_start(spec: Spec, answer: OptionData) -> Drawing:
    return Drawing.parse(spec.reference)


def step_next(spec: Spec, answer: OptionData, state: Drawing, k: int) -> Drawing | None:
    """The grid after step ``k`` (0-based); None once the answer's turn is made."""
    quarters = _quarters(answer)
    if k >= len(quarters):
        return None
    for _ in range(quarters[k]):
        state = state.turned()
    return state


def step_goal(spec: Spec, answer: OptionData) -> Drawing:
    return Drawing.parse(answer.grid)


def step_read(spec: Spec, state: Any) -> Drawing:
    return Drawing.parse(GridSpec.from_json(state, "state"))


def step_key(state: Drawing) -> tuple:
    return state.key()
