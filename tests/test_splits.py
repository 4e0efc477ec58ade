"""Leak-free splits: train and test items never share a scene, although the scene spaces
of the easy levels are small enough that unsplit streams do (measured here), and a split
benchmark is checked and merged as one split."""

from __future__ import annotations

import json

import pytest

from spatialcad.derived import scene_hash
from spatialcad.record.splits import split_of
from spatialcad.run.pipeline import candidates
from spatialcad.tasks import registry


def scenes(task: str, level: int, split: str | None, count: int, seed: int = 0) -> list[str]:
    """The scene hash of the first usable candidate of items 0 .. count-1."""
    info = registry.task(task)
    out = []
    for index in range(count):
        draft = next(d for _, _, d in candidates(info, level, index, seed, split=split)
                     if not isinstance(d, str))
        out.append(scene_hash(info, draft.spec))
    return out


@pytest.mark.parametrize(("task", "train", "test"), [("arrow_moving", 1000, 200),
                                                     ("paper_folding", 150, 50)])
def test_train_and_test_share_no_scene(task, train, test):
    made = {split: scenes(task, 0, split, n) for split, n in (("train", train), ("test", test))}
    assert not set(made["train"]) & set(made["test"])
    assert {split_of(h) for h in made["train"]} == {"train"}
    assert {split_of(h) for h in made["test"]} == {"test"}
    # the same numbers of items from two unsplit streams do meet: the exclusion matters
    plain = [set(scenes(task, 0, None, n, seed)) for n, seed in ((train, 1), (test, 2))]
    assert plain[0] & plain[1]


def test_a_split_run_is_checked_and_merged_as_one_split(spatialcad, tmp_path):
    args = ["generate", "--task", "arrow_moving", "--level", "0", "--n", "4"]
    for split in ("train", "test"):
        code, _, err = spatialcad(*args, "--split", split, "--shard", "0/2", "--out",
                                  tmp_path / f"{split}0")
        assert code == 0, err
    code, _, err = spatialcad(*args, "--split", "train", "--shard", "1/2", "--out",
                              tmp_path / "train1")
    assert code == 0, err
    records = json.loads((tmp_path / "train1" / "benchmark.json").read_text())
    assert all(split_of(r["scene_hash"]) == "train" for r in records)
    code, _, err = spatialcad("merge", tmp_path / "train0", tmp_path / "test0", "--out",
                              tmp_path / "m")
    assert code == 2 and "different splits (test, train)" in err
    assert spatialcad("merge", tmp_path / "train0", tmp_path / "train1", "--out",
                      tmp_path / "m")[0] == 0
    assert spatialcad("verify", tmp_path / "m")[0] == 0
    manifest = json.loads((tmp_path / "m" / "manifest.json").read_text())
    assert manifest["parameters"]["split"] == "train" and "--split train" in manifest["command"]
