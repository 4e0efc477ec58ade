"""MechanicalSystem's planetary (epicyclic) trains, levels >= 1: a sun gear, two or three
planet gears whose axles ride on a carrier arm, and a ring gear around them; one of sun,
carrier and ring is held (drawn hatched), a motor turns one of the other two.

Speeds by Willis's rule: seen from the carrier, the gears turn as on fixed axles, so
``Ns (ws - wc) + Nr (wr - wc) = 0`` and a planet turns at ``wp = wc - Ns / Np (ws - wc)``
(signed speeds, counterclockwise positive, seen from the front).  Questions: how a planet
moves (its sense about its own axle, and the sense it goes round in, or not at all when
the carrier is held), or which of sun, planet, carrier and ring turns fastest.  Balance:
the held member is drawn uniformly (so the planet "does not go round" in a third of the
items), the driver's sense 50/50; when the planet goes round, "does not go round" is
offered as a wrong option half the time.  The verifier proves the speeds with the
carrier as an unknown of its velocity system (verify.py)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

import numpy as np

from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.mechanisms import Part
from spatialcad.render import mechanism_legibility as legibility
from spatialcad.tasks.base import Draft
from spatialcad.tasks.mechanical_system.explain import extreme_explanation
from spatialcad.tasks.mechanical_system.spec import (
    SENSES,
    STILL,
    LinkSpec,
    OptionData,
    Spec,
    mechanism_draft,
    named,
    part_spec,
    planet_text,
    sentence,
)

RIGHT, WRONG = "Right: ", "Wrong: "
Z = (0.0, 0.0, 1.0)
CARRIER_DEPTH = 1.0  # the carrier arm lies in front of the gears
PLANET_GAP = 2.5  # modules between neighbouring planets' tooth tips, at least
FAST_MARGIN = Fraction(6, 5)
# the ring gear turned by this share of its tooth pitch from centring the planets' teeth in
# its gaps: each planet's tooth then rests on a ring tooth's flank, taking up the play a
# large planet leaves in the drawn internal teeth (the verifier's mesh gap)
RING_PLAY = 0.07


def speeds(teeth: dict[str, int], held: str, driver: str, drive: Fraction,
           sun: str, ring: str, carrier: str, planets: list[str]) -> dict[str, Fraction]:
    """Every member's signed speed by Willis's rule, ``held`` still and ``driver`` at
    ``drive``."""
    ns, nr = teeth[sun], teeth[ring]
    w: dict[str, Fraction] = {held: Fraction(0), driver: drive}
    if sun not in w:  # Ns ws = (Ns + Nr) wc - Nr wr
        w[sun] = ((ns + nr) * w[carrier] - nr * w[ring]) / ns
    elif ring not in w:
        w[ring] = ((ns + nr) * w[carrier] - ns * w[sun]) / nr
    else:
        w[carrier] = (ns * w[sun] + nr * w[ring]) / (ns + nr)
    for p in planets:
        w[p] = w[carrier] - Fraction(ns, teeth[p]) * (w[sun] - w[carrier])
    return w


def sense(speed: Fraction) -> str:
    return SENSES[1] if speed > 0 else SENSES[0]


def members(spec: Spec) -> tuple[str, str, str, list[str]]:
    """(sun, ring, carrier, planets) of a planetary train's spec."""
    planets = [lk.b for lk in spec.links if lk.kind == "carries"]
    carrier = next(p.name for p in spec.parts if p.kind == "carrier")
    ring = next(p.name for p in spec.parts if p.kind == "ring")
    sun = next(p.name for p in spec.parts if p.kind == "gear" and p.name not in planets)
    return sun, ring, carrier, planets


def is_planetary(spec: Spec) -> bool:
    return any(lk.kind == "carries" for lk in spec.links)


def spec_speeds(spec: Spec) -> dict[str, Fraction]:
    """Every member's signed speed by Willis's rule, from the spec's tooth counts."""
    sun, ring, carrier, planets = members(spec)
    held = next(p.name for p in spec.parts if p.fixed)
    drive = Fraction(1 if spec.driver_sense == SENSES[1] else -1)
    return speeds({p.name: p.teeth for p in spec.parts}, held, spec.driver, drive, sun, ring,
                  carrier, planets)


def step_groups(spec: Spec) -> list[list[str]]:
    """The parts each step of the solution sets moving: the held member and the third
    of sun, carrier and ring (Willis's rule), then the planets."""
    sun, ring, carrier, planets = members(spec)
    return [[n for n in (sun, carrier, ring) if n != spec.driver], planets]


