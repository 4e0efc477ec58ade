"""Issue 35's rule for the cube-stack tasks other than 3DRotation (tests/test_rotation_3d.py):
no cube the reference pictures leave unseen, added or removed where the task's scenes
allow it, may change the key (BlockMoving: no scene with one cube more draws its states).
Hand-built cases the generators reject and the verifiers fail; CubeCounting's bounds,
which hold for every stack its views draw, proved so."""

from __future__ import annotations

import re

import numpy as np
import pytest

from spatialcad.geometry import blocks, counting, voxels
from spatialcad.render import block_views, legibility, piece_pictures, stacks, unseen
from spatialcad.render.axes import framing_beside_axes
from spatialcad.render.pixels import pixels_differing
from spatialcad.run.pipeline import assemble
from spatialcad.run.verification import run_verifier
from spatialcad.tasks import registry
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.block_moving.generate import must_pin_down, state_draft
from spatialcad.tasks.cube_assembly.spec import OptionData
from spatialcad.tasks.cube_assembly.spec import Spec as AssemblySpec
from spatialcad.tasks.cube_assembly.spec import texts as assembly_texts
from spatialcad.tasks.cube_counting.generate import Generator as CountingGenerator
from spatialcad.tasks.three_view.generate import must_decide_the_view, stack_draft

# 3ViewProjection level 0: a cube added at [1, 1, 1], on the column [1, 1], shows in none of
# the reference pictures: the top view draws that column grey either way, the front view
# sees the grey [1, 2, 1] behind it in the same cell, and in the isometric picture the
# column [2, 0] hides it.  Seen from the left it is alone in its row: the left view would
# gain a cube.  (The stack with that cube is as ambiguous: removing it is unseen.)
STACK = [(0, 2, 0), (1, 1, 0), (1, 2, 0), (1, 2, 1), (2, 0, 0), (2, 0, 1), (2, 0, 2), (2, 1, 0)]
RED = {(0, 2, 0), (2, 0, 2), (2, 1, 0)}
HIDDEN = (1, 1, 1)


def _verify(task: str, draft: Draft) -> list[str]:
    record, image = assemble(registry.task(task), draft, level=0, image_id="0000",
                             letter="A", item_seed=1)
    return run_verifier(record, image)


def test_three_view_a_hidden_cube_that_changes_the_left_view_fails():
    grown = [*STACK, HIDDEN]
    pictures = unseen.named(STACK, ["isometric", "front", "top"], dict.fromkeys(RED, (1, 2, 3)))
    assert len(pictures) == 3
    assert all(unseen.alike(draw(grown, HIDDEN), draw(STACK, HIDDEN), limit)
               for draw, limit in pictures)  # the three pictures do not show it
    with pytest.raises(Reject, match=r"adding a cube at \[1, 1, 1\], which changes the left"):
        must_decide_the_view(STACK, RED)
    draft = stack_draft(STACK, [3, 3, 3], RED, {(1, 2, 1), (2, 0, 2), (2, 1, 0)})
    failures = _verify("three_view", draft)
    assert failures == ["adding a cube at [1, 1, 1] draws the same reference pictures but "
                        "another left view"]
    assert _verify("three_view", stack_draft(grown, [3, 3, 3], RED, {
        (1, 2, 1), (2, 0, 2), (2, 1, 0)})) == ["removing a cube at [1, 1, 1] draws the same "
                                               "reference pictures but another left view"]


# CubeAssembly: a ring of columns two high around an empty centre; a cube at the foot of
# the centre is hidden from both viewpoints, and would join the missing piece.
SPACE = (3, 3, 3)
RING = [(x, y, z) for x in range(3) for y in range(3) for z in range(2) if (x, y) != (1, 1)]
GIVEN = [c for c in RING if c[0] == 0 or (c[1] == 0 and c[0] < 2)]


