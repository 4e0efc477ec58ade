"""Coloured cube stacks with gravity: the block-moving simulator (after SpatialViz-Bench
Alg. 20).

A state maps each cube's colour name to its cell ``(x, y, z)`` (z up) inside a space of
``X x Y x Z`` cells.  A move ``(colour, direction)`` shifts that cube one cell along
``+x, -x, +y, -y, +z`` or ``-z``; if the target cell holds a cube, the two swap places.
Then every cube that rests neither on the ground nor on another cube falls until it does.
A move is invalid when its cube does not exist or its target leaves the space.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spatialcad.geometry.voxels import Voxel

State = dict[str, Voxel]
Move = tuple[str, str]

DIRECTIONS: dict[str, Voxel] = {
    "+x": (1, 0, 0), "-x": (-1, 0, 0),
    "+y": (0, 1, 0), "-y": (0, -1, 0),
    "+z": (0, 0, 1), "-z": (0, 0, -1),
}


def inside(cell: Voxel, space: Sequence[int]) -> bool:
    return all(0 <= cell[i] < space[i] for i in range(3))


def settle(state: State) -> State:
    """Let every unsupported cube fall, lowest cubes first, one cell at a time."""
    out = dict(state)
    taken = set(out.values())
    for colour in sorted(out, key=lambda c: out[c][2]):
        x, y, z = out[colour]
        taken.discard((x, y, z))
        while z > 0 and (x, y, z - 1) not in taken:
            z -= 1
        out[colour] = (x, y, z)
        taken.add((x, y, z))
    return out


def apply_move(state: State, move: Move, space: Sequence[int]) -> State | None:
    """The settled state after ``move``, or None when the move is invalid."""
    colour, direction = move
    if colour not in state or direction not in DIRECTIONS:
        return None
    src = state[colour]
    (x, y, z), (dx, dy, dz) = src, DIRECTIONS[direction]
    dst = (x + dx, y + dy, z + dz)
    if not inside(dst, space):
        return None
    out = dict(state)
    for other, cell in state.items():
        if cell == dst:
            out[other] = src
    out[colour] = dst
    return settle(out)


def run(state: State, moves: Sequence[Move], space: Sequence[int]) -> State | None:
    """The state after all ``moves`` in order, or None if one of them is invalid."""
    current: State | None = state
    for move in moves:
        if current is None:
            return None
        current = apply_move(current, move, space)
    return current


def changing_moves(state: State, space: Sequence[int]) -> list[Move]:
    """Valid moves that change the state (a lone cube lifted by ``+z`` just falls back)."""
    return [
        (colour, d) for colour in sorted(state) for d in DIRECTIONS
        if (after := apply_move(state, (colour, d), space)) is not None and after != state
    ]


def random_state(
    rng: np.random.Generator, space: Sequence[int], colours: Sequence[str]
) -> State:
    """Drop the cubes one by one onto random columns that are not yet full; a column is
    picked with weight ``1 + 2 * height``, so the cubes pile up rather than spread flat."""
    heights = np.zeros((space[0], space[1]), dtype=int)
    state: State = {}
    for colour in colours:
        free = np.argwhere(heights < space[2])
        if len(free) == 0:
            raise ValueError("more cubes than cells")
        weights = 1.0 + 2.0 * heights[free[:, 0], free[:, 1]]
        x, y = (int(v) for v in free[int(rng.choice(len(free), p=weights / weights.sum()))])
        state[colour] = (x, y, int(heights[x, y]))
        heights[x, y] += 1
    return state


def random_moves(
    rng: np.random.Generator, state: State, space: Sequence[int], k: int
) -> list[Move]:
    """``k`` moves, each drawn among the valid moves that lead to a state not visited yet
    (so no move is wasted or undone later)."""
    moves: list[Move] = []
    seen = [state]
    for _ in range(k):
        options = [m for m in changing_moves(state, space)
                   if apply_move(state, m, space) not in seen]
        if not options:
            raise ValueError("every move leads back to a visited state")
        move = options[int(rng.integers(len(options)))]
        after = apply_move(state, move, space)
        assert after is not None  # changing_moves lists valid moves only
        moves.append(move)
        seen.append(after)
        state = after
    return moves
