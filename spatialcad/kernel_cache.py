"""Which tasks' numba kernels numba's disk cache holds, by stamp files beside them.

numba compiles a kernel on its first call in a process (about 40 s of CPU for all of
ours) and keeps the result on disk for every later process.  A run that starts on an empty
cache makes each of its workers compile every kernel it meets, the same ones at the same
time; so runs with workers first make one level-1 item of each task whose kernels are not
cached (that meets every kernel the task uses at any level), one task per worker, the three
tasks with the most kernels of their own first (:func:`spatialcad.run.pipeline.compile_in`).

A task so compiled gets a stamp file in numba's cache directory, named by the package's
sources (path, modification time and size of every file: what numba checks before it uses
a cached kernel), numba's version and the CPU numba compiles for.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

# tasks whose kernels take longest to compile (seconds of CPU on a cold cache, one process,
# in this order: 17, 14, 12; every other task then needs less than 1 s of its own)
HEAVIEST = ("cross_section", "rotation_3d", "three_view")
STAMP_PREFIX = "spatialcad-kernels"
PACKAGE = Path(__file__).resolve().parent


def compile_order(names: Iterable[str]) -> list[str]:
    """``names`` with the heaviest compilers first (a pool hands out work in order)."""
    return sorted(names, key=lambda n: HEAVIEST.index(n) if n in HEAVIEST else len(HEAVIEST))


@cache
def _stamp_dir() -> Path | None:
    """numba's cache directory for this package's kernels, as numba's cache object of one
    kernel names it (None: a numba without that attribute; then nothing is stamped and runs
    compile as numba does by itself)."""
    from spatialcad.render import raster

    path = getattr(getattr(raster._scan, "_cache", None), "_cache_path", None)
    return Path(path) if path else None


@cache
def _target_key() -> str:
    """Names numba's compiler and the CPU it compiles for (a cache shared by nodes of
    several CPU types holds kernels for each)."""
    import numba
    from numba.core.registry import cpu_target

    magic = cpu_target.target_context.codegen().magic_tuple()
    return hashlib.sha256(repr((numba.__version__, sys.version, magic)).encode()).hexdigest()[:12]


@cache
def _sources_key() -> str:
    """Names the package's sources as numba tells whether a cached kernel is stale."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(PACKAGE)} {stat.st_mtime_ns} {stat.st_size}\n".encode())
    return digest.hexdigest()[:12]


def _stamp(task: str) -> Path | None:
    where = _stamp_dir()
    return None if where is None else (
        where / f"{STAMP_PREFIX}.{task}.{_target_key()}.{_sources_key()}")


def missing(names: Iterable[str]) -> list[str]:
    """The tasks of ``names`` whose kernels numba's cache may not hold (no stamp for the
    current sources); none when numba's cache directory is not known."""
    return [n for n in names if (stamp := _stamp(n)) is not None and not stamp.exists()]


def mark_compiled(task: str) -> None:
    """Stamp ``task`` (and drop its stamps for other sources on this CPU)."""
    stamp = _stamp(task)
    if stamp is None:
        return
    try:
        for old in stamp.parent.glob(f"{STAMP_PREFIX}.{task}.{_target_key()}.*"):
            old.unlink(missing_ok=True)
        stamp.touch()
    except OSError:
        pass  # a cache numba can read but we cannot write: the next run compiles again
