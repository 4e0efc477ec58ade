"""STEP import and export of solids, in millimetres.

:func:`write_step` makes byte-stable files: the time stamp OpenCASCADE writes into the
``FILE_NAME`` header is replaced by a fixed one and the product, which OpenCASCADE numbers
by a per-process export counter, is named after the file, so the same shape always gives
the same bytes.  :func:`read_step` checks the file's framing before handing it to OpenCASCADE,
which otherwise reads a truncated file partially without complaint, and keeps what it read
of a valid file in the disk cache (spatialcad/cad/disk_cache.py) as BREP text, keyed by the
file's SHA-256: importing that takes half a millisecond, reading the STEP file ~40.
"""

from __future__ import annotations

import hashlib
import os
import re
import select
import signal
import sys
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from spatialcad import freecad_env
from spatialcad.cad import disk_cache
from spatialcad.cad.input_files import UnusableFile, read_bytes

STEP_MAGIC = "ISO-10303-21;"
STEP_END = "END-ISO-10303-21;"
FIXED_TIMESTAMP = "2000-01-01T00:00:00"
READ_TIMEOUT_S = 300.0  # a child still reading after this is killed
_FILE_NAME_STAMP = re.compile(r"(FILE_NAME\('(?:[^']|'')*',')[^']*(')")
# OpenCASCADE names the product "Open CASCADE STEP translator 7.6 <n>", n counting exports
_PRODUCT_NAME = re.compile(r"PRODUCT\('Open CASCADE STEP translator [^']*',\s*'[^']*'")


class StepError(UnusableFile):
    """A STEP file that cannot be read as a valid solid (missing, truncated, corrupt);
    ``reason`` as :class:`UnusableFile`'s."""

    def __init__(self, message: str, reason: str = "invalid STEP") -> None:
        super().__init__(message, reason)


def solids_of(shape: Any) -> Any:
    """The solids of ``shape``: the solid itself if there is one, else a compound of them."""
    _, Part = freecad_env.load()
    solids = shape.Solids
    return solids[0] if len(solids) == 1 else Part.Compound(solids)


def _check_framing(path: Path) -> bytes:
    """The bytes of ``path`` if it is framed as a STEP file, else :class:`StepError`."""
    try:
        data = read_bytes(path)
    except UnusableFile as exc:
        raise StepError(str(exc), exc.reason) from exc
    head = data[:64].lstrip().decode("ascii", "replace")
    if not head.startswith(STEP_MAGIC):
        raise StepError(f"{path.name}: not a STEP file (does not start with {STEP_MAGIC!r})")
    if STEP_END.encode() not in data[-256:]:
        raise StepError(f"{path.name}: truncated STEP file (no closing {STEP_END!r})")
    return data


def _read_in_child(path: Path) -> str:
    """Read ``path`` with OpenCASCADE in a forked child; return the shape as BREP text.

    Some corrupt files (an entity of an unknown type where a point is expected) make
    OpenCASCADE 7.6 dereference a null pointer and FreeCAD's signal handler end the whole
    process; a child confines that (and is killed after READ_TIMEOUT_S).  Costs ~4 ms.
    """
    _, Part = freecad_env.load()
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns
        try:
            # die at once on a crash: FreeCAD's handler would call exit(), whose cleanup
            # waits forever for OpenCASCADE pool threads that fork did not copy
            for sig in (signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL,
                        signal.SIGABRT):
                signal.signal(sig, signal.SIG_DFL)
            os.close(rfd)
            try:
                reply = "OK" + Part.read(str(path)).exportBrepToString()
            except Exception as exc:  # OCC raises Part.OCCError or RuntimeError, untyped
                reply = f"ER{exc}"
            with os.fdopen(wfd, "w", encoding="latin-1") as out:
                out.write(reply)
        finally:
            os._exit(0)
    os.close(wfd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + READ_TIMEOUT_S
    with os.fdopen(rfd, "rb") as inp:
        while select.select([inp], [], [], max(0.0, deadline - time.monotonic()))[0]:
            chunk = inp.read1(1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise StepError(f"{path.name}: reading took over {READ_TIMEOUT_S:.0f} s")
    reply = b"".join(chunks).decode("latin-1")
    _, status = os.waitpid(pid, 0)
    if status != 0 or not reply:
        raise StepError(f"{path.name}: corrupt STEP file (OpenCASCADE crashed reading it)")
    if reply.startswith("ER"):
        raise StepError(f"{path.name}: OpenCASCADE could not read it ({reply[2:]})")
    return reply[2:]


def read_step(path: str | Path) -> Any:
    """The solid(s) of a STEP file as a ``Part.Shape`` in millimetres.

    Raises :class:`StepError` naming the file and the reason when the file is missing,
    truncated, corrupt, not STEP, or holds no valid solid.
    """
    path = Path(path)
    sha = hashlib.sha256(_check_framing(path)).hexdigest()
    arrays = disk_cache.cached("breps", sha, f"{sha}-{_brep_code()}", lambda: {
        "brep": np.frombuffer(_valid_brep(path).encode("latin-1"), dtype=np.uint8)})
    _, Part = freecad_env.load()
    shape = Part.Shape()
    shape.importBrepFromString(arrays["brep"].tobytes().decode("latin-1"))
    return solids_of(shape)


@lru_cache(maxsize=1)
def _brep_code() -> str:
    return disk_cache.code_key(sys.modules[__name__])


def _valid_brep(path: Path) -> str:
    """The BREP text of the shape OpenCASCADE reads from ``path``, checked to hold a valid
    solid (:class:`StepError` if not)."""
    _, Part = freecad_env.load()
    if hasattr(os, "fork"):
        text = _read_in_child(path)
        shape = Part.Shape()
        shape.importBrepFromString(text)
    else:
        try:
            shape = Part.read(str(path))
        except Exception as exc:  # as in _read_in_child
            raise StepError(f"{path.name}: OpenCASCADE could not read it ({exc})") from exc
        text = shape.exportBrepToString()
    if shape.isNull() or not shape.Solids:
        raise StepError(f"{path.name}: holds no solid")
    if not shape.isValid():
        raise StepError(f"{path.name}: the solid is not valid")
    return str(text)


def write_step(shape: Any, path: str | Path) -> Path:
    """Write ``shape`` (millimetres) to ``path`` as STEP AP214, byte-stable; return the path.

    The file is written to a temporary sibling and renamed, so ``path`` is never left
    half-written.  Sets OpenCASCADE's ``write.surfacecurve.mode`` to 0 (process-wide).
    """
    _, Part = freecad_env.load()
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    # no 2D p-curves: readers rebuild them, and they make up 60% of the bytes
    Part.setStaticValue("write.surfacecurve.mode", 0)
    try:
        shape.exportStep(str(tmp))
        text = tmp.read_text(encoding="latin-1")
        text, n = _FILE_NAME_STAMP.subn(rf"\g<1>{FIXED_TIMESTAMP}\g<2>", text, count=1)
        name = path.stem.replace("'", "''").replace("\\", "_")
        text, m = _PRODUCT_NAME.subn(lambda _: f"PRODUCT('{name}','{name}'", text, count=1)
        if (n, m) != (1, 1):
            raise RuntimeError(f"{path.name}: unexpected STEP header written by OpenCASCADE")
        tmp.write_text(text, encoding="latin-1")
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
