"""Open a benchmark item's scene in FreeCAD (what macros/OpenItem.FCMacro calls).

:func:`open_item` finds an item of a benchmark by its id and builds it in a new document
with :func:`build_scene`, which hands the record to its task's ``scene.py``: cube stacks as
compounds of unit boxes, the composite solids of a cross-section item with its section
planes and sections, an engineering part, and flat coloured tiles for grids, nets and boards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spatialcad import freecad_env
from spatialcad.cad.scene import Scene, identifier
from spatialcad.record.benchmark import read_records
from spatialcad.record.records import BENCHMARK, image_path
from spatialcad.tasks import registry

Record = dict[str, Any]


def item_id(record: Record) -> str:
    """An item's id: its ``"id"`` field, else its image path (as the evaluation uses)."""
    return str(record.get("id") or image_path(record))


def load_records(benchmark: str | Path) -> list[Record]:
    """The records of a ``benchmark.json`` file, or of the benchmark directory holding it."""
    path = Path(benchmark)
    if path.is_dir():
        return read_records(path)
    if path.name != BENCHMARK:
        raise ValueError(f"{path}: expected a {BENCHMARK} file or the directory holding it")
    return read_records(path.parent)


def open_item(benchmark_json: str | Path, wanted: str, doc_name: str | None = None) -> Any:
    """A new FreeCAD document holding the scene of item ``wanted`` of a benchmark."""
    records = load_records(benchmark_json)
    matches = [r for r in records if item_id(r) == wanted]
    if not matches:
        sample = ", ".join(item_id(r) for r in records[:3])
        raise ValueError(f"item {wanted!r} is not in {benchmark_json} ({len(records)} items, "
                         f"ids like {sample})")
    record = matches[0]
    FreeCAD, _ = freecad_env.load()
    doc = FreeCAD.newDocument(doc_name or identifier(wanted))
    doc.Label = wanted
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
