"""MechanicalSystem: hand-built mechanisms whose motion is known (the verifier's null-space
solve and the generator's propagation agree with them), the two agreeing on generated
mechanisms, mutations that fail the verifier, distractors rejected as answers, balance,
and the CLI end to end."""

from __future__ import annotations

import copy
import dataclasses
import math
import re
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from conftest import check_distractors, generated_items

from spatialcad.geometry import mechanisms as mech
from spatialcad.render import mechanism_drawing as md
from spatialcad.render import mechanism_legibility as legibility
from spatialcad.render import raster
from spatialcad.render.layout import compose
from spatialcad.tasks import registry
from spatialcad.tasks.base import Reject
from spatialcad.tasks.mechanical_system import generate as g
from spatialcad.tasks.mechanical_system import planetary, turns, worm
from spatialcad.tasks.mechanical_system import spec as sp
from spatialcad.tasks.mechanical_system import verify as v
from spatialcad.tasks.mechanical_system.explain import explanation
from spatialcad.tasks.mechanical_system.generate import Generator
from spatialcad.tasks.mechanical_system.spec import (
    LinkSpec,
    OptionData,
    PartSpec,
    Spec,
    parse_spec,
    texts,
)
from spatialcad.tasks.mechanical_system.steps import exact_motion, steps
from spatialcad.verify.base import crop

Z, Y = (0.0, 0.0, 1.0), (0.0, 1.0, 0.0)


def gear(name, x, y, teeth, shaft, z=0.0, kind="gear"):
    return PartSpec(name, kind, shaft, (x, y, z), Z, teeth / 2, teeth, 0.0, "front")


def pulley(name, x, y, r, shaft, z=0.0):
    return PartSpec(name, "pulley", shaft, (x, y, z), Z, r, 0, 0.0, "front")


def mechanism(parts, links, sense="clockwise", asked=None):
    names = [p.name for p in parts]
    return Spec(parts=parts, links=[LinkSpec(*lk) for lk in links], driver=names[0],
                driver_sense=sense, oblique=True, question="motion",
                asked=asked or names[1:3], open_answer="")


def words(spec):
    """Each part's motion word by the verifier's solve; None when jammed."""
    speeds = v.solve(spec)
    return None if speeds is None else {p.name: v.word(p, speeds[p.name]) for p in spec.parts}


def propagated(spec):
    """Each part's speed by the generator's propagation (None when jammed); a planetary
    train's by Willis's rule; a worm drive's from the worm's hand (worm.py)."""
    if planetary.is_planetary(spec):
        return planetary.spec_speeds(spec)
    if worm.is_worm_drive(spec):
        return worm.speeds(spec)
    parts = v.geometry_parts(spec)
    named = {p.name: p for p in parts}
    links = [mech.Link(lk.kind, lk.a, lk.b, mech.factor(lk.kind, named[lk.a], named[lk.b]))
             for lk in spec.links]
    driver = spec.part(spec.driver)
    omega = Fraction(-1 if spec.driver_sense == "clockwise" else 1) * int(
        np.sign(np.dot(driver.axis, Z if driver.seen_from == "front" else Y)))
    return mech.propagate(parts, links, spec.driver, omega)[0]


def test_a_chain_of_gears_alternates_and_speeds_follow_the_teeth():
    spec = mechanism([gear("E", 0, 0, 12, 0), gear("F", 15, 0, 18, 1), gear("G", 15, 14, 10, 2)],
                     [("mesh", "E", "F"), ("mesh", "F", "G")])
    assert words(spec) == {"E": "clockwise", "F": "counterclockwise", "G": "clockwise"}
    speeds = v.solve(spec)
    assert speeds is not None
    assert math.isclose(abs(speeds["F"]), 12 / 18) and math.isclose(abs(speeds["G"]), 12 / 10)
    assert propagated(spec) == {"E": -1, "F": Fraction(2, 3), "G": Fraction(-6, 5)}


def test_a_ring_of_three_meshing_gears_locks():
    h = 12 * math.sqrt(3) / 2
    spec = mechanism([gear("E", 0, 0, 12, 0), gear("F", 12, 0, 12, 1), gear("G", 6, h, 12, 2)],
                     [("mesh", "E", "F"), ("mesh", "F", "G"), ("mesh", "G", "E")])
    assert words(spec) is None and propagated(spec) is None
    # a ring of four turns (an even ring agrees with itself)
    four = mechanism([gear("E", 0, 0, 12, 0), gear("F", 12, 0, 12, 1), gear("G", 12, 12, 12, 2),
                      gear("H", 0, 12, 12, 3)],
                     [("mesh", "E", "F"), ("mesh", "F", "G"), ("mesh", "G", "H"),
                      ("mesh", "H", "E")])
    assert words(four) == {"E": "clockwise", "F": "counterclockwise", "G": "clockwise",
                           "H": "counterclockwise"}


@pytest.mark.parametrize(("kind", "same"), [("belt", True), ("crossed", False)])
def test_a_crossed_belt_reverses_and_an_open_one_does_not(kind, same):
    spec = mechanism([pulley("E", 0, 0, 3, 0), pulley("F", 20, 5, 6, 1)], [(kind, "E", "F")],
                     asked=["F", "E"])
    said = words(spec)
    assert said is not None and (said["F"] == said["E"]) == same
    speeds = v.solve(spec)
    assert speeds is not None and math.isclose(abs(speeds["F"]), 0.5)
    assert propagated(spec) == {"E": -1, "F": Fraction(-1 if same else 1, 2)}


def test_a_compound_gear_keeps_its_sense_and_speed():
    spec = mechanism([gear("E", 0, 0, 12, 0), gear("F", 16, 0, 20, 1),
                      gear("G", 16, 0, 10, 1, z=10.0), gear("H", 16, 12, 14, 2, z=10.0)],
                     [("mesh", "E", "F"), ("shaft", "F", "G"), ("mesh", "G", "H")])
    said, speeds = words(spec), v.solve(spec)
    assert said is not None and speeds is not None
    assert said["G"] == said["F"] == "counterclockwise" and said["H"] == "clockwise"
    assert speeds["G"] == speeds["F"] and math.isclose(abs(speeds["H"]), 0.6 * 10 / 14)


@pytest.mark.parametrize(("below", "way"), [(True, "left"), (False, "right")])
def test_a_rack_moves_the_way_its_pinions_surface_moves(below, way):
    """A clockwise pinion's bottom moves left and its top right."""
    axis = (-1.0, 0.0, 0.0) if below else (1.0, 0.0, 0.0)
    rack = PartSpec("F", "rack", -1, (0.0, -6.0 if below else 6.0, 0.0), axis, 12.0, 0, 0.0)
    spec = mechanism([gear("E", 0, 0, 12, 0), rack], [("mesh", "E", "F")], asked=["F", "E"])
    assert words(spec) == {"E": "clockwise", "F": way}
    speeds = v.solve(spec)
    assert speeds is not None and math.isclose(abs(speeds["F"]), 6.0)
    assert (propagated(spec)["F"] > 0) == (speeds["F"] > 0)


