"""MechanicalSystem's planetary trains (issue 49, item 1): the verifier's velocity system
with the carrier as an unknown, on textbook cases worked by hand; the generator's Willis
fractions; items that verify and hold their questions."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from conftest import (
    assembled,
    replays_in_the_verifier,
    scene_objects,
    textbook_train,
    verifies_and_a_moved_answer_fails,
)

from spatialcad.render import mechanism_legibility as legibility
from spatialcad.tasks.mechanical_system import planetary
from spatialcad.tasks.mechanical_system import verify as v
from spatialcad.tasks.mechanical_system.spec import STILL, PartSpec, Spec

Z = (0.0, 0.0, 1.0)


def train(held: str, driver: str, sense: str = "counterclockwise",
          question: str = "planet") -> Spec:
    """Sun E 20 teeth, planets F and G 30 teeth on carrier H (arm 25), ring J 80 teeth."""
    parts, links = textbook_train(held)
    asked = ["F"] if question == "planet" else ["E", "F", "H", "J"]
    return Spec(parts=parts, links=links, driver=driver, driver_sense=sense, oblique=False,
                question=question, asked=asked, open_answer="")


def test_ring_held_carrier_turns_a_fifth_of_the_sun_same_sense():
    w = v.solve(train("J", "E"))
    assert w is not None
    assert w["E"] == pytest.approx(1.0) and w["J"] == pytest.approx(0.0, abs=1e-9)
    assert w["H"] == pytest.approx(1 / 5)  # sun / (sun + ring)
    assert w["F"] == pytest.approx(-1 / 3)  # 1/5 - 20/30 (1 - 1/5)
    said = v._truth(train("J", "E"), w)
    assert said is not None and said[0].planet == ["clockwise", "counterclockwise"]


def test_carrier_held_ring_turns_back_at_minus_a_quarter():
    w = v.solve(train("H", "E"))
    assert w is not None
    assert w["J"] == pytest.approx(-20 / 80) and w["H"] == pytest.approx(0.0, abs=1e-9)
    assert w["F"] == pytest.approx(-20 / 30)
    said = v._truth(train("H", "E"), w)
    assert said is not None and said[0].planet == ["clockwise", STILL]


def test_sun_held_carrier_driven_ring_overdriven():
    w = v.solve(train("E", "H", "clockwise"))
    assert w is not None
    assert w["H"] == pytest.approx(-1.0)
    assert w["J"] == pytest.approx(-(20 + 80) / 80)
    assert w["F"] == pytest.approx(-(1 + 20 / 30))  # turns and goes round the same way


def test_without_the_carrier_term_the_ratios_are_fixed_axle_ones(monkeypatch):
    """The carrier's column is what makes Willis's rule: without it the planets' axles
    would stand still and the held ring would lock the train."""
    monkeypatch.setattr(v, "_carrier_of", lambda spec, name: None)
    assert v.solve(train("J", "E")) is None


def test_willis_fractions_match_the_solve():
    teeth = {"E": 20, "F": 30, "G": 30, "J": 80, "H": 0}
    for held, driver in (("J", "E"), ("H", "E"), ("E", "H"), ("E", "J"), ("J", "H")):
        w = planetary.speeds(teeth, held, driver, Fraction(1), "E", "J", "H", ["F", "G"])
        solved = v.solve(train(held, driver))
        assert solved is not None
        assert {n: float(x) for n, x in w.items()} == pytest.approx(solved, abs=1e-9)
    w = planetary.speeds(teeth, "J", "E", Fraction(1), "E", "J", "H", ["F", "G"])
    assert w["H"] == Fraction(1, 5) and w["F"] == Fraction(-1, 3)


def test_a_carrier_arm_of_the_wrong_length_is_unsound():
    spec = train("J", "E")
    bad = [PartSpec(**{**p.__dict__, "radius": 24.0}) if p.kind == "carrier" else p
           for p in spec.parts]
    with pytest.raises(v.Unsound):
        v.solve(Spec(**{**spec.__dict__, "parts": bad}))


@pytest.mark.parametrize("seed", [17, 19, 25])
def test_generated_planetary_items_verify(seed):
    draft = planetary.build("clockwise" if seed % 2 else "counterclockwise",
                            np.random.default_rng(seed))
    assert draft is not None
    verifies_and_a_moved_answer_fails(*assembled("mechanical_system", draft, 1, seed))


def test_planetary_steps_replay_in_the_verifier():
    """The steps give the members' speeds (Willis), then the planets', and the
    verifier's replay from its own solve reaches each step's state."""
    from spatialcad.tasks.mechanical_system.steps import steps

    spec = train("J", "E")
    answer = v._truth(spec, v.solve(spec) or {})
    assert answer is not None
    made = steps(spec, answer[0])
    assert [s.state["speeds"] for s in made] == [
        {"E": "1", "H": "1/5", "J": "0"}, {"E": "1", "H": "1/5", "J": "0", "F": "-1/3",
                                           "G": "-1/3"}]
    replays_in_the_verifier(v, spec, made, answer[0])


def test_the_carrier_is_one_solid_of_band_spokes_hub_and_pins_in_the_scene():
    draft = planetary.build("counterclockwise", np.random.default_rng(25))
    assert draft is not None
    record, _ = assembled("mechanical_system", draft, 1, 25, "A")
    with scene_objects(record) as found:
        carrier = next(p for p in record["spec"]["parts"] if p["kind"] == "carrier")
        solid = next(o for o in found if o.Label.endswith(f"carrier {carrier['name']}"))
        assert solid.Shape.isValid() and len(solid.Shape.Solids) == 1
        band = math.pi * ((carrier["radius"] + 0.7) ** 2 - (carrier["radius"] - 0.7) ** 2)
        assert solid.Shape.Volume > band * 1.5 * 1.05  # the spokes and hub are fused on
        axles = [o for o in found if "axle" in o.Label]
        assert len(axles) == len(record["spec"]["parts"])  # one per member and planet


def test_every_drawn_train_meshes_as_the_verifier_measures():
    """The ring's small turn (RING_PLAY) takes up the drawn internal teeth's play: the
    trains drawn need no redraw for a loose mesh (without it most do)."""
    trains = [planetary._train(np.random.default_rng(seed)) for seed in range(12)]
    drawn = [t for t in trains if t is not None]
    assert len(drawn) >= 10
    assert not any(legibility.loose_mesh(*t, False) for t in drawn)
