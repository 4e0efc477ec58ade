"""The Python API: entries equal the CLI's items, indexing is lazy, mixtures are
deterministic and weighted, and score_answer is exact and never raises."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import spatialcad
from spatialcad import api, forms
from spatialcad.render.png import decode_png
from spatialcad.run import pipeline

ROOT = Path(__file__).resolve().parents[1]


def cli_items(tmp_path: Path, task: str, level: int, n: int, seed: int,
              split: str | None = None) -> list[tuple[dict, bytes]]:
    """(record, PNG bytes) of every item of a real ``spatialcad generate`` subprocess."""
    out = tmp_path / "cli"
    subprocess.run([sys.executable, "-m", "spatialcad.cli", "generate", "--task", task,
                    "--level", str(level), "--n", str(n), "--seed", str(seed), "--out", str(out),
                    *(["--split", split] if split else [])],
                   check=True, capture_output=True, cwd=ROOT)
    records = json.loads((out / "benchmark.json").read_text())
    return [(r, (out / r["image"]).read_bytes()) for r in records]


@pytest.mark.parametrize(("task", "split"), [("cube_counting", None), ("rotation_2d", "train")])
def test_entries_are_the_cli_items(tmp_path, task, split):
    ds = spatialcad.create_dataset(task, level=1, size=3, seed=0, split=split)
    for i, (record, png) in enumerate(cli_items(tmp_path, task, 1, 3, 0, split)):
        entry = ds[i]
        assert entry["metadata"]["record"] == record
        assert entry["image_bytes"] == png
        assert np.array_equal(np.asarray(entry["image"]), decode_png(png))
        assert entry["answer"] == record["Answer"] and entry["choices"] == record["Choices"]
        meta = entry["metadata"]
        assert (meta["task"], meta["level"], meta["seed"], meta["form"], meta["split"]) == (
            task, 1, 0, "choice", split)
        assert meta["spec"] == record["spec"] and meta["scene_hash"] == record["scene_hash"]


def test_construction_is_lazy_and_indexing_checked(monkeypatch):
    calls = []
    real = pipeline.make_item

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "make_item", counting)
    start = time.perf_counter()
    big = spatialcad.create_dataset("cube_counting", level=1, size=10**6, seed=0)
    mixed = spatialcad.create_dataset([{"task": "cube_counting"}, {"task": "arrow_moving"}],
                                      size=10**6, seed=0)
    assert time.perf_counter() - start < 1.0 and calls == []
    assert len(big) == len(mixed) == 10**6
    for bad in (-1, 10**6, 10**7, 1.0, "0", True):
        with pytest.raises(IndexError):
            big[bad]
    assert calls == []
    entry = big[999_900]  # the first of its block of scenes: made alone (spatialcad/run/scenes.py)
    assert len(calls) == 1 and calls[0][:5] == ("cube_counting", 1, 999_900, 10**6, 0)
    assert entry["metadata"]["record"]["Image_id"] == "999900"


def test_iteration_gives_every_entry_in_order():
    ds = spatialcad.create_dataset("arrow_moving", level=0, size=3, seed=5)
    assert [e["metadata"]["index"] for e in ds] == [0, 1, 2]


def test_mixtures_are_deterministic_and_weighted(monkeypatch):
    spec = [{"task": "rotation_2d", "weight": 3, "level": 1},
            {"task": "cube_counting", "weight": 1, "level": 0}]
    a = api.create_dataset(spec, size=1000, seed=7)
    b = api.create_dataset(spec, size=1000, seed=7)
    places = [a.locate(i) for i in range(1000)]
    assert places == [b.locate(i) for i in range(1000)]
    counts = Counter(c.task for c, _ in places)
    assert counts == {"rotation_2d": 750, "cube_counting": 250}
    # each component is its own CLI run: its indices 0..n_c-1, each once, with --n n_c
    for comp in a.components:
        assert sorted(j for c, j in places if c == comp) == list(range(comp.count))
    # spread evenly: every stretch of 40 positions holds the tasks about 3:1
    for start in range(0, 1000, 40):
        assert 25 <= sum(c.task == "rotation_2d" for c, _ in places[start:start + 40]) <= 35
    other = api.create_dataset(spec, size=1000, seed=8)
    assert [other.locate(i) for i in range(1000)] != places
    assert api.apportion([1, 1, 1], 10) == [4, 3, 3] and api.apportion([2, 1], 1) == [1, 0]
    comp, index = a.locate(3)
    entry = a[3]
    assert (entry["metadata"]["task"], entry["metadata"]["index"]) == (comp.task, index)
    assert entry["metadata"]["record"] == pipeline.make_item(
        comp.task, comp.level, index, comp.count, 7).record


@pytest.mark.parametrize(("args", "message"), [
    ({"tasks": "no_such_task"}, "no_such_task"),
    ({"tasks": "cube_counting", "size": 0}, "size"),
    ({"tasks": "cube_counting", "form": "essay"}, "unknown question form"),
    ({"tasks": "cube_counting", "split": "dev"}, "unknown split"),
    ({"tasks": [{"task": "cube_counting", "weight": -1}]}, "weight"),
    ({"tasks": [{"task": "cube_counting", "colour": 1}]}, "unknown component keys"),
    ({"tasks": [{"task": "cube_counting"}, {"task": "cube_counting"}]}, "same task"),
    ({"tasks": "mechanical_system", "level": 14}, "mechanical_system has levels 0-13, not 14"),
])
def test_bad_arguments(args, message):
    with pytest.raises((ValueError, KeyError), match=message):
        api.create_dataset(**args)


@pytest.mark.parametrize("size", ["5", True, 5.0, None, [5]])
def test_a_size_of_another_type_is_a_type_error(size):
    with pytest.raises(TypeError, match=re.escape(f"size must be an int, got {size!r}")):
        api.create_dataset("cube_counting", size=size)


@pytest.mark.parametrize("size", [0, -1, 10**12 + 1, sys.maxsize, 10**30])
def test_a_size_out_of_range_is_refused_at_creation(size):
    with pytest.raises(ValueError, match=f"size must be from 1 to 1,000,000,000,000 entries, "
                                         f"got {size}$"):
        api.create_dataset("cube_counting", size=size)


def test_the_largest_size_is_whole():
    """At MAX_SIZE, len() holds the size and a mixture's counts add up to it, so every
    position has its entry."""
    mix = api.create_dataset([{"task": "cube_counting"}, {"task": "rotation_2d", "weight": 0.3},
                              {"task": "arrow_moving", "weight": 2.7}], size=api.MAX_SIZE)
    assert len(mix) == api.MAX_SIZE == sum(c.count for c in mix.components)
    assert [c.count for c in mix.components] == [250_000_000_000, 75_000_000_000,
                                                 675_000_000_000]
    comp, index = mix.locate(api.MAX_SIZE - 1)
    assert 0 <= index < comp.count
    with pytest.raises(IndexError):
        mix.locate(api.MAX_SIZE)


@pytest.mark.parametrize(("args", "message"), [
    ({"tasks": "cube_counting", "split": 5}, "split must be a str, got 5"),
    ({"tasks": [5]}, "a mixture component is a dict"),
    ({"tasks": [{"task": "cube_counting", "split": 0}]}, "split must be a str, got 0"),
])
def test_other_arguments_of_another_type_are_type_errors(args, message):
    with pytest.raises(TypeError, match=message):
        api.create_dataset(**args)


def test_open_form_reads_the_record_and_refuses_items_without_one():
    ds = api.create_dataset("cube_counting", level=1, size=2, seed=0, form="open")
    entry = ds[1]
    record = entry["metadata"]["record"]
    assert entry["question"] == record["Question_direct"]
    assert entry["answer"] == record["Answer_direct"] and "choices" not in entry
    plain = api.create_dataset("arrow_moving", level=0, size=2, seed=0, form="open")
    if forms.has_open(pipeline.make_item("arrow_moving", 0, 0, 2, 0).record):
        pytest.fail("arrow_moving gained an open form: pick a task without one here")
    with pytest.raises(ValueError, match="arrow_moving level 0 item 0 has no open form.*"
                       r"open forms: .*arrow_moving \(the end-state"):
        plain[0]
    with pytest.raises(ValueError, match="rotation_2d has no open form; open forms: .*"
                       r"cube_reconstruction \(the opposite-colour items\); .*cube_counting"):
        api.create_dataset("rotation_2d", level=1, size=2, form="open")


def test_judge_entries_are_balanced_and_show_one_option():
    ds = api.create_dataset("rotation_2d", level=1, size=8, seed=0, form="judge")
    entries = list(ds)
    assert [e["answer"] for e in entries] == ["yes", "no"] * 4
    for e in entries:
        record = e["metadata"]["record"]
        k = "ABCD".index(e["metadata"]["judge_option"])
        assert record["judge"][k] == {"question": e["question"], "answer": e["answer"]}
        image = np.asarray(e["image"])
        assert np.array_equal(decode_png(e["image_bytes"]), image)
        # the judged option's panel, and the reference, are in the image unchanged
        full = pipeline.make_item("rotation_2d", 1, e["metadata"]["index"], 8, 0,
                                  keep_image=True).image
        x, y, w, h = record["layout"]["options"][k]
        top = min(b[1] for b in record["layout"]["options"])
        assert np.array_equal(image[:top], full[:top])
        assert np.array_equal(image[top:top + h, (1280 - w) // 2:(1280 - w) // 2 + w],
                              full[y:y + h, x:x + w])
        assert image.shape[0] < full.shape[0]
    # text options are judged on the whole image
    counted = api.create_dataset("cube_counting", level=1, size=2, seed=0, form="judge")
    assert counted[0]["image_bytes"] == api.create_dataset(
        "cube_counting", level=1, size=2, seed=0)[0]["image_bytes"]


GARBAGE = [None, 0, 12, 3.5, b"A", ["A"], {"answer": "A"}, "", " ", "\x00" * 50,
           "yes no " * 50_000, "A" * 1_000_000, "<answer>" * 20_000, "\\boxed{" * 20_000,
           "answer: " * 30_000, "é漢字" * 1000]


@pytest.mark.parametrize("form", ["choice", "open", "judge"])
def test_score_answer_is_exact_and_never_raises(form):
    ds = api.create_dataset("cube_counting", level=1, size=4, seed=0, form=form)
    entries = [ds[i] for i in range(2)]
    for entry in entries:
        gold = entry["answer"]
        wrong = {"choice": next(x for x in "ABCD" if x != gold),
                 "open": "999",
                 "judge": "no" if gold == "yes" else "yes"}[form]
        assert ds.score_answer(gold, entry) == 1.0
        reply = f"<think>Counting the columns of every view.</think><answer>{gold}</answer>"
        assert ds.score_answer(reply, entry) == 1.0
        assert ds.score_answer(f"Step by step ... so \\boxed{{{gold}}}", entry) == 1.0
        assert ds.score_answer(wrong, entry) == 0.0
        assert ds.score_answer(f"<answer>{wrong}</answer>", entry) == 0.0
        for junk in GARBAGE:
            start = time.perf_counter()
            assert ds.score_answer(junk, entry) in (0.0, 1.0)
            assert time.perf_counter() - start < 2.0
        for broken in (None, {}, {"answer": gold}, {"answer": 3, "metadata": {"form": form}},
                       {"answer": gold, "metadata": "x"}):
            assert ds.score_answer(gold, broken) == 0.0
    if form == "judge":
        entry = entries[0]
        assert ds.score_answer("Yes.", entry) == (entry["answer"] == "yes")
        assert ds.score_answer("<answer>yes or no</answer>", entry) == 0.0  # ambiguous


def test_panels_entries_list_each_panel_after_its_caption():
    """images="panels": entry["images"] holds the composite's panels in order, each the crop
    of its recorded box with its caption; the judge form ends on the judged option alone."""
    ds = api.create_dataset("rotation_2d", level=1, size=2, seed=0, images="panels")
    plain = api.create_dataset("rotation_2d", level=1, size=2, seed=0)[0]
    entry = ds[0]
    record = entry["metadata"]["record"]
    assert entry["image_bytes"] == plain["image_bytes"] and "images" not in plain
    assert [p["caption"] for p in entry["images"]] == [
        "Reference grid", "Image A", "Image B", "Image C", "Image D"]
    full = decode_png(entry["image_bytes"])
    boxes = record["layout"]["reference"] + record["layout"]["options"]
    for (x, y, w, h), p in zip(boxes, entry["images"], strict=True):
        assert np.array_equal(np.asarray(p["image"]), full[y:y + h, x:x + w])
        assert np.array_equal(decode_png(p["image_bytes"]), full[y:y + h, x:x + w])
    judged = api.create_dataset("rotation_2d", level=1, size=2, seed=0, form="judge",
                                images="panels")[1]
    k = "ABCD".index(judged["metadata"]["judge_option"])
    assert [p["caption"] for p in judged["images"]] == ["Reference grid", "Candidate"]
    x, y, w, h = judged["metadata"]["record"]["layout"]["options"][k]
    assert np.array_equal(np.asarray(judged["images"][1]["image"]),
                          decode_png(ds[1]["image_bytes"])[y:y + h, x:x + w])
    with pytest.raises(ValueError, match="unknown images 'tiles'"):
        api.create_dataset("rotation_2d", images="tiles")
