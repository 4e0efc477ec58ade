"""`spatialcad deepcad import`: real DeepCAD samples round-trip through STEP in millimetres,
a bad file fails alone with its reason and writes nothing, exit codes, usage errors."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
from conftest import deepcad_samples

from spatialcad.cad.deepcad import bbox_of, read_deepcad
from spatialcad.cad.step_io import read_step, write_step

SAMPLES = deepcad_samples()
BAD_SAMPLE = "00014060.json"  # its only extrude has an empty profiles list
WASHER, BUSH = "00010414.json", "00010560.json"
OK_LINE = re.compile(r"ok     (\S+) -> (\S+)  volume (\S+) mm\^3  "
                     r"bbox \((\S+), (\S+), (\S+)\) \.\. \((\S+), (\S+), (\S+)\) mm  faces \d+")


def samples() -> Path:
    if not SAMPLES.is_dir():
        pytest.fail(f"DeepCAD sample folder missing: {SAMPLES} (the tests need it)")
    return SAMPLES


def by_source(stdout: str) -> dict[str, str]:
    """The report lines of ``stdout`` (summary excluded) by input file name."""
    lines = {}
    for line in stdout.splitlines()[:-1]:
        name = line.split()[1].rstrip(":")
        assert name not in lines, stdout
        lines[name] = line
    return lines


def test_samples_directory_round_trips_in_millimetres(spatialcad, tmp_path, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # 10 files: a progress bar
    out = tmp_path / "out"
    code, stdout, err = spatialcad("deepcad", "import", samples(), "--out", out)
    assert code == 1, err
    assert "import: 100%" in err and "10/10" in err
    jsons = sorted(SAMPLES.glob("*.json"))
    assert len(jsons) == 10 and stdout.splitlines()[-1] == ("9 of 10 files imported; "
                                                         "failed: 1 no extrude")
    lines = by_source(stdout)
    assert sorted(lines) == [p.name for p in jsons]
    assert lines[BAD_SAMPLE].startswith(f"FAILED {BAD_SAMPLE}: ")
    assert "no extrude with a profile" in lines[BAD_SAMPLE]
    written = sorted(p.name for p in out.iterdir())
    assert written == [p.with_suffix(".step").name for p in jsons if p.name != BAD_SAMPLE]
    for path in jsons:
        if path.name == BAD_SAMPLE:
            continue
        step = out / f"{path.stem}.step"
        assert "SI_UNIT(.MILLI.,.METRE.)" in step.read_text(encoding="latin-1")
        solid, back = read_deepcad(path), read_step(step)
        assert back.Volume == pytest.approx(solid.Volume, rel=1e-6), path.name
        assert bbox_of(back) == pytest.approx(bbox_of(solid), abs=1e-6), path.name
        m = OK_LINE.fullmatch(lines[path.name])
        assert m and m[1] == path.name and m[2] == str(step), lines[path.name]
        assert float(m[3]) == pytest.approx(solid.Volume, rel=1e-5)
        assert [float(v) for v in m.groups()[3:]] == pytest.approx(bbox_of(solid), abs=1e-3)


def test_corrupt_json_and_truncated_step_fail_alone(spatialcad, tmp_path):
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    shutil.copy(samples() / WASHER, src / "washer.json")
    (src / "corrupt.json").write_text('{"entities": {"F1": ')
    bush = read_deepcad(SAMPLES / BUSH)
    data = write_step(bush, src / "bush.step").read_bytes()
    (src / "cut.step").write_bytes(data[: len(data) // 2])
    code, stdout, err = spatialcad("deepcad", "import", src, "--out", out)
    assert code == 1 and err == ""
    lines = by_source(stdout)
    assert sorted(lines) == ["bush.step", "corrupt.json", "cut.step", "washer.json"]
    assert lines["corrupt.json"].startswith("FAILED corrupt.json: malformed JSON")
    assert lines["cut.step"].startswith("FAILED cut.step: truncated STEP file")
    assert lines["bush.step"].startswith("ok     ") and lines["washer.json"].startswith("ok     ")
    assert stdout.splitlines()[-1] == ("2 of 4 files imported; "
                                         "failed: 1 invalid STEP, 1 malformed JSON")
    assert sorted(p.name for p in out.iterdir()) == ["bush.step", "washer.step"]
    assert read_step(out / "bush.step").Volume == pytest.approx(bush.Volume, rel=1e-6)
    washer = read_deepcad(SAMPLES / WASHER).Volume
    assert read_step(out / "washer.step").Volume == pytest.approx(washer, rel=1e-6)


def test_other_suffix_and_repeated_name_fail_alone(spatialcad, tmp_path):
    other = tmp_path / "part.stl"
    other.write_text("solid x\nendsolid x\n")
    twin = tmp_path / "twin"
    twin.mkdir()
    write_step(read_deepcad(samples() / WASHER), twin / "00010414.step")
    out = tmp_path / "out"
    code, stdout, _ = spatialcad("deepcad", "import", other, SAMPLES / WASHER,
                                 twin / "00010414.step", "--out", out)
    assert code == 1
    assert stdout.splitlines() == [
        "FAILED part.stl: unsupported part file type (use .json, .step or .stp)",
        stdout.splitlines()[1],
        "FAILED 00010414.step: another input already wrote 00010414.step",
        "1 of 3 files imported; failed: 1 name taken, 1 unsupported suffix",
    ]
    assert stdout.splitlines()[1].startswith(f"ok     {WASHER} -> ")
    assert [p.name for p in out.iterdir()] == ["00010414.step"]


def test_all_ok_exits_0_and_existing_files_need_overwrite(spatialcad, tmp_path):
    out = tmp_path / "out"
    args = ("deepcad", "import", samples() / WASHER, SAMPLES / BUSH, "--out", out)
    code, stdout, err = spatialcad(*args)
    assert code == 0 and err == ""  # two files: no progress bar
    assert stdout.splitlines()[-1] == "2 of 2 files imported"
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(first) == ["00010414.step", "00010560.step"]
    (out / "00010414.step").write_text("mine")
    code, stdout, _ = spatialcad(*args)
    assert code == 1 and stdout.count("exists (use --overwrite to replace it)") == 2
    assert stdout.splitlines()[-1] == "0 of 2 files imported; failed: 2 STEP file exists"
    assert (out / "00010414.step").read_text() == "mine"
    code, _, _ = spatialcad(*args, "--overwrite")
    assert code == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first  # same bytes again


@pytest.mark.parametrize(("setup", "message"), [
    ("no path", "Missing argument 'PATH...'"),
    ("no out", "Missing option '--out'"),
    ("missing path", "does not exist"),
    ("empty dir", "no part files"),
    ("only other files", "nothing to import"),
    ("out under a file", "cannot create"),
])
def test_usage_errors_exit_2_and_write_nothing(spatialcad, tmp_path, setup, message):
    src = tmp_path / "src"
    src.mkdir()
    (src / "notes.txt").write_text("x")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = tmp_path / "out"
    args = {
        "no path": ["--out", out],
        "no out": [samples() / WASHER],
        "missing path": [tmp_path / "nope.json", "--out", out],
        "empty dir": [src, "--out", out],
        "only other files": [src / "notes.txt", "--out", out],
        "out under a file": [SAMPLES / WASHER, "--out", blocker / "out"],
    }[setup]
    code, stdout, err = spatialcad("deepcad", "import", *args)
    assert code == 2 and stdout == ""
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "src"]


def test_help_explains_units_output_and_exit_codes(spatialcad):
    code, stdout, _ = spatialcad("deepcad", "import", "--help")
    text = " ".join(stdout.split())
    assert code == 0
    for phrase in ("millimetres", "model's own coordinates", "OUT/<name>.step",
                   "0 if every file imported", "1 if some failed", "--overwrite"):
        assert phrase in text, phrase
