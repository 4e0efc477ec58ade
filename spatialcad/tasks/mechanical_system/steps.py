"""MechanicalSystem's step-by-step solution: the motion handed on one link at a time
(links in the spec's order, each step the first link from a moving part to one not yet
moving), each step drawing the arrows known so far; a jammed mechanism ends with the link
whose two ends would have to move against each other."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from spatialcad.geometry import mechanisms as mech
from spatialcad.render import mechanism_drawing as md
from spatialcad.tasks.base import Step
from spatialcad.tasks.mechanical_system.spec import LinkSpec, OptionData, Spec, named, words

HOW = {"mesh": "meshes with", "belt": "drives, by an open belt,",
       "crossed": "drives, by a crossed belt,", "rope": "winds the rope of",
       "shaft": "shares its axle with"}


def _parts(spec: Spec) -> dict[str, mech.Part]:
    return {p.name: mech.Part(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, p.teeth,
                              p.phase) for p in spec.parts}


def _factor(spec: Spec, link: LinkSpec, parts: dict[str, mech.Part], known: str) -> Fraction:
    f = mech.factor(link.kind, parts[link.a], parts[link.b])
    return f if known == link.a else 1 / f


def _word(spec: Spec, name: str, speed: Fraction) -> str:
    p = spec.part(name)
    if p.turns:
        view = (0.0, 1.0, 0.0) if p.seen_from == "above" else (0.0, 0.0, 1.0)
        return mech.sense_seen(float(speed), p.axis, view)
    lo, hi = words(p)
    positive = (p.axis[0] if lo == "left" else p.axis[1]) > 0
    return hi if (speed > 0) == positive else lo


def steps(spec: Spec, answer: OptionData) -> list[Step]:
    parts = _parts(spec)
    driver = spec.part(spec.driver)
    facing = 1 if (driver.axis[1] if driver.seen_from == "above" else driver.axis[2]) > 0 else -1
    speeds = {spec.driver: Fraction(-facing if spec.driver_sense == "clockwise" else facing)}
    out = []
    while True:
        link = next((lk for lk in spec.links if (lk.a in speeds) != (lk.b in speeds)), None)
        if link is None:
            break
        known, other = (link.a, link.b) if link.a in speeds else (link.b, link.a)
        speeds[other] = speeds[known] * _factor(spec, link, parts, known)
        verb = "turns" if spec.part(other).turns else "moves"
        rate = abs(speeds[other])
        how = f"{named(spec.part(link.a))} {HOW[link.kind]} {named(spec.part(link.b))}"
        out.append(Step(f"{how[0].upper() + how[1:]}, so {named(spec.part(other))} {verb} "
                        f"{_word(spec, other, speeds[other])} at {rate} times the driver's "
                        "speed.", _state(speeds, False)))
    clash = next((lk for lk in spec.links if speeds[lk.b] != speeds[lk.a] * _factor(
        spec, lk, parts, lk.a)), None)
    if clash is not None:
        out.append(Step(f"But {named(spec.part(clash.a))} and {named(spec.part(clash.b))} "
                        "would have to move against each other: the two paths disagree, so "
                        "nothing can move.", _state(speeds, True)))
    return out


def _state(speeds: dict[str, Fraction], jammed: bool) -> dict[str, Any]:
    return {"speeds": {n: str(v) for n, v in speeds.items()}, "jammed": jammed}


def picture(spec: Spec, answer: OptionData, state: Any) -> np.ndarray:
    """The mechanism with an arrow on every part moving so far."""
    arrows = {n: 1 if Fraction(v) > 0 else -1 for n, v in state["speeds"].items()}
    return md.draw(list(_parts(spec).values()), [(lk.kind, lk.a, lk.b) for lk in spec.links],
                   spec.oblique, arrows)
