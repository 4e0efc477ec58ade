"""MechanicalSystem's mixed mechanisms (issue 49, item 8): a gear train driving a
slider-crank, proved from one velocity system that joins the gears' mesh rows and the
linkage's loop-closure rows, and a worm driving a planetary train (the worm's row, the
carrier's rows and the meshes in one system); cases worked by hand, every wrong option and
tampered specs refused, generated items that verify."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from conftest import (
    assembled,
    only_the_answer_verifies,
    replays_in_the_verifier,
    scene_objects,
    textbook_train,
)

from spatialcad.run.verification import run_verifier
from spatialcad.tasks.base import Reject
from spatialcad.tasks.mechanical_system import crank_train, worm_planetary
from spatialcad.tasks.mechanical_system import verify as v
from spatialcad.tasks.mechanical_system.generate import Generator
from spatialcad.tasks.mechanical_system.spec import LinkSpec, OptionData, PartSpec, Spec

Z = (0.0, 0.0, 1.0)


def geared(theta_deg: float, sense: str = "counterclockwise", r: float = 5.0,
           rod: float = 25.0) -> Spec:
    """Gear E (20 teeth) drives gear F (40 teeth, at the origin); crank G (length ``r``)
    is fixed on F's axle at ``theta_deg``; rod H (length ``rod``) joins its pin to slider
    J on the level line through the axle, right of it."""
    t = math.radians(theta_deg)
    pin = (r * math.cos(t), r * math.sin(t))
    x = pin[0] + math.sqrt(rod * rod - pin[1] ** 2)
    parts = [PartSpec("E", "gear", 0, (-30.0, 0.0, 0.0), Z, 10.0, 20, 0.0, "front"),
             PartSpec("F", "gear", 1, (0.0, 0.0, 0.0), Z, 20.0, 40, 0.0, "front"),
             PartSpec("G", "crank", 1, (0.0, 0.0, 1.0), Z, r, 0, t, "front"),
             PartSpec("H", "rod", -1, (pin[0], pin[1], 1.0), Z, rod, 0,
                      math.atan2(-pin[1], x - pin[0]) % (2 * math.pi)),
             PartSpec("J", "slider", -1, (x, 0.0, 1.0), (1.0, 0.0, 0.0), 2.0, 0, 0.0)]
    links = [LinkSpec("mesh", "E", "F"), LinkSpec("shaft", "F", "G"), LinkSpec("pin", "G", "H"),
             LinkSpec("pin", "H", "J")]
    return Spec(parts=parts, links=links, driver="E", driver_sense=sense, oblique=False,
                question="moves", asked=["J"], open_answer="")


def slider_speed(theta_deg: float, w: float, r: float = 5.0, rod: float = 25.0) -> float:
    """The in-line slider-crank's slider speed, x = r cos t + sqrt(L^2 - r^2 sin^2 t)
    differentiated."""
    t = math.radians(theta_deg)
    return -r * math.sin(t) * w * (1 + r * math.cos(t) /
                                   math.sqrt(rod * rod - r * r * math.sin(t) ** 2))


def test_a_20_40_pair_turning_a_crank_at_90_degrees_pushes_the_slider_right():
    """By hand: E turning counterclockwise turns F (twice its teeth) clockwise at half its
    speed; the crank on F's axle turns with F; at 90 degrees its pin (0, 5) moves at
    -1/2 x (-5, 0) = (5/2, 0), and the rod, level with nothing to turn it at this moment
    only across, hands the pin's x speed on: the slider moves right at 5/2."""
    w = v.solve(geared(90.0))
    assert w is not None
    assert w["F"] == pytest.approx(-0.5) and w["G"] == pytest.approx(-0.5)
    assert w["J"] == pytest.approx(2.5)
    said = v._truth(geared(90.0), w)
    assert said is not None and said[0] == OptionData(moves="right")
    # the driver turned the other way: left
    back = v._truth(geared(90.0, "clockwise"), v.solve(geared(90.0, "clockwise")))
    assert back is not None and back[0] == OptionData(moves="left")


