"""Stacks a set of pictures cannot tell apart: the single-cube changes no picture shows.

A cube is seen in a picture when at least ``legibility.MIN_SHOWN`` of a face's area of it
is (``legibility.shown_cells``); a cube added at an empty cell is seen when it would show
as much (``legibility.gap_shows``).  Removing a cube changes only the pixels where it is
the nearest surface, and adding one only those where it would be: so a change no picture
shows draws the same pictures (up to slivers below the threshold), and a key that the
change would overturn is not decided by what the pictures show.

``support`` is the task's rule for which stacks may stand in the scene (face-connected,
on the ground under gravity, ...): a change it refuses is not a rival scene.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from spatialcad.geometry.voxels import Voxel
from spatialcad.render import legibility
from spatialcad.render.camera import Camera

View = tuple[Camera, float]  # a picture's camera and pixels per unit
Support = Callable[[list[Voxel]], bool]
NEIGHBOURS = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))


def face_neighbours(cubes: Sequence[Voxel]) -> list[Voxel]:
    """The empty cells sharing a face with a cube of the stack, sorted."""
    have = set(cubes)
    return sorted({(x + dx, y + dy, z + dz) for x, y, z in have for dx, dy, dz in NEIGHBOURS}
                  - have)


def unseen_changes(cubes: Sequence[Voxel], views: Sequence[View], support: Support,
                   addable: Sequence[Voxel] | None = None) -> Iterator[tuple[str, Voxel]]:
    """Every ("remove" | "add", cell) that no one of ``views`` shows and that leaves a stack
    ``support`` accepts.  ``addable``: the empty cells a cube may be added at (default: the
    face neighbours of the stack)."""
    stack = [(int(x), int(y), int(z)) for x, y, z in cubes]
    seen = set().union(*(legibility.shown_cells(stack, cam, scale) for cam, scale in views))
    for cell in stack:
        rest = [v for v in stack if v != cell]
        if cell not in seen and rest and support(rest):
            yield "remove", cell
    for cell in face_neighbours(stack) if addable is None else addable:
        grown = [*stack, cell]
        if support(grown) and not any(legibility.gap_shows(stack, cell, cam, scale)
                                      for cam, scale in views):
            yield "add", cell


def changed(cubes: Sequence[Voxel], change: tuple[str, Voxel]) -> list[Voxel]:
    """The stack after one change of :func:`unseen_changes`."""
    how, cell = change
    stack = [(int(x), int(y), int(z)) for x, y, z in cubes]
    return [v for v in stack if v != cell] if how == "remove" else [*stack, cell]


def describe(change: tuple[str, Voxel]) -> str:
    how, cell = change
    return f"{'removing' if how == 'remove' else 'adding'} a cube at {list(cell)}"
