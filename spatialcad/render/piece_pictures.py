"""Pictures of a split cube stack (CubeAssembly): the complete stack and its pieces in place
on the floor, and loose pieces centred on themselves, each from the front-right above the
back-left, all at one scale; whether their cubes show, and which cubes the complete
stack's picture leaves open.  The generator draws these, the
verifier draws them again to compare with the image."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from spatialcad.geometry import splitting
from spatialcad.geometry.colours import OPTION_COLOUR, PART_COLOURS, Colour
from spatialcad.geometry.voxels import Voxel, is_connected, is_supported
from spatialcad.render import legibility, unseen
from spatialcad.render.raster import remembered_as
from spatialcad.render.stacks import (
    LABEL_BAND,
    MARGIN,
    TWO_SIDES,
    Framing,
    box_framing,
    labelled_column,
    most_visible,
    stack_picture,
)

VIEW = (290, 210)  # the smallest view of a picture; pictures show two views one above the other
MIN_VISIBLE = 0.35  # of a cube face's area, in at least one view
DRAFT_SHRINK = 2  # a draft picture is drawn at half the size, without anti-aliasing or labels


def view_size(space: Sequence[int]) -> tuple[int, int]:
    """The size of one view: ``VIEW``, or larger until both views draw the box ``space``
    whole with legible cubes (render/legibility.py)."""
    corners = np.array(list(itertools.product(*[(0.0, float(n)) for n in space])))
    size = np.array(VIEW, dtype=float)
    for cam in TWO_SIDES.values():
        uv = cam.project(corners)[:, :2]
        need = np.ceil((uv.max(axis=0) - uv.min(axis=0)) * legibility.min_scale(cam))
        size = np.maximum(size, need + 2 * MARGIN)
    return int(size[0]), int(size[1])


def reference_framings(space: Sequence[int]) -> list[Framing]:
    """The framings of the complete stack and the given pieces (on the box ``space``)."""
    return list(_framings(tuple(int(n) for n in space))[0])


def option_framings(space: Sequence[int]) -> list[Framing]:
    """The options' framings: the reference scale, each piece centred on itself."""
    return list(_framings(tuple(int(n) for n in space))[1])


@lru_cache(maxsize=64)
def _framings(space: tuple[int, ...]) -> tuple[tuple[Framing, ...], tuple[Framing, ...]]:
    """(reference framings, option framings) of the box ``space``, worked out once."""
    reference = tuple(box_framing(cam, space, view_size(space)) for cam in TWO_SIDES.values())
    return reference, tuple(Framing(f.cam, f.scale, f.size) for f in reference)


def picture_size(space: Sequence[int]) -> tuple[int, int]:
    """The size of a picture (two labelled views one above the other)."""
    w, h = view_size(space)
    return w, 2 * (h + LABEL_BAND)


def legibility_failures(space: Sequence[int], boxes: Sequence[Sequence[int]]) -> list[str]:
    """Failures of pictures shown in the composite at ``boxes`` whose cubes are too small."""
    size = picture_size(space)
    return [f for i, box in enumerate(boxes) for f in (
        failure for framing in reference_framings(space)
        for failure in legibility.edge_failures(
            f"picture {i + 1}", framing.cam, framing.scale, legibility.shown_factor(box, size)))]


def _picture(cubes: Sequence[Voxel], framings: list[Framing], colour: Colour | None,
             floor: tuple[int, int] | None, draft: bool) -> np.ndarray:
    """The picture; a full one is remembered by the renderer's memo under its piece and
    pose: drawn again (the verifier's), it skips building its meshes and their keys
    (raster.remembered).  A draft is hardly ever drawn twice (17 of 3,489 a run at levels
    0-2 n 40), so keeping it would cost more (its key, a copy, memory) than it saves."""
    cells = tuple((int(x), int(y), int(z)) for x, y, z in cubes)
    if draft:
        return _draw(cells, framings, colour, floor, draft)
    return remembered_as(("piece picture", cells, tuple(framings), colour, floor, draft),
                         lambda: _draw(cells, framings, colour, floor, draft))


