"""The item record format: answer letters, image ids, an item's identity and image path,
and the one JSON encoding of every file we write.

Records are assembled from a task's draft in spatialcad/run/pipeline.py; the directory a run
writes (benchmark.json, images, manifest.json) is spatialcad/record/benchmark.py.
"""

from __future__ import annotations

import json
import math
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


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_layout(v: Any) -> bool:
    """Integer width and height, ``reference`` and ``options`` lists of ``[x, y, w, h]``
    integer boxes inside the image (a reader crops them) and, in records made since they
    were recorded, ``captions``: one string per reference box."""
    if not (isinstance(v, dict) and _is_int(v.get("width")) and _is_int(v.get("height"))):
        return False
    captions = v.get("captions", [])
    if "captions" in v and not (isinstance(captions, list)
                                and all(isinstance(c, str) for c in captions)
                                and len(captions) == len(v.get("reference") or [])):
        return False
    for key in ("reference", "options"):
        boxes = v.get(key)
        if not isinstance(boxes, list):
            return False
        for b in boxes:
            if not (isinstance(b, list) and len(b) == 4 and all(_is_int(x) for x in b)):
                return False
            x, y, w, h = b
            if not (0 <= x and 0 <= y and w >= 1 and h >= 1 and x + w <= v["width"]
                    and y + h <= v["height"]):
                return False
    return True


def _bad_number(value: Any, where: str = "") -> str | None:
    """The path of a non-finite number (NaN, Infinity: not JSON) anywhere in ``value``."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "value"
    items = (value.items() if isinstance(value, dict)
             else enumerate(value) if isinstance(value, list) else ())
    for key, v in items:
        found = _bad_number(v, f"{where}[{key!r}]" if where else str(key))
        if found:
            return found
    return None


# field -> (the documented type, in words; the test); optional fields are checked if present
_FIELD_TYPES: dict[str, tuple[str, Any]] = {
    "Question": ("a string", lambda v: isinstance(v, str)),
    "Choices": ("a list of 4 strings",
                lambda v: isinstance(v, list) and len(v) == 4
                and all(isinstance(c, str) for c in v)),
    "Answer": ("one of the letters A-D", lambda v: isinstance(v, str) and len(v) == 1
               and v in LETTERS),
    "Explanation": ("a string", lambda v: isinstance(v, str)),
    "seed": ("an integer", _is_int),
    "scene_hash": ("a string", lambda v: isinstance(v, str)),
    "generator": ("an object with a string name and version",
                  lambda v: isinstance(v, dict) and isinstance(v.get("name"), str)
                  and isinstance(v.get("version"), str)),
    "spec": ("an object", lambda v: isinstance(v, dict)),
    "options": ("a list of 4 objects with letter, is_answer (true/false) and operator",
                lambda v: isinstance(v, list) and len(v) == 4
                and all(isinstance(o, dict) and o.get("letter") == LETTERS[i]
                        and isinstance(o.get("is_answer"), bool)
                        and isinstance(o.get("operator"), str) for i, o in enumerate(v))),
    "layout": ("an object with integer width, height, lists reference and options of "
               "integer boxes inside the image and (optional) one caption per reference box",
               _is_layout),
    "judge": ("a list of 4 entries, each null or a question and a yes/no answer",
              lambda v: isinstance(v, list) and len(v) == 4
              and all(j is None or (isinstance(j, dict) and isinstance(j.get("question"), str)
                                    and j.get("answer") in ("yes", "no")) for j in v)),
}
_OPTIONAL_TYPES: dict[str, tuple[str, Any]] = {
    "Question_direct": ("a string", lambda v: isinstance(v, str)),
    "Answer_direct": ("a string", lambda v: isinstance(v, str)),
    "steps": ("a list of objects with a string text",
              lambda v: isinstance(v, list)
              and all(isinstance(s, dict) and isinstance(s.get("text"), str) for s in v)),
}


def type_problem(record: dict[str, Any]) -> str | None:
    """Why ``record`` (whose key fields are already checked) differs from the documented
    types of the record format, naming the field; None if it does not.  Every reader may
    rely on these types."""
    for key, (want, test) in _FIELD_TYPES.items():
        if key not in record:
            return f"it has no {key} field"
        if not test(record[key]):
            return f"its {key} is not {want}: {_short(record[key])}"
    for key, (want, test) in _OPTIONAL_TYPES.items():
        if key in record and not test(record[key]):
            return f"its {key} is not {want}: {_short(record[key])}"
    if ("Question_direct" in record) != ("Answer_direct" in record):
        return "it has only one of Question_direct and Answer_direct"
    answers = [o["is_answer"] for o in record["options"]]
    if answers != [letter == record["Answer"] for letter in LETTERS]:
        return f"its options do not mark exactly its Answer {record['Answer']} as the answer"
    bad = _bad_number(record)
    return f"its {bad} is not a finite number" if bad else None


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)  # NaN shows as NaN
    return text if len(text) <= 60 else text[:57] + "..."


def task_name(record: dict[str, Any]) -> str:
    """The CLI name of the task that made ``record`` (from its ``generator`` entry)."""
    return str(record["generator"]["name"]).rsplit(".", 1)[-1]


def dumps(obj: Any) -> bytes:
    """The one JSON encoding used for every file we write (stable bytes)."""
    return (json.dumps(obj, indent=1, ensure_ascii=False, allow_nan=False) + "\n").encode()
