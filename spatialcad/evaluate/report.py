"""Reports of one or more runs: markdown tables, PNG plots and a JSON summary.

Every accuracy comes with its 95% Wilson interval; a chance column gives the interval a
random guesser would get on the same number of items.  Several runs are compared with the
first one: on the same benchmark the items are paired and McNemar's exact test is used,
otherwise the unpaired two-proportion z-test.  Audit columns (``audit:*`` systems from
``spatialcad eval --baseline audit``) flag tasks whose heuristic beats chance with a
Wilson interval that does not overlap the chance interval.  A human results file of the
quiz page (``human-<name>.jsonl``, see :mod:`spatialcad.evaluate.human`) is read like a
run, as the system ``human:<name>``; the median seconds per item per task are reported
for every system whose lines carry a time (humans: time on the item; models: the
request's latency).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spatialcad import forms
from spatialcad.evaluate import human, human_score, runner, stats
from spatialcad.evaluate.extract import is_correct
from spatialcad.evaluate.markdown import md_text
from spatialcad.evaluate.runner import META, RESULTS, Line, read_lines
from spatialcad.evaluate.steps import comparison as steps_comparison
from spatialcad.evaluate.steps import mode_of as steps_mode
from spatialcad.record.benchmark import Benchmark
from spatialcad.record.records import BENCHMARK, LETTERS
from spatialcad.run.outdir import check_apart

LADDER = "ladder.json"
DEFAULT_DIR = "report"  # a single run's report goes to RUN/report


@dataclass
class Column:
    """The answers of one system in one run: ``item id -> line``."""

    label: str
    run: Path
    system: str
    meta: dict[str, Any]
    lines: dict[str, Line]
    against: Path | None = None  # the benchmark the lines were scored against (None: as stored)

    @property
    def is_audit(self) -> bool:
        return self.system.startswith("audit:")

    @property
    def benchmark(self) -> str | None:
        """SHA-256 of the benchmark.json the run scored."""
        return self.meta.get("identity", {}).get("benchmark_sha256")

    @property
    def manifest(self) -> str | None:
        """SHA-256 of the benchmark's manifest.json, where the run names it (human files)."""
        return self.meta.get("identity", {}).get("benchmark_manifest_sha256")


@dataclass(frozen=True)
class Acc:
    k: int
    n: int

    @property
    def value(self) -> float:
        return self.k / self.n if self.n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return stats.wilson(self.k, self.n)

    def cell(self) -> str:
        if not self.n:
            return "-"
        lo, hi = self.ci
        return f"{100 * self.value:.1f} [{100 * lo:.1f}, {100 * hi:.1f}] n={self.n}"

    def as_dict(self) -> dict[str, Any]:
        lo, hi = self.ci
        return {"correct": self.k, "n": self.n, "accuracy": self.value, "ci95": [lo, hi]}


def accuracy(lines: Iterable[Line], correct: Callable[[Line], bool] | None = None) -> Acc:
    lines = list(lines)
    test = correct or (lambda line: bool(line.get("correct")))
    return Acc(sum(test(line) for line in lines), len(lines))


def _run_dir(path: Path) -> tuple[Path, Path]:
    path = Path(path)
    if path.is_file():
        return path.parent, path
    return path, path / RESULTS


def _run_meta(run: Path) -> dict[str, Any]:
    meta_path = run / META
    try:
        meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
    except (OSError, ValueError) as exc:
        raise ValueError(f"{meta_path} is unreadable") from exc
    if not isinstance(meta, dict):
        raise ValueError(f"{meta_path} is not a JSON object")
    return meta


