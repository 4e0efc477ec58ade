"""CrossSection task and verifier (FreeCAD needed)."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
import shapely
from shapely import affinity
from shapely.geometry import box

from spatialcad import freecad_env
from spatialcad.cad import section as cut
from spatialcad.cad import solids, sweep, tessellate
from spatialcad.derived import scene_hash
from spatialcad.geometry import convex_pieces
from spatialcad.geometry import section_shape as ss
from spatialcad.geometry.colours import SOLID
from spatialcad.render.camera import orbit
from spatialcad.render.drawing import fitted_scale
from spatialcad.render.layout import MAX_PIXELS
from spatialcad.render.legibility import MIN_STEP_PX
from spatialcad.render.mesh import solid_mesh
from spatialcad.render.raster import render
from spatialcad.run.pipeline import assemble
from spatialcad.run.verification import run_verifier
from spatialcad.tasks import registry
from spatialcad.tasks.base import Reject
from spatialcad.tasks.cross_section import generate as task_module
from spatialcad.tasks.cross_section import verify as checker
from spatialcad.tasks.cross_section.spec import SolidDesc, parse_spec
from spatialcad.tasks.cross_section.spec import descs as spec_descs

freecad_env.load()  # FreeCAD is required (make test installs it): never skip these tests

INFO = registry.task("cross_section")
TASK = INFO.generator()


def build(level: int, seed: int):
    return TASK.build(level, np.random.default_rng(seed))


def assembled(level: int, draft) -> tuple[dict, np.ndarray]:
    """The record and composite image the pipeline would make (answer on letter B)."""
    record, image = assemble(INFO, draft, level=level, image_id="0000", letter="B",
                                 item_seed=0)
    return json.loads(json.dumps(record)), image  # as read back from benchmark.json


@pytest.fixture(scope="module")
def built() -> dict:
    """level -> (seed, draft) for levels 0-3, from the first seeds that are not rejected."""
    out = {}
    for level in range(4):
        for seed in range(10 * level, 10 * level + 10):
            try:
                out[level] = (seed, build(level, seed))
                break
            except Reject:
                continue
    return out


@pytest.fixture(scope="module")
def drafts(built: dict) -> dict:
    return {level: draft for level, (_, draft) in built.items()}


def test_registered_with_a_growing_ladder() -> None:
    assert isinstance(TASK, task_module.Generator)
    assert (INFO.record_task, INFO.category, INFO.needs_freecad) == (
        "CrossSection", "VisualPenetration", True)
    p = [TASK.params(level) for level in range(7)]
    assert [q["solids"] for q in p] == [2, 3, 3, 4, 5, 5, 5]
    assert p[0]["pointed_top"] and not p[1]["pointed_top"]
    assert p[1]["families"] == ["XY", "XZ", "YZ"] and len(p[2]["families"]) == 9
    assert all(a["factor"][0] >= b["factor"][0] and a["margin"] >= b["margin"]
               for a, b in zip(p, p[1:], strict=False))
    assert min(q["margin"] for q in p) > ss.SIMILAR_BELOW + ss.DENSE_STEP


def test_build_is_deterministic(built: dict) -> None:
    assert sorted(built) == [0, 1, 2, 3]
    for level, (seed, first) in built.items():
        again = build(level, seed)
        assert json.dumps(again.spec) == json.dumps(first.spec)
        assert again.question == first.question
        for a, b in zip(again.options, first.options, strict=True):
            assert a.data == b.data and np.array_equal(a.image, b.image)
        for a, b in zip(again.reference, first.reference, strict=True):
            assert np.array_equal(a.image, b.image)


def test_drafts_follow_the_level(drafts: dict) -> None:
    for level, draft in drafts.items():
        descs = draft.spec["solids"]
        assert len(descs) == TASK.params(level)["solids"]
        assert all(d["kind"] not in solids.POINTED for d in descs[1:])
        assert level > 0 or descs[0]["kind"] in solids.POINTED
        assert [o.is_answer for o in draft.options] == [False, False, False, True]
        families = [o.data["plane"]["family"] for o in draft.options]
        assert set(families) <= set(draft.spec["families"])
        assert level < 2 or any(f in cut.OBLIQUE_FAMILIES for f in families[:3])
        assert all(o.image.shape == (300, 300, 3) for o in draft.options)
        json.dumps(draft.spec)


def test_a_draft_is_the_stack_its_seed_draws_first(built: dict) -> None:
    for level, (seed, draft) in built.items():
        p = TASK.params(level)
        stack = task_module.random_stack(np.random.default_rng(seed), p["solids"],
                                         p["pointed_top"])
        assert draft.spec["solids"] == stack


@pytest.mark.parametrize("level", [0, 1, 2])
def test_levels_hold_over_2000_scenes(level: int) -> None:
    # A scene is the stack (spec.scene_key: its solids' kinds and sizes, to 0.01), which
    # build draws first (above); 2,500 stacks drawn as items' first draws are nearly all
    # distinct, so the level holds far more than 2,000 scenes (well over 2,000 of them
    # build: a level rejects fewer than 1 candidate in 2)
    p = TASK.params(level)
    keys = {scene_hash(INFO, {"solids": task_module.random_stack(
        np.random.default_rng([level, k]), p["solids"], p["pointed_top"]),
        "views": [], "families": [], "scale": 1.0}) for k in range(2500)}
    assert len(keys) >= 2450


def test_verifier_accepts_built_items(drafts: dict) -> None:
    for level in (0, 1, 2):
        record, image = assembled(level, drafts[level])
        assert checker.verify(record, image) == []


def test_verifier_rejects_a_true_section_as_the_answer(drafts: dict) -> None:
    record, image = assembled(1, drafts[1])
    answer = next(o for o in record["options"] if o["is_answer"])
    true = next(o for o in record["options"] if not o["is_answer"])
    answer["data"]["polygon"] = true["data"]["polygon"]
    failures = checker.verify(record, image)
    assert any("is a true section" in f for f in failures)


def test_verifier_rejects_a_horizontal_section_as_the_answer(drafts: dict) -> None:
    """Horizontal planes are checked with one section per solid: a FreeCAD slice low in the
    bottom solid, which no sample lies at, is still found true."""
    record, image = assembled(1, drafts[1])
    stacked = spec_descs(parse_spec(record["spec"]).solids)
    height = stacked[-1]["params"]["height"]
    section = cut.section(solids.make_composite(stacked), cut.family_normal("XY"),
                          0.23 * height)
    answer = next(o for o in record["options"] if o["is_answer"])
    answer["data"]["polygon"] = ss.to_text(section)
    failures = checker.verify(record, image)
    assert any(f"answer {answer['letter']} is a true section" in f for f in failures)


def test_horizontal_sections_within_a_solid_have_its_middle_ones_shape() -> None:
    """Why the verifier takes one horizontal section per solid (at its middle height)."""
    normal = checker.family_normal("XY")
    for descs in random_stacks(3):
        chords = chord_stack(descs)
        for s in chords:
            heights = np.r_[(s.z0 + s.z1) / 2.0, np.linspace(s.z0, s.z1, 9)[1:-1]]
            middle, *others = checker.sections(chords, normal, heights, checker.DENSE_ROWS)
            assert all(ss.dissimilarity(middle, g) < 1e-9 for g in others)


def test_verifier_rejects_a_doctored_true_section(drafts: dict) -> None:
    record, image = assembled(0, drafts[0])
    true = next(o for o in record["options"] if not o["is_answer"])
    g = ss.from_text(true["data"]["polygon"])
    true["data"]["polygon"] = ss.to_text(affinity.scale(g, 1.3, 1.0))
    failures = checker.verify(record, image)
    assert any(f"option {true['letter']}: polygon is not the section" in f for f in failures)


def test_options_apart_is_a_visible_change_of_proportion() -> None:
    """Rectangles of aspect ratios r < s differ by 2 - 2 sqrt(r / s): a 20 % longer
    rectangle is too alike, a 30 % longer one is apart."""
    def rect(ratio: float):
        return box(0, 0, ratio, 1)

    assert ss.dissimilarity(rect(1.5), rect(1.8)) == pytest.approx(2 - 2 / np.sqrt(1.2))
    assert ss.dissimilarity(rect(1.5), rect(1.8)) < ss.OPTIONS_APART
    assert ss.dissimilarity(rect(1.5), rect(1.95)) >= ss.OPTIONS_APART


def test_verifier_rejects_options_that_differ_only_slightly(drafts: dict) -> None:
    for level in (0, 1, 2, 3):
        record, _ = assembled(level, drafts[level])
        polygons = [ss.from_text(o["data"]["polygon"]) for o in record["options"]]
        assert min(ss.dissimilarity(a, b) for i, a in enumerate(polygons)
                   for b in polygons[:i]) >= ss.OPTIONS_APART
    record, image = assembled(1, drafts[1])
    answer = next(o for o in record["options"] if o["is_answer"])
    true = next(o for o in record["options"] if not o["is_answer"])
    assert not any("differ only slightly" in f for f in checker.verify(record, image))
    answer["data"]["polygon"] = ss.to_text(affinity.scale(ss.from_text(true["data"]["polygon"]),
                                                          1.1, 1.0))
    letters = sorted([answer["letter"], true["letter"]])
    assert any(f"options {letters[0]} and {letters[1]} differ only slightly" in f
               for f in checker.verify(record, image))


def test_verifier_rejects_wrong_letters_and_blank_panels(drafts: dict) -> None:
    record, image = assembled(0, drafts[0])
    wrong = copy.deepcopy(record)
    wrong["Answer"] = "A"
    assert any("Answer A" in f for f in checker.verify(wrong, image))
    x, y, w, h = record["layout"]["options"][2]
    blank = image.copy()
    blank[y : y + h, x : x + w] = 255
    assert any("option C panel is blank" in f for f in checker.verify(record, blank))
    assert not any("reference" in f for f in checker.verify(record, blank))
    x, y, w, h = record["layout"]["reference"][1]
    blank[y : y + h, x : x + w] = 255
    assert any("reference panel 2 is blank" in f for f in checker.verify(record, blank))


def test_verifier_rejects_a_panel_showing_another_option(drafts: dict) -> None:
    record, image = assembled(0, drafts[0])
    (xa, ya, wa, ha), (xb, yb, wb, hb) = record["layout"]["options"][:2]
    assert (wa, ha) == (wb, hb)
    swapped = image.copy()
    swapped[ya : ya + ha, xa : xa + wa] = image[yb : yb + hb, xb : xb + wb]
    found = checker.verify(record, swapped)
    assert any("option A panel does not show its polygon" in f for f in found)
    assert not any("option B panel" in f for f in found)


def test_ink_is_every_pixel_with_a_channel_below_200(drafts: dict) -> None:
    """The verifier's ink mask (one inRange pass) is the darkest channel below 200, on the
    composite's panels (views, sections, anti-aliased edges) and on random pixels."""
    record, image = assembled(1, drafts[1])
    panels = [image[y:y + h, x:x + w] for x, y, w, h in
              record["layout"]["reference"] + record["layout"]["options"]]
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (64, 80, 3), dtype=np.uint8)
    noise[rng.random((64, 80)) < 0.5] = rng.choice([199, 200, 255], size=3).astype(np.uint8)
    for panel in [*panels, noise]:
        want = np.where(panel.min(axis=2) < 200, 255, 0).astype(np.uint8)
        assert np.array_equal(checker._ink(panel), want)


