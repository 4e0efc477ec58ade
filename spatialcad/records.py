"""The item record format: answer letters, image ids, an item's identity and image path,
and the one JSON encoding of every file we write.

Records are assembled from a task's draft in spatialcad/pipeline.py; the directory a run
writes (benchmark.json, images, manifest.json) is spatialcad/benchmark.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

from spatialcad.seeding import derive_seed, item_rng

LETTERS = "ABCD"
BENCHMARK = "benchmark.json"
MANIFEST = "manifest.json"


def answer_letter(seed: int, task: str, level: int, index: int) -> str:
    """Balanced answer letters: every four consecutive items use A, B, C, D once each."""
    block, pos = divmod(index, 4)
    order = item_rng(derive_seed(seed, task, level, "letters", block)).permutation(4)
    return LETTERS[int(order[pos])]


def image_id(index: int, n: int) -> str:
    return f"{index:0{max(4, len(str(n - 1)))}d}"


def image_path(record: dict[str, Any]) -> str:
    return "/".join((record["Category"], record["Task"], record["Level"], record["Image_id"]))


_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*\Z")
KEY_FIELDS = ("Category", "Task", "Level", "Image_id")


def item_key(record: Any) -> tuple[str, str, str, str]:
    """``(Category, Task, Level, Image_id)``: the item's identity and the folders of its image.

    ``ValueError`` unless each is a plain name (letters, digits, ``_``, ``-``): a record can
    never name a path outside its benchmark.
    """
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    values = tuple(record.get(k) for k in KEY_FIELDS)
    for k, v in zip(KEY_FIELDS, values, strict=True):
        if not (isinstance(v, str) and _SAFE_NAME.match(v)):
            raise ValueError(f"its {k} {v!r} is not a plain name")
    return values  # type: ignore[return-value]


def expected_image(record: dict[str, Any]) -> str:
    """The only image path a record may name: ``Category/Task/Level/Image_id.png``."""
    return "/".join(item_key(record)) + ".png"


def step_image(record: dict[str, Any], k: int) -> str:
    """The path of step ``k`` (from 1) of a record's step-by-step solution:
    ``Category/Task/Level/Image_id-step<k>.png``."""
    return "/".join(item_key(record)) + f"-step{k}.png"


def step_images(record: dict[str, Any]) -> list[str]:
    """The only step image paths ``record`` may name, one per entry of its ``steps``
    (none without that key); ``ValueError`` if ``steps`` is not a list of objects naming
    exactly these paths, in order."""
    if "steps" not in record:
        return []
    steps = record["steps"]
    if not isinstance(steps, list) or not steps:
        raise ValueError("its steps are not a non-empty list")
    want = [step_image(record, k) for k in range(1, len(steps) + 1)]
    for k, (s, path) in enumerate(zip(steps, want, strict=True), 1):
        if not isinstance(s, dict) or s.get("image") != path:
            raise ValueError(f"its step {k} does not name the image {path!r}")
    return want


def task_name(record: dict[str, Any]) -> str:
    """The CLI name of the task that made ``record`` (from its ``generator`` entry)."""
    return str(record["generator"]["name"]).rsplit(".", 1)[-1]


def dumps(obj: Any) -> bytes:
    """The one JSON encoding used for every file we write (stable bytes)."""
    return (json.dumps(obj, indent=1, ensure_ascii=False) + "\n").encode()
