"""MechanicalSystem's mixed mechanisms, levels >= 3: a worm driving a planetary train.

A planetary train (sun E, two or three planets on carrier arm, ring) seen from the front;
behind it, on the carrier's axle, a worm wheel larger than the ring (its teeth show round
it), turned by a worm lying along the top of it (drawn as in worm.py, its hand visible).
The sun or the ring is held (drawn hatched).  The motor turns the worm (two thirds of the
items) or the wheel (a third: the worm is self-locking, nothing can move).  Question: how
does a planet gear move (its turning about its own axle and its going round), as
planetary items ask; "Nothing can move." is offered wrongly half the time when the worm
drives.

Speeds: the wheel (and the carrier on its axle) turns at ``hand x starts / teeth`` of the
worm's speed (worm.py), then Willis's rule with the carrier driven (planetary.py).  The
verifier solves the worm row, the carrier's rows and the meshes in one velocity system
(verify.py)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np

from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.mechanisms import Part
from spatialcad.render import mechanism_legibility as legibility
from spatialcad.tasks.base import Draft
from spatialcad.tasks.mechanical_system import planetary, worm
from spatialcad.tasks.mechanical_system.spec import (
    HANDS,
    OPEN_JAMMED,
    SENSES,
    LinkSpec,
    OptionData,
    Spec,
    mechanism_draft,
    part_spec,
    planet_text,
    sentence,
)

Z, X = (0.0, 0.0, 1.0), (1.0, 0.0, 0.0)
WHEEL_DEPTH = -10.0  # the worm wheel and its worm lie behind the planetary train
WHEEL_CLEAR = 2.5  # modules between the ring's rim and the wheel's tooth roots, at least
RIGHT, WRONG = "Right: ", "Wrong: "
LABELS = "EFGHJKLMN"  # sun, planets, carrier, ring, worm, wheel


def is_worm_planetary(spec: Spec) -> bool:
    return planetary.is_planetary(spec) and worm.is_worm_drive(spec)


def members(spec: Spec) -> tuple[str, str]:
    """(worm, wheel) of a worm driving a planetary train."""
    link = next(lk for lk in spec.links if lk.kind == "worm")
    return link.a, link.b


def speeds(spec: Spec) -> dict[str, Fraction] | None:
    """Every part's signed speed with the driver's of size 1; None when the worm does not
    drive (self-locking)."""
    screw, wheel = members(spec)
    if spec.driver != screw:
        return None
    s = spec.part(screw)
    drive = Fraction(1 if spec.driver_sense == SENSES[1] else -1)
    turn = (1 if s.hand == "right" else -1) * Fraction(s.teeth, spec.part(wheel).teeth) * drive
    sun, ring, carrier, planets = planetary.members(spec)
    held = next(p.name for p in spec.parts if p.fixed)
    w = planetary.speeds({p.name: p.teeth for p in spec.parts}, held, carrier, turn, sun, ring,
                         carrier, planets)
    return {**w, screw: drive, wheel: turn}


def _lead(spec: Spec, w: dict[str, Fraction]) -> str:
    """How the worm turns the wheel and the carrier on its axle, in words."""
    screw, wheel = members(spec)
    _, _, carrier, _ = planetary.members(spec)
    return (worm.drive_text(spec, screw, wheel, w) + f"; carrier arm {carrier}, fixed on "
            f"the axle of {wheel}, turns with it; ")


def explanation(spec: Spec, option: OptionData, w: dict[str, Fraction] | None) -> str:
    """The option's explanation from the speeds ``w`` (None: self-locked)."""
    if w is None:
        screw, wheel = members(spec)
        _, _, carrier, _ = planetary.members(spec)
        said = sentence(worm.lock_text(spec, screw, wheel) + f", and carrier arm {carrier} "
                        f"on its axle with it, so the planetary train cannot move: nothing "
                        "can move")
        if option.jammed:
            return RIGHT + said + "."
        planet = spec.part(spec.asked[0])
        return WRONG + said + f"; this option says {planet_text(planet, option.planet or [])}."
    if option.jammed:
        right = planetary.truth(spec, w)
        said = sentence(_lead(spec, w) + planetary.reasoning(spec, w))
        planet = spec.part(spec.asked[0])
        return (WRONG + said + f"; so {planet_text(planet, right.planet or [])}; this "
                "option says nothing can move.")
    return planetary.explanation(spec, option, w, _lead(spec, w))


def step_groups(spec: Spec) -> list[list[str]]:
    """The parts each step sets moving: the wheel and the carrier, then the other
    members, then the planets."""
    _, wheel = members(spec)
    sun, ring, carrier, planets = planetary.members(spec)
    return [[wheel, carrier], [sun, ring], planets]


