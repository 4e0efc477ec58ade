"""Stacks a set of pictures cannot tell apart: the single-cube changes no picture shows.

A change (a cube removed, or added at an empty face neighbour of the stack) is unseen when
every reference picture of the changed stack, drawn as the task draws it, differs from the
stack's own in fewer pixels than a cube must show to count as shown
(``legibility.MIN_SHOWN`` of a face's area, at least ``legibility.MIN_SHOWN_PX``).  Drawing
the pictures, not only counting a cube's visible pixels, also catches a cube that shows
but whose removal reveals a look-alike behind it: a cube one step behind along an
isometric view's axis, or the next cube down a column in a top view.

Only the pixels around the changed cell can change while the picture stays where it is,
so a picture is compared in a window around the cell (one sample per pixel); a change
that moves the outline of the stack moves or rescales the whole picture, which shows.
Where each picture lies is compared first, for every picture, so no window is drawn for a
change that moves one (:class:`Placed`; the same decisions, fewer windows), nor for one
that a true isometric view's triangle lattice proves shown (:class:`_Lattice`: enough
pixels clear of every edge change their face's fill; the same decisions).  For the same
reason a change compares first the picture whose eye it lies nearest to, and a caller that
only asks whether there is an unseen change (:func:`first_unseen`) tries the cells the
stack covers first.

A key that an unseen change would overturn is not decided by what the pictures show
(issue 35).  ``support`` is the task's rule for which stacks may stand in its scene
(face-connected, standing under gravity, ...): a change it refuses is no rival scene.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np

from spatialcad.geometry.colours import Colour
from spatialcad.geometry.voxels import Voxel, normalized, view_labels
from spatialcad.render import legibility, raster
from spatialcad.render.camera import Camera, camera
from spatialcad.render.opencv import cv2
from spatialcad.render.pixels import pixels_differing
from spatialcad.render.stacks import Framing, isometric_scale, stack_picture

# A picture of a stack seen around a cell: where the picture lies (the stack's outline,
# which places and sizes it), and what it shows around the cell; comparable between
# stacks one change apart.  A Picture: how one is drawn, and how many of its pixels may
# differ without the change showing.
Seen = tuple[tuple[float, ...], np.ndarray]
Draw = Callable[[list[Voxel], Voxel], Seen]
Picture = tuple[Draw, float]
Support = Callable[[list[Voxel]], bool]
Change = tuple[str, Voxel]  # ("remove" | "add", cell)
NEIGHBOURS = ((1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1))
EDGE_PX = 4  # room for a drawn edge's width beyond a cube's outline
SHADE = 40  # a pixel differs when a channel differs by more (not anti-aliasing noise)
CORNERS = np.array(list(itertools.product((0, 1), repeat=3)))


def face_neighbours(cubes: Sequence[Voxel]) -> list[Voxel]:
    """The empty cells sharing a face with a cube of the stack, sorted."""
    have = set(cubes)
    return sorted({(x + dx, y + dy, z + dz) for x, y, z in have for dx, dy, dz in NEIGHBOURS}
                  - have)


def changed(cubes: Sequence[Voxel], change: Change) -> list[Voxel]:
    """The stack after one change."""
    how, cell = change
    stack = [(int(x), int(y), int(z)) for x, y, z in cubes]
    return [v for v in stack if v != cell] if how == "remove" else [*stack, cell]


def describe(change: Change) -> str:
    how, cell = change
    return f"{'removing' if how == 'remove' else 'adding'} a cube at {list(cell)}"


def tolerance(scale: float) -> float:
    """Fewer pixels than a cube must show to count as shown, at ``scale`` px per unit."""
    return max(float(legibility.MIN_SHOWN_PX), legibility.MIN_SHOWN * scale**2)


def alike(a: Seen, b: Seen, limit: float) -> bool:
    """Two pictures lie alike and differ in fewer than ``limit`` pixels (RGB: by more than
    ``SHADE`` in a channel; cell-code grids: in any code)."""
    if a[0] != b[0] or a[1].shape != b[1].shape:
        return False
    if a[1].ndim == 3:
        return pixels_differing(a[1], b[1], SHADE) < limit
    return int(np.count_nonzero(a[1] != b[1])) < limit


def apart(a: np.ndarray, b: np.ndarray, scale: float) -> bool:
    """Whether two pictures of one size, drawn at ``scale`` px per unit, differ (by more
    than ``SHADE`` in a channel) in at least as many pixels as a cube must show to count as
    shown (:func:`tolerance`)."""
    return pixels_differing(a, b, SHADE) >= tolerance(scale)


def apart_as_shown(shown: np.ndarray, drawn: np.ndarray, scale: float) -> bool:
    """Whether ``drawn``, a picture drawn at ``scale`` px per unit, shown at the size of
    ``shown`` (resized as the composite resizes a panel) differs from ``shown`` by
    :func:`apart` at the scale shown: a solver comparing the two sees a difference."""
    height, width = shown.shape[:2]
    factor = min(width / drawn.shape[1], height / drawn.shape[0])
    if drawn.shape != shown.shape:
        drawn = cv2.resize(drawn, (width, height), interpolation=cv2.INTER_AREA)
    return apart(shown, drawn, scale * factor)


def drawn_alike(shown: np.ndarray, cubes: Sequence[Voxel], rivals: Iterable[Sequence[Voxel]],
                framing: Framing, colour: Colour | None = None) -> tuple[Voxel, ...] | None:
    """The first of ``rivals`` whose picture cannot be told from ``shown``, the picture of
    ``cubes`` drawn in ``framing`` (without a centre: each picture centred on its own
    stack's outline; cubes in ``colour``, else grey) and shown at its size or resized:
    the rival drawn alike (and resized alike) differs from it in fewer than
    :func:`tolerance` pixels at the scale shown.  None when every rival's picture shows
    a difference.

    A rival of another outline than ``cubes`` lies elsewhere in its picture, which
    differs by a whole strip of cubes, and is not drawn (as :func:`unseen_changes`
    refuses a change that moves the outline).  Each drawn rival is remembered by the
    renderer's memo, so an item's verifier asking again draws nothing."""
    if framing.center is not None:
        raise ValueError("drawn_alike compares pictures centred on their own stacks")
    where = _spans(cubes, framing.cam)
    for rival in rivals:
        cells = tuple((int(x), int(y), int(z)) for x, y, z in rival)
        if _spans(cells, framing.cam) != where:
            continue
        colors = None if colour is None else dict.fromkeys(cells, colour)
        drawn = raster.remembered_as(
            ("rival picture", cells, colour, framing),
            partial(stack_picture, cells, framing, colors=colors))
        if not apart_as_shown(shown, drawn, framing.scale):
            return cells
    return None


def change_unseen(cubes: Sequence[Voxel], change: Change, pictures: Sequence[Picture]) -> bool:
    """Whether one change of ``cubes`` draws every one of ``pictures`` alike (as
    :func:`unseen_changes` decides it, whatever stacks the scene allows)."""
    stack = [(int(x), int(y), int(z)) for x, y, z in cubes]
    return next(_unseen(stack, [change], pictures, lambda _: True), None) is not None


# Whether a change moves a picture (``place(changed(stack, change)) != place(stack)``),
# worked out sooner.
Moved = Callable[[list[Voxel], Change], bool]
# Whether the windows of a stack and of the stack after a change provably differ in at
# least ``limit`` pixels (True), drawing nothing; False: undecided.
Apart = Callable[[list[Voxel], Change, float], bool]


@dataclass(frozen=True)
class Placed:
    """A :data:`Draw` in two steps: where a stack's picture lies (cheap), and the window
    around a cell (drawn).  Lets :func:`unseen_changes` refuse a change that moves the
    picture without drawing any window, and (with ``apart``) one whose windows provably
    differ."""

    place: Callable[[list[Voxel]], tuple[float, ...]]
    window: Callable[[list[Voxel], Voxel], np.ndarray]
    cam: Camera | None = None  # the camera it is drawn with, when one (see _nearest_first)
    apart: Apart | None = None
    moved: Moved | None = None

    def __call__(self, cubes: list[Voxel], cell: Voxel) -> Seen:
        return self.place(cubes), self.window(cubes, cell)


def unseen_changes(cubes: Sequence[Voxel], pictures: Sequence[Picture],
                   support: Support) -> Iterator[Change]:
    """Every change (removing a cube, adding one at a face neighbour) that leaves a stack
    ``support`` accepts and draws every one of ``pictures`` alike.

    The same changes as testing ``alike(draw(other, cell), draw(stack, cell), limit)`` for
    every picture, only cheaper: ``alike`` is false whenever two pictures lie apart, and
    the test of every picture is a conjunction of pure functions, so where each
    :class:`Placed` picture lies is compared first, for all of them, then whether one of
    them provably differs (``Placed.apart``), and a window is drawn only for a change
    that neither moves nor provably changes any."""
    stack = [(int(x), int(y), int(z)) for x, y, z in cubes]
    yield from _unseen(stack, _changes(stack), pictures, support)


def first_unseen(cubes: Sequence[Voxel], pictures: Sequence[Picture],
                 support: Support) -> Change | None:
    """One of :func:`unseen_changes`, or None when there is none (the same answer to
    whether there is one), found sooner: the changes at cells that stack cubes cover in
    more of the pictures (:func:`_covered`) are tried first."""
    stack = [(int(x), int(y), int(z)) for x, y, z in cubes]
    tried = _changes(stack)
    if tried:
        hidden = _covered(stack, [cell for _, cell in tried], pictures)
        tried = [tried[i] for i in sorted(range(len(tried)), key=lambda i: -hidden[i])]
    return next(_unseen(stack, tried, pictures, support), None)


def _changes(stack: list[Voxel]) -> list[Change]:
    """Every single-cube change of a stack: each cube removed, then a cube added at each
    empty face neighbour (sorted); none of an empty stack."""
    if not stack:
        return []
    return [*(("remove", v) for v in sorted(stack)),
            *(("add", v) for v in face_neighbours(stack))]


def _covered(stack: list[Voxel], cells: list[Voxel], pictures: Sequence[Picture]
             ) -> list[int]:
    """Per cell, in how many of the pictures drawn with a camera a cube of the stack lies in
    front of the cell's centre (within half a unit of it on screen): a likely hiding
    place."""
    counts = np.zeros(len(cells), dtype=int)
    centres, at = np.array(stack, dtype=float) + 0.5, np.array(cells, dtype=float) + 0.5
    for draw, _ in pictures:
        if isinstance(draw, Placed) and draw.cam:
            p, q = draw.cam.project(centres), draw.cam.project(at)
            near = np.all(np.abs(q[:, None, :2] - p[None, :, :2]) < 0.5, axis=2)
            counts += np.any(near & (p[None, :, 2] < q[:, None, 2] - 1e-9), axis=1)
    return [int(c) for c in counts]


def _unseen(stack: list[Voxel], tried: list[Change], pictures: Sequence[Picture],
            support: Support) -> Iterator[Change]:
    """The changes of ``tried`` (in order) that :func:`unseen_changes` yields."""
    if not tried:
        return
    moves = [draw.moved or _moves(draw.place, stack) for draw, _ in pictures
             if isinstance(draw, Placed)]
    proofs = [(draw.apart, limit) for draw, limit in pictures
              if isinstance(draw, Placed) and draw.apart is not None]
    order = _nearest_first(stack, pictures)
    for change in tried:
        how, cell = change
        if (how == "add" or any(v != cell for v in stack)) and not any(
                moved(stack, change) for moved in moves) and not any(
                apart(stack, change, limit) for apart, limit in proofs):
            # the changed stack (not empty), made only for a change neither test refuses
            other = [v for v in stack if v != cell] if how == "remove" else [*stack, cell]
            if support(other) and all(_same_window(draw, other, stack, cell, limit)
                                      for draw, limit in order(cell)):
                yield change


def _moves(place: Callable[[list[Voxel]], tuple[float, ...]], stack: list[Voxel]) -> Moved:
    """:data:`Moved` by placing the changed stack."""
    where = place(stack)
    return lambda cubes, change: place(changed(cubes, change)) != where


def _nearest_first(stack: list[Voxel], pictures: Sequence[Picture]
                   ) -> Callable[[Voxel], Sequence[Picture]]:
    """The order to compare ``pictures`` in around a cell: when each is drawn with a camera,
    those whose eye the cell lies nearest to (its depth against the middle of the stack's
    depths) first, as a change there is the likelier to show in them and the fewer windows
    are drawn (3DRotation's two opposite corners: 18% fewer); else the order given.  Every
    picture must draw alike, so the order decides nothing."""
    cams = [draw.cam for draw, _ in pictures if isinstance(draw, Placed) and draw.cam]
    if len(pictures) < 2 or len(cams) < len(pictures):
        return lambda cell: pictures
    depths = [cam.project(np.array(stack, dtype=float) + 0.5)[:, 2] for cam in cams]
    middles = [(float(d.min()) + float(d.max())) / 2.0 for d in depths]

    def order(cell: Voxel) -> Sequence[Picture]:
        at = np.array(cell, dtype=float) + 0.5
        near = [float(cam.project(at)[0, 2]) - mid
                for cam, mid in zip(cams, middles, strict=True)]
        return [pictures[i] for i in sorted(range(len(pictures)), key=near.__getitem__)]
    return order


def _same_window(draw: Draw, other: list[Voxel], stack: list[Voxel], cell: Voxel,
                 limit: float) -> bool:
    """``alike(draw(other, cell), draw(stack, cell), limit)``, knowing a :class:`Placed`
    picture lies alike in both."""
    if isinstance(draw, Placed):
        return alike(((), draw.window(other, cell)), ((), draw.window(stack, cell)), limit)
    return alike(draw(other, cell), draw(stack, cell), limit)


def _outline(cubes: Sequence[Voxel], cam: Camera) -> tuple[float, ...]:
    """The least and greatest projected (u, v) of the cubes' corners, rounded to 9 places:
    the extremes of each cube's own (:func:`_corner_bounds`), the same numbers."""
    return _rounded(_extremes(_bounds(cubes, cam)))


def _spans(cubes: Sequence[Voxel], cam: Camera) -> tuple[float, ...]:
    """The width and height of the cubes' projected outline, rounded like :func:`_outline`:
    pictures centred on their outlines place stacks of equal spans alike."""
    lo_u, lo_v, hi_u, hi_v = _extremes(_bounds(cubes, cam))
    return _rounded((hi_u - lo_u, hi_v - lo_v, 0.0, 0.0))[:2]


def _bounds(cubes: Sequence[Voxel], cam: Camera) -> list[Bounds]:
    """Each cube's :func:`_corner_bounds`, those not yet there worked out first."""
    bounds = _corner_bounds(cam)
    cells = [(int(x), int(y), int(z)) for x, y, z in cubes]
    new = [c for c in dict.fromkeys(cells) if c not in bounds]
    if new:
        uv = cam.project((np.array(new)[:, None, :] + CORNERS[None]).reshape(-1, 3))[:, :2]
        uv = uv.reshape(len(new), len(CORNERS), 2)
        for cell, lo, hi in zip(new, uv.min(axis=1).tolist(), uv.max(axis=1).tolist(),
                                strict=True):
            bounds[cell] = (*lo, *hi)
    return [bounds[c] for c in cells]


Bounds = tuple[float, float, float, float]  # least u, least v, greatest u, greatest v


def _extremes(rows: Sequence[Bounds]) -> Bounds:
    return (min(r[0] for r in rows), min(r[1] for r in rows),
            max(r[2] for r in rows), max(r[3] for r in rows))


def _rounded(extremes: Bounds) -> tuple[float, ...]:
    return tuple(np.array(extremes).round(9).tolist())


class _Outlines:
    """:data:`Moved` for pictures placed by :func:`_outline`, from the stack's own
    extremes: a cube added moves one only beyond it, and a cube removed only one it
    attains (the same numbers as placing the changed stack)."""

    def __init__(self, cam: Camera) -> None:
        self.cam = cam
        self._last: tuple[tuple[Voxel, ...], dict[Voxel, Bounds], Bounds] | None = None

    def moved(self, stack: list[Voxel], change: Change) -> bool:
        key = tuple(stack)
        if self._last is None or self._last[0] != key:
            rows = dict(zip(key, _bounds(key, self.cam), strict=True))
            self._last = (key, rows, _extremes(list(rows.values())))
        _, rows, extremes = self._last
        how, cell = change
        cube = rows[cell] if how == "remove" else _bounds([cell], self.cam)[0]
        if how == "add":
            if (cube[0] >= extremes[0] and cube[1] >= extremes[1] and cube[2] <= extremes[2]
                    and cube[3] <= extremes[3]):
                return False  # within the extremes: they stay
            after = _extremes([extremes, cube])
        else:
            if (cube[0] > extremes[0] and cube[1] > extremes[1] and cube[2] < extremes[2]
                    and cube[3] < extremes[3]):
                return False  # attains none of them
            after = _extremes([r for c, r in rows.items() if c != cell])
        return after != extremes and _rounded(after) != _rounded(extremes)


@lru_cache(maxsize=16)
def _corner_bounds(cam: Camera) -> dict[Voxel, Bounds]:
    """Per cell seen so far, the least and greatest projected (u, v) of its corners by
    ``cam``: each projected point depends on that point alone (``exact.matmul`` works row
    by row), so a stack's extremes are the extremes of its cubes' own."""
    return {}


def _window(cubes: list[Voxel], cell: Voxel, cam: Camera, scale: float,
            colors: Mapping[Voxel, Colour] | None, floor: tuple[int, int] | None
            ) -> np.ndarray:
    """The cubes drawn at ``scale`` in a square just holding the cell's cube and edges.
    Cubes whose outline (and edges) lie outside the square are left out: they draw
    nothing in it, and neither do the faces their absence bares, which lie within them.
    Remembered by what decides it (render's memo, emptied per item): an item's verifier
    draws the generator's windows again, and so skips building their meshes."""
    side = _window_side(scale)
    centres = cam.project(np.array(cubes, dtype=float) + 0.5)[:, :2]
    at = cam.project(np.array(cell, dtype=float) + 0.5)[0, :2]
    half = np.abs(cam.project(CORNERS - 0.5)[:, :2]).max(axis=0)  # a cube's half extent
    near = np.all(np.abs(centres - at) * scale <= side / 2 + half * scale + EDGE_PX, axis=1)
    window = Framing(cam, scale, (side, side), (float(at[0]), float(at[1])))
    kept = [c for c, keep in zip(cubes, near.tolist(), strict=True) if keep]
    shades = None if colors is None else [colors.get(c) for c in kept]
    return raster.remembered_as(("unseen window", kept, shades, window, floor),
                                lambda: stack_picture(kept, window, colors=colors,
                                                      floor=floor, ssaa=1))


def framed(framings: Sequence[Framing], floor: tuple[int, int] | None = None
           ) -> list[Picture]:
    """Pictures :func:`stacks.stack_picture` draws in ``framings`` (on an optional floor);
    a framing without a centre centres each picture on its own stack's outline."""
    def draw_in(f: Framing) -> Draw:
        def where(cubes: list[Voxel]) -> tuple[float, ...]:
            return _outline(cubes, f.cam) if f.center is None else ()

        def window(cubes: list[Voxel], cell: Voxel) -> np.ndarray:
            return _window(cubes, cell, f.cam, f.scale, None, floor)
        signs = _body_diagonal(f.cam)
        apart = None if floor is not None or signs is None else _Lattice(f.cam, f.scale).apart
        moved = _Outlines(f.cam).moved if f.center is None else None
        return Placed(where, window, f.cam, apart, moved)
    return [(draw_in(f), tolerance(f.scale)) for f in framings]


def named(cubes: Sequence[Voxel], views: Sequence[str],
          colors: Mapping[Voxel, Colour] | None = None) -> list[Picture]:
    """Pictures of a stack in named views: "isometric" as :func:`stacks.stack_isometric`
    draws it (fitted to its picture, so a stack of another outline draws another one);
    any other, an orthographic view, as the grid of what each cell shows (empty, or the
    colour of the nearest cube: a flat-shaded axis view of unit cubes shows nothing else),
    which must not change at all."""
    def draw_as(view: str) -> Draw:
        if view == "isometric":
            iso = camera("isometric")
            return Placed(lambda c: _outline(c, iso),
                          lambda c, cell: _isometric(c, cell, colors or {}),
                          moved=_Outlines(iso).moved)

        @lru_cache(maxsize=2)  # a change's stack, and the stack's own drawn once
        def codes(cubes: tuple[Voxel, ...]) -> Seen:
            return _cell_codes(list(cubes), view, colors or {})
        return lambda c, cell: codes(tuple(c))
    ordered = sorted(views, key=lambda v: v == "isometric")  # the quickest to compare first
    return [(draw_as(v), tolerance(isometric_scale(cubes)) if v == "isometric" else 1.0)
            for v in ordered]


def _isometric(cubes: list[Voxel], cell: Voxel, colors: Mapping[Voxel, Colour]
               ) -> np.ndarray:
    return _window(cubes, cell, camera("isometric"), isometric_scale(cubes), colors, None)


def _cell_codes(cubes: list[Voxel], view: str, colors: Mapping[Voxel, Colour]) -> Seen:
    """Per cell of an orthographic view: -1 empty, else the nearest cube's colour as an
    int (0: no colour given)."""
    ordered = normalized(cubes)
    lo = [min(v[i] for v in cubes) for i in range(3)]
    shades = [colors.get((x + lo[0], y + lo[1], z + lo[2])) for x, y, z in ordered]
    codes = np.array([0 if c is None else 1 + (c[0] << 16) + (c[1] << 8) + c[2]
                      for c in shades])
    labels = view_labels(ordered, view)
    grid = np.where(labels >= 0, codes[labels], -1)
    grid.flags.writeable = False  # remembered by named
    return (), grid


def hidden_changes(cubes: Sequence[Voxel], cams: Sequence[Camera], support: Support
                   ) -> Iterator[Change]:
    """The changes (as :func:`unseen_changes` makes them) whose cube lies wholly behind
    other cubes of the stack in every view of ``cams``, each looking along a body diagonal
    of the cubes (a true isometric view): such a change draws every picture, at any scale,
    as the stack's own, so each is one of :func:`unseen_changes` whatever the tolerance.

    Exact and scale-free: along a body diagonal every cube covers one hexagon of a
    triangle lattice, six whole triangles, and of the cubes covering a triangle the nearest
    (least along the view) is the one seen all over it; a cell is hidden when in each of
    its triangles a cube of the stack lies nearer than it."""
    stack = [(int(x), int(y), int(z)) for x, y, z in cubes]
    tried = _changes(stack)
    if not tried:
        return
    cells = np.array([cell for _, cell in tried], dtype=np.int64)
    hidden = np.ones(len(tried), dtype=bool)
    for cam in cams:
        hidden &= _behind(np.array(stack, dtype=np.int64), cells, _diagonal(cam))
    for change, hide in zip(tried, hidden.tolist(), strict=True):
        if hide:
            other = changed(stack, change)
            if other and support(other):
                yield change


def _diagonal(cam: Camera) -> np.ndarray:
    """The signs (each +-1) of the body diagonal ``cam`` looks along; ValueError if none."""
    signs = _body_diagonal(cam)
    if signs is None:
        raise ValueError(f"{cam} does not look along a body diagonal")
    return signs


def _body_diagonal(cam: Camera) -> np.ndarray | None:
    """The signs (each +-1) of the body diagonal ``cam`` looks along, or None."""
    _, _, forward = cam.basis()
    signs = np.sign(forward).astype(np.int64)
    if not np.allclose(forward, signs / math.sqrt(3.0), atol=1e-12):
        return None
    return signs


# The six lattice triangles (a, b, half) a cube's hexagon covers, its lattice place (a, b)
# added; in the coordinates where the view runs along (1, 1, 1) (see _triangles).
HEXAGON = np.array([(0, 0, 0), (0, 0, 1), (-1, -1, 0), (-1, -1, 1), (0, -1, 1), (-1, 0, 0)])
_HEXAGON = tuple((int(a), int(b), int(h)) for a, b, h in HEXAGON.tolist())


@lru_cache(maxsize=1 << 14)
def _triangles(cell: tuple[int, ...], signs: tuple[int, ...]
               ) -> tuple[tuple[tuple[int, int, int], ...], int]:
    """The six lattice triangles (a, b, half) a cell's hexagon covers, in ``HEXAGON``'s
    order, and the cell's depth, seen along ``signs``.  A cell [v, v + 1] seen along
    ``signs`` is the cell u = signs * v - (signs < 0) seen along (1, 1, 1): its hexagon is
    placed at (u_x - u_z, u_y - u_z) and its depth is u_x + u_y + u_z; cells covering one
    triangle lie on one line of sight in order of depth, no two at one depth.  Remembered:
    the same few cells are placed again and again."""
    x, y, z = (int(c) * s - (s < 0) for c, s in zip(cell, signs, strict=True))
    a, b = x - z, y - z
    return tuple((a + da, b + db, half) for da, db, half in _HEXAGON), x + y + z


def _behind(stack: np.ndarray, cells: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """Per cell, whether in each of its hexagon's triangles (:func:`_triangles`) a cube of
    ``stack`` lies nearer to the eye (less far along ``signs``) than the cell."""
    along = tuple(signs.tolist())
    nearest: dict[tuple[int, int, int], int] = {}
    for cube in stack.tolist():
        tris, depth = _triangles(tuple(cube), along)
        for tri in tris:
            nearest[tri] = min(depth, nearest.get(tri, depth))
    return np.array([all(nearest.get(tri, depth) < depth for tri in tris)
                     for tris, depth in (_triangles(tuple(cell), along)
                                         for cell in cells.tolist())],
                    dtype=bool)


DEEP_PX = 3.0  # a pixel centre this far from every lattice line is clear of every edge drawn


class _Lattice:
    """Windows drawn (as :func:`framed` draws them, no floor) with a camera looking along a
    body diagonal, read on the triangle lattice of :func:`hidden_changes`: every cube edge
    lies on a lattice line (edges are 2 px wide, anti-aliased) and faces are flat-shaded,
    so a pixel whose centre lies ``DEEP_PX`` or more from every lattice line shows the fill
    of the face seen in its triangle (the nearest cube's, by its place in that cube's
    hexagon), or the background.  A change alters only its cell's six triangles; in each
    whose fill changes by more than ``SHADE`` in a channel every such pixel differs, so
    when they are ``limit`` or more, the window comparison would find the change shown."""

    def __init__(self, cam: Camera, scale: float) -> None:
        self.signs = tuple(_diagonal(cam).tolist())
        self.deep = _deep_pixels(cam, scale)
        self.differ = _fills_differ(cam)
        self._last: tuple[tuple[Voxel, ...], dict[tuple[int, int, int], list[tuple[int, int]]]]
        self._last = ((), {})

    def apart(self, stack: list[Voxel], change: Change, limit: float) -> bool:
        """Whether the windows around the change's cell of ``stack`` and of the changed
        stack differ in at least ``limit`` pixels (False: undecided)."""
        how, cell = change
        cover = self._cover(stack)
        tris, depth = _triangles(cell, self.signs)
        differing = 0
        for k, tri in enumerate(tris):
            seen = cover.get(tri, [])
            before = seen[0][1] if seen else len(HEXAGON)
            if how == "remove":
                rest = [s for s in seen if s[0] != depth]
                after = rest[0][1] if rest else len(HEXAGON)
            else:
                after = min(seen[0], (depth, k))[1] if seen else k
            if self.differ[before][after]:
                differing += self.deep[k]
        return differing >= limit

    def _cover(self, stack: list[Voxel]) -> dict[tuple[int, int, int], list[tuple[int, int]]]:
        """Per lattice triangle, the (depth, place in its hexagon) of every cube covering
        it, nearest first (the last stack's kept)."""
        key = tuple(stack)
        if self._last[0] != key:
            cover: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
            for cube in stack:
                tris, depth = _triangles(cube, self.signs)
                for k, tri in enumerate(tris):
                    cover.setdefault(tri, []).append((depth, k))
            for seen in cover.values():
                seen.sort()
            self._last = (key, cover)
        return self._last[1]


def _window_side(scale: float) -> int:
    """The side of the square window :func:`_window` draws at ``scale``."""
    return math.ceil(2.0 * scale) + 8


def _pixel_triangles(cam: Camera, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel of a window centred on a cell's centre (:func:`_window`): which of the
    cell's hexagon triangles (index into ``HEXAGON``; -1: none) holds its centre, and
    whether that centre lies ``DEEP_PX`` or more from every lattice line.

    A point of screen (u, v) lies on the lattice at (alpha, beta), where the world point
    s * (alpha, beta, 0) (s: the view's signs) projects to (u, v); lattice lines are where
    alpha, beta or alpha - beta is a whole number."""
    signs = _diagonal(cam)
    right, up, _ = cam.basis()
    m00, m01 = float(right[0] * signs[0]), float(right[1] * signs[1])
    m10, m11 = float(up[0] * signs[0]), float(up[1] * signs[1])
    det = m00 * m11 - m01 * m10
    i00, i01, i10, i11 = m11 / det, -m01 / det, -m10 / det, m00 / det
    side = _window_side(scale)
    at = (np.arange(side) + 0.5 - side / 2.0) / scale
    su, sv = at[None, :], -at[:, None]
    alpha, beta = i00 * su + i01 * sv, i10 * su + i11 * sv
    dist = np.full((side, side), np.inf)
    for value, gu, gv in ((alpha, i00, i01), (beta, i10, i11),
                          (alpha - beta, i00 - i10, i01 - i11)):
        dist = np.minimum(dist, np.abs(value - np.round(value)) * scale / math.hypot(gu, gv))
    i, j = np.floor(alpha), np.floor(beta)
    half = (alpha - i < beta - j).astype(np.int64)
    index = np.full((side, side), -1, dtype=np.int64)
    for k, (da, db, h) in enumerate(HEXAGON.tolist()):
        index[(i == da) & (j == db) & (half == h)] = k
    return index, dist >= DEEP_PX


@lru_cache(maxsize=64)
def _deep_pixels(cam: Camera, scale: float) -> tuple[int, ...]:
    """Per triangle of a cell's hexagon, the pixels of the cell's window deep inside it."""
    index, deep = _pixel_triangles(cam, scale)
    return tuple(int(np.count_nonzero(deep & (index == k))) for k in range(len(HEXAGON)))


FILL_SCALE = 40.0  # the scale at which a lone cube is drawn to read the fills off


@lru_cache(maxsize=8)
def _fills_differ(cam: Camera) -> tuple[tuple[bool, ...], ...]:
    """For the fills of a cube's hexagon triangles (by place) and the background (last):
    whether two differ by more than ``SHADE`` in a channel, read off a lone cube drawn as
    a window draws it; ValueError if a triangle is not one colour deep inside."""
    cell = (0, 0, 0)
    at = cam.project(np.array(cell, dtype=float) + 0.5)[0, :2]
    side = _window_side(FILL_SCALE)
    picture = stack_picture([cell], Framing(cam, FILL_SCALE, (side, side),
                                            (float(at[0]), float(at[1]))), ssaa=1)
    index, deep = _pixel_triangles(cam, FILL_SCALE)
    fills = []
    for k in range(len(HEXAGON)):
        colours = np.unique(picture[deep & (index == k)], axis=0)
        if len(colours) != 1:
            raise ValueError(f"the face in hexagon triangle {k} is not drawn in one colour")
        fills.append(colours[0].astype(int))
    fills.append(picture[0, 0].astype(int))
    return tuple(tuple(bool(np.abs(f - g).max() > SHADE) for g in fills) for f in fills)
