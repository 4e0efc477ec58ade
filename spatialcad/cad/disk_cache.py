"""A content-addressed cache on disk for what FreeCAD computes slowly from part files.

Entries are ``.npz`` files of named arrays under ``<cache dir>/<kind>/<sha[:2]>/``, named
by everything the result depends on (the part file's SHA-256, the parameters, and
:func:`code_key` of the FreeCAD version and our code), so an entry is exactly what a fresh
computation gives and every process and every shard of a cluster run can share the
directory.  The directory is ``$SPATIALCAD_CACHE_DIR`` (``generate --cache-dir``; empty:
no disk cache), by default ``$XDG_CACHE_HOME/spatialcad`` or ``~/.cache/spatialcad``.
A missing, damaged or unwritable entry is never an error: it is computed (again).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

from spatialcad import freecad_env

CACHE_ENV = "SPATIALCAD_CACHE_DIR"
Arrays = dict[str, np.ndarray]


def cache_dir() -> Path | None:
    """The disk cache's directory, or None when it is switched off."""
    value = os.environ.get(CACHE_ENV)
    if value is not None:
        return Path(value) if value else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "spatialcad"


def code_key(*modules: ModuleType) -> str:
    """A short digest of the FreeCAD version and the source of ``modules``."""
    FreeCAD, _ = freecad_env.load()
    digest = hashlib.sha256(".".join(FreeCAD.Version()[:3]).encode())
    for module in modules:
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


def cached(kind: str, sha: str, name: str, make: Callable[[], Arrays]) -> Arrays:
    """The arrays of entry ``name`` (which starts with the part's ``sha``) of ``kind``:
    read from the cache, or made by ``make()`` and stored."""
    root = cache_dir()
    if root is None:
        return make()
    file = root / kind / sha[:2] / f"{name}.npz"
    arrays = _load(file)
    if arrays is None:
        arrays = make()
        _save(file, arrays)
    return arrays


def _load(file: Path) -> Arrays | None:
    try:
        with np.load(file, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    except (OSError, ValueError, KeyError, EOFError):
        return None  # absent or damaged: made again and rewritten


def _save(file: Path, arrays: Arrays) -> None:
    """Write ``file`` atomically; an unwritable cache is no error (it is only a cache)."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **arrays)  # type: ignore[arg-type]  # a key could be "allow_pickle"
        os.replace(tmp, file)
    except OSError:
        pass