def load_columns(paths: list[Path], benchmarks: Iterable[Path] = ()) -> list[Column]:
    """The columns of the given runs (a run dir or its results.jsonl, or a human results
    file); ValueError if empty.  A human file is scored against its benchmark: one of
    ``benchmarks``, of the runs' own or where its quiz was made
    (:mod:`spatialcad.evaluate.human_score`); a run that scored one of ``benchmarks`` is
    re-scored against it."""
    benchmarks = list(benchmarks)
    found = [_run_dir(path) for path in paths]
    for path, (_, results) in zip(paths, found, strict=True):
        if not results.is_file():
            raise ValueError(f"{path} is not a run: no {RESULTS}")
    humans = [human.is_human_line(human.first_line(results)) for _, results in found]
    metas = [{} if is_human else _run_meta(run)
             for (run, _), is_human in zip(found, humans, strict=True)]
    given = [Benchmark.checked(b) for b in benchmarks]
    others = [Path(m["benchmark"]) for m in metas if isinstance(m.get("benchmark"), str)]
    columns = []
    for (run, results), is_human, meta in zip(found, humans, metas, strict=True):
        if is_human:
            lines, hmeta = human_score.score_file(results, benchmarks, others)
            columns.append(Column(results.stem, results, hmeta["identity"]["system"], hmeta,
                                  {line["id"]: line for line in lines},
                                  Path(hmeta["benchmark"])))
            continue
        bench = scoring_benchmark(results, meta, given)
        lines = read_lines(results) if bench is None else rescored(read_lines(results), meta,
                                                                   bench)
        if any(human.is_human_line(line) for line in lines):
            raise ValueError(human.long_first_line(results) or
                             f"{results} holds quiz answers (system {human.PREFIX}...) but does "
                             "not start with one: not a quiz page's file")
        by_system: dict[str, dict[str, Line]] = {}
        for line in lines:
            if "error" not in line and "system" in line:
                by_system.setdefault(line["system"], {})[line["id"]] = line
        if not by_system:
            raise ValueError(f"{path} has no answered items yet")
        for system, answers in sorted(by_system.items()):
            label = run.name if len(by_system) == 1 else f"{run.name}/{system}"
            if steps_mode(meta) != "none":  # eval --steps: label the run by its setting
                label += f" (steps: {steps_mode(meta)})"
            columns.append(Column(label, run, system, meta, answers,
                                  None if bench is None else bench.root))
    labels = [c.label for c in columns]
    for c in columns:
        if labels.count(c.label) > 1:
            c.label = str(c.run) if c.label in (c.run.name, c.run.stem) else f"{c.run}/{c.system}"
    return columns


def scoring_benchmark(results: Path, meta: dict[str, Any],
                      given: list[Benchmark]) -> Benchmark | None:
    """The benchmark a run's lines are scored against: the one of ``given`` (``report
    --benchmark``) that the run scored (ValueError naming both digests if some are given
    and none is it); with none given, the run's own (run.json's ``benchmark``) if it is
    still there, checked and unchanged; None if not (the stored ``gold`` is taken)."""
    digest = meta.get("identity", {}).get("benchmark_sha256")
    if given:
        bench = next((b for b in given if runner.benchmark_digest(b.root) == digest), None)
        if bench is None:
            names = ", ".join(f"{b.root} ({runner.benchmark_digest(b.root)[:12]}...)"
                              for b in given)
            raise ValueError(f"{results} scored another benchmark (benchmark.json SHA-256 "
                             f"{str(digest)[:12]}...) than {names}: refused")
        return bench
    own = meta.get("benchmark")
    if not isinstance(own, str) or not (Path(own) / BENCHMARK).is_file():
        return None
    try:
        if runner.benchmark_digest(Path(own)) != digest:
            return None
        return Benchmark.checked(Path(own))
    except (OSError, ValueError):
        return None


def rescored(lines: list[Line], meta: dict[str, Any], bench: Benchmark) -> list[Line]:
    """``lines`` of a run of ``bench`` with ``gold`` and ``correct`` taken again from its
    records (a line of an item it does not hold is refused)."""
    records = {runner.item_id(r): r for r in bench.records}
    form = forms.canonical(str(meta["identity"].get("form", "choice")))
    out = []
    for line in lines:
        if "error" in line:
            out.append(line)
            continue
        item, _, letter = str(line["id"]).partition("#")
        record = records.get(item)
        if record is None or (letter and letter not in LETTERS):
            raise ValueError(f"{line['id']!r} is not an item of {bench.root}")
        gold = forms.gold(record, form, LETTERS.index(letter) if letter else None)
        out.append({**line, "gold": gold,
                    "correct": is_correct(form, line.get("extracted"), gold)})
    return out


def by_category(line: Line) -> tuple[str, ...]:
    return (line["category"],)


def by_task(line: Line) -> tuple[str, ...]:
    return (line["task"],)


