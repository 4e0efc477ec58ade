"""The step-by-step solution both cube tasks share (CubeUnfolding, CubeReconstruction): a
net folded one hinge at a time into the closed cube (spatialcad/geometry/net_folding.py),
each state drawn from the corner view's camera (spatialcad/render/net_folding_drawing.py).

A state is ``{"folded": [[row, col], ...], "corners": [...]}``: the cells folded so far, in
order, and every cell's square in 3D (four corners, in the order of the net's cells; see
:mod:`spatialcad.geometry.net_folding`).  The tasks' verifiers replay it with their own
simulation (spatialcad/verify/net_hinges.py).  Faces are named by colour, or (dot faces)
by where they are in the folded net.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry import net_folding as nf
from spatialcad.geometry.cube_fields import CellRow
from spatialcad.geometry.face_patterns import turned
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.render import net_folding_drawing as draw
from spatialcad.tasks.base import Step
from spatialcad.tasks.cube_spec import Faces

POSITIONS = {"top": "on top", "front": "in front", "right": "on the right"}


def _cells(rows: Sequence[CellRow]) -> list[nf.Cell]:
    return [(int(r), int(c)) for r, c, _, _ in rows]


def _net(rows: Sequence[CellRow]) -> list[cn.NetCell]:
    return [cn.NetCell(*(int(v) for v in row)) for row in rows]


def face_label(faces: Faces, rows: Sequence[CellRow], face: int) -> str:
    """"the red face", or for dot faces where the face is in the net."""
    if faces.style != "dots":
        return f"the {faces.colour_names[face]} face"
    r, c = next((r, c) for r, c, f, _ in rows if f == face)
    return f"the face from row {r + 1}, column {c + 1} of the net"


def _square(faces: Faces, rows: Sequence[CellRow], cell: nf.Cell) -> str:
    face = next(f for r, c, f, _ in rows if (r, c) == cell)
    if faces.style != "dots":
        return f"the {faces.colour_names[face]} square"
    return f"the square at row {cell[0] + 1}, column {cell[1] + 1}"


def _state(cells: Sequence[nf.Cell], folded: Sequence[nf.Cell]) -> dict[str, Any]:
    return {"folded": [list(c) for c in folded],
            "corners": [[list(p) for p in sq] for sq in nf.squares(cells, folded)]}


def fold_steps(rows: Sequence[CellRow], faces: Faces, closing: str) -> list[Step]:
    """One step per fold; the last one's text ends with ``closing`` (what the closed cube
    shows)."""
    cells = _cells(rows)
    parents = nf.parents(cells)
    out = []
    for folded in nf.states(cells):
        cell = folded[-1]
        beyond = sum(1 for c in cells if _hangs_on(c, cell, parents)) - 1
        carried = {0: "", 1: ", with the square beyond it,"}.get(
            beyond, f", with the {beyond} squares beyond it,")
        text = (f"Fold {_square(faces, rows, cell)}{carried} by 90 degrees about its edge with "
                f"{_square(faces, rows, parents[cell])}, drawn side out.")
        out.append(Step(text, _state(cells, folded)))
    last = out[-1]
    out[-1] = Step(f"{last.text} {closing}", last.state)
    return out


def _hangs_on(cell: nf.Cell, hinge: nf.Cell, parents: dict[nf.Cell, nf.Cell]) -> bool:
    while cell != hinge and cell in parents:
        cell = parents[cell]
    return cell == hinge


def fold_picture(rows: Sequence[CellRow], faces: Faces, state: Any) -> np.ndarray:
    """A state drawn at the scale and framing of every state of the net's folding."""
    cells = _cells(rows)
    grids = faces.grids()
    frame = draw.framing([nf.squares(cells, s) for s in [[], *nf.states(cells)]],
                         draw.fold_scale(faces.style, grids[0].shape[0]))
    pictures = [turned(grids[f], t) for _, _, f, t in rows]
    return draw.draw_folding(state["corners"], pictures, faces.style, faces.palette, frame)


def closed_cube(rows: Sequence[CellRow]) -> cn.Cube:
    """The cube the net's folding closes into (the first cell on top)."""
    return nf.closed_cube(_net(rows))


def turned_so(cube: cn.Cube, faces: Faces, rows: Sequence[CellRow], pose: np.ndarray) -> str:
    """"with the red face on top, ... in front and ... on the right" for ``pose``."""
    shown = [f"{face_label(faces, rows, cube[n][0])} {POSITIONS[name]}"
             for name, n in cn.visible_normals(pose).items()]
    return f"with {shown[0]}, {shown[1]} and {shown[2]}"


def best_pose(cube: cn.Cube, faces: Faces, view: cn.View) -> tuple[np.ndarray, list[str]]:
    """The first pose showing the most faces of ``view`` as it shows them, and where it
    shows another picture (none when the cube can look like ``view``)."""
    grids = faces.grids()
    best: tuple[np.ndarray, list[str]] | None = None
    for pose in proper_rotations():
        seen = cn.corner_view(cube, grids, pose)
        wrong = [name for name in cn.VIEW_FACES if not np.array_equal(seen[name], view[name])]
        if best is None or len(wrong) < len(best[1]):
            best = (pose, wrong)
    assert best is not None
    return best


def difference(cube: cn.Cube, faces: Faces, rows: Sequence[CellRow], view: cn.View,
               pose: np.ndarray, name: str) -> str:
    """How the posed cube's face at ``name`` differs from ``view``'s picture there."""
    grids = faces.grids()
    face = cube[cn.visible_normals(pose)[name]][0]
    seen = cn.corner_view(cube, grids, pose)[name]
    label = face_label(faces, rows, face)
    turns = [k for k in range(1, 4) if np.array_equal(turned(seen, k), view[name])]
    if turns:  # the cube shows the picture turned clockwise by turns[0] quarter turns
        way = {1: "90 degrees clockwise", 2: "180 degrees", 3: "90 degrees counter-clockwise"}
        return f"{label} {POSITIONS[name]} is turned {way[turns[0]]} from the picture"
    want = next(f for f in range(6) for k in range(4)
                if np.array_equal(turned(grids[f], k), view[name]))
    return f"{label} is {POSITIONS[name]} where the picture has {face_label(faces, rows, want)}"
