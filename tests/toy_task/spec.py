"""ToyCount's spec: the squares' cells; an option's data: its number."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spatialcad.spec import JsonSpec, Texts

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
    return Texts(QUESTION, choices=[str(o.value) for o in options])
