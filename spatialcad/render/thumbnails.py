"""Panels as the shortcut audit sees them: 32 px thumbnails and their pixel distances.

The audit (``spatialcad.evaluate.baselines``) answers items by picture similarity alone:
the option nearest to / farthest from the reference panels, the odd one out, the most
typical.  Generators use the same measure to choose option sets in which the answer's
similarity ranks are drawn at random, so that no such heuristic finds it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

import numpy as np
import numpy.typing as npt

from .opencv import cv2

THUMB = 32  # side of a thumbnail, pixels
TIE = 1e-4  # distances closer than this are a near tie (one grey level is ~1e-6)


def thumbnail(image: np.ndarray) -> np.ndarray:
    """``image`` shrunk to ``THUMB x THUMB`` (INTER_AREA), as float32 in 0..1."""
    small = cv2.resize(image, (THUMB, THUMB), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255.0


def distances(thumbs: Sequence[np.ndarray]) -> np.ndarray:
    """Mean absolute difference of every thumbnail to every other one (row by row, each
    pair once: |a - b| and |b - a| are the same numbers)."""
    stack = np.stack(thumbs)
    dist: npt.NDArray[np.float64] = np.zeros((len(stack), len(stack)))
    for i in range(len(stack) - 1):
        dist[i, i + 1:] = np.abs(stack[i] - stack[i + 1:]).mean(axis=(1, 2, 3),
                                                                  dtype=np.float64)
    return dist + dist.T


def answer_ranks(dist: np.ndarray, refs: Sequence[int], options: Sequence[int]
                 ) -> tuple[int, int] | None:
    """Ranks (0 = smallest) of the first option's distance to the nearest reference and of
    its summed distance to the other options, among the options (indices into ``dist``);
    None on a near tie."""
    to_ref = dist[np.ix_(list(options), list(refs))].min(axis=1)
    among = dist[np.ix_(list(options), list(options))].sum(axis=1)
    ranks = []
    for values in (to_ref, among):
        gaps = values[1:] - values[0]
        if np.any(np.abs(gaps) <= TIE):
            return None
        ranks.append(int(np.count_nonzero(gaps < 0)))
    return ranks[0], ranks[1]


def nearest_distance(references: Sequence[np.ndarray], thumb: np.ndarray) -> float:
    """The distance of ``thumb`` to the nearest of the ``references`` thumbnails: the number
    :func:`answer_ranks` takes from :func:`distances` for it (each pair's mean is a reduction
    of that pair's differences alone, wherever the pair sits in the stack)."""
    return float(np.abs(np.stack(references) - thumb).mean(axis=(1, 2, 3),
                                                          dtype=np.float64).min())


def rank_possible(answer: float, known: Sequence[float], unknown: int, rank: int) -> bool:
    """Whether the answer's value ``answer`` can still get the rank ``rank`` as
    :func:`answer_ranks` counts it (no other value within ``TIE`` of it, ``rank`` of them
    smaller) once ``unknown`` more values join the other options' ``known`` values: false
    only where every completion gives another rank or a near tie."""
    gaps = [value - answer for value in known]
    if any(abs(gap) <= TIE for gap in gaps):
        return False
    below = sum(gap < 0 for gap in gaps)
    return below <= rank <= below + unknown


def sets_with_ranks(dist: np.ndarray, refs: Sequence[int],
                    sets: np.ndarray | Sequence[Sequence[int]],
                    target: tuple[int, int]) -> np.ndarray:
    """``answer_ranks(dist, refs, options) == target`` for every row ``options`` of
    ``sets`` (S, K) at once: the same numbers (each option's nearest reference, its row of
    distances among the set's options summed in the same order) and the same tie test."""
    opts = np.asarray(sets, dtype=np.intp)
    if opts.size == 0:
        return np.zeros(len(opts), dtype=bool)
    to_ref = dist[opts[:, :, None], np.asarray(list(refs), dtype=np.intp)].min(axis=2)
    among = dist[opts[:, :, None], opts[:, None, :]].sum(axis=2)
    fits = np.ones(len(opts), dtype=bool)
    for values, rank in ((to_ref, target[0]), (among, target[1])):
        gaps = values[:, 1:] - values[:, :1]
        fits &= (np.abs(gaps) > TIE).all(axis=1) & ((gaps < 0).sum(axis=1) == rank)
    return fits


def random_target(rng: np.random.Generator) -> tuple[int, int]:
    """Uniform target ranks for :func:`balanced_set` (draw once per item, before the scene,
    and keep them when the scene is redrawn, so that shipped ranks stay uniform)."""
    return int(rng.integers(4)), int(rng.integers(4))


def balanced_set(answer: np.ndarray, references: Sequence[np.ndarray],
                 pool: Sequence[np.ndarray], target: tuple[int, int], rng: np.random.Generator,
                 accept: Callable[[tuple[int, ...]], bool] | None = None
                 ) -> tuple[int, ...] | None:
    """Three pool indices, drawn uniformly among the sets that give the answer image the
    ``target`` ranks (see :func:`answer_ranks`) beside the reference images and pass
    ``accept``; None when no set does."""
    thumbs = [thumbnail(i) for i in (*references, answer, *pool)]
    dist = distances(thumbs)
    first = len(references)
    sets = np.array(list(combinations(range(len(pool)), 3)), dtype=np.int64).reshape(-1, 3)
    # row first is the answer, row first + 1 + i pool item i
    options = np.concatenate([np.full((len(sets), 1), first), sets + first + 1], axis=1)
    fits = sets_with_ranks(dist, range(first), options, target)
    candidates = sets[fits]
    for k in rng.permutation(len(candidates)):
        picked = tuple(int(i) for i in candidates[int(k)])
        if accept is None or accept(picked):
            return picked
    return None
