"""spatialcad's tasks as reasoning-gym datasets, against the real reasoning_gym package."""

from __future__ import annotations

import json

import numpy as np
import pytest
import reasoning_gym
from reasoning_gym.factory import DATASETS

import spatialcad.rg
from spatialcad import api
from spatialcad.render.png import decode_png
from spatialcad.tasks import registry


def test_every_task_is_registered():
    assert {f"spatialcad_{t}" for t in registry.tasks()} <= set(DATASETS)
    assert spatialcad.rg.register() == spatialcad.rg.NAMES  # a second import changes nothing


def test_create_dataset_entries_and_scores():
    ds = reasoning_gym.create_dataset("spatialcad_cube_counting", size=10, seed=42, level=1)
    assert len(ds) == 10
    same = api.create_dataset("cube_counting", level=1, size=10, seed=42)
    for i in (0, 7):
        entry = ds[i]
        assert isinstance(entry["question"], str) and entry["answer"] in "ABCD"
        meta = entry["metadata"]
        png = spatialcad.rg.image_bytes(entry)
        assert png == same[i]["image_bytes"] and decode_png(png).shape[2] == 3
        assert np.array_equal(np.asarray(spatialcad.rg.image(entry)), decode_png(png))
        assert meta["spec"] == same[i]["metadata"]["spec"] and meta["task"] == "cube_counting"
        assert ds.score_answer(entry["answer"], entry) == 1.0
        assert ds.score_answer(f"<think>..</think><answer>{entry['answer']}</answer>",
                               entry) == 1.0
        wrong = next(x for x in "ABCD" if x != entry["answer"])
        assert ds.score_answer(wrong, entry) == 0.0
        assert ds.score_answer(None, entry) == 0.0
    assert [e["answer"] for e in ds] == [same[i]["answer"] for i in range(10)]


def test_entries_are_json_as_reasoning_gym_saves_them():
    """reasoning-gym's --save-metadata writes each entry with json.dumps: the entry must
    survive it whole, picture included."""
    for name, kwargs in (("spatialcad_cube_counting", {}), ("spatialcad_rotation_2d",
                                                            {"form": "judge"})):
        ds = reasoning_gym.create_dataset(name, size=2, seed=3, level=1, **kwargs)
        for entry in ds:
            back = json.loads(json.dumps(entry))
            assert back == entry
            assert spatialcad.rg.image_bytes(back) == spatialcad.rg.image_bytes(entry)
            assert ds.score_answer(back["answer"], back) == 1.0


def test_other_forms_through_reasoning_gym():
    judge = reasoning_gym.create_dataset("spatialcad_rotation_2d", size=2, seed=1, level=1,
                                         form="judge")
    entries = list(judge)
    assert [e["answer"] for e in entries] == ["yes", "no"]
    assert all(judge.score_answer(e["answer"], e) == 1.0 for e in entries)
    assert judge.score_answer("yes", entries[1]) == 0.0
    opened = reasoning_gym.create_dataset("spatialcad_cube_counting", size=1, seed=0, level=1,
                                          form="open")
    entry = opened[0]
    assert opened.score_answer(f"\\boxed{{{entry['answer']}}}", entry) == 1.0


def test_a_level_past_the_tasks_last_is_refused():
    with pytest.raises(ValueError, match="mechanical_system has levels 0-13, not 14"):
        reasoning_gym.create_dataset("spatialcad_mechanical_system", size=1, seed=0, level=14)


def test_panels_travel_in_the_metadata_as_json():
    ds = reasoning_gym.create_dataset("spatialcad_rotation_2d", size=1, seed=0, level=1,
                                      images="panels")
    entry = json.loads(json.dumps(ds[0]))
    same = api.create_dataset("rotation_2d", level=1, size=1, seed=0, images="panels")[0]
    got = spatialcad.rg.panel_images(entry)
    assert [c for c, _ in got] == [p["caption"] for p in same["images"]]
    assert [c for c, _ in got][0] == "Reference grid" and len(got) == 5
    for (_, image), p in zip(got, same["images"], strict=True):
        assert np.array_equal(np.asarray(image), np.asarray(p["image"]))


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"size": 10**30}, ValueError, "size must be from 1 to 1,000,000,000,000 entries"),
    ({"size": 0}, ValueError, "size must be from 1"),
    ({"size": "5"}, TypeError, "size must be an int"),
    ({"size": True}, TypeError, "size must be an int"),
    ({"seed": "1"}, TypeError, "seed must be an int"),
    ({"level": 1.0}, TypeError, "level must be an int"),
])
def test_bad_settings_are_refused_at_creation_as_the_api_refuses_them(kwargs, error, message):
    with pytest.raises(error, match=message):
        reasoning_gym.create_dataset("spatialcad_cube_counting", **kwargs)
