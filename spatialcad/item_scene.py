"""Open a benchmark item's scene in FreeCAD (what macros/OpenItem.FCMacro calls).

:func:`open_item` finds an item of a benchmark by its id and builds it in a new document
with :func:`build_scene`, which hands the record to its task's ``scene.py``: cube stacks as
compounds of unit boxes, the composite solids of a cross-section item with its section
planes and sections, an engineering part, and flat coloured tiles for grids, nets and boards.
An item already open (the same id of the same benchmark) is not built twice: its document
is returned.  :func:`keep_as_file` saves a scene as a file named after its item (the
macro keeps each item it opens in ~/spatialcad-scenes).  The macro's item dialog is
spatialcad/item_dialog.py.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path
from typing import Any

from spatialcad import freecad_env
from spatialcad.cad.scene import Scene, identifier
from spatialcad.record.benchmark import read_records
from spatialcad.record.records import BENCHMARK, image_path
from spatialcad.tasks import registry

Record = dict[str, Any]
ITEM_KEY = "spatialcad-item"  # the document's Meta entries naming what it shows
BENCHMARK_KEY = "spatialcad-benchmark"


def item_id(record: Record) -> str:
    """An item's id: its ``"id"`` field, else its image path (as the evaluation uses)."""
    return str(record.get("id") or image_path(record))


def benchmark_file(benchmark: str | Path) -> Path:
    """The ``benchmark.json`` given, or the one in the benchmark directory given."""
    path = Path(benchmark)
    if path.is_dir():
        return path / BENCHMARK
    if path.name != BENCHMARK:
        raise ValueError(f"{path}: expected a {BENCHMARK} file or the directory holding it")
    return path


def load_records(benchmark: str | Path) -> list[Record]:
    """The records of a ``benchmark.json`` file, or of the benchmark directory holding it."""
    return read_records(benchmark_file(benchmark).parent)


def unique_label(wanted: str, taken: Collection[str]) -> str:
    """``wanted``, or ``wanted (2)``, ``wanted (3)`` ...: the first label not ``taken``."""
    label, k = wanted, 1
    while label in taken:
        k += 1
        label = f"{wanted} ({k})"
    return label


def suggested_file(wanted: str, folder: Path, taken: Collection[str] = ()) -> Path:
    """A new ``.FCStd`` file in ``folder`` named after item ``wanted`` (``/`` and other
    characters unsafe in a file name become ``-``): no existing file, none in ``taken``."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", wanted).strip("-.") or "item"
    path, k = folder / f"{stem}.FCStd", 1
    while path.exists() or str(path) in taken:
        k += 1
        path = folder / f"{stem}-{k}.FCStd"
    return path


def keep_as_file(doc: Any, folder: Path) -> Path:
    """Save ``doc`` (an item's scene, from :func:`open_item`) as a new file named after its
    item in ``folder`` (:func:`suggested_file`; nothing is overwritten), keeping its label;
    return the file.  FreeCAD's Save then writes that file and Save As starts from it."""
    FreeCAD, _ = freecad_env.load()
    folder.mkdir(parents=True, exist_ok=True)
    taken = {d.FileName for d in FreeCAD.listDocuments().values()}
    path = suggested_file(doc.Meta.get(ITEM_KEY) or doc.Label, folder, taken)
    label = doc.Label
    doc.saveAs(str(path))  # names the document after the file
    doc.Label = label
    return path


def open_item(benchmark_json: str | Path, wanted: str, doc_name: str | None = None) -> Any:
    """The FreeCAD document holding the scene of item ``wanted`` of a benchmark: the open
    one made for it (the same id of the same ``benchmark.json``), else a new one labelled
    by the id (:func:`unique_label` among the open documents: two benchmarks may share an
    id)."""
    source = str(benchmark_file(benchmark_json).resolve())
    FreeCAD, _ = freecad_env.load()
    docs = list(FreeCAD.listDocuments().values())
    for doc in docs:
        if doc.Meta.get(ITEM_KEY) == wanted and doc.Meta.get(BENCHMARK_KEY) == source:
            return doc
    records = load_records(benchmark_json)
    matches = [r for r in records if item_id(r) == wanted]
    if not matches:
        sample = ", ".join(item_id(r) for r in records[:3])
        raise ValueError(f"item {wanted!r} is not in {benchmark_json} ({len(records)} items, "
                         f"ids like {sample})")
    record = matches[0]
    doc = FreeCAD.newDocument(doc_name or identifier(wanted))
    doc.Label = unique_label(wanted, {d.Label for d in docs})
    doc.Meta = {**doc.Meta, ITEM_KEY: wanted, BENCHMARK_KEY: source}
    doc.Comment = "\n".join(
        [f"spatialcad item {wanted}", record.get("Question") or "",
         f"Answer: {record['Answer']}" if record.get("Answer") else ""]).strip()
    try:
        build_scene(record, doc)
    except Exception:
        FreeCAD.closeDocument(doc.Name)
        raise
    return doc


def build_scene(record: Record, doc: Any) -> list[Any]:
    """Add the scene of ``record`` to ``doc``; return the ``Part::Feature`` objects made."""
    task = registry.by_record_task(record.get("Task", ""))
    if task is None:
        known = ", ".join(sorted(t.record_task for t in registry.tasks().values()))
        raise ValueError(f"no scene for task {record.get('Task')!r} (item {item_id(record)}); "
                         f"known tasks: {known}")
    scene = Scene(doc)
    task.scene_builder()(scene, record)
    doc.recompute()
    return scene.objects
