"""Engineering parts for tasks: load a DeepCAD JSON or STEP file as a FreeCAD solid in mm.

The bundled parts live in ``deepcad_assets/`` at the repository root (:data:`ASSETS_DIR`),
each as ``<name>.json`` (DeepCAD) and ``<name>.step``, described by ``index.json``; tasks
find a folder's parts through its index (spatialcad/cad/part_index.py).  Users
point tasks at other directories (the real DeepCAD dataset's nested ``cad_json/`` folders,
a folder of STEP files); item records name a part's file relative to the repository root
when it lies inside it, else by absolute path (:func:`portable`, :func:`resolve`).  The
bundled library also holds generated parts, made at run time from the recipes listed in
``deepcad_assets/generated_parts.tsv`` (:func:`generated_parts`); a record names one by its
recipe, ``generated/<family>/<seed>``, which :func:`resolve` turns into its file
(spatialcad/cad/generated_parts.py).
"""

from __future__ import annotations

import hashlib
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from spatialcad.cad import generated_parts as generated
from spatialcad.cad.deepcad import DeepCADWarning, read_deepcad
from spatialcad.cad.input_files import UnusableFile, file_problem
from spatialcad.cad.step_io import read_step

REPO_ROOT = Path(__file__).resolve().parents[2]
ASSETS_DIR = REPO_ROOT / "deepcad_assets"
INDEX = "index.json"
STEP_SUFFIXES = (".step", ".stp")
SUFFIXES = (*STEP_SUFFIXES, ".json")  # preference order when a part has several files


def load_part(path: str | Path) -> Any:
    """The solid of a ``.json`` (DeepCAD), ``.step`` or ``.stp`` file, in millimetres.

    Raises ``DeepCADError`` / ``StepError`` naming the file and the reason, or
    :class:`UnusableFile` for any other suffix (all are ``ValueError``).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        return read_deepcad(path)
    if suffix in STEP_SUFFIXES:
        return read_step(path)
    raise UnusableFile(f"{path.name}: unsupported part file type (use .json, .step or .stp)",
                       "unsupported suffix")


@dataclass(frozen=True)
class PartListing:
    """What a folder holds under part file names."""

    files: list[Path]  # one per part (:func:`list_parts`)
    unreadable: list[tuple[Path, UnusableFile]]  # no regular file: FIFOs, directories,
    # broken links... (never opened), sorted by path


def scan_parts(directory: str | Path) -> PartListing:
    """The part files under ``directory`` (searched recursively), one per part and sorted by
    path: its STEP file if it has one (faster to load, same solid), else its DeepCAD JSON;
    and what bears a part file's name but is no regular file.  An ``index.json`` is not a
    part."""
    root = Path(directory)
    best: dict[Path, Path] = {}
    unreadable = []
    for p in root.rglob("*"):
        suffix = p.suffix.lower()
        if suffix not in SUFFIXES or p.name == INDEX:
            continue
        if (problem := file_problem(p)) is not None:
            unreadable.append((p, problem))
            continue
        key = p.relative_to(root).with_suffix("")
        old = best.get(key)
        if old is None or SUFFIXES.index(suffix) < SUFFIXES.index(old.suffix.lower()):
            best[key] = p
    return PartListing([best[k] for k in sorted(best)], sorted(unreadable, key=lambda u: u[0]))


def list_parts(directory: str | Path = ASSETS_DIR) -> list[Path]:
    """The part files of :func:`scan_parts`."""
    return scan_parts(directory).files


def load_noting(path: Path) -> tuple[Any, tuple[str, ...]]:
    """:func:`load_part`, with the :class:`DeepCADWarning` messages it gave (not shown)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DeepCADWarning)
        shape = load_part(path)
    for w in caught:
        if not issubclass(w.category, DeepCADWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return shape, tuple(str(w.message) for w in caught if issubclass(w.category,
                                                                     DeepCADWarning))


@lru_cache(maxsize=32)
def cached_part(path: Path) -> Any:
    """:func:`load_part`, remembered per process (callers must not modify the shape); what
    the reader left out is not shown again (a folder's index holds it)."""
    return load_noting(path)[0]


def portable(path: Path) -> str:
    """How a record names a part file: relative to the repository root if inside it."""
    path = path.resolve()
    try:
        return path.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return str(path)


def resolve(name: str) -> Path:
    """The file a record's part name refers to (inverse of :func:`portable`; a generated
    part's recipe name gives its file, written if need be); ``ValueError`` unless it names
    a part file (.json, .step, .stp) or a recipe, so a record cannot make us read anything
    else."""
    if generated.is_recipe_name(name):
        return generated.materialize(*generated.parse_recipe_name(name))
    path = Path(name)
    if path.suffix.lower() not in SUFFIXES:
        raise ValueError(f"{name!r} is not a part file ({', '.join(SUFFIXES)})")
    return path if path.is_absolute() else REPO_ROOT / path


def part_sha256(path: Path) -> str:
    """The SHA-256 of a part file, by which records name its exact content."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


@lru_cache(maxsize=1)
def generated_parts() -> tuple[generated.Listed, ...]:
    """The generated parts of the bundled library: the screened recipes of
    ``deepcad_assets/generated_parts.tsv``, in its order."""
    return generated.load_listing(ASSETS_DIR / generated.LISTING)[1]
