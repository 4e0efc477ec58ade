"""VLMEvalKit multiple-choice TSV: one row per item, the image as base64 PNG.

Columns: index, image, question, A, B, C, D, answer, category, l2-category, level,
image_id, id.  VLMEvalKit reports accuracy per ``category`` and per ``l2-category``, so
both carry the level: ``category`` is ``Task/Level`` (e.g. ``CubeCounting/Level1``) and
``l2-category`` is ``Category/Level`` (e.g. ``VisualPenetration/Level1``).

``image_id`` is the record's text ("0000").  VLMEvalKit reads a TSV with pandas, which
turns a column of digits into numbers ("0000" -> 0) whatever the file says, so ``id``
(``Category/Task/Level/Image_id``, never a number) is the key that survives any reader.
"""

from __future__ import annotations

import base64
import csv
from pathlib import Path

from spatialcad.export import atomic_text, load
from spatialcad.record.records import image_path

COLUMNS = ["index", "image", "question", "A", "B", "C", "D", "answer", "category",
           "l2-category", "level", "image_id", "id"]


def export_tsv(bench: Path, out: Path, overwrite: bool = False) -> int:
    """Write benchmark ``bench`` as a VLMEvalKit TSV ``out``; return the item count."""
    checked = load(bench, out)
    records = checked.records
    with atomic_text(out, overwrite) as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(COLUMNS)
        for i, r in enumerate(records):
            writer.writerow([
                i, base64.b64encode(checked.png(r)).decode("ascii"), r["Question"],
                *r["Choices"], r["Answer"], f"{r['Task']}/{r['Level']}",
                f"{r['Category']}/{r['Level']}", r["Level"], r["Image_id"], image_path(r),
            ])
    return len(records)
