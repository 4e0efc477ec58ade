"""What the commands share: the one-line usage failure (exit code 2) and the argument type
of an existing spatialcad output directory."""

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
