"""Pictures of a split cube stack (CubeAssembly): the complete stack and its pieces in place
on the floor, and loose pieces centred on themselves, each from the front-right above the
back-left, all at one scale; whether their cubes show, and which cubes the complete
stack's picture leaves open.  The generator draws these, the
verifier draws them again to compare with the image.

Every picture stands its cubes on a floor: the stack and the pieces in place on the
checkerboard of the item's space, a piece's columns marked on it by dark tiles (its
shadow: a cube resting on another piece's shows where it stands); a loose piece on the
checkerboard of its footprint's bounding rectangle, its shadow marked the same way.

The composite keeps within ``layout.MAX_PIXELS`` with cubes of
``legibility.MIN_CUBE_EDGE_PX``: each view of the stack is framed to the space's box, the
views of an option to the size the composite has room for (:func:`option_view`); a piece
that does not fit it is not shown.  Views carry no captions (the question names them:
upper from the front-right, lower from the back-left), so every word in the picture is a
composite caption or letter."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from spatialcad.geometry import splitting
from spatialcad.geometry.colours import OPTION_COLOUR, PART_COLOURS, Colour
from spatialcad.geometry.voxels import Voxel, is_connected, is_supported
from spatialcad.render import layout, legibility, unseen
from spatialcad.render.raster import remembered_as
from spatialcad.render.stacks import (
    MARGIN,
    TWO_SIDES,
    Framing,
    box_framing,
    most_visible,
    stack_picture,
)

MIN_VISIBLE = 0.35  # of a cube face's area, in at least one view
DRAFT_SHRINK = 2  # a draft picture is drawn at half the size, without anti-aliasing
VIEW_GAP = 7  # white rows between a picture's two views, a grey rule in the middle
RULE = (190, 190, 190)
OPTIONS = 4
Size = tuple[int, int]


def _extent(points: np.ndarray) -> Size:
    """The size of a view holding ``points`` at the legible scale of both cameras, with
    ``MARGIN`` around (the larger of the two views)."""
    size = np.zeros(2)
    for cam in TWO_SIDES.values():
        uv = cam.project(points)[:, :2]
        size = np.maximum(size, np.ceil((uv.max(axis=0) - uv.min(axis=0))
                                        * legibility.min_scale(cam)) + 2 * MARGIN)
    return int(size[0]), int(size[1])


def view_size(space: Sequence[int]) -> Size:
    """The size of one view of the stack: both views draw the box ``space`` whole with
    legible cubes (render/legibility.py)."""
    return _extent(np.array(list(itertools.product(*[(0.0, float(n)) for n in space]))))


def column(views: Sequence[np.ndarray], gap: int = VIEW_GAP) -> np.ndarray:
    """Views of equal width one above the other, ``gap`` white rows between, a grey rule in
    the middle of them."""
    band = np.full((gap, views[0].shape[1], 3), 255, dtype=np.uint8)
    band[gap // 2, :] = RULE
    parts = [views[0]]
    for view in views[1:]:
        parts += [band, view]
    return np.concatenate(parts, axis=0)


def picture_size(view: Size) -> Size:
    """The size of a picture of two views of size ``view`` one above the other."""
    return view[0], 2 * view[1] + VIEW_GAP


def composite_size(space: Sequence[int], pieces: int, option: Size) -> Size:
    """The composite of a stack split into ``pieces`` in the usual rows, each as wide as
    its panels: its reference row (the complete stack and the given pieces) above four
    options of views ``option`` (one of the arrangements ``layout.compose`` chooses from;
    it takes the smallest that fits)."""
    ref = picture_size(view_size(space))
    opt = picture_size(option)
    width = max(_row_width(ref[0], pieces), _row_width(opt[0], OPTIONS))
    return width, layout.height(ref[1], opt[1])


def _row_width(panel_width: int, count: int) -> int:
    """The width of a composite whose widest row holds ``count`` panels of this width."""
    return count * panel_width + (count - 1) * layout.GAP + 2 * layout.PAD


@lru_cache(maxsize=64)
def option_view(space: tuple[int, ...], pieces: int) -> Size | None:
    """The size of an option's view: the space's view (which holds any piece) where the
    composite has room for it, else, of the views that keep it within
    ``layout.MAX_PIXELS``, the one of most pixels (a narrower options row leaves room for
    taller views); None when not even a cube fits."""
    box = view_size(space)
    if layout.too_large(*composite_size(space, pieces, box)) is None:
        return box
    best: Size | None = None
    for width in range(box[0], 0, -1):
        low, high = 0, box[1]  # the tallest view of this width that fits
        while low < high:
            mid = (low + high + 1) // 2
            fits = layout.too_large(*composite_size(space, pieces, (width, mid))) is None
            low, high = (mid, high) if fits else (low, mid - 1)
        if low and (best is None or width * low > best[0] * best[1]):
            best = (width, low)
    one = _extent(np.array(list(itertools.product((0.0, 1.0), repeat=3))))
    return best if best and best[0] >= one[0] and best[1] >= one[1] else None


def fits_option(piece: Sequence[Voxel], space: Sequence[int], pieces: int) -> bool:
    """Whether a loose piece on its floor (:func:`option_picture`) fits an option's views."""
    room = option_view(tuple(int(n) for n in space), pieces)
    cubes = _at_corner(piece)
    if room is None or not cubes:
        return False
    nx, ny = _floor(cubes)
    floor = [(0, 0, 0), (nx, 0, 0), (0, ny, 0), (nx, ny, 0)]
    points = np.array([*cubes, *floor, *_CORNERS], dtype=float)
    n = len(cubes)
    for cam in TWO_SIDES.values():
        uv = cam.project(points)[:, :2]  # a cube's corners: its origin plus a corner offset
        cube, ground, corner = uv[:n], uv[n:n + 4], uv[n + 4:]
        lo = np.minimum(cube.min(axis=0) + corner.min(axis=0), ground.min(axis=0))
        hi = np.maximum(cube.max(axis=0) + corner.max(axis=0), ground.max(axis=0))
        w, h = np.ceil((hi - lo) * legibility.min_scale(cam)) + 2 * MARGIN
        if w > room[0] or h > room[1]:  # the floor, 0.01 below z = 0, lies in the margin
            return False
    return True


