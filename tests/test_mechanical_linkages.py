"""MechanicalSystem's levers, slider-cranks, four-bars and cams (issue 49): the verifier's
velocity solve on hand-worked poses, Grashof's rule and the verifier's closing test on
textbook linkages, degenerate poses refused, generated items verified and tampered ones
failing, and the level mix."""

from __future__ import annotations

import copy
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from spatialcad.geometry import linkages as lk
from spatialcad.tasks import registry
from spatialcad.tasks.mechanical_system import linkage
from spatialcad.tasks.mechanical_system import verify_linkage as vl
from spatialcad.tasks.mechanical_system.spec import STILL, LinkSpec, PartSpec, Spec

Z = (0.0, 0.0, 1.0)


def _spec(parts, links, sense, question, asked, **extra):
    return Spec(parts=parts, links=[LinkSpec(*k) for k in links], driver=parts[0].name,
                driver_sense=sense, oblique=False, question=question, asked=[asked],
                open_answer="", **extra)


def bar(name, kind, at, length, angle, shaft=0):
    turns = kind != "rod"
    return PartSpec(name, kind, shaft if turns else -1, (at[0], at[1], 0.0), Z, float(length),
                    0, angle % (2 * math.pi), "front" if turns else None)


def slider_crank(theta_deg, sense, r=2, rod=6):
    t = math.radians(theta_deg)
    pin = (r * math.cos(t), r * math.sin(t))
    x = pin[0] + math.sqrt(rod * rod - pin[1] ** 2)
    parts = [bar("E", "crank", (0.0, 0.0), r, t),
             bar("F", "rod", pin, rod, math.atan2(-pin[1], x - pin[0])),
             PartSpec("G", "slider", -1, (x, 0.0, 0.0), (1.0, 0.0, 0.0), 1.4, 0, 0.0)]
    return _spec(parts, [("pin", "E", "F"), ("pin", "F", "G")], sense, "moves", "G")


@pytest.mark.parametrize(("sense", "word"), [("clockwise", "right"),
                                             ("counterclockwise", "left")])
def test_a_slider_crank_at_60_degrees_moves_its_slider_as_the_loop_closure_says(sense, word):
    spec = slider_crank(60, sense)
    f = vl.facts(spec)
    assert f.word == word and f.pin_way == word
    # x = r cos t + sqrt(L^2 - r^2 sin^2 t): dx/dt = -r sin t (1 + r cos t / sqrt(...)) w
    w = -1 if sense == "clockwise" else 1
    want = -2 * math.sin(math.pi / 3) * (1 + 1 / math.sqrt(33)) * w
    assert vl.solve(spec)[vl._columns(spec)["G"]] == pytest.approx(want, rel=1e-9)


@pytest.mark.parametrize("theta", [0, 180, 3])
def test_a_crank_at_or_near_a_dead_centre_is_refused(theta):
    with pytest.raises(vl.Unsound, match="dead centre"):
        vl.facts(slider_crank(theta, "clockwise"))


def four_bar(a, b, c, g, theta_deg, sense="clockwise"):
    t = math.radians(theta_deg)
    pin = (a * math.cos(t), a * math.sin(t))
    joint = lk.circles_meet(pin, b, (float(g), 0.0), c, True)
    assert joint is not None
    parts = [bar("E", "crank", (0.0, 0.0), a, t),
             bar("F", "rod", pin, b, math.atan2(joint[1] - pin[1], joint[0] - pin[0])),
             bar("G", "rocker", (float(g), 0.0), c, math.atan2(joint[1], joint[0] - g), 1)]
    return _spec(parts, [("pin", "E", "F"), ("pin", "F", "G")], sense, "full_turn", "G")


@pytest.mark.parametrize(("links", "full"), [
    ((2, 5, 4, 6), True),  # crank-rocker: 2 + 6 < 5 + 4, the crank shortest
    ((4, 5, 4, 2), True),  # double crank: the ground shortest
    ((5, 4, 3, 7), False),  # 3 + 7 > 4 + 5: no Grashof linkage, a triple rocker
    ((5, 2, 4, 6), False),  # Grashof, but the coupler shortest: a double rocker
    ((4, 5, 2, 6), False),  # Grashof, the rocker shortest: the input only rocks
])
def test_grashofs_rule_and_the_closing_test_agree_on_textbook_four_bars(links, full):
    assert lk.crank_turns_fully(*links) is full
    a, b, c, g = links
    pose = next(t for t in range(5, 360, 10)
                if lk.circles_meet((a * math.cos(math.radians(t)), a * math.sin(math.radians(t))),
                                   b, (float(g), 0.0), c, True) is not None)
    assert vl.crank_turns_fully(four_bar(a, b, c, g, pose)) is full