def _assembly_draft(stack: list, given: list) -> Draft:
    missing = sorted(set(stack) - set(given))
    truth = voxels.normalized(missing)
    wrong = [truth[1:], [*truth, (0, 0, 2)], [*truth[:-1], (0, 0, 2)]]
    data = [OptionData(truth), *(OptionData(voxels.normalized(w), ["remove_cube"])
                                 for w in wrong)]
    spec = AssemblySpec(voxels=sorted(stack), space=SPACE, pieces=2, parts=[sorted(given)],
                        answer_ranks=(0, 0), stacks_drawn=1)
    said = assembly_texts(spec, data)
    options = [Option(i == 0, "missing_piece" if i == 0 else "remove_cube", "",
                      image=piece_pictures.option_picture(d.voxels, SPACE, 2), data=d.to_json())
               for i, d in enumerate(data)]
    pictures = piece_pictures.reference_pictures(sorted(stack), [sorted(given)], SPACE)
    return Draft(said.question, spec.to_json(), [Panel(p, "") for p in pictures], options,
                 question_direct=said.question_direct, answer_direct=said.answer_direct)


def test_cube_assembly_a_hidden_cell_that_changes_the_missing_piece_fails():
    assert piece_pictures.unseen_changes(RING, [GIVEN], SPACE) == [("add", (1, 1, 0))]
    hides = "adding a cube at [1, 1, 0] draws the same complete-stack pictures"
    assert any(hides in f for f in _verify("cube_assembly", _assembly_draft(RING, GIVEN)))
    # with one cube there removing it is unseen, as adding it was; with the centre column
    # as high as the ring its top shows: the pictures pin the stack down
    assert piece_pictures.unseen_changes([*RING, (1, 1, 0)], [GIVEN], SPACE) == [
        ("remove", (1, 1, 0))]
    filled = [*RING, (1, 1, 0), (1, 1, 1)]
    assert piece_pictures.unseen_changes(filled, [GIVEN], SPACE) == []
    assert not any("complete-stack pictures" in f
                   for f in _verify("cube_assembly", _assembly_draft(filled, GIVEN)))


@pytest.mark.parametrize("level", [0, 1])
def test_cube_counting_bounds_hold_for_every_stack_its_views_draw(level):
    """Every stack one unseen cube away (standing) draws the same views, so it has the
    same bounds, and its count lies within them: the key holds for it too."""
    p = CountingGenerator().params(level)
    rng = np.random.default_rng(level)
    tried = 0
    for _ in range(30):
        stack = voxels.random_stack(rng, tuple(p["space"]), p["fill"])
        views = [voxels.view_matrix(stack, v) for v in p["views"]]
        low, high = counting.bounds(counting.profiles(*views))
        for change in unseen.unseen_changes(stack, unseen.named(stack, p["views"]),
                                            voxels.is_supported):
            other = unseen.changed(stack, change)
            seen = [voxels.view_matrix(other, v) for v in p["views"]]
            assert all(np.array_equal(a, b) for a, b in zip(seen, views, strict=True))
            assert counting.bounds(counting.profiles(*seen)) == (low, high)
            assert low <= len(other) <= high
            tried += 1
    assert tried > 20


# BlockMoving: columns three high at [2, 0] and [1, 2] (and two at [0, 2]) hide a cube at
# the foot of [1, 1] from both viewpoints, before and after the blue cube moves +x: a scene
# with one more cube there draws the same four pictures, and such a cube could hold up a
# cube that moves onto its column, or swap with one moving into it.
BLOCKS = {"red": (1, 2, 0), "orange": (0, 2, 0), "yellow": (2, 0, 0), "green": (1, 2, 1),
          "blue": (1, 2, 2), "purple": (2, 0, 1), "pink": (0, 2, 1), "white": (2, 0, 2),
          "cyan": (1, 0, 0)}
BLOCK_SPACE = [3, 3, 3]


def _blocks_draft(moves: list) -> Draft:
    wrong = [[("blue", "-x")], [("red", "+x")], [("purple", "-z")], [("orange", "-y")]]
    wrong = [w for w in wrong if w != moves][:3]
    ends = [blocks.run(BLOCKS, w, BLOCK_SPACE) for w in wrong]
    return state_draft(BLOCK_SPACE, list(BLOCKS), BLOCKS, moves,
                       [("other_cube", w, e) for w, e in zip(wrong, ends, strict=True)])