def by_task_level(line: Line) -> tuple[str, ...]:
    return (line["task"], line["level"])


def level_key(level: str) -> int:
    digits = "".join(ch for ch in level if ch.isdigit())
    return int(digits) if digits else 0


def _groups(columns: list[Column], key: Callable[[Line], tuple]) -> list[tuple]:
    keys = {key(line) for c in columns for line in c.lines.values()}
    return sorted(keys, key=lambda k: tuple(level_key(x) if x.startswith("Level") else x
                                            for x in k))


def _subset(column: Column, key: Callable[[Line], tuple], value: tuple) -> list[Line]:
    return [line for line in column.lines.values() if key(line) == value]


def chance_cell(n: int, p: float = stats.CHANCE) -> str:
    if not n:
        return "-"
    lo, hi = stats.chance_interval(n, p)
    return f"{100 * p:.1f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    """A markdown table; every cell escaped (:func:`md_text`)."""
    out = ["| " + " | ".join(map(md_text, head)) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(map(md_text, r)) + " |" for r in rows]
    return out


CHANCE_BY_FORM = {"choice": stats.CHANCE, "judge": 0.5}  # a guess among 4 options / yes-no


def _chance(column: Column) -> float | None:
    """A guesser's expected accuracy on the column's form (None: open answers, or mixed)."""
    found = {line.get("form", "choice") for line in column.lines.values()}
    return CHANCE_BY_FORM.get(found.pop()) if len(found) == 1 else None



def _heuristic(column: Column) -> str:
    return column.system.split(":", 1)[1]


def audit_verdicts(columns: list[Column], above: bool = True) -> dict[str, list[tuple[str, Acc]]]:
    """Task -> audit heuristics whose 95% interval lies above chance's (a shortcut), or
    with ``above=False`` below it (the heuristic's pick is rarely the answer and can be
    ruled out)."""
    found: dict[str, list[tuple[str, Acc]]] = {}
    for c in (c for c in columns if c.is_audit):
        for (task,) in _groups([c], by_task):
            acc = accuracy(_subset(c, by_task, (task,)))
            lo, hi = stats.chance_interval(acc.n)
            if acc.n and (acc.ci[0] > hi if above else acc.ci[1] < lo):
                found.setdefault(task, []).append((_heuristic(c), acc))
    return found


def _breakdown(columns: list[Column], title: str, key: Callable[[Line], tuple],
               flagged: dict[str, Any]) -> list[str]:
    shown = [c for c in columns if not c.is_audit]
    if not shown:
        return []
    head = [title, *(c.label for c in shown), "chance"]
    rows = []
    for value in _groups(shown, key):
        accs = [accuracy(_subset(c, key, value)) for c in shown]
        name = " ".join(value)
        if value[0] in flagged:
            name += " (shortcut!)"
        n, p = next(((a.n, _chance(c)) for a, c in zip(accs, shown, strict=True)
                     if a.n and _chance(c) is not None), (0, None))
        rows.append([name, *(a.cell() for a in accs), chance_cell(n, p or stats.CHANCE)])
    return [f"## Accuracy by {title}", "", *_table(head, rows), ""]


def _overview(columns: list[Column]) -> list[str]:
    rows = []
    for c in columns:
        ident = c.meta.get("identity", {})
        lines = list(c.lines.values())
        unparsed = sum(line.get("extracted") is None for line in lines)
        rule_a = "-"
        if any("extracted_rule_a" in line for line in lines):
            rule_a = accuracy(lines, lambda x: x.get("extracted_rule_a") == x["gold"]).cell()
        rows.append([c.label, c.system, str(ident.get("prompt") or "-"),
                     str(ident.get("form", "choice")), str(len(lines)), str(unparsed),
                     accuracy(lines).cell(), rule_a])
    for form, p in CHANCE_BY_FORM.items():
        n = max((len(c.lines) for c in columns if _chance(c) == p), default=0)
        if n:
            rows.append(["chance", "random guess", "-", form, str(n), "0", chance_cell(n, p),
                         "-"])
    head = ["run", "system", "prompt", "form", "items", "unparsed",
            "accuracy % [95% CI]", "Rule A accuracy"]
    return ["## Overall", "", *_table(head, rows), ""]


def median_seconds(lines: Iterable[Line]) -> float | None:
    """The median ``latency_s`` of ``lines`` (None if none carries one)."""
    times = [float(x["latency_s"]) for x in lines if isinstance(x.get("latency_s"), int | float)]
    return statistics.median(times) if times else None


def _timed(columns: list[Column]) -> list[Column]:
    return [c for c in columns if not c.is_audit and median_seconds(c.lines.values()) is not None]


def _timing(columns: list[Column]) -> list[str]:
    shown = _timed(columns)
    if not shown:
        return []
    rows = []
    for value in [None, *_groups(shown, by_task)]:
        cells = []
        for c in shown:
            t = median_seconds(x for x in c.lines.values() if value is None or by_task(x) == value)
            cells.append("-" if t is None else f"{t:.1f}")
        rows.append(["all" if value is None else value[0], *cells])
    return ["## Median seconds per item by task", "",
            "Humans (`human:*`): time spent on the item; models: the request's latency.", "",
            *_table(["task", *(c.label for c in shown)], rows), ""]


def _compare(columns: list[Column]) -> list[str]:
    shown = [c for c in columns if not c.is_audit]
    if len(shown) < 2:
        return []
    first = shown[0]
    out = [f"## Compared with {md_text(first.label)}", "",
           "Δ = accuracy minus the first run's, in points. Same benchmark: McNemar's exact "
           "test on paired items (b = only the first right, c = only this one right); "
           "otherwise a two-proportion z-test. * marks p < 0.05.", ""]
    rows = []
    tasks = [None, *(t for (t,) in _groups(shown, by_task))]
    for other in shown[1:]:
        for task in tasks:
            def pick(c: Column, task: str | None = task) -> dict[str, bool]:
                return {i: bool(x.get("correct")) for i, x in c.lines.items()
                        if task is None or x["task"] == task}
            a, b = pick(first), pick(other)
            if not a or not b:
                continue
            if first.benchmark and first.benchmark == other.benchmark:
                pair = stats.paired(a, b)
                p, detail = pair.p, f"paired n={pair.n}, b={pair.b}, c={pair.c}"
                delta = pair.delta
            else:
                k1, k2 = sum(a.values()), sum(b.values())
                p = stats.two_proportion(k1, len(a), k2, len(b))
                delta = k2 / len(b) - k1 / len(a)
                detail = f"unpaired n={len(a)}/{len(b)}"
            star = "*" if p < 0.05 else ""
            rows.append([other.label, task or "all", f"{100 * delta:+.1f}", detail,
                         f"{p:.4f}{star}"])
    return [*out, *_table(["run", "task", "Δ", "items", "p"], rows), ""]


def _audit(columns: list[Column], flagged: dict[str, list[tuple[str, Acc]]]) -> list[str]:
    audits = [c for c in columns if c.is_audit]
    if not audits:
        return []
    below = audit_verdicts(columns, above=False)
    head = ["task", *(_heuristic(c) for c in audits), "chance"]
    rows = []
    for value in _groups(audits, by_task):
        accs = [accuracy(_subset(c, by_task, value)) for c in audits]
        marks = {name: " **shortcut**" for name, _ in flagged.get(value[0], [])}
        marks.update({name: " (below chance)" for name, _ in below.get(value[0], [])})
        cells = [a.cell() + marks.get(_heuristic(c), "") for a, c in zip(accs, audits, strict=True)]
        rows.append([value[0], *cells, chance_cell(max(a.n for a in accs))])
    verdict = ("Tasks with a shortcut: " + ", ".join(sorted(flagged)) + ".") if flagged else (
        "No heuristic beats chance on any task.")
    if below:
        verdict += " Below chance (their pick can be ruled out, a weaker leak): " + "; ".join(
            f"{task} {', '.join(name for name, _ in hs)}" for task, hs in sorted(below.items())
        ) + "."
    return ["## Shortcut audit", "",
            "Heuristics that ignore the question (see spatialcad.evaluate.baselines). A task "
            "is flagged when a heuristic's 95% interval lies entirely above chance's.", "",
            *_table(head, rows), "", verdict, ""]


def _ladder(columns: list[Column]) -> list[str]:
    out = []
    for run in dict.fromkeys(c.run for c in columns):
        path = run / LADDER
        if not path.is_file():
            continue
        lad = json.loads(path.read_text())
        finals = ", ".join(str(r["final_level"]) for r in lad["runs"])
        out += [f"## Ladder: {md_text(run.name)}", "",
                f"Task {lad['task']}, {len(lad['runs'])} runs: mean final level "
                f"**{lad['mean_final_level']:.2f}** (sd {lad['sd_final_level']:.2f}); "
                f"final levels {finals}.", ""]
    return out


def missing(column: Column) -> tuple[int, dict[str, int]]:
    """Items the run planned (``run.json``) and, per task/level, how many have no answer."""
    planned = column.meta.get("planned") or {}
    counts = planned.get("counts") or {}
    done: dict[str, int] = {}
    for line in column.lines.values():
        key = f"{line.get('task')}/{line.get('level')}"
        done[key] = done.get(key, 0) + 1
    gaps = {k: n - done.get(k, 0) for k, n in counts.items() if n > done.get(k, 0)}
    return int(planned.get("items") or 0), gaps


def _incomplete(columns: list[Column]) -> list[str]:
    """A warning on top for every run that has not answered all the items it planned."""
    md = []
    for c in columns:
        planned, gaps = missing(c)
        if gaps:
            where = ", ".join(f"{k} ({n} missing)" for k, n in sorted(gaps.items()))
            md.append(f"**Incomplete run {md_text(c.label)}: {len(c.lines)} of {planned} items "
                      f"answered.** Unanswered: {where}. Re-run the same `spatialcad eval` "
                      "command to finish it.")
    return [*md, ""] if md else []


def _benchmark_named(c: Column) -> dict[str, Any]:
    """What ``c`` was scored against: the benchmark's path and digests, or the stored gold."""
    if c.against is None:
        return {"path": None, "rescored": False, "benchmark_sha256": c.benchmark}
    return {"path": str(c.against), "rescored": True,
            "benchmark_sha256": runner.benchmark_digest(c.against),
            "manifest_sha256": runner.manifest_digest(c.against)}


