"""A content-addressed cache on disk for what FreeCAD computes slowly from part files (and
for PaperFolding's list of fold sequences, spatialcad/tasks/paper_folding/listing.py).

Entries are files of named arrays under ``<cache dir>/<kind>/<sha[:2]>/``, named by
everything the result depends on (the part file's SHA-256, the parameters, and
:func:`code_key` of the FreeCAD version and our code), so an entry is exactly what a fresh
computation gives and every process and every shard of a cluster run can share the
directory.  The directory is ``$SPATIALCAD_CACHE_DIR`` (``generate --cache-dir``; empty:
no disk cache), by default ``$XDG_CACHE_HOME/spatialcad`` or ``~/.cache/spatialcad``.
A missing, damaged or unwritable entry is never an error: it is computed (again).
An entry is laid out as :func:`_save` says (``SUFFIX``): read in some 20 microseconds,
where a ``.npz`` file took a millisecond (a 3ViewProjection run reads ~1,500).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np

from spatialcad import freecad_env

CACHE_ENV = "SPATIALCAD_CACHE_DIR"
SUFFIX = ".arrays"
Arrays = dict[str, np.ndarray]
MAGIC = b"spatialcad arrays 1\n"
ALIGN = 16  # every array starts at a multiple of this: aligned for numpy and numba
KINDS = "biuf"  # bool, int, unsigned, float: dtypes of plain bytes (never objects)


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
    file = root / kind / sha[:2] / f"{name}{SUFFIX}"
    arrays = _load(file)
    if arrays is None:
        arrays = make()
        _save(file, arrays)
    return arrays


def _load(file: Path) -> Arrays | None:
    """The arrays of ``file``, or None when it is absent or not as :func:`_save` writes
    it (a damaged entry is made again and rewritten).  The file is read into one writable
    buffer, and each array is a view of its bytes."""
    try:
        with open(file, "rb") as f:
            data = bytearray(os.fstat(f.fileno()).st_size)
            if f.readinto(data) != len(data) or not data.startswith(MAGIC):
                return None
        start = len(MAGIC) + 8
        base = start + int.from_bytes(data[len(MAGIC):start], "little")
        arrays = {}
        for name, descr, shape, offset in json.loads(data[start:base]):
            dtype, at = np.dtype(descr), base + int(offset)
            count = math.prod(shape)
            if (dtype.kind not in KINDS or offset < 0 or at % ALIGN
                    or at + count * dtype.itemsize > len(data)):
                return None
            arrays[str(name)] = np.frombuffer(data, dtype, count, at).reshape(tuple(shape))
        return arrays
    except (OSError, ValueError, TypeError, KeyError):
        return None


def _save(file: Path, arrays: Arrays) -> None:
    """Write ``file`` atomically: ``MAGIC``; the length of a JSON header (8 bytes, little
    endian); the header, padded with spaces to a multiple of ``ALIGN`` bytes from the
    file's start: per array its name, dtype, shape and the offset of its bytes (C order)
    from the header's end; then the arrays' bytes.  An unwritable cache is no error (it is
    only a cache)."""
    plain = {k: np.asarray(v) for k, v in arrays.items()}  # tobytes gives C order
    offsets, at = [], 0
    for v in plain.values():
        at += -at % ALIGN
        offsets.append(at)
        at += v.nbytes
    header = json.dumps([[k, v.dtype.str, list(v.shape), offset] for (k, v), offset
                         in zip(plain.items(), offsets, strict=True)]).encode()
    header += b" " * (-(len(MAGIC) + 8 + len(header)) % ALIGN)
    body = bytearray(at)
    for v, offset in zip(plain.values(), offsets, strict=True):
        body[offset:offset + v.nbytes] = v.tobytes()
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + len(header).to_bytes(8, "little") + header + body)
        os.replace(tmp, file)
    except OSError:
        pass
