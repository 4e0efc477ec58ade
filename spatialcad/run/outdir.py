"""Output paths written all or nothing, by one run at a time.

:func:`locked` holds an exclusive lock on an output path for a whole run (a hidden sibling
``.NAME.lock``; a second run is refused with :class:`OutputLocked` naming the holder).
:func:`atomic_dir` and :func:`atomic_file` take that lock, fill a hidden sibling
``.NAME.tmp-HOST-PID`` and rename it over the target only when the block succeeds; they
remove the temporary siblings that dead runs of this host left behind, and they replace
an existing directory only if it is empty or a spatialcad output (it holds a manifest
with ``"generator": "spatialcad"``), never a folder of someone else's files.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import socket
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

MANIFEST = "manifest.json"
GENERATOR = "spatialcad"


class OutputError(ValueError):
    """An output path that may not be written (one line, for the command line)."""


class OutputLocked(OutputError):
    """Another run holds the lock of an output path."""


def _host() -> str:
    return socket.gethostname().split(".")[0] or "host"


def _sibling(out: Path, kind: str, tag: str = "") -> Path:
    return out.parent / f".{out.name}.{kind}{'-' + tag if tag else ''}"


def lock_path(out: Path) -> Path:
    return _sibling(out, "lock")


def _holder_text(fd: int) -> str:
    try:
        raw = os.pread(fd, 4096, 0).decode("utf-8", "replace")
        info = json.loads(raw)
        since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(info["since"]))
        return f"pid {info['pid']} on {info['host']} since {since}: {info['command']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


@contextmanager
def locked(out: str | Path) -> Iterator[Path]:
    """Hold the exclusive lock of output path ``out`` for the block; yield the resolved path.

    The lock is an advisory ``flock`` on ``.NAME.lock`` beside ``out``, released when the
    block ends or the process dies, and the file says who holds it.  Raises
    :class:`OutputLocked` at once if another run holds it.
    """
    out = Path(out).resolve()
    path = lock_path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write to {out}: {_mkdir_failure(out.parent, exc)}") from exc
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise OutputError(f"cannot write to {out}: {exc.strerror or exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder_text(fd)
            os.close(fd)
            raise OutputLocked(f"{out} is in use by another spatialcad run ({holder}); wait "
                               "for it to finish or choose another output") from None
        except OSError as exc:  # e.g. a file system without locks
            os.close(fd)
            raise OutputError(f"cannot lock {out}: {exc.strerror or exc}") from exc
        try:  # the holder before us may have removed the file after we opened it
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        info = {"pid": os.getpid(), "host": _host(), "since": int(time.time()),
                "command": " ".join(sys.argv) or "python"}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)
        yield out
    finally:
        try:
            os.unlink(path)  # while still holding the lock: see the samestat check above
        except OSError:
            pass
        os.close(fd)


def _mkdir_failure(folder: Path, exc: OSError) -> str:
    """Why ``folder`` could not be made: a path above it that is a file (``/dev/full/x``:
    mkdir says "File exists"), else the system's reason."""
    for above in [folder, *folder.parents]:
        if above.exists():
            if not above.is_dir():
                return f"{above} is not a directory"
            break
    return exc.strerror or str(exc)


