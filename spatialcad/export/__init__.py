"""Benchmark exports: Hugging Face datasets, VLMEvalKit TSV, JSONL, and an HTML gallery."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from spatialcad.records import read_benchmark


def load(bench: Path) -> list[dict[str, Any]]:
    """The records of benchmark ``bench``; ValueError if one of their images is missing."""
    records = read_benchmark(bench)
    for r in records:
        if not (Path(bench) / r["image"]).is_file():
            raise ValueError(f"{bench} is incomplete: {r['image']} is missing")
    return records


def png(bench: Path, record: dict[str, Any]) -> bytes:
    return (Path(bench) / record["image"]).read_bytes()


def check_target(out: Path, overwrite: bool) -> None:
    if out.exists() and not overwrite:
        raise ValueError(f"{out} exists (use --overwrite to replace it)")


@contextmanager
def atomic_text(out: Path) -> Iterator[TextIO]:
    """A text file that appears at ``out`` only when the block succeeds."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            yield f
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
