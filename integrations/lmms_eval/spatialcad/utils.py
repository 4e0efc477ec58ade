"""lmms-eval glue for a spatialcad benchmark exported with ``--format hf``.

The prompt is spatialcad's own (``spatialcad.evaluate.prompts``) and a reply is scored
with spatialcad's answer extraction (``spatialcad.evaluate.extract``, Rule B), so lmms-eval
and ``spatialcad eval`` score the same reply the same way.  The aggregation returns the
overall share right (0-1) and writes the accuracy per category, task, level,
category/level and task/level through lmms-eval's own logger (loguru, shown at its default
``--verbosity INFO``; stdlib ``logging`` is never shown by lmms-eval).  Needs
``spatialcad`` installed beside lmms-eval.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from loguru import logger as eval_logger  # lmms-eval's logger (a dependency of lmms-eval)

from spatialcad.evaluate.extract import extract_choice
from spatialcad.evaluate.prompts import build_prompt
from spatialcad.panels import listing

METRIC = "spatialcad_accuracy"  # the metric name in spatialcad.yaml
GROUPS = ("category", "task", "level", "category/level", "task/level")


def spatialcad_doc_to_visual(doc: dict[str, Any]) -> list[Any]:
    """The item's composite picture, as lmms-eval wants it: a list of RGB PIL images."""
    return [doc["image"].convert("RGB")]


def spatialcad_doc_to_panels(doc: dict[str, Any]) -> list[Any]:
    """The item's panels (an export made with ``--images panels``), each its own RGB PIL
    image, in the order of ``panel_captions``."""
    return [panel.convert("RGB") for panel in doc["panels"]]


def spatialcad_doc_to_text(doc: dict[str, Any],
                           lmms_eval_specific_kwargs: dict[str, Any] | None = None) -> str:
    """The question and its four options A-D, in the answering style ``prompt_style``; with
    ``images: panels``, the question starts with a line naming the panels in order (lmms-eval
    sends every image before the text)."""
    kwargs = lmms_eval_specific_kwargs or {}
    question = doc["question"]
    if kwargs.get("images") == "panels":
        question = listing(doc["panel_captions"]) + "\n" + question
    return build_prompt({"Question": question, "Choices": doc["choices"]},
                        kwargs.get("prompt_style", "cot_tags"))


def spatialcad_process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """The letter read from the model's reply and whether it is the answer, with the item's
    category, task and level for the aggregation."""
    got = extract_choice(results[0] if results else "", list(doc["choices"]))
    return {METRIC: {"id": doc["id"], "category": doc["category"], "task": doc["task"],
                     "level": doc["level"], "answer": doc["answer"], "extracted": got.value,
                     "rule": got.rule, "correct": got.value == doc["answer"]}}


def _keys(item: dict[str, Any]) -> dict[str, str]:
    return {"category": item["category"], "task": item["task"], "level": item["level"],
            "category/level": f"{item['category']}/{item['level']}",
            "task/level": f"{item['task']}/{item['level']}"}


def accuracy_table(items: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, float]]]:
    """``{"overall": {"all": row}, group: {value: row}}`` with rows ``{"n", "correct",
    "accuracy"}`` for every group of :data:`GROUPS`."""
    counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for item in items:
        for group, value in [("overall", "all"), *_keys(item).items()]:
            counts[group][value][0] += 1
            counts[group][value][1] += bool(item["correct"])
    return {group: {value: {"n": n, "correct": k, "accuracy": k / n}
                    for value, (n, k) in sorted(values.items())}
            for group, values in counts.items()}


def spatialcad_aggregate_results(items: list[dict[str, Any]]) -> float:
    """Overall accuracy (0-1); the per-category, task and level table goes to lmms-eval's
    log."""
    table = accuracy_table(items)
    lines = [f"{group:<15} {value:<40} {100 * row['accuracy']:5.1f}% of {row['n']}"
             for group in GROUPS for value, row in table[group].items()]
    eval_logger.info("spatialcad accuracy by group:\n" + "\n".join(lines))
    return table["overall"]["all"]["accuracy"]
