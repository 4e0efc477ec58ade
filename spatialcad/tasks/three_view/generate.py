"""3ViewProjection.  Level 0: which picture is the left view of a cube stack with red cubes?
Levels 1 and up ask for a view of an engineering part (see :mod:`.generate_parts`).

Level 0 reference: isometric, front and top views.  Options: the left view (answer), the right
view, and the left and right views of the same stack with its red cubes moved to other
cubes.  Every option must differ from the answer as a drawing (a symmetric stack's right
view can equal its left view: such a candidate is rejected).  The reference must decide the
left view: no cube the three pictures do not show, added or removed (the stack standing),
may change it (render/unseen.py; a cube added on the ground off the stack always shows in
the top view, so the stack's face neighbours are all the cells tried).  Under gravity
that is a cube added on a column hidden in all three pictures, or such a column's top
removed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from spatialcad.cad.parts import ASSETS_DIR
from spatialcad.geometry import voxels
from spatialcad.geometry.colours import RED
from spatialcad.geometry.voxels import Voxel
from spatialcad.render import unseen
from spatialcad.render.stacks import stack_isometric, stack_view
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.three_view.generate_parts import (
    PartDraws,
    build_part_item,
    face_band,
    usable_parts,
)
from spatialcad.tasks.three_view.spec import (
    STACK_ASKED,
    STACK_REFERENCE,
    StackOption,
    StackSpec,
    texts,
)


def colour_grid(stack: list[Voxel], red: set[Voxel], view: str) -> np.ndarray:
    """The drawing of a view as cell codes: 0 empty, 1 grey cube, 2 red cube."""
    lo = [min(v[i] for v in stack) for i in range(3)]
    reds = {(x - lo[0], y - lo[1], z - lo[2]) for x, y, z in red}
    cubes = voxels.normalized(stack)
    labels = voxels.view_labels(cubes, view)
    codes = np.array([2 if c in reds else 1 for c in cubes], dtype=np.int64)
    return np.where(labels < 0, 0, codes[labels])


def must_decide_the_view(stack: list[Voxel], red: set[Voxel]) -> None:
    """Reject a stack whose asked view a cube would change that the reference pictures do
    not show, added or removed with every cube still standing (issue 35): the pictures
    would not decide the answer."""
    asked = colour_grid(stack, red, STACK_ASKED)
    pictures = unseen.named(stack, STACK_REFERENCE, dict.fromkeys(red, RED))
    for change in unseen.unseen_changes(stack, pictures, voxels.is_supported):
        other = colour_grid(unseen.changed(stack, change), red, STACK_ASKED)
        if other.shape != asked.shape or not np.array_equal(other, asked):
            raise Reject(f"the reference pictures do not show {unseen.describe(change)}, "
                         f"which changes the {STACK_ASKED} view")


def visible_cubes(stack: list[Voxel], views: tuple[str, ...]) -> list[Voxel]:
    cubes = voxels.normalized(stack)
    seen = {int(i) for v in views for i in voxels.view_labels(cubes, v).ravel() if i >= 0}
    return [cubes[i] for i in sorted(seen)]


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        if level == 0:
            return {"space": [3, 3, 3], "fill": 0.6, "red": 3}
        lo, hi = face_band(level)
        return {"faces": [lo, hi], "deepcad_dir": self.options.get("deepcad_dir")}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        if level >= 1:
            return build_part_item(level, rng, self._part_draws(level))
        return self._build_stack_item(rng)

    def scene_count(self, level: int) -> int | None:
        """Levels >= 1: the usable parts of the folder (each part is one scene; the bundled
        library's files and its generated parts: generate_parts.usable_parts)."""
        return len(usable_parts(self._directory(), level, self._with_generated())) \
            if level >= 1 else None

    def _directory(self) -> Path:
        return Path(self.options.get("deepcad_dir") or ASSETS_DIR).resolve()

    def _with_generated(self) -> bool:
        """Whether the parts are the bundled library's, with its generated parts (else a
        --deepcad-dir folder's files alone)."""
        return not self.options.get("deepcad_dir")

    def _part_draws(self, level: int) -> PartDraws:
        """The parts this item tries, kept from one attempt to the next."""
        draws: PartDraws | None = getattr(self, "_draws", None)
        if draws is None or draws.level != level or draws.slot != self.slot:
            draws = self._draws = PartDraws(self._directory(), level, self.split, self.slot,
                                            self._with_generated())
        return draws

    def _build_stack_item(self, rng: np.random.Generator) -> Draft:
        p = self.params(0)
        stack = voxels.random_stack(rng, tuple(p["space"]), p["fill"])
        shown = visible_cubes(stack, ("front", "top"))  # red cubes must show in the reference
        if len(stack) < 5 or len(shown) <= p["red"]:
            raise Reject("stack too small")
        red = _pick(shown, p["red"], rng)
        must_decide_the_view(stack, red)
        moved = _pick(shown, p["red"], rng)
        if moved == red:
            raise Reject("the moved red cubes landed on the same cubes")
        return stack_draft(stack, p["space"], red, moved)


def stack_draft(stack: list[Voxel], space: list[int], red: set[Voxel], moved: set[Voxel]
                ) -> Draft:
    """The item of a stack with its ``red`` cubes, whose wrong options move them to
    ``moved``."""
    candidates = [
        ("left_view", red, "left", "It is the left view: the stack seen from its left side."),
        ("right_view", red, "right",
         "It is the right view (seen from the opposite side), not the left view."),
        ("moved_red_left", moved, "left",
         "It has the outline of the left view, but its red cubes are not where the "
         "reference shows them."),
        ("moved_red_right", moved, "right",
         "It is a right view, and its red cubes are not where the reference shows them."),
    ]
    grids = [colour_grid(stack, r, v) for _, r, v, _ in candidates]
    for i in range(4):
        for j in range(i):
            if grids[i].shape == grids[j].shape and np.array_equal(grids[i], grids[j]):
                raise Reject(f"{candidates[i][0]} draws the same as {candidates[j][0]}")
    colors = dict.fromkeys(red, RED)
    spec = StackSpec(voxels=stack, red=sorted(red), space=space,
                     reference_views=list(STACK_REFERENCE), asked_view=STACK_ASKED)
    options = [
        Option(
            is_answer=op == "left_view",
            operator=op,
            explanation=text,
            image=stack_view(stack, view, colors=dict.fromkeys(reds, RED)),
            data=StackOption(view, sorted(reds)).to_json(),
        )
        for op, reds, view, text in candidates
    ]
    return Draft(
        question=texts(spec, []).question,
        spec=spec.to_json(),
        reference=[
            Panel(stack_isometric(stack, colors=colors), "Isometric view"),
            Panel(stack_view(stack, "front", colors=colors), "Front view"),
            Panel(stack_view(stack, "top", colors=colors), "Top view"),
        ],
        options=options,
    )


def _pick(cubes: list[Voxel], k: int, rng: np.random.Generator) -> set[Voxel]:
    return {cubes[i] for i in rng.choice(len(cubes), size=k, replace=False)}
