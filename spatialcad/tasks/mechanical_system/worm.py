"""MechanicalSystem's worm drives, levels >= 2: a worm (a screw on a horizontal axle,
seen from the side, its thread's crests drawn slanted so that its hand shows) turns a worm
wheel below it, and the wheel meshes with a gear.  The worm's sense is stated as seen
from its right end (drawn: the circle beside that end, with the motor's arrow).

Speeds: a right-hand worm turning counterclockwise seen from its right end (about +x)
screws its thread, on its underside, to the left (a right-hand screw advances along the
axis it turns about, so the teeth it drives go the other way), so the wheel's top goes
left and it turns counterclockwise seen from the front, at ``starts / teeth`` of the
worm's speed; a left-hand worm turns it the other way.  Self-locking: the wheel cannot
turn the worm, so when the motor drives the wheel or the gear, nothing can move (a third
of the items).  Questions: which way two parts other than the driver turn.  The verifier
writes the worm's row from its lead and hand and holds a worm that the motor does not
drive (verify.py)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np

from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.mechanisms import Part
from spatialcad.render import mechanism_drawing as md
from spatialcad.render import mechanism_legibility as legibility
from spatialcad.tasks.base import Draft
from spatialcad.tasks.mechanical_system.spec import (
    HANDS,
    OPEN_JAMMED,
    SENSES,
    LinkSpec,
    OptionData,
    Spec,
    mechanism_draft,
    named,
    part_spec,
    sentence,
)

RIGHT, WRONG = "Right: ", "Wrong: "
Z, X = (0.0, 0.0, 1.0), (1.0, 0.0, 0.0)
WORM_RADIUS = 2.0  # the worm's pitch radius (modules)
STARTS = 2  # threads: a lead of two axial pitches slants the crests visibly


def is_worm_drive(spec: Spec) -> bool:
    return any(lk.kind == "worm" for lk in spec.links)


def members(spec: Spec) -> tuple[str, str, str]:
    """(worm, wheel, gear) of a worm drive's spec."""
    link = next(lk for lk in spec.links if lk.kind == "worm")
    gear = next(p.name for p in spec.parts if p.name not in (link.a, link.b))
    return link.a, link.b, gear


def speeds(spec: Spec) -> dict[str, Fraction] | None:
    """Every part's signed speed (about its axis) with the driver's of size 1; None when
    the worm does not drive (self-locking)."""
    screw, wheel, gear = members(spec)
    if spec.driver != screw:
        return None
    w = Fraction(1 if spec.driver_sense == SENSES[1] else -1)
    hand = 1 if spec.part(screw).hand == "right" else -1
    ww = hand * Fraction(spec.part(screw).teeth, spec.part(wheel).teeth) * w
    return {screw: w, wheel: ww,
            gear: -ww * Fraction(spec.part(wheel).teeth, spec.part(gear).teeth)}


def _sense(speed: Fraction | float) -> str:
    return SENSES[1] if speed > 0 else SENSES[0]


def truth(spec: Spec, w: dict[str, Fraction] | None) -> OptionData:
    if w is None:
        return OptionData(jammed=True)
    return OptionData(motions={n: _sense(w[n]) for n in spec.asked})


def lock_text(spec: Spec, screw: str, wheel: str) -> str:
    """Why a worm that the motor does not drive holds its wheel (self-locking)."""
    return (f"{named(spec.part(screw))} is self-locking: its wheel {wheel} cannot turn it "
            f"(the thread is too shallow), so {wheel} turns only when {screw} is turned; the "
            f"motor turns {named(spec.part(spec.driver))}, not {screw}, so {screw} stays "
            f"still and holds {wheel}")


def drive_text(spec: Spec, screw: str, wheel: str, w: dict[str, Fraction]) -> str:
    """How the worm's hand and sense turn its wheel, in words."""
    s, wh = spec.part(screw), spec.part(wheel)
    along = "left" if (w[screw] > 0) == (s.hand == "right") else "right"
    return (f"{named(s)} has a {s.hand}-hand thread (its crests run down to the "
            f"{'right' if s.hand == 'right' else 'left'}) and turns {_sense(w[screw])} as "
            f"seen from its right end, so its thread on its underside moves {along}, like a "
            f"nut on a {s.hand}-hand screw turned that way, and pushes the top of {wheel} "
            f"{along}: {named(wh)}, under worm {screw}, turns {_sense(w[wheel])} ({s.teeth} "
            f"threads, {wh.teeth} teeth: {abs(w[wheel])} of the worm's speed)")


def reasoning(spec: Spec, w: dict[str, Fraction] | None) -> str:
    """The motion from the worm's hand and sense, or the self-locking jam, in words."""
    screw, wheel, gear = members(spec)
    if w is None:
        return (lock_text(spec, screw, wheel) + f", and {gear} meshes with {wheel}: nothing "
                "can move")
    return drive_text(spec, screw, wheel, w) + (
        f"; {named(spec.part(gear))}, meshing with {wheel}, turns {_sense(w[gear])}")


