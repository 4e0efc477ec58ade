"""MechanicalSystem's "how many turns" items (levels >= 1): while the driver makes ``n``
turns, how many turns does a part on another axle make?  The answer is ``n`` times the
part's speed ratio, an exact fraction of the tooth counts and pulley radii the question
states.  The wrong options are the usual slips (the ratio turned upside down, the
driver's count kept, one turn of the driver only), topped up with the answer halved,
doubled...; how many of them lie below the answer is drawn uniformly (0 to 3), so the
answer is the smallest, largest or a middle option equally often."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from spatialcad.geometry.mechanisms import Part
from spatialcad.tasks.mechanical_system.spec import OptionData

DRIVER_TURNS = (2, 3, 4, 5, 6)
MAX_DENOMINATOR = 24  # an answer is a fraction a reader can work out from the sizes
SCALES = (Fraction(2), Fraction(3), Fraction(4))


def driver_turns(rng: np.random.Generator) -> int:
    return DRIVER_TURNS[int(rng.integers(len(DRIVER_TURNS)))]


def asked_part(parts: list[Part], speeds: dict[str, Fraction], n: int,
               rng: np.random.Generator) -> Part | None:
    """A turning part off the driver's axle whose speed differs from the driver's in
    size and whose turns are a simple fraction; None if there is none."""
    driver = parts[0]
    pool = [q for q in parts[1:] if q.turns and q.shaft != driver.shaft and
            abs(speeds[q.name]) != 1 and (n * abs(speeds[q.name])).denominator <=
            MAX_DENOMINATOR]
    return pool[int(rng.integers(len(pool)))] if pool else None


def options(ratio: Fraction, n: int, rng: np.random.Generator,
            more: Sequence[tuple[Fraction, str]] = ()) -> tuple[list[OptionData], list[str]]:
    """The answer ``n * ratio`` first, then three wrong numbers of turns, and each one's
    operator (``ratio``: the asked part's speed over the driver's, positive; ``more``:
    slips of this kind of mechanism, tried first)."""
    right = n * ratio
    slips = [*more, (n / ratio, "ratio_inverted"), (Fraction(n), "driver_turns_kept"),
             (ratio, "one_driver_turn")]
    below = [s for s in slips if s[0] < right] + [(right / k, "scaled_down") for k in SCALES]
    above = [s for s in slips if s[0] > right] + [(right * k, "scaled_up") for k in SCALES]
    lower = int(rng.integers(4))
    picked: list[tuple[Fraction, str]] = []
    for side, count in ((below, lower), (above, 3 - lower)):
        taken = len(picked)
        for value, op in side:
            if len(picked) < taken + count and value not in {v for v, _ in picked}:
                picked.append((value, op))
    return ([OptionData(turns=str(right))] + [OptionData(turns=str(v)) for v, _ in picked],
            ["exact_turns"] + [op for _, op in picked])
