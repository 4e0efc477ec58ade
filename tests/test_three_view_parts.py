"""3ViewProjection on engineering parts: TechDraw drawings, drawing comparison, the
distractor proofs, and generation + verification at levels 1-3."""

from __future__ import annotations

import copy
import shutil

import numpy as np
import pytest
import shapely
from conftest import generated_items, only_the_answer_verifies, tree_bytes

from spatialcad import freecad_env
from spatialcad.cad import disk_cache, part_views, parts, tessellate
from spatialcad.cad.part_views import part_view
from spatialcad.cad.parts import ASSETS_DIR, cached_part
from spatialcad.cad.projection import project, turned
from spatialcad.cad.step_io import write_step
from spatialcad.geometry import line_drawing as ld
from spatialcad.geometry.line_drawing import LineDrawing
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.render.camera import VIEWS
from spatialcad.render.engineering import draw_view
from spatialcad.run.verification import run_verifier
from spatialcad.tasks import registry
from spatialcad.tasks.three_view import generate_parts
from spatialcad.tasks.three_view.generate_parts import (
    MIN_DIFF_PX,
    drawn_difference,
    ink_difference,
    inks_apart,
    panel_ink,
)
from spatialcad.tasks.three_view.verify_parts import (
    MIN_DIFF_PIXELS,
    masks_apart,
    pixels_apart,
    silhouette,
)

FreeCAD, Part = freecad_env.load()
V = FreeCAD.Vector


def view(shape, name: str, deflection: float = 0.02) -> LineDrawing:
    right, up, _ = VIEWS[name].basis()
    return project(shape, right, up, deflection)


def bounds(lines) -> list[list[float]]:
    return sorted([np.round(p.min(axis=0), 3).tolist() + np.round(p.max(axis=0), 3).tolist()
                   for p in lines])


def holed_block():
    """A 40 x 20 x 30 block with a through hole of radius 5 from front to back."""
    block = Part.makeBox(40, 20, 30)
    return block.cut(Part.makeCylinder(5, 20, V(20, 0, 15), V(0, 1, 0)))


def test_holed_block_views_have_the_expected_visible_and_hidden_lines():
    front, top, left = (view(holed_block(), v) for v in ("front", "top", "left"))
    # front: the outline and the hole's circle (its far end is hidden behind it: dropped)
    assert (len(front.visible), len(front.hidden)) == (5, 0)
    # top: the outline, and the hole's two silhouette lines dashed, front to back
    assert (len(top.visible), len(top.hidden)) == (4, 2)
    assert bounds(top.hidden) == [[15, 0, 15, 20], [25, 0, 25, 20]]
    # left (seen from -x, right is -y): the hole's silhouette at heights 10 and 20
    assert (len(left.visible), len(left.hidden)) == (4, 2)
    assert bounds(left.hidden) == [[-20, 10, 0, 10], [-20, 20, 0, 20]]


def test_tangent_edges_are_not_drawn():
    """A link shaped like a stadium (two half discs joined by flat sides), 60 x 20 x 10, with
    a hole: where a flat side runs into a half cylinder the edge is smooth, and an
    engineering drawing leaves it out.  Seen from the front, only the outline rectangle and
    the hole's silhouette (dashed) are drawn, no line at x = +-20 where the sides meet."""
    link = Part.makeBox(40, 20, 10, V(-20, -10, 0))
    for x in (-20, 20):
        link = link.fuse(Part.makeCylinder(10, 10, V(x, 0, 0)))
    link = link.removeSplitter().cut(Part.makeCylinder(4, 10, V(20, 0, 0)))
    front, top = view(link, "front"), view(link, "top")
    vertical = [b for b in bounds(front.visible) if b[0] == b[2]]
    assert vertical == [[-30, 0, -30, 10], [30, 0, 30, 10]]
    assert bounds(front.hidden) == [[16, 0, 16, 10], [24, 0, 24, 10]]
    assert {b[1] for b in bounds(front.visible) if b[1] == b[3]} == {0, 10}  # top, bottom
    # from above, the flat sides and half circles are sharp edges of the top face: all drawn
    drawn = sum(ld.length(p) for p in top.visible)
    assert drawn == pytest.approx(2 * 40 + 2 * np.pi * (10 + 4), rel=1e-3) and not top.hidden


