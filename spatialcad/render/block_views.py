"""The two views of a BlockMoving state (its coloured cubes from the front-right and the
back-left, beside the axes), and what the generator and the verifier measure on them: which
cube colour each pixel shows, whether every cube shows, where one more cube could stand
unseen, whether two states look different.

Every state of one space is framed alike, so pictures of its states align pixel for pixel.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from spatialcad.geometry.blocks import State
from spatialcad.geometry.colours import BLOCK_COLOURS as PALETTE
from spatialcad.geometry.voxels import Voxel
from spatialcad.render import legibility, unseen
from spatialcad.render.axes import framing_beside_axes, scene_with_axes
from spatialcad.render.camera import Camera
from spatialcad.render.stacks import TWO_SIDES, cube_labels, cube_visibility, most_visible

VIEWS = TWO_SIDES
PANEL = (290, 270)  # the smallest panel; bigger spaces get bigger ones
MIN_VISIBLE = 0.35  # of a cube face's area (scale**2 pixels), in at least one view
MIN_DIFFERENCE = 0.5  # pixels (in face areas) by which a wrong final state must look different


def panel(space: Sequence[int]) -> tuple[int, int]:
    """``PANEL``, or wider and taller in proportion until both views draw the cubes of
    ``space`` legibly (render/legibility.py)."""
    return _panel(tuple(int(n) for n in space))


@cache
def _panel(space: tuple[int, ...]) -> tuple[int, int]:
    width = PANEL[0]
    while True:
        size = (width, round(width * PANEL[1] / PANEL[0]))
        if all(framing_beside_axes(cam, space, size).scale >= legibility.min_scale(cam)
               for cam in VIEWS.values()):
            return size
        width += 2


def legibility_failures(space: Sequence[int], boxes: Sequence[Sequence[int]]) -> list[str]:
    """Failures of panels, in view order per state, shown at ``boxes`` with small cubes."""
    size = panel(space)
    cams = list(VIEWS.values())
    return [f for i, box in enumerate(boxes) for f in legibility.edge_failures(
        f"reference panel {i + 1}", cams[i % 2],
        framing_beside_axes(cams[i % 2], space, size).scale, legibility.shown_factor(box, size))]


def state_pictures(state: State, space: Sequence[int]) -> list[np.ndarray]:
    """The state from each of ``VIEWS`` (the same framing for every state of ``space``)."""
    return [_state_picture(state, cam, space) for cam in VIEWS.values()]


def _state_picture(state: State, cam: Camera, space: Sequence[int]) -> np.ndarray:
    cells = list(state.values())
    colours = {state[c]: PALETTE[c] for c in state}
    return scene_with_axes(cells, colours, cam, space, panel(space))


def drawn_apart(state: State, shown: Sequence[np.ndarray], space: Sequence[int]) -> bool:
    """Whether ``state`` looks different from the state ``shown`` pictures (in ``VIEWS``'
    order, drawn or cut from the composite): in one of the views its picture, shown at
    that picture's size, differs from it in at least as many pixels as a cube must show
    (``unseen.apart_as_shown``).  The views are drawn one at a time, until one differs."""
    return any(unseen.apart_as_shown(
        picture, _state_picture(state, cam, space),
        framing_beside_axes(cam, space, panel(space)).scale)
        for picture, cam in zip(shown, VIEWS.values(), strict=True))


def colour_labels(state: State, space: Sequence[int]) -> list[np.ndarray]:
    """Per view, the colour index (into ``PALETTE``) seen at each pixel, or -1."""
    names = list(PALETTE)
    out = []
    for cam in VIEWS.values():
        labels = cube_labels(list(state.values()), framing_beside_axes(cam, space, panel(space)))
        lookup = np.array([names.index(c) for c in state] + [-1])
        out.append(lookup[labels])
    return out


def all_visible(state: State, space: Sequence[int]) -> bool:
    """Every cube shows at least ``MIN_VISIBLE`` of a face in one of the views."""
    framings = [framing_beside_axes(cam, space, panel(space)) for cam in VIEWS.values()]
    return bool(np.all(most_visible(list(state.values()), framings) >= MIN_VISIBLE))


def hidden_cells(state: State, space: Sequence[int]) -> list[Voxel]:
    """The cells where one more cube (of any colour) could stand, under gravity and inside
    ``space``, while showing fewer pixels than a cube must to count as shown
    (``unseen.tolerance``) in each view: both pictures of the state would look the same
    with it.  Only a column's top cell can hold a standing cube.  A cube shows no less
    alone than beside the others, so those that show with every top cell filled are
    not tried alone."""
    cells = list(state.values())
    heights: dict[tuple[int, int], int] = {}
    for x, y, z in cells:
        heights[(x, y)] = max(heights.get((x, y), 0), z + 1)
    tops = [(x, y, heights.get((x, y), 0)) for x in range(space[0]) for y in range(space[1])
            if heights.get((x, y), 0) < space[2]]
    framings = [framing_beside_axes(cam, space, panel(space)) for cam in VIEWS.values()]

    def hidden(added: list[Voxel]) -> list[bool]:
        seen = np.zeros(len(added), dtype=bool)
        for f in framings:
            counts = np.array(cube_visibility([*cells, *added], f)[len(cells):])
            seen |= counts >= unseen.tolerance(f.scale)
        return [not s for s in seen.tolist()]

    maybe = [c for c, h in zip(tops, hidden(tops), strict=True) if h]
    return [c for c in maybe if hidden([c])[0]]


def looks_different(a: list[np.ndarray], b: list[np.ndarray], space: Sequence[int]) -> bool:
    """Whether the :func:`colour_labels` ``a`` and ``b`` differ in at least
    ``MIN_DIFFERENCE`` cube-face areas of pixels, over both views."""
    scale = framing_beside_axes(VIEWS["front-right"], space, panel(space)).scale
    return sum(int(np.count_nonzero(x != y)) for x, y in zip(a, b, strict=True)) >= (
        MIN_DIFFERENCE * scale**2)