def test_the_question_and_choices_are_proved(drafts: dict) -> None:
    record, image = assembled(1, drafts[1])
    assert run_verifier(record, image) == []
    first = solids.display_name(record["spec"]["solids"][0])
    other = "a cylinder" if first != "a cylinder" else "a cone"
    bad = copy.deepcopy(record)
    bad["Question"] = bad["Question"].replace(f"consists of {first}", f"consists of {other}")
    assert "its Question is not the text its spec gives" in run_verifier(bad, image)
    bad = copy.deepcopy(record)
    bad["Choices"] = ["Image A", "Image B", "Image C", "Image E"]
    assert any(f.startswith("its Choices") for f in run_verifier(bad, image))


def random_stacks(count: int) -> list[list[dict]]:
    rng = np.random.default_rng(5)
    return [task_module.random_stack(rng, 3, False) for _ in range(count)]


def chord_stack(descs: list[dict]) -> list:
    """The verifier's own model of the stack ``descs``."""
    return checker.stack([SolidDesc.from_json(d) for d in descs])


def test_three_section_engines_agree_far_below_the_threshold() -> None:
    """Evidence for SIMILAR_BELOW: exact slices, polyhedral sweeps and the verifier's chords
    of the same planes differ by well under a tenth of it."""
    worst = 0.0
    for descs in random_stacks(3):
        shape = solids.make_composite(descs)
        edges = sweep.stack_edges(descs)
        chords = chord_stack(descs)
        for name in cut.AXIS_FAMILIES + cut.OBLIQUE_FAMILIES:
            n = cut.family_normal(name)
            lo, hi = sweep.offset_range(edges, n)
            offsets = np.round(lo + (hi - lo) * np.array([0.25, 0.5, 0.75]), 3)
            fast = sweep.sections(edges, n, offsets)
            dense = checker.sections(chords, n, offsets, checker.DENSE_ROWS)
            fine = checker.sections(chords, n, offsets)
            for i, d in enumerate(offsets):
                exact = cut.section(shape, n, d)
                worst = max(worst, *(ss.dissimilarity(exact, g) for g in
                                     (fast[i], dense[i], fine[i])))
                moved = shapely.area(shapely.symmetric_difference(exact, fine[i]))
                assert moved < checker.MATCH_AREA / 5 * exact.area
    assert worst < ss.SIMILAR_BELOW / 8


