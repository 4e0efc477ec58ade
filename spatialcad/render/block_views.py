"""The two views of a BlockMoving state (its coloured cubes from the front-right and the
back-left, beside the axes), and what the generator and the verifier measure on them: which
cube colour each pixel shows, whether every cube shows, whether two states look different.

Every state of one space is framed alike, so pictures of its states align pixel for pixel.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spatialcad.geometry.blocks import State
from spatialcad.geometry.colours import BLOCK_COLOURS as PALETTE
from spatialcad.render.axes import framing_beside_axes, scene_with_axes
from spatialcad.render.stacks import TWO_SIDES, cube_labels, most_visible

VIEWS = TWO_SIDES
PANEL = (290, 270)
MIN_VISIBLE = 0.35  # of a cube face's area (scale**2 pixels), in at least one view
MIN_DIFFERENCE = 0.5  # pixels (in face areas) by which a wrong final state must look different


def state_pictures(state: State, space: Sequence[int]) -> list[np.ndarray]:
    """The state from each of ``VIEWS`` (the same framing for every state of ``space``)."""
    cells = list(state.values())
    colours = {state[c]: PALETTE[c] for c in state}
    return [scene_with_axes(cells, colours, cam, space, PANEL) for cam in VIEWS.values()]


def colour_labels(state: State, space: Sequence[int]) -> list[np.ndarray]:
    """Per view, the colour index (into ``PALETTE``) seen at each pixel, or -1."""
    names = list(PALETTE)
    out = []
    for cam in VIEWS.values():
        labels = cube_labels(list(state.values()), framing_beside_axes(cam, space, PANEL))
        lookup = np.array([names.index(c) for c in state] + [-1])
        out.append(lookup[labels])
    return out


def all_visible(state: State, space: Sequence[int]) -> bool:
    """Every cube shows at least ``MIN_VISIBLE`` of a face in one of the views."""
    framings = [framing_beside_axes(cam, space, PANEL) for cam in VIEWS.values()]
    return bool(np.all(most_visible(list(state.values()), framings) >= MIN_VISIBLE))


def looks_different(a: list[np.ndarray], b: list[np.ndarray], space: Sequence[int]) -> bool:
    """Whether the :func:`colour_labels` ``a`` and ``b`` differ in at least
    ``MIN_DIFFERENCE`` cube-face areas of pixels, over both views."""
    scale = framing_beside_axes(VIEWS["front-right"], space, PANEL).scale
    return sum(int(np.count_nonzero(x != y)) for x, y in zip(a, b, strict=True)) >= (
        MIN_DIFFERENCE * scale**2)
