"""Stable seed derivation: item seed = hash(base seed, task, level, index, attempt)."""

from __future__ import annotations

import hashlib

import numpy as np


def derive_seed(*parts: object) -> int:
    """A 63-bit seed that depends only on ``parts`` (stable across runs and machines)."""
    text = "\x1f".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def item_rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)
