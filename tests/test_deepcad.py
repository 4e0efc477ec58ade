"""DeepCAD JSON reader/writer, STEP I/O, part loader and the bundled parts."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import numpy as np
import pytest
from conftest import deepcad_samples

from spatialcad.cad import deepcad, part_import, tessellate
from spatialcad.cad.deepcad import Arc, DeepCADDoc, DeepCADError, Line
from spatialcad.cad.parts import ASSETS_DIR, list_parts, load_part
from spatialcad.cad.step_io import StepError, read_step, write_step

SAMPLES = deepcad_samples()
CASES = SAMPLES.parent / "deepcad-cases"
EMPTY_PROFILES = "00014060.json"  # its only extrude has an empty profiles list
# our volumes (mm^3), pinned; 00010414 and 00010560 are also checked by hand below
SAMPLE_VOLUMES = {
    "00010008.json": 5168.0845, "00010109.json": 2942.5958, "00010244.json": 118284.6576,
    "00010263.json": 145282.1185, "00010397.json": 7056.6592, "00010414.json": 212.5367,
    "00010520.json": 94551.9543, "00010560.json": 1659.0711, "00010581.json": 23718.2033,
}
# Where our bounding box differs from Onshape's recorded one (index, ours): the Onshape
# part had features the dataset dropped (00010560 is also clipped to x <= 3.175 there).
BBOX_DEVIATIONS = {
    "00010263.json": {0: 0.0, 3: 63.5},  # Onshape: x from -6.35 to 69.85
    "00010560.json": {2: -3.175, 3: 6.35},  # Onshape: z from 0, x to 3.175
}


def sample_files() -> list[Path]:
    if not SAMPLES.is_dir():
        pytest.fail(f"DeepCAD sample folder missing: {SAMPLES} (the tests need it)")
    return sorted(SAMPLES.glob("*.json"))


def onshape_bbox(path: Path) -> list[float]:
    box = json.loads(path.read_text())["properties"]["bounding_box"]
    return [box[k][c] * 1000 for k in ("min_point", "max_point") for c in "xyz"]


def test_every_sample_imports_or_fails_cleanly():
    files = sample_files()
    assert {f.name for f in files} == {*SAMPLE_VOLUMES, EMPTY_PROFILES}
    for path in files:
        if path.name == EMPTY_PROFILES:
            with pytest.raises(DeepCADError, match=r"00014060\.json: .*no extrude with a prof"):
                deepcad.read_deepcad(path)
            continue
        shape = deepcad.read_deepcad(path)
        assert shape.isValid() and len(shape.Solids) == 1, path.name
        assert shape.Volume == pytest.approx(SAMPLE_VOLUMES[path.name], rel=1e-6), path.name
        expected = onshape_bbox(path)
        for i, v in BBOX_DEVIATIONS.get(path.name, {}).items():
            expected[i] = v
        assert deepcad.bbox_of(shape) == pytest.approx(expected, abs=1e-3), path.name


def test_samples_by_hand():
    sample_files()
    washer = deepcad.read_deepcad(SAMPLES / "00010414.json")
    # annulus r 3.6576..7.91845 mm, symmetric extent 0.6858 mm each side
    assert washer.Volume == pytest.approx(math.pi * (7.91845**2 - 3.6576**2) * 1.3716, 1e-9)
    bush = deepcad.read_deepcad(SAMPLES / "00010560.json")
    # annulus 1.5875..3.175 over 31.75, plus TwoSides annulus 3.175..6.35 over 6.35 + 3.175
    by_hand = math.pi * ((3.175**2 - 1.5875**2) * 31.75 + (6.35**2 - 3.175**2) * 9.525)
    assert bush.Volume == pytest.approx(by_hand, rel=1e-9)


# ---------------------------------------------------------------- hand-made JSON models


def pt(x: float, y: float) -> dict[str, float]:
    return {"x": x / 1000, "y": y / 1000, "z": 0.0}


def line(a: tuple[float, float], b: tuple[float, float]) -> dict:
    return {"type": "Line3D", "start_point": pt(*a), "end_point": pt(*b), "curve": "c"}


def square_loop(x0: float, y0: float, x1: float, y1: float) -> list[dict]:
    return [line((x0, y0), (x1, y0)), line((x1, y1), (x1, y0)),  # one reversed on purpose
            line((x1, y1), (x0, y1)), line((x0, y1), (x0, y0))]


def model(sketches: dict[str, tuple[dict, list[list[dict]]]], extrudes: list[dict]) -> dict:
    """sketches: id -> (transform in mm, [loop, ...] of its single profile 'P')."""
    entities: dict = {}
    sequence = []
    for sid, (frame, loops) in sketches.items():
        transform = {k: ({c: v / 1000 for c, v in zip("xyz", vec, strict=True)}
                         if k == "origin" else dict(zip("xyz", vec, strict=True)))
                     for k, vec in frame.items()}
        entities[sid] = {"type": "Sketch", "name": sid, "transform": transform,
                         "profiles": {"P": {"loops": [{"is_outer": True, "profile_curves": lp}
                                                      for lp in loops]}}}
    for i, e in enumerate(extrudes):
        eid = f"E{i}"
        dist = [{"type": "DistanceExtentDefinition", "distance": {"value": d / 1000},
                 "taper_angle": {"value": 0.0}} for d in (e["d1"], e.get("d2", 0.0))]
        entities[eid] = {"type": "ExtrudeFeature", "name": eid,
                         "profiles": [{"sketch": e["sketch"], "profile": "P"}],
                         "extent_one": dist[0], "extent_two": dist[1],
                         "extent_type": e.get("extent", "OneSideFeatureExtentType"),
                         "operation": e.get("op", "NewBodyFeatureOperation"),
                         "start_extent": {"type": "ProfilePlaneStartDefinition"}}
        sequence += [{"type": "Sketch", "entity": e["sketch"]},
                     {"type": "ExtrudeFeature", "entity": eid}]
    return {"entities": entities, "sequence": sequence, "properties": {}}


XY = {"origin": (0, 0, 0), "x_axis": (1, 0, 0), "y_axis": (0, 1, 0), "z_axis": (0, 0, 1)}
XZ = {"origin": (0, 0, 0), "x_axis": (1, 0, 0), "y_axis": (0, 0, 1), "z_axis": (0, -1, 0)}


def test_box_with_through_hole_has_exact_volume():
    hole = [{"type": "Circle3D", "center_point": pt(5, 10), "radius": 0.002, "curve": "h",
             "normal": {"x": 0.0, "y": 0.0, "z": 1.0}}]
    top = dict(XY, origin=(0, 0, 30))
    data = model({"S1": (XY, [square_loop(0, 0, 10, 20)]), "S2": (top, [hole])},
                 [{"sketch": "S1", "d1": 30},
                  {"sketch": "S2", "d1": -30, "op": "CutFeatureOperation"}])
    shape = deepcad.build(data)
    assert shape.isValid()
    assert shape.Volume == pytest.approx(10 * 20 * 30 - math.pi * 2**2 * 30, rel=1e-12)
    assert deepcad.bbox_of(shape) == pytest.approx((0, 0, 0, 10, 20, 30), abs=1e-9)
    assert len(shape.Faces) == 7


@pytest.mark.parametrize(("extent", "d1", "d2", "z"), [
    ("OneSideFeatureExtentType", 4, 0, (5, 9)),
    ("OneSideFeatureExtentType", -4, 0, (1, 5)),
    ("SymmetricFeatureExtentType", 4, 0, (1, 9)),
    ("SymmetricFeatureExtentType", -4, 0, (1, 9)),
    ("TwoSidesFeatureExtentType", 4, 2, (3, 9)),
    ("TwoSidesFeatureExtentType", -4, 2, (1, 5)),  # both sides against the normal
])
def test_extent_types(extent, d1, d2, z):
    data = model({"S": (dict(XY, origin=(0, 0, 5)), [square_loop(0, 0, 10, 10)])},
                 [{"sketch": "S", "d1": d1, "d2": d2, "extent": extent}])
    assert deepcad.bbox_of(deepcad.build(data)) == pytest.approx((0, 0, z[0], 10, 10, z[1]))


def test_front_plane_sketch_extrudes_along_its_normal():
    data = model({"S": (XZ, [square_loop(0, 0, 10, 20)])}, [{"sketch": "S", "d1": 4}])
    assert deepcad.bbox_of(deepcad.build(data)) == pytest.approx((0, -4, 0, 10, 0, 20))


def box_model() -> dict:
    return model({"S": (XY, [square_loop(0, 0, 10, 20)])}, [{"sketch": "S", "d1": 30}])


@pytest.mark.parametrize(("tamper", "message"), [
    (lambda d: d.pop("entities"), "missing key 'entities'"),
    (lambda d: d["entities"]["S"]["profiles"]["P"]["loops"][0]["profile_curves"].pop(),
     "profile does not close"),
    (lambda d: d["entities"]["E0"].update(profiles=[]), "no extrude with a profile"),
    (lambda d: d["entities"]["E0"].update(profiles={}), "must be a non-empty list"),
    (lambda d: d["sequence"].pop(), r"no extrude \(the model holds only sketches\)"),
    (lambda d: d["entities"]["E0"]["extent_one"]["distance"].update(value=0.0),
     "zero extrude distance"),
    (lambda d: d["entities"]["E0"].update(operation="Fold"), "unsupported operation"),
    (lambda d: d["entities"]["E0"]["profiles"][0].update(profile="Q"), "missing key 'Q'"),
    (lambda d: d["entities"]["S"]["transform"]["x_axis"].update(x="1"), "not a finite"),
    (lambda d: d["sequence"].append({"entity": "nope"}), "unknown entity 'nope'"),
])
def test_malformed_models_give_clear_errors(tamper, message):
    data = box_model()
    tamper(data)
    with pytest.raises(DeepCADError, match=message):
        deepcad.build(data)


def test_extrude_with_empty_profiles_is_skipped_with_a_warning(tmp_path):
    """As DeepCAD's reader does (an extrude's profiles become extrude operations, none
    here): the rest is built, and the file's import line says what was left out."""
    data = box_model()
    empty = copy.deepcopy(data["entities"]["E0"]) | {"profiles": [], "name": "Extrude 2",
                                                      "operation": "CutFeatureOperation"}
    data["entities"]["E1"] = empty
    data["sequence"].append({"type": "ExtrudeFeature", "entity": "E1"})
    skipped: list[str] = []
    assert deepcad.build(data, skipped).Volume == pytest.approx(10 * 20 * 30)
    assert skipped == ["E1 (Extrude 2): empty profiles list, extrude skipped"]
    path = tmp_path / "holed.json"
    path.write_text(json.dumps(data))
    with pytest.warns(deepcad.DeepCADWarning, match=r"^holed\.json: E1 \(Extrude 2\): empty"):
        deepcad.read_deepcad(path)
    results = part_import.import_parts([path], tmp_path / "out")
    assert results[0].ok and results[0].warnings == (f"holed.json: {skipped[0]}",)
    line = part_import.import_report_lines(results)[0]
    assert line.startswith("ok     holed.json -> ") and line.endswith(f"  warning: {skipped[0]}")


