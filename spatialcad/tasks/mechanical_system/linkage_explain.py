"""Explanations of linkage and cam items, written from the facts of the motion (the
generator's exact formulas and the verifier's velocity solve each state them; the
texts agree only when the two do): why the asked part moves as it does, and for a wrong
option what it says instead."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from spatialcad.tasks.mechanical_system.spec import (
    STILL,
    OptionData,
    Spec,
    linkage_claim,
    named,
)

RIGHT, WRONG = "Right: ", "Wrong: "


@dataclass(frozen=True)
class Facts:
    """The asked part's motion word (or ``STILL``), and what settles it: a lever's
    travel, the crank pin's way along a slider's guide, a cam profile's radius change
    under the follower ("grows", "shrinks", "keeps"), whether a four-bar's crank turns
    all the way round."""

    word: str
    travel: Fraction | None = None
    pin_way: str | None = None
    profile: str | None = None
    full_turn: bool | None = None
    # a gear train driving the crank: each gear's name and sense, from the driver to the
    # gear the crank is fixed on
    train: tuple[tuple[str, str], ...] | None = None


def _reason(spec: Spec, f: Facts) -> str:
    driver, asked = spec.part(spec.driver), spec.part(spec.asked[0])
    turn = f"{named(driver)} turning {spec.driver_sense}"
    if spec.question == "travel":
        sides = ("opposite sides of it, so their ends move opposite ways" if
                 abs(driver.phase - asked.phase) > 1.0 else
                 "one side of it, so their ends move the same way")
        return (f"{named(driver)} and {named(asked)} turn as one about the pivot, on {sides}"
                f"; the end of {named(asked)} moves {f.word}, {spec.driver_travel} x "
                f"{asked.radius:g}/{driver.radius:g} = {f.travel} units (the arm lengths' "
                "ratio)")
    if f.profile is not None:
        moved = {"up": "rises", "down": "falls", STILL: "stays where it is (a dwell)"}[f.word]
        return (f"with {turn}, the radius of its profile under the tip of {named(asked)} "
                f"{f.profile}, so {named(asked)} {moved}")
    if f.train is not None and f.pin_way is not None:
        return _geared_reason(spec, f, f.train, f.pin_way)
    if f.pin_way is not None:
        rod = next(p for p in spec.parts if p.kind == "rod")
        return (f"at the drawn angle, {turn} carries its pin {f.pin_way} along the guide of "
                f"{named(asked)}, and {named(rod)} hands that on: {named(asked)} moves "
                f"{f.word}")
    rod = next(p for p in spec.parts if p.kind == "rod")
    bars = sorted(int(p.radius) for p in spec.parts if p.kind in ("crank", "rod", "rocker"))
    lengths = sorted([*bars, _ground(spec)])
    rule = (f"the shortest and longest links make {lengths[0]} + {lengths[3]} = "
            f"{lengths[0] + lengths[3]}, the other two {lengths[1]} + {lengths[2]} = "
            f"{lengths[1] + lengths[2]}")
    return (f"at the drawn angle, {turn} pushes {named(rod)}, which turns {named(asked)} "
            f"{f.word}; {rule}, so {named(driver)} {'can' if f.full_turn else 'cannot'} turn "
            "all the way round (Grashof's rule: it can when the shortest and longest "
            "together are shorter than the other two and the crank or the ground is the "
            "shortest)")


def _geared_reason(spec: Spec, f: Facts, train: tuple[tuple[str, str], ...],
                   pin_way: str) -> str:
    """A gear train turning a crank: each gear's sense from the one before it (meshing
    gears turn opposite ways), the crank's with its gear, then the slider-crank."""
    (first, sense), *rest = train
    said = f"{named(spec.part(first))} turns {sense}"
    before = first
    for name, turn in rest:
        said += f", so {named(spec.part(name))}, meshing with {before}, turns {turn}"
        before = name
    crank = next(p for p in spec.parts if p.kind == "crank")
    rod = next(p for p in spec.parts if p.kind == "rod")
    asked = named(spec.part(spec.asked[0]))
    return (f"{said}; {named(crank)}, fixed on the axle of {before}, turns {train[-1][1]} "
            f"with it, and at the drawn angle carries its pin {pin_way} along the guide of "
            f"{asked}; {named(rod)} hands that on: {asked} moves {f.word}")


def _ground(spec: Spec) -> int:
    """The distance between a four-bar's fixed pivots (a whole number of units)."""
    crank, rocker = spec.part(spec.driver), spec.part(spec.asked[0])
    return int(round(math.dist(crank.centre[:2], rocker.centre[:2])))


def explanation(spec: Spec, o: OptionData, f: Facts) -> str:
    """One option's explanation: the reason, and for a wrong option what it says."""
    right = (o.travel is not None and o.travel == f"{f.word} {f.travel}") or \
        (o.moves == f.word and o.full_turn == f.full_turn)
    if right:
        return RIGHT + _reason(spec, f) + "."
    said = "nothing can move" if o.jammed else linkage_claim(spec, o)
    return WRONG + _reason(spec, f) + f"; this option says {said}."