def test_views_are_oriented_like_the_cube_stack_views():
    """A notch at the +x, -y, +z corner: top right in the front view, hidden in the left."""
    box = Part.makeBox(10, 20, 30).cut(Part.makeBox(2, 2, 2, V(8, 0, 28)))
    front, left, top = (view(box, v) for v in ("front", "left", "top"))
    assert front.bounds() == (0, 0, 10, 30) and not front.hidden
    assert [8, 28, 8, 30] in bounds(front.visible) and [8, 28, 10, 28] in bounds(front.visible)
    # seen from the left, the front (-y) is on the right (x = -y): the notch's far edges
    assert bounds(left.hidden) == [[-2, 28, -2, 30], [-2, 28, 0, 28]]
    assert [8, 0, 8, 2] in bounds(top.visible)  # top view: front (-y) at the bottom


def test_part_view_equals_projecting_the_turned_part():
    """The per-direction cache turned in the plane is the projection of the turned part."""
    path = (ASSETS_DIR / "l_bracket.step").resolve()
    part = cached_part(path)
    for rotation in proper_rotations():
        shape = turned(part, rotation)
        for name in ("front", "top", "left", "right", "back", "bottom"):
            direct = ld.centred(view(shape, name, 0.05))
            cached = ld.centred(part_view(path, rotation, *VIEWS[name].basis()[:2], 0.05))
            assert ld.difference(direct, cached, 0.05) == (0.0, 0.0), (rotation, name)


def test_part_edges_are_the_turned_parts_feature_edges():
    """The part's feature edges found once and turned are those of the turned part (up to
    round-off in the last bit), for parts with holes, arcs and fillets."""
    for name in ("l_bracket", "keyed_hub", "manifold_block", "cross_drilled_pin"):
        path = (ASSETS_DIR / f"{name}.step").resolve()
        part = cached_part(path)
        for rotation in proper_rotations()[::3]:
            direct = tessellate.feature_edges(turned(part, rotation), 0.05)
            mine = part_views.part_edges(path, rotation, 0.05)
            assert mine.shape == direct.shape and len(direct), (name, rotation)
            assert np.abs(mine - direct).max() < 1e-12, (name, rotation)


