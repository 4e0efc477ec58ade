"""MechanicalSystem's spec: the parts (kind, axle, geometry), the links between them, the
driven part and its stated sense, and what is asked; an option's data: the motions it
claims for the asked parts, "nothing can move", or a part (fastest / slowest items).
Also the question texts."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from spatialcad.geometry.mechanisms import Part
from spatialcad.record.spec import YES_NO, JsonSpec, SpecError, Texts, one_of, optional, scene_text
from spatialcad.tasks.base import Draft, Option, Panel

PART_KINDS = ("gear", "ring", "pulley", "drum", "bevel", "rack", "weight", "carrier", "worm",
              "wheel",  # a worm wheel behind a planetary train, drawn open inside its rim
              *("lever", "crank", "rod", "slider", "rocker", "cam", "follower"))
LINKAGE_KINDS = ("lever", "crank", "rod", "slider", "rocker", "cam", "follower")
SLIDING = ("rack", "weight", "rod", "slider", "follower")  # no fixed axle (a rod floats)
LINK_KINDS = ("mesh", "belt", "crossed", "rope", "shaft", "carries", "worm", "pin", "cam")
# carries: a carrier (a) holds the axle of a planet gear (b), which turns freely on it;
# worm: a worm (a) turns its wheel (b) and cannot be turned by it (self-locking, worm.py);
# pin: two linkage bars joined; cam: a cam (a) and its follower (b)
QUESTIONS = ("motion", "fastest", "slowest", "turns", "planet", "travel", "moves", "full_turn")
# planet: a planet gear's turning about its own axle and its going round the sun gear
# (planetary.py); linkage texts below: "travel" (a lever's other end), "moves" (a slider, a
# cam's follower), "full_turn" (a four-bar's rocker, and whether its crank turns all the
# way round)
SENSES = ("clockwise", "counterclockwise")
VIEWS = {"front": (0.0, 0.0, 1.0), "above": (0.0, 1.0, 0.0),  # towards the viewer
         "right": (1.0, 0.0, 0.0)}  # right: a worm's sense, seen from its right end
HANDS = ("right", "left")  # a worm's thread: right-hand or left-hand
JAMMED = "Nothing can move."
STILL = "still"  # a planet gear that does not go round (its carrier is held); a linkage's
# asked part that stays where it is at the drawn moment
OPEN_JAMMED = "cannot move"
NOUN = {"gear": "gear", "ring": "ring gear", "pulley": "pulley", "drum": "drum",
        "bevel": "bevel gear", "rack": "rack", "weight": "weight", "carrier": "carrier arm",
        "worm": "worm", "wheel": "worm wheel", "lever": "lever arm", "crank": "crank",
        "rod": "connecting rod",
        "slider": "slider", "rocker": "rocker", "cam": "cam", "follower": "follower"}
COORDINATES = ("modules; x right, y up, z towards the viewer; a turning part's axis by the "
               "right-hand rule, a sliding part's axis its positive direction")


@dataclass(frozen=True)
class PartSpec(JsonSpec):
    name: str  # its label in the picture
    kind: str  # one of PART_KINDS
    shaft: int  # parts with one shaft number turn as one; -1 for racks and weights
    centre: tuple[float, float, float]
    axis: tuple[float, float, float]
    radius: float  # pitch radius, pulley or drum radius, half length (rack), half side (weight)
    teeth: int  # 0 without teeth
    phase: float  # the first tooth's angle (racks: its offset along the axis)
    seen_from: str | None = optional()  # turning parts: "front" or "above" (VIEWS)
    fixed: bool | None = optional()  # True: held still (a planetary train's held member)
    # a cam's profile: (angle in degrees of the cam's own frame, lift over its radius) knots
    # (geometry/linkages.py: cam_lift); linkage bars (lever, crank, rod, rocker) lie from
    # their centre along angle ``phase`` for ``radius``
    profile: list[float] | None = optional()
    hand: str | None = optional()  # a worm's thread: "right" or "left" (HANDS)

    def __post_init__(self) -> None:
        one_of(self.kind, PART_KINDS, "part.kind")
        if self.seen_from is not None:
            one_of(self.seen_from, tuple(VIEWS), "part.seen_from")
        if (self.kind == "worm") != (self.hand is not None):
            raise SpecError(f"part {self.name}: a worm, and only a worm, has a hand")
        if self.hand is not None:
            one_of(self.hand, HANDS, "part.hand")

    @property
    def turns(self) -> bool:
        return self.kind not in SLIDING


@dataclass(frozen=True)
class LinkSpec(JsonSpec):
    kind: str  # one of LINK_KINDS
    a: str
    b: str

    def __post_init__(self) -> None:
        one_of(self.kind, LINK_KINDS, "link.kind")


@dataclass(frozen=True, kw_only=True)
class Spec(JsonSpec):
    parts: list[PartSpec]
    links: list[LinkSpec]
    driver: str
    driver_sense: str  # the sense the driver is pushed in, seen from its seen_from
    oblique: bool  # drawn in a cabinet projection (depth shown) rather than from the front
    question: str  # one of QUESTIONS
    asked: list[str]  # "motion": the two parts asked about; "turns": the one; else four
    open_answer: str  # the first asked part's word or OPEN_JAMMED; "turns": its turns
    # ("9/2"); else the part's name
    coordinates: str = COORDINATES
    driver_turns: int | None = optional()  # "turns": how many turns the driver makes
    driver_travel: int | None = optional()  # "travel": how far the driven lever end moves

    def __post_init__(self) -> None:
        one_of(self.question, QUESTIONS, "spec.question")
        one_of(self.driver_sense, SENSES, "spec.driver_sense")

    def part(self, name: str) -> PartSpec:
        found = [p for p in self.parts if p.name == name]
        if len(found) != 1:
            raise SpecError(f"spec: no single part {name!r}")
        return found[0]


@dataclass(frozen=True)
class OptionData(JsonSpec):
    """Exactly one of: ``motions`` (asked part -> its word), ``jammed``, ``part``,
    ``turns`` (the asked part's turns as a fraction in lowest terms, "9/2" or "3"),
    ``planet`` (the asked planet gear's sense about its own axle and the sense it goes
    round in, or ``STILL`` if it does not go round), ``travel`` (a lever end's way and
    distance, "up 9/2"), ``moves`` (the asked part's word, or ``STILL``; with
    ``full_turn`` on four-bar items: whether the crank turns all the way round)."""

    motions: dict[str, str] | None = optional()
    jammed: bool | None = optional()
    part: str | None = optional()
    turns: str | None = optional()
    planet: list[str] | None = optional()
    travel: str | None = optional()
    moves: str | None = optional()
    full_turn: bool | None = optional()

    def __post_init__(self) -> None:
        if sum(x is not None for x in (self.motions, self.jammed, self.part, self.turns,
                                       self.planet, self.travel, self.moves)) != 1 or \
                self.jammed is False or (self.full_turn is not None and self.moves is None):
            raise SpecError("option: expected exactly one of 'motions', 'jammed', 'part', "
                            "'turns', 'planet', 'travel' and 'moves' ('full_turn' only with "
                            "'moves')")
        if self.planet is not None and (len(self.planet) != 2 or self.planet[0] not in SENSES
                                        or self.planet[1] not in (*SENSES, STILL)):
            raise SpecError(f"option: planet {self.planet!r} is no [sense, sense or "
                            f"{STILL!r}]")
        if self.turns is not None and (str(turns_value(self.turns)) != self.turns or
                                       turns_value(self.turns) <= 0):
            raise SpecError(f"option: turns {self.turns!r} is no positive fraction in lowest "
                            "terms")


def turns_value(text: str) -> Fraction:
    """A number of turns written as a fraction ("9/2", "3"); SpecError if it is none."""
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise SpecError(f"turns {text!r} is no fraction") from None


def turns_text(value: Fraction) -> str:
    """"9/2 turns", "1 turn"."""
    return f"{value} turn{'' if value == 1 else 's'}"


def part_spec(p: Part) -> PartSpec:
    """The spec of a part turning on an axle that points at the viewer, or of a worm
    (its sense seen from its right end, its hand), held when ``p.fixed``."""
    return PartSpec(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, p.teeth, p.phase,
                    "right" if p.kind == "worm" else "front", True if p.fixed else None,
                    hand=p.hand or None)


def parse_spec(data: Any) -> Spec:
    return Spec.from_json(data)


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def words(part: PartSpec) -> tuple[str, str]:
    """A part's two motion words: its senses, or the directions it slides."""
    if part.turns:
        return SENSES
    ax = part.axis
    return ("left", "right") if abs(ax[0]) > abs(ax[1]) else ("down", "up")


def named(part: PartSpec) -> str:
    return f"{NOUN[part.kind]} {part.name}"


def sentence(text: str) -> str:
    """``text`` with its first letter upper case (part labels keep their case)."""
    return text[:1].upper() + text[1:]


def verb(part: PartSpec) -> str:
    return "turns" if part.turns else "moves"


def motion_text(spec: Spec, motions: dict[str, str]) -> str:
    """"gear F turns clockwise, rack G moves left" (the asked parts in the asked order)."""
    return ", ".join(f"{named(spec.part(n))} {verb(spec.part(n))} {motions[n]}"
                     for n in spec.asked)


def option_text(spec: Spec, o: OptionData) -> str:
    if o.jammed:
        return JAMMED
    if o.part is not None:
        return sentence(named(spec.part(o.part)))
    if o.turns is not None:
        return sentence(turns_text(turns_value(o.turns)))
    if o.planet is not None:
        return sentence(planet_text(spec.part(spec.asked[0]), o.planet))
    if o.travel is not None or o.moves is not None:
        return sentence(linkage_claim(spec, o))
    assert o.motions is not None
    return sentence(motion_text(spec, o.motions))


def planet_text(planet: PartSpec, said: Sequence[str]) -> str:
    """"gear F turns clockwise and goes round counterclockwise", "... but does not go
    round"."""
    spin, revolution = said
    return f"{named(planet)} turns {spin} " + (
        "but does not go round" if revolution == STILL else f"and goes round {revolution}")


def _planetary(spec: Spec) -> str:
    """What a planetary train's picture shows that the gears do not: the carrier arm
    holding the planets' axles, and the held member."""
    carrier = next((p for p in spec.parts if p.kind == "carrier"), None)
    if carrier is None:
        return ""
    planets = [lk.b for lk in spec.links if lk.kind == "carries"]
    held = next(p for p in spec.parts if p.fixed)
    return (f" {sentence(named(carrier))} holds the axles of the planet gears "
            f"{', '.join(planets[:-1])} and {planets[-1]}, which turn freely on it as it "
            f"turns about the middle axle; {named(held)} (hatched) is held fixed.")


def _worm(spec: Spec) -> str:
    """What a worm drive's picture shows: the worm's thread and its end view."""
    worm = next((p for p in spec.parts if p.kind == "worm"), None)
    if worm is None:
        return ""
    wheel = spec.part(next(lk.b for lk in spec.links if lk.kind == "worm"))
    carried = next((p for p in spec.parts if p.turns and p.shaft == wheel.shaft and
                    p.name != wheel.name), None)
    behind = "" if carried is None else (
        f" {sentence(named(wheel))} is fixed on the axle of {named(carried)}, behind the "
        "planetary train (only its toothed rim shows round the ring gear), and turns with "
        "it.")
    return (f" {sentence(named(worm))} is a screw on a horizontal axle (its thread's crests "
            "drawn on its near side); it meshes with the wheel below it. The circle beside "
            f"its right end is {worm.name} seen from that end.{behind}")


def _setting(spec: Spec) -> str:
    above = any(p.seen_from == "above" for p in spec.parts)
    view = ("drawn in perspective so that depth shows (parts nearer to you are drawn lower "
            "left)" if spec.oblique else "seen from the front")
    right = any(p.seen_from == "right" for p in spec.parts)
    senses = ("Clockwise and counterclockwise are as seen from the front for parts on "
              "axles pointing at you" + (", and as seen from above for parts on vertical "
                                         "axles" if above else "") +
              (", and as seen from its right end (looking at it from the right) for the "
               "worm on its horizontal axle" if right else "") + ".")
    driver = spec.part(spec.driver)
    return (f"The picture shows a mechanism, {view}. Parts drawn on one axle are fixed "
            "together and turn as one; gears mesh where their teeth interleave; belts and "
            f"ropes do not slip.{_planetary(spec)}{_worm(spec)} {senses}{_sizes(spec)} A "
            f"motor tries to turn {named(driver)} {spec.driver_sense} (red arrow). ")


def _sizes(spec: Spec) -> str:
    """Fastest / slowest items: the gears' tooth counts and the pulleys' radii, which
    settle the speeds with the links the picture shows (" Tooth counts: E 12, F 20.
    Pulley radii: G 5, H 3."); "" for motion items."""
    if spec.question in ("motion", "planet"):
        return ""
    teeth = [f"{p.name} {p.teeth}" for p in spec.parts if p.turns and p.teeth and
             p.kind not in ("carrier", "worm")]
    radii = [f"{p.name} {p.radius:g}" for p in spec.parts if p.kind == "pulley"]
    threads = [f"{p.name} {p.teeth}" for p in spec.parts if p.kind == "worm"]
    return "".join(f" {what}: {', '.join(said)}." for what, said in
                   (("Tooth counts", teeth), ("Pulley radii", radii),
                    ("Threads (starts) of the worm", threads)) if said)


def _asked_text(spec: Spec) -> str:
    if spec.question == "motion":
        a, b = (named(spec.part(n)) for n in spec.asked)
        return f"Which way do {a} and {b} turn or move?"
    if spec.question == "planet":
        return (f"How does {named(spec.part(spec.asked[0]))} move: which way does it turn "
                "about its own axle, and which way does it go round the middle axle?")
    if spec.question == "turns":
        return (f"While {named(spec.part(spec.driver))} makes "
                f"{turns_text(Fraction(spec.driver_turns or 0))}, how many turns does "
                f"{named(spec.part(spec.asked[0]))} make?")
    listed = ", ".join(named(spec.part(n)) for n in spec.asked[:-1])
    return (f"Which of {listed} and {named(spec.part(spec.asked[-1]))} turns "
            f"{spec.question} (the most turns per minute)?" if spec.question == "fastest"
            else f"Which of {listed} and {named(spec.part(spec.asked[-1]))} turns "
            f"{spec.question} (the fewest turns per minute)?")


def texts(spec: Spec, options: Sequence[OptionData]) -> Texts:
    if spec.question in LINKAGE_QUESTIONS:
        return linkage_texts(spec, options)
    setting = _setting(spec)
    choices = [option_text(spec, o) for o in options]
    question = setting + _asked_text(spec) + " Answer with A, B, C or D."
    if spec.question == "motion":
        first = spec.part(spec.asked[0])
        w = words(first)
        direct = (f"Which way does {named(first)} {'turn' if first.turns else 'move'}? "
                  f"Answer with one of: {w[0]}, {w[1]}, or \"{OPEN_JAMMED}\" if nothing can "
                  "move.")
        judge: list[str | None] = [
            f"{setting}Is this what happens: "
            f"{'nothing can move' if o.motions is None else motion_text(spec, o.motions)}?"
            f"{YES_NO}" for o in options]
    elif spec.question == "planet":
        planet = spec.part(spec.asked[0])
        can_lock = any(lk.kind == "worm" for lk in spec.links)  # a worm drives the train
        direct = (f"Which way does {named(planet)} turn about its own axle (as seen from the "
                  "front)? Answer with one of: clockwise, counterclockwise" +
                  (f", or \"{OPEN_JAMMED}\" if nothing can move." if can_lock else "."))
        judge = [f"{setting}Is this what happens: "
                 f"{'nothing can move' if o.jammed else planet_text(planet, o.planet or [])}?"
                 f"{YES_NO}" for o in options]
    elif spec.question == "turns":
        direct = (_asked_text(spec) + " Answer with a whole number or a fraction in lowest "
                  "terms (such as 7/2).")
        judge = [f"{setting}Does {named(spec.part(spec.asked[0]))} make "
                 f"{turns_text(turns_value(o.turns or '0'))} while "
                 f"{named(spec.part(spec.driver))} makes "
                 f"{turns_text(Fraction(spec.driver_turns or 0))}?{YES_NO}" for o in options]
    else:
        direct = _asked_text(spec) + " Answer with the letter that labels it."
        judge = [f"{setting}Does {named(spec.part(o.part or ''))} turn {spec.question} of "
                 f"the parts {', '.join(spec.asked)}?{YES_NO}" for o in options]
    return Texts(question, setting + direct, spec.open_answer, choices, judge)


def mechanism_draft(spec: Spec, picture: np.ndarray, data: Sequence[OptionData],
                    ops: Sequence[str], explain: Callable[[OptionData], str]) -> Draft:
    """An item of every mechanism family: the question and texts of ``spec``, the one
    panel ``picture``, and the options ``data`` (the answer first) with their operators
    ``ops`` and each one's explanation ``explain(option)``."""
    options = [Option(i == 0, op, explain(d), text=option_text(spec, d), data=d.to_json())
               for i, (d, op) in enumerate(zip(data, ops, strict=True))]
    full = texts(spec, data)
    return Draft(full.question, spec.to_json(), [Panel(picture, "Mechanism")], options,
                 question_direct=full.question_direct, answer_direct=full.answer_direct)


def scene_key(spec: Spec) -> str:
    return scene_text([spec.question, spec.driver, spec.asked,
                       [p.to_json() for p in spec.parts], [lk.to_json() for lk in spec.links]])


# --- linkages and cams: levers, slider-cranks, four-bars, cams with their followers ----

LINKAGE_QUESTIONS = ("travel", "moves", "full_turn")


def linkage_words(part: PartSpec) -> tuple[str, str]:
    """The asked part's two motion words (a follower's: down, up)."""
    return SENSES if part.turns else words(part)


def lever_travel(text: str) -> tuple[str, Fraction]:
    """A lever end's claimed travel "up 9/2" as ("up", 9/2); SpecError if it is none."""
    way, _, size = text.partition(" ")
    if way not in ("up", "down"):
        raise SpecError(f"travel {text!r} does not start with up or down")
    return way, turns_value(size)


def _units(value: Fraction) -> str:
    return f"{value} unit{'' if value == 1 else 's'}"


def linkage_claim(spec: Spec, o: OptionData) -> str:
    """What an option of a linkage item says happens ("the end of lever arm F moves up
    6 units", "slider G moves left", "rocker G turns clockwise, and crank E cannot turn
    all the way round")."""
    asked = spec.part(spec.asked[0])
    if o.travel is not None:
        way, size = lever_travel(o.travel)
        return f"the end of {named(asked)} moves {way} {_units(size)}"
    said = (f"{named(asked)} stays where it is" if o.moves == STILL else
            f"{named(asked)} {verb(asked)} {o.moves}")
    if o.full_turn is None:
        return said
    crank = named(spec.part(spec.driver))
    return f"{said}, and {crank} {'can' if o.full_turn else 'cannot'} turn all the way round"


def geared(spec: Spec) -> bool:
    """A gear train driving a linkage (a slider-crank whose crank is fixed on the axle of
    the train's last gear)."""
    return any(lk.kind == "mesh" for lk in spec.links) and \
        any(p.kind in LINKAGE_KINDS for p in spec.parts)


def _linkage_setting(spec: Spec) -> str:
    kinds = {p.kind for p in spec.parts}
    parts = ["Bars are joined by pins (small circles) about which they turn against each "
             "other; a triangle on hatching is a pivot fixed to the ground."]
    if geared(spec):
        crank = next(p for p in spec.parts if p.kind == "crank")
        gear = next(p for p in spec.parts if p.turns and p.shaft == crank.shaft and
                    p.name != crank.name)
        parts = [f"Gears mesh where their teeth interleave. {sentence(named(crank))} is fixed "
                 f"on the axle of {named(gear)}, in front of it, and turns with it. Bars are "
                 "joined by pins (small circles) about which they turn against each other."]
    if "slider" in kinds:
        parts.append("The slider moves along its guide.")
    if "cam" in kinds:
        parts.append("The cam turns on a fixed axle (the small circle); the follower moves "
                     "up and down in its guide, its tip resting on the cam.")
    driver = spec.part(spec.driver)
    return ("The picture shows a mechanism, seen from the front. " + " ".join(parts) +
            " Clockwise and counterclockwise are as seen from the front." +
            _linkage_sizes(spec) + f" A motor turns {named(driver)} {spec.driver_sense} "
            "(red arrow). ")


def _linkage_sizes(spec: Spec) -> str:
    """The lengths a lever's travel or a four-bar's full turn follows from."""
    if spec.question == "travel":
        arms = [p for p in spec.parts if p.kind == "lever"]
        return " Arm lengths from the pivot: " + ", ".join(
            f"{p.name} {p.radius:g}" for p in arms) + " units."
    if spec.question == "full_turn":
        bars = [p for p in spec.parts if p.kind in ("crank", "rod", "rocker")]
        crank, rocker = spec.part(spec.driver), spec.part(spec.asked[0])
        ground = math.dist(crank.centre[:2], rocker.centre[:2])
        return " Link lengths: " + ", ".join(f"{named(p)} {p.radius:g}" for p in bars) + \
            f", and {ground:g} between the fixed pivots."
    return ""


def _linkage_asked(spec: Spec) -> str:
    asked = named(spec.part(spec.asked[0]))
    if spec.question == "travel":
        driver = named(spec.part(spec.driver))
        return (f"It turns until the end of {driver} has moved "
                f"{_units(Fraction(spec.driver_travel or 0))}. Which way and how far does "
                f"the end of {asked} move?")
    if spec.question == "full_turn":
        return (f"At the moment drawn, which way does {asked} turn, and can "
                f"{named(spec.part(spec.driver))} turn all the way round?")
    return f"At the moment drawn, which way does {asked} move, if at all?"


def linkage_open(spec: Spec, o: OptionData) -> str:
    """An option's answer in the open form: "up 6", "left", "still", "clockwise, no"."""
    if o.jammed:
        return OPEN_JAMMED
    if o.travel is not None:
        return o.travel
    assert o.moves is not None
    return o.moves if o.full_turn is None else f"{o.moves}, {'yes' if o.full_turn else 'no'}"


def linkage_texts(spec: Spec, options: Sequence[OptionData]) -> Texts:
    setting = _linkage_setting(spec)
    asked = _linkage_asked(spec)
    question = setting + asked + " Answer with A, B, C or D."
    first = spec.part(spec.asked[0])
    lo, hi = linkage_words(first)
    if spec.question == "travel":
        form = ("Answer with up or down and the distance in units, a whole number or a "
                "fraction in lowest terms (such as \"down 7/2\").")
    elif spec.question == "full_turn":
        form = (f"Answer with {lo} or {hi}, a comma, and yes or no (such as \"{hi}, no\").")
    else:
        form = (f"Answer with one of: {lo}, {hi}, {STILL} (it stays where it is), or "
                f"\"{OPEN_JAMMED}\" if nothing can move.")
    judge: list[str | None] = [
        f"{setting}Is this what happens: "
        f"{'nothing can move' if o.jammed else linkage_claim(spec, o)}?{YES_NO}"
        for o in options]
    return Texts(question, setting + asked + " " + form, spec.open_answer,
                 [option_text(spec, o) for o in options], judge)
