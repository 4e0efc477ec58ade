"""3DRotation: congruence by brute force, chirality, verifier proofs, CLI end to end."""

from __future__ import annotations

import copy
import re
from collections import Counter

import numpy as np
import pytest
from conftest import only_the_answer_verifies

from spatialcad.geometry import rotations as R
from spatialcad.geometry.colours import SAND
from spatialcad.geometry.voxels import is_connected, random_stack
from spatialcad.render import legibility, unseen
from spatialcad.render.camera import camera
from spatialcad.render.pixels import pixels_differing
from spatialcad.render.png import decode_png
from spatialcad.render.stacks import (
    OPPOSITE_CORNERS,
    Framing,
    IsometricLook,
    common_isometric_framing,
    cube_visibility,
    stack_picture,
)
from spatialcad.run.pipeline import assemble, make_item
from spatialcad.run.verification import run_verifier
from spatialcad.tasks import registry
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.rotation_3d.generate import (
    PANEL,
    _Looks,
    _outline_key,
    _removed_cube_option,
    legible_framing,
    must_look_wrong,
    must_not_hide,
    must_read,
    outline_sides,
    random_steps,
    settled_framing,
    steps_matrix,
)
from spatialcad.tasks.rotation_3d.spec import VIEWS, OptionData, Spec, texts
from spatialcad.tasks.rotation_3d.verify import (
    _look_sizes,
    _looks_wrong,
    _turned_copies,
    _TurnedLooks,
    congruence_class,
    placed,
    rotation_group,
)

ONE_VIEW = VIEWS[0]  # the isometric picture, all the old reference showed


def _item(level: int, index: int):
    result = make_item("rotation_3d", level, index, 20, 5)
    return result.record, decode_png(result.png)


def _lists(vox) -> list[list[int]]:
    return [list(v) for v in vox]


def test_rotation_group_is_the_24_proper_rotations():
    mine = {m.tobytes() for m in rotation_group()}
    assert len(mine) == 24 and mine == {m.tobytes() for m in R.proper_rotations()}


def test_turned_copies_are_every_placed_copy_sorted():
    """The verifier's turned copies, worked out for all turns at once, are the distinct
    placed copies over the rotation group, sorted, and the congruence class the least."""
    rng = np.random.default_rng(11)
    for _ in range(60):
        stack = random_stack(rng, (4, 4, 4), 0.45)
        moved = [(x - 2, y + 3, z - 1) for x, y, z in stack]
        vox = np.array(moved, dtype=int)
        copies = sorted({placed(vox, m) for m in rotation_group()})
        assert _turned_copies(moved) == copies
        assert congruence_class(moved) == min(copies)


def test_verifier_looks_compare_only_pictures_of_one_size():
    """_look_sizes gives each turned copy its IsometricLook size, and _looks_wrong, which
    compares only pictures of one size, finds what comparing every picture finds, for
    rotations, mirrors and one-cube-removed copies of random stacks."""
    rng = np.random.default_rng(13)
    found = Counter()
    for _ in range(8):
        stack = random_stack(rng, (4, 4, 4), 0.4)
        turned = _turned_copies(stack)
        assert _look_sizes(turned) == [IsometricLook(c).size for c in turned]
        ref, every = IsometricLook(stack), [IsometricLook(c) for c in turned]
        looks = _TurnedLooks(turned)
        turn = steps_matrix(random_steps(rng))
        for option in [R.rotate(stack, turn), R.mirror(stack, 0),
                       *(R.rotate([v for v in stack if v != c], turn) for c in stack[:8])]:
            copies = _turned_copies(option)
            own = IsometricLook(option)
            expected = ("its picture equals the picture of a rotation of the reference"
                        if any(own.difference(look) < 20 for look in every) else
                        "one of its rotations draws the reference picture"
                        if any(IsometricLook(c).difference(ref) < 20 for c in copies) else None)
            assert _looks_wrong(looks, ref, option, copies) == expected
            found[expected] += 1
    assert len(found) == 3, found


def test_hand_checked_chirality():
    tromino = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    screw = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]]
    mirrored = [[-x, y, z] for x, y, z in screw]
    assert congruence_class(tromino) == congruence_class([[-x, y, z] for x, y, z in tromino])
    assert congruence_class(screw) != congruence_class(mirrored)


