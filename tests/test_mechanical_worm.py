"""MechanicalSystem's worm drives (issue 49, item 2): the verifier's worm row (the
thread's axial speed from its lead and hand) and its self-locking rule on cases worked by
hand; the drawn hand; generated items that verify."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from conftest import (
    assembled,
    only_the_answer_verifies,
    replays_in_the_verifier,
    scene_objects,
    verifies_and_a_moved_answer_fails,
)

from spatialcad.run.verification import run_verifier
from spatialcad.tasks.mechanical_system import verify as v
from spatialcad.tasks.mechanical_system import worm
from spatialcad.tasks.mechanical_system.spec import LinkSpec, OptionData, PartSpec, Spec

Z, X = (0.0, 0.0, 1.0), (1.0, 0.0, 0.0)


def drive(hand: str, driver: str = "E", sense: str = "counterclockwise") -> Spec:
    """Worm E (2 threads, pitch radius 2) lying along x on top of wheel F (20 teeth,
    centre at the origin), and gear G (10 teeth) meshing with F on its right."""
    parts = [PartSpec("E", "worm", 0, (0.0, 12.0, 0.0), X, 2.0, 2, 0.0, "right", None,
                      hand=hand),
             PartSpec("F", "gear", 1, (0.0, 0.0, 0.0), Z, 10.0, 20, 0.0, "front"),
             PartSpec("G", "gear", 2, (15.0, 0.0, 0.0), Z, 5.0, 10, 0.0, "front")]
    asked = [n for n in "EFG" if n != driver]
    return Spec(parts=parts, links=[LinkSpec("worm", "E", "F"), LinkSpec("mesh", "F", "G")],
                driver=driver, driver_sense=sense, oblique=False, question="motion",
                asked=asked, open_answer="")


def test_right_hand_worm_turned_counterclockwise_from_its_right_end_turns_wheel_ccw():
    """By hand: counterclockwise as seen from the right end is turning about +x.  A
    right-hand screw turned about +x advances along +x through a nut; held in its
    bearings, it drives the nut (the wheel's top tooth, under it) along -x, to the left.
    The wheel's top going left is counterclockwise seen from the front, at 2 threads / 20
    teeth = 1/10 of the worm's speed; G, meshing with F (20/10), clockwise at 1/5."""
    w = v.solve(drive("right"))
    assert w is not None
    assert w["E"] == pytest.approx(1.0)
    assert w["F"] == pytest.approx(0.1)
    assert w["G"] == pytest.approx(-0.2)
    said = v._truth(drive("right"), w)
    assert said is not None and said[0].motions == {"F": "counterclockwise",
                                                    "G": "clockwise"}


def test_left_hand_worm_turns_the_wheel_the_other_way():
    """By hand: a left-hand screw turned about +x backs along -x through its nut, so it
    drives the wheel's top to the right: clockwise seen from the front."""
    w = v.solve(drive("left"))
    assert w is not None and w["F"] == pytest.approx(-0.1)
    said = v._truth(drive("left"), w)
    assert said is not None and said[0].motions == {"F": "clockwise", "G": "counterclockwise"}
    # turned the other way, the left-hand worm turns its wheel counterclockwise again
    back = v.solve(drive("left", sense="clockwise"))
    assert back is not None and back["F"] == pytest.approx(0.1)


@pytest.mark.parametrize("driver", ["F", "G"])
def test_a_wheel_side_driver_leaves_the_drive_jammed(driver):
    """Self-locking: the wheel (or the gear turning it) cannot turn the worm."""
    spec = drive("right", driver=driver)
    assert v.solve(spec) is None
    said = v._truth(spec, None)
    assert said is not None and said[0].jammed


def test_the_generator_speeds_agree_with_the_solve():
    for hand in ("right", "left"):
        for sense in ("clockwise", "counterclockwise"):
            spec = drive(hand, sense=sense)
            w = worm.speeds(spec)
            solved = v.solve(spec)
            assert w is not None and solved is not None
            assert {n: float(x) for n, x in w.items()} == pytest.approx(solved)
    assert worm.speeds(drive("right", driver="F")) is None


def test_a_worm_off_its_wheel_is_unsound():
    spec = drive("right")
    bad = [PartSpec(**{**p.__dict__, "centre": (0.0, 12.5, 0.0)}) if p.kind == "worm" else p
           for p in spec.parts]
    with pytest.raises(v.Unsound):
        v.solve(Spec(**{**spec.__dict__, "parts": bad}))


def test_the_drawn_crests_slant_by_the_hand():
    """A right-hand worm's crests on its near side run down to the right ("\\"), a
    left-hand one's down to the left ("/")."""
    from spatialcad.geometry.mechanisms import Part
    from spatialcad.render import mechanism_worm as mw

    for hand, sign in (("right", 1), ("left", -1)):
        p = Part("E", "worm", 0, (0.0, 12.0, 0.0), X, 2.0, 2, 0.0, hand=hand)
        lines = mw.crest_lines(p)
        assert len(lines) >= 3
        for top, bottom in lines:
            assert top[1] > bottom[1]
            assert np.sign(bottom[0] - top[0]) == sign


@pytest.mark.parametrize("seed", [3, 4, 8])
def test_generated_worm_items_verify(seed):
    draft = worm.build("clockwise" if seed % 2 else "counterclockwise",
                       np.random.default_rng(seed))
    assert draft is not None
    record, image = assembled("mechanical_system", draft, 2, seed)
    verifies_and_a_moved_answer_fails(record, image)
    # a flipped hand in the spec changes the answer (or the picture): caught
    parts = [dict(p, hand="left" if p.get("hand") == "right" else "right")
             if p["kind"] == "worm" else p for p in record["spec"]["parts"]]
    flipped = dict(record, spec=dict(record["spec"], parts=parts))
    assert run_verifier(flipped, image) != []


def test_worm_steps_replay_in_the_verifier():
    from spatialcad.tasks.mechanical_system.steps import steps

    for spec in (drive("right"), drive("left", driver="F")):
        answer = v._truth(spec, v.solve(spec))
        assert answer is not None
        made = steps(spec, answer[0])
        replays_in_the_verifier(v, spec, made, answer[0])
    assert steps(drive("right"), v._truth(drive("right"), v.solve(drive("right")))[0])[-1] \
        .state["speeds"] == {"E": "1", "F": "1/10", "G": "-1/5"}


def test_the_worm_is_a_ridged_cylinder_along_its_axle_in_the_scene():
    from spatialcad.render import mechanism_worm as mw

    draft = worm.build("counterclockwise", np.random.default_rng(3))
    assert draft is not None
    record, _ = assembled("mechanical_system", draft, 2, 3, "A")
    with scene_objects(record) as found:
        screw = next(o for o in found if o.Label.endswith("worm E"))
        box = screw.Shape.BoundBox
        assert screw.Shape.isValid() and len(screw.Shape.Solids) == 1
        assert box.XLength == pytest.approx(2 * mw.HALF_LENGTH, abs=1e-6)  # along x
        assert box.YLength == pytest.approx(2 * 3.0, abs=1e-6)  # ridges at the outer radius
        core = np.pi * (2.0 - 1.25) ** 2 * 2 * mw.HALF_LENGTH
        assert screw.Shape.Volume > core * 1.5  # the ridges are fused on


def test_a_worms_countable_teeth_are_its_ridges_along_its_axle():
    """Readability (issue 47) counts a worm's teeth along its axle, where the picture
    shows them: an axial pitch (pi modules) apart, not its two thread starts round it."""
    from spatialcad.render import mechanism_drawing as md
    from spatialcad.render import mechanism_legibility as legibility

    draft = worm.build("counterclockwise", np.random.default_rng(3))
    assert draft is not None
    parts = v.geometry_parts(Spec.from_json(draft.spec))
    links = [(lk["kind"], lk["a"], lk["b"]) for lk in draft.spec["links"]]
    fr = md.frame(parts, links, False)
    screw = next(p for p in parts if p.kind == "worm")
    assert legibility.tooth_gap(fr, screw, False) == pytest.approx(np.pi * fr.scale)


# --- worm drives asking speeds (levels >= 3) -------------------------------------------


def speed_drive(question: str, threads: int = 2, turns: int | None = None) -> Spec:
    """:func:`drive` (the worm turning) asking ``question``; "slowest" adds gear H
    (30 teeth) meshing G below it and asks about all four parts, "turns" asks F."""
    spec = drive("right")
    parts = [replace(p, teeth=threads) if p.kind == "worm" else p for p in spec.parts]
    links = list(spec.links)
    asked = ["F"]
    if question == "slowest":
        parts.append(PartSpec("H", "gear", 3, (15.0, -20.0, 0.0), Z, 15.0, 30, 0.0, "front"))
        links.append(LinkSpec("mesh", "G", "H"))
        asked = ["E", "F", "G", "H"]
    return replace(spec, parts=parts, links=links, question=question, asked=asked,
                   driver_turns=turns)


def test_a_worm_moves_its_wheel_on_by_its_threads_each_turn():
    """By hand: each turn of a single-thread worm moves its wheel on by one tooth, of a
    two-thread worm by two: while the worm makes 10 turns, the 20-tooth wheel makes
    10 x 2 / 20 = 1 turn (1/2 with one thread)."""
    for threads, want in ((2, "1"), (1, "1/2")):
        spec = speed_drive("turns", threads, 10)
        said = v._truth(spec, v.solve(spec))
        assert said is not None and said[0] == OptionData(turns=want)
    spec = replace(speed_drive("turns", 2, 15), asked=["G"])
    said = v._truth(spec, v.solve(spec))  # G (10 teeth) turns twice as fast as F
    assert said is not None and said[0] == OptionData(turns="3")


def test_the_slowest_of_a_worm_train_is_the_largest_gear_far_from_the_worm():
    """By hand: F turns at 2/20 of the worm, G at 2/10, H at 2/30 (the worm at 1): H."""
    spec = speed_drive("slowest")
    w = v.solve(spec)
    assert w is not None and w["H"] == pytest.approx(1 / 15)
    said = v._truth(spec, w)
    assert said is not None and said[0] == OptionData(part="H")
    assert worm.speeds(spec) == {"E": 1, "F": Fraction(1, 10), "G": Fraction(-1, 5),
                                 "H": Fraction(1, 15)}


@pytest.mark.parametrize("seed", [0, 1, 4, 6])
def test_generated_worm_speed_items_verify_and_refuse_every_wrong_option(seed):
    rng = np.random.default_rng(seed)
    draft = worm._speed_item("clockwise", *worm._layout(rng, "left"), rng)
    assert draft is not None
    record, image = assembled("mechanical_system", draft, 3, seed)
    kinds = only_the_answer_verifies(record, image)
    assert kinds == {"other_part"} or kinds <= {"threads_ignored", "ratio_inverted",
                                               "driver_turns_kept", "scaled_up", "scaled_down",
                                               "one_driver_turn"}
    assert "Threads (starts) of the worm: E 2." in record["Question"]
    if seed == 6:  # the two-thread worm taken for a single-thread one
        assert "threads_ignored" in kinds


def test_only_levels_from_3_ask_a_worm_drives_speeds():
    """Level 2's worm items keep their draws (and bytes): motion questions only."""
    asked = {3: set(), 2: set()}
    for level in asked:
        for seed in range(40):
            draft = worm.build("clockwise", np.random.default_rng(seed), level >= 3)
            if draft is not None:
                asked[level].add(draft.spec["question"])
    assert asked[2] == {"motion"} and asked[3] == {"motion", "slowest", "turns"}
