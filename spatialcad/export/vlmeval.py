"""VLMEvalKit multiple-choice TSV: one row per item, the image as base64 PNG.

Columns: index, image, question, A, B, C, D, answer, category, l2-category, level,
image_id, id.  VLMEvalKit reports accuracy per ``category`` and per ``l2-category``, so
both carry the level: ``category`` is ``Task/Level`` (e.g. ``CubeCounting/Level1``) and
``l2-category`` is ``Category/Level`` (e.g. ``VisualPenetration/Level1``).

``image_id`` is the record's text ("0000").  VLMEvalKit reads a TSV with pandas, which
turns a column of digits into numbers ("0000" -> 0) whatever the file says, so ``id``
(``Category/Task/Level/Image_id``, never a number) is the key that survives any reader.

With ``images="panels"`` the ``image`` cell holds a JSON list of base64 PNGs, the item's
panels (spatialcad/panels.py), and an ``image_path`` column after it their file names
(``<index>-<k>.png``), which VLMEvalKit needs to write a list of images out; its
multiple-choice prompt puts every image before the text, so the question starts with a
line naming the images in order (``Images, in order: 1. Front view; ...``).
"""

from __future__ import annotations

import base64
import csv
import json
from pathlib import Path
from typing import Any

from spatialcad.export import atomic_text, load
from spatialcad.panels import check_images, listing, panel_pngs, require_captions
from spatialcad.record.benchmark import Benchmark
from spatialcad.record.records import image_path

COLUMNS = ["index", "image", "question", "A", "B", "C", "D", "answer", "category",
           "l2-category", "level", "image_id", "id"]


def _b64(png: bytes) -> str:
    return base64.b64encode(png).decode("ascii")


def _pictures(checked: Benchmark, r: dict[str, Any], index: int, images: str
              ) -> tuple[list[str], str]:
    """The row's picture cells (``image``, and ``image_path`` for panels) and question."""
    if images == "composite":
        return [_b64(checked.png(r))], r["Question"]
    cut = panel_pngs(r, checked.png(r))
    names = [f"{index}-{k}.png" for k in range(1, len(cut) + 1)]
    return ([json.dumps([_b64(data) for _, data in cut]), json.dumps(names)],
            listing([caption for caption, _ in cut]) + "\n" + r["Question"])


def export_tsv(bench: Path, out: Path, overwrite: bool = False,
               images: str = "composite") -> int:
    """Write benchmark ``bench`` as a VLMEvalKit TSV ``out`` (with ``images="panels"``,
    each item's panels instead of its composite); return the item count."""
    check_images(images)
    checked = load(bench, out)
    records = checked.records
    if images == "panels":
        require_captions(records)
    head = COLUMNS if images == "composite" else [*COLUMNS[:2], "image_path", *COLUMNS[2:]]
    with atomic_text(out, overwrite) as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(head)
        for i, r in enumerate(records):
            pictures, question = _pictures(checked, r, i, images)
            writer.writerow([
                i, *pictures, question,
                *r["Choices"], r["Answer"], f"{r['Task']}/{r['Level']}",
                f"{r['Category']}/{r['Level']}", r["Level"], r["Image_id"], image_path(r),
            ])
    return len(records)