def test_a_four_bar_on_the_edge_of_the_rule_is_refused():
    with pytest.raises(vl.Unsound, match="edge"):  # 2 + 6 = 4 + 4: a change point
        vl.crank_turns_fully(four_bar(2, 4, 4, 6, 90))


def test_a_crank_rocker_turns_its_rocker_as_the_loop_closure_says():
    # crank 2 up at 90 degrees, rocker pivot at 6: the crank turning clockwise pushes the
    # pin right, and the coupler (to the joint up-right) turns the rocker clockwise
    spec = four_bar(2, 5, 4, 6, 90)
    f = vl.facts(spec)
    assert f.word == "clockwise" and f.full_turn is True
    assert vl.facts(four_bar(2, 5, 4, 6, 90, "counterclockwise")).word == "counterclockwise"


def cam(psi_deg, sense):
    knots = [0.0, 0.0, 90.0, 0.0, 180.0, 3.0, 270.0, 3.0]  # dwell, rise 3, dwell, fall
    phase = math.radians(90.0 - psi_deg) % (2 * math.pi)
    r = 4.0 + lk.cam_lift(knots, psi_deg)
    parts = [PartSpec("E", "cam", 0, (0.0, 0.0, 0.0), Z, 4.0, 0, phase, "front",
                      profile=knots),
             PartSpec("F", "follower", -1, (0.0, r, 0.0), (0.0, 1.0, 0.0), 5.0, 0, 0.0)]
    return _spec(parts, [("cam", "E", "F")], sense, "moves", "F")


@pytest.mark.parametrize(("psi", "sense", "word", "speed"), [
    (135, "clockwise", "up", 3.0),  # mid-rise: R' = 3 pi / (2 x pi/2) = 3 per radian
    (135, "counterclockwise", "down", -3.0),
    (315, "clockwise", "down", -3.0),  # mid-fall
    (45, "clockwise", STILL, 0.0),  # a dwell
    (225, "counterclockwise", STILL, 0.0),
])
def test_a_cams_follower_rises_falls_or_dwells_with_the_profiles_gradient(psi, sense, word,
                                                                          speed):
    spec = cam(psi, sense)
    assert vl.facts(spec).word == word
    assert vl.solve(spec)[vl._columns(spec)["F"]] == pytest.approx(speed, abs=1e-6)


@pytest.mark.parametrize("psi", [92, 178, 268])
def test_a_contact_near_the_edge_of_a_dwell_is_refused(psi):
    with pytest.raises(vl.Unsound, match="edge of a dwell"):
        vl.facts(cam(psi, "clockwise"))


def test_a_follower_off_the_cam_is_refused():
    spec = cam(135, "clockwise")
    off = [spec.parts[0], PartSpec("F", "follower", -1, (0.0, 6.0, 0.0), (0.0, 1.0, 0.0), 5.0,
                                   0, 0.0)]
    with pytest.raises(vl.Unsound, match="rest on"):
        vl.facts(Spec(**{**spec.__dict__, "parts": off}))


@pytest.mark.parametrize(("e_right", "sense", "word"), [
    (True, "clockwise", "up"), (True, "counterclockwise", "down"),
    (False, "clockwise", "down")])
def test_a_lever_1_to_3_moves_its_other_end_three_times_as_far_the_other_way(e_right, sense,
                                                                           word):
    e = 0.0 if e_right else math.pi
    parts = [bar("E", "lever", (0.0, 0.0), 2, e), bar("F", "lever", (0.0, 0.0), 6, e + math.pi)]
    spec = _spec(parts, [("shaft", "E", "F")], sense, "travel", "F", driver_travel=1)
    f = vl.facts(spec)
    assert (f.word, f.travel) == (word, Fraction(3))


@pytest.mark.parametrize(("sense", "word"), [("clockwise", "down"), ("counterclockwise", "up")])
def test_a_lever_with_both_arms_on_one_side_moves_both_ends_one_way(sense, word):
    parts = [bar("E", "lever", (0.0, 0.0), 6, 0.0), bar("F", "lever", (0.0, 0.0), 2, 0.0)]
    spec = _spec(parts, [("shaft", "E", "F")], sense, "travel", "F", driver_travel=3)
    f = vl.facts(spec)
    assert (f.word, f.travel) == (word, Fraction(1))


def _items(kind, seeds=range(6)):
    from spatialcad.run.pipeline import assemble

    task = registry.task("mechanical_system")
    out = []
    for seed in seeds:
        try:
            draft = linkage.build(kind, np.random.default_rng(seed))
        except Exception:  # a draw the generator refuses (its own checks)
            continue
        out.append(assemble(task, draft, level=2, image_id="x", letter="B", item_seed=seed))
    return out


