"""MechanicalSystem's verifier of linkage and cam items, independent of linkage.py.

Unknowns: one speed per fixed pivot (lever arms on one shaft share it), one per slider or
follower (along its axis), three per connecting rod (its first end's velocity and its
angular speed).  Rows: each pin joins two parts' points that must move alike (two rows,
after checking that the two points are one); a cam's follower moves at the profile's
radius gradient at the contact times the cam's speed (one row; the gradient found here
by a central difference of the profile's radius).  The null space (SVD) must be one
motion; the driver's stated sense fixes its sign.  Degenerate poses are refused: a
slider at a dead centre or a rocker at a toggle (the asked part nearly still), a cam's
contact near the edge of a dwell.  Whether a four-bar's crank turns all the way round is
decided by whether the linkage closes at every crank angle (the distance from the
crank pin to the rocker's pivot, between |ground - crank| and ground + crank, must stay
within |rod - rocker| and rod + rocker), not by Grashof's rule.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from spatialcad.geometry import linkages as lk
from spatialcad.geometry import mechanisms as mech
from spatialcad.render import mechanism_legibility as legibility
from spatialcad.render import mechanism_linkage as ml
from spatialcad.tasks.mechanical_system.linkage_explain import Facts, explanation
from spatialcad.tasks.mechanical_system.spec import (
    SENSES,
    STILL,
    OptionData,
    PartSpec,
    Spec,
    linkage_open,
    parse_option,
)
from spatialcad.verify.base import crop

TOL = 1e-6
NULL = 1e-9
SLOW = 0.1  # the asked part moves at least this part of the driver's pin speed
EDGE = 10.0  # degrees around a cam's contact over which the profile's trend must hold
STEP = 1e-3  # degrees: the central difference of a cam's radius


class Unsound(ValueError):
    """A pose whose geometry does not hold or that is degenerate."""


def _point(p: PartSpec, which: str) -> np.ndarray:
    if which == "start" or p.kind in ("slider", "follower"):
        return np.array(p.centre[:2], dtype=float)
    return np.array([p.centre[0] + p.radius * math.cos(p.phase),
                     p.centre[1] + p.radius * math.sin(p.phase)])


def _columns(spec: Spec) -> dict[str, int]:
    """Each part's first unknown's column (a rod has three)."""
    col: dict[str, int] = {}
    shafts: dict[int, int] = {}
    n = 0
    for p in spec.parts:
        if p.turns:
            if p.shaft not in shafts:
                shafts[p.shaft], n = n, n + 1
            col[p.name] = shafts[p.shaft]
        else:
            col[p.name], n = n, n + (3 if p.kind == "rod" else 1)
    return col


def _velocity_rows(p: PartSpec, at: np.ndarray, col: int, width: int) -> np.ndarray:
    """(2, width): the velocity of ``p``'s point ``at`` per unknown."""
    out = np.zeros((2, width))
    if p.turns:
        r = at - np.array(p.centre[:2])
        out[:, col] = (-r[1], r[0])
    elif p.kind == "rod":
        r = at - np.array(p.centre[:2])
        out[0, col], out[1, col + 1] = 1.0, 1.0
        out[:, col + 2] = (-r[1], r[0])
    else:
        out[:, col] = p.axis[:2]
    return out


def cam_gradient(cam: PartSpec, angle_deg: float) -> float:
    """dR/dpsi (per radian) of the cam's profile radius at ``angle_deg`` of its frame."""
    assert cam.profile is not None
    up = lk.cam_lift(cam.profile, angle_deg + STEP)
    down = lk.cam_lift(cam.profile, angle_deg - STEP)
    return (up - down) / math.radians(2 * STEP)


def _cam_row(cam: PartSpec, f: PartSpec, col: dict[str, int], width: int) -> np.ndarray:
    if cam.kind != "cam" or f.kind != "follower" or cam.profile is None:
        raise Unsound(f"{cam.name} and {f.name} are not a cam and its follower")
    tip = np.array(f.centre[:2]) - np.array(cam.centre[:2])
    dist = math.hypot(tip[0], tip[1])
    if abs(tip[0] * f.axis[1] - tip[1] * f.axis[0]) > TOL or tip @ np.array(f.axis[:2]) <= 0:
        raise Unsound(f"follower {f.name} does not move along a line through {cam.name}'s axle")
    psi = math.degrees(math.atan2(tip[1], tip[0]) - cam.phase) % 360.0
    if abs(cam.radius + lk.cam_lift(cam.profile, psi) - dist) > TOL:
        raise Unsound(f"follower {f.name}'s tip does not rest on cam {cam.name}")
    trend = {_sign(cam_gradient(cam, psi + k)) for k in np.linspace(-EDGE, EDGE, 21)}
    if len(trend) > 1:
        raise Unsound(f"the contact of {f.name} lies near the edge of a dwell")
    row = np.zeros((1, width))
    row[0, col[f.name]] = 1.0  # the follower's speed along its axis (pointing out)
    row[0, col[cam.name]] += cam_gradient(cam, psi)  # = -R'(psi) x the cam's speed
    return row


