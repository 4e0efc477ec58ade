"""CubeAssembly: pyramid stacks, splits into connected parts, one-cube edits, distractors
rejected as answers, option sets that picture similarity cannot answer, and the CLI end to
end."""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest
from conftest import only_the_answer_verifies
from scipy import ndimage

from spatialcad.evaluate.baselines import LETTERS, image_scores
from spatialcad.geometry import splitting
from spatialcad.geometry.colours import OPTION_COLOUR, PART_COLOURS
from spatialcad.geometry.voxels import is_connected, is_supported
from spatialcad.render import legibility, raster, unseen
from spatialcad.render.layout import MAX_PIXELS, arrangement
from spatialcad.render.piece_pictures import (
    composite_size,
    looks_like,
    option_framings,
    option_picture,
    option_view,
    picture_size,
    reference_framings,
    reference_pictures,
    scene_rule,
    view_size,
    views,
    visible,
)
from spatialcad.render.png import decode_png
from spatialcad.render.stacks import stack_picture
from spatialcad.render.thumbnails import answer_ranks, distances, thumbnail
from spatialcad.run.pipeline import assemble, make_item
from spatialcad.run.verification import run_verifier
from spatialcad.tasks import registry
from spatialcad.tasks.base import Draft, Option, Panel
from spatialcad.tasks.cube_assembly.generate import Generator, looks_different
from spatialcad.tasks.cube_assembly.spec import OptionData, Spec, texts

QUESTION_FAILS = "its Question is not the text its spec gives"


def test_pyramid_stacks_stand_connected_in_their_space():
    rng = np.random.default_rng(2)
    for size in [(3, 3, 3), (4, 4, 3), (5, 4, 4), (3, 3, 2)]:
        for _ in range(30):
            stack = splitting.pyramid_stack(rng, size)
            assert is_supported(stack) and is_connected(stack)
            assert all(0 <= c[i] < size[i] for c in stack for i in range(3))
            # below the top layer, rows start at x = 0 and grow toward +y
            for z in range(size[2] - 1):
                rows = [sum(1 for c in stack if c[1] == y and c[2] == z) for y in range(size[1])]
                assert rows == sorted(rows)
                assert all((x, y, z) in stack for y in range(size[1]) for x in range(rows[y]))


def test_splits_are_connected_disjoint_and_cover_the_stack():
    rng = np.random.default_rng(3)
    for _ in range(60):
        stack = splitting.pyramid_stack(rng, (4, 4, 3))
        k = int(rng.integers(2, 5))
        if len(stack) < k:
            continue
        parts = splitting.split_connected(rng, stack, k)
        assert len(parts) == k
        assert all(is_connected(p) for p in parts)
        assert sum(len(p) for p in parts) == len(stack)
        assert set().union(*map(set, parts)) == set(stack)


def test_split_needs_a_connected_stack():
    with pytest.raises(ValueError):
        splitting.split_connected(np.random.default_rng(0), [(0, 0, 0), (2, 0, 0)], 2)


def test_one_cube_edits():
    bar = [(0, 0, 0), (1, 0, 0), (2, 0, 0)]
    assert splitting.removable_cubes(bar) == [(0, 0, 0), (2, 0, 0)]
    assert splitting.removable_cubes([(0, 0, 0)]) == []
    box = ((0, 0, 0), (2, 1, 1))
    assert splitting.addable_cells(bar, box) == [
        (0, 0, 1), (0, 1, 0), (1, 0, 1), (1, 1, 0), (2, 0, 1), (2, 1, 0)]



def test_cut_cubes_are_those_whose_removal_splits_the_piece():
    rng = np.random.default_rng(4)
    for _ in range(400):
        cubes = sorted({tuple(int(v) for v in rng.integers(0, 3, 3))
                        for _ in range(int(rng.integers(1, 20)))})
        if not is_connected(cubes):
            continue
        assert splitting.cut_cubes(cubes) == {
            c for c in cubes if len(cubes) > 1 and not is_connected(set(cubes) - {c})}
        assert splitting.removable_cubes(cubes) == [
            c for c in cubes if len(cubes) > 1 and is_connected(set(cubes) - {c})]


