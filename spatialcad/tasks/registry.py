"""Task registry: CLI name -> task class, in the catalogue's order."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from spatialcad.tasks.base import Task

# CLI name -> module under spatialcad.tasks; the order is the catalogue's (TASKS.md).
CATALOGUE: dict[str, str] = {
    "rotation_2d": "rotation_2d",
    "rotation_3d": "rotation_3d",
    "three_view": "three_view",
    "paper_folding": "paper_folding",
    "cube_unfolding": "cube_unfolding",
    "cube_reconstruction": "cube_reconstruction",
    "cross_section": "cross_section",
    "cube_counting": "cube_counting",
    "cube_assembly": "cube_assembly",
    "arrow_moving": "arrow_moving",
    "block_moving": "block_moving",
}

TASKS: dict[str, type[Task]] = {}


def register(cls: type[Task]) -> type[Task]:
    """Class decorator: make ``cls`` available to ``spatialcad generate``."""
    TASKS[cls.name] = cls
    return cls


def load_all() -> dict[str, type[Task]]:
    """Import every implemented task module and return the registry in catalogue order."""
    for module in CATALOGUE.values():
        try:
            importlib.import_module(f"spatialcad.tasks.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"spatialcad.tasks.{module}":
                raise
    return {name: TASKS[name] for name in CATALOGUE if name in TASKS}


def by_record_task(record_task: str) -> type[Task] | None:
    """The task whose records have ``Task == record_task``."""
    return next((t for t in load_all().values() if t.record_task == record_task), None)


def get(name: str, options: Mapping[str, Any] | None = None) -> Task:
    """An instance of task ``name`` with run-wide ``options`` (see :class:`Task`)."""
    tasks = load_all()
    if name not in tasks:
        raise KeyError(name)
    return tasks[name](options)
