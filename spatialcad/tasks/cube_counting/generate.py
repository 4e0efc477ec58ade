"""CubeCounting: how many cubes can a stack have, given two or three of its views?

The views are rendered, read back from the pixels by grid detection, and the exact bounds
are computed from what was read; they must equal the bounds from the voxels themselves,
otherwise the candidate is rejected (ARCHITECTURE principle 3).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import counting, voxels
from spatialcad.render.gridread import read_grid
from spatialcad.render.stacks import stack_view
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.cube_counting.spec import (
    KINDS,
    NUMBER_WORDS,
    VIEW_CAPTIONS,
    Bounds,
    OptionData,
    Spec,
    parse_option,
    texts,
)

SPREAD = 5  # wrong counts are taken up to this far below the minimum / above the maximum


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        """L0: two views of a 3x3x3 space; L1: three views; L2+: the space grows."""
        views = ["top", "front"] if level == 0 else ["top", "front", "left"]
        side = 3 if level <= 1 else level + 2
        return {"views": views, "space": [side, side, min(side, 6)], "fill": 0.55}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        p = self.params(level)
        stack = voxels.random_stack(rng, tuple(p["space"]), p["fill"])
        if len(stack) < 3:
            raise Reject("stack too small")
        images = [stack_view(stack, v) for v in p["views"]]
        read = [read_grid(img) for img in images]
        truth = [voxels.view_matrix(stack, v) for v in p["views"]]
        pairs = zip(read, truth, strict=True)
        if any(a.shape != b.shape or not np.array_equal(a, b) for a, b in pairs):
            raise Reject("a view read back from its image differs from the stack's view")
        low, high = counting.bounds(counting.profiles(*read))
        if (low, high) != counting.bounds(counting.profiles(*truth)):
            raise Reject("bounds from the read views differ from the bounds from the voxels")

        kind = KINDS[int(rng.integers(len(KINDS)))]
        spec = Spec(voxels=stack, space=p["space"], views=p["views"], question=kind,
                    bounds=Bounds(low, high))
        n_views = NUMBER_WORDS[len(p["views"])]
        summary = f"Given {n_views} views, at least {low} and at most {high} cubes fit the views."
        options = _options(kind, low, high, rng, summary)
        said = texts(spec, [parse_option(o.data) for o in options])
        for option, text in zip(options, said.choices or [], strict=True):
            option.text = text
        return Draft(
            question=said.question,
            question_direct=said.question_direct,
            answer_direct=said.answer_direct,
            spec=spec.to_json(),
            reference=[
                Panel(img, VIEW_CAPTIONS[v]) for img, v in zip(images, p["views"], strict=True)
            ],
            options=options,
        )


def _options(
    kind: str, low: int, high: int, rng: np.random.Generator, summary: str
) -> list[Option]:
    """Three numbers and possibly "none of them", exactly one being the answer (their texts
    come from the spec's ``texts``).

    The answer's rank among the numbers shown is drawn uniformly (wrong numbers are taken
    below and above it to match): left alone, a possible count sits between impossible ones
    below ``low`` and above ``high``, and "pick the middle number" finds it.  "None of them"
    (the longest text) is the answer in a quarter of the items that show it.
    """
    none_shown = rng.random() < 0.6
    none_is_answer = none_shown and rng.random() < 0.25  # a quarter, like any shown option
    truth = {"min": low, "max": high}.get(kind) or int(rng.integers(low, high + 1))
    if kind == "possible":  # wrong: impossible counts
        below, above = range(max(1, low - SPREAD), low), range(high + 1, high + 1 + SPREAD)
    else:  # wrong: any other count
        below, above = range(max(1, low - SPREAD), truth), range(truth + 1, high + 1 + SPREAD)
    if none_is_answer:
        pool = [*below, *above]
        numbers = [int(v) for v in rng.choice(pool, size=3, replace=False)]
    else:
        shown = 3 if none_shown else 4
        rank = int(rng.integers(shown))  # how many wrong numbers lie below the answer
        if len(below) < rank or len(above) < shown - 1 - rank:
            raise Reject(f"too few wrong counts below {truth} for rank {rank}")
        numbers = [truth, *(int(v) for v in rng.choice(below, size=rank, replace=False)),
                   *(int(v) for v in rng.choice(above, size=shown - 1 - rank, replace=False))]
    what = {"min": "the minimum", "max": "the maximum", "possible": "a possible number"}[kind]
    options = [
        Option(
            is_answer=v == truth and not none_is_answer,
            operator="bound" if v == truth else "wrong_count",
            explanation=f"{summary} {v} is {'' if v == truth else 'not '}{what}.",
            data=OptionData(v).to_json(),
        )
        for v in sorted(numbers)
    ]
    if none_shown:
        options.append(
            Option(
                is_answer=none_is_answer,
                operator="none_of_the_others",
                explanation=f"{summary} "
                + ("None of the numbers is " if none_is_answer else "One number is ")
                + f"{what}.",
                data=OptionData(None).to_json(),
            )
        )
    return options
