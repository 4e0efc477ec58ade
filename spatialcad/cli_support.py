"""What the commands share: the one-line usage failure (exit code 2), the argument type
of an existing spatialcad output directory, and the interruption behind an exception."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

import click

from spatialcad.run.outdir import absent


class UsageFailure(click.ClickException):
    """Bad input: one line on stderr, exit code 2."""

    exit_code = 2


def fail(message: str) -> NoReturn:
    raise UsageFailure(" ".join(str(message).split()))


def interruption(exc: BaseException) -> BaseException | None:
    """The Ctrl-C or SIGTERM behind ``exc``: the first :class:`KeyboardInterrupt` in its
    chain of causes, else click's Abort if the chain holds one, else None.  The signal
    handler's exception can surface wrapped: C code that calls back into Python, such as
    numba's dispatcher loading a kernel, turns it into a SystemError caused by it."""
    seen: set[int] = set()
    abort: BaseException | None = None
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return link
        if isinstance(link, click.Abort):
            abort = abort or link
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return abort


class OutputDir(click.Path):
    """An existing directory that spatialcad wrote (a benchmark, a shard).  A missing one
    is explained: a run may still be writing it, or have stopped before the end."""

    def __init__(self) -> None:
        super().__init__(path_type=Path, file_okay=False)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        path = Path(str(super().convert(value, param, ctx)))
        if not path.exists():
            self.fail(absent(path), param, ctx)
        return path