def test_a_bevel_pair_turns_the_axis():
    """A bevel gear standing on top of a gear that turns counterclockwise from the front
    turns counterclockwise seen from above, its axle square to the first."""
    top = PartSpec("F", "bevel", 1, (0.0, 6.0, 8.0), Y, 8.0, 16, 0.0, "above")
    spec = mechanism([gear("E", 0, 0, 12, 0, kind="bevel"), top], [("mesh", "E", "F")],
                     sense="counterclockwise", asked=["F", "E"])
    assert words(spec) == {"E": "counterclockwise", "F": "counterclockwise"}
    speeds = v.solve(spec)
    assert speeds is not None and math.isclose(speeds["F"], 12 / 16)
    assert propagated(spec) == {"E": 1, "F": Fraction(3, 4)}
    assert np.dot(spec.part("E").axis, spec.part("F").axis) == 0


@pytest.mark.parametrize(("side", "way"), [(1, "up"), (-1, "down")])
def test_a_drum_winds_its_rope_and_lifts_the_weight(side, way):
    drum = PartSpec("F", "drum", 0, (0.0, 0.0, 10.0), Z, 4.0, 0, 0.0, "front")
    weight = PartSpec("G", "weight", -1, (4.0 * side, -12.0, 10.0), Y, 1.8, 0, 0.0)
    spec = mechanism([gear("E", 0, 0, 16, 0), drum, weight],
                     [("shaft", "E", "F"), ("rope", "F", "G")], sense="counterclockwise",
                     asked=["G", "F"])
    said = words(spec)
    assert said is not None and said["G"] == way
    assert (propagated(spec)["G"] > 0) == (way == "up")


def test_links_whose_geometry_does_not_hold_are_refused():
    apart = mechanism([gear("E", 0, 0, 12, 0), gear("F", 20, 0, 12, 1)], [("mesh", "E", "F")])
    with pytest.raises(v.Unsound, match="not tangent"):
        v.solve(apart)
    loose = mechanism([gear("E", 0, 0, 12, 0), gear("F", 12, 0, 12, 1), gear("G", 40, 0, 12, 2)],
                      [("mesh", "E", "F")])
    with pytest.raises(v.Unsound, match="not driven"):
        v.solve(loose)


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_the_verifiers_solve_agrees_with_the_generators_propagation(level):
    gen = Generator()
    built = 0
    for seed in range(12):
        try:  # a draw may find no mechanism (the pipeline then draws again)
            spec = parse_spec(gen.build(level, np.random.default_rng(seed)).spec)
        except Reject:
            continue
        built += 1
        if spec.question in sp.LINKAGE_QUESTIONS:  # tests/test_mechanical_linkages.py
            continue
        solved, exact = v.solve(spec), propagated(spec)
        assert (solved is None) == (exact is None)
        if solved is not None and exact is not None:
            for name, speed in exact.items():
                assert math.isclose(solved[name], float(speed), rel_tol=1e-9, abs_tol=1e-12), \
                    (level, seed, name)
    assert built >= 9


def test_every_distractor_is_rejected_as_the_answer():
    kinds = check_distractors("mechanical_system", (0, 1, 2), 6)
    assert {"one_reversed", "both_reversed"} <= kinds


def _item(level, want):
    """The first generated item (record, image) whose spec passes ``want``."""
    for record, image in generated_items("mechanical_system", (level,), 12, seed=3):
        if want(parse_spec(record["spec"])):
            return copy.deepcopy(record), image
    raise AssertionError("no such item")


def _redrawn(record, spec, arrow=None):
    """The item's image composed again with its picture drawn from ``spec`` (arrow sign:
    the driver's); ``record``'s layout is updated to it."""
    sign = arrow if arrow is not None else (1 if v._driver_speed(spec) > 0 else -1)
    panel = md.draw(v.geometry_parts(spec), [(lk.kind, lk.a, lk.b) for lk in spec.links],
                    spec.oblique, {spec.driver: sign})
    image, layout = compose([(panel, "Mechanism")])
    record["layout"] = layout
    return image


def test_a_removed_mesh_fails_the_verifier():
    record, image = _item(1, lambda s: sum(lk.kind == "mesh" for lk in s.links) >= 2)
    assert v.verify(record, image) == []
    record["spec"]["links"] = [lk for lk in record["spec"]["links"] if lk["kind"] == "mesh"][1:] \
        + [lk for lk in record["spec"]["links"] if lk["kind"] != "mesh"]
    assert v.verify(record, image)


def test_the_generator_sees_a_mesh_drawn_apart():
    """legibility.loose_mesh, which the generators ask before the verifier would refuse
    the picture: a drawn mesh passes; the same gear moved half a module away does not."""
    record, _ = _item(0, lambda s: True)
    spec = parse_spec(record["spec"])
    parts = v.geometry_parts(spec)
    links = [(lk.kind, lk.a, lk.b) for lk in spec.links]
    assert not legibility.loose_mesh(parts, links, spec.oblique)
    _, a, b = next(lk for lk in links if lk[0] == "mesh")
    pa, pb = (next(p for p in parts if p.name == n) for n in (a, b))
    u = (np.asarray(pb.centre) - np.asarray(pa.centre)) / (pa.radius + pb.radius)
    moved = replace(pb, centre=tuple(float(x) for x in np.asarray(pb.centre) + 0.5 * u))
    apart = [moved if p.name == b else p for p in parts]
    assert legibility.loose_mesh(apart, links, spec.oblique)


def test_an_added_mesh_fails_the_verifier():
    record, image = _item(0, lambda s: len(s.links) == 2)
    names = [p["name"] for p in record["spec"]["parts"]]
    linked = {frozenset((lk["a"], lk["b"])) for lk in record["spec"]["links"]}
    a, b = next((x, y) for x in names for y in names if x < y and {x, y} not in linked)
    record["spec"]["links"].append({"kind": "mesh", "a": a, "b": b})
    assert any("not tangent" in f for f in v.verify(record, image))


def test_an_arrow_drawn_the_wrong_way_fails_the_verifier():
    record, image = _item(0, lambda s: True)
    spec = parse_spec(record["spec"])
    assert v.verify(record, _redrawn(record, spec)) == []
    wrong = _redrawn(record, spec, arrow=-1 if v._driver_speed(spec) > 0 else 1)
    assert "the driver's arrow shows the other sense" in v.verify(record, wrong)