def test_mirror_twin_families_have_mirrored_sections() -> None:
    """Every family the generator or the verifier leaves out has, at each offset, the
    section of the family it mirrors (at that offset or its negative); the verifier also
    leaves out the x <-> y twins of stacks of squares and disks only."""
    rng = np.random.default_rng(11)
    square_and_round = [task_module.random_solid(k, rng)
                        for k in ("cone", "square_frustum", "cylinder")]
    twins = {"Y135": "Y45", "Z135": "Z45", "X135": "X45", "YZ": "XZ", "Y45": "X45"}
    for descs in [*random_stacks(3), square_and_round]:
        shape = solids.make_composite(descs)
        kept = task_module.mirror_twins(descs, list(cut.AXIS_FAMILIES + cut.OBLIQUE_FAMILIES))
        checked = checker.without_mirror_twins(checker.level_families(2), chord_stack(descs))
        swapped = all(solids.KINDS[d["kind"]][0] in ("square", "circle") or (
            d["kind"] == "cuboid" and d["params"]["width"] == d["params"]["depth"])
            for d in descs)
        assert swapped or descs is not square_and_round
        assert checked == [f for f in kept if not (swapped and f in ("YZ", "Y45"))]
        edges = sweep.stack_edges(descs)
        for twin, base in twins.items():
            if twin not in checked:
                lo, hi = sweep.offset_range(edges, cut.family_normal(twin))
                d = lo + 0.6 * (hi - lo)
                a = cut.section(shape, cut.family_normal(twin), d)
                near = min(ss.dissimilarity(a, cut.section(shape, cut.family_normal(base), e))
                           for e in (d, -d))
                assert a.area > 0 and near < 1e-3