def _sign(x: float) -> int:
    return 0 if abs(x) < 1e-6 else (1 if x > 0 else -1)


def system(spec: Spec) -> tuple[np.ndarray, dict[str, int]]:
    col = _columns(spec)
    width = max(col[p.name] + (3 if p.kind == "rod" else 1) for p in spec.parts)
    rows = []
    for link in spec.links:
        a, b = spec.part(link.a), spec.part(link.b)
        if link.kind == "shaft":
            if not (a.kind == b.kind == "lever" and a.shaft == b.shaft and
                    np.allclose(a.centre, b.centre)):
                raise Unsound(f"{a.name} and {b.name} are not arms of one lever")
            continue
        if link.kind == "cam":
            rows.append(_cam_row(a, b, col, width))
            continue
        if link.kind != "pin":
            raise Unsound(f"a {link.kind} link in a linkage")
        rows.append(pin_rows(a, b, col[a.name], col[b.name], width))
    return (np.concatenate(rows) if rows else np.zeros((0, width))), col


def pin_rows(a: PartSpec, b: PartSpec, col_a: int, col_b: int, width: int) -> np.ndarray:
    """(2, width): the pin at the end of bar ``a`` moves alike on ``a`` and on ``b`` (one
    of whose ends it must be); ``col_a``, ``col_b``: the parts' first unknowns."""
    joint = _point(a, "end")
    if not any(np.allclose(_point(b, w), joint, atol=TOL) for w in ("start", "end")):
        raise Unsound(f"the pin of {a.name} and {b.name} does not join them")
    return _velocity_rows(a, joint, col_a, width) - _velocity_rows(b, joint, col_b, width)


def solve(spec: Spec) -> np.ndarray:
    """The one motion with the driver turning the stated way at unit speed."""
    m, col = system(spec)
    if m.shape[0]:
        _, sv, vt = np.linalg.svd(m)
        rank = int((sv > NULL * max(1.0, float(sv.max()))).sum())
        null = vt[rank:].T
    else:  # a lever alone: its one shaft turns freely
        null = np.eye(m.shape[1])
    j = col[spec.driver]
    if null.shape[1] != 1 or abs(float(null[j, 0])) < 1e-9:
        raise Unsound("the linkage has not one motion driven by its driver")
    return null[:, 0] / null[j, 0] * (-1.0 if spec.driver_sense == "clockwise" else 1.0)


def crank_turns_fully(spec: Spec) -> bool:
    """Whether the four-bar closes at every crank angle; Unsound on the edge."""
    crank, rod = spec.part(spec.driver), next(p for p in spec.parts if p.kind == "rod")
    rocker = spec.part(spec.asked[0])
    g = math.dist(crank.centre[:2], rocker.centre[:2])
    near, far = abs(g - crank.radius), g + crank.radius
    lo, hi = abs(rod.radius - rocker.radius), rod.radius + rocker.radius
    if min(abs(near - lo), abs(far - hi)) < TOL:
        raise Unsound("the four-bar is on the edge of turning all the way round")
    return lo < near and far < hi


