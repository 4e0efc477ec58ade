"""MechanicalSystem's mixed mechanisms, levels >= 3: a gear train driving a slider-crank.

A motor turns gear E; E meshes directly, or through an idler gear, with the last gear of
the train, on whose axle a crank is fixed (in front of the gear, its pin on the gear's
face); a connecting rod joins the crank's pin to a slider moving along a level guide
through the crank's axle (an in-line slider-crank), on the side of the last gear away
from the rest of the train.  Question: at the moment drawn, which way does the slider
move?  Options as the slider-crank items' (left, right, stays where it is, nothing can
move).

The answer follows the gears' senses (meshing gears turn opposite ways, the crank with
its gear) and then the slider-crank at the drawn angle: with the crank at angle
``theta`` turning at ``w`` (counterclockwise positive), the slider at ``x = r cos theta +
side sqrt(L^2 - r^2 sin^2 theta)`` moves at ``-r sin theta w (1 + side r cos theta /
sqrt(L^2 - r^2 sin^2 theta))``.  The way is drawn 50/50 first (balanced), then an angle
that gives it, at least ``linkage.DEAD_MARGIN`` degrees from a dead centre.  The verifier
solves the gears, the crank and the rod in one velocity system (verify.py)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np

from spatialcad.geometry import linkages as lk
from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.mechanisms import Link, Part
from spatialcad.render import mechanism_legibility as legibility
from spatialcad.tasks.base import Draft
from spatialcad.tasks.mechanical_system import linkage
from spatialcad.tasks.mechanical_system.linkage_explain import Facts, explanation
from spatialcad.tasks.mechanical_system.spec import (
    SENSES,
    LinkSpec,
    PartSpec,
    Spec,
    linkage_open,
    mechanism_draft,
)

Z = (0.0, 0.0, 1.0)
LINKAGE_DEPTH = 1.0  # the crank, rod and slider lie in front of the gears
SLIDER_HALF = 2.0  # the slider's half length (modules)
CLEAR = 1.6  # modules between gears that do not mesh
LABELS = "EFGHJK"


def _r(x: float) -> float:
    return round(float(x), 9)


def _gear(name: str, shaft: int, at: tuple[float, float], teeth: int) -> Part:
    return Part(name, "gear", shaft, (_r(at[0]), _r(at[1]), 0.0), Z, teeth / 2, teeth)


def _train(side: int, rng: np.random.Generator) -> list[Part] | None:
    """The gears from the driver to the last gear (at the origin), the others on the
    side away from the slider (``side``: +1 the slider lies right of the last gear); None
    if two gears would come too close."""
    count = 2 + int(rng.integers(2))
    last = int(rng.integers(8, 13)) * 2
    gears = [_gear("last", count - 1, (0.0, 0.0), last)]
    for k in range(count - 1):
        at = gears[-1]
        teeth = int(rng.integers(6, 12)) * 2
        # away from the slider: from 100 to 260 degrees (slider right), mirrored (left)
        angle = math.radians(float(rng.integers(100, 261)))
        d = at.radius + teeth / 2
        c = (at.centre[0] + side * d * math.cos(angle), at.centre[1] + d * math.sin(angle))
        new = _gear("next", count - 2 - k, c, teeth)
        for other in gears[:-1]:
            gap = math.dist(new.centre[:2], other.centre[:2]) - new.radius - other.radius
            if gap < 2 * mech.ADDENDUM + CLEAR:
                return None
        gears.append(new)
    gears.reverse()  # the driver first
    return [Part(LABELS[k], g.kind, k, g.centre, g.axis, g.radius, g.teeth)
            for k, g in enumerate(gears)]


def _phased(gears: list[Part]) -> list[Part] | None:
    """The gears with tooth phases that interleave each mesh (rounded as the spec records
    them)."""
    meshes = []
    for a, b in zip(gears, gears[1:], strict=False):
        u = (np.asarray(b.centre) - np.asarray(a.centre)) / (a.radius + b.radius)
        meshes.append((a.name, b.name, -1, tuple(np.asarray(a.centre) + a.radius * u)))
    phases = mech.mesh_phases(gears, meshes)
    if phases is None:
        return None
    return [Part(g.name, g.kind, g.shaft, g.centre, g.axis, g.radius, g.teeth,
                 round(phases.get(g.name, 0.0), 9)) for g in gears]


def _pose(last: Part, speed: Fraction, side: int, want: str,
          rng: np.random.Generator) -> tuple[float, int, int, str] | None:
    """The crank's angle, its length, the rod's length and the crank pin's way along the
    guide, for a pose at which the slider moves ``want``; None if none was found."""
    r = int(last.radius) - 2 - int(rng.integers(2))  # its pin near the gear's rim
    rod = int(math.ceil(last.radius + mech.ADDENDUM + r + SLIDER_HALF + CLEAR + 1.0)) + \
        int(rng.integers(0, 4))
    w = float(speed)
    for _ in range(linkage.POSE_TRIES):
        theta = math.radians(float(rng.integers(0, 72)) * 5.0)
        from_dead = min(math.degrees(theta) % 180.0, 180.0 - math.degrees(theta) % 180.0)
        if from_dead < linkage.DEAD_MARGIN:
            continue
        pin_speed, slide = lk.slider_crank_speeds(r, rod, side, theta, w)
        if ("right" if slide > 0 else "left") != want:
            continue
        return theta, r, rod, "right" if pin_speed > 0 else "left"
    return None


def build(sense: str, want: str, rng: np.random.Generator) -> Draft | None:
    """A gear train driving a slider-crank, the motor turning gear E ``sense``, whose
    slider moves ``want`` (left or right) at the moment drawn: which way does it move?
    None if the draw fails (try again)."""
    side = 1 if rng.integers(2) else -1
    train = _train(side, rng)
    if train is None:
        return None
    gears = _phased(train)
    if gears is None:
        return None
    links = [Link("mesh", a.name, b.name, mech.factor("mesh", a, b))
             for a, b in zip(gears, gears[1:], strict=False)]
    drive = Fraction(-1 if sense == SENSES[0] else 1)
    speeds, _ = mech.propagate(gears, links, gears[0].name, drive)
    assert speeds is not None  # a chain of gears never jams
    last = gears[-1]
    pose = _pose(last, speeds[last.name], side, want, rng)
    if pose is None:
        return None
    theta, r, length, pin_way = pose
    names = LABELS[len(gears):len(gears) + 3]
    crank, rod, slider = _linkage(last, names, theta, r, length, side)
    parts = [*gears, crank, rod, slider]
    drawn = [*[(lk.kind, lk.a, lk.b) for lk in links], ("shaft", last.name, crank.name),
             ("pin", crank.name, rod.name), ("pin", rod.name, slider.name)]
    arrows = {gears[0].name: 1 if drive > 0 else -1}
    needed = legibility.needed(drawn, gears[0].name, [slider.name], False)
    picture = legibility.legible_drawing(parts, drawn, False, arrows, *needed)
    if picture is None:
        return None
    data, ops = linkage._moves_options(want, ("left", "right"))
    spec = Spec(parts=[_part_spec(p) for p in parts], links=[LinkSpec(*lk) for lk in drawn],
                driver=gears[0].name, driver_sense=sense, oblique=False, question="moves",
                asked=[slider.name], open_answer="")
    spec = replace(spec, open_answer=linkage_open(spec, data[0]))
    train_senses = tuple((g.name, SENSES[1] if speeds[g.name] > 0 else SENSES[0])
                         for g in gears)
    facts = Facts(want, pin_way=pin_way, train=train_senses)
    return mechanism_draft(spec, picture, data, ops, lambda d: explanation(spec, d, facts))


def _linkage(last: Part, names: str, theta: float, r: int, length: int,
             side: int) -> tuple[Part, Part, Part]:
    """The crank on ``last``'s axle at ``theta``, the rod from its pin to the slider on
    the level line through the axle, ``side`` of it."""
    x0, y0 = last.centre[0], last.centre[1]
    pin = (x0 + r * math.cos(theta), y0 + r * math.sin(theta))
    along = math.sqrt(length * length - (pin[1] - y0) ** 2)
    at = (pin[0] + side * along, y0)
    crank = Part(names[0], "crank", last.shaft, (x0, y0, LINKAGE_DEPTH), Z, float(r), 0,
                 _r(theta))
    rod = Part(names[1], "rod", -1, (_r(pin[0]), _r(pin[1]), LINKAGE_DEPTH), Z, float(length),
               0, _r(math.atan2(at[1] - pin[1], at[0] - pin[0]) % (2 * math.pi)))
    slider = Part(names[2], "slider", -1, (_r(at[0]), _r(at[1]), LINKAGE_DEPTH),
                  (1.0, 0.0, 0.0), SLIDER_HALF)
    return crank, rod, slider


def _part_spec(p: Part) -> PartSpec:
    return PartSpec(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, p.teeth, p.phase,
                    "front" if p.turns else None)
