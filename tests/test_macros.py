"""The FreeCAD scene of an item: macros/OpenItem.FCMacro run by freecadcmd, saved documents
reopened and measured, and spatialcad.cad.scene in-process for the other scene kinds."""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from spatialcad import freecad_env, item_dialog, item_scene
from spatialcad.cad import parts, scene, solids
from spatialcad.cad import section as cut
from spatialcad.geometry import cube_nets, rotations
from spatialcad.geometry import paper as pf
from spatialcad.geometry.arrows import HEADINGS, STEP
from spatialcad.geometry.colours import RED
from spatialcad.geometry.colours import SOLID as SOLID_COLOUR
from spatialcad.geometry.section_shape import from_text
from spatialcad.record.records import BENCHMARK, dumps
from spatialcad.render.paper_drawing import HOLE_RADIUS
from spatialcad.run.pipeline import make_item
from spatialcad.tasks.paper_folding import scene as paper_scene

ROOT = Path(__file__).resolve().parents[1]
MACRO = ROOT / "macros" / "OpenItem.FCMacro"
FREECADCMD = shutil.which("freecadcmd") or "freecadcmd"  # Debian freecad-python3 has it
SEED = 3
PART = {"name": "l_bracket", "file": "deepcad_assets/l_bracket.step"}
TURN = [[0, 0, 1], [1, 0, 0], [0, 1, 0]]  # x -> y, y -> z, z -> x
PART_ID = "MentalRotation/3ViewProjection/Level1/part"

FreeCAD, Part = freecad_env.load()


def part_record() -> dict[str, Any]:
    """A 3ViewProjection level-1 record of the bundled L-bracket turned by TURN (what the
    scene reads: the part named by its spec, and how the item turns it)."""
    step = parts.ASSETS_DIR / "l_bracket.step"
    spec = {"part": {**PART, "sha256": parts.part_sha256(step), "faces": 8}, "rotation": TURN,
            "reference_views": ["isometric", "front", "top"], "asked_view": "left",
            "scale_px_per_mm": 2.0, "deflection_mm": 0.05, "answer_ranks": [0, 0],
            "parts_drawn": 1}
    return {"id": PART_ID, "Category": "MentalRotation", "Task": "3ViewProjection",
            "Level": "Level1", "Image_id": "0000", "spec": spec, "options": []}


GENERATED_ID = "MentalRotation/3ViewProjection/Level1/generated"


def generated_record() -> dict[str, Any]:
    """:func:`part_record` of the bundled library's first generated part (named by its
    recipe: the scene makes its file again)."""
    made = parts.generated_parts()[0]
    part = {"name": made.name.replace("/", "_"), "file": made.name, "sha256": made.sha256,
            "faces": made.faces}
    record = part_record()
    return {**record, "id": GENERATED_ID, "spec": {**record["spec"], "part": part}}


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> tuple[Path, dict[str, dict[str, Any]]]:
    """A benchmark.json with one item of each kind the macro is run on, and those items."""
    items = {t: make_item(t, lv, 0, 1, SEED).record
             for t, lv in (("rotation_3d", 1), ("cross_section", 2), ("paper_folding", 1))}
    items["part"] = part_record()
    items["generated"] = generated_record()
    path = tmp_path_factory.mktemp("bench") / BENCHMARK
    path.write_bytes(dumps(list(items.values())))
    return path, items


