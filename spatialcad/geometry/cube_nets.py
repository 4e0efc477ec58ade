"""The 11 cube nets, folding a net into a cube, unfolding a cube, and corner views.

Conventions.  A net is drawn in the plane with its drawn side toward the viewer: screen
right is +x, screen up is +y, the viewer looks along -z.  Cells are ``(row, col)`` with row 0
at the top.  The net folds *away from the viewer*, so the drawn side of every cell ends up
outside the cube and the first cell becomes the cube's top face (outward normal +z, drawing
up along +y).

A face of a cube is named by its outward unit normal.  A folded cube maps each normal to
``(face, up)``: which of the six face pictures lies there and the 3D direction of that
picture's top edge (the picture's right is ``up x normal``, seen from outside).

A corner view looks at a posed cube from the fixed corner (+1, -1, +1): the top (+z),
front (-y) and right (+x) faces show.  Each visible face's picture is given in that face's
reference frame (``VIEW_FACES``: right and up as seen from outside), so a view is three
grids.  A pose is a signed permutation matrix taking body to world coordinates; the 24
proper ones are ``rotations.proper_rotations()``, improper ones show the mirror-image cube.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from spatialcad.geometry.rotations import proper_rotations

Vec = tuple[int, int, int]
Cell = tuple[int, int]

NETS: dict[str, tuple[Cell, ...]] = {
    # a row of four with one cell above (column a) and one below (column b)
    "1-4-1-0": ((0, 0), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0)),
    "1-4-1-1": ((0, 0), (1, 0), (1, 1), (1, 2), (1, 3), (2, 1)),
    "1-4-1-2": ((0, 0), (1, 0), (1, 1), (1, 2), (1, 3), (2, 2)),
    "1-4-1-3": ((0, 0), (1, 0), (1, 1), (1, 2), (1, 3), (2, 3)),
    "1-4-1-4": ((0, 1), (1, 0), (1, 1), (1, 2), (1, 3), (2, 1)),
    "1-4-1-5": ((0, 1), (1, 0), (1, 1), (1, 2), (1, 3), (2, 2)),
    # rows of two, three and one
    "2-3-1-0": ((0, 0), (0, 1), (1, 1), (1, 2), (1, 3), (2, 1)),
    "2-3-1-1": ((0, 0), (0, 1), (1, 1), (1, 2), (1, 3), (2, 2)),
    "2-3-1-2": ((0, 0), (0, 1), (1, 1), (1, 2), (1, 3), (2, 3)),
    "2-2-2": ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3)),
    "3-3": ((0, 0), (0, 1), (0, 2), (1, 2), (1, 3), (1, 4)),
}

# visible face of a corner view -> (outward normal, right, up) as seen from outside
VIEW_FACES: dict[str, tuple[Vec, Vec, Vec]] = {
    "top": ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    "front": ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
    "right": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}
NORMALS: tuple[Vec, ...] = ((0, 0, 1), (0, 0, -1), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0))
MIRROR = np.diag([-1, 1, 1])

Cube = dict[Vec, tuple[int, Vec]]
View = dict[str, np.ndarray]


def cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def dot(a: Vec, b: Vec) -> int:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def neg(a: Vec) -> Vec:
    return (-a[0], -a[1], -a[2])


def vec(v: Iterable[int]) -> Vec:
    """Any three integers (numpy's too) as a Python vector."""
    x, y, z = (int(c) for c in v)
    return x, y, z


Rows = tuple[tuple[int, ...], ...]


def rows(m: np.ndarray) -> Rows:
    """An integer matrix as Python rows (products of 3-vectors with them cost a tenth of
    numpy's)."""
    return tuple(tuple(int(x) for x in row) for row in np.asarray(m).tolist())


def times(m: Rows, v: Vec) -> Vec:
    """The integer matrix ``m`` (see ``rows``) times the column vector ``v``."""
    (a, b, c), (d, e, f), (g, h, i) = m
    return (a * v[0] + b * v[1] + c * v[2], d * v[0] + e * v[1] + f * v[2],
            g * v[0] + h * v[1] + i * v[2])


def quarter_turns(frm: Vec, to: Vec, normal: Vec) -> int:
    """k in 0..3 with ``to`` = ``frm`` turned k times counter-clockwise about ``normal``
    (seen from the side ``normal`` points to)."""
    v = frm
    for k in range(4):
        if v == to:
            return k
        v = cross(normal, v)
    raise ValueError(f"{to} is not {frm} turned about {normal}")


def layout_turned(cells: Iterable[Cell], quarter: int, flip: bool = False) -> tuple[Cell, ...]:
    """A layout turned by quarter turns (and mirrored left-right first), top-left at (0, 0)."""
    pts = [(r, -c if flip else c) for r, c in cells]
    for _ in range(quarter % 4):
        pts = [(-c, r) for r, c in pts]  # a counter-clockwise quarter turn of the drawing
    r0, c0 = min(r for r, _ in pts), min(c for _, c in pts)
    return tuple(sorted((r - r0, c - c0) for r, c in pts))


def shape_key(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    """The same key for layouts equal up to rotation and mirroring."""
    cells = list(cells)
    return min(layout_turned(cells, q, f) for q in range(4) for f in (False, True))


@dataclass(frozen=True)
class Frame:
    """Where a net cell lands: the face's outward normal and the 3D direction of the
    cell's drawing-up (net +y)."""

    normal: Vec
    up: Vec

    @property
    def right(self) -> Vec:
        return cross(self.up, self.normal)


def fold(cells: Sequence[Cell]) -> dict[Cell, Frame]:
    """Fold a layout about its hinges; the first cell becomes the top face.

    Crossing the edge from a cell in its in-plane direction ``d`` turns the neighbour by a
    quarter turn about ``normal x d``: the neighbour's normal becomes ``d``.
    """
    cells = [(row, col) for row, col in cells]
    frames = {cells[0]: Frame((0, 0, 1), (0, 1, 0))}
    todo = [cells[0]]
    while todo:
        r, c = todo.pop()
        f = frames[(r, c)]
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            nb = (r + dr, c + dc)
            if nb not in cells or nb in frames:
                continue
            d0, d1, d2 = (dc * a - dr * b for a, b in zip(f.right, f.up, strict=True))
            d = (d0, d1, d2)
            axis = cross(f.normal, d)

            def hinge(v: Vec, axis: Vec = axis) -> Vec:
                along = dot(axis, v)
                h0, h1, h2 = (along * a + x for a, x in zip(axis, cross(axis, v), strict=True))
                return h0, h1, h2

            frames[nb] = Frame(hinge(f.normal), hinge(f.up))
            todo.append(nb)
    if len(frames) != len(cells):
        raise ValueError("the layout is not connected")
    return frames


def is_net(cells: Sequence[Cell]) -> bool:
    """Six cells that fold onto six different faces."""
    if len(set(cells)) != 6:
        return False
    try:
        return len({f.normal for f in fold(cells).values()}) == 6
    except ValueError:
        return False


@dataclass(frozen=True)
class NetCell:
    """A drawn net cell: face picture ``face`` turned ``turns`` quarter turns (CCW)."""

    row: int
    col: int
    face: int
    turns: int


def fold_net(net: Sequence[NetCell]) -> Cube:
    """The folded cube of a drawn net (the first cell on top)."""
    frames = fold([(c.row, c.col) for c in net])
    cube: Cube = {}
    for c in net:
        f = frames[(c.row, c.col)]
        up = f.up
        for _ in range(c.turns % 4):  # the picture's top edge, turned with it
            up = cross(f.normal, up)
        cube[f.normal] = (c.face, up)
    if len(cube) != 6:
        raise ValueError("not a cube net")
    return cube


def posed(cube: Cube, pose: np.ndarray) -> Cube:
    """The cube turned by a proper rotation ``pose``."""
    m = rows(pose)
    return {times(m, n): (face, times(m, up)) for n, (face, up) in cube.items()}


def unfold(cube: Cube, cells: Sequence[Cell], pose: np.ndarray) -> list[NetCell]:
    """Draw ``cube`` (turned by ``pose``) on the layout ``cells``."""
    turned = posed(cube, pose)
    out = []
    for (r, c), f in fold(cells).items():
        face, up = turned[f.normal]
        out.append(NetCell(r, c, face, quarter_turns(f.up, up, f.normal)))
    return sorted(out, key=lambda x: (x.row, x.col))


def random_cube(rng: np.random.Generator) -> Cube:
    """Faces 0-5 on random sides, each picture in a random orientation."""
    faces = rng.permutation(6)
    cube: Cube = {}
    for n, face in zip(NORMALS, faces, strict=True):
        ups = [v for v in NORMALS if dot(v, n) == 0]
        cube[n] = (int(face), ups[int(rng.integers(4))])
    return cube


def transfer(grid: np.ndarray, right: Vec, up: Vec, to_right: Vec, to_up: Vec) -> np.ndarray:
    """A picture drawn in the frame (right, up) as it reads in the frame (to_right, to_up)
    of the same plane; a mirrored frame gives the mirror image."""
    rows, cols = _transfer_index(grid.shape[0], dot(to_right, right), dot(to_up, right),
                                 dot(to_right, up), dot(to_up, up))
    out: np.ndarray = grid[rows, cols]
    return out


@lru_cache(maxsize=256)
def _transfer_index(n: int, rr: int, ur: int, ru: int, uu: int) -> tuple[np.ndarray, np.ndarray]:
    """Source (row, col) of every cell of an n x n picture moved to a frame whose right and
    up vectors have components (rr, ru) and (ur, uu) along the old right and up."""
    i, j = np.indices((n, n))
    # doubled coordinates of the cell centre, origin at the face centre
    a, b = 2 * j - (n - 1), (n - 1) - 2 * i
    return ((n - 1) - (a * ru + b * uu)) // 2, (a * rr + b * ur + n - 1) // 2


def visible_normals(pose: np.ndarray) -> dict[str, Vec]:
    """Which body faces a pose shows on the top, front and right."""
    return _visible(rows(np.asarray(pose).T))


def _visible(inverse: Rows) -> dict[str, Vec]:
    return {name: times(inverse, n) for name, (n, _, _) in VIEW_FACES.items()}


@lru_cache(maxsize=1)
def _proper_poses() -> tuple[tuple[Rows, dict[str, Vec]], ...]:
    """Each proper rotation as integer rows, with the body faces it shows."""
    return tuple((rows(m), _visible(rows(m.T))) for m in proper_rotations())


def _seen_faces(cube: Cube, grids: Sequence[np.ndarray], pose: Rows, shown: dict[str, Vec]
                ) -> Iterator[tuple[str, np.ndarray]]:
    """The corner view's pictures one visible face at a time (see ``corner_view``), for a
    pose as integer rows showing the body faces ``shown``."""
    for name, body in shown.items():
        _, right, up = VIEW_FACES[name]
        face, body_up = cube[body]
        world_up = times(pose, body_up)
        world_right = times(pose, cross(body_up, body))
        yield name, transfer(grids[face], world_right, world_up, right, up)


def corner_view(cube: Cube, grids: Sequence[np.ndarray], pose: np.ndarray) -> View:
    """The three pictures seen from the corner (+1, -1, +1) when the cube has ``pose``."""
    return dict(_seen_faces(cube, grids, rows(pose), visible_normals(pose)))


def same_picture(a: np.ndarray, b: np.ndarray) -> bool:
    """``np.array_equal`` for arrays of one shape, without its conversions."""
    return a.shape == b.shape and bool((a == b).all())


def same_view(a: View, b: View) -> bool:
    return all(same_picture(a[k], b[k]) for k in VIEW_FACES)


def possible_poses(cube: Cube, grids: Sequence[np.ndarray], view: View) -> list[int]:
    """Indices of the proper rotations under which the cube shows exactly ``view`` (each
    pose's faces are made and compared one at a time, up to the first that differs)."""
    return [i for i, (m, shown) in enumerate(_proper_poses())
            if all(same_picture(pic, view[name])
                   for name, pic in _seen_faces(cube, grids, m, shown))]


def opposite(normal: Vec) -> Vec:
    return neg(normal)
