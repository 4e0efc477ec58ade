"""An index of a folder of part files: per file its SHA-256, whether it builds a valid
solid (and why not), its face count and bounding box.  What bears a part file's name but
is no regular file (a FIFO, a directory, a broken link) is listed too, never opened.

Tasks draw parts from the index instead of loading files blindly: a raw DeepCAD folder
holds parts of every size, and a level wants a few of them.  The index is built on first
use (loading every file once, ~60 ms a DeepCAD file) and stored as JSON in the disk cache
(spatialcad/cad/disk_cache.py, ``<cache dir>/part-index/``), named by the folder's path
and the reader's code; a later run reuses the entries of files whose size and modification
time, or else SHA-256, are unchanged, and reads only new or changed files.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from spatialcad.cad import deepcad, disk_cache, parts, step_io
from spatialcad.cad.deepcad import bbox_of
from spatialcad.cad.input_files import reason_of
from spatialcad.cad.parts import load_noting, part_sha256, scan_parts

KIND = "part-index"
NOT_SOLID = "not a valid solid"
SEVERAL_SOLIDS = "several solids"


@dataclass(frozen=True)
class IndexEntry:
    """One part file of an indexed folder."""

    file: str  # relative to the folder, with / separators
    sha256: str
    size: int  # bytes, and
    mtime_ns: int  # modification time when indexed: an unchanged file is not read again
    faces: int = 0
    solids: int = 0  # separate solids (a part drawn as one piece has one)
    bbox: tuple[float, ...] = ()  # min x, y, z, max x, y, z (mm); () when not valid
    error: str | None = None  # why the file gives no valid solid; None when it does
    warnings: tuple[str, ...] = ()  # features the reader left out
    reason: str | None = None  # the error's kind in a few words (UnusableFile.reason)

    @property
    def valid(self) -> bool:
        return self.error is None

    @property
    def problem(self) -> str | None:
        """Why no part can be drawn from the file, in a few words, or None: its error's
        reason, or "several solids" (DeepCAD holds files of separate pieces)."""
        if self.error is not None:
            return self.reason
        return SEVERAL_SOLIDS if self.solids > 1 else None

    @property
    def extents(self) -> tuple[float, float, float]:
        """The bounding box's x, y and z lengths (mm)."""
        b = self.bbox
        return (b[3] - b[0], b[4] - b[1], b[5] - b[2])

    @property
    def problem_detail(self) -> str | None:
        """:attr:`problem` said in full (after the file's name), or None."""
        if self.error is not None:
            return self.error.removeprefix(f"{PurePosixPath(self.file).name}: ")
        return f"{SEVERAL_SOLIDS} ({self.solids} separate solids)" if self.solids > 1 else None


def _entry(root: Path, path: Path, sha: str) -> IndexEntry:
    stat = path.stat()
    base = IndexEntry(path.relative_to(root).as_posix(), sha, stat.st_size, stat.st_mtime_ns)
    try:
        shape, warnings = load_noting(path)
    except ValueError as exc:  # DeepCADError, StepError
        return IndexEntry(**{**asdict(base), "error": str(exc), "reason": reason_of(exc)})
    if not shape.isValid() or not shape.Solids:
        return IndexEntry(**{**asdict(base), "error": f"{path.name}: {NOT_SOLID}",
                             "reason": NOT_SOLID})
    return IndexEntry(**{**asdict(base), "faces": len(shape.Faces), "solids": len(shape.Solids),
                         "bbox": bbox_of(shape), "warnings": warnings})


@lru_cache(maxsize=1)
def _code() -> str:
    return disk_cache.code_key(deepcad, step_io, parts, sys.modules[__name__])


def _index_file(root: Path) -> Path | None:
    cache = disk_cache.cache_dir()
    if cache is None:
        return None
    name = hashlib.sha256(str(root).encode()).hexdigest()[:24]
    return cache / KIND / f"{name}-{_code()}.json"


def _read(file: Path | None) -> dict[str, IndexEntry]:
    if file is None:
        return {}
    try:
        rows = json.loads(file.read_text())
        return {r["file"]: IndexEntry(**{**r, "bbox": tuple(r["bbox"]),
                                         "warnings": tuple(r["warnings"])}) for r in rows}
    except (OSError, ValueError, TypeError, KeyError):
        return {}  # absent or damaged: built again


def _write(file: Path, entries: tuple[IndexEntry, ...]) -> None:
    """Write atomically; an unwritable cache is no error."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump([asdict(e) for e in entries], f)
        os.replace(tmp, file)
    except OSError:
        pass


@lru_cache(maxsize=8)
def part_index(directory: Path) -> tuple[IndexEntry, ...]:
    """The index of the part files of ``directory`` (an absolute path; one file per part as
    :func:`spatialcad.cad.parts.scan_parts` finds them), in their order, then what bears a
    part file's name but is no regular file (its error said, no SHA-256); ``ValueError`` when
    it holds neither."""
    listing = scan_parts(directory)
    if not listing.files and not listing.unreadable:
        raise ValueError(f"{directory}: no part files (.json, .step, .stp) found")
    store = _index_file(directory)
    old = _read(store)
    by_sha = {e.sha256: e for e in old.values() if e.sha256}
    entries = []
    for path in listing.files:
        rel = path.relative_to(directory).as_posix()
        stat = path.stat()
        known = old.get(rel)
        if known and (known.size, known.mtime_ns) == (stat.st_size, stat.st_mtime_ns):
            entries.append(known)
            continue
        sha = part_sha256(path)
        same = by_sha.get(sha)
        entries.append(IndexEntry(**{**asdict(same), "file": rel, "size": stat.st_size,
                                     "mtime_ns": stat.st_mtime_ns}) if same
                       else _entry(directory, path, sha))
    entries += [IndexEntry(path.relative_to(directory).as_posix(), "", 0, 0, error=str(problem),
                           reason=problem.reason) for path, problem in listing.unreadable]
    result = tuple(entries)
    if store is not None and result != tuple(old.get(e.file) for e in result):
        _write(store, result)
    return result

