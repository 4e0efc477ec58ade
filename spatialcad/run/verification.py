"""Proving an item: the checks every record gets, then its task's own verifier.

:func:`run_verifier` finds the task by the record's ``Task`` (spatialcad/tasks/registry.py)
and checks, before the task's ``verify(record, image)``:

- the image holds at most ``layout.MAX_PIXELS`` pixels (no model's front end shrinks it
  below the legibility rules proved at its size) and is the size its ``layout`` says;
- exactly one option is the answer and ``Answer`` names it;
- the texts the spec decides are the record's: ``Question``, ``Question_direct``,
  ``Answer_direct``, the ``Choices`` (``Image A`` .. ``Image D`` for picture options) and
  the yes/no ``judge`` questions with their answers, re-derived by the task's
  ``spec.texts`` from the spec and the options' data alone, so an edited question
  ("minimum" turned into "maximum") or answer fails; and ``scene_hash`` is the hash of the
  task's ``spec.scene_key``.  The verifier proves
  the spec's facts that the texts state (e.g. the bounds behind ``Answer_direct``).

A verifier that crashes fails the item, not the run.

:func:`check_steps` proves a record's step-by-step solution (``generate --with-steps``,
spatialcad/steps.py): the states chain from the reference to the answer by the task
verifier's own simulation, the texts are those the task derives, and each picture is its
state drawn.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from spatialcad import steps as solutions
from spatialcad.derived import judge_entries, scene_hash
from spatialcad.record.records import LETTERS
from spatialcad.record.spec import SpecError
from spatialcad.render.layout import too_large
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


def check_size(record: dict[str, Any], image: np.ndarray) -> list[str]:
    """Where the image breaks the pixel limit or differs from its record's layout size."""
    h, w = image.shape[:2]
    failures = [why] if (why := too_large(w, h)) is not None else []
    layout = record.get("layout") or {}
    if (layout.get("width"), layout.get("height")) != (w, h):
        failures.append(f"the image is {w} x {h}, its layout says "
                        f"{layout.get('width')} x {layout.get('height')}")
    return failures


def run_verifier(record: dict[str, Any], image: np.ndarray) -> list[str]:
    """Failures of ``record`` (empty when its answer and every distractor are proved)."""
    task = registry.by_record_task(record.get("Task"))
    if task is None:
        return [f"no verifier for task {record.get('Task')!r}"]
    failures: list[str] = []
    try:
        failures += check_size(record, image)
        failures += check_answer_letter(record)
        failures += check_texts(task, record)
        failures += task.verifier()(record, image)
    except Exception as exc:  # a crash is a failure of the item, not of the run
        failures.append(f"verifier crashed: {type(exc).__name__}: {exc}")
    return failures


def _canonical(state: Any) -> str:
    return json.dumps(state, sort_keys=True)


def _chain(task: registry.TaskInfo, record: dict[str, Any], states: list[Any]) -> list[str]:
    """Where ``states`` differ from the verifier's own chain from the reference, one
    operation at a time, to the answer: its ``step_start`` / ``step_next`` / ``step_goal``
    in its own representation (its ``step_read`` makes a record's state one, default: the
    JSON itself), compared by its ``step_key`` (default: the canonical JSON)."""
    check = task.module("verify")
    read = getattr(check, "step_read", lambda spec, state: state)
    key = getattr(check, "step_key", _canonical)
    spec, answer = solutions.parsed(task, record)
    state = check.step_start(spec, answer)
    for k, shown in enumerate(states):
        state = check.step_next(spec, answer, state, k)
        if state is None:
            return [f"step {k + 1} has no operation left to make"]
        if key(state) != key(read(spec, shown)):
            return [f"step {k + 1} is not the state its operation leads to"]
    failures = []
    if check.step_next(spec, answer, state, len(states)) is not None:
        failures.append(f"the steps stop after {len(states)} operations, before the last")
    if key(state) != key(check.step_goal(spec, answer)):
        failures.append("the last step is not the answer")
    return failures


def check_steps(record: dict[str, Any], images: Sequence[np.ndarray] | None) -> list[str]:
    """Failures of ``record``'s ``steps`` (with ``images``, the step pictures in order, also
    that each is its state drawn)."""
    task = registry.by_record_task(record.get("Task"))
    if task is None or not task.has_steps:
        return [f"its task {record.get('Task')!r} has no step-by-step solutions"]
    try:
        entries = record["steps"]
        states = [e["state"] for e in entries]
        failures = _chain(task, record, states)
        want = [s.text for s in solutions.solution(task, record)]
        if [e["text"] for e in entries] != want:
            failures.append("its step texts are not those its steps give")
        if images is not None:
            if len(images) != len(states):
                return failures + ["it has not one picture per step"]
            drawn = solutions.pictures(task, record, states)
            failures += [f"step {k} picture is not the drawing of its state"
                         for k, (a, b) in enumerate(zip(images, drawn, strict=True), 1)
                         if a.shape != b.shape or not np.array_equal(a, b)]
    except Exception as exc:  # a malformed entry fails the item, not the run
        failures = [f"steps check crashed: {type(exc).__name__}: {exc}"]
    return failures