def test_gears_moved_into_contact_fail_the_verifier():
    """A chain E - F - G: G is turned about F until it touches E as well; the picture is
    redrawn from the changed spec, so only the gap check can see it."""
    record, image = _item(0, lambda s: len(s.links) == 2 and not {s.links[0].a, s.links[0].b}
                          & {s.links[1].a, s.links[1].b} == set() and words(s) is not None)
    spec = parse_spec(record["spec"])
    hub = ({spec.links[0].a, spec.links[0].b} & {spec.links[1].a, spec.links[1].b}).pop()
    e, g = (n for n in (p.name for p in spec.parts) if n != hub)
    pe, pf, pg = spec.part(e), spec.part(hub), spec.part(g)
    ce, cf = np.array(pe.centre[:2]), np.array(pf.centre[:2])
    ra, rb = pf.radius + pg.radius, pe.radius + pg.radius
    d = float(np.linalg.norm(ce - cf))
    along = (d * d + ra * ra - rb * rb) / (2 * d)
    u = (ce - cf) / d
    c = cf + along * u + math.sqrt(ra * ra - along * along) * np.array([-u[1], u[0]])
    record["spec"]["parts"] = [dict(p, centre=[float(c[0]), float(c[1]), 0.0]) if p["name"] == g
                               else p for p in record["spec"]["parts"]]
    moved = parse_spec(record["spec"])
    failures = v.verify(record, _redrawn(record, moved))
    assert any(f.startswith(f"{min(e, g)} and {max(e, g)} do not touch") for f in failures)


def test_an_answer_letter_changed_fails():
    record, image = _item(1, lambda s: True)
    other = next(o["letter"] for o in record["options"] if not o["is_answer"])
    record["Answer"] = other
    assert any("options that are right" in f for f in v.verify(record, image))


def _drawn(gen, level, seed):
    """The item the pipeline would keep: a rejected draw is replaced by the next seed's."""
    for attempt in range(20):
        try:
            return gen.build(level, np.random.default_rng([seed, attempt]))
        except Reject:
            continue
    raise AssertionError("no draw")


def test_answers_are_balanced_over_a_level():
    """Senses half and half, "same way as the driver" half and half, jammed items about a
    third, "Nothing can move" right about as often as it is offered wrongly."""
    gen, said, same, jam_right, jam_wrong, motion = Generator(), Counter(), Counter(), 0, 0, 0
    for seed in range(240):  # 160 draws left "Nothing can move" near its bound by chance
        draft = _drawn(gen, 1, 1000 + seed)
        spec = parse_spec(draft.spec)
        if spec.question != "motion":
            continue
        motion += 1
        texts = [o.text for o in draft.options]
        if spec.open_answer == "cannot move":
            jam_right += 1
            continue
        jam_wrong += "Nothing can move." in texts
        said[spec.open_answer] += 1
        first = spec.part(spec.asked[0])
        if first.turns:
            same[spec.open_answer == spec.driver_sense] += 1
    assert abs(said["clockwise"] - said["counterclockwise"]) <= 0.25 * sum(said.values())
    assert abs(same[True] - same[False]) <= 0.3 * sum(same.values())
    assert 0.2 * motion <= jam_right <= 0.45 * motion
    assert 0.6 * jam_wrong <= jam_right <= 1.6 * jam_wrong


def test_the_pictured_steps_replay(spatialcad, tmp_path):
    out = tmp_path / "b{level}"
    code, _, err = spatialcad("generate", "--task", "mechanical_system", "--level", "0-2",
                              "--n", 3, "--with-steps", "--jobs", 1, "--out", out)
    assert code == 0, err
    for level in range(3):
        code, stdout, err = spatialcad("verify", tmp_path / f"b{level}")
        assert code == 0 and "all 3 items verified" in stdout, err


def test_the_drawing_keeps_meshing_teeth_apart_and_others_visibly_apart():
    for record, image in generated_items("mechanical_system", (1,), 4, seed=8):
        spec = parse_spec(record["spec"])
        fr, masks = md.part_masks(v.geometry_parts(spec),
                                  [(lk.kind, lk.a, lk.b) for lk in spec.links], spec.oblique)
        panel = crop(image, record["layout"]["reference"][0])
        assert panel.shape[:2] == (fr.size[1], fr.size[0])
        for lk in spec.links:
            if lk.kind == "mesh":
                assert md.mask_gap(masks[lk.a], masks[lk.b]) <= fr.mesh_gap


def test_boxes_apart_only_when_the_masks_are_that_far_apart():
    """The verifier's cheap pre-test skips the distance transform only for masks at least
    MIN_GAP_PX apart: against mask_gap on random blobs, near and far."""
    rng = np.random.default_rng(3)
    said = 0
    for _ in range(400):
        a, b = np.zeros((40, 50), bool), np.zeros((40, 50), bool)
        for m in (a, b):
            y, x = rng.integers(0, 36), rng.integers(0, 46)
            h, w = rng.integers(1, 5, size=2)
            m[y:y + h, x:x + w] = rng.random((h, w)) < 0.7
        for px in (2.0, md.MIN_GAP_PX, 9.0):
            if md.boxes_apart(a, b, px):
                said += 1
                assert md.mask_gap(a, b) >= px
    assert said > 100


def test_a_remembered_drawing_is_the_drawing_of_its_mechanism():
    """draw remembers its pictures (the verifier draws a just generated item again) under
    everything drawn: a second call gives the same pixels as a fresh drawing, as a copy, and
    another arrow is another picture."""
    record, _ = _item(1, lambda s: s.question not in sp.LINKAGE_QUESTIONS)
    spec = parse_spec(record["spec"])
    parts, links = v.geometry_parts(spec), [(lk.kind, lk.a, lk.b) for lk in spec.links]
    raster.forget()
    first = md.draw(parts, links, spec.oblique, {spec.driver: 1})
    first[:] = 0
    again = md.draw(parts, links, spec.oblique, {spec.driver: 1})
    assert np.array_equal(again, md._draw(parts, links, spec.oblique, {spec.driver: 1}))
    assert again.any() and not np.array_equal(again, first)
    other = md.draw(parts, links, spec.oblique, {spec.driver: -1})
    assert np.array_equal(other, md._draw(parts, links, spec.oblique, {spec.driver: -1}))
    assert not np.array_equal(other, again)


