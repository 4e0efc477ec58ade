"""BlockMoving verifier.

Replays every option's moves with its own simulator (an occupancy grid of cube indices;
gravity packs every column down after each move), independent of geometry.blocks.  Proves
that exactly the answer reaches the final state, that every option is a valid sequence,
and (with the task's own pictures, spatialcad/render/block_views.py) that the reference
panels show the two states, that every cube shows in some view, that no cell of the initial
or none of the final state could hide one more cube (issue 35: else a scene with that cube
draws the same pictures, and its moves may differ), and that each wrong option's end state
would look different from the final state: in colours, and drawn (issue 48), against the
stored final-state panels, by at least as many pixels as a cube must show in one of its
views (render/unseen.py's pixel rule).  That the option texts say
what their moves are is the texts check (spatialcad/run/verification.py).

Step-by-step solutions (spatialcad/run/verification.py: check_steps) are replayed one of the
answer's moves at a time with :func:`simulate`, from the initial to the final state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spatialcad.geometry.voxels import Voxel
from spatialcad.render.block_views import (
    all_visible,
    colour_labels,
    drawn_apart,
    hidden_cells,
    legibility_failures,
    looks_different,
    state_pictures,
)
from spatialcad.render.pixels import shows
from spatialcad.tasks.block_moving.spec import OptionData, Spec, parse_option, parse_spec
from spatialcad.verify.base import crop


def simulate(space: Sequence[int], start: Sequence[Voxel],
             moves: Sequence[tuple[int, str]]) -> list[Voxel] | None:
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
    cells = {int(grid[tuple(c)]): (int(c[0]), int(c[1]), int(c[2]))
             for c in np.argwhere(grid >= 0)}
    return [cells[i] for i in range(len(start))]


def _well_formed(space: Sequence[int], cells: Sequence[Voxel]) -> list[str]:
    vs = set(cells)
    problems = []
    if len(vs) != len(cells):
        problems.append("two cubes share a cell")
    if any(not all(0 <= c[i] < space[i] for i in range(3)) for c in vs):
        problems.append("a cube is outside the space")
    if any(z > 0 and (x, y, z - 1) not in vs for x, y, z in vs):
        problems.append("a cube floats")
    return problems


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    space, names = spec.space, spec.colors
    start, final = spec.voxels, spec.final
    failures = []
    if len(set(names)) != len(names):
        failures.append("two cubes share a colour name")
    for what, cells in (("initial", start), ("final", final)):
        failures += [f"{what} state: {p}" for p in _well_formed(space, cells)]
    if failures:
        return failures

    final_look = colour_labels(spec.state(final), space)
    boxes = record["layout"]["reference"]
    if len(boxes) != 2 * len(spec.views):
        return [f"the image has {len(boxes)} reference panels, not {2 * len(spec.views)}"]
    final_shown = [crop(image, box) for box in boxes[len(spec.views):]]
    reached = []
    for o in record["options"]:
        moves = parse_option(o["data"]).moves
        if any(c not in names for c, _ in moves):
            failures.append(f"option {o['letter']} moves a cube that does not exist")
            continue
        end = simulate(space, start, [(names.index(c), d) for c, d in moves])
        if end is None:
            failures.append(f"option {o['letter']} moves a cube out of the space")
            continue
        if end == final:
            reached.append(o["letter"])
        elif not looks_different(colour_labels(spec.state(end), space), final_look, space):
            failures.append(f"option {o['letter']} ends in a state that looks like the final one")
        elif not drawn_apart(spec.state(end), final_shown, space):
            failures.append(f"option {o['letter']} ends in a state drawn like the final state's "
                            "panels: they do not show what makes it wrong")
    if reached != [record["Answer"]]:
        failures.append(f"options reaching the final state: {reached}, answer {record['Answer']}")

    for i, cells in enumerate((start, final)):
        for j, shown in enumerate(state_pictures(spec.state(cells), space)):
            panel = crop(image, boxes[2 * i + j])
            if not shows(panel, shown):
                failures.append(f"reference panel {2 * i + j + 1} does not show its state")
        if not all_visible(spec.state(cells), space):
            failures.append(f"{('initial', 'final')[i]} state: a cube is hidden in both views")
    return failures + _one_more_cube(spec) + legibility_failures(space, boxes)


def _one_more_cube(spec: Spec) -> list[str]:
    """A scene drawing the same pictures with one cube more needs a cell in each state
    where that cube stands unseen; then the pictures do not decide the moves."""
    hide_start = hidden_cells(spec.state(spec.voxels), spec.space)
    hide_final = hidden_cells(spec.state(spec.final), spec.space) if hide_start else []
    if not hide_final:
        return []
    return [f"one more cube could stand unseen at {list(hide_start[0])} in the initial state "
            f"and at {list(hide_final[0])} in the final state"]


def _state_json(spec: Spec, cells: Sequence[Voxel]) -> dict[str, list[int]]:
    return {c: list(v) for c, v in zip(spec.colors, cells, strict=True)}


def step_start(spec: Spec, answer: OptionData) -> dict[str, list[int]]:
    return _state_json(spec, spec.voxels)


def step_next(spec: Spec, answer: OptionData, state: Any, k: int) -> Any:
    """The cells after the answer's move ``k`` (0-based); None past the last move."""
    if k >= len(answer.moves):
        return None
    colour, direction = answer.moves[k]
    cells = [tuple(state[c]) for c in spec.colors]
    after = simulate(spec.space, cells, [(spec.colors.index(colour), direction)])
    return None if after is None else _state_json(spec, after)


def step_goal(spec: Spec, answer: OptionData) -> dict[str, list[int]]:
    return _state_json(spec, spec.final)
