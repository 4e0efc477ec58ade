"""Hostile and unusable DeepCAD inputs (JSON nested 100000 deep, over the size cap, empty,
not an object, NaN, no extrude, several solids; FIFOs, directories and broken links named
*.json) are refused with their reason, never with a traceback or a hang: by the reader,
in a folder's index and the summary of a run on it, and by `spatialcad deepcad import`.
Real DeepCAD samples are mixed in from shared/ (never copied into the repository)."""

from __future__ import annotations

import json
import os
import shutil
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import deepcad_samples

from spatialcad.cad import deepcad, part_index
from spatialcad.cad.deepcad import MAX_JSON_BYTES, DeepCADDoc, DeepCADError, Line
from spatialcad.tasks.three_view import generate_parts as gp

SAMPLES = deepcad_samples()
CASES = SAMPLES.parent / "deepcad-cases"
WASHER, BUSH = "00010414.json", "00010560.json"  # real samples that build
EMPTY_PROFILES = "00014060.json"  # a real sample whose only extrude has no profile
SKETCHES_ONLY = "00015442.json"  # a real case without any extrude


def finishes(call: Callable[[], Any], seconds: int = 60) -> Any:
    """``call()``'s result, or a failed test when it has not returned after ``seconds`` (a
    FIFO opened for reading blocks until a writer comes: SIGALRM interrupts it)."""
    def late(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s (blocked reading?)")

    previous = signal.signal(signal.SIGALRM, late)
    signal.alarm(seconds)
    try:
        return call()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def square(x: float, s: float) -> list[Line]:
    return [Line((x, 0), (x + s, 0)), Line((x + s, 0), (x + s, s)), Line((x + s, s), (x, s)),
            Line((x, s), (x, 0))]


def with_nan(sample: Path) -> str:
    """The sample's JSON with one sketch origin coordinate NaN (as Python writes it)."""
    data = json.loads(sample.read_text())
    sketch = next(e for e in data["entities"].values() if e["type"] == "Sketch")
    sketch["transform"]["origin"]["x"] = float("nan")
    return json.dumps(data)


# name -> (how it is made in a folder, its reason)
HOSTILE: dict[str, tuple[Callable[[Path], object], str]] = {
    "deep_list.json": (lambda p: p.write_text("[" * 100000 + "]" * 100000), "too deeply nested"),
    "deep_object.json": (lambda p: p.write_text('{"a":' * 100000 + "1" + "}" * 100000),
                         "too deeply nested"),
    "huge.json": (lambda p: p.write_text('{"entities": {}, "sequence": [], "pad": "'
                                         + "x" * MAX_JSON_BYTES + '"}'), "too large"),
    "empty.json": (lambda p: p.write_text(""), "empty file"),
    "blank.json": (lambda p: p.write_text(" \n\t\n"), "empty file"),
    "list.json": (lambda p: p.write_text("[1, 2]"), "not an object"),
    "nan.json": (lambda p: p.write_text(with_nan(SAMPLES / WASHER)), "NaN or infinity"),
    "cut_short.json": (lambda p: p.write_text((SAMPLES / WASHER).read_text()[:500]),
                       "malformed JSON"),
    "latin1.json": (lambda p: p.write_bytes(b'{"name": "caf\xe9"}'), "not UTF-8"),
    "sketches.json": (lambda p: shutil.copy(CASES / SKETCHES_ONLY, p), "no extrude"),
    "fifo.json": (os.mkfifo, "not a regular file"),
    "dir.json": (lambda p: p.mkdir(), "not a regular file"),
    "broken.json": (lambda p: p.symlink_to("nowhere.json"), "broken link"),
    "loop.json": (lambda p: p.symlink_to(p.name), "broken link"),
}


def samples() -> Path:
    for folder in (SAMPLES, CASES):
        if not folder.is_dir():
            pytest.fail(f"DeepCAD sample folder missing: {folder} (the tests need it)")
    return SAMPLES


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_the_reader_refuses_each_hostile_file_with_its_reason(tmp_path, name):
    make, reason = HOSTILE[name]
    samples()
    make(tmp_path / name)
    with pytest.raises(DeepCADError) as caught:
        finishes(lambda: deepcad.read_deepcad(tmp_path / name))
    assert caught.value.reason == reason
    assert str(caught.value).startswith(f"{name}: ")
    assert "\n" not in str(caught.value)


def test_nesting_depth_counts_brackets_outside_strings_only():
    text = rb'{"a": "[[{\"{[", "b": [[1, {"c": []}]], "d": "\\"}'
    assert deepcad.nesting_depth(text) == 5 == 1 + 1 + 1 + 1 + 1  # {, [, [, {, []
    assert deepcad.nesting_depth(b"[" * 100000 + b"]" * 100000) == 100000
    assert deepcad.nesting_depth(b"42") == 0


def test_nesting_depth_of_real_files_is_their_parsed_depth():
    def depth(value: Any) -> int:
        children = (value.values() if isinstance(value, dict)
                    else value if isinstance(value, list) else None)
        return 0 if children is None else 1 + max(map(depth, children), default=0)

    files = sorted(samples().glob("*.json")) + sorted(CASES.glob("*.json"))
    assert len(files) == 15
    for path in files:
        data = path.read_bytes()
        assert deepcad.nesting_depth(data) == depth(json.loads(data)), path.name
        assert deepcad.nesting_depth(data) <= deepcad.MAX_JSON_DEPTH


def test_size_cap_is_checked_before_reading(tmp_path, monkeypatch):
    """A file one byte over the cap is refused, one at the cap is read."""
    path = tmp_path / "part.json"
    shutil.copy(samples() / WASHER, path)
    size = path.stat().st_size
    monkeypatch.setattr(deepcad, "MAX_JSON_BYTES", size)
    assert deepcad.read_deepcad(path).isValid()
    monkeypatch.setattr(deepcad, "MAX_JSON_BYTES", size - 1)
    with pytest.raises(DeepCADError, match=rf"too large \(over {size - 1} bytes"):
        deepcad.read_deepcad(path)


def hostile_folder(folder: Path) -> dict[str, str]:
    """``folder`` with every hostile file, two pieces in one model, and three real samples;
    the reason of each file no part can come from."""
    folder.mkdir()
    for name, (make, _) in HOSTILE.items():
        make(folder / name)
    doc = DeepCADDoc()
    sketch, profiles = doc.sketch([[square(0, 10)], [square(30, 10)]])
    doc.extrude(sketch, profiles, 5)
    (folder / "pucks.json").write_text(json.dumps(doc.as_dict()))
    for name in (WASHER, BUSH, EMPTY_PROFILES):
        shutil.copy(samples() / name, folder / name)
    return {**{name: reason for name, (_, reason) in HOSTILE.items()},
            "pucks.json": "several solids", EMPTY_PROFILES: "no extrude"}


SUMMARY = ("passed over 16 files: 2 broken link, 2 empty file, 2 no extrude, "
           "2 not a regular file, 2 too deeply nested, 1 NaN or infinity, 1 malformed JSON, "
           "1 not UTF-8, 1 not an object, 1 several solids, 1 too large")


def test_index_and_summary_count_every_unusable_file_by_reason(part_cache, tmp_path):
    folder = (tmp_path / "parts").resolve()
    expected = hostile_folder(folder)
    index = finishes(lambda: part_index.part_index(folder))
    assert {e.file: e.problem for e in index if e.problem is not None} == expected
    assert sorted(e.file for e in index if e.problem is None) == [WASHER, BUSH]
    never_opened = [e for e in index if e.problem in ("not a regular file", "broken link")]
    assert len(never_opened) == 4 and all(e.sha256 == "" for e in never_opened)
    lines = gp.passed_over_lines(folder, verbose=True)
    assert lines[0] == SUMMARY and gp.passed_over_lines(folder) == [SUMMARY]
    assert [line.split(": ")[0] for line in lines[1:]] == [f"  {f}" for f in sorted(expected)]
    for line in ("  fifo.json: not a regular file (a FIFO)",
                 "  dir.json: not a regular file (a directory)",
                 "  broken.json: broken link (to nowhere.json)",
                 "  pucks.json: several solids (2 separate solids)",
                 "  deep_list.json: too deeply nested (100000 levels; at most 64 are read)"):
        assert line in lines, lines


def test_import_of_a_folder_fails_each_unusable_file_alone_and_counts_them(tmp_path, spatialcad):
    folder, out = tmp_path / "parts", tmp_path / "out"
    expected = hostile_folder(folder)
    del expected["pucks.json"]  # two pieces make a valid STEP file
    code, stdout, err = finishes(lambda: spatialcad("deepcad", "import", folder, "--out", out))
    assert code == 1 and err == ""
    lines = stdout.splitlines()
    assert lines[-1] == ("3 of 18 files imported; failed: 2 broken link, 2 empty file, "
                         "2 no extrude, 2 not a regular file, 2 too deeply nested, "
                         "1 NaN or infinity, 1 malformed JSON, 1 not UTF-8, 1 not an object, "
                         "1 too large")
    failed = {line.split()[1].rstrip(":"): line for line in lines if line.startswith("FAILED")}
    assert sorted(failed) == sorted(expected)
    assert failed["fifo.json"] == "FAILED fifo.json: not a regular file (a FIFO)"
    assert failed["loop.json"] == "FAILED loop.json: broken link (to loop.json)"
    assert sorted(p.name for p in out.iterdir()) == ["00010414.step", "00010560.step",
                                                     "pucks.step"]


@pytest.mark.parametrize(("name", "message"), [
    ("deep_list.json", "too deeply nested (100000 levels; at most 64 are read)"),
    ("deep_object.json", "too deeply nested (100000 levels; at most 64 are read)"),
    ("fifo.json", "not a regular file (a FIFO)"),
    ("huge.json", f"too large (over {MAX_JSON_BYTES} bytes, the most read)"),
    ("nan.json", "NaN or infinity (NaN is no JSON number)"),
])
def test_import_of_one_named_hostile_file_is_one_error_line_exit_2(tmp_path, spatialcad, name,
                                                                   message):
    samples()
    HOSTILE[name][0](tmp_path / name)
    out = tmp_path / "out"
    code, stdout, err = finishes(lambda: spatialcad("deepcad", "import", tmp_path / name,
                                                    "--out", out))
    assert (code, stdout, err) == (2, "", f"spatialcad: error: {name}: {message}\n")
    assert not out.exists()