def _scored_against(columns: list[Column]) -> list[str]:
    lines = ["## Scored against", ""]
    for c in columns:
        named = _benchmark_named(c)
        if named["rescored"]:
            lines.append(f"- {md_text(c.label)}: the benchmark at {md_text(named['path'])} "
                         f"(benchmark.json SHA-256 {named['benchmark_sha256']}, manifest.json "
                         f"SHA-256 {named['manifest_sha256']})")
        else:
            lines.append(f"- {md_text(c.label)}: not re-scored: its stored answers (`gold`) are "
                         f"taken as they are (benchmark.json SHA-256 {named['benchmark_sha256']}"
                         "; the benchmark is not here: give it with --benchmark DIR)")
    return [*lines, ""]


def build(columns: list[Column]) -> tuple[str, dict[str, Any]]:
    """The markdown report and a JSON-able summary of ``columns``."""
    flagged = audit_verdicts(columns)
    md = ["# spatialcad evaluation report", ""]
    md += _incomplete(columns)
    md += _scored_against(columns)
    md += _overview(columns)
    md += _breakdown(columns, "category", by_category, {})
    md += _breakdown(columns, "task", by_task, flagged)
    md += _breakdown(columns, "task and level", by_task_level,
                     flagged)
    md += _timing(columns)
    md += _compare(columns)
    md += steps_comparison(columns)
    md += _audit(columns, flagged)
    md += _ladder(columns)
    summary = {
        "columns": [{
            "label": c.label, "run": str(c.run), "system": c.system,
            "benchmark": _benchmark_named(c),
            "steps": steps_mode(c.meta),
            "overall": accuracy(c.lines.values()).as_dict(),
            "unanswered": missing(c)[1],
            "by_task": {t: accuracy(_subset(c, by_task, (t,))).as_dict()
                        for (t,) in _groups([c], by_task)},
            "by_task_level": {f"{t}/{lv}": accuracy(
                _subset(c, by_task_level, (t, lv))).as_dict()
                for t, lv in _groups([c], by_task_level)},
            "median_seconds_by_task": {t: median_seconds(_subset(c, by_task, (t,)))
                                       for (t,) in _groups([c], by_task)},
        } for c in columns],
        "shortcuts": {t: [name for name, _ in hs] for t, hs in flagged.items()},
        "below_chance": {t: [name for name, _ in hs]
                         for t, hs in audit_verdicts(columns, above=False).items()},
    }
    return "\n".join(md), summary


