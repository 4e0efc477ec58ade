"""Engineering parts for tasks: load a DeepCAD JSON or STEP file as a FreeCAD solid in mm.

The bundled parts live in ``deepcad_assets/`` at the repository root (:data:`ASSETS_DIR`),
each as ``<name>.json`` (DeepCAD) and ``<name>.step``, described by ``index.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spatialcad.cad.deepcad import read_deepcad
from spatialcad.cad.step_io import read_step

ASSETS_DIR = Path(__file__).resolve().parents[2] / "deepcad_assets"
STEP_SUFFIXES = (".step", ".stp")
SUFFIXES = (*STEP_SUFFIXES, ".json")  # preference order when a part has several files


def load_part(path: str | Path) -> Any:
    """The solid of a ``.json`` (DeepCAD), ``.step`` or ``.stp`` file, in millimetres.

    Raises ``DeepCADError`` / ``StepError`` (both ``ValueError``) naming the file and the
    reason, or ``ValueError`` for any other suffix.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        return read_deepcad(path)
    if suffix in STEP_SUFFIXES:
        return read_step(path)
    raise ValueError(f"{path.name}: unsupported part file type (use .json, .step or .stp)")


def list_parts(directory: str | Path = ASSETS_DIR) -> list[Path]:
    """One file per part of ``directory``, sorted by name: its STEP file if it has one
    (faster to load, same solid), else its DeepCAD JSON.  ``index.json`` is not a part."""
    best: dict[str, Path] = {}
    for p in Path(directory).iterdir():
        suffix = p.suffix.lower()
        if not p.is_file() or suffix not in SUFFIXES or p.name == "index.json":
            continue
        old = best.get(p.stem)
        if old is None or SUFFIXES.index(suffix) < SUFFIXES.index(old.suffix.lower()):
            best[p.stem] = p
    return [best[k] for k in sorted(best)]
