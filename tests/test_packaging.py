"""environment.yml (conda, for clusters) and pyproject.toml name the same dependencies with
the same version ranges, so both installs behave alike."""

from __future__ import annotations

import re
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