def facts(spec: Spec) -> Facts:
    """What the solve says of the asked part."""
    if len({p.name for p in spec.parts}) != len(spec.parts) or len(spec.asked) != 1 or \
            spec.driver in spec.asked:
        raise Unsound("the question must name one part other than the driver")
    driver, asked = spec.part(spec.driver), spec.part(spec.asked[0])
    if (spec.question == "full_turn") != (asked.kind == "rocker") or \
            (spec.question == "moves") != (asked.kind in ("slider", "follower")):
        raise Unsound(f"a {spec.question} question does not ask about {asked.kind} {asked.name}")
    x = solve(spec)
    col = _columns(spec)
    speed = float(x[col[asked.name]])
    if spec.question == "travel":
        if asked.kind != "lever" or driver.kind != "lever" or spec.driver_travel is None:
            raise Unsound("a travel question asks about a lever's arms")
        end = _point(asked, "end") - np.array(asked.centre[:2])
        vy = speed * end[0]  # the end's upward speed: (w x r)_y
        ratio = Fraction(asked.radius / driver.radius).limit_denominator(100)
        if abs(float(ratio) - asked.radius / driver.radius) > TOL or abs(end[1]) > TOL:
            raise Unsound("the lever's arms are not level, of whole lengths")
        return Facts("up" if vy > 0 else "down", travel=spec.driver_travel * ratio)
    if asked.kind == "follower":
        word = STILL if abs(speed) < 1e-6 else ("up" if speed * asked.axis[1] > 0 else "down")
        profile = {STILL: "keeps its size", "up": "grows", "down": "shrinks"}[word]
        return Facts(word, profile=profile)
    pin_speed = abs(float(x[col[driver.name]])) * driver.radius
    if asked.kind == "slider":
        if abs(speed) < SLOW * pin_speed:
            raise Unsound("the crank is at or near a dead centre")
        pin = _velocity_rows(driver, _point(driver, "end"), 0, 1)[:, 0] * x[col[driver.name]]
        along = float(pin @ np.array(asked.axis[:2]))
        return Facts(_slide_word(asked, speed), pin_way=_slide_word(asked, along))
    if asked.kind == "rocker":
        if abs(speed) * asked.radius < SLOW * pin_speed:
            raise Unsound("the rocker is at or near a toggle")
        return Facts(SENSES[0] if speed < 0 else SENSES[1], full_turn=crank_turns_fully(spec))
    raise Unsound(f"no linkage question asks about {asked.kind} {asked.name}")


def _slide_word(p: PartSpec, speed: float) -> str:
    positive = speed * p.axis[0] > 0 if abs(p.axis[0]) > 0.5 else speed * p.axis[1] > 0
    if abs(p.axis[0]) > 0.5:
        return "right" if positive else "left"
    return "up" if positive else "down"


def _right(spec: Spec, f: Facts) -> OptionData:
    if spec.question == "travel":
        return OptionData(travel=f"{f.word} {f.travel}")
    return OptionData(moves=f.word, full_turn=f.full_turn)


def _geometry(spec: Spec) -> tuple[list[mech.Part], list[tuple[str, str, str]],
                                   dict[str, list[float]], dict[str, int]]:
    parts = [mech.Part(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, 0, p.phase)
             for p in spec.parts]
    joints = [(link.kind, link.a, link.b) for link in spec.links]
    profiles = {p.name: p.profile for p in spec.parts if p.profile is not None}
    return parts, joints, profiles, {spec.driver: -1 if spec.driver_sense == "clockwise" else 1}


def verify(spec: Spec, record: dict[str, Any], image: np.ndarray) -> list[str]:
    try:
        f = facts(spec)
    except Unsound as exc:
        return [f"unsound linkage: {exc}"]
    right = _right(spec, f)
    failures = []
    if spec.open_answer != linkage_open(spec, right):
        failures.append(f"the open answer {spec.open_answer!r} is not "
                        f"{linkage_open(spec, right)!r}")
    options = [parse_option(o["data"]) for o in record["options"]]
    if len({str(o.to_json()) for o in options}) != len(options):
        failures.append("two options say the same")
    hits = [o["letter"] for o, d in zip(record["options"], options, strict=True) if d == right]
    if hits != [record["Answer"]]:
        failures.append(f"options that are right: {hits}, answer {record['Answer']}")
    said = record["Explanation"].split("\n")
    for k, (o, d) in enumerate(zip(record["options"], options, strict=True)):
        if k >= len(said) or said[k] != f"{o['letter']}: {explanation(spec, d, f)}":
            failures.append(f"option {o['letter']}'s explanation does not follow the motion")
    parts, joints, profiles, arrows = _geometry(spec)
    panel = crop(image, record["layout"]["reference"][0])
    drawn = ml.draw(parts, joints, profiles, arrows)
    if drawn.shape != panel.shape or not np.array_equal(drawn, panel):
        failures.append("the picture is not the drawing of the spec's linkage")
    failures += ml.failures(parts, joints, profiles, arrows)
    failures += legibility.fill_failures(image, record["layout"]["reference"][0])
    return failures


def step_goal(spec: Spec) -> dict[str, Any]:
    """The one step's state: the answer the solve gives ({} if it gives none)."""
    try:
        return {"answer": linkage_open(spec, _right(spec, facts(spec)))}
    except Unsound:
        return {}
