"""The command line end to end: generate, verify, determinism, and every bad-input path."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import tree_bytes

from spatialcad import freecad_env
from spatialcad.cad.parts import ASSETS_DIR
from spatialcad.render.png import decode_png, encode_png
from spatialcad.run import pipeline
from spatialcad.run.scenes import scene_space
from spatialcad.tasks import registry

CASES = [(name, level) for name in registry.tasks() for level in (0, 1, 2)]


@pytest.mark.parametrize(("task", "level"), CASES)
def test_generate_then_verify(spatialcad, tmp_path, task, level):
    out = tmp_path / "bench"
    code, stdout, err = spatialcad("generate", "--task", task, "--level", level, "--n", 3,
                                   "--seed", 5, "--out", out)
    assert code == 0, err
    assert "wrote 3 items" in stdout
    records = json.loads((out / "benchmark.json").read_text())
    assert [r["Image_id"] for r in records] == ["0000", "0001", "0002"]
    for r in records:
        assert r["Level"] == f"Level{level}"
        assert (out / r["Category"] / r["Task"] / r["Level"] / f"{r['Image_id']}.png").is_file()
        assert r["Answer"] in "ABCD" and len(r["Choices"]) == 4
        assert isinstance(r["spec"], dict)
        if r["Task"] == "CubeCounting" or r["Task"] == "3ViewProjection" and level == 0:
            assert all(len(v) == 3 and all(isinstance(c, int) for c in v)
                       for v in r["spec"]["voxels"])
        if r["Task"] == "CubeCounting":
            assert set(r["spec"]["bounds"]) == {"min", "max"}
            assert r["spec"]["views"] == (["top", "front"] if level == 0
                                          else ["top", "front", "left"])
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["items"] == 3 and "benchmark.json" in manifest["files"]
    code, stdout, _ = spatialcad("verify", out)
    assert code == 0 and "all 3 items verified" in stdout


def test_three_view_parts_from_a_deepcad_dir(spatialcad, tmp_path):
    """--deepcad-dir: parts found recursively (no index: face counts read on loading), named
    in the records by absolute path, and verified from there."""
    parts = tmp_path / "parts" / "nested"
    parts.mkdir(parents=True)
    for name in ("l_bracket", "hinge_leaf", "stepped_block", "counterbored_plate"):
        shutil.copy(ASSETS_DIR / f"{name}.step", parts / f"{name}.step")
    (parts / "broken.json").write_text("{not json")
    out = tmp_path / "bench"
    code, _, err = spatialcad("generate", "--task", "three_view", "--level", 1, "--n", 3,
                              "--out", out, "--deepcad-dir", tmp_path / "parts")
    assert code == 0, err
    records = json.loads((out / "benchmark.json").read_text())
    for r in records:
        assert Path(r["spec"]["part"]["file"]).parent == parts
    assert spatialcad("verify", out)[0] == 0
    Path(records[0]["spec"]["part"]["file"]).write_text("changed")
    code, stdout, _ = spatialcad("verify", out)  # the verifier notices a changed part
    assert code != 0 and "SHA-256" in stdout


def test_empty_deepcad_dir_is_a_usage_error(spatialcad, tmp_path):
    (tmp_path / "empty").mkdir()
    code, _, err = spatialcad("generate", "--task", "three_view", "--level", 1,
                              "--deepcad-dir", tmp_path / "empty", "--out", tmp_path / "o")
    assert code == 2 and "no part files" in err and not (tmp_path / "o").exists()


@pytest.mark.parametrize(("task", "level", "index", "n"), [
    ("arrow_moving", 2, 1, 2), ("cube_unfolding", 2, 3, 4), ("paper_folding", 1, 0, 2),
    ("three_view", 2, 1, 2)])
def test_same_item_same_bytes(task, level, index, n):
    a, b = (pipeline.make_item(task, level, index, n, 5) for _ in range(2))
    assert a.png == b.png and a.record == b.record


def test_answers_balanced(spatialcad, tmp_path):
    out = tmp_path / "b"
    assert spatialcad("generate", "--task", "cube_counting", "--n", 8, "--out", out)[0] == 0
    answers = [r["Answer"] for r in json.loads((out / "benchmark.json").read_text())]
    assert sorted(answers) == list("AABBCCDD")


def test_deterministic_and_jobs_independent(spatialcad, tmp_path):
    args = ["generate", "--task", "cube_counting,three_view", "--level", "0", "--n", "4",
            "--seed", "11"]
    assert spatialcad(*args, "--out", tmp_path / "a")[0] == 0
    assert spatialcad(*args, "--out", tmp_path / "b")[0] == 0
    assert spatialcad(*args, "--out", tmp_path / "c", "--jobs", "2")[0] == 0
    a = tree_bytes(tmp_path / "a")
    assert a == tree_bytes(tmp_path / "b") == tree_bytes(tmp_path / "c")
    assert spatialcad(*args[:-1], "12", "--out", tmp_path / "d")[0] == 0
    assert tree_bytes(tmp_path / "d") != a


def test_verify_detects_tampering(spatialcad, tmp_path):
    out = tmp_path / "b"
    assert spatialcad("generate", "--task", "cube_counting", "--level", 1, "--n", 2,
                      "--out", out)[0] == 0
    records = json.loads((out / "benchmark.json").read_text())
    wrong = "ABCD"[("ABCD".index(records[0]["Answer"]) + 1) % 4]
    records[0]["Answer"] = wrong
    (out / "benchmark.json").write_text(json.dumps(records))
    code, stdout, _ = spatialcad("verify", out)
    assert code == 1 and "FAIL" in stdout and "benchmark.json" in stdout

    png = out / records[1]["image"]
    img = decode_png(png.read_bytes())
    img[:, : img.shape[1] // 2] = 255  # wipe the reference views
    png.write_bytes(encode_png(img))
    code, stdout, _ = spatialcad("verify", out)
    assert code == 1 and records[1]["image"].removesuffix(".png") in stdout


def test_verify_proves_the_open_form(spatialcad, tmp_path):
    """A wrong open answer fails both the texts check and the task's own proof; an edited
    open question fails the texts check."""
    out = tmp_path / "b"
    assert spatialcad("generate", "--task", "paper_folding", "--level", 0, "--n", 2,
                      "--out", out)[0] == 0
    records = json.loads((out / "benchmark.json").read_text())
    holes = int(records[0]["Answer_direct"])
    records[0]["Answer_direct"] = str(holes + 1)
    records[1]["Question_direct"] = records[1]["Question_direct"].replace("How many holes",
                                                                          "How many cells")
    (out / "benchmark.json").write_text(json.dumps(records))
    code, stdout, _ = spatialcad("verify", out)
    first, second = (f"FAIL MentalFolding/PaperFolding/Level0/{i}: " for i in ("0000", "0001"))
    assert code == 1
    assert f"{first}its Answer_direct is not the text its spec gives" in stdout
    assert f"{first}the open answer '{holes + 1}' is not the {holes} unfolded holes" in stdout
    assert f"{second}its Question_direct is not the text its spec gives" in stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--task", "no_such_task"], "unknown task"),
        (["--level", "-1"], "--level must be >= 0"),
        (["--n", "0"], "--n must be >= 1"),
        (["--jobs", "0"], "--jobs must be >= 1"),
        (["--task", "three_view", "--level", "4"], "has no level 4"),
        (["--level", "x"], "--level must be a level (2), a list (0,1,2) or a range (0-2)"),
        (["--level", "2-1"], "--level range '2-1' runs backwards"),
        (["--level", "0,1,0"], "names a level more than once"),
        (["--level", "0-1"], "put {level} in --out"),
        (["--level", "0-1", "--shard", "0/2"], "take one --level"),
        (["--task", "three_view", "--level", "2-4"], "has no level 4"),
        (["--task", "mechanical_system", "--level", "14"],
         "task 'mechanical_system' has no level 14 (its levels: 0-13)"),
    ],
)
def test_bad_input_exits_2_with_one_line(spatialcad, tmp_path, args, message):
    out = tmp_path / "never"
    code, stdout, err = spatialcad("generate", *args, "--out", out)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_several_levels_in_one_run_equal_single_level_runs(spatialcad, tmp_path):
    """--level 0-1 with shared workers: each level's directory is byte for byte the run of
    that level alone (its manifest records the single-level command)."""
    tasks = "cube_counting,cross_section"
    code, stdout, err = spatialcad("generate", "--task", tasks, "--level", "0-1", "--n", 2,
                                   "--jobs", 2, "--out", tmp_path / "multi-L{level}")
    assert code == 0, err
    assert "at level 0 to" in stdout and "at level 1 to" in stdout
    for level in (0, 1):
        alone = tmp_path / f"alone-{level}"
        code, _, err = spatialcad("generate", "--task", tasks, "--level", level, "--n", 2,
                                  "--out", alone)
        assert code == 0, err
        assert tree_bytes(tmp_path / f"multi-L{level}") == tree_bytes(alone)


def test_non_empty_out_needs_overwrite(spatialcad, tmp_path):
    out = tmp_path / "b"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    code, _, err = spatialcad("generate", "--task", "cube_counting", "--n", 1, "--out", out)
    assert code == 2 and "--overwrite" in err
    assert (out / "keep.txt").read_text() == "mine"
    (out / "keep.txt").unlink()
    code, _, _ = spatialcad("generate", "--task", "cube_counting", "--n", 1, "--out", out)
    assert code == 0  # an empty directory may be filled
    code, _, _ = spatialcad("generate", "--task", "cube_counting", "--n", 2, "--out", out,
                            "--overwrite")
    assert code == 0 and len(json.loads((out / "benchmark.json").read_text())) == 2


def test_unwritable_out(spatialcad, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = spatialcad("generate", "--task", "cube_counting", "--n", 1,
                              "--out", blocker / "sub")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_missing_freecad_is_a_clear_error(spatialcad, tmp_path, monkeypatch):
    def missing():
        raise freecad_env.FreeCADNotFound("FreeCAD's Python module was not found (test)")

    monkeypatch.setattr(freecad_env, "load", missing)
    code, _, err = spatialcad("generate", "--task", "cross_section", "--n", 1,
                              "--out", tmp_path / "b")
    assert code == 2 and "FreeCAD" in err and "not found" in err
    assert not (tmp_path / "b").exists()


def test_failed_run_leaves_nothing(spatialcad, tmp_path, monkeypatch):
    real = pipeline.make_item

    def flaky(task, level, index, n, seed, options, split=None, with_steps=False):
        if index == 1:
            raise pipeline.GenerationError("boom")
        return real(task, level, index, n, seed, options, split, with_steps)

    monkeypatch.setattr(pipeline, "make_item", flaky)
    with pytest.raises(pipeline.GenerationError):
        pipeline.generate(["cube_counting"], 0, 3, 0, tmp_path / "b")
    assert list(tmp_path.iterdir()) == []


def test_summary_tells_verification_failures_from_redrawn_scenes(spatialcad, tmp_path,
                                                                  monkeypatch):
    """A candidate the verifier fails is redrawn and counted as such, apart from the scenes
    the generators' own checks threw away."""
    real, calls = pipeline.run_verifier, []

    def fails_once(record, image):
        calls.append(record["image"])
        return ["planted failure"] if len(calls) == 1 else real(record, image)

    monkeypatch.setattr(pipeline, "run_verifier", fails_once)
    item = pipeline.make_item("cube_counting", 0, 0, 1, 0)
    assert (item.rejected, item.unverified) == (1, 1)
    calls.clear()
    code, stdout, _ = spatialcad("generate", "--task", "cube_counting", "--n", 2,
                                 "--out", tmp_path / "b")
    assert code == 0 and "1 candidates redrawn (1 of them failed verification" in stdout


