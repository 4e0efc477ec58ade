"""--shard K/N and `spatialcad merge`: shards are slices of the unsharded run, byte for byte,
and merge back into it exactly; every bad merge is refused with one line and no output."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import one_line, tree_bytes

from spatialcad import cli
from spatialcad.record import versions
from spatialcad.record.records import LETTERS, image_path
from spatialcad.run import pipeline
from spatialcad.run.shards import Shard

RUN = ["generate", "--task", "cube_counting,rotation_2d", "--level", "0", "--n", "5",
       "--seed", "3"]
SHARDS = 3


def _generate(*args: str) -> None:
    result = CliRunner().invoke(cli.cli, [*RUN, *args])
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """``full``: the unsharded run; ``s0`` .. ``s2``: its three shards; ``other0``: shard 0/3
    of the same run with another seed."""
    root = tmp_path_factory.mktemp("runs")
    _generate("--out", str(root / "full"))
    for k in range(SHARDS):
        _generate("--shard", f"{k}/{SHARDS}", "--out", str(root / f"s{k}"))
    result = CliRunner().invoke(cli.cli, [*RUN[:-1], "4", "--shard", f"0/{SHARDS}",
                                          "--out", str(root / "other0")])
    assert result.exit_code == 0, result.output
    return root


def test_merged_shards_are_the_unsharded_run(spatialcad, runs, tmp_path):
    out = tmp_path / "merged"
    code, stdout, err = spatialcad("merge", runs / "s2", runs / "s0", runs / "s1", "--out", out)
    assert code == 0, err
    assert "merged 3 shards (10 items)" in stdout
    merged, full = tree_bytes(out), tree_bytes(runs / "full")
    assert merged == full
    assert len(full) == 12  # benchmark.json, manifest.json and 10 images
    assert spatialcad("verify", out)[0] == 0


def test_a_shard_holds_the_same_items_as_the_unsharded_run(runs):
    full_files = tree_bytes(runs / "full")
    full_records = json.loads(full_files["benchmark.json"])
    full_manifest = json.loads(full_files["manifest.json"])
    blocks = []
    for k in range(SHARDS):
        files = tree_bytes(runs / f"s{k}")
        manifest = json.loads(files.pop("manifest.json"))
        start, stop = Shard(k, SHARDS).bounds(len(full_records))
        blocks.append((start, stop))
        assert manifest["shard"] == {"index": k, "count": SHARDS, "run_items": [start, stop]}
        assert manifest["parameters"] == full_manifest["parameters"]
        assert manifest["command"] == f"{full_manifest['command']} --shard {k}/{SHARDS}"
        records = json.loads(files["benchmark.json"])
        assert records == full_records[start:stop]
        for name, data in files.items():  # images and benchmark.json bytes
            expected = full_files[name] if name != "benchmark.json" else (
                json.dumps(full_records[start:stop], indent=1, ensure_ascii=False) + "\n"
            ).encode()
            assert data == expected, name
        assert len(files) == 1 + stop - start
    assert blocks == [(0, 3), (3, 6), (6, 10)]  # contiguous, in order, covering all 10


def test_a_shard_without_items_is_refused(spatialcad, tmp_path):
    """More shards than items: the empty shards are refused up front, nothing written."""
    args = ["generate", "--task", "cube_counting", "--n", "2", "--seed", "2"]
    code, _, err = spatialcad(*args, "--shard", "0/5", "--out", tmp_path / "s0")
    assert code == 2 and not (tmp_path / "s0").exists()
    assert err.strip() == ("spatialcad: error: shard 0/5 of this 2-item run would be empty: "
                           "split it into at most 2 shards")
    assert spatialcad(*args, "--shard", "1/2", "--out", tmp_path / "s1")[0] == 0


def _tampered(runs: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "s1"
    shutil.copytree(runs / "s1", copy)
    record = json.loads((copy / "benchmark.json").read_text())[0]
    png = copy / record["image"]
    data = bytearray(png.read_bytes())
    data[-20] ^= 1
    png.write_bytes(bytes(data))
    return copy


@pytest.mark.parametrize(
    ("shards", "message"),
    [
        (["s0", "s2"], "missing shard 1/3 (2 of 3 given)"),
        (["s0"], "missing shards 1/3, 2/3 (1 of 3 given)"),
        (["s0", "s1", "s1", "s2"], "shard 1/3 given twice"),
        (["other0", "s1", "s2"], "shards of different runs (command, parameters differ)"),
        (["s0", "tampered", "s2"], "checksum differs from the manifest"),
        (["full"], "is not a shard"),
        (["s0", "nowhere", "s2"], "nowhere does not exist (not made, or not yet)"),
    ],
)
def test_bad_merges_exit_2_and_write_nothing(spatialcad, runs, tmp_path, shards, message):
    dirs = [_tampered(runs, tmp_path) if s == "tampered" else runs / s for s in shards]
    out = tmp_path / "merged"
    code, _, err = spatialcad("merge", *dirs, "--out", out)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def _made_elsewhere(shard: Path, tmp_path: Path) -> Path:
    """A copy of ``shard`` whose manifest says another numpy made it (a node of a cluster
    with other library versions)."""
    copy = tmp_path / f"{shard.name}-elsewhere"
    shutil.copytree(shard, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["environment"]["numpy"] = "1.0.0"
    (copy / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return copy


def test_the_manifest_records_the_versions_that_made_the_bytes(runs):
    environment = json.loads((runs / "full" / "manifest.json").read_text())["environment"]
    assert environment == versions.byte_versions()
    assert {"numpy", "opencv", "zlib", "freecad", "numba", "shapely"} <= set(environment)


def test_shards_made_with_other_library_versions_are_not_merged(spatialcad, runs, tmp_path):
    out = tmp_path / "merged"
    elsewhere = _made_elsewhere(runs / "s1", tmp_path)
    code, _, err = spatialcad("merge", runs / "s0", elsewhere, runs / "s2", "--out", out)
    assert code == 2 and not out.exists()
    here = versions.byte_versions()["numpy"]
    # each directory named with its own version, in the same order
    assert f"{elsewhere} and {runs / 's0'} were made with different library versions " \
        f"(numpy 1.0.0 and {here})" in err
    assert len(err.strip().splitlines()) == 1


def test_verify_says_when_other_library_versions_made_a_benchmark(spatialcad, runs, tmp_path):
    code, out, _ = spatialcad("verify", _made_elsewhere(runs / "s1", tmp_path))
    here = versions.byte_versions()["numpy"]
    assert code == 0  # the files are sound: only regenerating could differ
    assert ("note: made with other library versions than this machine's "
            f"(numpy 1.0.0 -> {here})") in out
    assert "note:" not in spatialcad("verify", runs / "s1")[1]


def test_merge_needs_overwrite_for_a_non_empty_out(spatialcad, runs, tmp_path):
    out = tmp_path / "merged"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    shards = [runs / f"s{k}" for k in range(SHARDS)]
    code, _, err = spatialcad("merge", *shards, "--out", out)
    assert code == 2 and "--overwrite" in err and (out / "keep.txt").read_text() == "mine"
    code, _, err = spatialcad("merge", *shards, "--out", out, "--overwrite")
    assert code == 2 and "not a spatialcad output" in err
    assert (out / "keep.txt").read_text() == "mine"  # never deleted: not ours
    (out / "keep.txt").unlink()
    assert spatialcad("merge", *shards, "--out", out)[0] == 0  # empty: no --overwrite needed
    assert spatialcad("merge", *shards, "--out", out, "--overwrite")[0] == 0  # ours
    assert tree_bytes(out) == tree_bytes(runs / "full")


@pytest.mark.parametrize("value", ["0/0", "3/2", "x", "-1/2", "1/2/3", "1/"])
def test_bad_shard_values_exit_2_with_one_line(spatialcad, tmp_path, value):
    out = tmp_path / "never"
    code, _, err = spatialcad("generate", "--task", "cube_counting", "--n", 1,
                              "--shard", value, "--out", out)
    assert code == 2
    assert "--shard must be K/N with 0 <= K < N" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def _partial_dirs(out: Path) -> list[Path]:
    return list(out.parent.glob(f".{out.name}.tmp-*"))


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_an_interrupted_run_resumes_to_the_same_bytes(spatialcad, runs, tmp_path, sig):
    """Killed (or stopped by SIGTERM) after a few items, `--resume` goes on from there and
    ends with exactly the files of an uninterrupted run."""
    out = tmp_path / "b"
    args = [*RUN, "--out", str(out), "--resume"]
    run = subprocess.Popen([sys.executable, "-m", "spatialcad.cli", *args],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 60
    while not any(any(p.glob("*/*/*/000[3-9].png")) for p in _partial_dirs(out)):
        assert time.monotonic() < end and run.poll() is None, run.communicate()
        time.sleep(0.02)
    run.send_signal(sig)
    _, err = run.communicate()
    assert run.returncode == (-9 if sig == signal.SIGKILL else 143), err
    if sig == signal.SIGTERM:
        assert "re-run with --resume to go on" in err
    assert not out.exists() and len(_partial_dirs(out)) == 1
    code, _, err = spatialcad("merge", out, "--out", tmp_path / "m")  # too early
    assert code == 2 and (f"{out} is not finished: its items so far are in "
                          f"{_partial_dirs(out)[0]}") in err
    code, stdout, err = spatialcad(*args)
    assert code == 0, err
    assert "going on after" in stdout
    assert tree_bytes(out) == tree_bytes(runs / "full") and not _partial_dirs(out)
    code, stdout, _ = spatialcad(*args)
    assert code == 0 and "is already complete (10 items); nothing to do" in stdout


def test_resume_refuses_a_partial_run_made_with_other_library_versions(spatialcad, tmp_path):
    """Items made by another numpy would not match the rest: the run starts afresh."""
    out = tmp_path / "b"
    partial = tmp_path / f".b.tmp-{os.uname().nodename.split('.')[0]}-999999"
    partial.mkdir()
    assert spatialcad(*RUN, "--out", tmp_path / "ref")[0] == 0
    header = json.loads((tmp_path / "ref" / "manifest.json").read_text())
    params = {"command": header["command"], **header["parameters"]}
    elsewhere = {**header["environment"], "numpy": "1.0.0"}
    (partial / ".spool.jsonl").write_text(
        json.dumps({"run": params, "environment": elsewhere}) + "\n")
    code, _, err = spatialcad(*RUN, "--out", out, "--resume")
    assert code == 2 and "made with other library versions (numpy 1.0.0 -> " in err
    assert "run without --resume" in err


def test_resume_refuses_a_partial_run_of_another_command(spatialcad, tmp_path):
    out = tmp_path / "b"
    partial = tmp_path / f".b.tmp-{os.uname().nodename.split('.')[0]}-999999"
    partial.mkdir()
    (partial / ".spool.jsonl").write_text(json.dumps({"run": {"command": "other"}}) + "\n")
    code, _, err = spatialcad(*RUN, "--out", out, "--resume")
    assert code == 2 and "made by another command; run without --resume" in err
    assert partial.exists() or _partial_dirs(out)  # kept: it is not ours to throw away
    assert spatialcad(*RUN, "--out", out)[0] == 0  # without --resume: a fresh start
    assert not _partial_dirs(out)


def _interrupted(spatialcad, monkeypatch, out: Path, items: int) -> Path:
    """The directory `RUN --out OUT --resume` leaves when stopped (Ctrl-C) after ``items``."""
    real, made = pipeline.make_item, []

    def stopping(*args, **kw):
        if len(made) == items:
            raise KeyboardInterrupt
        made.append(args)
        return real(*args, **kw)

    monkeypatch.setattr(pipeline, "make_item", stopping)
    code, _, err = spatialcad(*RUN, "--out", out, "--resume")
    monkeypatch.setattr(pipeline, "make_item", real)
    assert code == 130, err
    [partial] = _partial_dirs(out)
    return partial


def _another_answer(record: dict) -> None:
    record["Answer"] = LETTERS[(LETTERS.index(record["Answer"]) + 1) % 4]


def _another_answer_marked(record: dict) -> None:
    """Answer and the options' marks changed together: the record reads as well formed."""
    _another_answer(record)
    for option in record["options"]:
        option["is_answer"] = option["letter"] == record["Answer"]


