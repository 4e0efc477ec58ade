from __future__ import annotations

import sys
from pathlib import Path

import pytest

from spatialcad import cli


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, *args: str):
    """Run ``spatialcad ARGS`` in-process; return (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["spatialcad", *map(str, args)])
    try:
        cli.main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture
def spatialcad(monkeypatch, capsys):
    return lambda *args: run_cli(monkeypatch, capsys, *args)