def run_macro(benchmark: Path, item: str, save: Path | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPATIALCAD_")}
    env |= {"SPATIALCAD_BENCHMARK": str(benchmark), "SPATIALCAD_ITEM": item}
    if save is not None:
        env["SPATIALCAD_SAVE"] = str(save)
    return subprocess.run([FREECADCMD, str(MACRO)], env=env, capture_output=True, text=True,
                          timeout=300, cwd=benchmark.parent)


def opened(benchmark: Path, item: str, tmp_path: Path) -> Any:
    """The document the macro saved for ``item``, reopened here."""
    save = tmp_path / "scene.FCStd"
    proc = run_macro(benchmark, item, save)
    assert proc.returncode == 0, proc.stderr
    assert "OpenItem: saved" in proc.stdout
    return FreeCAD.openDocument(str(save))


@pytest.fixture
def close_new():
    """Close the documents a test opened (and only those)."""
    before = set(FreeCAD.listDocuments())
    yield
    for name in set(FreeCAD.listDocuments()) - before:
        FreeCAD.closeDocument(name)


def groups(doc: Any) -> dict[str, list[Any]]:
    """Group label -> its objects."""
    return {g.Label: list(g.Group) for g in doc.Objects
            if g.TypeId == "App::DocumentObjectGroup"}


def member(group: list[Any], label_end: str) -> Any:
    found = [o for o in group if o.Label.endswith(label_end)]
    assert len(found) == 1, [o.Label for o in group]
    return found[0]


def colour_of(obj: Any) -> tuple[int, int, int]:
    return tuple(round(c * 255) for c in obj.Colour[:3])


def assert_cubes(obj: Any, cells: list[list[int]], dx: float | None = None) -> float:
    """The object is exactly the unit cubes ``cells`` moved by ``dx`` (default: as far as
    its box says) along x; return the shift."""
    shape = obj.Shape
    assert len(shape.Solids) == len(cells)
    assert shape.Volume == pytest.approx(len(cells), abs=1e-9)
    if dx is None:
        dx = shape.BoundBox.XMin - min(c[0] for c in cells)
    corners = {(s.BoundBox.XMin - dx, s.BoundBox.YMin, s.BoundBox.ZMin) for s in shape.Solids}
    assert all(s.BoundBox.XLength == pytest.approx(1.0) for s in shape.Solids)
    assert {tuple(round(v) for v in c) for c in corners} == {tuple(c) for c in cells}
    assert all(max(abs(v - round(v)) for v in c) < 1e-9 for c in corners)
    return dx


def assert_side_by_side(doc: Any) -> None:
    """Every group's objects lie in an x range of their own."""
    spans = sorted((min(o.Shape.BoundBox.XMin for o in members),
                    max(o.Shape.BoundBox.XMax for o in members))
                   for members in groups(doc).values())
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:], strict=False)), spans


# ---- freecadcmd: the macro on each scene kind ------------------------------------------

def test_macro_cube_stacks(bench, tmp_path, close_new):
    path, items = bench
    record = items["rotation_3d"]
    doc = opened(path, item_scene.item_id(record), tmp_path)
    assert doc.Comment.startswith(f"spatialcad item {item_scene.item_id(record)}\n")
    assert doc.Comment.endswith(f"Answer: {record['Answer']}")
    found = groups(doc)
    assert len(found) == 5
    reference = found["Reference stack"]
    assert assert_cubes(reference[0], record["spec"]["voxels"]) == 0.0
    assert colour_of(reference[0]) == tuple(record["spec"]["colour"])
    for o in record["options"]:
        (obj,) = found[scene.option_title(o)]
        assert assert_cubes(obj, o["data"]["voxels"]) > 0.0
    assert_side_by_side(doc)


def test_macro_cross_section(bench, tmp_path, close_new):
    path, items = bench
    record = items["cross_section"]
    descs = record["spec"]["solids"]
    doc = opened(path, item_scene.item_id(record), tmp_path)
    found = groups(doc)
    composite = member(found["Composite solid, true sections"], "composite solid").Shape
    apart = found["Solids, top to bottom (pulled apart)"]
    assert len(apart) == len(descs)
    assert composite.Volume == pytest.approx(sum(o.Shape.Volume for o in apart), rel=1e-9)
    assert composite.Volume == pytest.approx(solids.make_composite(descs).Volume, rel=1e-9)
    assert composite.BoundBox.ZMin == pytest.approx(0.0, abs=1e-9)  # left in place
    by_label = {o.Label: o for o in doc.Objects}
    for o in record["options"]:
        plane, section = (next(by_label[k].Shape for k in by_label
                               if f"option {o['letter']} {what} (" in k)
                          for what in ("plane", "section"))
        normal = cut.family_normal(o["data"]["plane"]["family"])
        assert abs(abs(np.array(plane.Faces[0].Surface.Axis) @ normal) - 1.0) < 1e-9
        base = np.array(plane.Vertexes[0].Point)
        assert max(abs((np.array(v.Point) - base) @ normal) for v in section.Vertexes) < 1e-7
        if not o["is_answer"]:  # true sections cut the composite left in place
            assert base @ normal == pytest.approx(o["data"]["plane"]["offset"], abs=1e-9)
        assert section.Area == pytest.approx(from_text(o["data"]["polygon"]).area, rel=1e-3)
    assert sum("altered" in k for k in found) == 1
    assert_side_by_side(doc)


