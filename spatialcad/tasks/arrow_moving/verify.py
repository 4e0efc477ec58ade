"""ArrowMoving verifier.

Simulates the moves with its own implementation (positions and headings as complex
numbers: a relative move multiplies the heading by 1, i, -1 or -i), reads every board
drawn in the image back (cell, colour and heading of each arrow), and proves that exactly
one option reaches the asked state: for "path" items exactly one valid move sequence turns
the shown start board into the shown end board; for "state" items exactly one option board
is the result of the stated moves, and the open answer (``Answer_direct``) names that
final board: written here from the simulated board, cells counted from 1 at the bottom-left
and headings as picture directions.  That the question states those moves and each
option's text is its moves is the texts check (spatialcad/run/verification.py).

Step-by-step solutions (spatialcad/run/verification.py: check_steps) are replayed here one move
at a time with :func:`simulate`: the item's moves from the start board to the end board
("path" items: the answer's moves; "state" items: the answer's board).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from spatialcad.render.opencv import cv2
from spatialcad.render.pixels import brightest, darkest
from spatialcad.tasks.arrow_moving.spec import (
    Arrow,
    Move,
    OptionData,
    Spec,
    parse_option,
    parse_spec,
)
from spatialcad.verify.base import crop

HEADING = {"north": 1j, "east": 1 + 0j, "south": -1j, "west": -1 + 0j}
RELATIVE = {"forward": 1 + 0j, "left": 1j, "backward": -1 + 0j, "right": -1j}
Board = dict[str, tuple[tuple[int, int], str]]  # colour -> (cell, heading name)
ON_PICTURE = {1j: "up", 1 + 0j: "right", -1j: "down", -1 + 0j: "left"}


def _board(arrows: Sequence[Arrow]) -> Board:
    return {a.colour: (a.cell, a.heading) for a in arrows}


def simulate(start: Board, moves: Sequence[Move], grid: Sequence[int]) -> Board | None:
    """The board after the moves, or None when a move leaves the grid."""
    pos = {c: complex(*cell) for c, (cell, _) in start.items()}
    head = {c: HEADING[h] for c, (_, h) in start.items()}
    for m in moves:
        me = m.colour
        way = head[me] * RELATIVE[m.relative]
        dest = pos[me] + way * m.steps
        if not (0 <= dest.real < grid[0] and 0 <= dest.imag < grid[1]):
            return None
        other = [c for c in pos if c != me and pos[c] == dest]
        for c in other:
            pos[c], head[c] = pos[me], -way
        pos[me], head[me] = dest, way
    names = {v: k for k, v in HEADING.items()}
    return {c: ((int(p.real), int(p.imag)), names[head[c]]) for c, p in pos.items()}


def open_answer(board: Board) -> str:
    """The open form's answer for a final board: "colour column,row,direction" per arrow,
    colours in alphabetical order, separated by "; "."""
    return "; ".join(f"{c} {x + 1},{y + 1},{ON_PICTURE[HEADING[h]]}"
                     for c, ((x, y), h) in sorted(board.items()))


def _heading(mask: np.ndarray) -> str:
    """The way an arrow points: its long axis, towards the end where it is widest."""
    ys, xs = np.nonzero(mask)
    if np.ptp(ys) > np.ptp(xs):
        mid = (ys.min() + ys.max()) / 2
        top, bottom = mask[: int(mid)].sum(axis=1).max(), mask[int(mid) + 1:].sum(axis=1).max()
        return "north" if top > bottom else "south"
    mid = (xs.min() + xs.max()) / 2
    left, right = mask[:, : int(mid)].sum(axis=0).max(), mask[:, int(mid) + 1:].sum(axis=0).max()
    return "west" if left > right else "east"


def read_board(panel: np.ndarray, grid: Sequence[int],
               palette: Mapping[str, Sequence[int]]) -> Board:
    """The arrows drawn on a board picture; raises ValueError on an unknown colour."""
    high = brightest(panel)
    ys, xs = np.nonzero(high < 110)  # grid lines and arrow outlines
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    px, py = (x1 - x0) / grid[0], (y1 - y0) / grid[1]
    coloured = cv2.subtract(high, darkest(panel)) > 70  # channels far apart: an arrow's fill
    colours = {c: np.array(rgb) for c, rgb in palette.items()}
    out: Board = {}
    for x in range(grid[0]):
        for y in range(grid[1]):
            top = y0 + (grid[1] - 1 - y) * py
            window = (slice(int(top + 0.08 * py), int(top + 0.92 * py)),
                      slice(int(x0 + (x + 0.08) * px), int(x0 + (x + 0.92) * px)))
            mask = coloured[window]
            if mask.sum() < 0.04 * mask.size:
                continue
            rgb = np.median(panel[window][mask].astype(int), axis=0)
            name, dist = min(((c, float(np.abs(v - rgb).max())) for c, v in colours.items()),
                             key=lambda t: t[1])
            if dist > 60 or name in out:
                raise ValueError(f"cell {(x, y)} shows an unexpected colour {rgb.tolist()}")
            out[name] = ((x, y), _heading(mask))
    return out


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    grid, palette = spec.grid, spec.palette
    start, end = _board(spec.start), _board(spec.end)
    options = [parse_option(o["data"]) for o in record["options"]]
    failures = []
    cells = [cell for cell, _ in start.values()]
    if len(set(cells)) != len(cells) or any(not (0 <= x < grid[0] and 0 <= y < grid[1])
                                             for x, y in cells):
        failures.append("the start arrows are not on distinct cells of the grid")
    boxes = record["layout"]
    try:
        shown = [read_board(crop(image, boxes["reference"][0]), grid, palette)]
        if spec.question == "path":
            shown.append(read_board(crop(image, boxes["reference"][1]), grid, palette))
    except ValueError as exc:
        return failures + [f"reference board unreadable: {exc}"]
    if shown[0] != start:
        failures.append("the start picture does not show the start state")
    reaching = []
    if spec.question == "path":
        if shown[1] != end:
            failures.append("the end picture does not show the end state")
        for o, data in zip(record["options"], options, strict=True):
            if data.moves is None:
                failures.append(f"option {o['letter']} has no moves")
                continue
            result = simulate(start, data.moves, grid)
            if result is None:
                failures.append(f"option {o['letter']} has a move leaving the grid")
            elif result == end:
                reaching.append(o["letter"])
    else:
        final = simulate(start, spec.moves, grid)
        if final is None:
            return failures + ["the stated moves leave the grid"]
        if record.get("Answer_direct") != open_answer(final):
            failures.append(f"the open answer {record.get('Answer_direct')!r} is not the final "
                            f"state {open_answer(final)!r}")
        boards = []
        for o, data, box in zip(record["options"], options, boxes["options"], strict=True):
            if data.arrows is None:
                failures.append(f"option {o['letter']} has no board")
                continue
            state = _board(data.arrows)
            boards.append(sorted(state.items()))
            try:
                drawn = read_board(crop(image, box), grid, palette)
            except ValueError as exc:
                drawn = None
                failures.append(f"option {o['letter']} unreadable: {exc}")
            if drawn != state:
                failures.append(f"option {o['letter']} does not draw its state")
            if state == final:
                reaching.append(o["letter"])
        if len({tuple(b) for b in boards}) != 4:
            failures.append("two options show the same state")
    if reaching != [record["Answer"]]:
        failures.append(f"options reaching the asked state: {reaching}, answer "
                        f"{record['Answer']}")
    return failures


def _state_json(board: Board) -> list[dict[str, Any]]:
    return [{"colour": c, "cell": list(cell), "heading": h}
            for c, (cell, h) in sorted(board.items())]


def step_start(spec: Spec, answer: OptionData) -> list[dict[str, Any]]:
    return _state_json(_board(spec.start))


def step_next(spec: Spec, answer: OptionData, state: Any, k: int) -> Any:
    """The board after move ``k`` (0-based) from board ``state``; None past the last move."""
    if k >= len(spec.moves):
        return None
    board = {a["colour"]: (tuple(a["cell"]), a["heading"]) for a in state}
    after = simulate(board, [spec.moves[k]], spec.grid)
    return None if after is None else _state_json(after)


def step_goal(spec: Spec, answer: OptionData) -> list[dict[str, Any]]:
    """The board the answer stands for: its own ("state") or the end its moves reach."""
    if answer.arrows is not None:
        return _state_json(_board(answer.arrows))
    if answer.moves != spec.moves:
        return []  # the steps replay the item's moves: they must be the answer's
    return _state_json(_board(spec.end))
