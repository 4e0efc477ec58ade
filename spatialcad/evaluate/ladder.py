"""The Inf-Bench ladder on freshly generated items.

A climb starts at level 1 with five new items per visit of a level.  Three or more
correct answers climb one level; fewer descend one level and count a failure of the
level left.  The climb stops when a level has failed twice (the final level is the one
descended to), when it falls to level 0, or when the top level is passed.  The score is
the mean final level over R climbs.  Item ``k`` of visit ``v`` of level ``L`` in climb
``r`` is ``make_item(task, L, v * per_level + k, ...)`` with a seed derived from
``(seed, r)``: climbs are reproducible, and a resumed ladder replays from its log.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from spatialcad.evaluate.runner import Line, Record, ResultLog, Work, item_id, run_items
from spatialcad.run.pipeline import make_item
from spatialcad.seeding import derive_seed
from spatialcad.tasks import registry

PER_LEVEL = 5
PASS_AT = 3
MAX_FAILURES = 2
INDEX_SPACE = 10**6  # only sets the width of the generated Image_id


@dataclass
class Climb:
    final_level: int
    stop: str
    steps: list[dict[str, int]] = field(default_factory=list)


def climb(play: Callable[[int, int], int], *, start: int = 1, top: int = 20,
          pass_at: int = PASS_AT, max_failures: int = MAX_FAILURES) -> Climb:
    """Run one climb; ``play(level, visit)`` returns the number of correct answers."""
    level = start
    failures: Counter[int] = Counter()
    visits: Counter[int] = Counter()
    steps: list[dict[str, int]] = []
    floor = start - 1
    while True:
        correct = play(level, visits[level])
        steps.append({"level": level, "visit": visits[level], "correct": correct})
        visits[level] += 1
        if correct >= pass_at:
            if level >= top:
                return Climb(top, f"passed the top level {top}", steps)
            level += 1
            continue
        failures[level] += 1
        if failures[level] >= max_failures:
            return Climb(level - 1, f"failed level {level} {max_failures} times", steps)
        level -= 1
        if level <= floor:
            return Climb(floor, f"fell to level {floor}", steps)


def new_item(task: str, seed: int, run: int, level: int, visit: int, k: int,
             per_level: int = PER_LEVEL) -> tuple[Record, bytes]:
    """Item ``k`` of visit ``visit`` of ``level`` in climb ``run``: (record, PNG)."""
    result = make_item(task, level, visit * per_level + k, INDEX_SPACE,
                       derive_seed(seed, "ladder", run))
    result.record["Image_id"] = f"r{run:03d}-v{visit}-{k}"
    return result.record, result.png


@dataclass
class Ladder:
    """The ladder of one task, answered by ``work``, logged to ``log``.

    ``done`` maps item ids to their logged lines: items found there are not generated or
    asked again.  An item the endpoint rejected (:class:`ItemError`) counts as wrong.
    """

    task: str
    work: Work
    log: ResultLog
    done: dict[str, Line]
    seed: int = 0
    per_level: int = PER_LEVEL
    concurrency: int = 1

    def _id(self, run: int, level: int, visit: int, k: int) -> str:
        cls = registry.task(self.task)
        return f"{cls.category}/{cls.record_task}/Level{level}/r{run:03d}-v{visit}-{k}"

    def play(self, run: int, level: int, visit: int) -> int:
        """Answer the items of one visit of ``level``; return how many were right."""
        ids = [self._id(run, level, visit, k) for k in range(self.per_level)]
        todo, pngs = [], {}
        for k, ident in enumerate(ids):
            if ident not in self.done:
                record, png = new_item(self.task, self.seed, run, level, visit, k,
                                       self.per_level)
                todo.append(record)
                pngs[ident] = png

        def tagged(record: Record, png: bytes) -> list[Line]:
            lines = self.work(record, png)
            for line in lines:
                line["ladder"] = {"run": run, "level": level, "visit": visit}
                self.done[line["id"]] = line
            return lines

        run_items(todo, lambda r: pngs[item_id(r)], tagged, self.log, self.concurrency,
                  desc=f"ladder run {run} level {level}")
        return sum(bool(self.done.get(i, {}).get("correct")) for i in ids)

    def climbs(self, runs: int, *, start: int, top: int) -> list[Climb]:
        return [climb(partial(self.play, r), start=start, top=top) for r in range(runs)]


def summarize(task: str, seed: int, climbs: list[Climb], lines: list[Line]) -> dict[str, Any]:
    finals = [c.final_level for c in climbs]
    per_level: dict[str, dict[str, int]] = {}
    for line in lines:
        cell = per_level.setdefault(line["level"], {"correct": 0, "n": 0})
        cell["correct"] += bool(line.get("correct"))
        cell["n"] += 1
    return {
        "task": task,
        "seed": seed,
        "runs": [{"run": i, **asdict(c)} for i, c in enumerate(climbs)],
        "mean_final_level": statistics.fmean(finals) if finals else 0.0,
        "sd_final_level": statistics.stdev(finals) if len(finals) > 1 else 0.0,
        "per_level": per_level,
    }


def write_summary(out: Path, summary: dict[str, Any]) -> None:
    (out / "ladder.json").write_text(json.dumps(summary, indent=1) + "\n")
