"""BlockMoving verifier.

Replays every option's moves with its own simulator (an occupancy grid of cube indices;
gravity packs every column down after each move), independent of geometry.blocks.  Proves
that exactly the answer reaches the final state, that every option is a valid sequence,
that the option texts say what their moves are, and (with the task's own pictures) that the
reference panels show the two states, that every cube shows in some view, and that each
wrong option's end state would look different from the final state.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from spatialcad.tasks.block_moving.generate import (
    all_visible,
    colour_labels,
    looks_different,
    state_pictures,
)
from spatialcad.verify.base import crop

MOVE_TEXT = re.compile(r"([a-z]+) cube ([+-][xyz])")


def simulate(space: list[int], start: list[list[int]], moves: list[tuple[int, str]]):
    """Cells (aligned with ``start``) after the moves ``(cube index, "+x")``, or None when
    a move leaves the space."""
    grid = np.full(space, -1, dtype=int)
    for i, cell in enumerate(start):
        grid[tuple(cell)] = i
    for cube, direction in moves:
        src = np.argwhere(grid == cube)[0]
        dst = src.copy()
        dst["xyz".index(direction[1])] += 1 if direction[0] == "+" else -1
        if np.any(dst < 0) or np.any(dst >= space):
            return None
        grid[tuple(src)], grid[tuple(dst)] = grid[tuple(dst)], cube
        for x in range(space[0]):
            for y in range(space[1]):
                column = grid[x, y][grid[x, y] >= 0]
                grid[x, y] = -1
                grid[x, y, : len(column)] = column
    cells = {int(grid[tuple(c)]): [int(v) for v in c] for c in np.argwhere(grid >= 0)}
    return [cells[i] for i in range(len(start))]


def _well_formed(space: list[int], cells: list[list[int]]) -> list[str]:
    vs = {tuple(c) for c in cells}
    problems = []
    if len(vs) != len(cells):
        problems.append("two cubes share a cell")
    if any(not all(0 <= c[i] < space[i] for i in range(3)) for c in vs):
        problems.append("a cube is outside the space")
    if any(z > 0 and (x, y, z - 1) not in vs for x, y, z in vs):
        problems.append("a cube floats")
    return problems


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = record["spec"]
    space, names = spec["space"], spec["colors"]
    start, final = spec["voxels"], spec["final"]
    failures = []
    if len(set(names)) != len(names):
        failures.append("two cubes share a colour name")
    for what, cells in (("initial", start), ("final", final)):
        failures += [f"{what} state: {p}" for p in _well_formed(space, cells)]
    if failures:
        return failures

    def as_state(cells: list[list[int]]) -> dict[str, tuple[int, int, int]]:
        return {c: (v[0], v[1], v[2]) for c, v in zip(names, cells, strict=True)}

    final_look = colour_labels(as_state(final), space)
    reached = []
    for o, text in zip(record["options"], record["Choices"], strict=True):
        moves = [tuple(m) for m in o["data"]["moves"]]
        if [tuple(m) for m in MOVE_TEXT.findall(text)] != moves or MOVE_TEXT.sub("", text).strip(
                ", ") != "":
            failures.append(f"option {o['letter']} text {text!r} is not its moves")
        if any(c not in names for c, _ in moves):
            failures.append(f"option {o['letter']} moves a cube that does not exist")
            continue
        end = simulate(space, start, [(names.index(c), d) for c, d in moves])
        if end is None:
            failures.append(f"option {o['letter']} moves a cube out of the space")
            continue
        if end == final:
            reached.append(o["letter"])
        elif not looks_different(colour_labels(as_state(end), space), final_look, space):
            failures.append(f"option {o['letter']} ends in a state that looks like the final one")
    if reached != [record["Answer"]]:
        failures.append(f"options reaching the final state: {reached}, answer {record['Answer']}")

    boxes = record["layout"]["reference"]
    for i, cells in enumerate((start, final)):
        for j, shown in enumerate(state_pictures(as_state(cells), space)):
            panel = crop(image, boxes[2 * i + j])
            if panel.shape != shown.shape or np.abs(panel.astype(int) - shown).mean() > 1.0:
                failures.append(f"reference panel {2 * i + j + 1} does not show its state")
        if not all_visible(as_state(cells), space):
            failures.append(f"{('initial', 'final')[i]} state: a cube is hidden in both views")
    return failures