def plot(columns: list[Column], out: Path) -> list[Path]:
    """Bars per task and accuracy-vs-level lines, with Wilson intervals; returns the PNGs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [c for c in columns if not c.is_audit] or columns
    tasks = [t for (t,) in _groups(shown, by_task)]
    width = 0.8 / len(shown)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(tasks) * max(1, len(shown)) ** 0.5), 4))
    for j, c in enumerate(shown):
        accs = [accuracy(_subset(c, by_task, (t,))) for t in tasks]
        xs = [i + (j - (len(shown) - 1) / 2) * width for i in range(len(tasks))]
        vals = [100 * a.value for a in accs]
        ax.bar(xs, vals, width, yerr=_error_bars(accs), capsize=3, label=c.label)
    chance = {_chance(c) for c in shown}
    line = chance.pop() if len(chance) == 1 else None  # the guessers' level, if one for all
    if line is not None:
        ax.axhline(100 * line, color="grey", linestyle="--", linewidth=1, label="chance")
    ax.set_xticks(range(len(tasks)), tasks, rotation=20, ha="right")
    ax.set_ylabel("accuracy % (95% Wilson CI)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    fig.tight_layout()
    bars_png = out / "accuracy_by_task.png"
    fig.savefig(bars_png, dpi=120)
    plt.close(fig)

    ncols = min(3, len(tasks))
    nrows = -(-len(tasks) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.2 * nrows), squeeze=False)
    for ax, task in zip(axes.flat, tasks, strict=False):
        seen: set[int] = set()
        for j, c in enumerate(shown):
            levels = [lv for t, lv in _groups([c], by_task_level) if t == task]
            accs = [accuracy(_subset(c, by_task_level, (task, lv))) for lv in levels]
            seen.update(level_key(lv) for lv in levels)
            dodge = (j - (len(shown) - 1) / 2) * 0.06
            ax.errorbar([level_key(lv) + dodge for lv in levels], [100 * a.value for a in accs],
                        yerr=_error_bars(accs), marker="o", capsize=3, label=c.label,
                        color=f"C{j}")
        if line is not None:
            ax.axhline(100 * line, color="grey", linestyle="--", linewidth=1)
        ax.set_title(task)
        ax.set_xlabel("level")
        ax.set_xticks(sorted(seen))
        ax.set_xlim(min(seen) - 0.5, max(seen) + 0.5)
        ax.set_ylim(0, 100)
    for ax in list(axes.flat)[len(tasks):]:
        ax.axis("off")
    axes.flat[0].set_ylabel("accuracy % (95% Wilson CI)")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncols=min(4, len(labels)), fontsize=8)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    levels_png = out / "accuracy_by_level.png"
    fig.savefig(levels_png, dpi=120)
    plt.close(fig)
    return [bars_png, levels_png]


def write(paths: list[Path], out: Path,
          benchmarks: Iterable[Path] = ()) -> tuple[Path, str]:
    """Write report.md, summary.json and the plots of the runs at ``paths`` (scored against
    ``benchmarks`` where they name one, see :func:`load_columns`) into ``out``."""
    check_apart(out, [*paths, *benchmarks], default_inside=DEFAULT_DIR)
    columns = load_columns(paths, benchmarks)
    md, summary = build(columns)
    out.mkdir(parents=True, exist_ok=True)
    pngs = plot(columns, out)
    md += "\n" + "\n".join(f"![{p.stem}]({p.name})" for p in pngs) + "\n"
    (out / "report.md").write_text(md)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return out / "report.md", md


def _error_bars(accs: list[Any]) -> list[list[float]]:
    """Matplotlib's (below, above) error bars in percent; a Wilson bound can sit a rounding
    error on the wrong side of 0% or 100%, which matplotlib refuses."""
    return [[max(0.0, 100 * (a.value - a.ci[0])) for a in accs],
            [max(0.0, 100 * (a.ci[1] - a.value)) for a in accs]]