def test_the_first_true_option_is_disconnected_when_a_usable_section_is() -> None:
    """Level 2: oblique planes cut the joints along lines that round-off tilts, where a GEOS
    union keeps touching pieces apart; the parts found from the pieces do not, so the first
    option is disconnected exactly when the family samples offer a disconnected section."""
    families = TASK.params(2)["families"]
    offered = 0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        descs = task_module.random_stack(rng, 3, False)
        edges = sweep.stack_edges(descs)
        samples = {f: task_module.family_samples(edges, f)
                   for f in task_module.mirror_twins(descs, families)}
        split = any(task_module.disconnected(parts[pool]).any() for parts, pool in (
            (p, task_module.usable(s, p)) for s, p in (
                (s, convex_pieces.part_areas(s.pieces)) for s in samples.values())))
        picked = task_module.pick_true_options(edges, descs, samples, 2, rng)
        first = picked[0][2]
        parts = shapely.area(shapely.get_parts(first))
        assert ((parts >= task_module.MIN_PIECE * first.area).sum() > 1) == split
        offered += split
    assert offered >= 4  # most stacks offer one (only GEOS made them rare)


def test_stack_mesh_is_the_solids_closed_polyhedra() -> None:
    for descs in random_stacks(4):
        vertices, triangles = sweep.stack_mesh(descs)
        # closed and consistently wound: every edge is run once each way
        directed = np.concatenate([triangles[:, [0, 1]], triangles[:, [1, 2]],
                                   triangles[:, [2, 0]]])
        forward = {tuple(e) for e in directed.tolist()}
        assert len(forward) == len(directed)
        assert forward == {(b, a) for a, b in forward}
        a, b, c = (vertices[triangles[:, k]] for k in range(3))
        volume = float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum()) / 6.0  # > 0: outward
        exact = solids.make_composite(descs).Volume  # circles as 128-gons: 0.05% less
        assert exact * 0.999 < volume <= exact * (1.0 + 1e-9)


