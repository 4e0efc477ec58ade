"""The bytes of every file of `generate --task all` at levels 0-3 (n=3, seeds 0 and 1) equal
the SHA-256 digests recorded in tests/fixtures/golden_sha256.json, and every record's spec
and option data read back through the task's typed spec (spec.py) to the same JSON text.

Refactoring must not change a single output byte.  A change that is meant to change the
output (a fixed defect, a new feature of the records) regenerates the fixture in its own
commit that says why:  python tests/test_golden_output.py --write
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from spatialcad.tasks import registry

FIXTURE = Path(__file__).parent / "fixtures" / "golden_sha256.json"
RUNS = [(level, seed) for level in range(4) for seed in (0, 1)]


def assert_specs_read_back(records: list[dict]) -> None:
    for r in records:
        spec = registry.by_record_task(r["Task"]).module("spec")
        where = f"{r['Task']} {r['Level']} {r['Image_id']}"
        assert json.dumps(spec.parse_spec(r["spec"]).to_json()) == json.dumps(r["spec"]), where
        for o in r["options"]:
            assert json.dumps(spec.parse_option(o["data"]).to_json()) == json.dumps(o["data"])


def assert_open_forms_declared(records: list[dict]) -> None:
    """Each task's declared ``open_form`` holds: none on a task without one, every record
    on an "every item" task."""
    for r in records:
        info = registry.by_record_task(r["Task"])
        where = f"{r['Task']} {r['Level']} {r['Image_id']}"
        if not info.open_form:
            assert "Question_direct" not in r, where
        if info.open_form == "every item":
            assert "Question_direct" in r and "Answer_direct" in r, where


def run_digests(level: int, seed: int, out: Path) -> dict[str, str]:
    """Generate the run in a fresh process (as a user would) and hash every file."""
    subprocess.run([sys.executable, "-m", "spatialcad.cli", "generate", "--task", "all",
                    "--level", str(level), "--n", "3", "--seed", str(seed), "--jobs", "2",
                    "--out", str(out)], check=True, capture_output=True)
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()}


def key(level: int, seed: int) -> str:
    return f"level {level}, seed {seed}"


@pytest.mark.parametrize(("level", "seed"), RUNS)
def test_output_equals_the_recorded_bytes(tmp_path, level, seed):
    recorded = json.loads(FIXTURE.read_text())[key(level, seed)]
    found = run_digests(level, seed, tmp_path / "b")
    records = json.loads((tmp_path / "b" / "benchmark.json").read_text())
    assert_specs_read_back(records)
    assert_open_forms_declared(records)
    assert sorted(found) == sorted(recorded)
    changed = [name for name in recorded if found[name] != recorded[name]]
    assert not changed, f"{len(changed)} files changed, e.g. {changed[:5]}"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_golden_output.py --write")
    with tempfile.TemporaryDirectory() as tmp:
        table = {key(lv, s): run_digests(lv, s, Path(tmp) / f"{lv}-{s}") for lv, s in RUNS}
    FIXTURE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {FIXTURE}: {sum(map(len, table.values()))} digests")