def case(name: str) -> Path:
    if not CASES.is_dir():
        pytest.fail(f"DeepCAD cases folder missing: {CASES} (the tests need it)")
    return CASES / name


def test_sketches_only_file_says_no_extrude():
    with pytest.raises(DeepCADError, match=r"^00015442\.json: model: no extrude \(the model "):
        deepcad.read_deepcad(case("00015442.json"))


def test_cylinder_plate_and_tube_cases_by_hand():
    cylinder = deepcad.read_deepcad(case("00018099.json"))  # r 12.5, 250 long
    assert cylinder.Volume == pytest.approx(math.pi * 12.5**2 * 250, rel=1e-9)
    assert len(cylinder.Faces) == 3
    plate = deepcad.read_deepcad(case("00011581.json"))  # 16191 x 3079.8 x 10 mm
    assert plate.Volume == pytest.approx(16191.0 * 3079.8 * 10, rel=1e-9)
    tube = deepcad.read_deepcad(case("00017383.json"))
    assert tube.isValid() and len(tube.Solids) == 1


def test_profiles_cut_joined_and_cut_again_follow_deepcads_order():
    """00013630: a 20 mm triangular prism; on two of its faces one sketch's annulus
    (r 3-7.5) is cut 25 mm deep, joined back over 2 mm, then its r 3 disk cut through.
    DeepCAD's cadlib applies the extrudes one by one in sequence order and puts a profile's
    enclosing loop first (Profile.reorder, whatever the file's loop order): an annulus.
    A brute-force point count of that sequence agrees with our solid; taking the file's
    first loop (r 3) as the outer one, as one independent reader did, gives 2.455 cm^3."""
    solid = deepcad.read_deepcad(case("00013630.json"))
    h = 0.1  # cell centres; those on the prism's slanted face count half
    g = np.arange(h / 2, 20, h)
    x, y, z = np.meshgrid(g, -g, g, indexing="ij", sparse=True)
    weight = np.where(np.isclose(x + z, 20), 0.5, 1.0)
    body = np.broadcast_to(x + z < 20 + 1e-9, (len(g),) * 3)
    for r, depth in ((np.hypot(y + 10, z - 10), x), (np.hypot(y + 10, x - 10), z)):
        ring = (r >= 3) & (r <= 7.5)
        body = body & ~ring  # cut the annulus 25 mm deep (through)
        body = body | (ring & (depth <= 2))  # join it back over 2 mm
        body = body & ~(r <= 3)  # cut the disk through
    assert solid.Volume == pytest.approx(float((body * weight).sum()) * h**3, rel=2e-3)
    assert solid.Volume == pytest.approx(2184.4693, rel=1e-6)


