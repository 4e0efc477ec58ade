"""Output directories written all or nothing: filled as a hidden sibling, then renamed."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _fresh_sibling(out: Path, overwrite: bool) -> Path:
    """Check ``out`` may be written; return a new empty temporary directory beside it."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())) and not overwrite:
        raise ValueError(f"{out} exists and is not empty (use --overwrite to replace it)")
    parent = out.parent
    tmp = parent / f".{out.name}.tmp-{os.getpid()}"
    try:
        parent.mkdir(parents=True, exist_ok=True)
        if not os.access(parent, os.W_OK):
            raise PermissionError(f"{parent} is not writable")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
    except OSError as exc:
        raise ValueError(f"cannot write to {out}: {exc.strerror or exc}") from exc
    return tmp


@contextmanager
def atomic_dir(out: str | Path, overwrite: bool = False) -> Iterator[Path]:
    """Yield an empty temporary directory to fill; when the block succeeds it becomes ``out``.

    Raises ``ValueError`` before anything is written if ``out`` is not empty and not
    ``overwrite``, or cannot be written.  If the block raises, the temporary directory is
    removed and ``out`` is left as it was; an old ``out`` is replaced only at the very end.
    """
    out = Path(out).resolve()
    tmp = _fresh_sibling(out, overwrite)
    try:
        yield tmp
        if out.exists() or out.is_symlink():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            out.rename(old)
            try:
                tmp.rename(out)
            except BaseException:
                old.rename(out)
                raise
            _remove(old)
        else:
            tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
