"""MechanicalSystem's linkages and cams (issue 49): a lever (level 1 on), a slider-crank,
a four-bar and a cam with its follower (level 2 on), each drawn at one pose seen from the
front with its joints, fixed pivots and guides, a motor turning its driver.

- Lever: two arms on one pivot (opposite sides), integer lengths stated; the driven end
  moves ``d`` units: which way and how far does the other end move?  Options: the two
  ways times the right ratio and the ratio turned upside down.
- Slider-crank (in line): which way does the slider move at the drawn crank angle?
  (poses within ``DEAD_MARGIN`` of a dead centre are not drawn).  Options: left, right,
  stays where it is, nothing can move.
- Four-bar (integer links, pivots on a level line): which way does the rocker turn, and
  can the crank turn all the way round (Grashof's rule; linkages on the rule's edge and
  poses near a toggle are not drawn)?  Options: the two senses times yes / no.
- Cam (dwell, rise, dwell, fall by simple harmonic motion; a knife-edge follower above
  it): does the follower rise, fall or dwell as the cam turns the stated way?  Contacts
  within ``EDGE_MARGIN`` degrees of a segment's end are not drawn.  Options: up, down,
  stays where it is, nothing can move.

The asked motion's word is drawn first (balanced), then a pose that shows it.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np

from spatialcad.geometry import linkages as lk
from spatialcad.geometry import mechanisms as mech
from spatialcad.render import mechanism_linkage as ml
from spatialcad.tasks.base import Draft, Reject
from spatialcad.tasks.mechanical_system.linkage_explain import Facts, explanation
from spatialcad.tasks.mechanical_system.spec import (
    SENSES,
    STILL,
    LinkSpec,
    OptionData,
    PartSpec,
    Spec,
    linkage_open,
    mechanism_draft,
)

Z = (0.0, 0.0, 1.0)
DEAD_MARGIN = 25.0  # degrees between a drawn crank and a dead centre
EDGE_MARGIN = 15.0  # degrees between a cam's contact and the end of its segment
TOGGLE = 0.3  # least sine of a four-bar's angles at the coupler's two ends
POSE_TRIES = 200  # poses (and a four-bar's lengths) tried before the draw is refused
FAMILIES = ("lever", "slider_crank", "four_bar", "cam")


def family(level: int, rng: np.random.Generator) -> str | None:
    """The linkage an item of ``level`` shows, or None (a gear train): from level 1 a
    sixth of the items are levers; from level 2 a twelfth each are levers, slider-cranks,
    four-bars and cams.  Level 0 draws nothing."""
    if level < 1:
        return None
    pick = int(rng.integers(12))
    if level == 1:
        return "lever" if pick < 2 else None
    return FAMILIES[pick] if pick < len(FAMILIES) else None


def _r(x: float) -> float:
    return round(float(x), 9)


def _bar(name: str, kind: str, shaft: int, at: tuple[float, float], length: float,
         angle: float) -> PartSpec:
    turns = kind != "rod"
    return PartSpec(name, kind, shaft if turns else -1, (_r(at[0]), _r(at[1]), 0.0), Z,
                    float(length), 0, _r(angle % (2 * math.pi)), "front" if turns else None)


def _omega(sense: str) -> int:
    return -1 if sense == "clockwise" else 1


def build(kind: str, rng: np.random.Generator) -> Draft:
    """An item of the linkage ``kind`` (one of ``FAMILIES``): the driver's sense drawn
    50/50, then the pose; Reject when no pose was found or its drawing is not legible."""
    sense = SENSES[int(rng.integers(2))]
    made = {"lever": _lever, "slider_crank": _slider_crank, "four_bar": _four_bar,
            "cam": _cam}[kind](sense, rng)
    if made is None:
        raise Reject(f"no {kind} pose met the item's draw")
    spec, data, ops, facts = made
    geometry = [mech.Part(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, 0, p.phase)
                for p in spec.parts]
    joints = [(link.kind, link.a, link.b) for link in spec.links]
    profiles = {p.name: p.profile for p in spec.parts if p.profile is not None}
    arrows = {spec.driver: _omega(sense)}
    if ml.failures(geometry, joints, profiles, arrows):
        raise Reject(f"the {kind} drawing is not legible")
    picture = ml.draw(geometry, joints, profiles, arrows)
    return mechanism_draft(spec, picture, data, ops, lambda d: explanation(spec, d, facts))


Made = tuple[Spec, list[OptionData], list[str], Facts] | None


def _spec(parts: list[PartSpec], links: list[LinkSpec], sense: str, question: str,
          asked: str, right: OptionData, driver_travel: int | None = None) -> Spec:
    draft = Spec(parts=parts, links=links, driver=parts[0].name, driver_sense=sense,
                 oblique=False, question=question, asked=[asked], open_answer="",
                 driver_travel=driver_travel)
    return replace(draft, open_answer=linkage_open(draft, right))


def _lever(sense: str, rng: np.random.Generator) -> Made:
    """Two arms of one lever, on opposite sides of its pivot or (half the levers) on one
    side; the driven end moves ``d`` units (at most half its arm: a small turn)."""
    r_e = int(rng.integers(2, 9))
    r_f = int(rng.choice([n for n in range(1, 9) if n != r_e]))
    d = int(rng.integers(1, r_e // 2 + 1))
    e_right = bool(rng.integers(2))
    one_side = bool(rng.integers(2))
    phase_e = 0.0 if e_right else math.pi
    arms = [_bar("E", "lever", 0, (0.0, 0.0), r_e, phase_e),
            _bar("F", "lever", 0, (0.0, 0.0), r_f, phase_e + (0.0 if one_side else math.pi))]
    # the driven end moves down when it is right of the pivot and turns clockwise; the
    # other end moves the other way, or the same way on the driven end's side
    e_down = e_right == (sense == "clockwise")
    way, other = ("down", "up") if e_down == one_side else ("up", "down")
    travel, inverted = Fraction(d * r_f, r_e), Fraction(d * r_e, r_f)
    claims = [(way, travel, "true_travel"), (other, travel, "direction_reversed"),
              (way, inverted, "ratio_inverted"), (other, inverted, "both_reversed")]
    data = [OptionData(travel=f"{w} {t}") for w, t, _ in claims]
    spec = _spec(arms, [LinkSpec("shaft", "E", "F")], sense, "travel", "F", data[0],
                 driver_travel=d)
    return spec, data, [op for *_, op in claims], Facts(way, travel=travel)


def _moves_options(word: str, words: tuple[str, str]) -> tuple[list[OptionData], list[str]]:
    """The answer first, then the other motion words, stays-where-it-is, nothing can
    move (those of them that are wrong)."""
    every = [*words, STILL]
    data = [OptionData(moves=word)] + [OptionData(moves=w) for w in every if w != word] + \
        [OptionData(jammed=True)]
    ops = ["true_motion"] + ["reversed" if w != STILL else "still" for w in every
                             if w != word] + ["wrongly_jammed"]
    return data, ops


def _slider_crank(sense: str, rng: np.random.Generator) -> Made:
    r = int(rng.integers(2, 5))
    rod = int(rng.integers(3 * r, 4 * r + 1))
    side = 1 if rng.integers(2) else -1  # the slider right or left of the crank's pivot
    want = ("left", "right")[int(rng.integers(2))]
    w = _omega(sense)
    for _ in range(POSE_TRIES):
        theta = float(rng.uniform(0, 2 * math.pi))
        from_dead = min(abs(math.degrees(theta) % 180.0), 180.0 - math.degrees(theta) % 180.0)
        if from_dead < DEAD_MARGIN:
            continue
        pin_speed, speed = lk.slider_crank_speeds(r, rod, side, theta, w)
        if ("right" if speed > 0 else "left") != want:
            continue
        pin = (r * math.cos(theta), r * math.sin(theta))
        slide = (pin[0] + side * math.sqrt(rod * rod - pin[1] * pin[1]), 0.0)
        parts = [_bar("E", "crank", 0, (0.0, 0.0), r, theta),
                 _bar("F", "rod", -1, pin, rod, math.atan2(-pin[1], slide[0] - pin[0])),
                 PartSpec("G", "slider", -1, (_r(slide[0]), 0.0, 0.0), (1.0, 0.0, 0.0),
                          1.4, 0, 0.0)]
        links = [LinkSpec("pin", "E", "F"), LinkSpec("pin", "F", "G")]
        data, ops = _moves_options(want, ("left", "right"))
        spec = _spec(parts, links, sense, "moves", "G", data[0])
        return spec, data, ops, Facts(want, pin_way="right" if pin_speed > 0 else "left")
    return None


def _four_bar(sense: str, rng: np.random.Generator) -> Made:
    full = bool(rng.integers(2))
    want = SENSES[int(rng.integers(2))]
    w = _omega(sense)
    for _ in range(POSE_TRIES):
        a, b, c, g = (int(x) for x in rng.integers(2, 9, size=4))
        ordered = sorted((a, b, c, g))
        if ordered[0] + ordered[3] == ordered[1] + ordered[2]:
            continue  # a change-point linkage: on the edge of Grashof's rule
        grashof = ordered[0] + ordered[3] < ordered[1] + ordered[2]
        unique = ordered[0] < ordered[1]
        if full != (grashof and unique and a == ordered[0]):
            continue
        if not full and grashof and not (unique and b == ordered[0]):
            continue  # the output must rock: a double rocker, or no Grashof linkage
        theta = float(rng.uniform(0, 2 * math.pi))
        pin = (a * math.cos(theta), a * math.sin(theta))
        joint = lk.circles_meet(pin, b, (float(g), 0.0), c, True)
        if joint is None:
            continue
        cb = (joint[0] - pin[0], joint[1] - pin[1])
        cd = (joint[0] - g, joint[1])
        transmission = (cb[0] * cd[1] - cb[1] * cd[0]) / (b * c)
        drive = (pin[0] * cb[1] - pin[1] * cb[0]) / (a * b)
        if abs(transmission) < TOGGLE or abs(drive) < TOGGLE:
            continue
        # loop closure: w J(pin) + wb J(cb) = wc J(cd), J(v) = (-v_y, v_x); by Cramer
        rhs = (w * pin[1], -w * pin[0])  # -w J(pin)
        det = (-cb[1]) * (-cd[0]) - cd[1] * cb[0]
        wc = ((-cb[1]) * rhs[1] - cb[0] * rhs[0]) / det
        if ("counterclockwise" if wc > 0 else "clockwise") != want:
            continue
        parts = [_bar("E", "crank", 0, (0.0, 0.0), a, theta),
                 _bar("F", "rod", -1, pin, b, math.atan2(cb[1], cb[0])),
                 _bar("G", "rocker", 1, (float(g), 0.0), c, math.atan2(cd[1], cd[0]))]
        links = [LinkSpec("pin", "E", "F"), LinkSpec("pin", "F", "G")]
        other = SENSES[1 - SENSES.index(want)]
        claims = [(want, full, "true_motion"), (other, full, "rocker_reversed"),
                  (want, not full, "grashof_wrong"), (other, not full, "both_wrong")]
        data = [OptionData(moves=m, full_turn=f) for m, f, _ in claims]
        spec = _spec(parts, links, sense, "full_turn", "G", data[0])
        return spec, data, [op for *_, op in claims], Facts(want, full_turn=full)
    return None


def _cam(sense: str, rng: np.random.Generator) -> Made:
    """A cam of base radius 4 or 5: dwell, rise, dwell, fall (each 60 to 120 degrees);
    the follower's tip straight above its axle."""
    base, lift = int(rng.integers(4, 6)), int(rng.integers(2, 4))
    for _ in range(POSE_TRIES):
        spans = [int(x) * 15 for x in rng.integers(4, 9, size=3)]
        last = 360 - sum(spans)
        if not 60 <= last <= 120:
            continue
        starts = [0, spans[0], spans[0] + spans[1], spans[0] + spans[1] + spans[2]]
        knots = [float(v) for s, h in zip(starts, (0, 0, lift, lift), strict=True) for v in (s, h)]
        break
    else:
        return None
    want = ("up", "down", STILL)[int(rng.integers(3))]
    w = _omega(sense)
    # the follower's speed is -R'(psi) w: a rise under it lifts it when the cam turns
    # clockwise (w < 0)
    growing = (want == "up") == (w < 0)
    segment = {STILL: int(rng.choice([0, 2])), "up": 1 if growing else 3,
               "down": 1 if growing else 3}[want]
    start = starts[segment]
    stop = starts[segment + 1] if segment < 3 else 360
    psi = float(rng.uniform(start + EDGE_MARGIN, stop - EDGE_MARGIN))
    radius = base + lk.cam_lift(knots, psi)
    phase = math.radians(90.0 - psi) % (2 * math.pi)
    parts = [PartSpec("E", "cam", 0, (0.0, 0.0, 0.0), Z, float(base), 0, _r(phase), "front",
                      profile=knots),
             PartSpec("F", "follower", -1, (0.0, _r(radius), 0.0), (0.0, 1.0, 0.0), 5.0, 0,
                      0.0)]
    data, ops = _moves_options(want, ("down", "up"))
    spec = _spec(parts, [LinkSpec("cam", "E", "F")], sense, "moves", "F", data[0])
    profile = {STILL: "keeps its size", "up": "grows", "down": "shrinks"}[want]
    return spec, data, ops, Facts(want, profile=profile)