def step_texts(spec: Spec, w: dict[str, Fraction] | None) -> list[str]:
    """The steps' texts: the worm turning its wheel and the carrier (or the jam), the
    members by Willis's rule, the planets."""
    if w is None:
        return [explanation(spec, OptionData(jammed=True), None)[len(RIGHT):]]
    lead = _lead(spec, w)
    return [sentence(lead[:-2]) + ".", *planetary.step_texts(spec, w)]


def _train(rng: np.random.Generator) -> tuple[list[Part], list[tuple[str, str, str]]] | None:
    """A small planetary train (planetary.py's parts), None if the draw does not fit."""
    n = 2 + int(rng.integers(2))
    np_ = int(rng.integers(10, 13))
    suns = [ns for ns in range(12, 17) if (2 * ns + 2 * np_) % n == 0 and
            (ns + np_) * math.sin(math.pi / n) >= np_ + 2 * mech.ADDENDUM + planetary.PLANET_GAP]
    if not suns:
        return None
    ns = suns[int(rng.integers(len(suns)))]
    letters = iter(LABELS)
    sun = Part(next(letters), "gear", 0, (0.0, 0.0, 0.0), Z, ns / 2, ns)
    first = 2 * math.pi * int(rng.integers(24)) / 24
    return planetary._assemble(sun, n, np_, ns + 2 * np_, (ns + np_) / 2, first, letters)


def build(sense: str, rng: np.random.Generator) -> Draft | None:
    """A worm driving a planetary train, the driver turning ``sense``: how does a planet
    move?  None if the draw fails (try again)."""
    train = _train(rng)
    if train is None:
        return None
    parts, links = train
    sun, ring, carrier = parts[0], parts[-1], parts[-2]
    planets = [p.name for p in parts[1:-2]]
    held = (sun, ring)[int(rng.integers(2))].name
    parts = [replace(p, fixed=True) if p.name == held else p for p in parts]
    hand = HANDS[int(rng.integers(2))]
    rw = math.ceil(ring.outer + WHEEL_CLEAR + mech.DEDENDUM) + int(rng.integers(0, 3))
    screw_name, wheel_name = LABELS[len(parts)], LABELS[len(parts) + 1]
    wheel = Part(wheel_name, "wheel", carrier.shaft, (0.0, 0.0, WHEEL_DEPTH), Z, float(rw),
                 2 * rw, round((math.pi / 2 + math.pi / (2 * rw)) % (2 * math.pi), 9))
    screw = Part(screw_name, "worm", 9, (0.0, rw + worm.WORM_RADIUS, WHEEL_DEPTH), X,
                 worm.WORM_RADIUS, worm.STARTS, 0.0, hand=hand)
    parts = [*parts, screw, wheel]
    # the wheel turns with the carrier on one axle (one shaft number: one unknown of the
    # verifier's system); seen from the front that axle is a point, which the question
    # states instead of a drawn shaft
    links = [*links, ("worm", screw.name, wheel.name)]
    driver = screw.name if rng.integers(3) else wheel.name
    planet = planets[int(rng.integers(len(planets)))]
    spec = Spec(parts=[part_spec(p) for p in parts], links=[LinkSpec(*lk) for lk in links],
                driver=driver, driver_sense=sense, oblique=False, question="planet",
                asked=[planet], open_answer="")
    w = speeds(spec)
    data, ops = _options(spec, w, rng)
    spec = replace(spec, open_answer=OPEN_JAMMED if w is None else (data[0].planet or [""])[0])
    arrows = {driver: 1 if sense == SENSES[1] else -1}
    needed, _ = legibility.needed(links, driver, [planet], w is None)
    picture = legibility.legible_drawing(parts, links, False, arrows, sorted({*needed, held}),
                                         list(range(len(links))))
    if picture is None:
        return None
    return mechanism_draft(spec, picture, data, ops, lambda d: explanation(spec, d, w))


def _options(spec: Spec, w: dict[str, Fraction] | None,
             rng: np.random.Generator) -> tuple[list[OptionData], list[str]]:
    """The answer first, then three wrong options: self-locked, three planet motions;
    else planetary.py's (one of them "Nothing can move." half the time)."""
    if w is None:
        every = [[s, r] for s in SENSES for r in SENSES]
        wrong = [every[int(i)] for i in rng.permutation(len(every))[:3]]
        return ([OptionData(jammed=True)] + [OptionData(planet=o) for o in wrong],
                ["self_locked"] + ["motion_of_a_self_locked_drive"] * 3)
    data, ops = planetary._options(spec, w, rng)
    if rng.integers(2):
        data[-1], ops[-1] = OptionData(jammed=True), "wrongly_jammed"
    return data, ops
