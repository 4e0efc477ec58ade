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


def scene_order(seed: int, count: int, *key: object, weights: np.ndarray | None = None
                ) -> tuple[int, ...]:
    """A permutation of ``range(count)`` drawn from ``seed`` and ``key``: the order in which
    a run's items take a level's listed scenes (spatialcad/tasks/base.py ``ItemSlot.pick``).
    Uniform, or with ``weights`` (one per scene, positive) a weighted draw without
    replacement: each next scene is drawn with odds proportional to its weight among those
    left (exponential clocks: scene k comes at time E_k / w_k), so a run's first items
    follow the weights as scenes drawn one at a time would, and none comes back before
    every scene has been taken."""
    data = None if weights is None else np.ascontiguousarray(weights, np.float64).tobytes()
    return _order(seed, count, key, data)


@lru_cache(maxsize=64)
def _order(seed: int, count: int, key: tuple[object, ...], weights: bytes | None
           ) -> tuple[int, ...]:
    rng = item_rng(derive_seed(seed, "scene order", count, *key))
    if weights is None:
        order = rng.permutation(count)
    else:  # IEEE divisions and a stable sort: the same order on every CPU
        order = np.argsort(rng.standard_exponential(count) / np.frombuffer(weights),
                           kind="stable")
    return tuple(int(k) for k in order)