def test_the_scene_rule_judges_one_cube_changes_as_in_full():
    """The changes unseen_changes tries (each cube removed, a cube added at each face
    neighbour, and some others), judged by the scene rule's shortcuts as by its full test."""
    rng = np.random.default_rng(5)
    for _ in range(40):
        stack = splitting.pyramid_stack(rng, (4, 4, 3))
        if len(stack) < 3:
            continue
        parts = splitting.split_connected(rng, stack, 3)[:2]
        covered = {c for p in parts for c in p}
        rule = scene_rule(stack, parts)
        tried = [[c for c in stack if c != gone] for gone in stack]
        tried += [[*stack, cell] for cell in unseen.face_neighbours(stack)]
        tried += [stack, stack[1:-1], [*stack, (9, 9, 0)]]
        for cubes in tried:
            have = set(cubes)
            assert rule(cubes) == (covered <= have and is_supported(have)
                                   and is_connected(have) and is_connected(have - covered))


@pytest.fixture(scope="module")
def items():
    out = []
    for level, index in ((0, 0), (0, 1), (1, 0), (1, 1)):
        result = make_item("cube_assembly", level, index, 4, 13)
        out.append((result.record, decode_png(result.png)))
    return out


@pytest.fixture(scope="module")
def level1_items():
    """40 fixed items of one level-1 run (seed 13)."""
    out = []
    for index in range(40):
        result = make_item("cube_assembly", 1, index, 40, 13)
        out.append((result.record, decode_png(result.png)))
    return out


def test_every_kind_of_wrong_piece_fails_as_the_answer(items, level1_items):
    kinds = set()
    for record, image in items + level1_items[:8]:
        kinds |= only_the_answer_verifies(record, image)
    assert kinds == {"remove_cube", "add_cube", "move_cube", "two_edits"}


def _crops(image, boxes):
    return [thumbnail(image[y : y + h, x : x + w]) for x, y, w, h in boxes]


def test_shown_panels_give_the_answer_its_drawn_ranks(level1_items):
    # the ranks the generator chose on its own panels are the ranks on the composed image
    targets = set()
    for record, image in level1_items:
        layout = record["layout"]
        answer = LETTERS.index(record["Answer"])
        options = _crops(image, layout["options"])
        options.insert(0, options.pop(answer))
        refs = _crops(image, layout["reference"])
        dist = distances(refs + options)
        ranks = answer_ranks(dist, range(len(refs)), range(len(refs), len(refs) + 4))
        assert ranks == tuple(record["spec"]["answer_ranks"])
        targets.add(ranks)
    assert len(targets) >= 12  # of the 16 pairs, drawn uniformly


def test_picture_similarity_does_not_find_the_answer(level1_items):
    hits = dict.fromkeys(("most_typical", "odd_one_out", "nearest_to_reference",
                          "farthest_from_reference"), 0)
    for record, image in level1_items:
        scores = image_scores(image, record["layout"])
        for name in hits:
            hits[name] += LETTERS[int(np.argmax(scores[name]))] == record["Answer"]
    # chance is 10 of 40; before the balanced option sets "most typical" found 34
    assert all(2 <= n <= 20 for n in hits.values()), hits


def test_shapes_compare_after_moving_to_the_corner(items):
    record, image = items[0]
    answer = next(o for o in record["options"] if o["is_answer"])
    bad = copy.deepcopy(record)
    moved = next(o for o in bad["options"] if o["is_answer"])
    moved["data"]["voxels"] = [[x + 2, y - 1, z + 1] for x, y, z in answer["data"]["voxels"]]
    # options are drawn centred on themselves: only the shape counts, not the offset
    assert run_verifier(bad, image) == []


def test_connectivity_is_scipys_face_labelling():
    """is_connected (which the generator and the verifier use) against scipy's labelling
    of face-connected components, on random cube sets (sparse and dense, so that both
    answers occur often)."""
    rng = np.random.default_rng(9)
    seen = set()
    for _ in range(400):
        count = int(rng.integers(1, 14))
        cubes = {tuple(int(c) for c in v) for v in rng.integers(0, 3, (count, 3))}
        grid = np.zeros((3, 3, 3), dtype=bool)
        grid[tuple(np.array(sorted(cubes)).T)] = True
        _, parts = ndimage.label(grid, ndimage.generate_binary_structure(3, 1))
        seen.add(parts == 1)
        assert is_connected(sorted(cubes)) == (parts == 1)
    assert seen == {True, False} and not is_connected([])


def test_tampered_records_fail(items):
    record, image = items[2]
    bad = copy.deepcopy(record)
    bad["spec"]["parts"][0] = bad["spec"]["parts"][0][:-1]
    assert run_verifier(bad, image)
    bad = copy.deepcopy(record)
    bad["spec"]["parts"][1] = bad["spec"]["parts"][0]
    assert any("overlaps" in f for f in run_verifier(bad, image))
    bad = copy.deepcopy(record)
    bad["options"][0]["data"]["voxels"].append([9, 9, 9])
    assert any("not connected" in f for f in run_verifier(bad, image))