def _draw(cubes: Sequence[Voxel], framings: list[Framing], colour: Colour | None,
          floor: tuple[int, int] | None, draft: bool) -> np.ndarray:
    colours = dict.fromkeys(cubes, colour) if colour else None
    if draft:
        return labelled_column(
            [stack_picture(cubes, f.draft(DRAFT_SHRINK), colors=colours, floor=floor, ssaa=1)
             for f in framings], [None] * len(framings), LABEL_BAND // DRAFT_SHRINK)
    return labelled_column(
        [stack_picture(cubes, f, colors=colours, floor=floor) for f in framings],
        [f"from the {name}" for name in TWO_SIDES],
    )


def reference_pictures(stack: Sequence[Voxel], parts: Sequence[Sequence[Voxel]],
                       space: Sequence[int], *, draft: bool = False) -> list[np.ndarray]:
    """The complete stack (grey) and the given pieces (a colour each) on the floor
    (``draft``: a quick look at them, ``DRAFT_SHRINK`` times smaller, to compare with other
    drafts only)."""
    framings = reference_framings(space)
    floor = (space[0], space[1])
    return [_picture(stack, framings, None, floor, draft)] + [
        _picture(part, framings, PART_COLOURS[i % len(PART_COLOURS)], floor, draft)
        for i, part in enumerate(parts)
    ]


def option_picture(piece: Sequence[Voxel], space: Sequence[int], *, draft: bool = False
                   ) -> np.ndarray:
    """A loose piece (``draft``: as in :func:`reference_pictures`)."""
    return _picture(piece, option_framings(space), OPTION_COLOUR, None, draft)


def visible(cubes: Sequence[Voxel], framings: list[Framing]) -> bool:
    """Every cube shows at least ``MIN_VISIBLE`` of a face in one of the views."""
    return bool(np.all(most_visible(cubes, framings) >= MIN_VISIBLE))


def column_tops(stack: Sequence[Voxel]) -> list[Voxel]:
    top: dict[tuple[int, int], Voxel] = {}
    for x, y, z in stack:
        if (x, y) not in top or z > top[(x, y)][2]:
            top[(x, y)] = (x, y, z)
    return sorted(top.values())


def tops_visible(stack: Sequence[Voxel], framings: list[Framing]) -> bool:
    """The top cube of every column shows (the rest of a column follows by gravity)."""
    seen = dict(zip(stack, most_visible(stack, framings), strict=True))
    return all(seen[t] >= MIN_VISIBLE for t in column_tops(stack))


def unseen_changes(stack: Sequence[Voxel], parts: Sequence[Sequence[Voxel]],
                   space: Sequence[int]) -> list[unseen.Change]:
    """The single-cube changes of the complete stack its picture does not show (render/
    unseen.py) that leave a scene the question allows: the stack standing and connected,
    the given pieces whole (each is drawn in its own panel) and the rest one piece.  Each
    changes the missing piece's size, so the answer: the pictures must leave none.

    Remembered by the cubes as given (the order they are drawn in) and the space: the
    verifier asks again about the stack the generator has just asked about."""
    return list(_unseen_changes(
        tuple((int(x), int(y), int(z)) for x, y, z in stack),
        tuple(tuple((int(x), int(y), int(z)) for x, y, z in part) for part in parts),
        (int(space[0]), int(space[1]), int(space[2]))))


@lru_cache(maxsize=16)
def _unseen_changes(stack: tuple[Voxel, ...], parts: tuple[tuple[Voxel, ...], ...],
                    space: tuple[int, int, int]) -> tuple[unseen.Change, ...]:
    pictures = unseen.framed(reference_framings(space), floor=(space[0], space[1]))
    return tuple(unseen.unseen_changes(stack, pictures, scene_rule(stack, parts)))


def scene_rule(stack: Sequence[Voxel], parts: Sequence[Sequence[Voxel]]
               ) -> Callable[[list[Voxel]], bool]:
    """Whether cubes make a scene the question allows beside the given ``parts``: the
    given pieces whole, the cubes standing and connected and the rest one piece.

    For cubes one cube away from an allowed ``stack`` (each change :func:`unseen_changes`
    tries) the same answer from what is known of ``stack``: an added cube stands on the
    floor or on a cube and touches the rest; a removed one is not given, bears no cube and
    splits neither the stack nor the rest (:func:`splitting.cut_cubes`)."""
    covered = {c for part in parts for c in part}

    def allowed(cubes: list[Voxel]) -> bool:
        have = set(cubes)
        return (covered <= have and is_supported(have) and is_connected(have)
                and is_connected(have - covered))

    whole = set(stack)
    rest = whole - covered
    if not allowed(list(whole)):
        return allowed
    stack_cut, rest_cut = splitting.cut_cubes(whole), splitting.cut_cubes(rest)

    def one_cube_away(cubes: list[Voxel]) -> bool:
        have = set(cubes)
        if len(have) == len(whole) + 1 and whole < have:
            (x, y, z), = have - whole
            near = splitting.neighbours((x, y, z))
            return ((z == 0 or (x, y, z - 1) in whole) and any(n in whole for n in near)
                    and any(n in rest for n in near))
        if len(have) == len(whole) - 1 and have < whole:
            (x, y, z), = whole - have
            gone = (x, y, z)
            return (gone not in covered and (x, y, z + 1) not in whole and len(rest) > 1
                    and gone not in stack_cut and gone not in rest_cut)
        return allowed(cubes)
    return one_cube_away