def explanation(spec: Spec, option: OptionData, w: dict[str, Fraction] | None) -> str:
    """The option's explanation from the speeds ``w`` (None: jammed); a wrong one ends
    with what it gets wrong: the parts whose motion it misstates, or that nothing can
    move."""
    said = sentence(reasoning(spec, w))
    right = truth(spec, w)
    if option == right:
        return RIGHT + said + "."
    if option.jammed:
        return WRONG + said + "; but this option says nothing can move."
    claims = option.motions or {}
    erring = [n for n in spec.asked if right.motions is None or
              claims[n] != right.motions[n]]
    return WRONG + said + "; but this option says " + " and ".join(
        f"{named(spec.part(n))} turns {claims[n]}" for n in erring) + "."


def step_groups(spec: Spec) -> list[list[str]]:
    """The parts each step sets moving: the wheel, then the gear."""
    _, wheel, gear = members(spec)
    return [[wheel], [gear]]


def step_texts(spec: Spec, w: dict[str, Fraction] | None) -> list[str]:
    """The steps' texts: the worm turning its wheel (or the jam), then the gear."""
    said = reasoning(spec, w)
    if w is None:
        return [sentence(said) + "."]
    first, then = said.split("; ", 1)[0], said.split("; ")[-1]
    return [sentence(first) + ".", sentence(then) + "."]


def _layout(rng: np.random.Generator, hand: str) -> tuple[list[Part], list[tuple[str, str, str]]]:
    """The worm E above the wheel F (their teeth interleaved under the worm), and the gear
    G meshing with F down to its left or right."""
    nf = int(rng.integers(20, 31))
    ng = int(rng.integers(10, 17))
    rf = nf / 2
    wheel = Part("F", "gear", 1, (0.0, 0.0, 0.0), Z, rf, nf)
    screw = Part("E", "worm", 0, (0.0, rf + WORM_RADIUS, 0.0), X, WORM_RADIUS, STARTS,
                 0.0, hand=hand)
    angle = math.radians((-35.0, -145.0)[int(rng.integers(2))] + float(rng.integers(-10, 11)))
    d = rf + ng / 2
    gear = Part("G", "gear", 2, (round(d * math.cos(angle), 9), round(d * math.sin(angle), 9),
                                 0.0), Z, ng / 2, ng)
    contact = np.asarray(wheel.centre) + rf * np.array([math.cos(angle), math.sin(angle), 0])
    phases = mech.mesh_phases([wheel, gear], [(wheel.name, gear.name, -1, tuple(contact))])
    assert phases is not None  # one mesh always holds
    # a gap of the wheel straight up, under the worm's bottom tooth at x = 0: the gear
    # turned with it keeps their mesh
    turn = (math.pi / 2 + math.pi / nf) - phases[wheel.name]
    wheel = replace(wheel, phase=round((math.pi / 2 + math.pi / nf) % (2 * math.pi), 9))
    gear = replace(gear, phase=round((phases[gear.name] - turn * nf / ng) % (2 * math.pi), 9))
    return [screw, wheel, gear], [("worm", "E", "F"), ("mesh", "F", "G")]


def build(sense: str, rng: np.random.Generator) -> Draft | None:
    """A worm item with the driver turning ``sense``: the worm drives in two thirds of
    the items, the wheel or the gear in a third (nothing can move); None if the draw
    fails."""
    hand = HANDS[int(rng.integers(2))]
    parts, links = _layout(rng, hand)
    names = [p.name for p in parts]
    driver = names[0] if rng.integers(3) else names[1 + int(rng.integers(2))]
    asked = [n for n in names if n != driver]
    if rng.integers(2):
        asked = asked[::-1]
    spec = Spec(parts=[part_spec(p) for p in parts], links=[LinkSpec(*lk) for lk in links],
                driver=driver, driver_sense=sense, oblique=False, question="motion",
                asked=asked, open_answer="")
    w = speeds(spec)
    spec = replace(spec, open_answer=OPEN_JAMMED if w is None else _sense(w[asked[0]]))
    arrows = {driver: 1 if sense == SENSES[1] else -1}
    try:
        if legibility.failures(parts, links, False, arrows,
                               *legibility.needed(links, driver, asked, w is None)):
            return None
        picture = md.draw(parts, links, False, arrows)
    except md.TooLarge:
        return None
    data, ops = _options(spec, w, rng)
    return mechanism_draft(spec, picture, data, ops, lambda d: explanation(spec, d, w))


def _options(spec: Spec, w: dict[str, Fraction] | None,
             rng: np.random.Generator) -> tuple[list[OptionData], list[str]]:
    """The answer first, then three wrong options: the other sense combinations (one of
    them "Nothing can move." half the time when the worm drives)."""
    x, y = spec.asked
    combos = [{x: a, y: b} for a in SENSES for b in SENSES]
    if w is None:
        wrong = [combos[int(i)] for i in rng.permutation(4)[:3]]
        return ([OptionData(jammed=True)] + [OptionData(motions=c) for c in wrong],
                ["self_locked"] + ["motion_of_a_self_locked_drive"] * 3)
    right = truth(spec, w)
    others = [c for c in combos if c != right.motions]
    picked = [others[int(i)] for i in rng.permutation(3)]
    ops = ["true_motion"] + [("both_reversed" if all(c[n] != (right.motions or {})[n]
                                                    for n in c) else "one_reversed")
                             for c in picked]
    data = [right] + [OptionData(motions=c) for c in picked]
    if rng.integers(2):
        data[-1], ops[-1] = OptionData(jammed=True), "wrongly_jammed"
    return data, ops