def test_disc_footprints_decide_as_their_polygons_do():
    """A disc footprint's box is its polygon's, and where the circles settle a clash
    (discs_clash) shapely's distance of the polygons says the same: random pairs, many
    of them within a chord's depth of CLEAR apart."""
    rng = np.random.default_rng(5)
    settled = 0
    for k in range(3000):
        a = (*rng.uniform(-40, 40, 2), float(rng.integers(3, 16)) + [0.0, 1.0, 2.85][k % 3])
        angle, r = rng.uniform(0, 2 * math.pi), float(rng.integers(3, 16)) + 1.0
        gap = g.CLEAR + rng.uniform(-1, 1) * (a[2] + r) * g.CHORD_DEPTH * 2
        d = a[2] + r + gap
        b = (a[0] + d * math.cos(angle), a[1] + d * math.sin(angle), r)
        fa, fb = (g.Footprint.of_disc(*c, 0.0) for c in (a, b))
        assert fa.box == fa.shape.bounds and fb.box == fb.shape.bounds
        said = g.discs_clash(a, b)
        if said is not None:
            settled += 1
            assert said == (fa.shape.distance(fb.shape) < g.CLEAR)
    assert 1000 < settled < 3000


# --- texts: part names, explanations, stated sizes (issue 47) ----------------------------

def motions_of(spec):
    """The generator's and the verifier's motions of ``spec`` (each its own derivation)."""
    return exact_motion(spec), v.motion(spec)


def explained(spec, option):
    """The option's explanation, which both derivations must give alike."""
    said = [explanation(spec, OptionData.from_json(option), m) for m in motions_of(spec)]
    assert said[0] == said[1]
    return said[0]


def chain_of_three():
    return mechanism([gear("E", 0, 0, 12, 0), gear("F", 15, 0, 18, 1), gear("G", 15, 14, 10, 2)],
                     [("mesh", "E", "F"), ("mesh", "F", "G")])


def hoist(side):
    drum = PartSpec("F", "drum", 0, (0.0, 0.0, 10.0), Z, 4.0, 0, 0.0, "front")
    weight = PartSpec("G", "weight", -1, (4.0 * side, -12.0, 10.0), Y, 1.8, 0, 0.0)
    return mechanism([gear("E", 0, 0, 16, 0), drum, weight],
                     [("shaft", "E", "F"), ("rope", "F", "G")], sense="counterclockwise",
                     asked=["G", "F"])


LINK_CASES = {
    "mesh": (chain_of_three(), {"F": "clockwise", "G": "clockwise"},
             "Wrong: Gear E turns clockwise; gear F, meshing with gear E, turns the other way, "
             "counterclockwise; but this option says gear F turns clockwise."),
    "both wrong": (chain_of_three(), {"F": "clockwise", "G": "counterclockwise"},
                   "Wrong: Gear E turns clockwise; gear F, meshing with gear E, turns the other "
                   "way, counterclockwise; gear G, meshing with gear F, turns the other way, "
                   "clockwise; but this option says gear F turns clockwise and gear G turns "
                   "counterclockwise."),
    "right": (chain_of_three(), {"F": "counterclockwise", "G": "clockwise"},
              "Right: Gear E turns clockwise; gear F, meshing with gear E, turns the other way, "
              "counterclockwise; gear G, meshing with gear F, turns the other way, clockwise."),
    "ring": (mechanism([gear("E", 0, 0, 12, 0), gear("F", -4, 0, 20, 1, kind="ring")],
                       [("mesh", "E", "F")], asked=["F", "E"]),
             {"F": "counterclockwise", "E": "clockwise"},
             "Wrong: Gear E turns clockwise; ring gear F, meshing around gear E, turns the same "
             "way, clockwise; but this option says ring gear F turns counterclockwise."),
    "belt": (mechanism([pulley("E", 0, 0, 3, 0), pulley("F", 20, 5, 6, 1)], [("belt", "E", "F")],
                       asked=["F", "E"]), {"F": "counterclockwise", "E": "clockwise"},
             "Wrong: Pulley E turns clockwise; pulley F, joined to pulley E by an open belt, "
             "turns the same way, clockwise; but this option says pulley F turns "
             "counterclockwise."),
    "crossed": (mechanism([pulley("E", 0, 0, 3, 0), pulley("F", 20, 5, 6, 1)],
                          [("crossed", "E", "F")], asked=["F", "E"]),
                {"F": "clockwise", "E": "clockwise"},
                "Wrong: Pulley E turns clockwise; pulley F, joined to pulley E by a crossed "
                "belt, turns the other way, counterclockwise; but this option says pulley F "
                "turns clockwise."),
    "axle": (mechanism([gear("E", 0, 0, 12, 0), gear("F", 16, 0, 20, 1),
                        gear("G", 16, 0, 10, 1, z=10.0), gear("H", 16, 12, 14, 2, z=10.0)],
                       [("mesh", "E", "F"), ("shaft", "F", "G"), ("mesh", "G", "H")],
                       asked=["G", "H"]), {"G": "clockwise", "H": "clockwise"},
             "Wrong: Gear E turns clockwise; gear F, meshing with gear E, turns the other way, "
             "counterclockwise; gear G, on one axle with gear F, turns with it, "
             "counterclockwise; but this option says gear G turns clockwise."),
    "rack": (mechanism([gear("E", 0, 0, 12, 0),
                        PartSpec("F", "rack", -1, (0.0, -6.0, 0.0), (-1.0, 0.0, 0.0), 12.0, 0,
                                 0.0)], [("mesh", "E", "F")], asked=["F", "E"]),
             {"F": "right", "E": "clockwise"},
             "Wrong: Gear E turns clockwise; rack F, meshing with the underside of gear E, "
             "moves left; but this option says rack F moves right."),
    "bevel": (mechanism([gear("E", 0, 0, 12, 0, kind="bevel"),
                         PartSpec("F", "bevel", 1, (0.0, 6.0, 8.0), Y, 8.0, 16, 0.0, "above")],
                        [("mesh", "E", "F")], sense="counterclockwise", asked=["F", "E"]),
              {"F": "clockwise", "E": "counterclockwise"},
              "Wrong: Bevel gear E turns counterclockwise; bevel gear F, meshing with bevel gear "
              "E at a right angle, turns counterclockwise (seen from above); but this option "
              "says bevel gear F turns clockwise."),
    "rope": (hoist(1), {"G": "down", "F": "counterclockwise"},
             "Wrong: Gear E turns counterclockwise; drum F, on one axle with gear E, turns with "
             "it, counterclockwise; weight G, hanging from the right side of drum F, moves up; "
             "but this option says weight G moves down."),
}


@pytest.mark.parametrize("case", list(LINK_CASES))
def test_an_explanation_follows_the_motion_to_where_the_option_errs(case):
    """Every link kind: the chain from the driver to the part the option gets wrong (and
    only the links on the way), then what the option says there."""
    spec, claims, want = LINK_CASES[case]
    assert explained(spec, {"motions": claims}) == want