@pytest.mark.parametrize("theta", [40.0, 130.0, 215.0, 300.0])
def test_the_slider_moves_as_the_slider_crank_formula_says(theta):
    w = v.solve(geared(theta))
    assert w is not None
    assert w["J"] == pytest.approx(slider_speed(theta, -0.5), abs=1e-9)
    said = v._truth(geared(theta), w)
    assert said is not None
    assert said[0].moves == ("right" if slider_speed(theta, -0.5) > 0 else "left")


@pytest.mark.parametrize("theta", [0.0, 180.0, 3.0, 183.0])
def test_a_crank_at_or_near_a_dead_centre_has_no_answer(theta):
    """The slider moves at less than a tenth of the pin's speed within about 6 degrees of
    a dead centre (verify_linkage.SLOW): refused."""
    assert v._truth(geared(theta), v.solve(geared(theta))) is None


def test_without_the_crank_on_its_gears_axle_the_linkage_is_free():
    """The crank's speed is its gear's only through the axle: on a shaft of its own it
    could turn freely, and the solve refuses the item."""
    spec = geared(90.0)
    parts = [PartSpec(**{**p.__dict__, "shaft": 5}) if p.kind == "crank" else p
             for p in spec.parts]
    loose = Spec(**{**spec.__dict__, "parts": parts,
                    "links": [lk for lk in spec.links if lk.kind != "shaft"]})
    with pytest.raises(v.Unsound):
        v.solve(loose)


def test_a_pin_that_does_not_join_its_bars_is_unsound():
    spec = geared(90.0)
    parts = [PartSpec(**{**p.__dict__, "phase": p.phase + 0.2}) if p.kind == "crank" else p
             for p in spec.parts]
    with pytest.raises(v.Unsound):
        v.solve(Spec(**{**spec.__dict__, "parts": parts}))


def _first_built(build, seed: int):
    """The draft of the first rng from ``seed`` on whose drawing passes the readability
    rules (build gives None for the others, as the generator draws again)."""
    for k in range(seed, seed + 60):
        draft = build(k, np.random.default_rng(k))
        if draft is not None:
            return draft
    raise AssertionError(f"no draft built from seeds {seed}..{seed + 59}")


def _item(seed: int):
    draft = _first_built(lambda k, rng: crank_train.build(
        "clockwise" if seed % 2 else "counterclockwise", "left" if seed % 3 else "right", rng),
        seed * 100)
    return assembled("mechanical_system", draft, 3, seed)


@pytest.mark.parametrize("seed", [2, 3, 6])
def test_generated_items_verify_and_every_wrong_option_is_refused(seed):
    record, image = _item(seed)
    assert only_the_answer_verifies(record, image) == {"reversed", "still", "wrongly_jammed"}


def _tampered(record, **changes):
    """``record`` with ``changes`` made to its spec (parts by name: field -> value)."""
    spec = dict(record["spec"])
    for name, fields in changes.items():
        spec["parts"] = [dict(p, **fields) if p["name"] == name else p for p in spec["parts"]]
    return dict(record, spec=spec)


def test_tampered_specs_fail():
    record, image = _item(3)
    spec = record["spec"]
    flipped = dict(record, spec=dict(spec, driver_sense="clockwise" if spec["driver_sense"] ==
                                     "counterclockwise" else "counterclockwise"))
    assert run_verifier(flipped, image) != []
    crank = next(p for p in spec["parts"] if p["kind"] == "crank")
    turned = _tampered(record, **{crank["name"]: {"phase": crank["phase"] + 0.3}})
    assert any("unsound" in f for f in run_verifier(turned, image))
    gears = [p for p in spec["parts"] if p["kind"] == "gear"]
    bigger = _tampered(record, **{gears[0]["name"]: {"teeth": gears[0]["teeth"] + 2}})
    assert run_verifier(bigger, image) != []


