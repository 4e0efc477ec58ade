"""Benchmark exports: a Hugging Face hub folder, SpatialViz-Bench's own layout, VLMEvalKit
TSV, JSONL, and browser pages (the gallery and the human baseline quiz, sharing ``pages``).

Every export reads a benchmark only after checking it (spatialcad/record/benchmark.py): a record
can make an export embed nothing but the benchmark's own images.  A directory export ends
with a spatialcad ``manifest.json`` (:func:`write_manifest`), so ``--overwrite`` may replace
it later (spatialcad/run/outdir.py replaces only spatialcad outputs).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from spatialcad import __version__
from spatialcad.record.benchmark import GENERATOR, Benchmark, file_sha256
from spatialcad.record.records import MANIFEST, dumps
from spatialcad.run.outdir import atomic_file, check_apart


def load(bench: Path, out: Path, others: Iterable[Path] = (),
         default_inside: str | None = None) -> Benchmark:
    """Benchmark ``bench``, checked, for an export to ``out``: ``BenchmarkError`` (one line)
    if it is not sound, ``OutputError`` if ``out`` is, contains or lies inside ``bench`` or
    one of ``others`` (the command's other inputs; see :func:`outdir.check_apart`)."""
    check_apart(out, [bench, *others], default_inside)
    return Benchmark.checked(bench)


@contextmanager
def atomic_text(out: Path, overwrite: bool = False) -> Iterator[TextIO]:
    """A UTF-8 text file that appears at ``out`` only when the block succeeds."""
    with atomic_file(out, overwrite) as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8", newline="")
        yield text
        text.flush()
        text.detach()


def write_manifest(root: Path, export: str, items: int) -> None:
    """``root/manifest.json``: what wrote the export, its item count and the SHA-256 of every
    file in ``root`` (written last, over the finished folder)."""
    files = {p.relative_to(root).as_posix(): file_sha256(p)
             for p in sorted(root.rglob("*")) if p.is_file()}
    (root / MANIFEST).write_bytes(dumps({"generator": GENERATOR, "version": __version__,
                                         "export": export, "items": items, "files": files}))
