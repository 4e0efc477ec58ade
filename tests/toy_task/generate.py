"""ToyCount's generator: level + 1 to level + 4 squares on a 4 x 4 board."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel
from toy_task.spec import OptionData, Spec, texts

CELL = 30


def board(cells: list[tuple[int, int]]) -> np.ndarray:
    image = np.full((4 * CELL, 4 * CELL, 3), 255, dtype=np.uint8)
    for r, c in cells:
        image[r * CELL + 5:(r + 1) * CELL - 5, c * CELL + 5:(c + 1) * CELL - 5] = 0
    return image


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        return {"least": level + 1}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        count = self.params(level)["least"] + int(rng.integers(4))
        picked = rng.choice(16, size=count, replace=False)
        spec = Spec(sorted((int(i) // 4, int(i) % 4) for i in picked))
        values = [count, *(int(v) for v in rng.choice(
            [v for v in range(1, 17) if v != count], size=3, replace=False))]
        data = [OptionData(v) for v in values]
        said = texts(spec, data)
        options = [Option(v == count, "count" if v == count else "wrong_count",
                          f"The picture shows {count} squares.", text=str(v), data=d.to_json())
                   for v, d in zip(values, data, strict=True)]
        return Draft(said.question, spec.to_json(), [Panel(board(spec.cells), "Board")], options)