def test_a_jam_explanation_names_the_two_paths_that_disagree():
    """A ring of three gears: the paths meet at G (not at the driver itself)."""
    h = 12 * math.sqrt(3) / 2
    spec = mechanism([gear("E", 0, 0, 12, 0), gear("F", 12, 0, 12, 1), gear("G", 6, h, 12, 2)],
                     [("mesh", "E", "F"), ("mesh", "F", "G"), ("mesh", "G", "E")])
    jam = ("Suppose gear E turns clockwise: gear F, meshing with gear E, turns the other way, "
           "counterclockwise; gear G, meshing with gear F, turns the other way, clockwise; but "
           "gear G is also meshing with gear E: going E-F-G, G turns clockwise, and going E-G, "
           "counterclockwise; the two paths disagree, so nothing can move")
    assert explained(spec, {"jammed": True}) == f"Right: {jam}."
    assert explained(spec, {"motions": {"F": "counterclockwise", "G": "clockwise"}}) == \
        f"Wrong: {jam}; this option says gear F turns counterclockwise, gear G turns clockwise."
    assert [s.text for s in steps(spec, OptionData(jammed=True))][-1] == \
        "But" + jam[jam.index("but") + 3:] + "."


def test_a_wrong_nothing_can_move_says_why_the_mechanism_moves():
    assert explained(chain_of_three(), {"jammed": True}) == (
        "Wrong: the mechanism moves, for its links form no closed loop, so no two paths can "
        "disagree: gear E turns clockwise; gear F, meshing with gear E, turns the other way, "
        "counterclockwise; gear G, meshing with gear F, turns the other way, clockwise.")
    four = mechanism([gear("E", 0, 0, 12, 0), gear("F", 12, 0, 12, 1), gear("G", 12, 12, 12, 2),
                      gear("H", 0, 12, 12, 3)],
                     [("mesh", "E", "F"), ("mesh", "F", "G"), ("mesh", "G", "H"),
                      ("mesh", "H", "E")], asked=["F", "H"])
    assert explained(four, {"jammed": True}) == (
        "Wrong: the mechanism moves, for every closed loop of its links agrees (going E-F-G-H "
        "and going E-H, H turns counterclockwise): gear E turns clockwise; gear F, meshing "
        "with gear E, turns the other way, counterclockwise; gear G, meshing with gear F, "
        "turns the other way, clockwise; gear H, meshing with gear G, turns the other way, "
        "counterclockwise.")


def fastest_item():
    """E (12 teeth) drives F (18) and K (24); F drives G (10): speeds 1, 2/3, 6/5, 1/2."""
    spec = mechanism([gear("E", 0, 0, 12, 0), gear("F", 15, 0, 18, 1), gear("G", 15, 14, 10, 2),
                      gear("K", -18, 0, 24, 3)],
                     [("mesh", "E", "F"), ("mesh", "F", "G"), ("mesh", "E", "K")])
    return dataclasses.replace(spec, question="fastest", asked=["G", "E", "F", "K"],
                               open_answer="G")


def test_a_fastest_explanation_gives_the_speed_ratios_from_the_teeth():
    spec = fastest_item()
    assert explained(spec, {"part": "G"}) == (
        "Right: Gear F, meshing with gear E, turns at 1 × 12/18 = 2/3 times E's speed; gear G, "
        "meshing with gear F, turns at 2/3 × 18/10 = 6/5 times E's speed; gear K, meshing with "
        "gear E, turns at 1 × 12/24 = 1/2 times E's speed; so gear G turns fastest: G 6/5, E 1, "
        "F 2/3, K 1/2.")
    assert explained(spec, {"part": "F"}) == (
        "Wrong: Gear F, meshing with gear E, turns at 1 × 12/18 = 2/3 times E's speed; gear G, "
        "meshing with gear F, turns at 2/3 × 18/10 = 6/5 times E's speed; so gear F turns at "
        "2/3 and gear G at 6/5 times E's speed: G turns faster.")
    assert explained(spec, {"part": "E"}) == (
        "Wrong: Gear F, meshing with gear E, turns at 1 × 12/18 = 2/3 times E's speed; gear G, "
        "meshing with gear F, turns at 2/3 × 18/10 = 6/5 times E's speed; so gear E turns at 1 "
        "and gear G at 6/5 times E's speed: G turns faster.")


def test_fastest_items_state_the_tooth_counts_and_radii_in_every_form():
    said = texts(fastest_item(), [OptionData(part=n) for n in ("G", "E", "F", "K")])
    sizes = " Tooth counts: E 12, F 18, G 10, K 24. A motor"
    assert sizes in said.question and sizes in said.question_direct
    assert all(sizes in q for q in said.judge if q is not None)
    belted = dataclasses.replace(
        mechanism([gear("E", 0, 0, 12, 0), pulley("F", 0, 0, 3, 0, z=10.0),
                   pulley("G", 20, 0, 6, 1, z=10.0)], [("shaft", "E", "F"), ("belt", "F", "G")]),
        question="slowest", asked=["G", "E", "F", "E"])
    assert " Tooth counts: E 12. Pulley radii: F 3, G 6. A motor" in texts(belted, []).question
    motion_item = texts(chain_of_three(), [OptionData(jammed=True)])
    assert "Tooth counts" not in motion_item.question + motion_item.question_direct


def test_choices_and_every_text_name_parts_as_labelled():
    """The option of a fastest item is "Gear E", never "Gear e"; a motion option and the
    judge questions keep the labels too."""
    spec = fastest_item()
    said = texts(spec, [OptionData(part=n) for n in spec.asked])
    assert said.choices == ["Gear G", "Gear E", "Gear F", "Gear K"]
    assert said.judge[0] is not None and said.judge[0].endswith(
        "Does gear G turn fastest of the parts G, E, F, K? Answer yes or no.")
    ring = LINK_CASES["ring"][0]
    said = texts(ring, [OptionData(motions={"F": "clockwise", "E": "clockwise"})])
    assert said.choices == ["Ring gear F turns clockwise, gear E turns clockwise"]
    assert said.judge[0] is not None and said.judge[0].endswith(
        "Is this what happens: ring gear F turns clockwise, gear E turns clockwise? Answer yes "
        "or no.")
    for record, _ in generated_items("mechanical_system", (1, 2), 8, seed=5):
        spec = parse_spec(record["spec"])
        labels = {p.name for p in spec.parts}
        for choice in record["Choices"]:
            if spec.question == "turns":
                assert re.fullmatch(r"\d+(/\d+)? turns?", choice), choice
            elif choice != "Nothing can move.":
                named_here = re.findall(r"(?:gear|Gear|pulley|Pulley|rack|Rack|drum|Drum|weight|"
                                        r"Weight|arm|[Cc]rank|[Ss]lider|[Ff]ollower|[Rr]ocker) "
                                        r"(\S+?)\b", choice)
                assert named_here and set(named_here) <= labels, choice


