"""JSONL export: one record per line, the composite PNG embedded as base64."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from spatialcad.export import atomic_text, load


def export_jsonl(bench: Path, out: Path, overwrite: bool = False) -> int:
    """Write every record of ``bench`` to ``out`` with ``image_base64``; return the count."""
    checked = load(bench, out)
    records = checked.records
    with atomic_text(out, overwrite) as f:
        for r in records:
            line = {**r, "image_base64": base64.b64encode(checked.png(r)).decode("ascii")}
            f.write(json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n")
    return len(records)