def test_reference_views_match_freecads_own_mesh_but_along_lines() -> None:
    """The polyhedra drawn for the views look like FreeCAD's tessellation of the fused
    solid: pixels differ clearly only where lines run (a pixel's shift of an outline)."""
    for descs in random_stacks(3):
        composite = solids.make_composite(descs)
        mesh = task_module.drawn_mesh(descs, composite)
        views = task_module.render_views(mesh, [*task_module.VIEWS, task_module.View(0, 0)],
                                         30.0)
        size = max(composite.BoundBox.XLength, composite.BoundBox.YLength,
                   composite.BoundBox.ZLength)
        reference = solid_mesh(*tessellate.triangles(composite, 0.01 * size), SOLID,
                               tessellate.feature_edges(composite, 0.002 * size))
        for view, image in zip(task_module.VIEWS, views[:2], strict=True):
            again = render([reference], orbit(view.azimuth, view.elevation), task_module.PANEL)
            apart = np.abs(image.astype(int) - again.astype(int)).max(axis=2) > 20
            assert apart.mean() < 0.003


SLIVER_STACK = [solids.solid("square_pyramid", side=1.0, height=1.0),  # top to bottom
                solids.solid("square_frustum", bottom_side=2.0, top_side=1.6, height=1.0)]
SLIVER_AT = 0.495  # the plane y = 0.495 cuts the pyramid 0.01 below its apex


def test_a_section_with_a_sliver_is_drawn_again() -> None:
    """The pyramid's piece of the section by y = 0.495 is 0.01 tall, drawn ~2 px wide on
    the frustum's outline: the generator refuses that plane, not one through the middle."""
    composite = solids.make_composite(SLIVER_STACK)
    normal = cut.family_normal("XZ")
    for offset, thin in ((SLIVER_AT, True), (0.2, False)):
        exact = cut.section(composite, normal, offset)
        levels = task_module.joint_levels(SLIVER_STACK, normal, offset)
        hulls, _ = convex_pieces.bands(exact, levels)
        assert len(hulls.counts[0].nonzero()[0]) == 2
        scale = fitted_scale(exact.bounds, task_module.PANEL)
        assert task_module.slivered(exact, hulls, scale) is thin, offset


def test_verifier_fails_a_sliver_from_the_stored_geometry(drafts: dict) -> None:
    record, image = assembled(0, drafts[0])
    assert not any("piece of its section" in f for f in checker.verify(record, image))
    record["spec"]["solids"] = SLIVER_STACK
    option = next(o for o in record["options"] if not o["is_answer"])
    for o in record["options"]:
        o["data"]["solids"] = SLIVER_STACK
    section = cut.section(solids.make_composite(SLIVER_STACK), cut.family_normal("XZ"),
                          SLIVER_AT)
    option["data"]["plane"] = {"family": "XZ", "normal": [0.0, 1.0, 0.0], "offset": SLIVER_AT}
    option["data"]["polygon"] = ss.to_text(section)
    failures = checker.verify(record, image)
    assert not any(f"option {option['letter']}: polygon is not" in f for f in failures)
    slivers = [f for f in failures if "piece of its section" in f]
    assert len(slivers) == 1 and slivers[0].startswith(f"option {option['letter']}: "), slivers


