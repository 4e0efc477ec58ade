"""What every verifier uses.

A verifier (``verify.py`` of a task) re-derives an item's answer from its stored record
(``spec``, per-option ``data``) and composite image, independently of the generator's own
answer code, and returns the list of failures (empty: the item is proved).
"""

from __future__ import annotations

from typing import Any

import numpy as np

Record = dict[str, Any]


def crop(image: np.ndarray, box: list[int]) -> np.ndarray:
    """The panel at ``box = [x, y, w, h]`` of a composite image."""
    x, y, w, h = box
    return image[y : y + h, x : x + w]


def answer_options(record: Record) -> list[dict[str, Any]]:
    return [o for o in record["options"] if o["is_answer"]]


def check_answer_letter(record: Record) -> list[str]:
    """Exactly one option is the answer and ``Answer`` names it."""
    answers = answer_options(record)
    if len(answers) != 1:
        return [f"{len(answers)} options are marked as the answer"]
    if answers[0]["letter"] != record["Answer"]:
        return [f"Answer {record['Answer']} but option {answers[0]['letter']} is marked"]
    return []
