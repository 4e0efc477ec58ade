"""Interval estimates and significance tests for accuracies."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054
CHANCE = 0.25  # four options


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k / n`` (``k`` may be fractional)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def chance_interval(n: int, p: float = CHANCE) -> tuple[float, float]:
    """Wilson interval of a guesser's expected score on ``n`` items."""
    return wilson(p * n, n)


def mcnemar(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value from the discordant pair counts ``b`` and ``c``."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1))
    return min(1.0, 2 * tail / 2**n)


def two_proportion(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test (unpaired samples)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / se
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass(frozen=True)
class Paired:
    """Two systems on the same items: ``b`` = only the first right, ``c`` = only the second."""

    n: int
    first: int
    second: int
    b: int
    c: int

    @property
    def delta(self) -> float:
        """Accuracy of the second minus the first."""
        return (self.second - self.first) / self.n if self.n else 0.0

    @property
    def p(self) -> float:
        return mcnemar(self.b, self.c)


def paired(first: dict[str, bool], second: dict[str, bool]) -> Paired:
    """Compare two ``item id -> correct`` maps on the items they share."""
    common = first.keys() & second.keys()
    b = sum(first[i] and not second[i] for i in common)
    c = sum(second[i] and not first[i] for i in common)
    return Paired(len(common), sum(first[i] for i in common), sum(second[i] for i in common), b, c)
