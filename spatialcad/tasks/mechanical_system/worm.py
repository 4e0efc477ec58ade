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
from spatialcad.tasks.mechanical_system import turns
from spatialcad.tasks.mechanical_system.explain import extreme_explanation
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
    turns_text,
)

RIGHT, WRONG = "Right: ", "Wrong: "
Z, X = (0.0, 0.0, 1.0), (1.0, 0.0, 0.0)
WORM_RADIUS = 2.0  # the worm's pitch radius (modules)
STARTS = 2  # threads: a lead of two axial pitches slants the crests visibly
FAST_MARGIN = Fraction(6, 5)  # the slowest part is slower than the next by this ratio


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
    out = {screw: w, wheel: hand * Fraction(spec.part(screw).teeth, spec.part(wheel).teeth) * w}
    for lk in _meshes(spec):  # the gears down the train, each from the one it meshes with
        out[lk.b] = -out[lk.a] * Fraction(spec.part(lk.a).teeth, spec.part(lk.b).teeth)
    return out


def _meshes(spec: Spec) -> list[LinkSpec]:
    """The meshes from the wheel down the train of gears, in order."""
    return [lk for lk in spec.links if lk.kind == "mesh"]


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
    return drive_text(spec, screw, wheel, w) + "".join(
        f"; {named(spec.part(lk.b))}, meshing with {lk.a}, turns {_sense(w[lk.b])}"
        for lk in _meshes(spec))


def explanation(spec: Spec, option: OptionData, w: dict[str, Fraction] | None) -> str:
    """The option's explanation from the speeds ``w`` (None: jammed); a wrong one ends
    with what it gets wrong: the parts whose motion it misstates, or that nothing can
    move, or the part or number of turns it names."""
    said = sentence(reasoning(spec, w))
    if spec.question in ("slowest", "turns") and w is not None:
        return _speed_explanation(spec, option, w, said)
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


def _speed_explanation(spec: Spec, option: OptionData, w: dict[str, Fraction],
                       said: str) -> str:
    """A slowest or turns item's explanation: the speeds, then the asked part's."""
    screw = spec.part(spec.driver)
    if spec.question == "turns":
        n, asked = spec.driver_turns or 0, spec.part(spec.asked[0])
        value = n * abs(w[asked.name])
        whole = (f"{said}; so while {named(screw)} makes {turns_text(Fraction(n))}, "
                 f"{named(asked)} makes {n} × {abs(w[asked.name])} = {turns_text(value)} "
                 f"(each turn of the {screw.teeth}-thread worm moves its wheel on by "
                 f"{screw.teeth} teeth)")
        if option.turns == str(value):
            return RIGHT + whole + "."
        return WRONG + whole + f"; this option says {turns_text(Fraction(option.turns or 0))}."
    return extreme_explanation(spec, option, w, said)


def step_groups(spec: Spec) -> list[list[str]]:
    """The parts each step sets moving: the wheel, then each gear down the train."""
    _, wheel, _ = members(spec)
    return [[wheel], *[[lk.b] for lk in _meshes(spec)]]


def step_texts(spec: Spec, w: dict[str, Fraction] | None) -> list[str]:
    """The steps' texts: the worm turning its wheel (or the jam), then each gear."""
    said = reasoning(spec, w)
    if w is None:
        return [sentence(said) + "."]
    return [sentence(part) + "." for part in said.split("; ")]


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


def build(sense: str, rng: np.random.Generator, speeds_too: bool = False) -> Draft | None:
    """A worm item with the driver turning ``sense``: the worm drives in two thirds of
    the items, the wheel or the gear in a third (nothing can move); with ``speeds_too``
    (levels >= 3), half the items ask which part turns slowest or how many turns a part
    makes instead (:func:`_speed_item`).  None if the draw fails."""
    hand = HANDS[int(rng.integers(2))]
    parts, links = _layout(rng, hand)
    if speeds_too and rng.integers(2):
        return _speed_item(sense, parts, links, rng)
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


WORM_TURNS = (5, 10, 15, 20, 30, 40, 60)  # the worm's turns a turns item states


def _speed_item(sense: str, parts: list[Part], links: list[tuple[str, str, str]],
                rng: np.random.Generator) -> Draft | None:
    """The worm driving: which of worm, wheel and two gears turns slowest (a gear H added
    down the train), or while the worm makes n turns, how many turns does the wheel or
    its gear make (half each)."""
    question = ("slowest", "turns")[int(rng.integers(2))]
    if question == "slowest":
        more = _fourth(parts, rng)
        if more is None:
            return None
        parts, links = [*parts, more], [*links, ("mesh", parts[-1].name, more.name)]
    draft = Spec(parts=[part_spec(p) for p in parts], links=[LinkSpec(*lk) for lk in links],
                 driver=parts[0].name, driver_sense=sense, oblique=False, question=question,
                 asked=[], open_answer="")
    w = speeds(draft)
    assert w is not None  # the worm drives
    n = None
    if question == "turns":
        n = WORM_TURNS[int(rng.integers(len(WORM_TURNS)))]
        part = turns.asked_part(parts, w, n, rng)
        if part is None:
            return None
        ratio = abs(w[part.name])
        data, ops = turns.options(ratio, n, rng, [(n * ratio / STARTS, "threads_ignored")])
        asked = [part.name]
    else:
        asked = sorted((p.name for p in parts), key=lambda name: abs(w[name]))
        if abs(w[asked[1]]) < abs(w[asked[0]]) * FAST_MARGIN:
            return None
        data, ops = [OptionData(part=name) for name in asked], \
            ["extreme_speed"] + ["other_part"] * 3
    spec = replace(draft, asked=asked, driver_turns=n,
                   open_answer=data[0].turns or data[0].part or "")
    arrows = {spec.driver: 1 if sense == SENSES[1] else -1}
    picture = legibility.legible_drawing(parts, links, False, arrows,
                                         *legibility.needed(links, spec.driver, asked, False))
    if picture is None:
        return None
    return mechanism_draft(spec, picture, data, ops, lambda d: explanation(spec, d, w))


def _fourth(parts: list[Part], rng: np.random.Generator) -> Part | None:
    """A gear H meshing gear G on the side away from the wheel, its teeth interleaved
    with G's; None if it would come near the wheel."""
    wheel, gear = parts[1], parts[2]
    nh = int(rng.integers(5, 19)) * 2
    out = math.atan2(gear.centre[1], gear.centre[0]) + math.radians(float(rng.integers(-20, 21)))
    d = gear.radius + nh / 2
    c = (gear.centre[0] + d * math.cos(out), gear.centre[1] + d * math.sin(out))
    if math.dist(c, wheel.centre[:2]) < wheel.radius + nh / 2 + 2 * mech.ADDENDUM + 1.6:
        return None
    h = Part("H", "gear", 3, (round(c[0], 9), round(c[1], 9), 0.0), Z, nh / 2, nh)
    contact = np.asarray(gear.centre) + gear.radius * np.array([math.cos(out), math.sin(out), 0])
    # rolling keeps nh theta_h + ng theta_g fixed: a tooth of one where the other has a gap
    theta = (nh * mech.contact_angle(h, contact) + gear.teeth * mech.contact_angle(gear, contact)
             - math.pi - gear.teeth * gear.phase) / nh
    return replace(h, phase=round(theta % (2 * math.pi), 9))


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
