"""Proving an item: the checks every record gets, then its task's own verifier.

:func:`run_verifier` finds the task by the record's ``Task`` (spatialcad/tasks/registry.py)
and checks, before the task's ``verify(record, image)``:

- exactly one option is the answer and ``Answer`` names it;
- the texts the spec decides are the record's: ``Question``, ``Question_direct``,
  ``Answer_direct``, the ``Choices`` (``Image A`` .. ``Image D`` for picture options) and
  the yes/no ``judge`` questions with their answers, re-derived by the task's
  ``spec.texts`` from the spec and the options' data alone, so an edited question
  ("minimum" turned into "maximum") or answer fails; and ``scene_hash`` is the hash of the
  task's ``spec.scene_key``.  The verifier proves
  the spec's facts that the texts state (e.g. the bounds behind ``Answer_direct``).

A verifier that crashes fails the item, not the run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.derived import judge_entries, scene_hash
from spatialcad.records import LETTERS
from spatialcad.spec import SpecError
from spatialcad.tasks import registry
from spatialcad.verify.base import check_answer_letter

TEXT_FIELDS = (("Question", "question"), ("Question_direct", "question_direct"),
               ("Answer_direct", "answer_direct"))


def check_texts(task: registry.TaskInfo, record: dict[str, Any]) -> list[str]:
    """Where ``record``'s texts differ from those its spec decides."""
    mod = task.module("spec")
    try:
        spec = mod.parse_spec(record["spec"])
        options = [mod.parse_option(o["data"]) for o in record["options"]]
    except (SpecError, KeyError, TypeError) as exc:
        return [f"the record's spec or option data is malformed: {exc}"]
    want = mod.texts(spec, options)
    failures = [f"its {field} is not the text its spec gives"
                for field, attr in TEXT_FIELDS if record.get(field) != getattr(want, attr)]
    choices = want.choices if want.choices is not None else [f"Image {x}" for x in LETTERS]
    if record.get("Choices") != choices:
        failures.append(f"its Choices {record.get('Choices')} are not {choices}")
    if record.get("judge") != judge_entries(want, [o["is_answer"] for o in record["options"]]):
        failures.append("its judge questions or answers are not those its spec and answer give")
    if record.get("scene_hash") != scene_hash(task, record["spec"]):
        failures.append("its scene_hash is not the hash of its scene")
    return failures


def run_verifier(record: dict[str, Any], image: np.ndarray) -> list[str]:
    """Failures of ``record`` (empty when its answer and every distractor are proved)."""
    task = registry.by_record_task(record.get("Task"))
    if task is None:
        return [f"no verifier for task {record.get('Task')!r}"]
    failures: list[str] = []
    try:
        failures += check_answer_letter(record)
        failures += check_texts(task, record)
        failures += task.verifier()(record, image)
    except Exception as exc:  # a crash is a failure of the item, not of the run
        failures.append(f"verifier crashed: {type(exc).__name__}: {exc}")
    return failures