def test_macro_engineering_part(bench, tmp_path, close_new):
    path, _ = bench
    doc = opened(path, PART_ID, tmp_path)
    (obj,) = groups(doc)["Part l_bracket"]
    solid = parts.load_part(parts.ASSETS_DIR / "l_bracket.step")
    assert obj.Shape.Volume == pytest.approx(solid.Volume, rel=1e-9)
    box, plain = obj.Shape.BoundBox, solid.BoundBox  # the first thing stays in place
    for turned_to, axis in zip("YZX", "XYZ", strict=True):  # the part is turned
        for end in ("Min", "Max"):
            assert getattr(box, turned_to + end) == pytest.approx(getattr(plain, axis + end),
                                                                  abs=1e-9)
    assert plain.XLength != pytest.approx(plain.YLength)  # so the turn shows
    assert colour_of(obj) == SOLID_COLOUR


def test_macro_generated_part(bench, tmp_path, close_new):
    """A generated part's record names its recipe: the macro makes the part's file and
    shows the solid turned (the macro's process has its own, default, cache)."""
    path, items = bench
    part = items["generated"]["spec"]["part"]
    doc = opened(path, GENERATED_ID, tmp_path)
    (obj,) = groups(doc)[f"Part {part['name']}"]
    solid = parts.load_part(parts.resolve(part["file"]))
    assert len(solid.Faces) == part["faces"] == len(obj.Shape.Faces)
    assert obj.Shape.Volume == pytest.approx(solid.Volume, rel=1e-9)
    box, plain = obj.Shape.BoundBox, solid.BoundBox
    assert (box.XLength, box.YLength, box.ZLength) == pytest.approx(
        (plain.ZLength, plain.XLength, plain.YLength), abs=1e-9)  # turned by TURN


def test_macro_paper_folding(bench, tmp_path, close_new):
    """The unfolded sheets have round holes exactly at their option's cells; the answer's
    holes are those the folds give (simulated here, not read from the option)."""
    path, items = bench
    record = items["paper_folding"]
    spec = record["spec"]
    folds = [pf.Fold(f["kind"], tuple(f["line"]), f["flap"]) for f in spec["folds"]]
    folded = pf.fold_all(spec["rows"], spec["cols"], folds)[-1]
    truth = folded.unfold([tuple(h) for h in spec["holes"]])
    hole = math.pi * HOLE_RADIUS**2
    doc = opened(path, item_scene.item_id(record), tmp_path)
    found = groups(doc)
    (plate,) = found[next(k for k in found if k.startswith("Folded paper"))]
    expected = (folded.outline().area - len(spec["holes"]) * hole) * paper_scene.SHEET
    assert plate.Shape.Volume == pytest.approx(expected, rel=1e-9)
    answers = 0
    for o in record["options"]:
        (sheet,) = found[next(k for k in found if k.startswith(f"Option {o['letter']}"))]
        holes = {tuple(h) for h in o["data"]["holes"]}
        area = spec["rows"] * spec["cols"] - len(holes) * hole
        assert sheet.Shape.Volume == pytest.approx(area * paper_scene.SHEET, rel=1e-9)
        dx = sheet.Shape.BoundBox.XMin
        centres = {(round(-f.Surface.Center.y - 0.5), round(f.Surface.Center.x - dx - 0.5))
                   for f in sheet.Shape.Faces if isinstance(f.Surface, Part.Cylinder)}
        assert centres == holes
        answers += o["is_answer"]
        assert (holes == truth) == o["is_answer"]
    assert answers == 1


