"""2DRotation: grid model, exact drawing equivariance, verifier proofs, similarity balance
against the shortcut audit, CLI end to end."""

from __future__ import annotations

import copy
from itertools import combinations, product

import numpy as np
import pytest
from conftest import generated_items

from spatialcad.evaluate.baselines import image_scores
from spatialcad.geometry import grid2d as G
from spatialcad.record.records import answer_letter
from spatialcad.render.grid2d import draw_grid
from spatialcad.render.png import decode_png
from spatialcad.render.thumbnails import TIE, answer_ranks, distances, sets_with_ranks, thumbnail
from spatialcad.run.pipeline import assemble, make_item
from spatialcad.run.verification import run_verifier
from spatialcad.seeding import derive_seed, item_rng
from spatialcad.tasks import registry
from spatialcad.tasks.base import Draft, Option, Panel
from spatialcad.tasks.rotation_2d.generate import (
    _reflect,
    balanced_choices,
    distinct_distractors,
    mirrors,
    pattern_errors,
    rotations,
)
from spatialcad.tasks.rotation_2d.spec import (
    QUESTION,
    AnswerRanks,
    GridSpec,
    OptionData,
    Spec,
    Transform,
)
from spatialcad.tasks.rotation_2d.verify import Drawing


def _grid(colours, marker="tl", patterns=None, turns=None, flips=None) -> G.Grid:
    colours = np.array(colours)
    zero = np.zeros_like(colours)
    return G.Grid(colours, zero if patterns is None else np.array(patterns),
                  zero if turns is None else np.array(turns),
                  zero if flips is None else np.array(flips), marker)


def _item(level: int, index: int):
    result = make_item("rotation_2d", level, index, 20, 11)
    return result.record, decode_png(result.png)


def _random_transform(grid: G.Grid, rng: np.random.Generator) -> G.Grid:
    for _ in range(int(rng.integers(1, 4))):
        grid = (G.mirror(grid, str(rng.choice(["lr", "ud"]))) if rng.random() < 0.4
                else G.rotate(grid, int(rng.integers(1, 4))))
    return grid


def test_hand_checked_turn_and_mirrors():
    g = _grid([[1, 2, 3], [4, 5, 0]], marker="tl")
    turned = G.rotate(g, 1)  # counter-clockwise: the right column becomes the top row
    assert turned.colours.tolist() == [[3, 0], [2, 5], [1, 4]] and turned.marker == "bl"
    assert G.rotate(g, 3).marker == "tr" and G.rotate(g, 2).marker == "br"
    lr = G.mirror(g, "lr")
    assert lr.colours.tolist() == [[3, 2, 1], [0, 5, 4]] and lr.marker == "tr"
    assert G.mirror(g, "ud").marker == "bl"
    # an L turned a quarter counter-clockwise, then mirrored left-right: turns -1, flipped
    ell = _grid([[1]], patterns=[[G.PATTERNS.index("l_shape") + 1]])
    assert G.rotate(ell, 1).turns.tolist() == [[1]]
    m = G.mirror(G.rotate(ell, 1), "lr")
    assert (m.turns.tolist(), m.flips.tolist()) == ([[3]], [[1]])


def test_arrow_points_up_and_a_quarter_turn_points_it_left():
    def ink(turns: int) -> np.ndarray:
        arrow = _grid([[0]], patterns=[[G.PATTERNS.index("arrow") + 1]], turns=[[turns]])
        img = draw_grid(arrow, pitch=90)  # 30 px padding, 3 px lines: the cell is 33..119
        return img[33:120, 33:120].sum(axis=2) < 100

    half = 87 // 2
    assert np.argmax(ink(0).sum(axis=1)) < half  # the head's wide base is above the centre
    assert np.argmax(ink(1).sum(axis=0)) < half  # ... and left of it after a quarter turn


