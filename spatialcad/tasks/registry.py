"""The one registry of tasks, filled by declaration.

A task is a package ``spatialcad/tasks/<name>/`` whose ``__init__.py`` calls
:func:`declare` with its :class:`TaskInfo`.  By convention the package holds ``spec.py``
(the typed scene spec and the question texts, see spatialcad/record/spec.py), ``generate.py``
(``class Generator``, see :class:`spatialcad.tasks.base.Generator`), ``verify.py``
(``verify(record, image) -> failures``, the independent proof) and ``scene.py``
(``build(scene, record)``, the item's FreeCAD scene for the macros); a simulation task may
add ``steps.py`` (its step-by-step solution, see spatialcad/steps.py).  The command line,
the pipeline, the verifier dispatch, the macros and the tests all read this registry, so
adding a task is adding a folder.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from spatialcad.tasks.base import Generator

CATEGORIES = ("MentalRotation", "MentalFolding", "VisualPenetration", "MentalAnimation")


@dataclass(frozen=True)
class TaskInfo:
    """What the rest of spatialcad knows of a task, and where its parts are."""

    name: str  # CLI name = package name, e.g. "cube_counting"
    record_task: str  # the records' "Task", e.g. "CubeCounting"
    category: str  # one of CATEGORIES
    order: int  # position in the catalogue (TASKS.md); `--task all` runs in this order
    package: str  # import path of the task's package
    min_level: int = 0
    max_level: int | None = None  # None: the levels go on
    practical_max_level: int | None = None  # beyond it one item may take minutes
    needs_freecad: bool = False
    open_form: str = ""  # which items carry an open form ("every item", ...); "" for none

    def has_level(self, level: int) -> bool:
        return level >= self.min_level and (self.max_level is None or level <= self.max_level)

    def levels_text(self) -> str:
        """E.g. "0-3" or "0, 1, 2, ... (practical up to 20)"."""
        if self.max_level is not None:
            return f"{self.min_level}-{self.max_level}"
        practical = (f" (practical up to {self.practical_max_level})"
                     if self.practical_max_level is not None else "")
        return f"{self.min_level}, {self.min_level + 1}, ...{practical}"

    def module(self, part: str) -> ModuleType:
        """The task's module ``part`` (``"spec"``, ``"generate"``, ``"verify"``, ``"scene"``)."""
        return importlib.import_module(f"{self.package}.{part}")

    def generator(self, options: Mapping[str, Any] | None = None,
                  split: str | None = None) -> Generator:
        """A generator of the task's items with run-wide ``options`` (e.g. ``deepcad_dir``),
        for ``split`` if one is being made."""
        return self.module("generate").Generator(options, split)

    def verifier(self) -> Callable[[dict[str, Any], np.ndarray], list[str]]:
        return self.module("verify").verify

    @property
    def has_steps(self) -> bool:
        """The task shows step-by-step solutions (it has a ``steps.py``)."""
        return importlib.util.find_spec(f"{self.package}.steps") is not None

    def scene_builder(self) -> Callable[[Any, dict[str, Any]], None]:
        return self.module("scene").build


_TASKS: dict[str, TaskInfo] = {}
_discovered = False


def declare(info: TaskInfo) -> TaskInfo:
    """Add ``info`` to the registry (a task package's ``__init__`` calls this)."""
    if info.category not in CATEGORIES:
        raise ValueError(f"task {info.name!r}: unknown category {info.category!r}")
    for other in _TASKS.values():
        if other.name != info.name and other.record_task == info.record_task:
            raise ValueError(f"tasks {other.name!r} and {info.name!r} both make "
                             f"{info.record_task!r} records")
    _TASKS[info.name] = info
    return info


def _discover() -> None:
    """Import every task package under spatialcad/tasks/ (each declares itself)."""
    global _discovered
    if _discovered:
        return
    import spatialcad.tasks as package

    for found in pkgutil.iter_modules(package.__path__):
        if found.ispkg:
            importlib.import_module(f"{package.__name__}.{found.name}")
    _discovered = True


def tasks() -> dict[str, TaskInfo]:
    """Every declared task, by name, in catalogue order."""
    _discover()
    return {t.name: t for t in sorted(_TASKS.values(), key=lambda t: (t.order, t.name))}


def task(name: str) -> TaskInfo:
    """The task called ``name``; ``KeyError`` naming the known tasks otherwise."""
    found = tasks().get(name)
    if found is None:
        raise KeyError(f"unknown task {name!r}; choose from: {', '.join(tasks())}")
    return found


def by_record_task(record_task: Any) -> TaskInfo | None:
    """The task whose records have ``Task == record_task``."""
    return next((t for t in tasks().values() if t.record_task == record_task), None)
