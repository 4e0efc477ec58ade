"""environment.yml (conda, for clusters) and pyproject.toml name the same dependencies with
the same version ranges, so both installs behave alike."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONDA_ONLY = {"python", "freecad", "pip"}  # what pip cannot install / the tools themselves


def split(requirement: str) -> tuple[str, str]:
    """``"numpy>=2.0,<3"`` -> ``("numpy", ">=2.0,<3")`` (comments and spaces dropped)."""
    text = requirement.split("#", 1)[0].replace(" ", "")
    name, spec = re.match(r"([A-Za-z0-9_.\-]+)(.*)", text).groups()
    return name.lower().replace("_", "-"), spec


def environment() -> dict[str, str]:
    """The conda and pip requirements of environment.yml (a plain list, parsed by hand)."""
    found: dict[str, str] = {}
    in_deps = False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if re.match(r"\S", line):
            in_deps = line.startswith("dependencies:")
            continue
        item = re.match(r"\s+- (.+)", line)
        if in_deps and item and item.group(1) not in ("pip:", "-e ."):
            name, spec = split(item.group(1))
            found[name] = spec
    return found


def test_environment_yml_and_pyproject_agree():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = dict(map(split, project["dependencies"] + project["optional-dependencies"]["dev"]))
    conda = environment()
    assert {k: v for k, v in conda.items() if k not in CONDA_ONLY} == wanted
    assert set(conda) >= CONDA_ONLY and "-e ." in (ROOT / "environment.yml").read_text()


def test_make_bench_uses_an_active_conda_env(tmp_path):
    """Inside an active env holding our dependencies (here the test's own interpreter's
    environment stands in for a conda env), `make bench` runs there: it creates no venv and
    installs nothing, and the benchmark is made and verified."""
    env_prefix = Path(sys.executable).parents[1]
    venv = tmp_path / "venv-not-made"
    out = tmp_path / "bench"
    env = {**os.environ, "CONDA_PREFIX": str(env_prefix)}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(["make", "-C", str(ROOT), "bench", "LEVEL=0", "N_PER_TASK=2",
                           "TASK=cube_counting", f"VENV={venv}", f"OUT={out}", "JOBS=1"],
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "the active conda env" in done.stdout and "pip install" not in done.stdout
    assert not venv.exists()
    assert len(json.loads((out / "benchmark.json").read_text())) == 2
    forced = subprocess.run(["make", "-n", "-C", str(ROOT), "bench", "USE_CONDA=0",
                             f"VENV={venv}"], env=env, capture_output=True, text=True)
    assert "pip install" in forced.stdout  # USE_CONDA=0: the venv route