def _ink_extent(panel: np.ndarray) -> tuple[int, int]:
    """Width and height of a panel's ink (pixels darker than the background)."""
    ink = checker._ink(panel) > 0
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    return int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1)


def test_options_and_view_3_share_one_scale(drafts: dict) -> None:
    """Every option's section and View 3's stack are drawn at the spec's one scale, as the
    question says: measured on the stored image, each option's ink is its polygon's extent
    at that scale (plus its anti-aliased 2 px outline), View 3 the stack's height; a record claiming
    another scale fails."""
    for level in (0, 1, 2):
        record, image = assembled(level, drafts[level])
        assert image.shape[0] * image.shape[1] <= MAX_PIXELS  # shown to a model unshrunk
        spec = parse_spec(record["spec"])
        assert "View 3 and the four options are drawn at one common scale" in record["Question"]
        assert [v.elevation for v in spec.views][2] == 0.0
        for o, (x, y, w, h) in zip(record["options"], record["layout"]["options"], strict=True):
            minx, miny, maxx, maxy = ss.from_text(o["data"]["polygon"]).bounds
            w, h = _ink_extent(image[y:y + h, x:x + w])
            assert -1 <= w - (maxx - minx) * spec.scale <= 5, (level, o["letter"])
            assert -1 <= h - (maxy - miny) * spec.scale <= 5, (level, o["letter"])
        x, y, w, h = record["layout"]["reference"][2]
        tall = sum(d["params"]["height"] for d in record["spec"]["solids"]) * spec.scale
        assert -1 <= _ink_extent(image[y:y + h, x:x + w])[1] - tall <= 5
        assert checker.verify(record, image) == []
        for factor in (0.8, 1.25):
            wrong = copy.deepcopy(record)
            wrong["spec"]["scale"] = round(spec.scale * factor, 4)
            failures = checker.verify(wrong, image)
            assert any("does not show its polygon" in f for f in failures), failures
            assert any(f.startswith("View 3 is") for f in failures), failures


# a wide, shallow cuboid on a cylinder: it overhangs the cylinder along x only; along y
# the cylinder sticks out (a step)
OVERHANG_STACK = [solids.solid("cuboid", width=2.4, depth=0.6, height=0.8),
                  solids.solid("cylinder", radius=0.6, height=1.0)]


def test_view_3_shows_every_overhang() -> None:
    """View 3 is turned so that its outline shows the cuboid's overhang (its underside shows
    in no view from above); seen along x (azimuth 90) it would not show, and the verifier
    says so."""
    composite = solids.make_composite(OVERHANG_STACK)
    mesh = task_module.drawn_mesh(OVERHANG_STACK, composite)
    section = box(-1.2, 0.0, 1.2, 1.8)
    view, scale = task_module.side_view(OVERHANG_STACK, mesh, [section])
    assert view.elevation == 0.0 and view.azimuth not in (75.0, 90.0, 105.0)
    typed = [SolidDesc.from_json(d) for d in OVERHANG_STACK]
    original = checker.stack(typed)
    spec = task_module.Spec(typed, [*task_module.VIEWS, view], ["XY", "XZ", "YZ"], scale)
    assert checker._check_steps(spec, original) == []
    along_x = task_module.Spec(typed, [*task_module.VIEWS, task_module.View(90.0, 0.0)],
                               ["XY", "XZ", "YZ"], scale)
    (failure,) = checker._check_steps(along_x, original)
    assert failure.startswith("the overhang at height 1 does not show in View 3")
    assert 2 * MIN_STEP_PX <= 0.6 * scale  # the overhang is large enough to count
