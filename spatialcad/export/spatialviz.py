"""SpatialViz-Bench's own layout, for its evaluation scripts (``evaluation/evaluate.py`` of
the SpatialViz-Bench repository) to run on unchanged.

``OUT/data.json`` is a JSON list of records in upstream's fields (``Category``, ``Task``,
``Level``, ``Image_id``, ``Question``, ``Choices``, ``Answer``, ``Explanation``) and each
image is at ``OUT/<Category>/<Task>/<Level>/<Image_id>.png``, where upstream's
``build_image_path`` looks for it; run upstream with ``--benchmark_test_path OUT
--data_file data.json --use_direct_answer`` (the last so that the items upstream scores on
their number are asked for it).

Upstream scores every record that holds the ``Answer_direct`` key as a number question
(its gold becomes ``str(Answer_direct)``) and reads one number out of the reply.  So a
record carries ``Question_direct`` and ``Answer_direct`` only when the fill-in answer is a
single number (CubeCounting's bounds, PaperFolding's and CubeAssembly's counts); other items
(no fill-in form, or an answer such as "3,5", a colour or ArrowMoving's final board "blue
3,2,down; ...") are multiple-choice only here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from spatialcad.export import load, write_manifest
from spatialcad.run.outdir import atomic_dir

DATA = "data.json"
FIELDS = ("Category", "Task", "Level", "Image_id", "Question", "Choices", "Answer",
          "Explanation")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def upstream_record(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` in upstream's fields; the fill-in form only if its answer is one number."""
    out = {k: record[k] for k in FIELDS}
    answer = record.get("Answer_direct")
    if record.get("Question_direct") and answer is not None and NUMBER.fullmatch(str(answer)):
        out["Question_direct"] = record["Question_direct"]
        out["Answer_direct"] = str(answer)
    return out


def export_spatialviz(bench: Path, out: Path, overwrite: bool = False) -> int:
    """Write benchmark ``bench`` in SpatialViz-Bench's layout to directory ``out``; return
    the item count."""
    checked = load(bench, out)
    records = checked.records
    with atomic_dir(out, overwrite) as tmp:
        for r in records:
            path = tmp / r["image"]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(checked.png(r))
        data = [upstream_record(r) for r in records]
        (tmp / DATA).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                encoding="utf-8")
        write_manifest(tmp, "spatialviz", len(records))
    return len(records)
