"""The audit's picture measure and the rank-balanced choice of option sets."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from spatialcad.render.thumbnails import (
    answer_ranks,
    balanced_set,
    distances,
    nearest_distance,
    rank_possible,
    thumbnail,
)


def test_balanced_set_picks_exactly_the_sets_with_the_target_ranks():
    """Against brute force: every set returned gives the answer the target ranks, and a
    target that some set reaches is always met."""
    rng = np.random.default_rng(0)
    for _ in range(6):
        images = [rng.integers(0, 255, (40, 50, 3), dtype=np.uint8) for _ in range(9)]
        refs, answer, pool = images[:2], images[2], images[3:]
        dist = distances([thumbnail(i) for i in images])
        for target in [(a, b) for a in range(4) for b in range(4)]:
            fitting = {c for c in combinations(range(len(pool)), 3)
                       if answer_ranks(dist, [0, 1], [2, *(3 + i for i in c)]) == target}
            got = {balanced_set(answer, refs, pool, target, np.random.default_rng(s))
                   for s in range(12)}
            assert got == {None} if not fitting else got <= fitting


def test_balanced_set_respects_accept():
    rng = np.random.default_rng(1)
    images = [rng.integers(0, 255, (30, 30, 3), dtype=np.uint8) for _ in range(10)]
    seen = {balanced_set(images[1], images[:1], images[2:], t, np.random.default_rng(s),
                         accept=lambda picked: 0 not in picked)
            for t in [(a, b) for a in range(4) for b in range(4)] for s in range(3)}
    assert all(p is None or 0 not in p for p in seen) and len(seen) > 5


def test_the_first_rank_is_refused_early_only_where_answer_ranks_differs():
    """nearest_distance gives the very numbers answer_ranks takes from distances, and
    rank_possible refuses a rank, from any of the options known so far, only when the
    answer's first rank over all of them is another one or a near tie (options equal to
    the answer or to each other make ties)."""
    rng = np.random.default_rng(2)
    early = 0
    for trial in range(60):
        images = [rng.integers(0, 255, (24, 36, 3), dtype=np.uint8) for _ in range(7)]
        if trial % 3 == 0:
            images[4] = images[3].copy()  # an option drawn like the answer: a tie
        thumbs = [thumbnail(i) for i in images]
        k = int(rng.integers(1, 4))
        refs, shown = thumbs[:k], thumbs[k:k + 4]
        dist = distances([*refs, *shown])
        nearest = dist[k:k + 4, :k].min(axis=1)
        values = [nearest_distance(refs, t) for t in shown]
        assert values == nearest.tolist()
        ranks = answer_ranks(dist, range(k), range(k, k + 4))
        for rank in range(4):
            for known in range(4):
                if not rank_possible(values[0], values[1:1 + known], 3 - known, rank):
                    assert ranks is None or ranks[0] != rank
                    early += known < 3
            if rank_possible(values[0], values[1:], 0, rank):
                assert ranks is None or ranks[0] == rank
            else:
                assert ranks is None or ranks[0] != rank
    assert early > 100  # refused before every option was known
