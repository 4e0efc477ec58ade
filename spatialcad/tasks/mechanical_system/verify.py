"""MechanicalSystem verifier.

Independent of the generator's propagation (its link-by-link ratios): from the part
geometry in the spec, each link is written as velocity constraints at its contact point
(gears in mesh, a ring and its pinion, a rack and its pinion, a bevel pair: the two
pitch surfaces move alike at the pitch point; a belt: the pulleys' rims move alike at
both ends of one straight span, found here from the belt's kind; a rope: the drum's rim
where the rope leaves it moves with the weight; a worm: its thread moves along its axle at
its lead per turn, the sign from its hand, with the wheel's pitch point), with one unknown
per axle (parts on one axle turn as one) and per sliding part; a worm that the motor does
not drive is held (self-locking: its wheel cannot turn it).  The null space of that linear
system (SVD) decides: the driver cannot turn when every solution leaves it still (the mechanism is
jammed); otherwise the one solution with the driver turning the stated way gives every
part's sense and speed.  Every link is also checked against the geometry it claims
(pitch circles tangent, rack at pitch distance, belt ends on the rims...).

The picture: the reference panel must be the drawing of the spec's mechanism with the
driver's arrow in the stated sense (and not the other); in that drawing parts that mesh
touch, and parts of one depth that are not linked are at least ``MIN_GAP_PX`` apart, as
are belts and ropes from the parts they do not run on; labels are legible and apart.

Explanations: the motion is also handed on link by link (:func:`motion`), each link's
ratio from its own contact geometry as the exact fraction of sizes it is, and every
option's explanation is written from it (explain.py) and must be the record's; a jammed
item's two paths must disagree on a sense, not only on a speed.

Steps are replayed one link at a time, each link's own constraint giving the next part's
speed from a known one (:func:`step_next`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from spatialcad.geometry import mechanisms as mech
from spatialcad.record.spec import SpecError
from spatialcad.render import mechanism_drawing as md
from spatialcad.render import mechanism_legibility as legibility
from spatialcad.tasks.mechanical_system import planetary, verify_linkage, worm, worm_planetary
from spatialcad.tasks.mechanical_system.explain import Motion, explanation, walk
from spatialcad.tasks.mechanical_system.linkage_explain import Facts
from spatialcad.tasks.mechanical_system.linkage_explain import explanation as linkage_explanation
from spatialcad.tasks.mechanical_system.spec import (
    LINKAGE_QUESTIONS,
    OPEN_JAMMED,
    STILL,
    VIEWS,
    LinkSpec,
    OptionData,
    PartSpec,
    Spec,
    geared,
    linkage_open,
    parse_option,
    parse_spec,
    words,
)
from spatialcad.verify.base import crop

TOL = 1e-6
RATIO_DENOMINATOR = 10**4  # a link's speed ratio is a ratio of tooth counts or radii
NULL = 1e-9  # relative singular value counted as zero
MARGIN = 1.1  # the fastest (slowest) part's speed beats the next one's by this ratio


class Unsound(ValueError):
    """A link whose geometry does not hold."""


def geometry_parts(spec: Spec) -> list[mech.Part]:
    return [mech.Part(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, p.teeth, p.phase,
                      bool(p.fixed), p.hand or "") for p in spec.parts]


def _unknown(p: PartSpec) -> str:
    return f"shaft {p.shaft}" if p.turns else p.name


def _velocity(p: PartSpec, point: np.ndarray) -> np.ndarray:
    """The velocity at ``point`` per unit of the part's unknown; a worm's: that of its
    thread along its axle where it meets its wheel, ``-hand x lead / 2 pi`` per unit of
    its turning (a right-hand screw turning about +axis advances along +axis through a
    nut, so the nut, here the wheel's teeth, goes along -axis)."""
    if p.kind == "worm":
        hand = 1.0 if p.hand == "right" else -1.0
        return -hand * (p.teeth * math.pi) / (2 * math.pi) * np.asarray(p.axis, dtype=float)
    if p.turns:
        return np.cross(np.asarray(p.axis), point - np.asarray(p.centre))
    return np.asarray(p.axis, dtype=float)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOL * max(1.0, abs(a), abs(b))


def _in_plane(p: PartSpec, v: np.ndarray) -> np.ndarray:
    a = np.asarray(p.axis)
    return v - (v @ a) * a


def _gears(a: PartSpec, b: PartSpec) -> np.ndarray:
    """The pitch point of two gears with parallel axes (outer mesh, or a ring's)."""
    for p in (a, b):
        if not _close(p.radius, p.teeth / 2):
            raise Unsound(f"{p.name}'s pitch radius is not its teeth / 2")
    if not _close(abs(float(np.dot(a.axis, b.axis))), 1.0):
        raise Unsound(f"{a.name} and {b.name} turn on axes neither parallel nor square")
    d = np.asarray(b.centre) - np.asarray(a.centre)
    if not _close(float(d @ np.asarray(a.axis)), 0.0):
        raise Unsound(f"{a.name} and {b.name} are not in one plane")
    dist = float(np.linalg.norm(d))
    if "ring" in (a.kind, b.kind):
        ring, pinion = (a, b) if a.kind == "ring" else (b, a)
        if ring.kind == pinion.kind or not _close(dist, ring.radius - pinion.radius):
            raise Unsound(f"{pinion.name} does not touch ring {ring.name} inside")
        u = (np.asarray(pinion.centre) - np.asarray(ring.centre)) / dist
        return np.asarray(ring.centre) + ring.radius * u
    if not _close(dist, a.radius + b.radius):
        raise Unsound(f"the pitch circles of {a.name} and {b.name} are not tangent")
    return np.asarray(a.centre) + a.radius * d / dist


def _bevels(a: PartSpec, b: PartSpec) -> np.ndarray:
    """The pitch point of two bevel gears on square axes."""
    if a.kind != "bevel" or b.kind != "bevel" or not _close(float(np.dot(a.axis, b.axis)), 0):
        raise Unsound(f"{a.name} and {b.name} are not a bevel pair")
    for s in (1.0, -1.0):
        p = np.asarray(a.centre) + s * a.radius * np.asarray(b.axis)
        if _close(float((p - np.asarray(b.centre)) @ np.asarray(b.axis)), 0.0) and \
                _close(float(np.linalg.norm(p - np.asarray(b.centre))), b.radius):
            return p
    raise Unsound(f"the pitch circles of {a.name} and {b.name} do not meet")


def _rack(gear: PartSpec, rack: PartSpec) -> np.ndarray:
    """Where a rack's pitch line touches its pinion's pitch circle."""
    d, c = np.asarray(rack.axis), np.asarray(gear.centre)
    n = np.cross(np.asarray(gear.axis), d)
    off = c - np.asarray(rack.centre)
    dist = float(off @ n)
    if not (_close(float(d @ np.asarray(gear.axis)), 0.0) and
            _close(float(off @ np.asarray(gear.axis)), 0.0) and _close(abs(dist), gear.radius)):
        raise Unsound(f"rack {rack.name}'s pitch line does not touch {gear.name}'s pitch circle")
    if float(off @ md.rack_normal(mech.Part(rack.name, "rack", -1, rack.centre, rack.axis,
                                            rack.radius))) >= 0:
        raise Unsound(f"rack {rack.name}'s teeth face away from {gear.name}")
    p = c - dist * n
    if abs(float((p - np.asarray(rack.centre)) @ d)) > rack.radius - 1.0:
        raise Unsound(f"{gear.name} is off the end of rack {rack.name}")
    return p


def _belt(a: PartSpec, b: PartSpec, crossed: bool) -> tuple[np.ndarray, np.ndarray]:
    """The ends of one straight span of a belt."""
    if not (a.kind == b.kind == "pulley") or not _close(float(np.dot(a.axis, b.axis)), 1.0):
        raise Unsound(f"{a.name} and {b.name} are not pulleys side by side")
    ca, cb = np.asarray(a.centre), np.asarray(b.centre)
    d = _in_plane(a, cb - ca)
    dist = float(np.linalg.norm(d))
    if not _close(float((cb - ca) @ np.asarray(a.axis)), 0.0) or \
            dist <= a.radius + b.radius + 1.0:
        raise Unsound(f"pulleys {a.name} and {b.name} are not apart in one plane")
    u = d / dist
    s = ((a.radius + b.radius) if crossed else (a.radius - b.radius)) / dist
    m = s * u + math.sqrt(1 - s * s) * np.cross(np.asarray(a.axis), u)
    return ca + a.radius * m, cb + (-b.radius if crossed else b.radius) * m


def _rope(drum: PartSpec, weight: PartSpec) -> np.ndarray:
    """Where the rope leaves the drum, straight above the weight."""
    c, w = np.asarray(drum.centre), np.asarray(weight.centre)
    if drum.kind != "drum" or weight.kind != "weight" or not _close(abs(weight.axis[1]), 1.0) \
            or not _close(abs(w[0] - c[0]), drum.radius) or not _close(w[2], c[2]) or \
            w[1] + weight.radius >= c[1]:
        raise Unsound(f"{weight.name} does not hang from drum {drum.name}")
    return np.array([w[0], c[1], c[2]])


def _carries(carrier: PartSpec, planet: PartSpec) -> None:
    """A carrier holds a planet gear's axle at its arm's length, parallel to its own."""
    off = _in_plane(carrier, np.asarray(planet.centre) - np.asarray(carrier.centre))
    if carrier.kind != "carrier" or planet.kind != "gear" or \
            not _close(float(np.dot(carrier.axis, planet.axis)), 1.0) or \
            not _close(float(np.linalg.norm(off)), carrier.radius):
        raise Unsound(f"{carrier.name} does not hold {planet.name}'s axle on its arm")


def _worm_pair(screw: PartSpec, wheel: PartSpec) -> np.ndarray:
    """Where a worm's thread meets its wheel's pitch circle: the worm's axle square to
    the wheel's, the two pitch surfaces tangent."""
    axis = np.asarray(screw.axis, dtype=float)
    off = np.asarray(screw.centre) - np.asarray(wheel.centre)
    if screw.kind != "worm" or wheel.kind not in ("gear", "wheel") or not screw.teeth or \
            not _close(float(np.dot(screw.axis, wheel.axis)), 0.0) or \
            not _close(float(off @ axis), 0.0) or \
            not _close(float(off @ np.asarray(wheel.axis)), 0.0) or \
            not _close(float(np.linalg.norm(off)), screw.radius + wheel.radius) or \
            not _close(wheel.radius, wheel.teeth / 2):
        raise Unsound(f"worm {screw.name} does not mesh with wheel {wheel.name}")
    out: np.ndarray = np.asarray(wheel.centre) + wheel.radius * off / float(np.linalg.norm(off))
    return out


def _carrier_of(spec: Spec, name: str) -> PartSpec | None:
    """The carrier holding part ``name``'s axle, if one does."""
    return next((spec.part(lk.a) for lk in spec.links
                 if lk.kind == "carries" and lk.b == name), None)


def contact(spec: Spec, link: LinkSpec) -> tuple[np.ndarray, np.ndarray] | None:
    """The points of parts a and b that move alike (None for an axle, or a planet's axle
    on its carrier: its mesh rows carry the carrier's motion, :func:`system`)."""
    a, b = spec.part(link.a), spec.part(link.b)
    if link.kind == "carries":
        _carries(a, b)
        return None
    if link.kind == "shaft":
        off = np.asarray(b.centre) - np.asarray(a.centre)
        if a.shaft != b.shaft or not a.turns or not _close(float(np.dot(a.axis, b.axis)), 1.0) \
                or not _close(float(np.linalg.norm(_in_plane(a, off))), 0.0):
            raise Unsound(f"{a.name} and {b.name} are not on one axle")
        return None
    if a.turns and b.turns and a.shaft == b.shaft:
        raise Unsound(f"{a.name} and {b.name} are on one axle and linked")
    if link.kind in ("belt", "crossed"):
        return _belt(a, b, link.kind == "crossed")
    if link.kind == "rope":
        p = _rope(a, b)
        return p, p
    if link.kind == "worm":
        p = _worm_pair(a, b)
        return p, p
    if b.kind == "rack" and a.kind == "gear":
        p = _rack(a, b)
    elif a.teeth and b.teeth and a.turns and b.turns:
        p = _gears(a, b) if a.kind != "bevel" or b.kind != "bevel" else _bevels(a, b)
    else:
        raise Unsound(f"{a.name} and {b.name} cannot mesh")
    return p, p


def system(spec: Spec) -> tuple[np.ndarray, list[str]]:
    """The constraint matrix (three rows per link, one per held part) and its unknowns.
    A planet gear's point moves with its carrier's arm end plus its own turning about
    its axle (its unknown, the turning seen from the still frame), so a mesh of planets
    relates the speeds relative to the carrier (Willis's rule).  A gear train driving a
    slider-crank: the crank turns on its gear's axle (one unknown), a connecting rod has
    three (its first end's velocity and its turning), and each pin's rows say that the
    pin moves alike on its two parts (loop closure, verify_linkage.pin_rows), all in this
    one system."""
    unknowns = []
    for u in sorted({_unknown(p) for p in spec.parts}):
        rod = any(p.kind == "rod" and p.name == u for p in spec.parts)
        unknowns += [u, f"{u} y", f"{u} turning"] if rod else [u]  # a rod: its first end's
        # velocity (x, y) and its turning
    col = {u: i for i, u in enumerate(unknowns)}
    for p in spec.parts:
        if p.turns and any(q.turns and q.shaft == p.shaft and (
                not _close(float(np.dot(q.axis, p.axis)), 1.0) or not _close(float(
                    np.linalg.norm(_in_plane(p, np.asarray(q.centre) - np.asarray(p.centre)))),
                    0.0)) for q in spec.parts):
            raise Unsound(f"shaft {p.shaft} is not one straight axle")
    rows = []
    for link in spec.links:
        if link.kind == "pin":  # loop closure: the pin moves alike on both bars
            a, b = spec.part(link.a), spec.part(link.b)
            try:
                pin = verify_linkage.pin_rows(a, b, col[_unknown(a)], col[_unknown(b)],
                                              len(unknowns))
            except verify_linkage.Unsound as exc:
                raise Unsound(str(exc)) from None
            rows.append(pin)
            continue
        points = contact(spec, link)
        if points is None:
            continue
        block = np.zeros((3, len(unknowns)))
        a, b = spec.part(link.a), spec.part(link.b)
        block[:, col[_unknown(a)]] += _velocity(a, points[0])
        block[:, col[_unknown(b)]] -= _velocity(b, points[1])
        for part, sign in ((a, 1.0), (b, -1.0)):
            carrier = _carrier_of(spec, part.name)
            if carrier is not None:  # the planet's axle moves with the carrier's arm
                block[:, col[_unknown(carrier)]] += sign * _velocity(
                    carrier, np.asarray(part.centre, dtype=float))
        rows.append(block)
    for p in spec.parts:
        if p.fixed or _self_locked(spec, p):
            held = np.zeros((1, len(unknowns)))
            held[0, col[_unknown(p)]] = 1.0
            rows.append(held)
    return (np.concatenate(rows) if rows else np.zeros((0, len(unknowns)))), unknowns


def _self_locked(spec: Spec, p: PartSpec) -> bool:
    """Self-locking: a worm turns only when the motor drives it (or its axle); driven
    from its wheel's side, the friction on its shallow thread holds it, so a wheel
    driver leaves the system jammed."""
    return p.kind == "worm" and spec.part(spec.driver).shaft != p.shaft


def _driver_speed(spec: Spec) -> float:
    d = spec.part(spec.driver)
    facing = float(np.dot(d.axis, VIEWS[d.seen_from or "front"]))
    return (-1.0 if spec.driver_sense == "clockwise" else 1.0) * math.copysign(1.0, facing)


def solve(spec: Spec) -> dict[str, float] | None:
    """Every part's signed speed (about its axis, along it) with the driver's of size 1,
    or None when the driver cannot turn.  ``Unsound`` if some part could move freely."""
    m, unknowns = system(spec)
    j = unknowns.index(_unknown(spec.part(spec.driver)))
    if m.shape[0]:
        _, sv, vt = np.linalg.svd(m)
        rank = int((sv > NULL * max(1.0, float(sv.max()))).sum())
        null = vt[rank:].T
    else:
        null = np.eye(len(unknowns))
    if null.shape[1] == 0 or float(np.abs(null[j]).max()) < 1e-9:
        return None
    if null.shape[1] > 1:
        raise Unsound("some part is not driven (it could move on its own)")
    x = null[:, 0] / null[j, 0] * _driver_speed(spec)
    return {p.name: float(x[unknowns.index(_unknown(p))]) for p in spec.parts}


def word(p: PartSpec, speed: float) -> str:
    """The motion word of a part at signed ``speed``."""
    if abs(speed) < 1e-9:
        return "still"
    if p.turns:
        facing = float(np.dot(p.axis, VIEWS[p.seen_from or "front"]))
        return "counterclockwise" if speed * facing > 0 else "clockwise"
    lo, hi = words(p)
    positive = float(p.axis[0] if lo == "left" else p.axis[1]) > 0
    return hi if (speed > 0) == positive else lo


def _check_spec(spec: Spec) -> list[str]:
    failures = []
    names = [p.name for p in spec.parts]
    if len(set(names)) != len(names):
        failures.append("two parts have one name")
    for p in spec.parts:
        if p.turns != (p.seen_from is not None):
            failures.append(f"{p.name}: a turning part needs a viewpoint, a sliding one none")
        elif p.turns and abs(float(np.dot(p.axis, VIEWS[p.seen_from or "front"]))) < 1 - TOL:
            failures.append(f"{p.name}: its axis does not point at its viewpoint")
    if spec.question == "motion" and (len(set(spec.asked)) != 2 or spec.driver in spec.asked):
        failures.append("the question must name two parts other than the driver")
    if spec.question in ("fastest", "slowest") and len(set(spec.asked)) != 4:
        failures.append("the question must name four parts")
    if (spec.question == "turns") != (spec.driver_turns is not None):
        failures.append("the driver's turns are stated exactly when the question asks turns")
    if spec.question == "turns" and (len(spec.asked) != 1 or spec.driver in spec.asked or
                                     (spec.driver_turns or 0) < 1):
        failures.append("a turns question names one part other than the driver, and the "
                        "driver's turns, a positive whole number")
    if not spec.part(spec.driver).turns:
        failures.append("the driver does not turn")
    if spec.part(spec.driver).fixed:
        failures.append("the driver is held")
    for p in spec.parts:
        if p.kind == "worm" and (p.seen_from != "right" or tuple(p.axis) != VIEWS["right"]):
            failures.append(f"{p.name}: a worm lies along x, its sense seen from the right")
    if spec.question in LINKAGE_QUESTIONS and (
            spec.question != "moves" or len(spec.asked) != 1 or
            spec.part(spec.asked[0]).kind != "slider" or
            sum(p.kind == "crank" for p in spec.parts) != 1):
        failures.append("a gear train's linkage question asks which way its one "
                        "slider-crank's slider moves")
    if spec.question == "planet" and (len(spec.asked) != 1 or
                                      _carrier_of(spec, spec.asked[0]) is None):
        failures.append("a planet question names one planet gear of a planetary train")
    return failures


def _truth(spec: Spec, speeds: dict[str, float] | None) -> tuple[OptionData, str] | None:
    """The right option's data and the open answer; None if the question has none."""
    if spec.question == "motion":
        if speeds is None:
            return OptionData(jammed=True), OPEN_JAMMED
        said = {n: word(spec.part(n), speeds[n]) for n in spec.asked}
        return OptionData(motions=said), said[spec.asked[0]]
    if spec.question == "planet" and speeds is None:  # a self-locked worm holds the train
        return OptionData(jammed=True), OPEN_JAMMED
    if spec.question == "moves":  # a slider driven through a gear train
        if speeds is None:
            return OptionData(jammed=True), OPEN_JAMMED
        facts = _geared_facts(spec, speeds)
        return None if facts is None else (OptionData(moves=facts.word), facts.word)
    if speeds is None or any(not spec.part(n).turns for n in spec.asked):
        return None
    if spec.question == "planet":
        carrier = _carrier_of(spec, spec.asked[0])
        assert carrier is not None
        goes = [word(spec.part(spec.asked[0]), speeds[spec.asked[0]]),
                STILL if abs(speeds[carrier.name]) < 1e-9 else
                word(carrier, speeds[carrier.name])]
        return OptionData(planet=goes), goes[0]
    if spec.question == "turns":
        return _turns_truth(spec, speeds)
    ranked = sorted(spec.asked, key=lambda n: abs(speeds[n]), reverse=spec.question == "fastest")
    a, b = abs(speeds[ranked[0]]), abs(speeds[ranked[1]])
    if not ((a >= b * MARGIN) if spec.question == "fastest" else (b >= a * MARGIN)):
        return None
    return OptionData(part=ranked[0]), ranked[0]


def _turns_truth(spec: Spec, speeds: dict[str, float]) -> tuple[OptionData, str] | None:
    """The asked part's turns while the driver makes its stated turns, as the fraction of
    sizes the solved speed ratio is; None if it is no such fraction, or a part on the
    driver's axle is asked (its turns are the driver's)."""
    value = (spec.driver_turns or 0) * abs(speeds[spec.asked[0]] / speeds[spec.driver])
    turns = Fraction(value).limit_denominator(RATIO_DENOMINATOR)
    if not _close(float(turns), value) or math.isclose(value, spec.driver_turns or 0):
        return None
    return OptionData(turns=str(turns)), str(turns)


def _picture_failures(spec: Spec, panel: np.ndarray, jammed: bool) -> list[str]:
    parts = geometry_parts(spec)
    links = [(lk.kind, lk.a, lk.b) for lk in spec.links]
    sign = 1 if _driver_speed(spec) > 0 else -1
    try:
        md.frame(parts, links, spec.oblique)
    except md.TooLarge as exc:
        return [f"the mechanism is not legible: {exc}"]
    drawn = md.draw(parts, links, spec.oblique, {spec.driver: sign})
    failures = []
    if drawn.shape != panel.shape or not np.array_equal(drawn, panel):
        other = md.draw(parts, links, spec.oblique, {spec.driver: -sign})
        failures.append("the driver's arrow shows the other sense" if other.shape ==
                        panel.shape and np.array_equal(other, panel) else
                        "the picture is not the drawing of the spec's mechanism")
    fr, masks = md.part_masks(parts, links, spec.oblique)
    meshed = {frozenset((lk.a, lk.b)) for lk in spec.links if lk.kind == "mesh"}
    for x, y in combinations(sorted(masks), 2):
        rule = _pair_rule(spec, x, y, meshed)
        if rule is None or not rule and md.boxes_apart(masks[x], masks[y], md.MIN_GAP_PX):
            continue
        gap = md.mask_gap(masks[x], masks[y])
        if rule and gap > fr.mesh_gap:
            failures.append(f"{x} and {y} mesh but are drawn {gap:.1f} px apart")
        if rule and _front(spec.part(x)) and _front(spec.part(y)):
            shared = int((masks[x] & masks[y]).sum())
            if shared > fr.mesh_overlap:
                failures.append(f"the teeth of {x} and {y} overlap ({shared} px)")
        if not rule and gap < md.MIN_GAP_PX:
            failures.append(f"{x} and {y} do not touch but are drawn {gap:.1f} px apart")
    failures += legibility.failures(parts, links, spec.oblique, {spec.driver: sign},
                                    *legibility.needed(links, spec.driver, spec.asked, jammed))
    return failures


def _front(p: PartSpec) -> bool:
    return not p.turns or abs(p.axis[2]) > 0.5


def _axle_mates(spec: Spec, name: str) -> set[str]:
    p = spec.part(name)
    return {q.name for q in spec.parts if p.turns and q.turns and q.shaft == p.shaft} | {name}


def _pair_rule(spec: Spec, x: str, y: str, meshed: set[frozenset[str]]) -> bool | None:
    """True: must touch (they mesh); False: must be apart; None: not measured (linked in
    another way, on one axle, at different depths, or a gear on a vertical axle and the
    axle of its partner)."""
    ends_x, ends_y = x.split("-"), y.split("-")
    if len(ends_x) == 2 or len(ends_y) == 2:
        if set(ends_x) & set(ends_y) or len(ends_x) == len(ends_y) == 2:
            return None
        part, line = (y, ends_x) if len(ends_x) == 2 else (x, ends_y)
        return None if spec.part(part).centre[2] != spec.part(line[0]).centre[2] or \
            not _front(spec.part(part)) else False
    if frozenset((x, y)) in meshed:
        return True
    if y in _axle_mates(spec, x) or any({lk.a, lk.b} == {x, y} for lk in spec.links):
        return None
    px, py = spec.part(x), spec.part(y)
    if _front(px) and _front(py):
        return None if px.centre[2] != py.centre[2] else False
    for one, other in ((x, y), (y, x)):
        if not _front(spec.part(one)):
            partners = {lk.a if lk.b == one else lk.b for lk in spec.links
                        if one in (lk.a, lk.b)}
            if any(other in _axle_mates(spec, q) for q in partners):
                return None
    return False


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    if spec.question in LINKAGE_QUESTIONS and not geared(spec):  # levers, slider-cranks,
        # four-bars, cams
        return verify_linkage.verify(spec, record, image)
    failures = _check_spec(spec)
    if failures:
        return failures
    try:
        speeds = solve(spec)
    except Unsound as exc:
        return [f"unsound mechanism: {exc}"]
    truth = _truth(spec, speeds)
    if truth is None:
        return ["the question has no single right answer"]
    right, said = truth
    if spec.open_answer != said:
        failures.append(f"the open answer {spec.open_answer!r} is not {said!r}")
    options = [parse_option(o["data"]) for o in record["options"]]
    if len({str(o.to_json()) for o in options}) != len(options):
        failures.append("two options say the same")
    for o, data in zip(record["options"], options, strict=True):
        if data.motions is not None and (
                sorted(data.motions) != sorted(spec.asked) or
                any(w not in words(spec.part(n)) for n, w in data.motions.items())):
            failures.append(f"option {o['letter']} does not name a motion of each asked part")
        if data.part is not None and data.part not in spec.asked:
            failures.append(f"option {o['letter']} names a part not asked about")
        if (data.turns is None) != (spec.question != "turns"):
            failures.append(f"option {o['letter']} does not answer the question asked")
    hits = [o["letter"] for o, data in zip(record["options"], options, strict=True)
            if data == right]
    if hits != [record["Answer"]]:
        failures.append(f"options that are right: {hits}, answer {record['Answer']}")
    if geared(spec):
        failures += _geared_explanation_failures(spec, record, options, speeds)
    elif worm_planetary.is_worm_planetary(spec):
        failures += _worm_explanation_failures(spec, record, options, speeds,
                                               worm_planetary.explanation)
    elif planetary.is_planetary(spec):
        failures += _planetary_explanation_failures(spec, record, options, speeds)
    elif worm.is_worm_drive(spec):
        failures += _worm_explanation_failures(spec, record, options, speeds, worm.explanation)
    else:
        failures += _explanation_failures(spec, record, options, speeds)
    failures += _picture_failures(spec, crop(image, record["layout"]["reference"][0]),
                                  speeds is None)
    failures += legibility.fill_failures(image, record["layout"]["reference"][0])
    return failures


def motion(spec: Spec) -> Motion:
    """The motion handed on link by link, each link's ratio from its own contact
    geometry (:func:`_local`), as the exact fraction of tooth counts or radii it is."""
    def across(link: LinkSpec, known: str) -> Fraction:
        value = _local(spec, link, known, 1.0)
        ratio = Fraction(value).limit_denominator(RATIO_DENOMINATOR)
        if not _close(float(ratio), value):
            raise Unsound(f"the speed ratio {value} of {link.a} and {link.b} is no ratio of "
                          "sizes")
        return ratio

    start = Fraction(round(_driver_speed(spec)))
    return walk(spec, start, across, lambda p, speed: word(p, float(speed)))


def exact_speeds(speeds: dict[str, float]) -> dict[str, Fraction] | None:
    """The solved speeds as the fractions of tooth counts they are; None if some is
    none."""
    out = {n: Fraction(x).limit_denominator(RATIO_DENOMINATOR) for n, x in speeds.items()}
    return out if all(_close(float(out[n]), x) for n, x in speeds.items()) else None


def _geared_facts(spec: Spec, speeds: dict[str, float]) -> Facts | None:
    """What the solve says of a slider driven through a gear train: each gear's sense
    (the spec's gears in order), the crank pin's way along the guide and the slider's
    way; None at or near a dead centre (the slider nearly still)."""
    crank = next(p for p in spec.parts if p.kind == "crank")
    slider = spec.part(spec.asked[0])
    w = speeds[crank.name]
    if abs(speeds[slider.name]) < verify_linkage.SLOW * abs(w) * crank.radius:
        return None
    # the pin's velocity, w z x (pin - centre), along the guide
    along = w * -crank.radius * math.sin(crank.phase) * slider.axis[0] + \
        w * crank.radius * math.cos(crank.phase) * slider.axis[1]
    train = tuple((p.name, word(p, speeds[p.name])) for p in spec.parts if p.kind == "gear")
    return Facts(word(slider, speeds[slider.name]), pin_way=word(slider, along),
                 train=train)


def _explained(record: dict[str, Any], options: list[OptionData],
               explain: Callable[[OptionData], str], failure: str) -> list[str]:
    """``[failure]`` unless the record's explanation is ``explain`` of each option, a line
    each, after its letter."""
    wanted = [f"{o['letter']}: {explain(data)}"
              for o, data in zip(record["options"], options, strict=True)]
    return [] if record["Explanation"].split("\n") == wanted else [failure]


def _geared_explanation_failures(spec: Spec, record: dict[str, Any],
                                 options: list[OptionData],
                                 speeds: dict[str, float] | None) -> list[str]:
    """A gear train driving a slider-crank: each option's explanation must follow the
    senses and the slider's way this verifier solved."""
    facts = None if speeds is None else _geared_facts(spec, speeds)
    if facts is None:
        return ["the geared slider-crank has no motion to explain"]
    return _explained(record, options, lambda data: linkage_explanation(spec, data, facts),
                      "the explanations do not follow the solved motion")


def _planetary_explanation_failures(spec: Spec, record: dict[str, Any],
                                    options: list[OptionData],
                                    speeds: dict[str, float] | None) -> list[str]:
    """A planetary train's explanations must work out the speeds this verifier solved."""
    exact = None if speeds is None else exact_speeds(speeds)
    if exact is None:
        return ["the planetary train's speeds are no ratios of tooth counts"]
    return _explained(record, options, lambda data: planetary.explanation(spec, data, exact),
                      "the explanations do not work out the solved speeds")


def _worm_explanation_failures(
        spec: Spec, record: dict[str, Any], options: list[OptionData],
        speeds: dict[str, float] | None,
        explain: Callable[[Spec, OptionData, dict[str, Fraction] | None], str]) -> list[str]:
    """A worm drive's explanations (``explain``: a worm and its wheel and gear, or a worm
    driving a planetary train) must follow the speeds this verifier solved (or its jam,
    when the worm is not the driver)."""
    exact = None if speeds is None else exact_speeds(speeds)
    if speeds is not None and exact is None:
        return ["the worm drive's speeds are no ratios of tooth counts"]
    return _explained(record, options, lambda data: explain(spec, data, exact),
                      "the explanations do not follow the solved speeds")


def _explanation_failures(spec: Spec, record: dict[str, Any], options: list[OptionData],
                          speeds: dict[str, float] | None) -> list[str]:
    """Each option's explanation must follow the motion along the links (as this
    verifier hands it on), and a jam must show in the senses."""
    try:
        moved = motion(spec)
    except Unsound as exc:
        return [f"unsound mechanism: {exc}"]
    failures = []
    if (moved.clash is None) != (speeds is not None) or speeds is not None and any(
            not math.isclose(float(moved.speeds[n]), x, rel_tol=1e-6) for n, x in speeds.items()):
        failures.append("handing the motion on link by link disagrees with the solve")
    elif moved.clash is not None and not moved.sense_clash:
        failures.append("the mechanism jams by speeds alone: the two paths agree on senses")
    said = record["Explanation"].split("\n")
    for k, (o, data) in enumerate(zip(record["options"], options, strict=True)):
        try:
            want = f"{o['letter']}: {explanation(spec, data, moved)}"
        except (KeyError, SpecError):  # the option names other parts (failed above)
            continue
        if k >= len(said) or said[k] != want:
            failures.append(f"option {o['letter']}'s explanation is not the motion followed "
                            "along the links")
    if len(said) != len(options):
        failures.append("the Explanation has not one line per option")
    return failures


# --- steps: the motion handed on one link at a time ------------------------------------

def _fraction(x: float) -> str:
    return str(Fraction(x).limit_denominator(10**6))


def _local(spec: Spec, link: LinkSpec, known: str, value: float) -> float:
    """The other end's speed of ``link`` from its own constraint, one end known."""
    points = contact(spec, link)
    a, b = spec.part(link.a), spec.part(link.b)
    if points is None:
        return value
    va, vb = _velocity(a, points[0]), _velocity(b, points[1])
    if known == link.a:
        return float(va @ vb) * value / float(vb @ vb)
    return float(va @ vb) * value / float(va @ va)


def _violated(spec: Spec, link: LinkSpec, speeds: dict[str, float]) -> bool:
    points = contact(spec, link)
    if points is None:
        return not math.isclose(speeds[link.a], speeds[link.b], rel_tol=1e-6)
    a, b = spec.part(link.a), spec.part(link.b)
    gap = _velocity(a, points[0]) * speeds[link.a] - _velocity(b, points[1]) * speeds[link.b]
    return float(np.abs(gap).max()) > 1e-6


def step_start(spec: Spec, answer: OptionData) -> dict[str, Any]:
    if spec.question in LINKAGE_QUESTIONS:
        return {}
    return {"speeds": {spec.driver: _fraction(_driver_speed(spec))}, "jammed": False}


def step_next(spec: Spec, answer: OptionData, state: Any, k: int) -> Any:
    """The state after the next link that hands motion to a part not moving yet (links
    in the spec's order); when none is left, the first link whose two ends would move
    against each other (the mechanism jams); None when that is done too."""
    if spec.question in LINKAGE_QUESTIONS:
        return _linkage_goal(spec) if not state else None
    if state["jammed"]:
        return None
    if planetary.is_planetary(spec) or worm.is_worm_drive(spec):
        return _solved_next(spec, state)
    speeds = {n: float(Fraction(v)) for n, v in state["speeds"].items()}
    for link in spec.links:
        if (link.a in speeds) != (link.b in speeds):
            known, other = (link.a, link.b) if link.a in speeds else (link.b, link.a)
            value = _local(spec, link, known, speeds[known])
            return {"speeds": {**state["speeds"], other: _fraction(value)}, "jammed": False}
    if any(_violated(spec, link, speeds) for link in spec.links):
        return {"speeds": state["speeds"], "jammed": True}
    return None


def _solved_next(spec: Spec, state: Any) -> Any:
    """A planetary train's or worm drive's next step: the next group of parts (members,
    then planets; the wheel, then the gear it turns) at the speeds this verifier solves;
    None when every part moves.  A jammed worm drive (driven from its wheel's side) has
    one step: the jam."""
    solved = solve(spec)
    if solved is None and worm.is_worm_drive(spec):
        return {"speeds": state["speeds"], "jammed": True}
    groups = worm_planetary.step_groups(spec) if worm_planetary.is_worm_planetary(spec) \
        else planetary.step_groups(spec) if planetary.is_planetary(spec) else \
        worm.step_groups(spec)
    group = next((g for g in groups if any(n not in state["speeds"] for n in g)), None)
    if solved is None or group is None:
        return None
    return {"speeds": {**state["speeds"], **{n: _fraction(solved[n]) for n in group}},
            "jammed": False}


def _linkage_goal(spec: Spec) -> dict[str, Any]:
    """A linkage's one step: the answer its solve gives (a gear train driving a
    slider-crank: this module's solve), {} if none."""
    if not geared(spec):
        return verify_linkage.step_goal(spec)
    try:
        truth = _truth(spec, solve(spec))
    except Unsound:
        return {}
    return {} if truth is None else {"answer": linkage_open(spec, truth[0])}


def step_goal(spec: Spec, answer: OptionData) -> dict[str, Any]:
    """Every part's speed and whether the mechanism jams, as the answer says."""
    if spec.question in LINKAGE_QUESTIONS:
        goal = _linkage_goal(spec)
        return goal if goal.get("answer") == linkage_open(spec, answer) else {}
    speeds = solve(spec)
    if speeds is None:
        if not answer.jammed:
            return {}
        state: Any = step_start(spec, answer)
        while True:  # the speeds the chain reached when the jam shows
            after = step_next(spec, answer, state, 0)
            if after is None:
                return dict(state) if state["jammed"] else {}
            state = after
    truth = _truth(spec, speeds)
    if truth is None or truth[0] != answer:
        return {}
    return {"speeds": {n: _fraction(v) for n, v in speeds.items()}, "jammed": False}