def step_texts(spec: Spec, w: dict[str, Fraction]) -> list[str]:
    """The two steps' texts: the members' speeds, then the planets'."""
    sun, ring, carrier, planets = members(spec)
    teeth = {p.name: p.teeth for p in spec.parts}
    held = next(p.name for p in spec.parts if p.fixed)
    first = (f"{sentence(named(spec.part(held)))} is held; relative to "
             f"{named(spec.part(carrier))} the gears turn as on fixed axles, so "
             f"{teeth[sun]} × ({sun}'s speed − {carrier}'s) + {teeth[ring]} × ({ring}'s "
             f"speed − {carrier}'s) = 0: {sun} turns at {_speed_text(w[sun])}, {carrier} at "
             f"{_speed_text(w[carrier])}, {ring} at {_speed_text(w[ring])} (counterclockwise "
             "positive).")
    then = "; ".join(f"planet {p} turns at {_speed_text(w[carrier])} − {teeth[sun]}/"
                     f"{teeth[p]} × {_speed_text(w[sun] - w[carrier])} = {_speed_text(w[p])}"
                     for p in planets)
    return [first, sentence(then) + "."]


def truth(spec: Spec, w: dict[str, Fraction]) -> OptionData:
    """The right option of a planet question."""
    _, _, carrier, _ = members(spec)
    planet = spec.asked[0]
    return OptionData(planet=[sense(w[planet]),
                              STILL if w[carrier] == 0 else sense(w[carrier])])


def _speed_text(w: Fraction) -> str:
    return f"{w}" if w >= 0 else f"({w})"


def reasoning(spec: Spec, w: dict[str, Fraction]) -> str:
    """The speeds worked out by Willis's rule, in words."""
    sun, ring, carrier, planets = members(spec)
    teeth = {p.name: p.teeth for p in spec.parts}
    held = next(p.name for p in spec.parts if p.fixed)
    driver = spec.driver
    said = (f"{named(spec.part(held))} is held; relative to {named(spec.part(carrier))} "
            f"the gears turn as on fixed axles, so {teeth[sun]} × ({sun}'s speed − "
            f"{carrier}'s) + {teeth[ring]} × ({ring}'s speed − {carrier}'s) = 0 (tooth "
            f"counts {sun} {teeth[sun]}, {ring} {teeth[ring]}; counterclockwise positive, "
            f"{driver}'s speed {_speed_text(w[driver])}): {sun} turns at "
            f"{_speed_text(w[sun])}, {carrier} at {_speed_text(w[carrier])}, {ring} at "
            f"{_speed_text(w[ring])}")
    for p in (n for n in planets if n in spec.asked):
        said += (f"; planet {p} ({teeth[p]} teeth) turns at {carrier}'s speed − "
                 f"{teeth[sun]}/{teeth[p]} × ({sun}'s − {carrier}'s) = "
                 f"{_speed_text(w[carrier])} − {teeth[sun]}/{teeth[p]} × "
                 f"{_speed_text(w[sun] - w[carrier])} = {_speed_text(w[p])}")
    return said


def explanation(spec: Spec, option: OptionData, w: dict[str, Fraction],
                lead: str = "") -> str:
    """The option's explanation from the speeds ``w`` (the generator's Willis fractions,
    or the verifier's solved speeds), after ``lead`` (how the driven member turns, when
    something else drives it)."""
    said = sentence(lead + reasoning(spec, w))
    if spec.question == "planet":
        right = truth(spec, w)
        planet = spec.part(spec.asked[0])
        whole = f"{said}; so {planet_text(planet, right.planet or [])}"
        if option == right:
            return RIGHT + whole + "."
        return WRONG + whole + f"; this option says {planet_text(planet, option.planet or [])}."
    return extreme_explanation(spec, option, w, said)


def _train(rng: np.random.Generator) -> tuple[list[Part], list[tuple[str, str, str]]] | None:
    """Sun, planets, carrier and ring, their tooth phases meshing; None if the draw's
    planets would not fit round any sun."""
    n = 2 + int(rng.integers(2))
    np_ = int(rng.integers(10, 21))
    # equally spaced planets mesh sun and ring at once when n divides Ns + Nr (= 2 Ns +
    # 2 Np), and keep PLANET_GAP between their tips
    suns = [ns for ns in range(12, 25) if (2 * ns + 2 * np_) % n == 0 and
            (ns + np_) * math.sin(math.pi / n) >= np_ + 2 * mech.ADDENDUM + PLANET_GAP]
    if not suns:
        return None
    ns = suns[int(rng.integers(len(suns)))]
    names = iter("EFGHJKLMN")
    sun = Part(next(names), "gear", 0, (0.0, 0.0, 0.0), Z, ns / 2, ns)
    first = 2 * math.pi * int(rng.integers(24)) / 24
    return _assemble(sun, n, np_, ns + 2 * np_, (ns + np_) / 2, first, names)