def test_generated_explanations_say_where_each_wrong_option_errs():
    """In generated items every wrong motion option ends with the parts it gets wrong and
    the chain reaches each of them with its true motion; wrong speed options compare with
    the answer's part; none is the old "does not follow from the links"."""
    for record, _ in generated_items("mechanical_system", (0, 1, 2), 8, seed=4):
        spec = parse_spec(record["spec"])
        if spec.question in sp.LINKAGE_QUESTIONS:  # tests/test_mechanical_linkages.py
            continue
        moved = v.motion(spec)
        lines = dict(line.split(": ", 1) for line in record["Explanation"].split("\n"))
        for o in record["options"]:
            said = lines[o["letter"]]
            assert said.startswith("Right: " if o["is_answer"] else "Wrong: ")
            assert "does not follow" not in said
            claims = o["data"].get("motions")
            if o["is_answer"] or claims is None or moved.clash is not None or \
                    v.solve(spec) is None:  # a self-locked worm drive: nothing moves
                continue
            erring = [n for n in spec.asked if claims[n] != moved.words[n]]
            assert said.endswith("; but this option says " + " and ".join(
                f"{sp.named(spec.part(n))} {sp.verb(spec.part(n))} {claims[n]}"
                for n in erring) + ".")
            for n in erring:
                assert f"{sp.named(spec.part(n))}, " in said and moved.words[n] in said


def test_a_changed_explanation_fails_the_verifier():
    record, image = _item(1, lambda s: s.question == "motion")
    assert v.verify(record, image) == []
    lines = record["Explanation"].split("\n")
    lines[0], lines[1] = lines[0][:3] + lines[1][3:], lines[1][:3] + lines[0][3:]
    swapped = dict(record, Explanation="\n".join(lines))
    assert v.verify(swapped, image) == [
        "option A's explanation is not the motion followed along the links",
        "option B's explanation is not the motion followed along the links"]
    old = "\n".join(f"{o['letter']}: Wrong: it does not follow from the links."
                    for o in record["options"])
    assert len(v.verify(dict(record, Explanation=old), image)) == 4
    wrong = next(o for o in record["options"] if not o["is_answer"])
    wrong["data"] = {"motions": {"X": "clockwise"}}  # no explanation to write: no crash
    assert f"option {wrong['letter']} does not name a motion of each asked part" in \
        v.verify(record, image)


def speed_jam():
    """E and R (12 teeth each) turn the same way, R at half E's speed (a belt from a pulley
    of radius 3 to one of 6); J (24) meshes both: the paths to J agree on its sense and
    disagree on its speed."""
    j = (15.0, math.sqrt(18 ** 2 - 15 ** 2))
    return mechanism([gear("E", 0, 0, 12, 0), pulley("P", 0, 0, 3, 0, z=10.0),
                      pulley("Q", 30, 0, 6, 1, z=10.0), gear("R", 30, 0, 12, 1),
                      gear("J", *j, 24, 2)],
                     [("shaft", "E", "P"), ("belt", "P", "Q"), ("shaft", "Q", "R"),
                      ("mesh", "E", "J"), ("mesh", "R", "J")], asked=["J", "R"])


def test_a_jam_of_speeds_alone_is_refused():
    """Its picture shows no disagreement without counting teeth: the generator never makes
    one, and the verifier fails it."""
    spec = speed_jam()
    assert v.solve(spec) is None
    for moved in motions_of(spec):
        assert moved.clash is not None and not moved.sense_clash
        assert moved.clash_word == moved.words["J"] == "counterclockwise"
    record = {"Explanation": "", "options": []}
    assert "the mechanism jams by speeds alone: the two paths agree on senses" in \
        v._explanation_failures(spec, record, [], None)


def test_step_texts_hand_on_senses_and_speed_ratios():
    spec = LINK_CASES["axle"][0]
    assert [s.text for s in steps(spec, OptionData(motions={}))] == [
        "Gear F, meshing with gear E, turns the other way, counterclockwise, at 1 × 12/20 = 3/5 "
        "times E's speed.",
        "Gear G, on one axle with gear F, turns with it, counterclockwise, at 3/5 times E's "
        "speed.",
        "Gear H, meshing with gear G, turns the other way, clockwise, at 3/5 × 10/14 = 3/7 times "
        "E's speed."]
    assert [s.text for s in steps(hoist(-1), OptionData(motions={}))][-1] == \
        "Weight G, hanging from the left side of drum F, moves down."


# --- levels (issue 46) -------------------------------------------------------------------

def test_the_last_level_is_the_last_that_grows():
    """Level 13 has 18 parts, all the labels allow (two kept for a module's second part);
    level 14 would be level 13 again, so the task ends at 13."""
    gen, info = Generator(), registry.task("mechanical_system")
    assert info.max_level == 13 and info.levels_text() == "0-13"
    assert gen.params(13)["parts"] == len(g.LABELS) - 2 > gen.params(12)["parts"]
    assert gen.params(14) == gen.params(13)
    assert not info.has_level(14)


# --- what the picture shows (render/mechanism_legibility.py) on hand-made layouts --------

def _gear(name, x, y, teeth, shaft, z=0.0, kind="gear", axis=Z):
    return mech.Part(name, kind, shaft, (x, y, z), axis, teeth / 2, teeth)


def _shown(parts, links, arrows=None):
    return md.owners(parts, links, True, arrows or {parts[0].name: 1})


def _covering(at, z):
    """The world point at depth ``z`` drawn (oblique) where ``at`` at depth 0 is."""
    return at[0] - md.OBLIQUE[0] * z, at[1] - md.OBLIQUE[1] * z


def test_a_mesh_under_another_part_fails():
    """E and F mesh at (10, 0); gear G in front (depth 10, on its own axle) drawn over that
    point hides the mesh; moved aside, the mesh shows."""
    links = [("mesh", "E", "F")]
    gx, gy = _covering((10.0, 0.0), 10.0)
    hidden = [_gear("E", 0, 0, 20, 0), _gear("F", 18, 0, 16, 1), _gear("G", gx, gy, 12, 2, 10.0)]
    said = legibility.failures(hidden, links, True, {"E": 1}, ["E", "F"], [0])
    assert "the contact of E and F is under G" in said
    clear = [*hidden[:2], _gear("G", gx, gy - 30, 12, 2, 10.0)]
    assert not [f for f in legibility.failures(clear, links, True, {"E": 1}, ["E", "F"], [0])
                if "contact" in f]


def test_a_part_hidden_behind_another_fails():
    """Gear F right behind a larger gear G (not linked to it) shows almost nothing."""
    gx, gy = _covering((30.0, 0.0), 10.0)
    parts = [_gear("E", 0, 0, 20, 0), _gear("F", 30, 0, 12, 1), _gear("G", gx, gy, 20, 2, 10.0)]
    said = legibility.failures(parts, [], True, {"E": 1}, ["F"], [])
    assert any(f.startswith("F shows") for f in said)
    pl, names, shown = _shown(parts, [])
    assert legibility.outline_shown(pl, names, shown, parts[1], True) < legibility.MIN_OUTLINE


