"""spatialcad: headless generator of spatial-visualization benchmark items with proved answers.

``spatialcad.create_dataset(...)`` is the Python API (:mod:`spatialcad.api`), imported on
first use so that ``import spatialcad`` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"
__all__ = ["create_dataset", "score_answer"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("spatialcad.api"), name)
    raise AttributeError(f"module 'spatialcad' has no attribute {name!r}")
