"""What a record's spec decides besides the answer: its texts, its yes/no (judge) questions
and its scene hash.  The pipeline writes them into each record; the verification re-derives
them from the stored spec and fails a record that differs."""

from __future__ import annotations

import hashlib
from typing import Any

from spatialcad.record.spec import Texts
from spatialcad.tasks.registry import TaskInfo


def spoken_texts(task: TaskInfo, spec: dict[str, Any], data: list[dict[str, Any]]) -> Texts:
    """The texts the task's spec module gives for a spec and its options' data (in order)."""
    mod = task.module("spec")
    texts: Texts = mod.texts(mod.parse_spec(spec), [mod.parse_option(d) for d in data])
    return texts


def judge_entries(said: Texts, is_answer: list[bool]) -> list[dict[str, str] | None]:
    """Per option, its yes/no question and answer (None where an option means nothing alone)."""
    return [None if q is None else {"question": q, "answer": said.judge_answer(a)}
            for q, a in zip(said.judge, is_answer, strict=True)]


def scene_hash(task: TaskInfo, spec: dict[str, Any]) -> str:
    """The hash of the item's scene up to what its question ignores (the task's
    ``spec.scene_key``): items of one scene have one hash, whatever else differs."""
    mod = task.module("spec")
    return key_hash(task.name, mod.scene_key(mod.parse_spec(spec)))


def key_hash(task_name: str, scene_key: str) -> str:
    """The scene hash of a task's scene key (what :func:`scene_hash` gives)."""
    return hashlib.sha256(f"{task_name}\x1f{scene_key}".encode()).hexdigest()[:16]
