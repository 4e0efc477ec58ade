"""Item records: assembly from a task's draft, the item's identity, the JSON encoding.

The directory a run writes (benchmark.json, images, manifest.json) is spatialcad/benchmark.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from spatialcad import __version__
from spatialcad.render.layout import compose
from spatialcad.seeding import derive_seed, item_rng
from spatialcad.tasks.base import Draft, Task

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


def task_name(record: dict[str, Any]) -> str:
    """The CLI name of the task that made ``record`` (from its ``generator`` entry)."""
    return str(record["generator"]["name"]).rsplit(".", 1)[-1]


def assemble(
    task: Task, draft: Draft, *, level: int, image_id: str, letter: str, item_seed: int
) -> tuple[dict[str, Any], np.ndarray]:
    """Shuffle the draft's options so the answer lands on ``letter``; compose the image."""
    if len(draft.options) != 4 or sum(o.is_answer for o in draft.options) != 1:
        raise ValueError(f"{task.name}: a draft needs 4 options with exactly one answer")
    answer = next(i for i, o in enumerate(draft.options) if o.is_answer)
    others = [i for i in range(4) if i != answer]
    others = [others[i] for i in item_rng(derive_seed(item_seed, "shuffle")).permutation(3)]
    order = others[:]
    order.insert(LETTERS.index(letter), answer)
    options = [draft.options[i] for i in order]

    image_options = all(o.image is not None for o in options)
    image, layout = compose(
        [(p.image, p.caption) for p in draft.reference],
        [o.image for o in options] if image_options else None,
    )
    choices = [f"Image {LETTERS[i]}" if image_options else o.text for i, o in enumerate(options)]
    record = {
        "Category": task.category,
        "Task": task.record_task,
        "Level": f"Level{level}",
        "Image_id": image_id,
        "Question": draft.question,
        "Choices": choices,
        "Answer": letter,
        "Explanation": "\n".join(f"{LETTERS[i]}: {o.explanation}" for i, o in enumerate(options)),
        "Question_direct": draft.question_direct,
        "Answer_direct": draft.answer_direct,
        "seed": item_seed,
        "generator": {"name": f"spatialcad.tasks.{task.name}", "version": __version__},
        "spec": draft.spec,
        "options": [
            {"letter": LETTERS[i], "is_answer": o.is_answer, "operator": o.operator, "data": o.data}
            for i, o in enumerate(options)
        ],
        "layout": layout,
    }
    record["image"] = image_path(record) + ".png"
    return record, image


def dumps(obj: Any) -> bytes:
    """The one JSON encoding used for every file we write (stable bytes)."""
    return (json.dumps(obj, indent=1, ensure_ascii=False) + "\n").encode()
