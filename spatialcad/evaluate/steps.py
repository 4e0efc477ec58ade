"""Evaluation with visual simulation (``eval --steps``, after STARE): showing the model an
item's step-by-step solution (``generate --with-steps``, spatialcad/steps.py), and
comparing accuracy with and without steps in ``report``.

Settings: ``none`` (the item alone), ``text`` (the step lines appended to the prompt),
``images`` (every step picture sent after the item's image, in order, with its line) and
``partial`` (as ``images`` without the last step, the answer itself).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spatialcad.evaluate import stats
from spatialcad.evaluate.markdown import md_text

MODES = ("none", "text", "images", "partial")
Record = dict[str, Any]


def shown_steps(record: Record, mode: str) -> list[dict[str, Any]]:
    """The steps of ``record`` that ``mode`` shows."""
    if mode not in MODES:
        raise ValueError(f"unknown --steps {mode!r}; choose from {', '.join(MODES)}")
    steps = list(record.get("steps") or []) if mode != "none" else []
    return steps[:-1] if mode == "partial" else steps


@dataclass
class StepView:
    """What a model is shown of the steps under one setting (:data:`MODES`)."""

    mode: str
    step_pngs: Callable[[Record], list[bytes]]  # a record's step pictures, in order

    def apply(self, record: Record, prompt: str) -> tuple[str, list[bytes]]:
        """The prompt with the shown steps' lines, and the step pictures to send after the
        item's image."""
        steps = shown_steps(record, self.mode)
        if not steps:
            return prompt, []
        where = ("" if self.mode == "text" else
                 " (each shown in one more image, after the item's image, in this order)")
        lines = "\n".join(f"{k}. {s['text']}" for k, s in enumerate(steps, 1))
        prompt = f"{prompt}\nIntermediate steps{where}:\n{lines}\n"
        images = [] if self.mode == "text" else self.step_pngs(record)[:len(steps)]
        return prompt, images


def has_steps(record: Record) -> bool:
    return bool(record.get("steps"))


def mode_of(meta: dict[str, Any]) -> str:
    """The steps setting of a run (its run.json): ``none`` when it names none."""
    return str(meta.get("identity", {}).get("steps") or "none")


def comparison(columns: list[Any]) -> list[str]:
    """Markdown: per task, each run with steps against the first run of the same system
    and benchmark without (paired items, McNemar's exact test); empty if there is none."""
    rows = []
    for other in columns:
        if mode_of(other.meta) == "none":
            continue
        base = next((c for c in columns if mode_of(c.meta) == "none"
                     and c.system == other.system and c.benchmark
                     and c.benchmark == other.benchmark), None)
        if base is None:
            continue
        for task in sorted({x["task"] for x in other.lines.values()}):
            def pick(c: Any, task: str = task) -> dict[str, bool]:
                return {i: bool(x.get("correct")) for i, x in c.lines.items()
                        if x["task"] == task}
            pair = stats.paired(pick(base), pick(other))
            if not pair.n:
                continue
            star = "*" if pair.p < 0.05 else ""
            rows.append(f"| {md_text(task)} | {md_text(base.label)} | "
                        f"{md_text(other.label)} | {mode_of(other.meta)} | "
                        f"{100 * pair.first / pair.n:.1f} | {100 * pair.second / pair.n:.1f} | "
                        f"{100 * pair.delta:+.1f} | {pair.n} | b={pair.b}, c={pair.c} | "
                        f"{pair.p:.4f}{star} |")
    if not rows:
        return []
    return ["## With and without steps", "",
            "Accuracy % on the items both runs answered (paired): without steps, with the "
            "steps setting of the second run; McNemar's exact test (b = only without "
            "right, c = only with right). * marks p < 0.05.", "",
            "| task | without steps | with steps | steps | without % | with % | Δ | n | "
            "discordant | p |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |", *rows, ""]


def prepare(bench: Any, records: list[Record], answerer: Any, mode: str) -> list[Record]:
    """The items of checked benchmark ``bench`` that ``eval --steps mode`` scores (those
    with steps), with ``answerer`` set to show them; ``ValueError`` (one line) for a
    benchmark made without steps."""
    if not bench.with_steps:
        raise ValueError(f"{bench.root} was generated without --with-steps: it has no steps "
                         f"to show (--steps {mode}); regenerate it with --with-steps")
    chosen = [r for r in records if has_steps(r)]
    if not chosen:
        raise ValueError(f"{bench.root} has no items with steps")
    answerer.steps = StepView(mode, bench.step_pngs)
    return chosen
