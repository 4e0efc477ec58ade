"""MechanicalSystem's explanations: the motion followed from the driver along the links to
the asked parts, and for a wrong option to the part where it errs, written from a
:class:`Motion`.

A motion hands itself on as the step-by-step solution does: each time the first link, in
the spec's order, from a moving part to a still one; a jammed mechanism then has a link
whose two ends disagree (the first in the spec's order).  The generator (``steps.py``:
the exact ratios it placed the links with) and the verifier (``verify.py``: each link's
ratio from its contact geometry) derive their own :class:`Motion` with :func:`walk`; the
texts are written from it, so the verifier's texts are the record's only when the two
derivations agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from spatialcad.tasks.mechanical_system.spec import (
    LinkSpec,
    OptionData,
    PartSpec,
    Spec,
    motion_text,
    named,
    sentence,
    turns_text,
    verb,
)

RIGHT, WRONG = "Right: ", "Wrong: "


@dataclass(frozen=True)
class Motion:
    """Every part's signed speed (the driver's is 1 or -1, about its axis or along it)
    and motion word as the links hand the motion on; ``hands``: those links in order;
    ``source``: part -> the part that set it moving; ``clash``: the first link whose ends
    disagree (None: the mechanism moves), and ``clash_word``: the motion of its end
    where the two paths meet (:meth:`meeting`) going through its other end."""

    speeds: dict[str, Fraction]
    words: dict[str, str]
    hands: list[LinkSpec]
    source: dict[str, str]
    clash: LinkSpec | None = None
    clash_word: str = ""

    def path(self, name: str) -> list[str]:
        """The parts from the driver to ``name`` along the links that moved them."""
        out = [name]
        while out[-1] in self.source:
            out.append(self.source[out[-1]])
        return out[::-1]

    def meeting(self, link: LinkSpec) -> tuple[str, str]:
        """(the end of ``link`` where its two paths from the driver meet, its other end):
        its end ``b``, unless ``b`` is on the path to ``a`` (then a loop through the
        driver would meet at the driver itself)."""
        return (link.a, link.b) if link.b in self.path(link.a) else (link.b, link.a)

    @property
    def sense_clash(self) -> bool:
        """The jam shows in the senses (the two paths move the clashing part opposite
        ways), not only in the speeds."""
        return self.clash is not None and \
            self.clash_word != self.words[self.meeting(self.clash)[0]]


def walk(spec: Spec, start: Fraction, across: Callable[[LinkSpec, str], Fraction],
         word: Callable[[PartSpec, Fraction], str]) -> Motion:
    """The motion with the driver at signed speed ``start``: ``across(link, known)`` is
    the other end's speed over the known end's, ``word(part, speed)`` a motion word."""
    speeds = {spec.driver: start}
    source: dict[str, str] = {}
    hands = []
    while True:
        link = next((lk for lk in spec.links if (lk.a in speeds) != (lk.b in speeds)), None)
        if link is None:
            break
        known, other = (link.a, link.b) if link.a in speeds else (link.b, link.a)
        speeds[other] = speeds[known] * across(link, known)
        source[other] = known
        hands.append(link)
    words = {n: word(spec.part(n), s) for n, s in speeds.items()}
    moved = Motion(speeds, words, hands, source)
    for lk in spec.links:
        if lk.a in speeds and lk.b in speeds:
            at, other = moved.meeting(lk)
            through = speeds[other] * across(lk, other)
            if through != speeds[at]:
                return replace(moved, clash=lk, clash_word=word(spec.part(at), through))
    return moved


def _relation(link: LinkSpec, known: PartSpec, other: PartSpec) -> str:
    """How ``other`` is linked to ``known``: "meshing with gear E", "on one axle with ..."."""
    k = named(known)
    if link.kind == "shaft":
        return f"on one axle with {k}"
    if link.kind in ("belt", "crossed"):
        return f"joined to {k} by {'an open' if link.kind == 'belt' else 'a crossed'} belt"
    if link.kind == "rope":
        if other.kind == "weight":
            side = "right" if other.centre[0] > known.centre[0] else "left"
            return f"hanging from the {side} side of {k}"
        return f"winding the rope of {k}"
    if other.kind == "ring":
        return f"meshing around {k}"
    if known.kind == "ring":
        return f"meshing inside {k}"
    if other.kind == "rack":
        dx, dy = (other.centre[i] - known.centre[i] for i in (0, 1))
        side = (("underside" if dy < 0 else "top") if abs(dy) >= abs(dx) else
                ("left side" if dx < 0 else "right side"))
        return f"meshing with the {side} of {k}"
    if known.kind == other.kind == "bevel":
        return f"meshing with {k} at a right angle"
    return f"meshing with {k}"


def _multiplier(link: LinkSpec, known: PartSpec, other: PartSpec) -> str:
    """The factor ``link`` puts on the speed, from the parts' sizes: "12/20" (teeth),
    "5/3" (pulley radii), "1/6" (a gear of pitch radius 6 driven by a rack)."""
    if link.kind in ("belt", "crossed"):
        return f"{known.radius:g}/{other.radius:g}"
    if known.teeth and other.teeth:
        return f"{known.teeth}/{other.teeth}"
    size = known if known.turns else other
    return f"{size.radius:g}" if known.turns else f"1/{size.radius:g}"


def _speed(motion: Motion, name: str) -> Fraction:
    """A part's speed as a part of the driver's."""
    return abs(motion.speeds[name])


def clause(spec: Spec, motion: Motion, link: LinkSpec, senses: bool, rates: bool) -> str:
    """What ``link`` hands on (one of the motion's ``hands``): "gear F, meshing with gear
    E, turns the other way, counterclockwise" with ``senses``; with ``rates`` (for a
    turning part) "... at 1 × 12/20 = 3/5 times E's speed"."""
    other_name = link.b if motion.source.get(link.b) == link.a else link.a
    known, other = spec.part(motion.source[other_name]), spec.part(other_name)
    said = f"{named(other)}, {_relation(link, known, other)}, {verb(other)}"
    if senses:
        how = ""
        if link.kind == "shaft":
            how = "with it, "
        elif known.turns and other.turns and known.seen_from == other.seen_from:
            same = motion.words[known.name] == motion.words[other.name]
            how = "the same way, " if same else "the other way, "
        said += f" {how}{motion.words[other.name]}{_seen(other)}"
    if rates and other.turns:
        new = _speed(motion, other.name)
        rate = (f"{new}" if link.kind == "shaft" else
                f"{_speed(motion, known.name)} × {_multiplier(link, known, other)} = {new}")
        rate += f" times {spec.driver}'s speed"
        said += f"{',' if senses else ''} at {rate}"
    return said


def _seen(part: PartSpec) -> str:
    return " (seen from above)" if part.seen_from == "above" else ""


def chain(spec: Spec, motion: Motion, targets: Sequence[str], senses: bool = True,
          rates: bool = False) -> list[str]:
    """The clauses of the links that move ``targets``, in the order they hand the motion
    on; with ``senses`` the first says the driver's motion."""
    needed = {n for t in targets for n in motion.path(t)}
    said = [clause(spec, motion, lk, senses, rates) for lk in motion.hands
            if lk.a in needed and lk.b in needed]
    if senses:
        driver = spec.part(spec.driver)
        said.insert(0, f"{named(driver)} turns {motion.words[driver.name]}{_seen(driver)}")
    return said


