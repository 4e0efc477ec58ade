"""Leak-free train / val / test splits.

A split draws its items from its own seed stream (:func:`split_seed`) and keeps only scenes
whose scene hash (spatialcad/derived.py: the scene up to what its question ignores) falls
in the split's share of the hash space (:func:`split_of`): 15% test, 5% val, 80% train.
No scene can be in two splits, however many items each has, and a candidate from another
split's share is simply replaced by the next attempt.  For engineering parts the scene is
the part (its SHA-256), so the test split has its own held-out parts.
"""

from __future__ import annotations

from spatialcad.seeding import derive_seed

SPLITS = ("train", "val", "test")
SHARES = {"test": 0.15, "val": 0.05}  # of the hash space; train has the rest


def split_of(scene_hash: str) -> str:
    """The split a scene belongs to."""
    h = int(scene_hash[:8], 16) / 2**32
    if h < SHARES["test"]:
        return "test"
    return "val" if h < SHARES["test"] + SHARES["val"] else "train"


def split_seed(seed: int, split: str) -> int:
    """The base seed of ``split``'s stream (disjoint from the others and from no split)."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose from {', '.join(SPLITS)}")
    return derive_seed(seed, "split", split)