_CORNERS = tuple(itertools.product((0, 1), repeat=3))


def _at_corner(piece: Sequence[Voxel]) -> list[Voxel]:
    """The cubes moved to their minimum corner, sorted (``voxels.normalized`` for the few
    cubes of a piece, without numpy)."""
    cells = {(int(x), int(y), int(z)) for x, y, z in piece}
    lo = [min((c[i] for c in cells), default=0) for i in range(3)]
    return sorted((x - lo[0], y - lo[1], z - lo[2]) for x, y, z in cells)


def _floor(cubes: Sequence[Voxel] | np.ndarray) -> tuple[int, int]:
    """The floor of a piece moved to its minimum corner: its footprint's bounding
    rectangle."""
    return (max(int(c[0]) for c in cubes) + 1, max(int(c[1]) for c in cubes) + 1)


def reference_framings(space: Sequence[int]) -> list[Framing]:
    """The framings of the complete stack and the given pieces (on the box ``space``)."""
    return list(_reference(tuple(int(n) for n in space)))


def option_framings(space: Sequence[int], pieces: int) -> list[Framing]:
    """The options' framings: the reference scale, each piece centred on itself in a view
    of :func:`option_view`."""
    return list(_options(tuple(int(n) for n in space), pieces))


@lru_cache(maxsize=64)
def _reference(space: tuple[int, ...]) -> tuple[Framing, ...]:
    return tuple(box_framing(cam, space, view_size(space)) for cam in TWO_SIDES.values())


@lru_cache(maxsize=64)
def _options(space: tuple[int, ...], pieces: int) -> tuple[Framing, ...]:
    size = option_view(space, pieces)
    if size is None:
        raise ValueError(f"no option view of legible cubes fits the composite of {space}")
    return tuple(Framing(f.cam, f.scale, size) for f in _reference(space))


def legibility_failures(space: Sequence[int], pieces: int, reference: Sequence[Sequence[int]],
                        options: Sequence[Sequence[int]]) -> list[str]:
    """Failures of pictures shown in the composite at the boxes ``reference`` and
    ``options`` whose cubes are too small."""
    sizes = [picture_size(view_size(space))] * len(reference)
    sizes += [picture_size(option_framings(space, pieces)[0].size)] * len(options)
    return [f for i, (box, size) in enumerate(zip([*reference, *options], sizes, strict=True))
            for f in (failure for framing in reference_framings(space)
                      for failure in legibility.edge_failures(
                          f"picture {i + 1}", framing.cam, framing.scale,
                          legibility.shown_factor(box, size)))]


def _picture(cubes: Sequence[Voxel], framings: list[Framing], colour: Colour | None,
             floor: tuple[int, int], draft: bool) -> np.ndarray:
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
          floor: tuple[int, int], draft: bool) -> np.ndarray:
    """The views one above the other; a piece (``colour``) marks its shadow."""
    colours = dict.fromkeys(cubes, colour) if colour else None
    shrink, ssaa = (DRAFT_SHRINK, 1) if draft else (1, 2)
    return column([stack_picture(cubes, f.draft(shrink) if draft else f, colors=colours,
                                 floor=floor, ssaa=ssaa, shadow=colour is not None)
                   for f in framings], max(1, VIEW_GAP // shrink))


def views(picture: np.ndarray, gap: int = VIEW_GAP) -> list[np.ndarray]:
    """The two views of a picture (or of its crop from the composite, at its size)."""
    h = (picture.shape[0] - gap) // 2
    return [picture[:h], picture[h + gap:]]


def reference_pictures(stack: Sequence[Voxel], parts: Sequence[Sequence[Voxel]],
                       space: Sequence[int], *, draft: bool = False) -> list[np.ndarray]:
    """The complete stack (grey) and the given pieces (a colour each, on their shadows) on
    the floor (``draft``: a quick look at them, ``DRAFT_SHRINK`` times smaller, to compare
    with other drafts only)."""
    framings = reference_framings(space)
    floor = (space[0], space[1])
    return [_picture(stack, framings, None, floor, draft)] + [
        _picture(part, framings, PART_COLOURS[i % len(PART_COLOURS)], floor, draft)
        for i, part in enumerate(parts)
    ]


def option_picture(piece: Sequence[Voxel], space: Sequence[int], pieces: int, *,
                   draft: bool = False) -> np.ndarray:
    """A loose piece moved to its minimum corner, on its floor (:func:`_floor`), in the
    options' views of a stack in ``space`` split into ``pieces`` (``draft``: as in
    :func:`reference_pictures`)."""
    cubes = _at_corner(piece)
    return _picture(cubes, option_framings(space, pieces), OPTION_COLOUR, _floor(cubes),
                    draft)


def looks_like(shown: np.ndarray, other: np.ndarray, scale: float) -> bool:
    """Whether an option's picture ``shown`` (at its drawn size) cannot be told from the
    picture ``other`` of another piece: in neither view do they differ in as many pixels
    as a cube must show to count as shown (``unseen.apart``).  A wrong option drawn like
    the missing piece would be a right answer to a solver who sees only its picture."""
    if shown.shape != other.shape:
        return False
    return not any(unseen.apart(a, b, scale)
                   for a, b in zip(views(shown), views(other), strict=True))


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