def test_macro_reports_errors(bench, tmp_path):
    path, _ = bench
    proc = run_macro(path, "no/such/item", tmp_path / "x.FCStd")
    assert proc.returncode == 1
    assert "'no/such/item' is not in" in proc.stderr
    assert not (tmp_path / "x.FCStd").exists()
    proc = run_macro(path, "no/such/item", None)
    assert proc.returncode == 2 and "SPATIALCAD_SAVE" in proc.stderr


# ---- the GUI macro's documents and item dialog ------------------------------------------

def test_an_item_opened_again_is_its_document_and_labels_stay_apart(bench, tmp_path,
                                                                      close_new):
    """The same item of the same benchmark is one document however often it is opened; the
    same id of another benchmark is another document with its own label."""
    path, items = bench
    wanted = item_scene.item_id(items["rotation_3d"])
    before = set(FreeCAD.listDocuments())
    first = item_scene.open_item(path, wanted)
    again = item_scene.open_item(path.parent, wanted)  # its folder names the same file
    assert again.Name == first.Name and first.Label == wanted
    assert len(set(FreeCAD.listDocuments()) - before) == 1
    copy = tmp_path / "copy" / BENCHMARK
    copy.parent.mkdir()
    shutil.copy(path, copy)
    other = item_scene.open_item(copy, wanted)
    assert other.Name != first.Name and other.Label == f"{wanted} (2)"
    assert item_scene.open_item(copy, wanted).Name == other.Name
    assert len(set(FreeCAD.listDocuments()) - before) == 2


def test_a_kept_scene_is_a_new_file_named_after_its_item(bench, tmp_path, close_new):
    """What the GUI does with each item it opens: saved outside the checkout under the
    item's name (Save then writes there, Save As starts there), never over a file."""
    path, items = bench
    wanted = item_scene.item_id(items["cross_section"])
    folder = tmp_path / "scenes"
    doc = item_scene.open_item(path, wanted)
    kept = item_scene.keep_as_file(doc, folder)
    name = wanted.replace("/", "-")
    assert kept == folder / f"{name}.FCStd" and kept.is_file()
    assert doc.FileName == str(kept) and doc.Label == wanted  # saveAs renames; kept
    copy = tmp_path / "copy" / BENCHMARK
    copy.parent.mkdir()
    shutil.copy(path, copy)
    first_bytes = kept.read_bytes()
    second = item_scene.keep_as_file(item_scene.open_item(copy, wanted), folder)
    assert second == folder / f"{name}-2.FCStd" and kept.read_bytes() == first_bytes
    assert item_scene.suggested_file("a b/c:d", folder) == folder / "a-b-c-d.FCStd"


def test_typed_ids_are_read_as_the_id_they_name():
    ids = ["VisualPenetration/CrossSection/Level1/0003", "MentalRotation/3DRotation/Level1/0003",
           "MentalRotation/3DRotation/Level1/0004"]
    assert item_dialog.pick_item(ids, ids[1]) == ids[1]
    assert item_dialog.pick_item(ids, " 0004 ") == ids[2]
    assert item_dialog.pick_item(ids, "CrossSection/Level1/0003") == ids[0]
    with pytest.raises(ValueError, match="2 item ids contain '0003'.*type more of the id"):
        item_dialog.pick_item(ids, "0003")
    with pytest.raises(ValueError, match="no item id contains '0009'"):
        item_dialog.pick_item(ids, "0009")
    with pytest.raises(ValueError, match="no item id contains ''"):
        item_dialog.pick_item(ids, "")


DIALOG_SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from PySide import QtCore, QtGui
app = QtGui.QApplication.instance() or QtGui.QApplication(["dialog"])
from spatialcad import item_dialog

ids = {ids!r}


def get_item_dialog():
    # the dialog QInputDialog.getItem(None, "", "Item:", ids, 0, True) shows
    dialog = QtGui.QInputDialog()
    dialog.setLabelText("Item:")
    dialog.setComboBoxItems(ids)
    dialog.setComboBoxEditable(True)
    dialog.setTextValue(ids[0])
    return dialog


