"""No repeated scene in a run (spatialcad/run/scenes.py): items of a listed level take its
scenes in turn, items of other levels keep clear of their block's earlier scenes, whatever
--jobs, shards, resumes or the API; repeats are counted run-wide."""

from __future__ import annotations

import hashlib
import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import tree_bytes

from spatialcad import api, cli, seeding
from spatialcad.cad.parts import ASSETS_DIR
from spatialcad.geometry import paper as pf
from spatialcad.record.benchmark import Benchmark, repeats_of
from spatialcad.run import pipeline, scenes, shards, verification
from spatialcad.run.pipeline import GenerationError, ItemResult, settled
from spatialcad.run.plan import Shard
from spatialcad.run.scenes import SceneGroup, measure
from spatialcad.tasks import registry
from spatialcad.tasks.base import OWN_ATTEMPTS, SPARE_ATTEMPTS, ItemSlot, OwnScene, Reject
from spatialcad.tasks.paper_folding import listing
from spatialcad.tasks.paper_folding.generate import drawn_scene


def _result(scene: str, attempt: int) -> ItemResult:
    return ItemResult({"scene_hash": scene}, b"", attempt)


def test_a_new_scene_is_kept_and_a_held_one_drawn_again_from_the_next_attempt():
    group, calls = SceneGroup(), []

    def again(first: int, held: frozenset[str]) -> ItemResult:
        calls.append((first, held))
        return _result("c", first + 2)

    assert settled(group, _result("a", 0), again) == (_result("a", 0), False)
    assert settled(group, _result("a", 3), again) == (_result("c", 6), False)
    assert calls == [(4, frozenset({"a"}))] and group.held == {"a", "c"}


def test_a_spent_space_keeps_the_first_candidate_and_stops_looking():
    group = SceneGroup({"a"})

    def spent(first: int, held: frozenset[str]) -> ItemResult:
        raise GenerationError("no new scene")

    assert settled(group, _result("a", 1), spent) == (_result("a", 1), True)
    assert group.spent

    def never(first: int, held: frozenset[str]) -> ItemResult:
        raise AssertionError("a spent group does not look again")

    assert settled(group, _result("a", 0), never) == (_result("a", 0), True)
    assert settled(group, _result("b", 0), never) == (_result("b", 0), False)


def test_scene_spaces_are_counted_when_every_scene_came_twice_else_estimated():
    assert measure(list("aabbcc"), 6) == {"scenes": 3, "how": "counted", "draws": 6,
                                          "seen": 3}
    # 4 singletons, 1 doubleton: 5 seen + 4 * 3 / (2 * 2) = 8
    assert measure(list("abcdee"), 6) == {"scenes": 8, "how": "estimated", "draws": 6,
                                          "seen": 5}


def _hashes(out: Path) -> list[str]:
    return [r["scene_hash"] for r in json.loads((out / "benchmark.json").read_text())]


@pytest.mark.parametrize("task", list(registry.tasks()))
def test_no_level0_run_of_40_items_repeats_a_scene(task, tmp_path):
    """The issue's bar, for every task: 40 level-0 items, 40 scenes."""
    summary = pipeline.generate([task], 0, 40, 5, tmp_path, jobs=1)
    assert summary.repeats == {}
    assert len(set(_hashes(tmp_path))) == 40


def test_a_run_clear_of_repeats_is_the_same_with_any_jobs(tmp_path):
    """ArrowMoving level 0 (drawn, not listed) often draws a scene its block holds (the
    search for another is what could depend on the order items finish in): --jobs 1 =
    --jobs 2."""
    one, two = tmp_path / "one", tmp_path / "two"
    pipeline.generate(["arrow_moving"], 0, 40, 5, one, jobs=1)
    pipeline.generate(["arrow_moving"], 0, 40, 5, two, jobs=2)
    assert tree_bytes(one) == tree_bytes(two)


def test_shards_starting_inside_a_block_merge_into_the_unsharded_run(tmp_path):
    """ArrowMoving level 0 draws repeated scenes often: shards remake their block's
    earlier items, so their files are the unsharded run's."""
    full = tmp_path / "full"
    pipeline.generate(["arrow_moving"], 0, 40, 0, full)
    parts = [tmp_path / f"s{k}" for k in range(3)]
    for k, part in enumerate(parts):
        pipeline.generate(["arrow_moving"], 0, 40, 0, part, shard=Shard(k, 3))
    shards.merge(parts, tmp_path / "merged")
    assert tree_bytes(tmp_path / "merged") == tree_bytes(full)
    assert len(set(_hashes(full))) == 40


def test_api_entries_keep_clear_of_their_blocks_scenes_and_report_a_short_space():
    ds = api.create_dataset("arrow_moving", level=0, size=10_000, seed=0)
    late = ds[7]  # remakes entries 0-6 first
    early = [ds[i]["metadata"]["scene_hash"] for i in range(7)]
    assert late["metadata"]["scene_hash"] not in early and len(set(early)) == 7
    (report,) = ds.scene_report()
    space = scenes.scene_space("arrow_moving", 0)
    assert space is not None and space["scenes"] < 10_000
    assert report == {"task": "arrow_moving", "level": 0, "entries": 10_000,
                      "scene_space": space, "short": True, "made": 8, "repeated": 0}
    assert late["metadata"]["scene_space"] == {k: report[k] for k in report
                                                 if k not in ("made", "repeated")}