def test_steps_replay_in_the_verifier():
    from spatialcad.render import mechanism_drawing as md
    from spatialcad.tasks.mechanical_system.steps import picture, steps

    spec = geared(90.0)
    answer = OptionData(moves="right")
    made = steps(spec, answer)
    assert [s.state for s in made] == [{"answer": "right"}]
    # its picture: the item's, the motor's arrow on E
    drawn = md.draw(v.geometry_parts(spec), [(lk.kind, lk.a, lk.b) for lk in spec.links],
                    False, {"E": 1})
    assert np.array_equal(picture(spec, answer, made[0].state), drawn)
    assert v.step_goal(spec, answer) == {"answer": "right"}
    assert v.step_goal(spec, OptionData(moves="left")) == {}
    assert v.step_next(spec, answer, v.step_start(spec, answer), 0) == {"answer": "right"}


def _kind(level: int, seed: int) -> str | None:
    """Which mixed mechanism the generator's item of ``level`` from ``seed`` shows
    ("geared": a gear train driving a slider-crank, "worm train": a worm driving a
    planetary train, "" neither; None: the draw was refused)."""
    try:
        draft = Generator().build(level, np.random.default_rng(seed))
    except Reject:
        return None
    kinds = {p["kind"] for p in draft.spec["parts"]}
    links = {lk["kind"] for lk in draft.spec["links"]}
    if "crank" in kinds and "mesh" in links:
        return "geared"
    return "worm train" if {"worm", "carries"} <= links else ""


def test_level_3_draws_a_fifth_of_its_items_as_mixed_mechanisms():
    """Levels 0 to 2 never draw one (their bytes stay); level 3 does, about one in five,
    half of each kind."""
    drawn = [_kind(3, seed) for seed in range(60)]
    assert 6 <= drawn.count("geared") + drawn.count("worm train") <= 20
    assert drawn.count("geared") >= 2 and drawn.count("worm train") >= 2
    assert not any(_kind(level, seed) for level in (1, 2) for seed in range(15))


def test_the_scene_holds_the_crank_rod_slider_and_pins():
    record, _ = _item(2)
    with scene_objects(record) as found:
        labels = [o.Label for o in found]
        for p in record["spec"]["parts"]:
            assert any(label.endswith(f"{p['kind']} {p['name']}") for label in labels)
        pins = [o for o in found if ": pin " in o.Label]
        assert len(pins) == 2 and all(o.Shape.isValid() for o in pins)
        assert len([o for o in found if ": guide " in o.Label]) == 2  # the slider's rails


# --- a worm driving a planetary train ---------------------------------------------------


def worm_train(on: str, held: str, hand: str = "right", driver: str = "K",
               sense: str = "counterclockwise") -> Spec:
    """conftest's textbook train (sun E 20 teeth, planets F and G 30 on carrier H, ring J
    80), ``held`` held, and worm K (2 threads, ``hand``) on top of wheel L (90 teeth)
    behind it on the axle of ``on`` (E or H)."""
    parts, links = textbook_train(held, on)
    parts = [replace(p, hand=hand) if p.kind == "worm" else p for p in parts]
    return Spec(parts=parts, links=links, driver=driver, driver_sense=sense, oblique=False,
                question="planet", asked=["F"], open_answer="")


def test_a_right_hand_worm_turning_the_sun_of_a_ring_held_train():
    """By hand: the right-hand worm turned counterclockwise (seen from its right end)
    turns its wheel, and the sun on its axle, counterclockwise at 2/90 = 1/45 (worm.py);
    the ring held, the carrier turns at 20/(20 + 80) of the sun, 1/225, the same way; the
    planet at 1/225 - 20/30 (1/45 - 1/225) = 1/225 - 8/675 = -1/135: it turns clockwise
    and goes round counterclockwise."""
    w = v.solve(worm_train("E", "J"))
    assert w is not None
    assert w["L"] == pytest.approx(1 / 45) and w["E"] == pytest.approx(1 / 45)
    assert w["H"] == pytest.approx(1 / 225) and w["J"] == pytest.approx(0.0, abs=1e-12)
    assert w["F"] == pytest.approx(-1 / 135)
    said = v._truth(worm_train("E", "J"), w)
    assert said is not None and said[0].planet == ["clockwise", "counterclockwise"]
    # a left-hand worm turns it all the other way
    left = v._truth(worm_train("E", "J", "left"), v.solve(worm_train("E", "J", "left")))
    assert left is not None and left[0].planet == ["counterclockwise", "clockwise"]