def _pid_alive(pid: int) -> bool:
    """True if process ``pid`` runs; a zombie (killed, not yet reaped by its parent) is
    dead: it holds no lock and writes nothing more."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc: the signal's answer stands
    return state not in ("Z", "X")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def siblings(out: Path, kind: str = "tmp") -> list[Path]:
    """Every ``.NAME.<kind>-HOST-PID`` sibling of ``out``, newest first: for ``tmp``, the
    directories of runs writing ``out`` now, or of stopped ones that ``--resume`` goes on
    from."""
    return sorted(out.parent.glob(f".{out.name}.{kind}-*"), key=_mtime, reverse=True)


def absent(out: Path) -> str:
    """Why there is no output directory ``out``: a run is still writing it (or stopped
    before the end), or none made it."""
    partial = siblings(out)
    if partial:
        return (f"{out} is not finished: its items so far are in {partial[0]} (its run is "
                "still going, or stopped: the same generate command with --resume goes on)")
    return f"{out} does not exist (not made, or not yet)"


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:  # a run just renamed it over its target
        return 0.0


def stale_siblings(out: Path, kind: str = "tmp") -> list[Path]:
    """The :func:`siblings` of ``out`` left by dead runs of this host (older runs wrote
    ``.NAME.<kind>-PID``, taken as this host's).  Only meaningful while holding the lock of
    ``out``."""
    prefix = f".{out.name}.{kind}-"
    found = []
    for path in siblings(out, kind):
        host, _, pid = path.name[len(prefix):].rpartition("-")
        if pid.isdigit() and host in ("", _host()) and not _pid_alive(int(pid)):
            found.append(path)
    return found


def remove_stale_siblings(out: Path) -> list[Path]:
    """Remove the temporary siblings dead runs of this host left beside ``out``."""
    removed = stale_siblings(out, "tmp") + stale_siblings(out, "old")
    for path in removed:
        _remove(path)
    return removed


def is_ours(path: Path) -> bool:
    """True if directory ``path`` holds a spatialcad manifest."""
    try:
        manifest = json.loads((path / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and manifest.get("generator") == GENERATOR


def check_replaceable_dir(out: Path, overwrite: bool) -> None:
    """``OutputError`` unless directory ``out`` is absent, empty, or ours with ``overwrite``."""
    if not (out.exists() or out.is_symlink()):
        return
    if not out.is_dir():
        raise OutputError(f"{out} exists and is not a directory")
    if not any(out.iterdir()):
        return
    if not overwrite:
        raise OutputError(f"{out} exists and is not empty (use --overwrite to replace it)")
    if not is_ours(out):
        raise OutputError(f"refusing to overwrite {out}: it is not a spatialcad output (no "
                          f"spatialcad {MANIFEST}); remove it yourself or choose another path")


def check_apart(out: str | Path, inputs: Iterable[str | Path],
                default_inside: str | None = None) -> None:
    """``OutputError`` if output ``out`` is one of ``inputs``, contains one, or lies inside
    one (symlinks resolved): writing it could destroy what the command reads.  The one
    exception is ``default_inside``, the spot inside its input where a command writes by
    default (the gallery's ``DIR/gallery.html``, the report's ``RUN/report``)."""
    target = Path(os.path.realpath(out))
    for given in inputs:
        source = Path(os.path.realpath(given))
        if target == source:
            clash = "is"
        elif source.is_relative_to(target):
            clash = "contains"
        elif target.is_relative_to(source) and (
                default_inside is None or target != source / default_inside):
            clash = "lies inside"
        else:
            continue
        raise OutputError(f"--out {out} {clash} the input {given}: writing it would destroy "
                          "what this command reads; choose another output path")


def _replace(tmp: Path, out: Path) -> None:
    """Put ``tmp`` at ``out``; an old ``out`` is removed only once ``tmp`` is in place."""
    if out.exists() or out.is_symlink():
        old = _sibling(out, "old", f"{_host()}-{os.getpid()}")
        out.rename(old)
        try:
            tmp.rename(out)
        except BaseException:
            old.rename(out)
            raise
        _remove(old)
    else:
        tmp.rename(out)


@contextmanager
def atomic_dir(out: str | Path, overwrite: bool = False, *,
               resume: bool = False) -> Iterator[Path]:
    """Yield a temporary directory to fill; when the block succeeds it becomes ``out``.

    Holds the lock of ``out`` throughout.  Raises :class:`OutputError` before anything is
    written if ``out`` may not be replaced (see :func:`check_replaceable_dir`) or written.
    If the block raises, the temporary directory is removed and ``out`` is left as it was.

    With ``resume``, the directory yielded is the newest one an interrupted run left beside
    ``out`` (empty if there is none), and it is kept when the block raises, for the next
    resumed run to go on with.
    """
    with locked(out) as out:
        check_replaceable_dir(out, overwrite)
        tmp = _sibling(out, "tmp", f"{_host()}-{os.getpid()}")  # may be this process's own
        leftover = ([tmp] if tmp.is_dir() else []) + stale_siblings(out) if resume else []
        if not resume:
            shutil.rmtree(tmp, ignore_errors=True)
        elif leftover and leftover[0] != tmp:
            shutil.rmtree(tmp, ignore_errors=True)
            leftover[0].rename(tmp)
        remove_stale_siblings(out)
        try:
            if not os.access(out.parent, os.W_OK):
                raise PermissionError(errno.EACCES, f"{out.parent} is not writable")
            tmp.mkdir(exist_ok=bool(leftover))
        except OSError as exc:
            raise OutputError(f"cannot write to {out}: {exc.strerror or exc}") from exc
        try:
            yield tmp
            _replace(tmp, out)
        except BaseException:
            if not resume:
                shutil.rmtree(tmp, ignore_errors=True)
            raise


@contextmanager
def atomic_file(out: str | Path, overwrite: bool = False) -> Iterator[BinaryIO]:
    """A binary file that appears at ``out`` only when the block succeeds (lock held)."""
    with locked(out) as out:
        if out.is_dir():
            raise OutputError(f"{out} is a directory; give a file path")
        if out.exists() and not overwrite:
            raise OutputError(f"{out} exists (use --overwrite to replace it)")
        remove_stale_siblings(out)
        tmp = _sibling(out, "tmp", f"{_host()}-{os.getpid()}")
        try:
            f = open(tmp, "wb")  # noqa: SIM115  (closed below, before the rename)
        except OSError as exc:
            raise OutputError(f"cannot write to {out}: {exc.strerror or exc}") from exc
        try:
            with f:
                yield f
            os.replace(tmp, out)
        finally:
            tmp.unlink(missing_ok=True)