def test_verify_rejects_non_benchmark_dir(spatialcad, tmp_path):
    code, _, err = spatialcad("verify", tmp_path)
    assert code == 2 and "benchmark.json" in err


def test_tasks_lists_all_twelve(spatialcad):
    code, stdout, _ = spatialcad("tasks")
    assert code == 0
    for name in ("rotation_2d", "cube_counting", "cross_section", "three_view", "block_moving",
                 "mechanical_system"):
        assert name in stdout
    assert "CubeCounting" in stdout and "VisualPenetration" in stdout
    rows = {line.split()[0]: line for line in stdout.splitlines()[1:]}
    assert len(rows) == 12
    assert rows["arrow_moving"].endswith('the end-state ("state") items')
    assert rows["cube_counting"].endswith("every item")
    assert rows["three_view"].endswith("none")
    assert " yes " in rows["arrow_moving"] and " no " in rows["three_view"]
    assert " 0-13 " in rows["mechanical_system"] and " 0, 1, ... " in rows["cube_unfolding"]
    assert "scenes L0/L1/L2" in stdout.splitlines()[0]
    marks = {"counted": "=", "estimated": "~", "at least": ">"}
    for name, row in rows.items():  # each level's scene space, as measured
        shown = [marks[s["how"]] + f"{s['scenes']:.3g}" if (s := scene_space(name, level))
                 else "?" for level in range(3)]
        assert f" {'/'.join(shown)} " in row, name


def test_help_explains(spatialcad):
    code, stdout, _ = spatialcad("generate", "--help")
    assert code == 0 and "--overwrite" in stdout and "verified" in stdout


def test_python_dash_m_runs_the_cli(tmp_path):
    """``python -m spatialcad`` is the ``spatialcad`` command (exit codes included)."""
    ok = subprocess.run([sys.executable, "-m", "spatialcad", "tasks"], capture_output=True,
                        text=True, cwd=tmp_path)
    assert ok.returncode == 0 and "cross_section" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "spatialcad", "generate", "--task", "nope",
                          "--level", "0", "--n", "1", "--out", str(tmp_path / "o")],
                         capture_output=True, text=True, cwd=tmp_path)
    assert bad.returncode == 2 and "unknown task" in bad.stderr
    assert not (tmp_path / "o").exists()
