"""Answerers that need no model: random guessing, a constant letter, and a shortcut audit.

The audit answers every item with simple heuristics that do not understand the question.
On the composite image (panels cropped with ``record["layout"]``, shrunk to thumbnails):
the option nearest to / farthest from the reference panels in pixels, the odd one out
(farthest on average from the other options), the most typical option (nearest on
average), and the most enclosed drawing (its lines close around the largest share of their
bounding box, at full size: a drawing with a line missing from its outline is open).
For items with text options: the longest option text, and the middle one of the numeric
options.  A heuristic that beats chance on a task reveals a shortcut: a way to
score without doing the task.  Ties are broken by a seeded draw from the item id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialcad.evaluate.runner import Line, Record, base_line, item_id
from spatialcad.render.opencv import cv2
from spatialcad.render.png import decode_png
from spatialcad.render.thumbnails import distances, thumbnail
from spatialcad.seeding import derive_seed, item_rng

LETTERS = "ABCD"

Scores = np.ndarray  # one score per option; the heuristic picks the highest


def _line(record: Record, system: str, letter: str) -> Line:
    line = base_line(record, system, "choice")
    line.update(extracted=letter, rule="baseline", correct=letter == record["Answer"])
    return line


@dataclass
class RandomAnswerer:
    """A uniform guess per item, reproducible from ``seed`` and the item id."""

    seed: int = 0
    system: str = "baseline:random"

    def __call__(self, record: Record, png: bytes) -> list[Line]:
        letter = LETTERS[derive_seed(self.seed, "random", item_id(record)) % 4]
        return [_line(record, self.system, letter)]


@dataclass
class ConstantAnswerer:
    """Always the same letter."""

    letter: str = "A"

    @property
    def system(self) -> str:
        return f"baseline:constant_{self.letter}"

    def __call__(self, record: Record, png: bytes) -> list[Line]:
        return [_line(record, self.system, self.letter)]


def _crops(image: np.ndarray, boxes: list[list[int]]) -> list[np.ndarray]:
    return [thumbnail(image[y : y + h, x : x + w]) for x, y, w, h in boxes]


def enclosed_share(panel: np.ndarray) -> float:
    """The share of the bounding box of a panel's dark pixels that they enclose (outer
    contours filled): near 1 for a closed outline, low for an open one."""
    dark = (panel.min(axis=2) < 128).astype(np.uint8)
    if not dark.any():
        return 0.0
    contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(dark)
    cv2.drawContours(filled, contours, -1, 1, cv2.FILLED)
    _, _, w, h = cv2.boundingRect(dark)
    return float(filled.sum()) / (w * h)


def image_scores(image: np.ndarray, layout: dict[str, Any]) -> dict[str, Scores]:
    """Per image heuristic, a score for each option panel (higher = picked)."""
    options = _crops(image, layout["options"])
    dist = distances(options + _crops(image, layout["reference"]))
    n = len(options)
    to_ref = dist[:n, n:].min(axis=1)
    spread = dist[:n, :n].sum(axis=1) / (n - 1)
    return {
        "nearest_to_reference": -to_ref,
        "farthest_from_reference": to_ref,
        "odd_one_out": spread,
        "most_typical": -spread,
        "most_enclosed": np.array([enclosed_share(image[y : y + h, x : x + w])
                                   for x, y, w, h in layout["options"]]),
    }


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def text_scores(choices: list[str]) -> dict[str, Scores]:
    """Per text heuristic, a score for each option text."""
    scores = {"longest_text": np.array([len(c) for c in choices], dtype=float)}
    values = [_number(c.strip()) for c in choices]
    known = [v for v in values if v is not None]
    if len(known) >= 3:
        middle = float(np.median(known))
        scores["middle_number"] = np.array(
            [-abs(v - middle) if v is not None else -np.inf for v in values])
    return scores


def _pick(scores: Scores, rng: np.random.Generator) -> str:
    best = np.flatnonzero(np.isclose(scores, scores.max(), rtol=0, atol=1e-9))
    return LETTERS[int(best[0] if len(best) == 1 else rng.choice(best))]


def audit(record: Record, png: bytes) -> list[Line]:
    """One line per applicable heuristic, system ``audit:<heuristic>``."""
    layout = record.get("layout") or {}
    if len(layout.get("options") or []) == 4 and layout.get("reference"):
        table = image_scores(decode_png(png), layout)
    else:
        table = text_scores(record["Choices"])
    lines = []
    for name, scores in table.items():
        rng = item_rng(derive_seed("audit", name, item_id(record)))
        lines.append(_line(record, f"audit:{name}", _pick(scores, rng)))
    return lines


def make(kind: str, *, seed: int = 0, letter: str = "A") -> Callable[[Record, bytes], list[Line]]:
    """The answerer of ``--baseline kind`` (random, constant or audit)."""
    if kind == "random":
        return RandomAnswerer(seed)
    if kind == "constant":
        return ConstantAnswerer(letter)
    if kind == "audit":
        return audit
    raise ValueError(f"unknown baseline {kind!r}; choose from random, constant, audit")