def test_a_spent_space_is_reported_in_the_summary(monkeypatch, tmp_path):
    """Every scene the same (one hash for all): the first item is new, the second looks
    through every attempt in vain, the block is spent, and the summary counts the repeats."""
    for module in (pipeline, verification):
        monkeypatch.setattr(module, "scene_hash", lambda task, spec: "0" * 16)
    result = CliRunner().invoke(cli.cli, ["generate", "--task", "rotation_2d", "--level", "0",
                                          "--n", "4", "--seed", "1", "--out",
                                          str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "3 items repeat the scene of an earlier item of the run (rotation_2d 3;" in \
        result.output


def test_repeats_are_counted_over_the_whole_run_not_per_block(monkeypatch, tmp_path):
    """Four scenes in all and blocks of 5 items: each block finds its scenes new again, yet
    the summary, the manifest and verify count every item whose scene any earlier item of
    the run holds (the true count, from the records)."""
    def four_scenes(task, spec):
        return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:1] \
            .translate(str.maketrans("0123456789abcdef", "0123012301230123"))
    for module in (pipeline, verification):
        monkeypatch.setattr(module, "scene_hash", four_scenes)
    monkeypatch.setattr(scenes, "SCENE_BLOCK", 5)
    monkeypatch.setattr(pipeline, "SCENE_BLOCK", 5)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli.cli, ["generate", "--task", "rotation_2d", "--level", "0",
                                          "--n", "15", "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    hashes = _hashes(out)
    true = sum(h in hashes[:k] for k, h in enumerate(hashes))
    assert true >= 11  # 15 items, at most 4 scenes
    assert f"{true} items repeat the scene of an earlier item of the run" in result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["repeated_scenes"] == {"2DRotation/Level0": true}
    bench = Benchmark.checked(out)
    assert repeats_of(bench.records) == manifest["repeated_scenes"]
    manifest["repeated_scenes"] = {"2DRotation/Level0": 0}
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert any("repeated scenes" in why for _, why in Benchmark.open(out).problems())


def test_an_item_whose_listed_scene_fails_tries_scenes_no_item_of_its_round_takes():
    """5 listed scenes, 7 items: round 0 (items 0-4) takes all 5, so its items have no
    spare; in round 1 items 5 and 6 take scenes 0 and 1 of the order, and their spares are
    the other 3 (spread: item 5's first spare is not item 6's).  A run of 3 items leaves
    2 scenes no item takes."""
    order = seeding.scene_order(9, 5, "k")
    slot = [ItemSlot(i, 7, 9) for i in range(7)]
    assert [s.pick(5, "k") for s in slot] == [*order, *order[:2]]
    assert all(s.spare(5, 0, "k") is None for s in slot[:5])
    for s in slot[5:]:
        spares = [s.spare(5, k, "k") for k in range(SPARE_ATTEMPTS)]
        assert set(spares) == set(order[2:])
    assert slot[5].spare(5, 0, "k") != slot[6].spare(5, 0, "k")
    assert slot[5].spare(5, SPARE_ATTEMPTS, "k") is None
    assert {ItemSlot(1, 3, 9).spare(5, k, "k") for k in range(4)} == set(order[3:])
    own = OwnScene(slot[5])
    tried = [own.next(5, "k") for _ in range(OWN_ATTEMPTS + SPARE_ATTEMPTS + 1)]
    assert tried[:OWN_ATTEMPTS] == [order[0]] * OWN_ATTEMPTS and tried[-1] is None
    assert tried[OWN_ATTEMPTS:-1] == [slot[5].spare(5, k, "k") for k in range(SPARE_ATTEMPTS)]
    own = OwnScene(slot[6])
    own.next(5, "k")
    own.give_up()  # its own scene cannot make an item: on to the spares
    assert own.next(5, "k") == slot[6].spare(5, 0, "k")


LISTED_PARTS = ("l_bracket", "counterbored_plate", "stepped_block")  # bundled level-1 parts


def test_paper_foldings_small_levels_number_every_scene_once():
    """Level 0 lists its scenes: scene k unranks to a distinct scene for every k (as many
    as the fold sequences' hole sets add up to), each a sequence random_folds can draw with
    its holes on full cells; levels 1 and 2 (three folds) list theirs too, level 3 (four
    folds) and up draw their scenes."""
    generator = registry.task("paper_folding").generator()
    p = generator.params(0)
    count = generator.scene_count(0)
    assert count == listing.count(p) == 2624  # 3x3 to 5x5 sheets, 2 folds, 1 hole
    seen = set()
    for k in range(count):
        rows, cols, folds, holes = listing.scene(p, k)
        full = set(pf.fold_all(rows, cols, list(folds))[-1].full_cells())
        assert len(holes) == p["holes"] and set(holes) <= full
        seen.add((rows, cols, folds, tuple(holes)))
    assert len(seen) == count
    assert (generator.scene_count(1), generator.scene_count(2)) == (19984, 74016)
    assert generator.scene_count(3) is None
    pool = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 2)]
    every = [list(c) for c in combinations(pool, 3)]
    assert [listing._nth_combination(pool, 3, k) for k in range(len(every))] == every