def disagreement(spec: Spec, motion: Motion) -> str:
    """"gear G is also meshing with gear H: going E-F-G, G turns clockwise, and going
    E-H-G, counterclockwise; the two paths disagree, so nothing can move" (a jammed
    motion)."""
    link = motion.clash
    assert link is not None
    at, other = motion.meeting(link)
    part = spec.part(at)
    return (f"{named(part)} is also {_relation(link, spec.part(other), part)}: going "
            f"{_path(motion, at)}, {at} {verb(part)} {motion.words[at]}, and going "
            f"{_path(motion, other, at)}, {motion.clash_word}; the two paths disagree, so "
            "nothing can move")


def _path(motion: Motion, name: str, then: str | None = None) -> str:
    """"E-F-G": the parts from the driver to ``name`` (and on to ``then``)."""
    return "-".join(motion.path(name) + ([then] if then else []))


def _loops(spec: Spec, motion: Motion) -> str:
    """Why a mechanism that moves does not jam: no closed loop of links, or every loop
    agrees."""
    extra = [lk for lk in spec.links if lk not in motion.hands]
    if not extra:
        return "its links form no closed loop, so no two paths can disagree"
    agree = []
    for lk in extra:
        at, other = motion.meeting(lk)
        agree.append(f"going {_path(motion, at)} and going {_path(motion, other, at)}, {at} "
                     f"{verb(spec.part(at))} {motion.words[at]}")
    return f"every closed loop of its links agrees ({'; '.join(agree)})"