def returned(typed=None, make=lambda: item_dialog.item_dialog(ids, "Item:")):
    dialog = make()
    dialog.show()
    dialog.activateWindow()
    app.processEvents()
    field = dialog.findChild(QtGui.QComboBox).lineEdit()
    if typed is not None:
        field.setText(typed)
    for kind in (QtCore.QEvent.KeyPress, QtCore.QEvent.KeyRelease):
        app.sendEvent(field, QtGui.QKeyEvent(kind, QtCore.Qt.Key_Return, QtCore.Qt.NoModifier))
    app.processEvents()
    return [dialog.isVisible(), dialog.result() == QtGui.QDialog.Accepted, dialog.textValue()]


print("RESULT " + json.dumps([returned(), returned("Level1/0004"),
                              returned(make=get_item_dialog)]))
"""


def test_one_return_opens_the_item_shown_in_the_dialog(tmp_path):
    """The real Qt dialog (FreeCAD's PySide, offscreen): the id shown at first is opened by
    one Return (Qt's inline completion took the first Return of QInputDialog.getItem), and
    a typed part of an id is accepted the same way."""
    ids = ["MentalRotation/3DRotation/Level1/0003", "MentalRotation/3DRotation/Level1/0004"]
    script = tmp_path / "dialog.py"
    script.write_text(DIALOG_SCRIPT.format(root=str(ROOT), ids=ids))
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)}
    proc = subprocess.run([FREECADCMD, str(script)], env=env, capture_output=True, text=True,
                          timeout=120)
    line = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")]
    assert line, proc.stdout + proc.stderr
    shown, typed, plain = json.loads(line[0][len("RESULT "):])
    assert plain == [True, False, ids[0]]  # getItem's dialog: still open after one Return
    assert shown == [False, True, ids[0]]
    assert typed == [False, True, "Level1/0004"]
    assert item_dialog.pick_item(ids, typed[2]) == ids[1]


# ---- in process: the other scene kinds --------------------------------------------------

def built(task: str, level: int, index: int = 0) -> tuple[dict[str, Any], Any]:
    record = make_item(task, level, index, index + 1, SEED).record
    doc = FreeCAD.newDocument("scene")
    item_scene.build_scene(record, doc)
    return record, doc


def test_stacks_with_coloured_cubes(close_new):
    record, doc = built("three_view", 0)
    found = groups(doc)["Stack with red cubes"]
    red = record["spec"]["red"]
    grey = [v for v in record["spec"]["voxels"] if v not in red]
    assert_cubes(member(found, "red cubes (3)"), red)
    assert colour_of(member(found, "red cubes (3)")) == RED
    assert_cubes(member(found, f"grey cubes ({len(grey)})"), grey)

    record, doc = built("block_moving", 1)
    spec = record["spec"]
    for title, key in (("Initial state", "voxels"), ("Final state", "final")):
        cubes = groups(doc)[title]
        assert len(cubes) == len(spec["colors"])
        shifts = {assert_cubes(member(cubes, f": {name} cube"), [cell])
                  for name, cell in zip(spec["colors"], spec[key], strict=True)}
        assert len(shifts) == 1  # one state moved as a whole
    assert_side_by_side(doc)

    record, doc = built("cube_assembly", 1)
    found = groups(doc)
    assert_cubes(found["Complete stack"][0], record["spec"]["voxels"])
    in_place = found["Given parts, in place"]
    given = record["spec"]["parts"]
    dx = (min(o.Shape.BoundBox.XMin for o in in_place)
          - min(v[0] for part in given for v in part))
    for i, part in enumerate(given):  # the parts keep their places relative to each other
        assert_cubes(member(in_place, f"part {i + 1} ({len(part)})"), part, dx)
    for o in record["options"]:
        assert_cubes(found[scene.option_title(o)][0], o["data"]["voxels"])

    record, doc = built("cube_counting", 1)
    assert_cubes(groups(doc)["Stack"][0], record["spec"]["voxels"])


def grid_signature(group: list[Any]) -> set[tuple]:
    """(colour name, tile centre from the grid's centre) of every tile of a grid group."""
    cells = [o.Shape for o in group if not o.Label.endswith(("black tiles", "marker tiles"))]
    box = cells[0].BoundBox
    for shape in cells[1:]:
        box.add(shape.BoundBox)
    return {(o.Label.split(": ")[-1], *(round(v, 6) + 0.0 for v in f.CenterOfMass - box.Center))
            for o in group for f in o.Shape.Faces}


def turned(signature: set[tuple], quarter_turns: int) -> set[tuple]:
    """The tiles turned counter-clockwise (seen from +z) about the grid's centre."""
    out = signature
    for _ in range(quarter_turns):
        out = {(name, -y + 0.0, x, z) for name, x, y, z in out}
    return out


def test_grid_tiles_match_the_grid(close_new):
    """2DRotation: each colour's tiles cover exactly its cells, symbols sit in the
    patterned cells, exactly the answer's tiles are the reference's tiles turned (cells,
    symbols and marker alike), and a mirror option's tiles are its mirror image."""
    record, doc = built("rotation_2d", 1)
    found = groups(doc)
    reference = grid_signature(found["Reference grid"])
    for title, data in [("Reference grid", record["spec"]["reference"])] + [
            (scene.option_title(o), o["data"]["grid"]) for o in record["options"]]:
        pieces = {o.Label.split(": ")[-1]: o.Shape for o in found[title]}
        colours = [c for row in data["colours"] for c in row]
        for name in set(colours):
            assert pieces[f"{name} tiles"].Area == pytest.approx(colours.count(name))
        x0 = min(s.BoundBox.XMin for s in pieces.values()) + 0.3 * ("l" in data["marker"])
        cells = {(round(-f.CenterOfMass.y - 0.5), math.floor(f.CenterOfMass.x - x0))
                 for f in pieces["black tiles"].Faces}
        patterned = {(r, c) for r, row in enumerate(data["patterns"])
                     for c, p in enumerate(row) if p}
        assert cells == patterned
    for o in record["options"]:
        signature = grid_signature(found[scene.option_title(o)])
        assert any(turned(reference, k) == signature for k in range(4)) == o["is_answer"]
        transform = o["data"]["transform"]
        if o["operator"] == "mirror":  # the mirror image, symbols mirrored too
            sign = (-1, 1) if transform["mirror"] == "lr" else (1, -1)
            mirrored = {(n, sign[0] * x + 0.0, sign[1] * y + 0.0, z) for n, x, y, z in reference}
            assert turned(mirrored, transform["turns"]) == signature
        if o["is_answer"]:
            assert turned(reference, transform["turns"]) == signature


def cube_colours(shapes: list[tuple[int, Any]]) -> dict[tuple, int]:
    """Tile centre (from the cube's centre, rounded) -> palette index, for the tile
    compounds ``(palette index, shape)`` of one pictured cube."""
    box = shapes[0][1].BoundBox
    for _, s in shapes[1:]:
        box.add(s.BoundBox)
    centre = np.array(box.Center)
    return {tuple(np.round(np.array(f.CenterOfMass) - centre, 6) + 0.0): index
            for index, shape in shapes for f in shape.Faces}


def shows(table: dict[tuple, int], view: dict[str, list], pose: np.ndarray) -> bool:
    """The cube whose tiles ``table`` holds, turned by ``pose``, shows ``view``."""
    for name, (normal, right, up) in cube_nets.VIEW_FACES.items():
        grid = np.array(view[name])
        n = len(grid)
        for (i, j), value in np.ndenumerate(grid):
            world = (np.array(normal) / 2 + np.array(right) * ((j + 0.5) / n - 0.5)
                     + np.array(up) * (0.5 - (i + 0.5) / n))
            if table.get(tuple(np.round(pose.T @ world, 6) + 0.0)) != value:
                return False
    return True


def folded_cube(group: list[Any], names: dict[str, int]) -> dict[tuple, int]:
    """The folded cube of an option's or the reference's group, as :func:`cube_colours`."""
    pieces = [(names[o.Label.split("folded cube ")[-1].removesuffix(" tiles")], o.Shape)
              for o in group if "folded cube" in o.Label]
    return cube_colours(pieces)


def palette_names(spec: dict[str, Any]) -> dict[str, int]:
    return {name: i for i, (name, _) in scene.face_colours(spec["faces"]).items()}


def test_folded_cubes_show_the_views(close_new):
    """CubeUnfolding: the net of every option that fits the view folds (in the scene) into
    a cube that some rotation shows as the reference view; the others into none."""
    record, doc = built("cube_unfolding", 1)
    found = groups(doc)
    names = palette_names(record["spec"])
    poses = [np.array(m) for m in rotations.proper_rotations()]
    fits = {"can": lambda o: o["is_answer"], "cannot": lambda o: not o["is_answer"]}[
        record["spec"]["question"]]
    for o in record["options"]:
        group = found[next(k for k in found if k.startswith(f"Option {o['letter']}"))]
        table = folded_cube(group, names)
        assert len(table) == 6 * len(record["spec"]["faces"]["faces"][0]) ** 2
        assert any(shows(table, record["spec"]["view"], m) for m in poses) == fits(o)


def net_cell(net: list[Any], names: dict[str, int], row: int, col: int) -> set[tuple]:
    """(palette index, centre from the cell's centre) of the tiles of a flat net's cell."""
    centre = FreeCAD.Vector(col + 0.5, -row - 0.5, 0.0)
    return {(names[o.Label.split(": net ")[-1].removesuffix(" tiles")],
             *(round(v, 6) + 0.0 for v in f.CenterOfMass - centre))
            for o in net for f in o.Shape.Faces
            if max(abs(v) for v in f.CenterOfMass - centre) < 0.5}


def upright(grid: np.ndarray) -> set[tuple]:
    """The same for a face picture drawn upright (row 0 on top) in a unit cell."""
    n = len(grid)
    return {(int(v), round((j + 0.5) / n - 0.5, 6) + 0.0, round(0.5 - (i + 0.5) / n, 6) + 0.0,
             0.0) for (i, j), v in np.ndenumerate(grid)}


def test_corner_view_options_come_from_the_net(close_new):
    """CubeReconstruction: the scene's folded net shows the answer's corner view under some
    rotation and no mirror option's view; the option groups hold those views; each net cell
    shows its face's picture turned as the spec says."""
    for index in range(6):
        record, doc = built("cube_reconstruction", 1, index)
        if record["spec"]["question"] == "view":
            break
        FreeCAD.closeDocument(doc.Name)
    else:
        pytest.fail("no corner-view item among the first six")
    found = groups(doc)
    names = palette_names(record["spec"])
    table = folded_cube(found[f"Reference net {record['spec']['net']}"], names)
    poses = [np.array(m) for m in rotations.proper_rotations()]
    identity = np.eye(3, dtype=int)
    grids = [np.array(g) for g in record["spec"]["faces"]["faces"]]
    net = [o for o in found[f"Reference net {record['spec']['net']}"] if ": net " in o.Label]
    for row, col, face, turns in record["spec"]["cells"]:  # each cell's picture, turned
        assert net_cell(net, names, row, col) == turned(upright(grids[face]), turns)
    for o in record["options"]:
        assert any(shows(table, o["data"]["view"], m) for m in poses) == o["is_answer"]
        pieces = [(names[x.Label.split(": ")[-1].removesuffix(" tiles")], x.Shape)
                  for x in found[scene.option_title(o)]]
        assert shows(cube_colours(pieces), o["data"]["view"], identity)


def test_arrows_point_their_headings(close_new):
    record, doc = built("arrow_moving", 1)
    found = groups(doc)
    for title, key in (("Start", "start"), ("End", "end")):
        board = found[title]
        x0 = member(board, "white tiles").Shape.BoundBox.XMin
        white = member(board, "white tiles").Shape
        assert white.Area == pytest.approx(math.prod(record["spec"]["grid"]))
        for a in record["spec"][key]:
            face = member(board, f"{a['colour']} arrow tiles").Shape.Faces[0]
            centre = np.array([x0 + a["cell"][0] + 0.5, a["cell"][1] + 0.5])
            points = np.array([(v.X, v.Y) for v in face.Vertexes]) - centre
            tip = points[np.argmax(np.linalg.norm(points, axis=1))]
            assert np.allclose(tip / np.linalg.norm(tip), STEP[HEADINGS.index(a["heading"])])
            assert np.abs(points).max() < 0.5  # inside its cell


def test_scene_errors(tmp_path, close_new):
    doc = FreeCAD.newDocument("errors")
    with pytest.raises(ValueError, match="no scene for task 'PulleySystem'.*known tasks"):
        item_scene.build_scene({**part_record(), "Task": "PulleySystem"}, doc)
    assert doc.Objects == []
    path = tmp_path / BENCHMARK
    path.write_bytes(dumps([part_record()]))
    with pytest.raises(ValueError, match=r"item 'a/b' is not in .*1 items, ids like "
                                         + PART_ID):
        item_scene.open_item(path, "a/b")
    with pytest.raises(ValueError, match="expected a benchmark.json"):
        item_scene.open_item(tmp_path / "other.json", PART_ID)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="has no benchmark.json"):
        item_scene.open_item(tmp_path / "empty", PART_ID)
    record = part_record()
    missing = {**record, "spec": {**record["spec"], "part": {**record["spec"]["part"],
                                                            "file": "no/such.step"}}}
    with pytest.raises(ValueError, match="such.step"):
        item_scene.build_scene(missing, doc)
    assert item_scene.item_id({**part_record(), "id": None}) == \
        "MentalRotation/3ViewProjection/Level1/0000"


def test_a_linkage_of_extruded_bars_pins_and_a_cam(close_new):
    """Each linkage part is one solid of its drawing's outline, connecting rods a layer in
    front; every pin joint and fixed pivot is a cylinder through both layers."""
    seen = set()
    for index in range(80):
        record = make_item("mechanical_system", 2, index, 80, SEED).record
        spec = record["spec"]
        if spec["question"] not in ("travel", "moves", "full_turn") or \
                spec["question"] in seen:
            continue
        seen.add(spec["question"])
        doc = FreeCAD.newDocument("scene")
        item_scene.build_scene(record, doc)
        found = groups(doc)["Mechanism"]
        for p in spec["parts"]:
            obj = member(found, f"{p['kind']} {p['name']}")
            assert obj.Shape.isValid() and len(obj.Shape.Solids) == 1
            if p["kind"] == "rod":
                assert obj.Shape.BoundBox.ZMin == pytest.approx(1.5)
        pins = [lk for lk in spec["links"] if lk["kind"] == "pin"]
        labels = [o.Label.removeprefix("Mechanism: ") for o in found]
        assert len([x for x in labels if x.startswith("pin ")]) == len(pins)
        assert any(x.startswith("pivot ") for x in labels)
    assert seen == {"travel", "moves", "full_turn"}


def test_a_mechanism_of_extruded_gears_on_axles(close_new):
    specs = (make_item("mechanical_system", 2, i, i + 1, SEED).record["spec"] for i in range(20))
    index = next(i for i, s in enumerate(specs)  # a gear train: no linkage, no planetary
                 if s["question"] not in ("travel", "moves", "full_turn") and
                 all(p["kind"] != "carrier" for p in s["parts"]))
    record, doc = built("mechanical_system", 2, index)
    spec = record["spec"]
    found = groups(doc)["Mechanism"]
    for p in spec["parts"]:
        obj = member(found, f"{p['kind']} {p['name']}")
        assert obj.Shape.isValid() and len(obj.Shape.Solids) == 1
        if p["teeth"] and p["kind"] != "ring":  # a tooth profile: 5 edges a tooth
            assert len(obj.Shape.Faces) == 5 * p["teeth"] + 2
            assert math.isclose(obj.Shape.Volume, obj.Shape.Faces[-1].Area * 1.5, rel_tol=1e-6)
    shafts = {p["shaft"] for p in spec["parts"] if p["shaft"] >= 0}
    labels = [o.Label.removeprefix("Mechanism: ") for o in found]
    assert len([x for x in labels if x.startswith("axle ")]) == len(shafts)
    belts = [lk for lk in spec["links"] if lk["kind"] in ("belt", "crossed", "rope")]
    spans = [x for x in labels if x.split()[0] in ("belt", "crossed", "rope")]
    assert len(spans) == sum(1 if lk["kind"] == "rope" else 2 for lk in belts)