def square(hidden: bool = False) -> LineDrawing:
    lines = (np.array([[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], dtype=float),)
    return LineDrawing((), lines) if hidden else LineDrawing(lines, ())


def test_difference_measures_missing_and_restyled_lines():
    s = square()
    bar = LineDrawing((*s.visible, np.array([[2.0, 5.0], [8.0, 5.0]])), ())
    assert ld.difference(s, s, 0.1) == (0.0, 0.0)
    missing, kind = ld.difference(bar, s, 0.1)
    assert missing == pytest.approx(6.0, abs=0.5) and kind == 0
    missing, kind = ld.difference(s, square(hidden=True), 0.1)
    assert missing == 0 and kind == pytest.approx(40.0, abs=0.5)
    # a dashed line running on a solid one does not show
    covered = LineDrawing(s.visible, (np.array([[0.0, 0.0], [10.0, 0.0]]),))
    assert ld.difference(s, covered, 0.1) == (0.0, 0.0)


def test_flips_of_a_symmetric_view_draw_the_same():
    front = view(holed_block(), "front")
    for flip in (ld.FLIP_LR, ld.FLIP_UD):
        assert drawn_difference(front, front.transformed(flip), 5.0) == 0
    assert drawn_difference(front, front.transformed(ld.TURN_CCW), 5.0) > MIN_DIFF_PX


def test_inks_apart_is_the_difference_threshold():
    """The early answer from the missing line alone agrees with the full difference, for
    drawings that differ by a missing line, by a restyled line only, or not at all."""
    front = view(holed_block(), "front")
    s = square()
    pairs = [(front, front.transformed(t)) for t in (ld.FLIP_LR, ld.TURN_CCW)]
    pairs += [(s, square(hidden=True)), (s, s), (s, LineDrawing(s.visible[:1], ()))]
    for scale in (0.5, 2.0, 5.0):
        for a, b in pairs:
            inks = panel_ink(a, scale), panel_ink(b, scale)
            full = ink_difference(*inks, scale) >= MIN_DIFF_PX
            assert inks_apart(*inks, scale) == full == inks_apart(*inks[::-1], scale)


def test_a_centred_ink_samples_the_centred_drawing():
    """Ink(d, centre=True) has the very points of Ink(centred(d)), with no visible or no
    hidden line too."""
    rng = np.random.default_rng(7)
    front = view(holed_block(), "front")
    drawings = [front, front.transformed(ld.TURN_CW), square(), square(hidden=True)]
    for _ in range(40):
        lines = [np.cumsum(rng.normal(size=(int(rng.integers(2, 9)), 2)), axis=0) + 3.0
                 for _ in range(int(rng.integers(1, 12)))]
        cut = int(rng.integers(0, len(lines) + 1))
        drawings.append(LineDrawing(tuple(lines[:cut]), tuple(lines[cut:])))
    for d in drawings:
        for tol in (0.05, 0.4):
            fast, slow = ld.Ink(d, tol, centre=True), ld.Ink(ld.centred(d), tol)
            for a, b in zip(fast.points, slow.points, strict=True):
                assert a.shape == b.shape and np.array_equal(a, b)


def test_duplicate_lines_are_drawn_once():
    circle = np.stack([np.cos(t := np.linspace(0, 2 * np.pi, 65)), np.sin(t)], axis=1)
    d = ld.without_duplicates(LineDrawing((), (circle, circle[::-1].copy())), 0.01)
    assert len(d.hidden) == 1
    d = ld.without_duplicates(LineDrawing((circle,), (circle.copy(),)), 0.01)
    assert (len(d.visible), len(d.hidden)) == (1, 0)


def test_internal_lines_leave_out_the_outline():
    front = view(holed_block(), "front")
    internal = ld.internal_lines(front, 0.05)
    assert len(internal) == 1  # the circle
    hidden, index = internal[0]
    assert not hidden and ld.length(front.visible[index]) == pytest.approx(2 * np.pi * 5, 0.01)


def test_lines_partly_on_the_outline_and_lone_lines_are_not_internal():
    """Deleting a line that is partly outline would open the outline; a view that encloses
    nothing (a plate seen edge on) has no line to delete."""
    square = (np.array([[0.0, 0], [10, 0], [10, 10]]), np.array([[10.0, 10], [0, 10], [0, 0]]))
    step = np.array([[0.0, 5], [4, 5], [4, 10]])  # ends on the outline: internal
    along = np.array([[6.0, 0], [6, 5], [10, 5]])  # runs into a corner: internal
    rim = np.array([[6.0, 0], [8, 0], [8, 3]])  # its first 2 of 5 mm lie on the outline
    d = LineDrawing((*square, step, along, rim), ())
    assert ld.internal_lines(d, 0.01) == [(False, 2), (False, 3)]
    assert ld.internal_lines(LineDrawing((np.array([[0.0, 0], [10, 0]]),), ()), 0.01) == []


def test_outline_closes_gaps_under_the_tolerance():
    """Hidden-line removal drops edges shorter than the drawing's resolution and leaves the
    outline open by as much (00015180: 0.0016 mm at the ends of a 37 mm bar)."""
    bar = (np.array([[0.0, 0], [10, 0]]), np.array([[10.0016, 0], [10.0016, 2]]),
           np.array([[10.0, 2], [0, 2]]), np.array([[0.0, 2], [0, 0]]))
    assert ld.outline(LineDrawing(bar, ()), 0.01).area == pytest.approx(20.0, rel=1e-3)
    assert ld.internal_lines(LineDrawing(bar, ()), 0.01) == []


def test_points_near_segments_equal_brute_force():
    """The grid-filed search for points within tol of segments answers as measuring every
    segment does (degenerate, horizontal and vertical segments, points on them, tol 0)."""
    rng = np.random.default_rng(2)
    for _ in range(200):
        m = int(rng.integers(0, 40))
        a = rng.normal(size=(m, 2)) * rng.uniform(0.1, 10)
        b = a + rng.normal(size=(m, 2)) * rng.uniform(0, 5)
        if m and rng.random() < 0.3:
            b[: m // 2] = a[: m // 2]
        if m and rng.random() < 0.3:
            b[:, int(rng.integers(2))] = a[:, int(rng.integers(2))]
        points = rng.normal(size=(int(rng.integers(1, 100)), 2)) * rng.uniform(0.1, 10)
        if m:
            points[: min(10, len(points))] = a[rng.integers(0, m, min(10, len(points)))]
        tol = float(rng.uniform(0, 1)) if rng.random() < 0.8 else 0.0
        near = shapely.distance(shapely.points(points)[:, None],
                                shapely.linestrings(np.stack([a, b], axis=1))[None, :])
        expected = (near <= tol).any(axis=1) if m else np.zeros(len(points), dtype=bool)
        assert np.array_equal(ld._within(points, a, b, tol), expected)


@pytest.fixture(scope="module")
def items():
    return list(generated_items("three_view", (1, 2, 3), 2, seed=5))  # every wrong kind


def test_every_item_verifies_and_only_its_answer_does(items):
    operators = set()
    for record, image in items:
        operators |= only_the_answer_verifies(record, image)
    assert operators == {"line_deleted", "turned", "flipped", "other_view"}


def test_edited_texts_are_rejected(items):
    """A question asking for another view, or other choices, is not the item's."""
    stack = next(generated_items("three_view", (0,), 1))
    part = items[0]
    asked, shown = part[0]["spec"]["asked_view"], part[0]["spec"]["reference_views"][1]
    for (record, image), (old, new) in [(stack, ("the left view", "the right view")),
                                        (part, (f"its {asked} view", f"its {shown} view"))]:
        assert run_verifier(record, image) == []
        edits = {"Question": record["Question"].replace(old, new),
                 "Choices": ["Image A", "Image B", "Image D", "Image C"]}
        for field, text in edits.items():
            assert text != record[field]
            assert any(f"its {field}" in f for f in run_verifier({**record, field: text}, image))


def test_levels_use_parts_with_more_faces(items):
    faces = {}
    for record, _ in items:
        faces.setdefault(record["Level"], []).append(record["spec"]["part"]["faces"])
    assert max(faces["Level1"]) <= 12 and 13 <= min(faces["Level2"]) <= max(faces["Level2"]) <= 24
    assert min(faces["Level3"]) >= 25


def test_wrong_options_draw_differently_from_the_answer(items):
    for record, image in items:
        boxes = record["layout"]["options"]
        panels = [image[y:y + h, x:x + w] for x, y, w, h in boxes]
        answer = "ABCD".index(record["Answer"])
        for i, panel in enumerate(panels):
            if i != answer:
                assert pixels_apart(panel, panels[answer]) >= MIN_DIFF_PIXELS


def test_masks_apart_stops_early_only_at_enough():
    """With ``enough``, masks_apart gives the exact count below it and at least ``enough``
    (never more than the exact count) otherwise: the verifier's test decides alike."""
    rng = np.random.default_rng(11)
    for _ in range(60):
        a = rng.random((int(rng.integers(20, 60)), int(rng.integers(20, 60)))) < 0.05
        b = a.copy()
        flips = int(rng.integers(0, 40))
        b[rng.integers(0, b.shape[0], flips), rng.integers(0, b.shape[1], flips)] ^= True
        b = b[:int(rng.integers(15, b.shape[0] + 1))]
        full = masks_apart(a, b)
        for enough in (1, 8, MIN_DIFF_PIXELS, 40):
            early = masks_apart(a, b, enough)
            assert early == full if full < enough else enough <= early <= full


def test_verifier_catches_a_mislabelled_or_swapped_drawing(items):
    record, image = items[0]
    wrong_view = copy.deepcopy(record)
    others = [v for v in ("front", "top", "left") if v != record["spec"]["asked_view"]]
    wrong_view["spec"]["asked_view"] = others[0]
    assert run_verifier(wrong_view, image)
    swapped = copy.deepcopy(record)
    a, b = swapped["options"][0], swapped["options"][1]
    a["data"], b["data"] = b["data"], a["data"]
    assert any("does not show its stated drawing" in f or ", its drawing (" in f
               for f in run_verifier(swapped, image))  # other lines, or another panel size
    blank = image.copy()
    x, y, w, h = record["layout"]["options"]["ABCD".index(record["Answer"])]
    blank[y:y + h, x:x + w] = 255
    assert run_verifier(record, blank)


def test_symmetric_part_never_offers_a_flip_that_draws_like_the_answer(tmp_path):
    """A block with a centred hole: every flip of every view draws the same, so a flipped
    option is never offered; the items still have three wrong options."""
    write_step(holed_block(), tmp_path / "holed_block.step")
    task = registry.task("three_view").generator({"deepcad_dir": str(tmp_path)})
    seen = 0
    for seed in range(12):
        try:
            draft = task.build(1, np.random.default_rng(seed))
        except Exception:  # Reject: not enough distinct wrong options for this draw
            continue
        seen += 1
        assert "flipped" not in {o.operator for o in draft.options}
        images = [o.image for o in draft.options]
        assert all(pixels_apart(images[0], im) >= MIN_DIFF_PIXELS for im in images[1:])
    assert seen >= 6


def test_drawings_are_drawn_with_dashed_hidden_lines():
    top = view(holed_block(), "top")
    solid = draw_view(LineDrawing(top.visible + top.hidden, ()), 5.0)
    dashed = draw_view(top, 5.0)
    assert solid.shape == dashed.shape
    assert pixels_apart(solid, dashed) >= MIN_DIFF_PIXELS  # gaps along both hidden lines


def test_disk_cache_cold_warm_damaged_and_off_give_the_same_items(spatialcad, tmp_path,
                                                                   monkeypatch):
    """The disk cache of projections, tessellations and parts read from STEP files (shared
    by processes and shards) never changes an item: a cold cache, the warm one, damaged
    entries and no cache give the same bytes."""
    monkeypatch.setenv(disk_cache.CACHE_ENV, "")  # restored afterwards (the CLI sets it)
    cache = tmp_path / "cache"
    folder = tmp_path / "parts"  # parts read from STEP (most bundled ones are JSON only),
    folder.mkdir()  # two for two items: each is read again once the index is made
    for name in ("l_bracket", "stepped_block"):
        shutil.copy(ASSETS_DIR / f"{name}.step", folder / f"{name}.step")
    args = ["generate", "--task", "three_view", "--level", "1", "--n", "2", "--seed", "8",
            "--deepcad-dir", str(folder)]

    def spatialcad_fresh(*more):  # as a new process would: no projections, no parts in memory
        for remembered in (part_views._axis_drawing, part_views._axis_outline,
                           part_views.part_size, part_views._feature_edges,
                           generate_parts.drawing, parts.cached_part):
            remembered.cache_clear()
        return spatialcad(*args, *more)

    assert spatialcad_fresh("--out", tmp_path / "cold", "--cache-dir", cache)[0] == 0
    projections = sorted((cache / "projections").rglob(f"*{disk_cache.SUFFIX}"))
    tessellations = sorted((cache / "tessellations").rglob(f"*{disk_cache.SUFFIX}"))
    breps = sorted((cache / "breps").rglob(f"*{disk_cache.SUFFIX}"))
    assert len(projections) >= 3  # at least the three principal directions of a part
    assert len(tessellations) >= 2  # the generator's and the verifier's meshes of a part
    assert len(breps) >= 1  # every part read
    for kind in ("sizes", "outlines", "edges"):
        assert list((cache / kind).rglob(f"*{disk_cache.SUFFIX}")), kind
    with monkeypatch.context() as m:  # a warm cache holds all an item needs: no part is built
        m.setattr(parts, "load_noting", lambda path: pytest.fail(f"{path} was read"))
        assert spatialcad_fresh("--out", tmp_path / "warm", "--cache-dir", cache)[0] == 0
    damaged = [projections[0], tessellations[0], breps[0]]
    for entry in damaged:
        entry.write_bytes(b"damaged")
    assert spatialcad_fresh("--out", tmp_path / "mended", "--cache-dir", cache)[0] == 0
    assert spatialcad_fresh("--out", tmp_path / "off", "--no-cache")[0] == 0
    cold = tree_bytes(tmp_path / "cold")
    for other in ("warm", "mended", "off"):
        assert tree_bytes(tmp_path / other) == cold, other
    assert all(entry.read_bytes() != b"damaged" for entry in damaged)  # rewritten


def test_every_left_view_question_places_the_front_on_the_right(items):
    """Every question, at every level and for every choice of shown and asked views, says
    where a left view shows the front when a left view is asked or shown, and the verifier
    refuses a question without that sentence."""
    from itertools import permutations

    from spatialcad.tasks.three_view.spec import PRINCIPAL, PartFile, PartSpec, texts

    sentence = "front appears on the right of a left view."
    part = PartFile(name="p", file="p.step", sha256="0" * 64, faces=6)
    for first, second, asked in permutations(PRINCIPAL):
        spec = PartSpec(part=part, rotation=np.eye(3, dtype=int).tolist(),
                        reference_views=["isometric", first, second], asked_view=asked,
                        scale_px_per_mm=1.0, deflection_mm=0.02, answer_ranks=[0],
                        parts_drawn=1)
        t = texts(spec, [])
        assert ("part's " + sentence in t.question) == ("left" in (first, second, asked))
        assert all((sentence in j) == (sentence in t.question) for j in t.judge if j)
    stack = next(generated_items("three_view", (0,), 1))
    asked_left = [r for r in [stack, *items] if r[0]["spec"]["asked_view"] == "left"]
    assert {r[0]["Level"] for r in asked_left} >= {"Level0"}
    for record, image in asked_left:
        assert sentence in record["Question"]
        assert run_verifier(record, image) == []
        cut = {**record, "Question": record["Question"].replace(sentence, "")}
        assert any("Question" in f for f in run_verifier(cut, image))


def test_point_grid_matches_exactly_the_points_nearer_than_tol():
    """PointGrid finds a point nearer than tol exactly where brute force (and a k-d tree
    bounded by tol) does, with points on a grid at exactly tol apart among them."""
    from scipy.spatial import cKDTree

    rng = np.random.default_rng(9)
    for tol in (0.5, 1.25, 3.0):
        points = np.concatenate([rng.uniform(-20, 40, size=(300, 2)),
                                 np.round(rng.uniform(0, 20, size=(200, 2)) / tol) * tol])
        queries = np.concatenate([rng.uniform(-25, 45, size=(600, 2)),
                                  points[:100] + [tol, 0.0], points[100:150] + [0.6 * tol,
                                                                                0.8 * tol]])
        brute = ((queries[:, None] - points[None]) ** 2).sum(axis=2).min(axis=1) < tol * tol
        tree = np.isfinite(cKDTree(points).query(queries, distance_upper_bound=tol)[0])
        got = ld.PointGrid(points, tol).matched(queries)
        assert np.array_equal(got, brute) and np.array_equal(got, tree)
        assert 0 < got.sum() < len(queries)
    assert not ld.PointGrid(np.zeros((0, 2)), 1.0).matched(np.ones((3, 2))).any()


def test_sample_puts_points_every_step_along_each_segment():
    """ld.sample against its definition: segment a-b gets a + t (b - a) for t = k / n,
    k = 0..n (the last exactly 1), n = max(1, ceil(|b - a| / step))."""
    rng = np.random.default_rng(12)
    lines = tuple(rng.uniform(-30, 30, size=(int(rng.integers(1, 6)), 2)) for _ in range(9))
    for step in (0.7, 3.0, 100.0):
        want = []
        for p in lines:
            for a, b in zip(p[:-1], p[1:], strict=True):
                n = max(1, int(np.ceil(np.hypot(*(b - a)) / step)))
                t = np.where(np.arange(n + 1) == n, 1.0, np.arange(n + 1) * (1.0 / n))
                want.append(a + t[:, None] * (b - a))
        assert np.array_equal(ld.sample(lines, step), np.concatenate(want))
    assert ld.sample((), 1.0).shape == (0, 2)


def test_silhouette_is_the_parts_outline_with_its_holes_filled():
    vertices, triangles = tessellate.triangles(holed_block(), 0.05)
    scale = 4.0
    for name, (w, h) in {"front": (40, 30), "top": (40, 20), "left": (20, 30)}.items():
        mask = silhouette(vertices, triangles, name, scale, (200, 160))
        rows, cols = np.nonzero(mask)
        assert cols.max() - cols.min() + 1 == w * scale and rows.max() - rows.min() + 1 == h * scale
        assert mask.sum() == w * scale * h * scale  # a solid rectangle: the hole is filled