def test_rotating_never_changes_the_canonical_form():
    rng = np.random.default_rng(0)
    for _ in range(40):
        stack = random_stack(rng, (3, 3, 3), 0.5)
        turned = R.rotate(stack, steps_matrix(random_steps(rng)))
        assert congruence_class(_lists(turned)) == congruence_class(_lists(stack))


def test_mirroring_a_chiral_stack_always_changes_it():
    rng = np.random.default_rng(1)
    seen = {True: 0, False: 0}
    for _ in range(60):
        stack = random_stack(rng, (3, 3, 3), 0.5)
        chiral = R.is_chiral(stack)
        mirrored = R.mirror(stack, int(rng.integers(3)))
        assert (congruence_class(_lists(mirrored)) != congruence_class(_lists(stack))) == chiral
        seen[chiral] += 1
    assert min(seen.values()) > 3


def test_looks_tell_hidden_cubes_from_visible_ones():
    block = [(x, y, z) for x in range(2) for y in range(2) for z in range(2)]
    hidden = (0, 1, 0)  # behind and below: the isometric view from (+1, -1, +1) misses it
    visible = (1, 0, 1)
    look = IsometricLook(block)
    assert look.difference(IsometricLook([v for v in block if v != hidden])) == 0
    assert look.difference(IsometricLook([v for v in block if v != visible])) > 20


def _failures(stack, shapes, views, letter="C", panel=PANEL) -> list[str]:
    """The verifier's failures for a "can" item of ``stack`` with options ``shapes``
    ((operator, voxels), the first the answer) and reference pictures ``views``, drawn as
    the generator draws them in panels of size ``panel``."""
    framing = common_isometric_framing([stack] + [s for _, s in shapes], panel)

    def picture(vox, at=framing):
        return stack_picture(vox, at, colors={tuple(v): SAND for v in vox})

    options = [Option(op == "rotation", op, "", image=picture(v),
                      data=OptionData(list(v), []).to_json()) for op, v in shapes]
    spec = Spec(voxels=stack, space=[5, 5, 5], question="can", chiral=R.is_chiral(stack),
                option_voxels=[list(v) for _, v in shapes], colour=SAND, panel=panel,
                views=list(views))
    reference = [Panel(picture(stack, Framing(OPPOSITE_CORNERS[v], framing.scale, panel)), v)
                 for v in views]
    draft = Draft(texts(spec, []).question, spec.to_json(), reference, options)
    record, image = assemble(registry.task("rotation_3d"), draft, level=0, image_id="0000",
                             letter=letter, item_seed=1)
    return run_verifier(record, image)


def test_mirrored_achiral_stack_is_rejected_as_a_distractor():
    stack = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0), (1, 0, 1)]  # mirror plane x = 1
    assert not R.is_chiral(stack)
    shapes = [
        ("rotation", R.rotate(stack, R.axis_rotation("z", 1))),
        ("mirror", R.rotate(R.mirror(stack, 0), R.axis_rotation("x", 1))),
        ("remove_cube", R.rotate(stack[1:], R.axis_rotation("y", 1))),
        ("remove_cube", R.normalize(stack[:3] + stack[4:])),
    ]
    failures = _failures(stack, shapes, VIEWS)
    assert any("(mirror) is congruent to the reference" in f for f in failures)
    assert not any("picture of its voxels" in f for f in failures)