@pytest.mark.parametrize("kind", linkage.FAMILIES)
def test_generated_linkages_verify_and_a_reversed_driver_fails(kind):
    from spatialcad.run.verification import run_verifier

    items = _items(kind)
    assert len(items) >= 3
    for record, image in items:
        assert run_verifier(record, image) == []
        turned = copy.deepcopy(record)
        s = turned["spec"]
        s["driver_sense"] = "counterclockwise" if s["driver_sense"] == "clockwise" else \
            "clockwise"
        assert run_verifier(turned, image)


def test_every_linkage_distractor_is_rejected_as_the_answer():
    from conftest import only_the_answer_verifies

    kinds = set()
    for kind in linkage.FAMILIES:
        for record, image in _items(kind, range(3)):
            kinds |= only_the_answer_verifies(record, image)
    assert {"direction_reversed", "ratio_inverted", "reversed", "still", "wrongly_jammed",
            "rocker_reversed", "grashof_wrong"} <= kinds


def test_a_pin_that_does_not_join_its_parts_is_refused():
    spec = slider_crank(60, "clockwise")
    g = spec.parts[2]
    moved = PartSpec(g.name, g.kind, g.shaft, (g.centre[0] + 0.5, 0.0, 0.0), g.axis, g.radius,
                     0, 0.0)
    with pytest.raises(vl.Unsound, match="does not join"):
        vl.facts(Spec(**{**spec.__dict__, "parts": [*spec.parts[:2], moved]}))


def test_a_question_that_does_not_fit_its_part_is_refused():
    spec = slider_crank(60, "clockwise")
    with pytest.raises(vl.Unsound, match="does not ask about"):
        vl.facts(Spec(**{**spec.__dict__, "question": "full_turn"}))
    with pytest.raises(vl.Unsound, match="other than the driver"):
        vl.facts(Spec(**{**spec.__dict__, "asked": ["E"]}))


def test_a_changed_answer_letter_fails():
    from spatialcad.run.verification import run_verifier

    record, image = _items("slider_crank")[0]
    wrong = copy.deepcopy(record)
    wrong["Answer"] = "A" if record["Answer"] != "A" else "C"
    assert run_verifier(wrong, image)


def test_levers_come_from_level_1_and_the_others_from_level_2():
    rng = np.random.default_rng(0)
    seen = {level: Counter(linkage.family(level, rng) for _ in range(600)) for level in (0, 1, 2)}
    assert set(seen[0]) == {None}
    assert set(seen[1]) == {None, "lever"} and 70 < seen[1]["lever"] < 130
    assert set(seen[2]) == {None, *linkage.FAMILIES}
    assert all(30 < seen[2][k] < 70 for k in linkage.FAMILIES)


@pytest.mark.parametrize("kind", linkage.FAMILIES)
def test_a_linkages_one_step_replays_and_a_wrong_step_fails(kind):
    from spatialcad.run.verification import check_steps
    from spatialcad.steps import with_steps

    task = registry.task("mechanical_system")
    record, _ = _items(kind, range(2))[0]
    stepped, pictures = with_steps(task, record)
    assert len(stepped["steps"]) == 1 and check_steps(stepped, pictures) == []
    wrong = copy.deepcopy(stepped)
    wrong["steps"][0]["state"]["answer"] = "sideways"
    assert check_steps(wrong, pictures)


def test_a_linkage_explanation_gives_the_reason_and_what_a_wrong_option_says():
    record, _ = _items("lever", range(1))[0]
    lines = dict(line.split(": ", 1) for line in record["Explanation"].split("\n"))
    for o in record["options"]:
        said = lines[o["letter"]]
        assert "turn as one about the pivot" in said and " x " in said
        if o["is_answer"]:
            assert said.startswith("Right: ") and "this option says" not in said
        else:
            way, size = o["data"]["travel"].split()
            assert said.startswith("Wrong: ") and said.endswith(
                f"this option says the end of lever arm F moves {way} {size} unit"
                f"{'' if size == '1' else 's'}.")


@pytest.mark.parametrize("kind", linkage.FAMILIES)
def test_the_open_answer_scores_its_own_reply_and_not_a_wrong_options(kind):
    from spatialcad.evaluate.extract import extract, is_correct
    from spatialcad.tasks.mechanical_system.spec import linkage_open, parse_option, parse_spec

    record, _ = _items(kind, range(1))[0]
    spec = parse_spec(record["spec"])
    for o in record["options"]:
        reply = linkage_open(spec, parse_option(o["data"]))
        said = extract("open", f"<answer>{reply}</answer>").value
        assert is_correct("open", said, record["Answer_direct"]) is o["is_answer"], reply