def test_a_part_behind_a_ring_gear_shows_through_it():
    """A ring gear's inside is open: gear B behind the ring (depth 0, the ring and its
    pinion at depth 10) shows its whole outline, in its own colour."""
    rx, ry = _covering((0.0, 0.0), 10.0)
    ring = mech.Part("R", "ring", 1, (rx, ry, 10.0), Z, 15.0, 30)
    pinion = _gear("P", rx + 8.0, ry, 14, 2, 10.0)
    behind = _gear("B", -4.0, 0.0, 10, 3)
    parts = [pinion, ring, behind]
    pl, names, shown = _shown(parts, [("mesh", "P", "R")], {"P": 1})
    assert legibility.outline_shown(pl, names, shown, behind, True) >= 0.9
    picture = md.draw(parts, [("mesh", "P", "R")], True, {"P": 1})
    x, y = (int(round(float(c))) for c in pl.frame.pixel(md.project(
        np.array([[-4.0 - 3.5, 0.0, 0.0]]), True))[0])
    assert tuple(picture[y, x]) == md.COLOURS["gear"]


def test_labels_sit_on_their_own_part_and_a_misplaced_label_fails():
    """F's centre is covered by gear G in front: F's label goes where F shows (or outside
    with a leader line), never on G; the labels pass the checks.  A label moved onto G's
    middle fails them."""
    fx, fy = 30.0, 0.0
    gx, gy = _covering((fx - 4.0, fy - 4.0), 10.0)
    parts = [_gear("E", 0, 0, 20, 0), _gear("F", fx, fy, 24, 1), _gear("G", gx, gy, 10, 2, 10.0)]
    pl, names, shown = md.owners(parts, [], True, {"E": 1}, with_labels=False)
    assert legibility.label_failures(pl, names, shown) == []
    label = next(lb for lb in pl.labels if lb.name == "F")
    at = label.centre if label.leader is None else label.leader[1]
    assert shown[at[1], at[0]] == names.index("F") + 1
    g_centre = tuple(int(round(float(c))) for c in pl.frame.pixel(
        md.project(np.array([parts[2].centre]), True))[0])
    moved = replace(pl, labels=[replace(lb, centre=g_centre, leader=None) if lb.name == "F"
                                else lb for lb in pl.labels])
    said = legibility.label_failures(moved, names, shown)
    assert "label F is not on its part alone" in said


def test_labels_that_overlap_fail():
    parts = [_gear("E", 0, 0, 20, 0), _gear("F", 24, 0, 20, 1)]
    pl, names, shown = md.owners(parts, [("mesh", "E", "F")], True, {"E": 1},
                                 with_labels=False)
    e = pl.labels[0]
    stacked = replace(pl, labels=[e, replace(pl.labels[1], centre=(e.centre[0] + 3,
                                                                   e.centre[1]))])
    assert "labels E and F overlap" in legibility.label_failures(stacked, names, shown)


def test_the_drawing_fails_on_what_its_labels_fail(monkeypatch):
    """legibility.failures (what the generator and the verifier ask) holds the label
    rules' findings along with the parts', contacts' and axles'."""
    parts = [_gear("E", 0, 0, 20, 0), _gear("F", 24, 0, 20, 1)]
    args = (parts, [("mesh", "E", "F")], True, {"E": 1}, ["E", "F"], [0])
    legibility._failures.cache_clear()
    assert legibility.failures(*args) == []
    monkeypatch.setattr(legibility, "label_failures", lambda pl, names, shown: ["label E cut"])
    legibility._failures.cache_clear()
    assert legibility.failures(*args) == ["label E cut"]
    legibility._failures.cache_clear()


def test_the_axle_of_two_parts_shows_and_a_hidden_one_fails():
    """E (behind) and F (in front) on one axle: their shaft is drawn over them and shows;
    a gear G further in front over the shaft hides it."""
    parts = [_gear("E", 0, 0, 24, 0), _gear("F", 0, 0, 14, 0, 10.0)]
    links = [("shaft", "E", "F")]
    assert not [f for f in legibility.failures(parts, links, True, {"E": 1}, ["E", "F"], [0])
                if "axle" in f]
    pl, _, shown = _shown(parts, links)
    assert legibility.axle_shown(pl, shown, parts, True) >= 0.9
    gx, gy = _covering((-2.0, -2.0), 14.0)
    covered = [*parts, _gear("G", gx, gy, 12, 1, 14.0)]
    said = legibility.failures(covered, links, True, {"E": 1}, ["E", "F"], [0])
    assert any(f.startswith("the axle of E+F shows") for f in said)


def test_a_gear_on_a_vertical_axle_shows_its_axle_rising_above_it():
    top = mech.Part("F", "bevel", 1, (0.0, 6.0, 18.0), Y, 8.0, 16)
    parts = [_gear("E", 0, 0, 12, 0, 10.0, kind="bevel"), top]
    ends = md.axle([top])
    assert ends[1][1] - top.centre[1] >= top.radius + 4.0  # it rises above the gear
    pl, _, shown = _shown(parts, [("mesh", "E", "F")])
    assert legibility.axle_shown(pl, shown, [top], True) >= legibility.MIN_AXLE


def test_teeth_are_countable_and_crowded_teeth_fail():
    """Neighbouring teeth at least MIN_TOOTH_PX apart as drawn; a frame too small for
    them is measured as such."""
    e = _gear("E", 0, 0, 20, 0)
    fr = md.frame([e], [], False)
    assert legibility.tooth_gap(fr, e, False) >= legibility.MIN_TOOTH_PX
    small = replace(fr, scale=2.0)
    assert legibility.tooth_gap(small, e, False) == pytest.approx(
        2.0 * 2 * 10 * math.sin(math.pi / 20), rel=1e-6)
    assert legibility.tooth_gap(small, e, False) < legibility.MIN_TOOTH_PX


