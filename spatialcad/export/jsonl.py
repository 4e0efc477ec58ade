"""JSONL export: one record per line, the composite PNG embedded as base64."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from spatialcad.export import atomic_text, load, png


def export_jsonl(bench: Path, out: Path) -> int:
    """Write every record of ``bench`` to ``out`` with ``image_base64``; return the count."""
    records = load(bench)
    with atomic_text(out) as f:
        for r in records:
            line = {**r, "image_base64": base64.b64encode(png(bench, r)).decode("ascii")}
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    return len(records)
