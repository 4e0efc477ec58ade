"""Human baseline results: the ``human-<name>.jsonl`` files the quiz page downloads.

A participant's file has one line per quiz item: ``id``, ``system`` = ``human:<name>``,
``category``, ``task``, ``level``, ``form``, ``extracted`` (the answer given, or null),
``rule`` = ``human``, ``latency_s`` (seconds spent on the item), ``quiz`` (the quiz's id),
``quiz_parameters`` (its ``n``, ``seed`` and ``tasks``), the SHA-256 of the benchmark's
manifest.json (``benchmark_manifest_sha256``) and benchmark.json (``benchmark_sha256``)
and ``benchmark_path``, where the benchmark was when the quiz was made (a hint for finding
it).  The file carries no answer key: it is scored only against the benchmark itself
(:mod:`spatialcad.evaluate.human_score`), never by a ``gold`` or ``correct`` it holds
(files of older pages have them; they are ignored).

:func:`iter_lines` reads a file line by line, each line checked (types, a finite
non-negative time, a plain participant name), so the caller can stop as soon as a file
holds more lines than its quiz could make.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from spatialcad import forms
from spatialcad.evaluate.extract import extract_open, match_open
from spatialcad.evaluate.runner import Line

PREFIX = "human:"
FILE_PREFIX = "human-"
NAME = r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}"  # a participant's name (also the file name)
BENCHMARK_KEYS = ("benchmark_manifest_sha256", "benchmark_sha256", "quiz", "form", "system")
MAX_LINE = 1 << 16  # bytes: far more than a line the page writes (a typed answer and ids)
FORMS = ("choice", "open", "fill")  # "fill": the open form's old name


def _is_text(v: Any) -> bool:
    return isinstance(v, str)


def _is_time(v: Any) -> bool:
    return (isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            and v >= 0)


def _is_params(v: Any) -> bool:
    return (isinstance(v, dict) and isinstance(v.get("n"), int) and not isinstance(v["n"], bool)
            and v["n"] >= 1 and isinstance(v.get("seed"), int)
            and not isinstance(v["seed"], bool) and isinstance(v.get("tasks"), list)
            and all(isinstance(t, str) for t in v["tasks"]))


_SYSTEM = re.compile(re.escape(PREFIX) + NAME + r"\Z")
_CHECKS: dict[str, tuple[str, Any]] = {
    "id": ("a string", _is_text),
    "system": (f"{PREFIX}<name> (letters, digits, _ and -)",
               lambda v: isinstance(v, str) and bool(_SYSTEM.match(v))),
    "category": ("a string", _is_text),
    "task": ("a string", _is_text),
    "level": ("a string", _is_text),
    "form": ("choice or open", lambda v: v in FORMS),
    "extracted": ("a string or null", lambda v: v is None or isinstance(v, str)),
    "latency_s": ("a finite number of seconds >= 0", _is_time),
    "quiz": ("a string", _is_text),
    "quiz_parameters": ("an object with an integer n >= 1, an integer seed and a list of "
                        "task names", _is_params),
    "benchmark_sha256": ("a string", _is_text),
    "benchmark_manifest_sha256": ("a string", _is_text),
}


def is_human_line(line: Any) -> bool:
    """True if ``line`` (a parsed results line) is a quiz page's (system ``human:...``)."""
    return isinstance(line, dict) and str(line.get("system", "")).startswith(PREFIX)


def first_line(path: Path) -> Any:
    """The parsed first line of ``path`` (None if it is not one JSON line), read bounded."""
    with open(path, "rb") as f:
        raw = f.readline(MAX_LINE + 1)
    try:
        return json.loads(raw)
    except ValueError:
        return None


def long_first_line(path: Path) -> str | None:
    """"``path``: line 1 is longer than MAX_LINE bytes" where it is (else None)."""
    with open(path, "rb") as f:
        raw = f.readline(MAX_LINE + 1)
    if len(raw) > MAX_LINE:
        return f"{path}: line 1 is longer than {MAX_LINE} bytes: not a quiz page's file"
    return None


def _problem(line: Any) -> str | None:
    if not isinstance(line, dict):
        return "not a JSON object"
    for key, (want, test) in _CHECKS.items():
        if key not in line:
            if key == "quiz_parameters":
                return ("it names no quiz_parameters: made by an older quiz page, which "
                        "cannot be scored against its benchmark; run the quiz again")
            return f"it has no {key}: not a spatialcad quiz result"
        if not test(line[key]):
            shown = json.dumps(line[key])
            return f"its {key} {shown[:40]} is not {want}"
    return None


def iter_lines(path: Path) -> Iterator[Line]:
    """The lines of human results file ``path``, each checked as it is read; ValueError
    (one line, naming the line) for a line that is too long, cut short, not JSON or not
    of the quiz page's types.  A consumer that stops early reads no further."""
    with open(path, "rb") as f:
        number = 0
        while raw := f.readline(MAX_LINE + 1):
            number += 1
            where = f"{path}: line {number}"
            if len(raw) > MAX_LINE:
                raise ValueError(f"{where} is longer than {MAX_LINE} bytes: not a quiz "
                                 "page's file")
            if not raw.endswith(b"\n"):
                raise ValueError(f"{where} is cut short (the file is truncated): save the "
                                 "file from the quiz page again")
            try:
                line = json.loads(raw)
            except ValueError:
                raise ValueError(f"{where} is not JSON: not a quiz page's file") from None
            problem = _problem(line)
            if problem:
                raise ValueError(f"{where}: {problem}")
            yield line


def check_file(lines: list[Line], path: Path) -> None:
    """ValueError unless ``lines`` are one participant's answers to one quiz, each item
    once."""
    if not lines:
        raise ValueError(f"{path} holds no answers")
    for key in (*BENCHMARK_KEYS, "quiz_parameters"):
        values = {json.dumps(line[key], sort_keys=True) for line in lines}
        if len(values) > 1:
            shown = ", ".join(sorted(values))
            raise ValueError(f"{path} mixes several values of {key} ({shown[:120]}); keep one "
                             "participant's quiz per file")
    seen: set[str] = set()
    for line in lines:
        if line["id"] in seen:
            raise ValueError(f"{path} answers the item {line['id']!r} more than once: not "
                             "one quiz's file")
        seen.add(line["id"])


def correct(line: Line) -> bool:
    """Whether the human answer of ``line`` is right, from its ``gold`` (taken from the
    benchmark) and extracted answer, by the rules a model is scored by."""
    got = line.get("extracted")
    if got is None:
        return False
    if forms.ALIASES.get(str(line.get("form")), line.get("form")) == "open":
        return match_open(extract_open(str(got)).value, str(line["gold"]))
    return bool(got == line["gold"])


def meta(lines: list[Line]) -> dict[str, Any]:
    """The run.json a (checked) human results file stands for."""
    first = lines[0]
    return {"identity": {"kind": "human", "system": first["system"], "prompt": None,
                         "form": forms.ALIASES.get(first["form"], first["form"]),
                         "quiz": first["quiz"],
                         "benchmark_sha256": first["benchmark_sha256"],
                         "benchmark_manifest_sha256": first["benchmark_manifest_sha256"]}}

