"""The human baseline quiz: one static, offline HTML page that asks a person N items.

:func:`plan_quiz` draws the items: a sample as even as possible over task and then level
(deterministic for the seed), in a seeded order, plus one more item for an unscored
practice round.  :func:`write_quiz` writes ``OUT/index.html`` (the page, every image
embedded, no server and no network needed), ``OUT/quiz.json`` (what was drawn, for the
experimenter) and the export's ``manifest.json``.

The page (``templates/quiz.js``) asks for the participant's name, runs the practice item,
then shows the items one at a time without feedback, records the choice (A-D keys or
clicks, Enter to go on) or the typed open-form answer and the seconds spent on each item,
keeps its state in the browser's localStorage under the quiz's id (so it can be paused
and resumed across reloads, or started over from the pause screen), and at the end
offers ``human-<name>.jsonl``: the line format of a run's results.jsonl (see
:mod:`spatialcad.evaluate.human`), naming the benchmark by the SHA-256 of its
manifest.json and the quiz by its id and parameters.  Neither the page
nor the file holds the answers of the quiz items (only the practice item's, which the page
shows): ``report`` scores the file against the benchmark itself
(:mod:`spatialcad.evaluate.human_score`), so editing the file cannot raise a score.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialcad.evaluate import human, runner
from spatialcad.export import load, write_manifest
from spatialcad.export.pages import balanced_sample, data_url, document
from spatialcad.record.benchmark import Benchmark, Record
from spatialcad.record.records import dumps, image_path, task_name
from spatialcad.run.outdir import atomic_dir
from spatialcad.seeding import derive_seed, item_rng

PAGE = "index.html"
PLAN = "quiz.json"


@dataclass(frozen=True)
class Quiz:
    """The items of a quiz, in the order asked, and what identifies it."""

    id: str
    form: str
    seed: int
    tasks: tuple[str, ...]
    practice: Record
    items: list[Record]
    benchmark_sha256: str
    manifest_sha256: str


def _pick_tasks(records: list[Record], tasks: Sequence[str] | None) -> list[Record]:
    if not tasks:
        return records
    known = {name: r["Task"] for r in records for name in (task_name(r), r["Task"])}
    unknown = [t for t in tasks if t not in known]
    if unknown:
        names = ", ".join(sorted({task_name(r) for r in records}))
        raise ValueError(f"--tasks: {', '.join(unknown)} not in this benchmark (it has {names})")
    wanted = {known[t] for t in tasks}
    return [r for r in records if r["Task"] in wanted]


def plan_quiz(bench: Benchmark, n: int, seed: int = 0, tasks: Sequence[str] | None = None,
              form: str = "choice") -> Quiz:
    """``n`` items of ``bench`` (checked) balanced over task and level, and a practice
    item; with ``form="open"`` only items that have an open form.  ValueError if the
    benchmark has fewer than ``n + 1`` such items."""
    if n < 1:
        raise ValueError("--n must be >= 1")
    pool = runner.select(_pick_tasks(bench.records, tasks), form, None)
    if len(pool) < n + 1:
        what = " with an open form" if form == "open" else ""
        raise ValueError(f"--n {n}: {bench.root} has {len(pool)} items{what} of these tasks; "
                         f"a quiz needs n + 1 (one is the practice item)")
    rng = item_rng(derive_seed("quiz", seed))
    chosen = balanced_sample(pool, n, rng, [lambda r: r["Task"], lambda r: r["Level"]])
    ids = {image_path(r) for r in chosen}
    rest = [r for r in pool if image_path(r) not in ids]
    practice = rest[int(rng.integers(len(rest)))]
    items = [chosen[int(i)] for i in rng.permutation(len(chosen))]
    manifest = runner.manifest_digest(bench.root)
    ident = json.dumps([manifest, form, image_path(practice), [image_path(r) for r in items]])
    return Quiz(hashlib.sha256(ident.encode()).hexdigest()[:16], form, seed, tuple(tasks or ()),
                practice, items, runner.benchmark_digest(bench.root), manifest)


def _gold(record: Record, form: str) -> Any:
    return record["Answer_direct"] if form == "open" else record["Answer"]


def _item(bench: Benchmark, record: Record, form: str) -> dict[str, Any]:
    shown = {"question": record["Question_direct"]} if form == "open" else {
        "question": record["Question"], "choices": record["Choices"]}
    return {"id": image_path(record), "category": record["Category"], "task": record["Task"],
            "level": record["Level"], **shown, "image": data_url(bench.png(record))}


def page_data(bench: Benchmark, quiz: Quiz) -> dict[str, Any]:
    """What the page's script reads: the items (no answers: only the practice item's, which
    the page shows the participant), what names the quiz and its benchmark."""
    return {
        "quiz": quiz.id, "form": quiz.form, "benchmark": bench.root.resolve().name,
        "quiz_parameters": {"n": len(quiz.items), "seed": quiz.seed, "tasks": list(quiz.tasks)},
        "benchmark_sha256": quiz.benchmark_sha256,
        "benchmark_manifest_sha256": quiz.manifest_sha256,
        "benchmark_path": str(bench.root.resolve()),
        "system_prefix": human.PREFIX, "file_prefix": human.FILE_PREFIX, "name_pattern": human.NAME,
        "practice": _item(bench, quiz.practice, quiz.form),
        "items": [_item(bench, r, quiz.form) for r in quiz.items],
        "practice_answer": _gold(quiz.practice, quiz.form),
    }


def render(bench: Benchmark, quiz: Quiz) -> str:
    """The quiz page: a shell the script fills in (it says so if scripts are off)."""
    body = ('<main id="app"><noscript><p>This quiz needs JavaScript: please allow scripts for '
            "this page.</p></noscript></main>")
    title = f"Spatial reasoning quiz: {len(quiz.items)} items"
    return document(title, body, style="quiz.css", script="quiz.js", data=page_data(bench, quiz))


def write_quiz(bench_dir: Path, out: Path, n: int, seed: int = 0,
               tasks: Sequence[str] | None = None, form: str = "choice",
               overwrite: bool = False, command: str = "") -> Quiz:
    """Write the quiz page, quiz.json and the manifest into directory ``out`` (all or
    nothing)."""
    bench = load(bench_dir, out)
    quiz = plan_quiz(bench, n, seed, tasks, form)
    page = render(bench, quiz).encode()
    with atomic_dir(out, overwrite) as tmp:
        (tmp / PAGE).write_bytes(page)
        (tmp / PLAN).write_bytes(dumps({
            "quiz": quiz.id, "command": command,
            "parameters": {"n": n, "seed": seed, "tasks": list(tasks or []), "form": form},
            "benchmark": str(Path(bench_dir).resolve()),
            "benchmark_sha256": quiz.benchmark_sha256,
            "benchmark_manifest_sha256": quiz.manifest_sha256,
            "practice": image_path(quiz.practice), "items": [image_path(r) for r in quiz.items],
        }))
        write_manifest(tmp, "quiz", len(quiz.items))
    return quiz
