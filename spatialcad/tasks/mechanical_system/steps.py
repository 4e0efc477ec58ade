"""MechanicalSystem's step-by-step solution: the motion handed on one link at a time
(links in the spec's order, each step the first link from a moving part to one not yet
moving), each step drawing the arrows known so far; a jammed mechanism ends with the two
paths that disagree.  Also the generator's :class:`~explain.Motion` (exact link ratios),
from which its explanations are written."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from spatialcad.geometry import mechanisms as mech
from spatialcad.render import mechanism_drawing as md
from spatialcad.render import mechanism_linkage as ml
from spatialcad.tasks.base import Step
from spatialcad.tasks.mechanical_system import planetary, worm, worm_planetary
from spatialcad.tasks.mechanical_system.explain import Motion, clause, disagreement, walk
from spatialcad.tasks.mechanical_system.spec import (
    LINKAGE_QUESTIONS,
    LinkSpec,
    OptionData,
    Spec,
    geared,
    linkage_claim,
    linkage_open,
    named,
    sentence,
    words,
)


def _parts(spec: Spec) -> dict[str, mech.Part]:
    return {p.name: mech.Part(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, p.teeth,
                              p.phase, bool(p.fixed), p.hand or "") for p in spec.parts}


def _word(spec: Spec, name: str, speed: Fraction) -> str:
    p = spec.part(name)
    if p.turns:
        view = (0.0, 1.0, 0.0) if p.seen_from == "above" else (0.0, 0.0, 1.0)
        return mech.sense_seen(float(speed), p.axis, view)
    lo, hi = words(p)
    positive = (p.axis[0] if lo == "left" else p.axis[1]) > 0
    return hi if (speed > 0) == positive else lo


def exact_motion(spec: Spec) -> Motion:
    """The motion by the exact ratios the generator places links with (``mech.factor``)."""
    parts = _parts(spec)
    driver = spec.part(spec.driver)
    facing = 1 if (driver.axis[1] if driver.seen_from == "above" else driver.axis[2]) > 0 else -1

    def across(link: LinkSpec, known: str) -> Fraction:
        f = mech.factor(link.kind, parts[link.a], parts[link.b])
        return f if known == link.a else 1 / f

    return walk(spec, Fraction(-facing if spec.driver_sense == "clockwise" else facing),
                across, lambda p, speed: _word(spec, p.name, speed))


def steps(spec: Spec, answer: OptionData) -> list[Step]:
    if worm_planetary.is_worm_planetary(spec):
        return _grouped_steps(spec, worm_planetary.speeds(spec), worm_planetary.step_texts,
                              worm_planetary.step_groups)
    if planetary.is_planetary(spec):
        return _planetary_steps(spec)
    if spec.question in LINKAGE_QUESTIONS:  # one step: the driver's turn moves the part
        return [Step(sentence(f"{named(spec.part(spec.driver))} turns {spec.driver_sense}, "
                              f"so {linkage_claim(spec, answer)}") + ".",
                     {"answer": linkage_open(spec, answer)})]
    if worm.is_worm_drive(spec):
        return _grouped_steps(spec, worm.speeds(spec), worm.step_texts, worm.step_groups)
    motion = exact_motion(spec)
    speeds = {spec.driver: motion.speeds[spec.driver]}
    out = []
    for link in motion.hands:
        other = link.b if link.b not in speeds else link.a
        speeds[other] = motion.speeds[other]
        out.append(Step(sentence(clause(spec, motion, link, senses=True, rates=True)) + ".",
                        _state(speeds, False)))
    if motion.clash is not None:
        out.append(Step(f"But {disagreement(spec, motion)}.", _state(speeds, True)))
    return out


def _planetary_steps(spec: Spec) -> list[Step]:
    """A planetary train: the members' speeds by Willis's rule, then the planets'."""
    w = planetary.spec_speeds(spec)
    speeds = {spec.driver: w[spec.driver]}
    out = []
    for text, group in zip(planetary.step_texts(spec, w), planetary.step_groups(spec),
                           strict=True):
        speeds.update({n: w[n] for n in group})
        out.append(Step(text, _state(speeds, False)))
    return out


def _grouped_steps(spec: Spec, w: dict[str, Fraction] | None,
                   texts: Callable[[Spec, dict[str, Fraction] | None], list[str]],
                   groups: Callable[[Spec], list[list[str]]]) -> list[Step]:
    """A worm drive (alone, or driving a planetary train): each step sets a group of
    parts moving at the speeds ``w`` (the worm turns its wheel by its hand, ...); or one
    step, the self-locking jam (``w`` None)."""
    said = texts(spec, w)
    driver = Fraction(1 if spec.driver_sense == "counterclockwise" else -1)
    if w is None:
        return [Step(said[0], _state({spec.driver: driver}, True))]
    speeds = {spec.driver: w[spec.driver]}
    out = []
    for text, group in zip(said, groups(spec), strict=True):
        speeds.update({n: w[n] for n in group})
        out.append(Step(text, _state(speeds, False)))
    return out


def _state(speeds: dict[str, Fraction], jammed: bool) -> dict[str, Any]:
    return {"speeds": {n: str(v) for n, v in speeds.items()}, "jammed": jammed}


def picture(spec: Spec, answer: OptionData, state: Any) -> np.ndarray:
    """The mechanism with an arrow on every part moving so far (a linkage, or a gear train
    driving one: its picture)."""
    if spec.question in LINKAGE_QUESTIONS:  # its one step: the item's picture
        arrows = {spec.driver: -1 if spec.driver_sense == "clockwise" else 1}
        if not geared(spec):
            return ml.draw(list(_parts(spec).values()),
                           [(lk.kind, lk.a, lk.b) for lk in spec.links],
                           {p.name: p.profile for p in spec.parts if p.profile is not None},
                           arrows)
    else:
        arrows = {n: 1 if Fraction(v) > 0 else -1 for n, v in state["speeds"].items()
                  if Fraction(v) != 0}  # a held part has no arrow
    return md.draw(list(_parts(spec).values()), [(lk.kind, lk.a, lk.b) for lk in spec.links],
                   spec.oblique, arrows)
