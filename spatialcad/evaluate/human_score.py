"""Scoring a human results file against the benchmark it names, never against itself.

The benchmark is the one whose manifest.json has the file's ``benchmark_manifest_sha256``:
one given with ``report --benchmark DIR`` (if some are given and none is the file's, the
file is refused, naming both digests), else one an eval run in the same report scored, else
the folder the quiz was made from (``benchmark_path``).  The quiz is made again from
that benchmark and the file's ``quiz_parameters`` (:func:`spatialcad.export.quiz.plan_quiz`
is deterministic) and must have the file's quiz id: then the file must answer exactly the
quiz's items, each once, with their category, task and level; ``gold`` and ``correct`` are
taken from the benchmark's records.  Reading stops as soon as a file holds more lines than
its quiz has items.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from spatialcad import forms
from spatialcad.evaluate import human, runner
from spatialcad.evaluate.runner import Line
from spatialcad.export.quiz import Quiz, plan_quiz
from spatialcad.record.benchmark import Benchmark
from spatialcad.record.records import image_path


def find_benchmark(path: Path, first: Line, given: Iterable[Path],
                   others: Iterable[Path] = ()) -> Benchmark:
    """The checked benchmark of the human file ``path`` (whose first line is ``first``):
    one of ``given`` (``report --benchmark``) if any is given, and ValueError naming both
    digests if none is the file's; else one of ``others`` (benchmarks the report's runs
    scored) or the quiz's own ``benchmark_path``; ValueError if none is it."""
    want = first["benchmark_manifest_sha256"]
    given = list(given)
    hint = first.get("benchmark_path")
    candidates = given or [*others, *([Path(hint)] if isinstance(hint, str) else [])]
    for folder in candidates:
        try:
            if runner.manifest_digest(folder) == want:
                return Benchmark.checked(folder)
        except OSError:
            continue
    if given:
        names = ", ".join(f"{b} ({_digest(b)[:12]}...)" for b in given)
        raise ValueError(f"{path} answers the benchmark whose manifest.json has SHA-256 "
                         f"{want[:12]}..., not {names}: refused (a quiz file is scored only "
                         "against its own benchmark)")
    raise ValueError(f"{path}: its benchmark (manifest.json SHA-256 {want[:12]}...) was not "
                     "found; give it with --benchmark DIR: a quiz file is scored only "
                     "against its benchmark, never by answers it carries")


def _digest(folder: Path) -> str:
    try:
        return runner.manifest_digest(folder)
    except OSError:
        return "unreadable"


def _quiz_of(path: Path, bench: Benchmark, first: Line) -> Quiz:
    params = first["quiz_parameters"]
    form = forms.canonical(first["form"])
    try:
        quiz = plan_quiz(bench, params["n"], params["seed"], params["tasks"], form)
    except ValueError:
        quiz = None
    if quiz is None or quiz.id != first["quiz"]:
        raise ValueError(f"{path}: no quiz of {bench.root} has the id {first['quiz']!r} and "
                         "these parameters: not a quiz page's file of this benchmark")
    return quiz


def score_file(path: Path, given: Iterable[Path],
               others: Iterable[Path] = ()) -> tuple[list[Line], dict]:
    """The lines of human results file ``path``, scored against its benchmark (see
    :func:`find_benchmark`), and the run.json it stands for (``benchmark``: the folder it
    was scored against); ValueError (one line) if it is not one quiz's file."""
    lines = human.iter_lines(path)
    try:
        first = next(lines)
    except StopIteration:
        raise ValueError(f"{path} holds no answers") from None
    bench = find_benchmark(path, first, given, others)
    if first["benchmark_sha256"] != runner.benchmark_digest(bench.root):
        raise ValueError(f"{path}: its benchmark_sha256 is not that of {bench.root}'s "
                         "benchmark.json: not a quiz page's file")
    quiz = _quiz_of(path, bench, first)
    items = {image_path(r): r for r in quiz.items}
    got = [first]
    for line in lines:
        got.append(line)
        if len(got) > len(items):
            raise ValueError(f"{path} holds more lines than its quiz has items "
                             f"({len(items)}): not one quiz's file")
    human.check_file(got, path)
    scored = []
    for line in got:
        record = items.get(line["id"])
        if record is None:
            raise ValueError(f"{path}: the item {json.dumps(line['id'])[:60]} is not one of "
                             "its quiz's items")
        if (line["category"], line["task"], line["level"]) != (
                record["Category"], record["Task"], record["Level"]):
            raise ValueError(f"{path}: the item {line['id']} is named with another category, "
                             "task or level than the benchmark's")
        gold = forms.gold(record, quiz.form)
        scored.append({**line, "gold": gold, "correct": human.correct({**line, "gold": gold})})
    if len(scored) < len(items):
        raise ValueError(f"{path} answers {len(scored)} of its quiz's {len(items)} items: not "
                         "a finished quiz's file")
    return scored, {**human.meta(scored), "benchmark": str(bench.root)}
