"""3ViewProjection verifier: cube stacks here (level 0), engineering parts in
:mod:`spatialcad.tasks.three_view.verify_parts`.

Reads every option's drawing back from the image as a grid of empty / grey / red cells,
re-derives the asked view by walking pixel rays through the stored stack, and proves that
the answer shows exactly that view and that no other option draws the same, and that no
stack drawing the same reference pictures has another asked view: no cube the pictures
do not show, added or removed with every cube still standing, changes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from spatialcad.geometry.colours import RED
from spatialcad.geometry.voxels import Voxel
from spatialcad.render import legibility, unseen
from spatialcad.render.gridread import GridReadError, read_cell_colours
from spatialcad.tasks.three_view.spec import PartSpec, StackOption, parse_option, parse_spec
from spatialcad.tasks.three_view.verify_parts import verify_part
from spatialcad.verify.base import crop
from spatialcad.verify.raycast import nearest_cubes


def drawing(vox: set[Voxel], red: set[Voxel], view: str) -> np.ndarray:
    """Cell codes of a view: 0 empty, 1 grey cube, 2 red cube."""
    cubes = nearest_cubes(vox, view)
    return np.vectorize(lambda v: 0 if v is None else (2 if v in red else 1), otypes=[int])(cubes)


def _standing(vox: set[Voxel]) -> Callable[[list[Voxel]], bool]:
    """Whether every cube of a stack stands on the ground (the lowest level of ``vox``) or
    on a cube."""
    ground = min(z for _, _, z in vox)

    def stands(cubes: list[Voxel]) -> bool:
        have = set(cubes)
        return all(z == ground or (x, y, z - 1) in have for x, y, z in have)
    return stands


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    if isinstance(spec, PartSpec):
        return verify_part(record, image, spec)
    parsed = [parse_option(o["data"]) for o in record["options"]]
    options = [o for o in parsed if isinstance(o, StackOption)]
    if len(options) != len(parsed):
        return ["an option's data is not a view of the stack with its red cubes"]
    vox = set(spec.voxels)
    red = set(spec.red)
    failures = []
    if not red <= vox:
        failures.append("a red cube is not part of the stack")
    seen = {c for view in ("front", "top") for c in nearest_cubes(vox, view).ravel()}
    if not red <= seen:
        failures.append("a red cube is hidden in the reference views")
    shown = []
    for o, data, box in zip(record["options"], options, record["layout"]["options"],
                            strict=True):
        try:
            grid = read_cell_colours(crop(image, box))
        except GridReadError as exc:
            return [f"option {o['letter']} unreadable: {exc}"]
        failures += legibility.grid_failures(f"option {o['letter']}", box, grid.shape)
        own = drawing(vox, set(data.red), data.view)
        if grid.shape != own.shape or not np.array_equal(grid, own):
            failures.append(f"option {o['letter']} does not draw its stated view")
        shown.append(grid)
    truth = drawing(vox, red, spec.asked_view)
    standing = _standing(vox)
    pictures = unseen.named(sorted(vox), spec.reference_views, dict.fromkeys(red, RED))
    for change in unseen.unseen_changes(sorted(vox), pictures, standing):
        other = drawing(set(unseen.changed(sorted(vox), change)), red, spec.asked_view)
        if other.shape != truth.shape or not np.array_equal(other, truth):
            failures.append(f"{unseen.describe(change)} draws the same reference pictures "
                            f"but another {spec.asked_view} view")
    matches = [o["letter"] for o, g in zip(record["options"], shown, strict=True)
               if g.shape == truth.shape and np.array_equal(g, truth)]
    if matches != [record["Answer"]]:
        failures.append(f"options drawing the {spec.asked_view} view: {matches}, "
                        f"answer {record['Answer']}")
    return failures