def _another_question(record: dict) -> None:
    record["Question"] += " Count carefully."


EDITS = {"answer": _another_answer, "answer and marks": _another_answer_marked,
         "question": _another_question}


@pytest.mark.parametrize("edit", [*EDITS, "lines swapped"])
def test_resume_refuses_a_spool_whose_records_were_changed(spatialcad, monkeypatch, runs,
                                                           tmp_path, edit):
    """A kept record is proved as `verify` proves it (the spool's checksums cover only the
    images): an edited one is refused with one line naming it, and nothing is written."""
    out = tmp_path / "b"
    partial = _interrupted(spatialcad, monkeypatch, out, 4)
    spool = partial / ".spool.jsonl"
    lines = spool.read_text().splitlines(keepends=True)
    assert len(lines) == 5  # the header, items 0-3 of cube_counting
    entry = json.loads(lines[2])
    if edit == "lines swapped":
        lines[2], lines[3] = lines[3], lines[2]
    else:
        EDITS[edit](entry["record"])
        lines[2] = json.dumps(entry, ensure_ascii=False) + "\n"
    spool.write_text("".join(lines))
    before = tree_bytes(partial)
    code, _, err = spatialcad(*RUN, "--out", out, "--resume")
    line = one_line(err)
    name = image_path(json.loads(lines[2])["record"])
    assert code == 2 and f"was changed after it was written: its item {name} fails" in line
    assert line.endswith("; run without --resume to start afresh")
    if edit == "lines swapped":
        assert "(and 1 more items)" in line  # the item after it is out of place too
    assert tree_bytes(partial) == before and _partial_dirs(out) == [partial]
    assert not out.exists()
    assert spatialcad(*RUN, "--out", out)[0] == 0  # without --resume: a fresh start
    assert tree_bytes(out) == tree_bytes(runs / "full")


def test_resume_proves_the_kept_items_and_goes_on(spatialcad, monkeypatch, runs, tmp_path):
    """An unchanged spool is taken as it is: the same bytes as an uninterrupted run."""
    out = tmp_path / "b"
    _interrupted(spatialcad, monkeypatch, out, 4)
    proved = []
    real = pipeline._verify_one
    monkeypatch.setattr(pipeline, "_verify_one",
                        lambda *args: proved.append(image_path(args[1])) or real(*args))
    code, stdout, err = spatialcad(*RUN, "--out", out, "--resume")
    assert code == 0 and "going on after 4 made before" in stdout, err
    assert proved == [f"VisualPenetration/CubeCounting/Level0/000{k}" for k in range(4)]
    assert tree_bytes(out) == tree_bytes(runs / "full")
