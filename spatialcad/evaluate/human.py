"""Human baseline results: the ``human-<name>.jsonl`` files the quiz page downloads.

A participant's file has one line per quiz item in the line format of a run's
``results.jsonl`` (``id``, ``system`` = ``human:<name>``, ``category``, ``task``,
``level``, ``form``, ``gold``, ``extracted``, ``rule`` = ``human``, ``correct``, and
``latency_s`` = seconds spent on the item) plus ``quiz`` (the quiz's id) and the SHA-256
of the benchmark's manifest.json (``benchmark_manifest_sha256``) and benchmark.json
(``benchmark_sha256``), so a file is never read against another benchmark.  ``report``
reads such a file as a run of its own; the correctness the page computed is re-derived
here from ``gold`` and ``extracted`` by the rules a model is scored by (the same letter;
open-form answers by :func:`spatialcad.evaluate.extract.match_open`; the open form's
old name ``fill`` is still read).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from spatialcad import forms
from spatialcad.evaluate.extract import match_open
from spatialcad.evaluate.runner import Line

PREFIX = "human:"
FILE_PREFIX = "human-"
NAME = r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}"  # a participant's name (also the file name)
BENCHMARK_KEYS = ("benchmark_manifest_sha256", "benchmark_sha256", "quiz", "form", "system")
FIELDS = ("id", "category", "task", "level", "gold", "extracted", "latency_s")


def is_human(lines: Iterable[Line]) -> bool:
    """True if ``lines`` are a human results file's (every system ``human:...``)."""
    systems = {str(line.get("system", "")) for line in lines}
    return bool(systems) and all(s.startswith(PREFIX) for s in systems)


def correct(line: Line) -> bool:
    """Whether the human answer of ``line`` is right, from its gold and extracted answer."""
    got = line.get("extracted")
    if got is None:
        return False
    if forms.ALIASES.get(str(line.get("form")), line.get("form")) == "open":
        return match_open(str(got), str(line["gold"]))
    return bool(got == line["gold"])


def meta(lines: list[Line], path: Path) -> dict[str, Any]:
    """The run.json a human results file stands for; ValueError if the lines disagree on
    the participant, benchmark or quiz, or lack a field."""
    for line in lines:
        absent = [k for k in (*BENCHMARK_KEYS, *FIELDS) if k not in line]
        if absent:
            raise ValueError(f"{path}: the line of item {line.get('id')!r} lacks "
                             f"{', '.join(absent)}: not a spatialcad quiz result")
    for key in BENCHMARK_KEYS:
        values = {line[key] for line in lines}
        if len(values) > 1:
            shown = ", ".join(sorted(map(str, values)))
            raise ValueError(f"{path} mixes several values of {key} ({shown}); keep one "
                             "participant's quiz per file")
    first = lines[0]
    return {"identity": {"kind": "human", "system": first["system"], "prompt": None,
                         "form": forms.ALIASES.get(first["form"], first["form"]),
                         "quiz": first["quiz"],
                         "benchmark_sha256": first["benchmark_sha256"],
                         "benchmark_manifest_sha256": first["benchmark_manifest_sha256"]}}


def rescore(lines: Iterable[Line]) -> list[Line]:
    """``lines`` with ``correct`` re-derived by :func:`correct`."""
    return [{**line, "correct": correct(line)} for line in lines]
