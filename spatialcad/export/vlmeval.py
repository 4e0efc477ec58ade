"""VLMEvalKit-style multiple-choice TSV: one row per item, the image as base64 PNG.

Columns: index, image, question, A, B, C, D, answer, category (the record's Task: the
fine-grained ability VLMEvalKit reports on), l2-category (the record's Category), level,
image_id.
"""

from __future__ import annotations

import base64
import csv
from pathlib import Path

from spatialcad.export import atomic_text, load

COLUMNS = ["index", "image", "question", "A", "B", "C", "D", "answer", "category",
           "l2-category", "level", "image_id"]


def export_tsv(bench: Path, out: Path, overwrite: bool = False) -> int:
    checked = load(bench)
    records = checked.records
    with atomic_text(out, overwrite) as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(COLUMNS)
        for i, r in enumerate(records):
            writer.writerow([
                i, base64.b64encode(checked.png(r)).decode("ascii"), r["Question"],
                *r["Choices"], r["Answer"], r["Task"], r["Category"], r["Level"], r["Image_id"],
            ])
    return len(records)