# Issue 35: five items the old generator made (rotation_3d, --n 30 --seed 77, levels 0-2),
# each with one isometric reference picture: (item, reference stack, the wrong option's
# removed cube).  That cube is hidden in the picture, so the option is a true rotation of
# another stack drawing the same picture.
OLD_ITEMS = [
    ("L0/0003", [[0, 2, 0], [1, 2, 0], [2, 0, 0], [2, 0, 1], [2, 0, 2], [2, 1, 0], [2, 2, 0],
                 [2, 2, 1]], (0, 2, 0)),
    ("L1/0007", [[0, 1, 0], [0, 1, 1], [0, 1, 2], [0, 2, 0], [0, 3, 0], [1, 0, 0], [1, 1, 0],
                 [1, 2, 0], [1, 2, 1], [2, 0, 0], [2, 0, 1], [2, 0, 2]], (0, 3, 0)),
    ("L1/0014", [[0, 2, 0], [0, 3, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [1, 3, 0], [2, 0, 0],
                 [2, 0, 1], [2, 0, 2], [2, 0, 3], [2, 1, 0], [2, 3, 0], [3, 1, 0], [3, 3, 0],
                 [3, 3, 1], [3, 3, 2]], (0, 2, 0)),
    ("L2/0022", [[0, 2, 0], [0, 2, 1], [0, 2, 2], [0, 3, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1],
                 [1, 2, 0], [1, 2, 1], [2, 0, 0], [2, 2, 0], [2, 3, 0], [2, 4, 0], [2, 4, 1],
                 [3, 0, 0], [3, 3, 0], [4, 0, 0], [4, 3, 0], [4, 4, 0], [4, 4, 1]], (0, 3, 0)),
    ("L2/0026", [[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 2, 1], [1, 0, 0], [2, 0, 0], [2, 0, 1],
                 [3, 0, 0], [3, 1, 0], [3, 2, 0], [3, 3, 0], [3, 3, 1], [3, 4, 0], [4, 3, 0],
                 [4, 3, 1], [4, 4, 0]], (3, 4, 0)),
]


@pytest.mark.parametrize(("item", "cells", "hidden"), OLD_ITEMS, ids=[i[0] for i in OLD_ITEMS])
def test_a_cube_hidden_in_the_reference_fails_the_item(item, cells, hidden):
    """The old items (one isometric picture) are refused by the generator's check and by
    the verifier, which names the hidden cube; a mirror image or a rotation of the stack
    without that cube is a right answer for the stack without it."""
    stack = [tuple(v) for v in cells]
    rest = [v for v in stack if v != hidden]
    shapes = [("rotation", R.rotate(stack, R.axis_rotation("z", 1))),
              ("remove_cube", R.rotate(rest, R.axis_rotation("y", 2))),
              ("remove_cube", R.rotate(rest, R.axis_rotation("x", 1))),
              ("remove_cube", R.rotate(rest, R.axis_rotation("x", 2)))]
    framing = common_isometric_framing([stack] + [s for _, s in shapes], PANEL)
    with pytest.raises(Reject, match=re.escape(f"removing a cube at {list(hidden)}")):
        must_read(stack, framing, [ONE_VIEW])
    hides = f"removing a cube at {list(hidden)} draws the same pictures"
    assert any(hides in f for f in _failures(stack, shapes, [ONE_VIEW]))
    # the second picture shows it; some of these stacks still hide a cell from both
    both = _failures(stack, shapes, VIEWS)
    assert not any(hides in f for f in both)
    seen = [Framing(OPPOSITE_CORNERS[v], framing.scale, PANEL) for v in VIEWS]
    rivals = list(unseen.unseen_changes(stack, unseen.framed(seen), is_connected))
    assert len([f for f in both if "do not pin the stack down" in f]) == len(rivals)
    if rivals:
        with pytest.raises(Reject):
            must_read(stack, framing)
    else:
        must_read(stack, framing)


# Issue 48: item 0013 of `generate --task rotation_3d --level 2 --n 30 --seed 77` before
# the fix.  Its reference (from two corners) pins the stack down, but option "C", the stack
# without the cube at [1, 0, 1] turned 270 degrees about x, draws exactly as the whole stack
# turned so: the cube's gap bares a look-alike cube behind it in the option's one view.
SEED_77 = [(0, 1, 0), (0, 1, 1), (0, 1, 2), (0, 1, 3), (0, 2, 0), (0, 3, 0), (0, 3, 1),
           (0, 3, 2), (0, 4, 0), (0, 4, 1), (0, 4, 2), (0, 4, 3), (0, 4, 4), (1, 0, 0),
           (1, 0, 1), (1, 1, 0), (1, 2, 0), (2, 0, 0), (2, 2, 0), (3, 0, 0), (3, 0, 1),
           (3, 2, 0), (4, 1, 0), (4, 2, 0), (4, 3, 0)]
SEED_77_GAP = (1, 0, 1)


def _seed_77_shapes():
    """The item's options: the key, the mirror, the visible removed cube, the hidden one."""
    stack = SEED_77
    return [("rotation", R.rotate(stack, steps_matrix([("x", 1), ("z", 1)]))),
            ("mirror", R.rotate(R.mirror(stack, 2), steps_matrix([("y", 1), ("z", 2)]))),
            ("remove_cube", R.rotate([v for v in stack if v != (0, 1, 3)],
                                     steps_matrix([("z", 2), ("y", 2)]))),
            ("remove_cube", R.rotate([v for v in stack if v != SEED_77_GAP],
                                     steps_matrix([("x", 3)])))]


def test_a_removed_cube_the_options_view_does_not_show_fails_the_item():
    """The verifier names the seed-77 option whose removed cube its picture does not show
    (and nothing else: the old verifier passed the item), and the generator neither
    chooses that cube nor keeps an item drawing it."""
    shapes = _seed_77_shapes()
    framing = legible_framing([SEED_77, *(s for _, s in shapes)])
    failures = _failures(SEED_77, shapes, VIEWS, "A", framing.size)
    assert len(failures) == 1, failures
    assert re.fullmatch(r"option [B-D] is drawn like the reference turned to \[.*\]: its "
                        r"picture does not show what makes it wrong", failures[0])
    # the same item with the fourth option's cube removed where its gap shows passes
    visible = R.rotate([v for v in SEED_77 if v != (4, 3, 0)], steps_matrix([("x", 3)]))
    assert _failures(SEED_77, [*shapes[:3], ("remove_cube", visible)], VIEWS, "A",
                     framing.size) == []
    looks = _Looks(SEED_77)
    steps = [("x", 3)]
    with pytest.raises(Reject, match="no removable cube"):
        _removed_cube_option(SEED_77, [SEED_77_GAP], looks, steps)
    kept = _removed_cube_option(SEED_77, [SEED_77_GAP, (4, 3, 0)], looks, steps)
    assert OptionData.from_json(kept.data).removed == (4, 3, 0)
    options = [Option(op == "rotation", op, "", image=stack_picture(
        s, framing, colors=dict.fromkeys(s, SAND))) for op, s in shapes]
    with pytest.raises(Reject, match="a remove_cube option draws like a rotation"):
        must_look_wrong(SEED_77, options, [list(s) for _, s in shapes], framing)
    must_look_wrong(SEED_77, options[:3], [list(s) for _, s in shapes[:3]], framing)


def test_drawn_alike_decides_as_the_drawn_pictures():
    """unseen.drawn_alike finds a rival exactly when the drawn pictures of a rival and the
    option (in the option's framing) differ in fewer than unseen.tolerance pixels, on every
    removed-cube stack of a random stack turned every way; the outline shortcut refuses no
    rival that would draw alike."""
    rng = np.random.default_rng(48)
    found = tried = 0
    for _ in range(3):
        stack = random_stack(rng, (4, 4, 4), 0.5)
        turned = sorted({R.rotate(stack, m) for m in R.proper_rotations()})
        framing = common_isometric_framing([stack], PANEL)
        drawn = [stack_picture(t, framing, colors=dict.fromkeys(t, SAND)) for t in turned]
        for cube in stack:
            rest = [v for v in stack if v != cube]
            if not is_connected(rest):
                continue
            option = R.rotate(rest, steps_matrix([("x", 1)]))
            shown = stack_picture(option, framing, colors=dict.fromkeys(option, SAND))
            brute = [t for t, picture in zip(turned, drawn, strict=True)
                     if pixels_differing(shown, picture, unseen.SHADE)
                     < unseen.tolerance(framing.scale)]
            alike = unseen.drawn_alike(shown, option, turned, framing, SAND)
            assert alike == (brute[0] if brute else None)
            found += alike is not None
            tried += 1
    assert 0 < found < tried


def test_unseen_changes_against_brute_force_pictures():
    """Every single-cube change keeping the stack connected, drawn as the item draws it:
    unseen_changes reports exactly those whose picture differs from the stack's in fewer
    pixels than a quarter of a cube face (away from that threshold: it compares one-sample
    drawings).  Among them a cube that shows, but whose removal reveals the cube one step
    behind it along the view's axis, drawn on the same spot."""
    scale = 30.0
    framing = Framing(OPPOSITE_CORNERS[ONE_VIEW], scale, (400, 400))
    stack = [(0, 0, 0), (0, 1, 0), (0, 2, 0), (1, 0, 0), (1, 0, 1), (1, 0, 2), (1, 1, 0),
             (1, 1, 1), (1, 1, 2)]
    behind = (1, 1, 1)  # (0, 2, 0) is one step behind it along the view
    own = stack_picture(stack, framing)
    reported = set(unseen.unseen_changes(stack, unseen.framed([framing]), is_connected))
    limit = 0.25 * scale**2
    for change in [("remove", v) for v in stack] + [("add", v)
                                                      for v in unseen.face_neighbours(stack)]:
        other = unseen.changed(stack, change)
        if not is_connected(other):
            continue
        differing = pixels_differing(stack_picture(other, framing), own, 40)
        if abs(differing - limit) > 0.2 * limit:
            assert (change in reported) == (differing < limit), (change, differing)
    assert behind in legibility.shown_cells(stack, framing.cam, scale)
    assert ("remove", behind) in reported


def test_hidden_changes_against_brute_force_visibility():
    """The exact pre-test names exactly the changes whose cube no pixel of either reference
    picture shows (counted on drawings), each of them one that unseen_changes reports at
    two scales; must_not_hide rejects only stacks must_read rejects."""
    cams = [OPPOSITE_CORNERS[v] for v in VIEWS]
    rng = np.random.default_rng(3)
    found = 0
    for _ in range(25):
        stack = random_stack(rng, (4, 4, 4), 0.5)
        hidden = list(unseen.hidden_changes(stack, cams, is_connected))
        for change in unseen._changes(stack):
            cell = change[1]
            cubes = [v for v in stack if v != cell] + [cell]
            pixels = [cube_visibility(cubes, Framing(cam, 25.0, (400, 400)))[-1]
                      for cam in cams]
            shown = max(pixels) > 0
            other = unseen.changed(stack, change)
            assert (change in hidden) == (not shown and bool(other) and is_connected(other))
        for scale in (20.0, 45.0):
            seen = unseen.framed([Framing(cam, scale, (400, 400)) for cam in cams])
            assert set(hidden) <= set(unseen.unseen_changes(stack, seen, is_connected))
        if hidden:
            found += 1
            framing = common_isometric_framing([stack], PANEL)
            with pytest.raises(Reject):
                must_not_hide(stack)
            with pytest.raises(Reject):
                must_read(stack, framing)
    assert found >= 3
    with pytest.raises(ValueError):
        list(unseen.hidden_changes(stack, [camera("front")], is_connected))


def test_lattice_reading_of_windows_matches_the_drawn_windows():
    """Read on the triangle lattice (unseen._Lattice), a window of either reference picture
    shows one colour deep inside each triangle of the cell's hexagon, a change alters it in
    exactly the triangles the lattice names, and the pixels it counts there differ in the
    drawn windows: so a change it proves shown is one the drawn windows show."""
    rng = np.random.default_rng(11)
    proved = undecided = 0
    for _ in range(6):
        stack = random_stack(rng, (3, 3, 3), 0.5)
        for cam in OPPOSITE_CORNERS.values():
            for scale in (22.0, 40.5):
                lattice = unseen._Lattice(cam, scale)
                index, deep = unseen._pixel_triangles(cam, scale)
                for change in unseen._changes(stack):
                    other = unseen.changed(stack, change)
                    if not other:
                        continue
                    a = unseen._window(stack, change[1], cam, scale, None, None)
                    b = unseen._window(other, change[1], cam, scale, None, None)
                    counted = 0
                    for k in range(6):
                        inside = deep & (index == k)
                        assert len(np.unique(a[inside], axis=0)) == 1
                        assert len(np.unique(b[inside], axis=0)) == 1
                        if pixels_differing(a[inside][None], b[inside][None], unseen.SHADE):
                            counted += int(inside.sum())
                    assert lattice.apart(stack, change, counted) and not lattice.apart(
                        stack, change, counted + 1)
                    assert pixels_differing(a, b, unseen.SHADE) >= counted
                    shown = lattice.apart(stack, change, unseen.tolerance(scale))
                    proved, undecided = proved + shown, undecided + (not shown)
    assert proved > 100 and undecided > 10
    front = Framing(camera("front"), 30.0, (200, 200))
    iso = Framing(OPPOSITE_CORNERS[ONE_VIEW], 30.0, (200, 200))
    assert [draw.apart is None for draw, _ in unseen.framed([front, iso])] == [True, False]
    assert unseen.framed([iso], floor=(3, 3))[0][0].apart is None


def test_outline_from_each_cubes_bounds_equals_the_outline_of_all_corners():
    """unseen._outline, made from each cube's remembered corner bounds, gives the same
    numbers as projecting every corner of the stack at once."""
    rng = np.random.default_rng(4)
    corners = unseen.CORNERS
    for _ in range(40):
        stack = [(x - 2, y + int(rng.integers(-3, 3)), z)
                 for x, y, z in random_stack(rng, (4, 4, 4), 0.4)]
        for cam in [*OPPOSITE_CORNERS.values(), camera("front")]:
            uv = cam.project((np.array(stack)[:, None, :] + corners[None]).reshape(-1, 3))
            whole = (*uv[:, :2].min(axis=0).round(9).tolist(),
                     *uv[:, :2].max(axis=0).round(9).tolist())
            assert unseen._outline(stack, cam) == whole


def test_moved_from_the_stacks_extremes_equals_placing_the_changed_stack():
    """A framed picture's ``moved`` (the stack's own extremes, grown or shrunk by the
    changed cube) says a change moves the picture exactly when placing the changed stack
    gives another place, for every change of random stacks, in both reference views and a
    front view."""
    rng = np.random.default_rng(6)
    framings = [Framing(cam, 30.0, (200, 200))
                for cam in [*OPPOSITE_CORNERS.values(), camera("front")]]
    moves = 0
    for _ in range(15):
        stack = random_stack(rng, (4, 4, 4), 0.5)
        for draw, _ in unseen.framed(framings):
            assert isinstance(draw, unseen.Placed) and draw.moved is not None
            for change in unseen._changes(stack):
                other = unseen.changed(stack, change)
                if other:
                    placed = draw.place(other) != draw.place(stack)
                    assert draw.moved(stack, change) == placed, change
                    moves += placed
    assert moves > 100


def test_a_settled_framing_is_the_framing_of_every_choice_of_removed_cubes():
    """When settled_framing settles the framing before the removed-cube options are chosen,
    the stacks drawn with any cube removed from each turned stack draw in that very
    framing (its panel and scale); _outline_key orders outlines as their fitted scales."""
    rng = np.random.default_rng(9)
    settled = unsettled = 0
    for _ in range(40):
        stack = random_stack(rng, (4, 4, 4), 0.45)
        turns = [R.rotate(stack, steps_matrix(random_steps(rng))) for _ in range(3)]
        known, bounds = [stack, turns[0]], turns[1:]
        keys = [_outline_key(s) for s in turns]
        fits = [common_isometric_framing([s], PANEL).scale for s in turns]
        assert all((a < b) == (f > g) for a, f in zip(keys, fits, strict=True)
                   for b, g in zip(keys, fits, strict=True) if a != b)
        try:
            framing = settled_framing(known, bounds)
        except Reject:
            continue
        if framing is None:
            unsettled += 1
            continue
        settled += 1
        for parts in zip(*([[c for c in b if c != v] for v in b] for b in bounds), strict=True):
            shown = [*known, *parts]
            assert legible_framing(shown) == framing
    assert settled > 5 and unsettled > 5


def test_legible_framing_is_the_common_framing_in_the_grown_panel():
    """legible_framing reuses the framing fitted to PANEL when no larger panel is needed
    and fits only the stacks of the largest outline: it is the common framing of all the
    stacks in the panel grown for legible cubes (turned copies of a stack, of equal
    outlines, among them)."""
    rng = np.random.default_rng(12)
    grown = 0
    for side in (3, 4, 5, 6):
        for _ in range(6):
            stacks = [random_stack(rng, (side,) * 3, 0.4) for _ in range(3)]
            stacks += [list(R.rotate(s, steps_matrix(random_steps(rng)))) for s in stacks]
            need = legibility.min_scale(camera("isometric"))
            wide = legibility.grown_side(
                PANEL[0], common_isometric_framing(stacks, PANEL).scale, need)
            try:
                framing = legible_framing(stacks)
            except Reject:
                assert not legibility.fits(wide, 4, wide, references=2)
                continue
            assert framing == common_isometric_framing(stacks, (wide, wide))
            grown += wide > PANEL[0]
    assert grown > 3


def test_a_framing_settled_before_the_mirror_is_judged_holds_whether_it_is_kept():
    """When the framing settles with the mirror option left out and a turn drawn for every
    wrong option, and the mirror's outline is smaller than a known stack's, the stacks
    drawn with the mirror kept (the last turn unused) or replaced by a removed-cube option
    draw in that very framing, whichever cubes are removed."""
    rng = np.random.default_rng(10)
    settled = 0
    for _ in range(60):
        stack = random_stack(rng, (4, 4, 4), 0.45)
        known = [stack, R.rotate(stack, steps_matrix(random_steps(rng)))]
        mirror = R.rotate(R.mirror(stack, int(rng.integers(3))), steps_matrix(random_steps(rng)))
        bounds = [R.rotate(stack, steps_matrix(random_steps(rng))) for _ in range(2)]
        try:
            framing = settled_framing(known, bounds)
        except Reject:
            continue
        if framing is None or _outline_key(mirror) >= max(map(_outline_key, known)):
            continue
        settled += 1
        assert settled_framing([*known, mirror], bounds[:1]) == framing
        for kept in ([mirror], []):
            parts = bounds[: len(bounds) - len(kept)]
            for cubes in zip(*([[c for c in b if c != v] for v in b] for b in parts),
                             strict=True):
                shown = [*known, *kept, *cubes]
                assert legible_framing(shown) == framing
    assert settled > 5


def test_outline_sides_tell_look_sizes_apart():
    """Two stacks' IsometricLook pictures have one size exactly when their outlines have the
    same sides in lattice steps (outline_sides, per rotation in proper_rotations' order),
    on random stacks and their mirror images in all 24 rotations."""
    rng = np.random.default_rng(8)
    looks = []
    for _ in range(12):
        stack = random_stack(rng, (4, 4, 4), 0.4)
        for shape in (stack, R.mirror(stack, 0)):
            for m, sides in zip(R.proper_rotations(), outline_sides(shape), strict=True):
                turned = R.rotate(shape, m)
                assert outline_sides(turned)[0] == sides
                looks.append((sides, IsometricLook(turned).size))
    pairs = [(a, b) for a in looks[::7] for b in looks[::5]]
    assert all((a[0] == b[0]) == (a[1] == b[1]) for a, b in pairs)
    assert sum(a[0] == b[0] for a, b in pairs) > 50


# (level, index) pairs of seed 5 covering "cannot" with a removed cube, "can" with a mirror
# and two removed cubes, and "cannot" with a mirror.
@pytest.mark.parametrize(("level", "index"), [(0, 0), (0, 1), (1, 0)])
def test_every_distractor_swapped_in_as_answer_fails(level, index):
    only_the_answer_verifies(*_item(level, index))


def test_generated_mirrors_are_of_chiral_stacks_and_pictures_match_voxels():
    record, image = _item(1, 1)
    for o in record["options"]:
        if o["operator"] == "mirror":
            assert R.is_chiral(map(tuple, record["spec"]["voxels"]))
    bad = copy.deepcopy(record)
    a, b = bad["options"][0], bad["options"][1]
    a["data"]["voxels"], b["data"]["voxels"] = b["data"]["voxels"], a["data"]["voxels"]
    assert any("picture of its voxels" in f for f in run_verifier(bad, image))


def test_edited_texts_are_rejected():
    """The question is the one of the spec's kind; the choices name the pictures."""
    record, image = _item(0, 1)
    assert record["spec"]["question"] == "can" and run_verifier(record, image) == []
    edits = {"Question": record["Question"].replace("can be", "cannot be"),
             "Choices": ["Image A", "Image B", "Image C", "Image E"]}
    for field, text in edits.items():
        assert text != record[field]
        assert any(f"its {field}" in f for f in run_verifier({**record, field: text}, image))


def test_a_builds_looks_are_made_once_and_drawn_as_fresh_ones():
    """_Looks.look hands out one look per sequence of cubes (a list or a tuple of them),
    drawn as a fresh IsometricLook draws it; the same cubes in another order are another
    look (the picture's mesh follows their order)."""
    rng = np.random.default_rng(4)
    for _ in range(6):
        stack = random_stack(rng, (4, 4, 4), 0.45)
        looks = _Looks(stack)
        turned = R.rotate(stack, steps_matrix(random_steps(rng)))
        look = looks.look(turned)
        assert looks.look([list(v) for v in turned]) is look
        assert looks.look(stack) is looks.reference
        assert np.array_equal(look.picture, IsometricLook(list(turned)).picture)
        assert look.size == IsometricLook(list(turned)).size
        assert looks.look(turned[::-1]) is not look