def test_the_question_and_choices_are_proved(items):
    record, image = items[2]
    k = record["spec"]["pieces"]
    said = f"split into {k} face-connected"
    assert said in record["Question"]
    bad = copy.deepcopy(record)
    bad["Question"] = bad["Question"].replace(said, f"split into {k + 1} face-connected")
    assert QUESTION_FAILS in run_verifier(bad, image)
    bad = copy.deepcopy(record)
    bad["Question"] = bad["Question"].replace("(Part 1 and Part 2)", "(Part 1, Part 2 and Part 3)")
    assert QUESTION_FAILS in run_verifier(bad, image)
    bad = copy.deepcopy(record)
    bad["spec"]["pieces"] = k + 1  # the question no longer states the spec's split
    assert QUESTION_FAILS in run_verifier(bad, image)
    bad = copy.deepcopy(record)
    bad["Choices"] = ["Image B", "Image A", "Image C", "Image D"]
    assert any(f.startswith("its Choices") for f in run_verifier(bad, image))


def test_the_open_answer_is_the_missing_pieces_cube_count(items, level1_items):
    for record, _ in items + level1_items[:8]:
        answer = next(o for o in record["options"] if o["is_answer"])
        stack = {tuple(c) for c in record["spec"]["voxels"]}
        given = {tuple(c) for part in record["spec"]["parts"] for c in part}
        assert record["Answer_direct"] == str(len(answer["data"]["voxels"]))
        assert record["Answer_direct"] == str(len(stack - given))
        assert record["Question_direct"].endswith(
            "How many cubes does the missing piece have? Answer with a single integer.")


def test_a_wrong_open_answer_fails(items):
    record, image = items[2]
    bad = copy.deepcopy(record)
    bad["Answer_direct"] = str(int(bad["Answer_direct"]) + 1)
    failures = run_verifier(bad, image)
    assert "its Answer_direct is not the text its spec gives" in failures
    assert any(f.startswith("the open answer") for f in failures)
    bad = copy.deepcopy(record)
    bad["Question_direct"] = bad["Question_direct"].replace("missing piece have",
                                                            "complete stack have")
    assert "its Question_direct is not the text its spec gives" in run_verifier(bad, image)


def test_a_remembered_picture_is_the_picture_drawn_afresh():
    """The pictures' memo (keyed by piece and pose) gives back what a fresh draw gives, a
    copy the caller may change, and tells a piece from its draft and from a moved piece."""
    space = (3, 3, 3)
    piece = [(0, 0, 0), (1, 0, 0), (1, 1, 0)]
    raster.forget()
    first = option_picture(piece, space, 2)
    first[:] = 0  # a caller changing its copy changes nothing remembered
    again = option_picture(piece, space, 2)
    raster.forget()
    assert np.array_equal(again, option_picture(piece, space, 2))
    assert again.any()
    assert option_picture(piece, space, 2, draft=True).shape != again.shape
    moved = reference_pictures([*piece, (2, 2, 0)], [piece], space)
    raster.forget()
    assert all(np.array_equal(a, b) for a, b in zip(
        moved, reference_pictures([*piece, (2, 2, 0)], [piece], space), strict=True))
    assert not np.array_equal(moved[1], reference_pictures(
        [*piece, (2, 2, 0)], [[(x, y + 1, z) for x, y, z in piece]], space)[1])


# A 3x3x3 block split in two; the missing piece less its cube [1, 1, 0] draws both views
# alike (its gap bares faces of the same shade where its own faces were), although the
# cube counts as shown (legibility.hidden_difference finds the difference shown).
BLOCK = sorted(itertools.product(range(3), repeat=3))
MISSING = [(0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 2, 0), (1, 0, 0), (1, 0, 1),
           (1, 0, 2), (1, 1, 0), (1, 1, 1), (2, 0, 0), (2, 0, 1), (2, 0, 2), (2, 1, 0),
           (2, 1, 1), (2, 1, 2)]
HIDDEN_GAP = [c for c in MISSING if c != (1, 1, 0)]