def test_a_worm_turning_the_carrier_of_a_sun_held_train():
    """By hand: the carrier on the wheel's axle turns at 1/45; the sun held, the planet
    turns at 1/45 (1 + 20/30) = 1/27, the carrier's way, and goes round with it."""
    w = v.solve(worm_train("H", "E"))
    assert w is not None
    assert w["H"] == pytest.approx(1 / 45) and w["F"] == pytest.approx(1 / 27)
    said = v._truth(worm_train("H", "E"), w)
    assert said is not None and said[0].planet == ["counterclockwise", "counterclockwise"]
    assert worm_planetary.speeds(worm_train("H", "E"))["F"] == Fraction(1, 27)


def test_driven_from_the_wheel_nothing_can_move():
    spec = worm_train("H", "E", driver="L")
    assert v.solve(spec) is None
    said = v._truth(spec, None)
    assert said is not None and said[0] == OptionData(jammed=True)
    assert worm_planetary.speeds(spec) is None


def _worm_item(seed: int):
    draft = _first_built(lambda k, rng: worm_planetary.build(
        "clockwise" if seed % 2 else "counterclockwise", rng), seed * 100)
    return assembled("mechanical_system", draft, 3, seed)


@pytest.mark.parametrize("seed", [1, 2, 4])
def test_generated_worm_trains_verify_and_every_wrong_option_is_refused(seed):
    record, image = _worm_item(seed)
    assert only_the_answer_verifies(record, image)
    parts = [dict(p, hand="left" if p.get("hand") == "right" else "right")
             if p["kind"] == "worm" else p for p in record["spec"]["parts"]]
    flipped = dict(record, spec=dict(record["spec"], parts=parts))
    if record["spec"]["driver"] == next(p["name"] for p in parts if p["kind"] == "worm"):
        assert run_verifier(flipped, image) != []  # the hand decides the answer


def test_generated_worm_trains_hold_both_answers_kinds():
    said = {_worm_item(seed)[0]["spec"]["open_answer"] for seed in (1, 2, 4)}
    assert "cannot move" in said and said & {"clockwise", "counterclockwise"}


@pytest.mark.parametrize("spec", [worm_train("H", "E"), worm_train("H", "J", driver="L")])
def test_worm_train_steps_replay_in_the_verifier(spec):
    from spatialcad.tasks.mechanical_system.steps import steps

    answer = v._truth(spec, v.solve(spec))
    assert answer is not None
    made = steps(spec, answer[0])
    replays_in_the_verifier(v, spec, made, answer[0])
    assert made[-1].state == v.step_goal(spec, answer[0])


def test_the_worm_wheel_is_an_open_toothed_rim_in_the_scene():
    record, _ = _worm_item(1)
    wheel = next(p for p in record["spec"]["parts"] if p["kind"] == "wheel")
    with scene_objects(record) as found:
        solid = next(o for o in found if o.Label.endswith(f"wheel {wheel['name']}"))
        assert solid.Shape.isValid() and len(solid.Shape.Solids) == 1
        full = math.pi * wheel["radius"] ** 2 * 1.5  # a disc of its pitch circle, as thick
        assert solid.Shape.Volume < 0.4 * full  # open inside its rim
        assert any(o.Label.endswith("worm " + record["spec"]["links"][-1]["a"]) for o in found)