def _assemble(sun: Part, n: int, np_: int, nr: int, arm: float, first: float,
              names: Iterator[str]) -> tuple[list[Part], list[tuple[str, str, str]]] | None:
    """The train around ``sun``: ``n`` planets of ``np_`` teeth on arms of length ``arm``
    (the first at angle ``first``), the carrier, the ring of ``nr`` teeth."""
    planets = []
    for k in range(n):
        a = first + 2 * math.pi * k / n
        c = (round(arm * math.cos(a), 9), round(arm * math.sin(a), 9), 0.0)
        planets.append(Part(next(names), "gear", 3 + k, c, Z, np_ / 2, np_))
    carrier = Part(next(names), "carrier", 2, (0.0, 0.0, CARRIER_DEPTH), Z, arm, n, first)
    ring = Part(next(names), "ring", 1, (0.0, 0.0, 0.0), Z, nr / 2, nr)
    meshes = []
    links = []
    for p in planets:
        u = np.asarray(p.centre) / arm
        meshes.append((sun.name, p.name, -1, tuple(sun.radius * u)))
        meshes.append((p.name, ring.name, 1, tuple(ring.radius * u)))
        links += [("mesh", sun.name, p.name), ("mesh", p.name, ring.name),
                  ("carries", carrier.name, p.name)]
    parts = [sun, *planets, carrier, ring]
    phases = mech.mesh_phases(parts, meshes)
    if phases is None:
        return None
    phases[ring.name] += RING_PLAY * 2 * math.pi / nr
    return [replace(p, phase=round(phases[p.name], 9)) if p.kind != "carrier" else p
            for p in parts], links


def build(sense: str, rng: np.random.Generator) -> Draft | None:
    """A planetary item with the driver turning ``sense``: a third ask which member turns
    fastest, the others how a planet moves; None if the draw fails (try again)."""
    train = _train(rng)
    if train is None:
        return None
    parts, links = train
    sun, ring, carrier = parts[0].name, parts[-1].name, parts[-2].name
    planets = [p.name for p in parts[1:-2]]
    held = (sun, ring, carrier)[int(rng.integers(3))]
    movers = [m for m in (sun, carrier, ring) if m != held]
    driver = movers[int(rng.integers(2))]
    parts = [replace(p, fixed=True) if p.name == held else p for p in parts]
    teeth = {p.name: p.teeth for p in parts}
    w = speeds(teeth, held, driver, Fraction(-1 if sense == SENSES[0] else 1), sun, ring,
               carrier, planets)
    planet = planets[int(rng.integers(len(planets)))]
    question = "fastest" if rng.integers(3) == 0 else "planet"
    if question == "fastest":
        asked = sorted((sun, planet, carrier, ring), key=lambda n: abs(w[n]), reverse=True)
        if abs(w[asked[0]]) < abs(w[asked[1]]) * FAST_MARGIN:
            return None
    else:
        asked = [planet]
    spec = Spec(parts=[part_spec(p) for p in parts],
                links=[LinkSpec(*lk) for lk in links], driver=driver, driver_sense=sense,
                oblique=False, question=question, asked=asked, open_answer="")
    data, ops = _options(spec, w, rng)
    spec = replace(spec, open_answer=asked[0] if question == "fastest" else
                   (data[0].planet or [""])[0])
    arrows = {driver: 1 if w[driver] > 0 else -1}
    picture = legibility.legible_drawing(parts, links, False, arrows, [*asked, driver, held],
                                         list(range(len(links))))
    if picture is None:
        return None
    return mechanism_draft(spec, picture, data, ops, lambda d: explanation(spec, d, w))


def _options(spec: Spec, w: dict[str, Fraction],
             rng: np.random.Generator) -> tuple[list[OptionData], list[str]]:
    """The answer first, then three wrong options and their operators: for a planet, other
    senses (one "does not go round" half the time when it does go round); for the fastest,
    the other three members."""
    if spec.question == "fastest":
        return [OptionData(part=n) for n in spec.asked], ["extreme_speed"] + ["other_part"] * 3
    right = truth(spec, w)
    spin, revolution = right.planet or []
    moving = [[s, r] for s in SENSES for r in SENSES if [s, r] != [spin, revolution]]
    still = [[s, STILL] for s in SENSES if [s, STILL] != [spin, revolution]]
    if revolution == STILL:
        pool = moving + still
        wrong = [pool[int(i)] for i in rng.permutation(len(pool))[:3]]
    else:
        offer_still = bool(rng.integers(2))
        wrong = [moving[int(i)] for i in rng.permutation(len(moving))[:3 - offer_still]]
        if offer_still:
            wrong.append(still[int(rng.integers(len(still)))])
    ops = ["planet_motion"] + [_operator([spin, revolution], o) for o in wrong]
    return [right] + [OptionData(planet=o) for o in wrong], ops


def _operator(truth_: list[str], claim: list[str]) -> str:
    if claim[1] == STILL:
        return "wrongly_not_going_round"
    if truth_[1] == STILL:
        return "wrongly_going_round"
    wrong = [i for i in range(2) if truth_[i] != claim[i]]
    return ("spin_and_revolution_reversed" if len(wrong) == 2 else
            ("spin_reversed" if wrong == [0] else "revolution_reversed"))
