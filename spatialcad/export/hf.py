"""Hugging Face ``datasets`` export: ``Dataset.save_to_disk`` with the images embedded.

Load it with ``datasets.load_from_disk(PATH)``; ``image`` decodes to a PIL image.  The
task-specific ``generator``, ``spec``, ``options`` and ``layout`` are JSON strings (their
shape differs between tasks).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spatialcad import __version__
from spatialcad.benchmark import Benchmark, file_sha256
from spatialcad.export import load
from spatialcad.outdir import atomic_dir
from spatialcad.records import MANIFEST, dumps, image_path

FIELDS = ["id", "image", "category", "task", "level", "image_id", "question", "choices",
          "answer", "explanation", "question_direct", "answer_direct", "seed", "generator",
          "spec", "options", "layout"]


def _row(checked: Benchmark, r: dict[str, Any]) -> dict[str, Any]:
    direct = r.get("Answer_direct")
    return {
        "id": image_path(r),
        "image": {"bytes": checked.png(r), "path": Path(r["image"]).name},
        "category": r["Category"], "task": r["Task"], "level": r["Level"],
        "image_id": r["Image_id"], "question": r["Question"], "choices": list(r["Choices"]),
        "answer": r["Answer"], "explanation": r["Explanation"],
        "question_direct": r.get("Question_direct"),
        "answer_direct": None if direct is None else str(direct),
        "seed": int(r["seed"]),
        **{k: json.dumps(r[k]) for k in ("generator", "spec", "options", "layout")},
    }


def export_hf(bench: Path, out: Path, overwrite: bool = False) -> int:
    """Save the benchmark at ``bench`` as a dataset directory ``out``; return the count."""
    try:
        import datasets
    except ImportError as exc:
        raise ValueError("--format hf needs the `datasets` package (pip install datasets)") from exc
    checked = load(bench)
    records = checked.records
    special = {"image": datasets.Image(), "choices": datasets.Sequence(datasets.Value("string")),
               "seed": datasets.Value("int64")}
    features = datasets.Features({f: special.get(f, datasets.Value("string")) for f in FIELDS})
    rows = [_row(checked, r) for r in records]
    columns = {f: [row[f] for row in rows] for f in FIELDS}
    with atomic_dir(out, overwrite) as tmp:
        datasets.Dataset.from_dict(columns, features=features).save_to_disk(str(tmp))
        files = {p.relative_to(tmp).as_posix(): file_sha256(p)
                 for p in sorted(tmp.rglob("*")) if p.is_file()}
        (tmp / MANIFEST).write_bytes(dumps({"generator": "spatialcad", "version": __version__,
                                            "export": "hf", "items": len(records),
                                            "files": files}))
    return len(records)