def test_paper_folding_weighs_its_listed_scenes_as_drawing_them_does():
    """The odds listing.weights gives each scene of a small level (two sheets, the last fold
    diagonal or not) are those of the generator's random draw (drawn_scene, 5,000 draws:
    every scene's count within 5 standard deviations of its expected count); a run's
    order is a permutation weighted by them: its first items favour likely scenes."""
    p = {"sizes": [[3, 3], [4, 4]], "folds": 2, "holes": 1, "diagonal": True}
    count, weights = listing.count(p), listing.weights(p)
    assert len(weights) == count and abs(weights.sum() - 1) < 1e-12 and (weights > 0).all()
    index = {_scene_tuple(listing.scene(p, k)): k for k in range(count)}
    assert len(index) == count
    rng, draws = np.random.default_rng(3), 5_000
    seen = np.zeros(count)
    for _ in range(draws):
        try:
            seen[index[_scene_tuple(drawn_scene(p, rng))]] += 1
        except Reject:
            continue  # a sheet and diagonal pair without sequences: drawn again
    expected = weights * seen.sum()
    assert (np.abs(seen - expected) <= 5 * np.sqrt(expected) + 1).all()
    order = seeding.scene_order(5, count, "test", weights=weights)
    assert sorted(order) == list(range(count))
    first = np.array(order[:count // 4])
    assert weights[first].mean() > 1.4 * weights.mean()


def _scene_tuple(scene: listing.Scene) -> tuple[object, ...]:
    rows, cols, folds, holes = scene
    return rows, cols, tuple(folds), tuple(holes)


def test_a_listed_level_takes_every_scene_before_one_comes_back(part_cache, tmp_path,
                                                                monkeypatch):
    """three_view level 1 from a folder of 3 parts, 7 items: item i takes the part of item
    i mod 3 (each part once before any comes back), the same with --jobs 2, as shards
    (one starting mid-cycle), resumed after an interruption and through the API; the
    summary, the manifest, verify's recount and the API report give the true count of
    repeats (7 - 3)."""
    folder = tmp_path / "parts"
    folder.mkdir()
    for name in LISTED_PARTS:
        (folder / f"{name}.step").write_bytes((ASSETS_DIR / f"{name}.step").read_bytes())
    options = {"deepcad_dir": str(folder)}

    def run(out: Path, **kw: object) -> pipeline.RunSummary:
        return pipeline.generate(["three_view"], 1, 7, 2, out, options=options, **kw)

    full = tmp_path / "full"
    summary = run(full)
    records = json.loads((full / "benchmark.json").read_text())
    parts = [r["spec"]["part"]["sha256"] for r in records]
    assert len(set(parts[:3])) == 3 and parts == [parts[i % 3] for i in range(7)]
    hashes = _hashes(full)
    true = sum(h in hashes[:k] for k, h in enumerate(hashes))
    assert true == 4 and summary.repeats == {"three_view": true}
    manifest = json.loads((full / "manifest.json").read_text())
    assert manifest["repeated_scenes"] == {"3ViewProjection/Level1": true}
    assert repeats_of(Benchmark.checked(full).records) == manifest["repeated_scenes"]

    run(tmp_path / "two", jobs=2)
    assert tree_bytes(tmp_path / "two") == tree_bytes(full)

    parts_dirs = [tmp_path / f"s{k}" for k in range(2)]  # shard 1 starts at item 3
    for k, part in enumerate(parts_dirs):
        run(part, shard=Shard(k, 2))
    shards.merge(parts_dirs, tmp_path / "merged")
    assert tree_bytes(tmp_path / "merged") == tree_bytes(full)

    real, made = pipeline.make_item, []

    def interrupted(*args: object, **kw: object) -> ItemResult:
        if len(made) == 4:
            raise KeyboardInterrupt
        made.append(args)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "make_item", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path / "resumed", resume=True)
    monkeypatch.undo()
    assert run(tmp_path / "resumed", resume=True).resumed == 4
    assert tree_bytes(tmp_path / "resumed") == tree_bytes(full)

    ds = api.create_dataset("three_view", level=1, size=7, seed=2, options=options)
    assert ds[6]["metadata"]["scene_hash"] == hashes[6]  # made alone, no earlier entry
    assert ds.scene_report()[0]["made"] == 1
    assert [e["metadata"]["scene_hash"] for e in ds] == hashes
    (report,) = ds.scene_report()
    assert (report["made"], report["repeated"], report["short"]) == (7, true, True)