def test_a_wrong_piece_drawn_like_the_missing_one_fails():
    """The option without cube [1, 1, 0] is refused: by the generator's pairwise check (its
    picture does not look different from the answer's) and by the verifier on the image
    (in neither view does it differ by a quarter face), though every cube of it shows and
    its difference counts as shown."""
    space, k = (3, 3, 3), 2
    framings = option_framings(space, k)
    answer, hidden = option_picture(MISSING, space, k), option_picture(HIDDEN_GAP, space, k)
    assert not legibility.hidden_difference(HIDDEN_GAP, MISSING, [np.eye(3, dtype=int)],
                                            [(f.cam, f.scale) for f in framings])
    assert looks_like(hidden, answer, framings[0].scale)
    assert not looks_different(hidden, answer, framings[0].scale)
    shown = [c for c in MISSING if c != (2, 1, 2)]  # a top cube removed: it shows
    assert not looks_like(option_picture(shown, space, k), answer, framings[0].scale)

    given = sorted(set(BLOCK) - set(MISSING))
    wrong = [HIDDEN_GAP, shown, [c for c in MISSING if c != (0, 2, 0)]]
    data = [OptionData(MISSING), *(OptionData(w, ["remove_cube"]) for w in wrong)]
    spec = Spec(voxels=BLOCK, space=space, pieces=k, parts=[given], answer_ranks=(0, 0),
                stacks_drawn=1)
    said = texts(spec, data)
    options = [Option(i == 0, "missing_piece" if i == 0 else "remove_cube", "",
                      image=option_picture(d.voxels, space, k), data=d.to_json())
               for i, d in enumerate(data)]
    pictures = reference_pictures(BLOCK, [given], space)
    draft = Draft(said.question, spec.to_json(), [Panel(p, "") for p in pictures], options,
                  question_direct=said.question_direct, answer_direct=said.answer_direct)
    record, image = assemble(registry.task("cube_assembly"), draft, level=0,
                             image_id="0000", letter="A", item_seed=1)
    letter = next(o["letter"] for o in record["options"]
                  if o["data"]["voxels"] == [list(c) for c in HIDDEN_GAP])
    failures = run_verifier(record, image)
    assert [f for f in failures if f.startswith(f"option {letter}")] == [
        f"option {letter} is drawn like the missing piece: its picture does not show what "
        "makes it wrong"]
    # the missing piece's own picture hides a cube (the generator draws such a stack again)
    assert not visible(MISSING, framings)
    assert f"option {record['Answer']} hides a cube" in failures


def test_pieces_stand_on_their_floor_and_shadow():
    """A loose piece stands on the checkerboard of its footprint, a piece on the stack's
    floor, each with dark tiles under its cubes: a cube over an empty cell (resting on
    another piece) shows its shadow, which a piece standing on the floor hides."""
    space, k = (3, 3, 3), 2
    overhang = [(0, 0, 0), (1, 0, 0), (1, 0, 1), (2, 0, 1)]
    for piece, shadow_shows in ((overhang, True), ([(0, 0, 0), (1, 0, 0), (2, 0, 0)], False)):
        framing = option_framings(space, k)[0]
        colours = dict.fromkeys(piece, OPTION_COLOUR)
        plain = stack_picture(piece, framing, colors=colours, floor=(3, 1))
        shaded = stack_picture(piece, framing, colors=colours, floor=(3, 1), shadow=True)
        assert unseen.apart(plain, shaded, framing.scale) == shadow_shows
        assert np.array_equal(views(option_picture(piece, space, k))[0], shaded)
    # a floating part in place: its cube [1, 0, 1] rests on the other piece's [1, 0, 0]
    stack, part = [(0, 0, 0), (1, 0, 0), (1, 0, 1), (2, 0, 1), (2, 0, 0)], [(1, 0, 1), (2, 0, 1)]
    framing = reference_framings(space)[0]
    colours = dict.fromkeys(part, PART_COLOURS[0])
    drawn = views(reference_pictures(stack, [part], space)[1])[0]
    assert np.array_equal(drawn, stack_picture(part, framing, colors=colours, floor=(3, 3),
                                               shadow=True))
    assert unseen.apart(drawn, stack_picture(part, framing, colors=colours, floor=(3, 3)),
                        framing.scale)


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_the_options_views_are_the_largest_the_pixel_limit_leaves(level):
    """Each level's composite keeps within layout.MAX_PIXELS; the options' views are the
    stack's view where that fits, else one pixel taller would not fit."""
    p = Generator().params(level)
    space, k = p["space"], p["pieces"]
    box, room = view_size(space), option_view(space, k)
    assert room is not None and room[0] <= box[0] and room[1] <= box[1]
    width, height = composite_size(space, k, room)
    assert width * height <= MAX_PIXELS
    assert arrangement([picture_size(box)] * k, [picture_size(room)] * 4) is not None
    if room != box:
        taller = composite_size(space, k, (room[0], room[1] + 1))
        assert taller[0] * taller[1] > MAX_PIXELS
    assert option_view((5, 5, 4), 4) is None  # the old level 3: no legible options fit
