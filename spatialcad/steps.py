"""Step-by-step solutions (``generate --with-steps``): per item, the intermediate states
from the reference to the answer, one line of text and one picture each.

A task shows steps when it has a ``steps.py`` (:attr:`TaskInfo.has_steps`) with
``steps(spec, answer) -> list[Step]`` (:class:`spatialcad.tasks.base.Step`: the text and
the JSON-able state after the step) and ``picture(spec, answer, state)``, the state drawn
with the renderer of the item's own panels.  Its ``verify.py`` replays the chain with its
own simulation (``step_start``, ``step_next``, ``step_goal``; checked by
:func:`spatialcad.run.verification.check_steps`).  Each record then holds ``steps``: a list of
``{"text", "image", "state"}``, the image at ``<Category>/<Task>/<Level>/<Image_id>-step<k>.png``
(k from 1, :func:`spatialcad.record.records.step_image`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.record import records as rec
from spatialcad.tasks.base import Step
from spatialcad.tasks.registry import TaskInfo


def answer_option(record: dict[str, Any]) -> dict[str, Any]:
    """The record's answer option (the one whose letter is ``Answer``)."""
    found = [o for o in record["options"] if o["letter"] == record["Answer"]]
    if len(found) != 1:
        raise ValueError("the record has no single answer option")
    return found[0]


def parsed(task: TaskInfo, record: dict[str, Any]) -> tuple[Any, Any]:
    """The record's spec and answer option data, parsed by the task's spec module."""
    mod = task.module("spec")
    return mod.parse_spec(record["spec"]), mod.parse_option(answer_option(record)["data"])


def solution(task: TaskInfo, record: dict[str, Any]) -> list[Step]:
    """The task's steps from the record's reference to its answer."""
    spec, answer = parsed(task, record)
    return list(task.module("steps").steps(spec, answer))


def pictures(task: TaskInfo, record: dict[str, Any], states: list[Any]) -> list[np.ndarray]:
    """Each state drawn as the task draws the item's panels."""
    spec, answer = parsed(task, record)
    draw = task.module("steps").picture
    return [draw(spec, answer, s) for s in states]


def with_steps(task: TaskInfo, record: dict[str, Any]) -> tuple[dict[str, Any], list[np.ndarray]]:
    """``record`` with its ``steps`` entry and the steps' pictures, in order."""
    found = solution(task, record)
    entries = [{"text": s.text, "image": rec.step_image(record, k), "state": s.state}
               for k, s in enumerate(found, 1)]
    return {**record, "steps": entries}, pictures(task, record, [s.state for s in found])