def explanation(spec: Spec, option: OptionData, motion: Motion) -> str:
    """The option's explanation: "Right: ..." or "Wrong: ..." and why."""
    if spec.question == "turns":
        return _turns_explanation(spec, option, motion)
    if spec.question != "motion":
        return _speed_explanation(spec, option, motion)
    if motion.clash is not None:
        first, *rest = chain(spec, motion, [motion.clash.a, motion.clash.b])
        jam = f"suppose {first}: {'; '.join([*rest, f'but {disagreement(spec, motion)}'])}"
        if option.jammed:
            return RIGHT + sentence(jam) + "."
        assert option.motions is not None
        return WRONG + sentence(jam) + f"; this option says {motion_text(spec, option.motions)}."
    if option.jammed:
        return (WRONG + f"the mechanism moves, for {_loops(spec, motion)}: "
                f"{'; '.join(chain(spec, motion, spec.asked))}.")
    assert option.motions is not None
    claims = option.motions
    erring = [n for n in spec.asked if claims[n] != motion.words[n]]
    if not erring:
        return RIGHT + sentence("; ".join(chain(spec, motion, spec.asked))) + "."
    said = " and ".join(f"{named(spec.part(n))} {verb(spec.part(n))} {claims[n]}"
                        for n in erring)
    return (WRONG + sentence("; ".join(chain(spec, motion, erring))) +
            f"; but this option says {said}.")


def _speed_explanation(spec: Spec, option: OptionData, motion: Motion) -> str:
    """Fastest / slowest: the speeds from the tooth counts and radii along the links."""
    fastest = spec.question == "fastest"
    ranked = sorted(spec.asked, key=lambda n: _speed(motion, n), reverse=fastest)
    best = ranked[0]
    targets = spec.asked if option.part == best else [option.part or best, best]
    said = sentence("; ".join(chain(spec, motion, targets, senses=False, rates=True)))
    if option.part == best:
        return (RIGHT + said + f"; so {named(spec.part(best))} turns {spec.question}: " +
                ", ".join(f"{n} {_speed(motion, n)}" for n in ranked) + ".")
    assert option.part is not None
    return (WRONG + said + f"; so {named(spec.part(option.part))} turns at "
            f"{_speed(motion, option.part)} and {named(spec.part(best))} at "
            f"{_speed(motion, best)} times {spec.driver}'s speed: {best} turns "
            f"{'faster' if fastest else 'slower'}.")


def _turns_explanation(spec: Spec, option: OptionData, motion: Motion) -> str:
    """How many turns: the asked part's speed ratio along the links, times the driver's
    turns."""
    asked = spec.asked[0]
    n = Fraction(spec.driver_turns or 0)
    turns = n * _speed(motion, asked)
    said = sentence("; ".join(chain(spec, motion, [asked], senses=False, rates=True)))
    made = (f"so while {spec.driver} makes {turns_text(n)}, {named(spec.part(asked))} makes "
            f"{n} × {_speed(motion, asked)} = {turns_text(turns)}")
    if option.turns == str(turns):
        return RIGHT + f"{said}; {made}."
    return WRONG + f"{said}; {made}, not {option.turns}."


def extreme_explanation(spec: Spec, option: OptionData, w: dict[str, Fraction],
                        said: str) -> str:
    """A fastest or slowest item's explanation from the signed speeds ``w`` after the
    reasoning ``said``: the asked parts ranked, or the part the option names against the
    answer."""
    fastest = spec.question == "fastest"
    ranked = sorted(spec.asked, key=lambda n: abs(w[n]), reverse=fastest)
    sizes = ", ".join(f"{n} {abs(w[n])}" for n in ranked)
    if option.part == ranked[0]:
        return RIGHT + f"{said}; so {named(spec.part(ranked[0]))} turns {spec.question}: {sizes}."
    return (WRONG + f"{said}; so {named(spec.part(option.part or ''))} turns at "
            f"{abs(w[option.part or ''])} and {named(spec.part(ranked[0]))} at "
            f"{abs(w[ranked[0]])}: {ranked[0]} turns {'faster' if fastest else 'slower'}.")
