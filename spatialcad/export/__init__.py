"""Benchmark exports: Hugging Face datasets, VLMEvalKit TSV, JSONL, and an HTML gallery.

Every export reads a benchmark only after checking it (spatialcad/benchmark.py): a record
can make an export embed nothing but the benchmark's own images.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from spatialcad.benchmark import Benchmark
from spatialcad.outdir import atomic_file


def load(bench: Path) -> Benchmark:
    """Benchmark ``bench``, checked; ``BenchmarkError`` (one line) if it is not sound."""
    return Benchmark.checked(bench)


@contextmanager
def atomic_text(out: Path, overwrite: bool = False) -> Iterator[TextIO]:
    """A UTF-8 text file that appears at ``out`` only when the block succeeds."""
    with atomic_file(out, overwrite) as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        yield text
        text.flush()
        text.detach()
