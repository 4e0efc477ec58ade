"""Hugging Face export: a hub-ready dataset folder, written with pyarrow.

::

    OUT/data/<split>-00000-of-0000N.parquet   the rows of the benchmark's split
    OUT/README.md                             the dataset card (spatialcad/export/hf_card.py)
    OUT/manifest.json                         spatialcad's manifest (so --overwrite may
                                              replace OUT)

The split is the one ``generate --split train|val|test`` recorded in the manifest, and
``test`` for a benchmark made without one.  Load it with ``datasets.load_dataset(OUT,
split="test")`` (or the benchmark's split), or push it with ``--push-to-hub``.
``image`` is an Image feature (``{bytes, path}``) and decodes to a PIL image; ``choices``
is a list of four strings; the task-specific ``generator``, ``spec``, ``options`` and
``layout`` are JSON strings (their shape differs between tasks).  A benchmark made with
``--with-steps`` adds ``steps`` (the step texts) and ``step_images`` (a list of Image
features, one per step; both empty for an item of a task without steps).  ``--images
panels`` adds ``panels`` (a list of Image features: each panel cut out of the composite,
reference panels first, then the pictured options; spatialcad/panels.py) and
``panel_captions`` (their captions, in the same order).

The feature types are written in the form every ``datasets`` since 2.19 reads: newer
versions write a list of strings as ``List``, which 2.19 does not know ("Feature type
'List' not found"), so the parquet metadata and the card spell it ``Sequence`` /
``sequence: string``, which old and new versions both read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from spatialcad.export import load, write_manifest
from spatialcad.export.hf_card import DATA_DIR, SPLIT, split_of_benchmark, write_card
from spatialcad.panels import check_images, panel_pngs, require_captions
from spatialcad.record.benchmark import Benchmark
from spatialcad.record.records import image_path
from spatialcad.run.outdir import atomic_dir

MAX_SHARD_BYTES = 500 * 2**20  # images per parquet file, as the hub's own uploads shard
ROW_GROUP = 100  # rows per parquet row group: small, for image rows

# column -> kind: "string" (nullable text), "int64", "image", "strings" (list of text),
# "images" (list of images)
COLUMNS: dict[str, str] = {
    "id": "string", "image": "image", "category": "string", "task": "string",
    "level": "string", "image_id": "string", "question": "string", "choices": "strings",
    "answer": "string", "explanation": "string", "question_direct": "string",
    "answer_direct": "string", "seed": "int64", "generator": "string", "spec": "string",
    "options": "string", "layout": "string",
}
STEP_COLUMNS: dict[str, str] = {"steps": "strings", "step_images": "images"}
PANEL_COLUMNS: dict[str, str] = {"panels": "images", "panel_captions": "strings"}
_STRING = {"dtype": "string", "_type": "Value"}
_FEATURE = {"string": _STRING, "int64": {"dtype": "int64", "_type": "Value"},
            "image": {"_type": "Image"}, "strings": {"feature": _STRING, "_type": "Sequence"},
            "images": {"feature": {"_type": "Image"}, "_type": "Sequence"}}
_IMAGE = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
_ARROW = {"string": pa.string(), "int64": pa.int64(), "image": _IMAGE,
          "strings": pa.list_(pa.string()), "images": pa.list_(_IMAGE)}


def columns(checked: Benchmark, images: str = "composite") -> dict[str, str]:
    """The export's columns: ``COLUMNS``, ``STEP_COLUMNS`` for a benchmark with steps and
    ``PANEL_COLUMNS`` with ``images="panels"``."""
    return (COLUMNS | (STEP_COLUMNS if checked.with_steps else {})
            | (PANEL_COLUMNS if check_images(images) == "panels" else {}))


def features(cols: dict[str, str] = COLUMNS) -> dict[str, Any]:
    """The ``datasets`` features as ``Features.to_dict`` of datasets 2.x writes them."""
    return {name: _FEATURE[kind] for name, kind in cols.items()}


def schema(cols: dict[str, str] = COLUMNS) -> pa.Schema:
    """The parquet schema, with the features in the ``huggingface`` metadata key, where
    ``datasets`` looks for them."""
    meta = {"huggingface": json.dumps({"info": {"features": features(cols)}})}
    return pa.schema([(name, _ARROW[kind]) for name, kind in cols.items()], metadata=meta)


def row(checked: Benchmark, r: dict[str, Any], images: str = "composite") -> dict[str, Any]:
    """The dataset row of record ``r``: the image's bytes embedded (and, in a benchmark
    with steps, the step texts and pictures; with ``images="panels"``, the panels and
    their captions)."""
    direct = r.get("Answer_direct")
    png = checked.png(r)
    steps = {}
    if checked.with_steps:
        names = [Path(e["image"]).name for e in r.get("steps", [])]
        steps = {"steps": [e["text"] for e in r.get("steps", [])],
                 "step_images": [{"bytes": data, "path": name} for name, data
                                 in zip(names, checked.step_pngs(r), strict=True)]}
    panels = {}
    if images == "panels":
        cut = panel_pngs(r, png)
        stem = Path(r["image"]).stem
        panels = {"panels": [{"bytes": data, "path": f"{stem}-panel{k}.png"}
                             for k, (_, data) in enumerate(cut, 1)],
                  "panel_captions": [caption for caption, _ in cut]}
    return {
        "id": image_path(r),
        "image": {"bytes": png, "path": Path(r["image"]).name},
        "category": r["Category"], "task": r["Task"], "level": r["Level"],
        "image_id": r["Image_id"], "question": r["Question"], "choices": list(r["Choices"]),
        "answer": r["Answer"], "explanation": r["Explanation"],
        "question_direct": r.get("Question_direct"),
        "answer_direct": None if direct is None else str(direct),
        "seed": int(r["seed"]),
        **{k: json.dumps(r[k]) for k in ("generator", "spec", "options", "layout")},
        **steps,
        **panels,
    }


def shards(checked: Benchmark, max_bytes: int, images: str = "composite"
           ) -> list[list[dict[str, Any]]]:
    """The records in order, cut into runs whose images add up to at most ``max_bytes``
    (at least one record each; an item's panels are counted as another composite)."""
    out: list[list[dict[str, Any]]] = [[]]
    size = 0
    for r in checked.records:
        image = checked.image_file(r).stat().st_size * (2 if images == "panels" else 1)
        if out[-1] and size + image > max_bytes:
            out.append([])
            size = 0
        out[-1].append(r)
        size += image
    return out


def shard_name(index: int, count: int, split: str = SPLIT) -> str:
    """``data/test-00000-of-00002.parquet``: the hub's naming of a split's shards."""
    return f"{DATA_DIR}/{split}-{index:05d}-of-{count:05d}.parquet"


def _groups(records: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(records), ROW_GROUP):
        yield records[start:start + ROW_GROUP]


def write_shard(checked: Benchmark, records: list[dict[str, Any]], path: Path,
                images: str = "composite") -> int:
    """One parquet file of ``records``, one row group (of embedded images) at a time; return
    the rows' size in Arrow memory (what ``datasets`` calls a split's ``num_bytes``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table_schema = schema(columns(checked, images))
    size = 0
    with pq.ParquetWriter(path, table_schema) as writer:
        for group in _groups(records):
            table = pa.Table.from_pylist([row(checked, r, images) for r in group],
                                         schema=table_schema)
            writer.write_table(table, row_group_size=ROW_GROUP)
            size += table.nbytes
    return size


def export_hf(bench: Path, out: Path, overwrite: bool = False,
              max_shard_bytes: int = MAX_SHARD_BYTES, images: str = "composite") -> int:
    """Write the benchmark at ``bench`` as the hub folder ``out`` (with ``images="panels"``,
    every item's panels too); return the item count."""
    checked = load(bench, out)
    cols = columns(checked, images)
    if images == "panels":
        require_captions(checked.records)
    parts = shards(checked, max_shard_bytes, images)
    split = split_of_benchmark(checked)
    with atomic_dir(out, overwrite) as tmp:
        num_bytes = sum(write_shard(checked, part, tmp / shard_name(i, len(parts), split),
                                    images) for i, part in enumerate(parts))
        write_card(tmp, checked, cols, num_bytes)
        write_manifest(tmp, "hf", len(checked.records))
    return len(checked.records)