def test_block_moving_a_cube_hidden_in_both_states_fails():
    final = blocks.run(BLOCKS, [("blue", "+x")], BLOCK_SPACE)
    assert final is not None
    assert block_views.hidden_cells(BLOCKS, BLOCK_SPACE) == [(1, 1, 0)]
    assert block_views.hidden_cells(final, BLOCK_SPACE) == [(1, 1, 0)]
    for state in (BLOCKS, final):  # drawn, a brown cube there changes too few pixels to show
        grown = block_views.state_pictures({**state, "brown": (1, 1, 0)}, BLOCK_SPACE)
        for cam, a, b in zip(block_views.VIEWS.values(), grown,
                             block_views.state_pictures(state, BLOCK_SPACE), strict=True):
            scale = framing_beside_axes(cam, BLOCK_SPACE, block_views.panel(BLOCK_SPACE)).scale
            assert pixels_differing(a, b, unseen.SHADE) < unseen.tolerance(scale)
    hides = ("one more cube could stand unseen at [1, 1, 0] in the initial state and at "
             "[1, 1, 0] in the final state")
    with pytest.raises(Reject, match=re.escape(hides)):
        must_pin_down(BLOCKS, final, BLOCK_SPACE)
    assert _verify("block_moving", _blocks_draft([("blue", "+x")])) == [hides]
    # moving the orange cube -y bares the foot of [1, 1] in the final state: no scene with
    # one more cube draws the same pictures
    moved = blocks.run(BLOCKS, [("orange", "-y")], BLOCK_SPACE)
    assert moved is not None and block_views.hidden_cells(moved, BLOCK_SPACE) == []
    must_pin_down(BLOCKS, moved, BLOCK_SPACE)
    assert _verify("block_moving", _blocks_draft([("orange", "-y")])) == []


def test_block_moving_shows_every_cube_as_legibly_as_the_rule_asks():
    assert block_views.MIN_VISIBLE >= legibility.MIN_SHOWN


def _plain(pictures: list[unseen.Picture]) -> list[unseen.Picture]:
    """The same pictures as plain draws: :func:`unseen.unseen_changes` then draws and
    compares every window, where each picture lies compared only inside ``alike``."""
    def plain(draw: unseen.Draw) -> unseen.Draw:
        return lambda cubes, cell: draw(cubes, cell)
    return [(plain(draw), limit) for draw, limit in pictures]


def test_unseen_changes_comparing_where_pictures_lie_first_finds_the_same_changes():
    """The shortcut of refusing a change that moves a picture before drawing any window
    decides every change as drawing and comparing every window does, on random stacks in
    the pictures the cube tasks use: two opposite corners (3DRotation), an isometric
    picture and two cell-code views (3ViewProjection), fixed framings on a floor
    (CubeAssembly).  :func:`unseen.first_unseen` finds one of them exactly when there is
    one."""
    rng = np.random.default_rng(35)
    space = (3, 3, 3)
    found = moved = firsts = 0
    for _ in range(12):
        stack = voxels.random_stack(rng, space, fill=0.6)
        corners = [stacks.Framing(stacks.OPPOSITE_CORNERS[v], 30.0, (200, 200))
                   for v in sorted(stacks.OPPOSITE_CORNERS)]
        for pictures, support in (
                (unseen.framed(corners), voxels.is_connected),
                (unseen.named(stack, ["isometric", "front", "top"]), voxels.is_supported),
                (unseen.framed(piece_pictures.reference_framings(space), floor=space[:2]),
                 voxels.is_supported)):
            assert all(isinstance(draw, unseen.Placed) for draw, _ in pictures[-1:])
            fast = list(unseen.unseen_changes(stack, pictures, support))
            assert fast == list(unseen.unseen_changes(stack, _plain(pictures), support))
            first = unseen.first_unseen(stack, pictures, support)
            assert (first is None) == (not fast) and (first is None or first in fast)
            found += len(fast)
            firsts += first is not None and first != fast[0]
            draw = pictures[-1][0]
            assert isinstance(draw, unseen.Placed)
            moved += sum(draw.place(unseen.changed(stack, ("add", cell))) != draw.place(stack)
                         for cell in unseen.face_neighbours(stack))
    assert found > 0 and moved > 0  # both outcomes, and the shortcut, were exercised
    assert firsts > 0  # first_unseen tried another change first at least once