def test_drawing_is_exactly_equivariant():
    rng = np.random.default_rng(3)
    for size in (3, 4, 6):
        g = G.random_grid(rng, size, 0.6, size * size // 2)
        img = draw_grid(g)
        for k in range(4):
            assert np.array_equal(draw_grid(G.rotate(g, k)), np.rot90(img, k))
        assert np.array_equal(draw_grid(G.mirror(g, "lr")), img[:, ::-1])
        assert np.array_equal(draw_grid(G.mirror(g, "ud")), img[::-1])


def test_generator_and_verifier_models_agree_on_equal_drawings():
    rng = np.random.default_rng(8)
    agree = {True: 0, False: 0}
    for _ in range(150):
        g = G.random_grid(rng, 2, 0.5, int(rng.integers(0, 3)))
        a, b = _random_transform(g, rng), _random_transform(g, rng)
        same = G.same_drawing(a, b)
        assert same == (Drawing.parse(GridSpec.of(a)).key() == Drawing.parse(GridSpec.of(b)).key())
        assert same == np.array_equal(draw_grid(a), draw_grid(b))
        agree[same] += 1
    assert min(agree.values()) > 10


def test_symmetric_grid_mirror_equal_to_a_rotation_is_never_offered():
    g = _grid([[1, 2, 3], [2, 4, 5], [3, 5, 1]], marker="tl")  # symmetric about the diagonal
    ref_thumb = thumbnail(draw_grid(g))
    assert len(mirrors(g, ref_thumb)) == 3  # the marker-moving reflections ...
    assert distinct_distractors(g, mirrors(g, ref_thumb)) == []  # ... all draw as rotations
    assert all(balanced_choices(g, 0, t) == [] for t in product(range(4), repeat=2))
    made = [(True, Transform(turns=1)), (False, Transform(mirror="lr", turns=0)),
            (False, Transform(mirror="ud", turns=0)), (False, Transform(mirror="lr", turns=3))]
    options = []
    for is_answer, how in made:
        grid = _reflect(g, how.mirror, how.turns) if how.mirror else G.rotate(g, how.turns)
        data = OptionData(GridSpec.of(grid), how).to_json()
        options.append(Option(is_answer, "rotation" if is_answer else "mirror", "",
                              image=draw_grid(grid), data=data))
    spec = Spec(GridSpec.of(g), (3, 3), 0, AnswerRanks(0, 0), 1)
    draft = Draft(QUESTION, spec.to_json(), [Panel(draw_grid(g), "Reference grid")], options)
    record, image = assemble(registry.task("rotation_2d"), draft, level=0, image_id="0000",
                             letter="B", item_seed=1)
    failures = run_verifier(record, image)
    assert sum("is a distractor but equals the reference turned" in f for f in failures) == 3


@pytest.mark.parametrize("level", [0, 1, 2])
def test_every_distractor_swapped_in_as_answer_fails(level):
    for index in range(2):
        record, image = _item(level, index)
        assert run_verifier(record, image) == []
        operators = [o["operator"] for o in record["options"] if not o["is_answer"]]
        assert operators.count("mirror") == 3 - min(level, 2)
        assert set(operators) <= {"mirror", "unturned_patterns", "patterns_turned_back"}
        for o in record["options"]:
            if o["is_answer"]:
                continue
            bad = copy.deepcopy(record)
            for b in bad["options"]:
                b["is_answer"] = b["letter"] == o["letter"]
            bad["Answer"] = o["letter"]
            assert run_verifier(bad, image), (level, index, o["operator"])


def test_option_data_must_match_its_picture():
    record, image = _item(1, 0)
    bad = copy.deepcopy(record)
    answer = next(o for o in bad["options"] if o["is_answer"])
    grid = answer["data"]["grid"]
    r, c = next((r, c) for r, row in enumerate(grid["patterns"]) for c, p in enumerate(row) if p)
    grid["turns"][r][c] = (grid["turns"][r][c] + 2) % 4
    failures = run_verifier(bad, image)
    assert any("not the drawing of its grid" in f for f in failures)


def test_same_seed_same_item():
    a, b = make_item("rotation_2d", 1, 3, 5, 2), make_item("rotation_2d", 1, 3, 5, 2)
    assert a.png == b.png and a.record == b.record


@pytest.fixture(scope="module")
def items() -> list[tuple[dict, np.ndarray]]:
    return list(generated_items("rotation_2d", (0, 1, 2), 2))


def test_edited_question_or_choices_fail(items):
    record, image = items[-1]
    bad = copy.deepcopy(record)
    bad["Question"] = bad["Question"].replace("rotated in its plane", "mirrored")
    assert "its Question is not the text its spec gives" in run_verifier(bad, image)
    bad = copy.deepcopy(record)
    bad["Choices"] = ["90", "180", "270", "0"]
    assert any(f.startswith("its Choices") for f in run_verifier(bad, image))


def _rank(values: list[float], i: int) -> int:
    return sum(v < values[i] for v in values)


def test_every_candidate_distractor_is_no_rotation_for_the_verifier():
    rng = np.random.default_rng(12)
    for _ in range(10):
        g = G.random_grid(rng, 4, 0.6, 5)
        turned = [Drawing.parse(GridSpec.of(g))]
        for _ in range(3):
            turned.append(turned[-1].turned())
        keys = {d.key() for d in turned}
        thumb = thumbnail(draw_grid(g))
        for c in rotations(g, thumb):
            assert Drawing.parse(GridSpec.of(c.grid)).key() in keys
        kinds = set()
        for c in distinct_distractors(g, mirrors(g, thumb) + pattern_errors(g)):
            kinds.add(c.operator)
            assert Drawing.parse(GridSpec.of(c.grid)).key() not in keys, c.transform
    assert kinds == {"mirror", "unturned_patterns", "patterns_turned_back"}


def test_cheap_thumbnails_of_turned_and_mirrored_grids_match_drawn_ones():
    """The generator turns / flips the reference thumbnail instead of drawing each option;
    that may differ from the shrunk drawing by a grey level, far below the tie margin."""
    rng = np.random.default_rng(4)
    for size in (3, 4, 5, 7):
        g = G.random_grid(rng, size, 0.6, size)
        thumb = thumbnail(draw_grid(g))
        for c in rotations(g, thumb) + mirrors(g, thumb):
            drawn = thumbnail(draw_grid(c.grid))
            assert np.abs(drawn - c.thumb).max() <= 1 / 255 + 1e-7
            assert abs(np.abs(drawn - thumb).mean() - np.abs(c.thumb - thumb).mean()) < TIE / 20


def test_balanced_choices_split_every_option_set_by_the_answers_ranks():
    """Brute force at level 1: the 16 target rank pairs partition the 3 x 5 x 3 option sets
    (none tied here), and each set's ranks recomputed from drawn thumbnails are its target."""
    g = G.random_grid(np.random.default_rng(5), 4, 0.6, 5)
    ref = thumbnail(draw_grid(g))
    found = {t: balanced_choices(g, 1, t) for t in product(range(4), repeat=2)}
    assert sum(len(v) for v in found.values()) == 3 * 5 * 3
    assert sum(1 for v in found.values() if v) >= 8
    for target, sets in found.items():
        for options in sets:
            assert [c.operator for c in options].count("mirror") == 2
            assert options[0].operator == "rotation"
            thumbs = [thumbnail(draw_grid(c.grid)) for c in options]
            to_ref = [float(np.abs(t - ref).mean()) for t in thumbs]
            spread = [sum(float(np.abs(t - u).mean()) for u in thumbs) for t in thumbs]
            assert (_rank(to_ref, 0), _rank(spread, 0)) == target


def test_sets_with_ranks_are_the_sets_answer_ranks_gives_the_target():
    """All option sets judged at once agree with answer_ranks set by set, on thumbnails'
    distances and on distances rounded to a few levels (many exact and near ties)."""
    rng = np.random.default_rng(8)
    sets = [(a, *rest) for a in (1, 2, 3)
            for rest in combinations([i for i in range(1, 9) if i != a], 3)]
    for trial in range(12):
        thumbs = list(rng.random((9, 4, 4, 3), dtype=np.float32))
        dist = distances(thumbs)
        if trial % 2:
            dist = np.round(dist * 40) / 40 + rng.choice([0.0, TIE / 2, 2 * TIE], dist.shape)
            dist = dist + dist.T
        for target in product(range(4), repeat=2):
            expected = [answer_ranks(dist, [0], s) == target for s in sets]
            assert sets_with_ranks(dist, [0], sets, target).tolist() == expected


def _audit_ranks(record: dict, image: np.ndarray) -> tuple[int, int]:
    """The answer's ranks (0 = smallest) by the audit's own thumbnail distances to the
    reference and (mean) to the other options, from the composite image."""
    scores = image_scores(image, record["layout"])
    i = "ABCD".index(record["Answer"])
    to_ref = list(scores["farthest_from_reference"])
    spread = [3 * v for v in scores["odd_one_out"]]  # the audit's mean over the 3 others
    assert min(abs(v - to_ref[i]) for j, v in enumerate(to_ref) if j != i) > TIE / 2
    assert min(abs(v - spread[i]) for j, v in enumerate(spread) if j != i) > TIE / 2
    return _rank(to_ref, i), _rank(spread, i)


@pytest.mark.parametrize("level", [0, 2, 3])
def test_generator_ranks_are_the_audits(level):
    for index in range(4):
        result = make_item("rotation_2d", level, index, 4, 7)
        ranks = result.record["spec"]["answer_ranks"]
        expected = (ranks["distance_to_reference"], ranks["distance_to_options"])
        assert _audit_ranks(result.record, decode_png(result.png)) == expected


def test_no_audit_heuristic_finds_the_answer_at_level_1():
    """Over 60 fixed items the answer is nearest / farthest / most typical / odd one out by
    the audit's own measure in 5..25 items each.  By design each count is Binomial(60, 1/4)
    (mean 15, sd 3.4), so the band is mean +- 3 sd; the unbalanced generator's answer was
    the farthest in 32 and the nearest in 1 of these 60 items."""
    counts = np.zeros((2, 4), dtype=int)
    task = registry.task("rotation_2d")
    generator = task.generator()
    for index in range(60):
        seed = derive_seed(0, "rotation_2d", 1, index, 0)  # make_item's first sub-seed
        record, image = assemble(task, generator.build(1, item_rng(seed)), level=1, image_id="0000",
                                 letter=answer_letter(0, "rotation_2d", 1, index), item_seed=seed)
        ranks = _audit_ranks(record, image)
        spec = record["spec"]["answer_ranks"]
        assert ranks == (spec["distance_to_reference"], spec["distance_to_options"])
        counts[0, ranks[0]] += 1
        counts[1, ranks[1]] += 1
    extremes = counts[:, [0, 3]]
    assert extremes.min() >= 5 and extremes.max() <= 25, counts.tolist()
