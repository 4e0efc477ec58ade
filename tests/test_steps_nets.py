"""Step-by-step solutions of the cube-net tasks (cube_unfolding, cube_reconstruction): a
net folded one hinge at a time.

The folding geometry closes every net into the cube `fold_net` makes (all 11 layouts, all
their drawn orientations, all 24 poses), and agrees fold by fold with the verifiers' own
hinge simulation; the pictures are deterministic and change as the net folds; through the
CLI, every level's chain is proved by `verify`, and tampered steps fail.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from conftest import with_answer

from spatialcad import steps as solutions
from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry import net_folding as nf
from spatialcad.geometry.cube_fields import cell_rows
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.record.benchmark import sha256
from spatialcad.render import legibility
from spatialcad.render import net_folding_drawing as draw
from spatialcad.render.camera import camera
from spatialcad.render.png import decode_png
from spatialcad.run import pipeline
from spatialcad.run.verification import check_steps
from spatialcad.steps import answer_option
from spatialcad.tasks import registry
from spatialcad.verify import net_hinges

NET_TASKS = ["cube_unfolding", "cube_reconstruction"]


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


def test_dot_faces_are_legible_on_the_slanted_squares():
    for grid in (3, 4, 5):
        assert legibility.view_dot_px(draw.fold_scale("dots", grid), grid) >= (
            legibility.MIN_DOT_PX)
    assert draw.fold_scale("glyph", 7) == draw.fold_scale("solid", 1) == draw.BASE_SCALE
    assert legibility.cube_edge_px(camera("isometric"), draw.BASE_SCALE) >= (
        legibility.MIN_CUBE_EDGE_PX)


@pytest.fixture(scope="module")
def items() -> dict[str, pipeline.ItemResult]:
    return {task: pipeline.make_item(task, 2, 0, 1, 3, with_steps=True) for task in NET_TASKS}


def pictures(item: pipeline.ItemResult) -> list[np.ndarray]:
    return [decode_png(p) for p in item.step_pngs]


@pytest.mark.parametrize("task", NET_TASKS)
def test_pictures_are_deterministic_and_show_the_folding(items, task):
    item = items[task]
    shown = pictures(item)
    assert check_steps(item.record, shown) == []
    again = pipeline.make_item(task, 2, 0, 1, 3, with_steps=True)
    assert again.step_pngs == item.step_pngs and again.record == item.record
    spec, answer = solutions.parsed(registry.task(task), item.record)
    steps_mod = registry.task(task).module("steps")
    rows = answer.cells if task == "cube_unfolding" else spec.cells
    flat = steps_mod.picture(spec, answer, net_hinges.start(rows))
    half, closed = shown[2], shown[-1]
    assert flat.shape == half.shape == closed.shape  # one framing for the whole folding
    for image in (flat, half, closed):
        assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20
    assert not np.array_equal(half, flat) and not np.array_equal(half, closed)
    assert not np.array_equal(flat, closed)


@pytest.mark.parametrize("task", NET_TASKS)
def test_tampered_steps_fail(items, task):
    item = items[task]
    record, steps, shown = item.record, item.record["steps"], pictures(item)

    def fails(new_steps, images=None, rec=record):
        return check_steps({**rec, "steps": new_steps}, images)

    assert len(steps) == 5
    assert fails(steps[:-1]) and fails(steps[1:])  # a step removed
    assert fails([steps[1], steps[0], *steps[2:]]) and fails(steps[::-1])  # reordered
    assert fails(steps + steps[-1:])  # a step too many
    text = copy.deepcopy(steps)
    text[-1]["text"] = text[-1]["text"].replace("front", "back").replace("top", "bottom")
    assert text != steps and fails(text)
    state = copy.deepcopy(steps)
    state[2]["state"]["corners"][-1][0][2] -= 1  # a corner moved
    assert fails(state)
    order = copy.deepcopy(steps)
    order[0]["state"]["folded"] = order[1]["state"]["folded"][1:]  # another first fold
    assert fails(order)
    assert fails(steps, [shown[1], shown[0], *shown[2:]])  # pictures swapped
    assert fails(steps, [*shown[:-1], shown[-1][:, ::-1]])  # a picture mirrored
    # the same chain does not prove another option the answer
    for o in record["options"]:
        if not o["is_answer"]:
            assert check_steps(with_answer(record, o["letter"]), None), o["operator"]


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_every_level_through_the_cli(sc, tmp_path, level):
    out = tmp_path / "b"
    code, _, err = sc("generate", "--task", ",".join(NET_TASKS), "--level", level, "--n", 2,
                      "--seed", 5, "--out", out, "--with-steps")
    assert code == 0, err
    code, stdout, _ = sc("verify", out)
    assert code == 0 and "all 4 items verified" in stdout
    records = json.loads((out / "benchmark.json").read_text())
    for r in records:
        spec = r["spec"]
        rows = spec["cells"] if r["Task"] == "CubeReconstruction" else (
            answer_option(r)["data"]["cells"])
        assert [s["state"] for s in r["steps"]] == [net_hinges.step(rows, k) for k in range(5)]
        assert r["steps"][-1]["state"] == net_hinges.closed(rows)
        last = r["steps"][-1]["text"]
        assert "The cube is closed" in last and all("closed" not in s["text"]
                                                    for s in r["steps"][:-1])
        if spec["question"] == "opposite":
            assert f"the {r['Answer_direct']} face is opposite the {spec['named']} face" in last
        assert ("no turn makes it look like" in last) == (spec["question"] == "cannot")
    # a step picture replaced by another one (its checksum updated) fails `verify`
    r = records[0]
    a, b = (out / s["image"] for s in r["steps"][:2])
    a.write_bytes(b.read_bytes())
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["files"][r["steps"][0]["image"]] = sha256(a.read_bytes())
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    code, stdout, _ = sc("verify", out)
    assert code == 1 and "step 1 picture" in stdout
