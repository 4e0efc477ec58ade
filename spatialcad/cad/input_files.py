"""Reading part files that may be hostile: only regular files are opened (a FIFO would
block the reader for ever), at most a given number of bytes is read, and every refusal
says why in a short reason that run summaries count (:class:`UnusableFile`)."""

from __future__ import annotations

import errno
import os
import stat
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

NOT_REGULAR = "not a regular file"
BROKEN_LINK = "broken link"
CANNOT_READ = "cannot read"
TOO_LARGE = "too large"
EMPTY = "empty file"

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


class UnusableFile(ValueError):
    """A file that cannot be used; ``reason`` is its short name in a run's counts (the
    message names the file and says more)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def reason_of(exc: ValueError) -> str:
    """The reason of a file's refusal: an :class:`UnusableFile`'s, else "invalid part" (a
    reader's other ValueError)."""
    return exc.reason if isinstance(exc, UnusableFile) else "invalid part"


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "a file of another kind")


def file_problem(path: Path) -> UnusableFile | None:
    """Why ``path`` is no regular file to read (following links), without opening it; None
    when it is one."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ELOOP) and path.is_symlink():
            return UnusableFile(f"{path.name}: {BROKEN_LINK} (to {os.readlink(path)})",
                                BROKEN_LINK)
        return _cannot_read(path, exc)
    if stat.S_ISREG(mode):
        return None
    return UnusableFile(f"{path.name}: {NOT_REGULAR} ({_kind(mode)})", NOT_REGULAR)


def _too_large(path: Path, max_bytes: int) -> UnusableFile:
    return UnusableFile(f"{path.name}: {TOO_LARGE} (over {max_bytes} bytes, the most read)",
                        TOO_LARGE)


def _cannot_read(path: Path, exc: OSError) -> UnusableFile:
    return UnusableFile(f"{path.name}: {CANNOT_READ} ({exc.strerror or exc})", CANNOT_READ)


def read_bytes(path: Path, max_bytes: int | None = None) -> bytes:
    """The bytes of the regular file ``path``; :class:`UnusableFile` if it is none (it is
    then not opened, or opened without blocking and closed unread when it changed kind in
    between), cannot be read, is empty, or holds more than ``max_bytes`` (not read then)."""
    problem = file_problem(path)
    if problem is not None:
        raise problem
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise _cannot_read(path, exc) from exc
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnusableFile(f"{path.name}: {NOT_REGULAR} ({_kind(st.st_mode)})", NOT_REGULAR)
        if max_bytes is not None and st.st_size > max_bytes:
            raise _too_large(path, max_bytes)
        try:
            data = f.read() if max_bytes is None else f.read(max_bytes + 1)
        except OSError as exc:
            raise _cannot_read(path, exc) from exc
    if max_bytes is not None and len(data) > max_bytes:  # grew since fstat
        raise _too_large(path, max_bytes)
    if not data.strip():
        raise UnusableFile(f"{path.name}: {EMPTY}"
                           + (" (white space only)" if data else ""), EMPTY)
    return data


def reason_counts(reasons: Iterable[str]) -> str:
    """E.g. "2 malformed JSON, 1 broken link": how often each reason comes, most first."""
    ordered = sorted(Counter(reasons).items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{n} {reason}" for reason, n in ordered)
