"""CubeCounting verifier.

Independent of the generator: the views are read from the stored image, the stack's
views are recomputed by walking pixel rays through the voxels, and the bounds are re-derived with
an integer program (one binary variable per footprint cell and height) instead of the
generator's matching.  The option texts are checked against their values with the other
texts (spatialcad/run/verification.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from spatialcad.render import legibility
from spatialcad.render.gridread import GridReadError, read_grid
from spatialcad.tasks.cube_counting.spec import parse_option, parse_spec
from spatialcad.verify.base import crop
from spatialcad.verify.raycast import occupancy


def bounds_by_milp(views: dict[str, np.ndarray]) -> tuple[int, int]:
    """Min and max cubes over all height maps matching the views, by integer programming."""
    top = views["top"]
    ny, nx = top.shape
    cells = [(c, ny - 1 - r) for r, c in zip(*np.nonzero(top), strict=True)]  # (x, y)
    front_h = views["front"].sum(axis=0)
    left_h = views["left"].sum(axis=0)[::-1] if "left" in views else None
    for name in views:
        side = views[name][::-1]
        if name != "top" and not np.array_equal(np.cumprod(side, axis=0), side):
            raise ValueError(f"{name} view has a gap in a column")
    cap = [front_h[x] if left_h is None else min(front_h[x], left_h[y]) for x, y in cells]
    var = [(i, v) for i in range(len(cells)) for v in range(1, cap[i] + 1)]
    rows: list[np.ndarray] = []
    lo: list[float] = []
    hi: list[float] = []

    def add(mask: list[bool], lower: float, upper: float) -> None:
        rows.append(np.array(mask, dtype=float))
        lo.append(lower)
        hi.append(upper)

    for i in range(len(cells)):
        add([j == i for j, _ in var], 1, 1)  # one height per cell
    for x in range(nx):
        add([cells[j][0] == x and v == front_h[x] for j, v in var], 1, np.inf)
    if left_h is not None:
        for y in range(ny):
            add([cells[j][1] == y and v == left_h[y] for j, v in var], 1, np.inf)
    cost = np.array([v for _, v in var], dtype=float)
    cons = LinearConstraint(np.array(rows), lo, hi)
    out = []
    for sign in (1, -1):
        res = milp(sign * cost, constraints=cons, integrality=np.ones(len(var)),
                   bounds=Bounds(0, 1))
        if not res.success:
            raise ValueError("no stack matches the views")
        out.append(int(round(sign * res.fun)))
    return out[0], out[1]


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    values = [parse_option(o["data"]).value for o in record["options"]]
    vox = set(spec.voxels)
    failures = []
    views = {}
    for name, box in zip(spec.views, record["layout"]["reference"], strict=True):
        try:
            shown = read_grid(crop(image, box)).astype(bool)
        except GridReadError as exc:
            return [f"{name} view unreadable: {exc}"]
        failures += legibility.grid_failures(f"the {name} view", box, shown.shape)
        expected = occupancy(vox, name)
        if shown.shape != expected.shape or not np.array_equal(shown, expected):
            failures.append(f"the {name} view in the image does not show the stack")
        views[name] = shown
    if failures:
        return failures
    low, high = bounds_by_milp(views)
    said = (spec.bounds.min, spec.bounds.max)
    if (low, high) != said:
        failures.append(f"bounds are {low}..{high}, record says {said[0]}..{said[1]}")
    if not low <= len(vox) <= high:
        failures.append(f"the stack's own {len(vox)} cubes are outside {low}..{high}")
    fits = {
        "min": lambda v: v == low,
        "max": lambda v: v == high,
        "possible": lambda v: low <= v <= high,
    }[spec.question]
    letters = [o["letter"] for o in record["options"]]
    right = [x for x, v in zip(letters, values, strict=True) if v is not None and fits(v)]
    none = [x for x, v in zip(letters, values, strict=True) if v is None]
    expected_answer = right[0] if len(right) == 1 else (none[0] if none and not right else None)
    if len(right) > 1:
        failures.append(f"options {right} all fit the question")
    if expected_answer != record["Answer"]:
        failures.append(f"the answer should be {expected_answer}, record says {record['Answer']}")
    return failures
