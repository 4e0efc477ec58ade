"""Stable seed derivation: item seed = hash(base seed, task, level, index, attempt)."""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np


def derive_seed(*parts: object) -> int:
    """A 63-bit seed that depends only on ``parts`` (stable across runs and machines)."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def item_rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


@lru_cache(maxsize=64)
def scene_order(seed: int, count: int, *key: object) -> tuple[int, ...]:
    """A permutation of ``range(count)`` drawn from ``seed`` and ``key``: the order in which
    a run's items take a level's listed scenes (spatialcad/tasks/base.py ``ItemSlot.pick``)."""
    order = item_rng(derive_seed(seed, "scene order", count, *key)).permutation(count)
    return tuple(int(k) for k in order)
