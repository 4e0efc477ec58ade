"""Independent verifiers, one module per task, registered by record ``Task`` name."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from spatialcad.tasks.registry import CATALOGUE
from spatialcad.verify.base import VERIFIERS, check_answer_letter


def load_all() -> None:
    for module in CATALOGUE.values():
        try:
            importlib.import_module(f"spatialcad.verify.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"spatialcad.verify.{module}":
                raise


def run_verifier(record: dict[str, Any], image: np.ndarray) -> list[str]:
    """Failures of ``record`` (empty when its answer and every distractor are proved)."""
    load_all()
    fn = VERIFIERS.get(record.get("Task", ""))
    if fn is None:
        return [f"no verifier for task {record.get('Task')!r}"]
    failures = check_answer_letter(record)
    try:
        failures += fn(record, image)
    except Exception as exc:  # a crash is a failure of the item, not of the run
        failures.append(f"verifier crashed: {type(exc).__name__}: {exc}")
    return failures
