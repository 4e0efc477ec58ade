"""One registry, filled by declaration: a task declared from tests/ (toy_task) is listed by
the CLI, generated, verified and shown in FreeCAD like the built-in ones."""

from __future__ import annotations

import dataclasses
import json

import pytest

from spatialcad import freecad_env, item_scene
from spatialcad.tasks import registry


@pytest.fixture
def toy(monkeypatch):
    """toy_task declared for one test (the registry is restored afterwards)."""
    monkeypatch.setattr(registry, "_TASKS", dict(registry.tasks()))
    import toy_task

    return registry.declare(toy_task.INFO)


def test_the_built_in_tasks_in_catalogue_order():
    assert list(registry.tasks()) == [
        "rotation_2d", "rotation_3d", "three_view", "paper_folding", "cube_unfolding",
        "cube_reconstruction", "cross_section", "cube_counting", "cube_assembly",
        "arrow_moving", "block_moving", "mechanical_system"]
    assert registry.by_record_task("CubeCounting").name == "cube_counting"
    with pytest.raises(KeyError, match="unknown task 'nope'; choose from: rotation_2d"):
        registry.task("nope")


def test_a_toy_task_runs_through_everything(toy, spatialcad, tmp_path):
    code, stdout, _ = spatialcad("tasks")
    assert code == 0 and "toy_count            ToyCount" in stdout
    assert list(registry.tasks())[-1] == "toy_count"  # order 100: after the catalogue
    out = tmp_path / "b"
    code, stdout, err = spatialcad("generate", "--task", "toy_count", "--level", "1", "--n", 4,
                                   "--out", out)
    assert code == 0, err
    records = json.loads((out / "benchmark.json").read_text())
    assert [r["Task"] for r in records] == ["ToyCount"] * 4
    assert sorted(r["Answer"] for r in records) == ["A", "B", "C", "D"]
    assert spatialcad("verify", out)[0] == 0
    code, _, err = spatialcad("generate", "--task", "toy_count", "--level", "3", "--out", out)
    assert code == 2 and "has no level 3 (its levels: 0-2)" in err

    records[0]["Question"] = records[0]["Question"].replace("black", "white")  # re-derived
    records[1]["options"][0]["data"]["value"] += 20  # its Choice no longer says it
    (out / "benchmark.json").write_text(json.dumps(records))
    code, stdout, _ = spatialcad("verify", out)
    assert code == 1
    assert "its Question is not the text its spec gives" in stdout
    assert "its Choices" in stdout

    FreeCAD, _ = freecad_env.load()
    doc = FreeCAD.newDocument("toy")
    try:
        (board,) = item_scene.build_scene(records[2], doc)
        assert board.Shape.Volume == pytest.approx(len(records[2]["spec"]["cells"]))
    finally:
        FreeCAD.closeDocument(doc.Name)


def test_declarations_are_checked(toy):
    with pytest.raises(ValueError, match="unknown category"):
        registry.declare(dataclasses.replace(toy, name="other", category="Mechanics"))
    with pytest.raises(ValueError, match="both make 'ToyCount' records"):
        registry.declare(dataclasses.replace(toy, name="other"))


def test_levels_past_the_practical_range_are_listed_and_warned_about(toy, spatialcad, tmp_path,
                                                                     monkeypatch):
    code, stdout, _ = spatialcad("tasks")
    assert "cross_section        CrossSection        VisualPenetration  0, 1, ... (practical up " \
           "to 12)" in stdout
    monkeypatch.setitem(registry._TASKS, "toy_count",
                        dataclasses.replace(toy, max_level=None, practical_max_level=1))
    code, _, err = spatialcad("generate", "--task", "toy_count", "--level", "2", "--n", 1,
                              "--out", tmp_path / "b")
    assert code == 0
    assert ("warning: level 2 of toy_count is past its practical range (up to 1): one item may "
            "take minutes") in err