def test_a_small_drawing_on_a_large_picture_fails():
    """The mechanism fills its picture: generated items span at least MIN_FILL of its
    width or height within MAX_PIXELS; a drawing shrunk onto the same picture fails."""
    for record, image in generated_items("mechanical_system", (0, 2), 2, seed=4):
        box = record["layout"]["reference"][0]
        assert legibility.fill_failures(image, box) == []
        assert image.shape[0] * image.shape[1] <= md.MAX_PIXELS
        x, y, w, h = box
        small = np.full_like(image, 255)
        small[y:y + h // 3, x:x + w // 3] = image[y:y + h:3, x:x + w:3][:h // 3, :w // 3]
        assert legibility.fill_failures(small, box)


def test_the_verifier_refuses_a_picture_whose_mesh_is_hidden():
    """The verifier proves the rules on the stored picture: a mechanism whose mesh lies
    under another part fails it (the picture being the spec's drawing)."""
    gx, gy = _covering((10.0, 0.0), 10.0)
    spec = mechanism([gear("E", 0, 0, 20, 0), gear("F", 18, 0, 16, 1),
                      gear("G", 18, 0, 12, 1, z=10.0), gear("H", gx, gy, 12, 2, z=10.0)],
                     [("mesh", "E", "F"), ("shaft", "F", "G"), ("mesh", "G", "H")],
                     asked=["F", "H"])
    panel = md.draw(v.geometry_parts(spec), [(lk.kind, lk.a, lk.b) for lk in spec.links],
                    True, {"E": 1 if v._driver_speed(spec) > 0 else -1})
    said = v._picture_failures(spec, panel, False)
    assert any(f.startswith("the contact of E and F is under") for f in said)


def test_every_step_picture_shows_the_contact_it_uses():
    """--with-steps: each step's picture (arrows on every part moving so far) leaves the
    contact of the link that step uses in view."""
    from spatialcad.tasks.mechanical_system import steps as st
    checked = 0
    for record, _ in generated_items("mechanical_system", (1, 2), 3, seed=6):
        spec = parse_spec(record["spec"])
        if spec.question in sp.LINKAGE_QUESTIONS:  # no gear contacts: one step
            continue
        parts = v.geometry_parts(spec)
        links = [(lk.kind, lk.a, lk.b) for lk in spec.links]
        for step in st.steps(spec, None):
            speeds = step.state["speeds"]
            arrows = {n: 1 if Fraction(x) > 0 else -1 for n, x in speeds.items()}
            moving = set(speeds)
            for i, (kind, a, b) in enumerate(links):
                if kind != "shaft" and {a, b} <= moving:
                    said = [f for f in legibility.failures(parts, links, spec.oblique,
                                                            arrows, [], [i])
                            if f.startswith("the contact")]  # (its labels: the item's rule)
                    assert not said, (record["Image_id"], step.text, said)
                    checked += 1
    assert checked >= 6


def turns_item(asked="G", n=5):
    """fastest_item asking how many turns ``asked`` makes while E makes ``n``."""
    return dataclasses.replace(fastest_item(), question="turns", asked=[asked], driver_turns=n,
                               open_answer="")


def test_turns_are_the_driver_turns_times_the_tooth_ratio_along_the_links():
    """E 12 -> F 18 -> G 10: G turns 12/18 x 18/10 = 6/5 of E; E 12 -> K 24: 1/2 of E."""
    for asked, n, want in (("G", 5, "6"), ("K", 5, "5/2"), ("F", 4, "8/3"), ("G", 2, "12/5")):
        spec = turns_item(asked, n)
        assert v._truth(spec, v.solve(spec)) == (OptionData(turns=want), want)
    assert explained(turns_item("G", 5), {"turns": "6"}) == (
        "Right: Gear F, meshing with gear E, turns at 1 × 12/18 = 2/3 times E's speed; gear G, "
        "meshing with gear F, turns at 2/3 × 18/10 = 6/5 times E's speed; so while E makes 5 "
        "turns, gear G makes 5 × 6/5 = 6 turns.")
    assert explained(turns_item("K", 5), {"turns": "10"}) == (
        "Wrong: Gear K, meshing with gear E, turns at 1 × 12/24 = 1/2 times E's speed; so while "
        "E makes 5 turns, gear K makes 5 × 1/2 = 5/2 turns, not 10.")
    said = texts(turns_item("K", 5), [OptionData(turns="5/2"), OptionData(turns="1")])
    assert said.choices == ["5/2 turns", "1 turn"]
    assert " Tooth counts: E 12, F 18, G 10, K 24. A motor" in said.question
    assert said.question.endswith(
        "While gear E makes 5 turns, how many turns does gear K make? Answer with A, B, C or D.")
    assert said.question_direct.endswith("Answer with a whole number or a fraction in lowest "
                                         "terms (such as 7/2).")
    assert said.judge[1] is not None and said.judge[1].endswith(
        "Does gear K make 1 turn while gear E makes 5 turns? Answer yes or no.")


def test_a_number_of_turns_is_a_positive_fraction_in_lowest_terms():
    assert OptionData(turns="9/2").turns == "9/2"
    for bad in ("6/4", "0", "-3", "3/1", "x", "1/0"):
        with pytest.raises(sp.SpecError):
            OptionData(turns=bad)


def test_turns_options_are_the_slips_and_put_the_answer_at_every_rank():
    """Four different numbers, the right one first; the slips (ratio inverted, the driver's
    count kept, one driver turn) come before scaled answers; the answer is the smallest,
    second, third and largest option about equally often."""
    ranks = Counter()
    for seed in range(400):
        rng = np.random.default_rng(seed)
        data, ops = turns.options(Fraction(6, 5), 5, rng)
        values = [sp.turns_value(d.turns or "") for d in data]
        assert values[0] == 6 and len(set(values)) == 4 and ops[0] == "exact_turns"
        for value, op in zip(values[1:], ops[1:], strict=True):
            assert value == {"ratio_inverted": Fraction(25, 6), "driver_turns_kept": 5,
                             "one_driver_turn": Fraction(6, 5)}.get(op, value)
        below = sum(x < 6 for x in values[1:])
        if below:  # every slip lies below 6: the lower options are slips
            assert set(ops[1:1 + below]) <= {"ratio_inverted", "driver_turns_kept",
                                              "one_driver_turn"}
        ranks[below] += 1
    assert set(ranks) == {0, 1, 2, 3} and min(ranks.values()) > 70


def test_generated_turns_items_verify_and_a_wrong_count_fails():
    record, image = next((copy.deepcopy(r), i) for r, i in generated_items(
        "mechanical_system", (1,), 40, seed=0) if r["spec"]["question"] == "turns")
    assert v.verify(record, image) == []
    spec = parse_spec(record["spec"])
    right = next(o for o in record["options"] if o["is_answer"])
    assert record["Answer_direct"] == right["data"]["turns"] == spec.open_answer
    more = copy.deepcopy(record)
    more["spec"]["driver_turns"] = spec.driver_turns + 1
    assert f"options that are right: [], answer {record['Answer']}" in v.verify(more, image)
    wrong = copy.deepcopy(record)
    wrong["spec"]["open_answer"] = next(o for o in record["options"]
                                        if not o["is_answer"])["data"]["turns"]
    assert any("the open answer" in f for f in v.verify(wrong, image))
    dropped = copy.deepcopy(record)
    del dropped["spec"]["driver_turns"]
    assert "the driver's turns are stated exactly when the question asks turns" in \
        v.verify(dropped, image)