def test_cut_of_everything_is_an_error():
    data = model({"S": (XY, [square_loop(0, 0, 10, 20)]),
                  "T": (XY, [square_loop(-1, -1, 11, 21)])},
                 [{"sketch": "S", "d1": 30},
                  {"sketch": "T", "d1": 30, "op": "CutFeatureOperation"}])
    with pytest.raises(DeepCADError, match="holds no solid"):
        deepcad.build(data)


def test_unreadable_json_files(tmp_path):
    text = json.dumps(box_model())
    truncated = tmp_path / "cut_short.json"
    truncated.write_text(text[: len(text) // 2])
    with pytest.raises(DeepCADError, match=r"cut_short\.json: malformed JSON"):
        deepcad.read_deepcad(truncated)
    with pytest.raises(DeepCADError, match=r"absent\.json: cannot read"):
        deepcad.read_deepcad(tmp_path / "absent.json")
    no_entities = tmp_path / "bare.json"
    no_entities.write_text('{"sequence": []}')
    with pytest.raises(DeepCADError, match=r"bare\.json: model: missing key 'entities'"):
        deepcad.read_deepcad(no_entities)


# ------------------------------------------------------------------------ half circles


def slot_doc() -> DeepCADDoc:
    """A 40 x 10 obround (round ends r 5 as single half-circle arcs), 3 mm thick."""
    doc = DeepCADDoc()
    loop = [Line((0, -5), (30, -5)), Arc((30, 0), 5, -90, 90), Line((30, 5), (0, 5)),
            Arc((0, 0), 5, 90, 270)]
    sid, pids = doc.sketch([[loop]])
    doc.extrude(sid, pids, 3)
    return doc


def test_half_circle_takes_the_tangent_half():
    exact = (30 * 10 + math.pi * 5**2) * 3
    data = slot_doc().as_dict()
    assert deepcad.build(data).Volume == pytest.approx(exact, rel=1e-9)
    # the dataset's defect: the reference vector points at the arc's end, so the rule
    # "counter-clockwise from the reference vector" gives the other half (a concave end)
    flipped = copy.deepcopy(data)
    arc = flipped["entities"]["S1"]["profiles"]["P1"]["loops"][0]["profile_curves"][1]
    arc["reference_vector"] = {"x": 0.0, "y": 1.0, "z": 0.0}
    assert deepcad.build(flipped).Volume == pytest.approx(exact, rel=1e-9)


def test_arc_inconsistent_with_its_end_points_is_rejected():
    data = slot_doc().as_dict()
    arc = data["entities"]["S1"]["profiles"]["P1"]["loops"][0]["profile_curves"][1]
    arc["end_angle"] = 2.0
    with pytest.raises(DeepCADError, match="arc angles and end points disagree"):
        deepcad.build(data)


# ------------------------------------------------------------------------------ writer


def test_writer_uses_the_dataset_keys():
    sample_files()
    real = json.loads((SAMPLES / "00010109.json").read_text())
    ours = json.loads((ASSETS_DIR / "keyed_hub.json").read_text())

    def keys(d: dict) -> dict[str, set]:
        out: dict[str, set] = {"model": set(d)}
        for e in d["entities"].values():
            out.setdefault(e["type"], set()).update(e)
            if e["type"] == "Sketch":
                for p in e["profiles"].values():
                    for lp in p["loops"]:
                        for c in lp["profile_curves"]:
                            out.setdefault(c["type"], set()).update(c)
        return out

    assert keys(ours) == keys(real)


# ------------------------------------------------------------------------------- STEP


def test_step_round_trip_is_byte_stable(tmp_path):
    shape = deepcad.build(box_model())
    a, b = write_step(shape, tmp_path / "a.step"), write_step(shape, tmp_path / "b.step")
    assert a.read_bytes().replace(b"'a'", b"'b'") == b.read_bytes()
    assert read_step(a).Volume == pytest.approx(6000.0, rel=1e-12)


def test_bad_step_files_give_clear_errors(tmp_path):
    good = write_step(deepcad.build(box_model()), tmp_path / "good.step").read_bytes()
    cases = {
        "truncated.step": (good[: len(good) // 2], "truncated STEP file"),
        "text.step": (b"hello", "not a STEP file"),
        # an unknown entity where a point belongs makes OpenCASCADE itself crash
        "corrupt.step": (good.replace(b"CARTESIAN_POINT", b"CARTESIAN_PXINT", 1),
                         "corrupt STEP file"),
    }
    for name, (data, message) in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(StepError, match=f"{name}: {message}"):
            read_step(tmp_path / name)
    with pytest.raises(StepError, match="cannot read"):
        read_step(tmp_path / "missing.step")


# ----------------------------------------------------------------- import and loaders


def test_import_parts_and_report(tmp_path):
    paths = [SAMPLES / "00010414.json", SAMPLES / EMPTY_PROFILES, SAMPLES / "00010414.json"]
    results = part_import.import_parts(paths, tmp_path / "out")
    assert [r.ok for r in results] == [True, False, False]
    assert results[0].step == tmp_path / "out" / "00010414.step"
    assert read_step(results[0].step).Volume == pytest.approx(results[0].volume, rel=1e-6)
    assert results[0].bbox == pytest.approx((-7.91845, -7.91845, -0.6858,
                                             7.91845, 7.91845, 0.6858))
    assert "no extrude with a profile" in results[1].error
    assert "another input already wrote 00010414.step" in results[2].error
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["00010414.step"]
    lines = part_import.import_report_lines(results)
    assert lines[0].startswith("ok     00010414.json -> ")
    assert "volume 212.537 mm^3" in lines[0]
    assert lines[1].startswith("FAILED 00014060.json: ")
    assert lines[-1] == "1 of 3 files imported; failed: 1 name taken, 1 no extrude"


def test_load_part_rejects_other_suffixes(tmp_path):
    with pytest.raises(ValueError, match="unsupported part file type"):
        load_part(tmp_path / "part.stl")


# ----------------------------------------------------------------------- bundled parts


CYLINDER_CROSSINGS = {"keyed_hub", "yoke", "cross_drilled_pin"}  # radial holes in tubes


def mesh_volume(shape) -> float:
    v, t = tessellate.triangles(shape, 0.1)
    a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6)


def test_bundled_parts():
    index = json.loads((ASSETS_DIR / "index.json").read_text())
    assert len(index) >= 340
    assert [p.name for p in list_parts()] == sorted(e["step"] or e["json"] for e in index)
    total = sum(p.stat().st_size for p in ASSETS_DIR.iterdir())
    assert total < 12e6
    assert len({e["kind"] for e in index}) >= 6
    assert {o for e in index for o in e["operations"]} == set(deepcad.OPERATIONS.values())
    assert {x for e in index for x in e["extents"]} == set(deepcad.EXTENTS.values())
    hand = [e for e in index if e["step"]]
    assert len(hand) == 46
    family = [e for e in index if not e["step"]]
    for e in family[::15]:  # JSON-only family parts, sampled: the script checked them all
        shape = load_part(ASSETS_DIR / e["json"])
        assert shape.isValid() and len(shape.Solids) == 1, e["name"]
        assert len(shape.Faces) == e["faces"], e["name"]
        assert shape.Volume == pytest.approx(e["volume"], abs=1e-3), e["name"]
    for e in hand:
        assert e["source"] == "spatialcad generator"
        from_json = load_part(ASSETS_DIR / e["json"])
        from_step = load_part(ASSETS_DIR / e["step"])
        for shape in (from_json, from_step):
            assert shape.isValid() and len(shape.Solids) == 1, e["name"]
            assert len(shape.Faces) == e["faces"], e["name"]
        # the same geometry: equal tessellations (OpenCASCADE's exact volume integration
        # itself errs by up to 3e-5 on faces bounded by cylinder-cylinder intersections)
        assert mesh_volume(from_step) == pytest.approx(mesh_volume(from_json), rel=1e-9)
        assert from_step.Volume == pytest.approx(from_json.Volume, rel=1e-4), e["name"]
        if e["name"] not in CYLINDER_CROSSINGS:
            assert from_step.Volume == pytest.approx(from_json.Volume, rel=1e-6), e["name"]
        assert from_json.Volume == pytest.approx(e["volume"], abs=1e-3), e["name"]
        box = deepcad.bbox_of(from_json)
        assert box == pytest.approx([*e["bbox"]["min"], *e["bbox"]["max"]], abs=1e-4)
        curves = (ASSETS_DIR / e["json"]).read_text()
        assert "Circle3D" in curves or "Arc3D" in curves, e["name"]


def test_bundled_parts_fill_every_face_band():
    """At least 50 usable parts (face band, legible size) per 3ViewProjection level 1-3
    (make bench's 40 items a level take distinct parts; today 80 / 239 / 55); the script
    checked each family part's hidden dashes, the test samples one a family."""
    from spatialcad.cad.part_index import IndexEntry
    from spatialcad.tasks.three_view import generate_parts as gp

    index = json.loads((ASSETS_DIR / "index.json").read_text())
    for level in (1, 2, 3):
        lo, hi = gp.face_band(level)
        usable = [e for e in index if lo <= e["faces"] <= hi and gp.legible_size(IndexEntry(
            e["json"], "", 0, 0, faces=e["faces"], bbox=(*e["bbox"]["min"], *e["bbox"]["max"])))]
        assert len(usable) >= 50, level


def test_asset_script_is_deterministic(tmp_path, monkeypatch):
    """Hand-written parts rebuild byte-identically (a sample), and each family's first
    part is rebuilt from the family's seeded draws byte-identically."""
    monkeypatch.syspath_prepend(str(ASSETS_DIR))
    import make_assets

    for name in ("l_bracket", "keyed_hub", "round_flange"):
        make_assets.make_part(name, tmp_path)
        for suffix in (".json", ".step"):
            assert (tmp_path / f"{name}{suffix}").read_bytes() == \
                (ASSETS_DIR / f"{name}{suffix}").read_bytes(), name
    firsts: dict[str, bytes] = {}
    for draw, (fam, _, doc) in enumerate(make_assets.family_candidates()):
        if draw >= 70:
            break
        try:
            _, data, _ = make_assets._solid(fam, doc)
        except ValueError:
            continue
        path = tmp_path / f"{fam}_{draw}.json"
        make_assets._write_json(data, path)
        shipped = (ASSETS_DIR / f"{fam}_001.json").read_bytes()
        if fam not in firsts and path.read_bytes() == shipped:
            firsts[fam] = shipped
    assert len(firsts) == 7
