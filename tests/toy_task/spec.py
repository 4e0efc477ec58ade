"""ToyCount's spec: the squares' cells; an option's data: its number."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spatialcad.record.spec import YES_NO, JsonSpec, Texts, scene_text

QUESTION = "How many black squares does the picture show? Answer with A, B, C or D."


@dataclass(frozen=True)
class Spec(JsonSpec):
    cells: list[tuple[int, int]]  # (row, col) of each square on a 4 x 4 board


@dataclass(frozen=True)
class OptionData(JsonSpec):
    value: int


def parse_spec(data: Any) -> Spec:
    return Spec.from_json(data)


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def texts(spec: Spec, options: list[OptionData]) -> Texts:
    judge: list[str | None] = [f"Does the picture show {o.value} black squares?{YES_NO}"
                               for o in options]
    return Texts(QUESTION, choices=[str(o.value) for o in options], judge=judge)


def scene_key(spec: Spec) -> str:
    return scene_text(sorted(spec.cells))
