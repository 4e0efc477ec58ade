"""3DRotation verifier.

Independent of ``geometry.rotations``: the 24 proper rotations are generated here as the
closure of two quarter turns, and congruence is decided by brute force over them on
sorted, translated coordinate arrays.  Every "rotation" option must be congruent to the
reference and every other option not; the answer is the one option that fits the
question ("can" / "cannot").  The reference pictures must pin the stack down: no cube
they leave unseen could be added or removed (the stack still connected), so no stack that
draws the same reference pictures could change the key.  Pictures: each panel must be
the drawing of its voxels with legible cubes, and each wrong option must look wrong (its
picture is unlike every rotation's, none of its rotations draws the reference picture, and
against each nearest turned copy of the reference a cube in which they differ shows in
its picture), proved on the stored option picture: every turned copy of the reference
drawn in the option's panel differs from it in at least as many pixels as a cube must
show (render/unseen.py: a removed cube whose gap bares a look-alike behind it draws the
turned stack itself).

Step-by-step solutions (spatialcad/run/verification.py: check_steps) are replayed from the
answer's data with right-handed quarter turns defined here: its mirror or removed cube
first, then one quarter turn per step, each stack compared moved to the origin.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from spatialcad.geometry.voxels import Voxel, is_connected
from spatialcad.render import legibility, unseen
from spatialcad.render.camera import camera
from spatialcad.render.opencv import cv2
from spatialcad.render.stacks import (
    OPPOSITE_CORNERS,
    Framing,
    IsometricLook,
    common_isometric_framing,
    stack_picture,
)
from spatialcad.tasks.rotation_3d.spec import OptionData, Spec, parse_option, parse_spec
from spatialcad.verify.base import crop

MIN_PIXELS = 20
QUARTER_X = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]])
QUARTER_Y = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]])
QUARTER_Z = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]])
QUARTERS = {"x": QUARTER_X, "y": QUARTER_Y, "z": QUARTER_Z}  # right-handed


@cache
def rotation_group() -> tuple[np.ndarray, ...]:
    """All products of quarter turns about x and z: the 24 rotations of the cube."""
    found = {np.eye(3, dtype=int).tobytes(): np.eye(3, dtype=int)}
    todo = list(found.values())
    while todo:
        m = todo.pop()
        for g in (QUARTER_X, QUARTER_Z):
            p = g @ m
            if p.tobytes() not in found:
                found[p.tobytes()] = p
                todo.append(p)
    return tuple(found[k] for k in sorted(found))


def placed(vox: np.ndarray, m: np.ndarray) -> tuple[tuple[int, ...], ...]:
    """``vox`` rotated by ``m``, moved to the origin, rows sorted."""
    a = vox @ m.T
    a = a - a.min(axis=0)
    return tuple(map(tuple, a[np.lexsort(a.T[::-1])].tolist()))


def congruence_class(voxels: Sequence[Sequence[int]]) -> tuple:
    return _turned_copies(voxels)[0]


def _turned_copies(voxels: Sequence[Sequence[int]]) -> list[tuple]:
    """Every distinct :func:`placed` copy of the voxels over :func:`rotation_group`, sorted:
    all turns at once, each copy's rows coded as integers in their order (x, then y, then
    z), so sorting codes sorts rows and comparing code rows compares copies."""
    vox = np.array(voxels, dtype=np.int64).reshape(-1, 3)
    a = vox @ _turns_transposed()
    a -= a.min(axis=1, keepdims=True)
    span = int(a.max()) + 1
    codes = np.sort((a[..., 0] * span + a[..., 1]) * span + a[..., 2], axis=1)
    return [tuple((c // span**2, c // span % span, c % span) for c in copy)
            for copy in sorted(set(map(tuple, codes.tolist())))]


@cache
def _turns_transposed() -> np.ndarray:
    """The rotation group's matrices transposed, stacked: ``vox @ m.T`` for every m."""
    return np.ascontiguousarray(np.array(rotation_group(), dtype=np.int64).transpose(0, 2, 1))


def _exact(voxels: Sequence[Voxel]) -> tuple:
    return tuple(sorted(voxels))


def _looks_wrong(ref_looks: _TurnedLooks, ref: IsometricLook, option: Sequence[Voxel],
                 copies: list[tuple]) -> str | None:
    """Why the option's picture could pass for a rotation of the reference (``copies``: the
    option's turned copies), or None.  Only pictures of one size are compared: pictures of
    two sizes differ in every pixel of the larger (at least 6 x 6), never in fewer than
    ``MIN_PIXELS``."""
    own = IsometricLook(option)
    if any(own.difference(look) < MIN_PIXELS for look in ref_looks.of_size(own.size)):
        return "its picture equals the picture of a rotation of the reference"
    if any(IsometricLook(c).difference(ref) < MIN_PIXELS
           for c, size in zip(copies, _look_sizes(copies), strict=True) if size == ref.size):
        return "one of its rotations draws the reference picture"
    return None


CORNERS = np.array(list(itertools.product((0, 1), repeat=3)))


def _look_sizes(copies: list[tuple]) -> list[tuple[int, int]]:
    """The size of each copy's :class:`IsometricLook` picture, which follows from its
    projected extent (its cubes' corners projected isometric): all copies are projected at
    once (a projected point depends on that point alone: the numbers IsometricLook works
    out), and their sizes worked out at once (``IsometricLook.sizes``)."""
    points = np.array(copies, dtype=np.int64)[:, :, None, :] + CORNERS
    uv = camera("isometric").project(points.reshape(-1, 3))[:, :2].reshape(len(copies), -1, 2)
    return IsometricLook.sizes(uv.max(axis=1) - uv.min(axis=1))


class _TurnedLooks:
    """The :class:`IsometricLook` of each turned copy of a stack, made when a picture of its
    size is compared with it."""

    def __init__(self, copies: list[tuple]) -> None:
        self.copies = copies
        self.sizes = _look_sizes(copies)
        self._looks: dict[int, IsometricLook] = {}

    def of_size(self, size: tuple[int, int]) -> list[IsometricLook]:
        """The looks of this size, in the copies' order."""
        for i, s in enumerate(self.sizes):
            if s == size and i not in self._looks:
                self._looks[i] = IsometricLook(self.copies[i])
        return [self._looks[i] for i, s in enumerate(self.sizes) if s == size]


def _picture_failures(record: dict[str, Any], image: np.ndarray, spec: Spec,
                      options: list[OptionData], framing: Framing) -> list[str]:
    seen = [Framing(OPPOSITE_CORNERS[v], framing.scale, spec.panel) for v in spec.views]
    drawings = [*((f"the reference from the {v}", spec.voxels, f)
                  for v, f in zip(spec.views, seen, strict=True)),
                *((f"option {o['letter']}", data.voxels, framing)
                  for o, data in zip(record["options"], options, strict=True))]
    boxes = [*record["layout"]["reference"], *record["layout"]["options"]]
    if len(boxes) != len(drawings):
        return [f"the image has {len(boxes)} panels, not {len(drawings)}"]
    failures = []
    for (name, vox, at), box in zip(drawings, boxes, strict=True):
        failures += legibility.edge_failures(name, at.cam, at.scale,
                                             legibility.shown_factor(box, spec.panel))
        drawn = stack_picture(vox, at, colors=dict.fromkeys(vox, spec.colour))
        shown = crop(image, box)
        if shown.shape != drawn.shape:
            drawn = cv2.resize(drawn, (shown.shape[1], shown.shape[0]),
                               interpolation=cv2.INTER_AREA)
        if not np.array_equal(shown, drawn):
            failures.append(f"{name} is not the picture of its voxels")
    return failures


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    options = [parse_option(o["data"]) for o in record["options"]]
    turned = _turned_copies(spec.voxels)
    reference = turned[0]
    failures = []
    listed = Counter(_exact(v) for v in spec.option_voxels)
    if listed != Counter(_exact(o.voxels) for o in options):
        failures.append("the options' voxels differ from spec option_voxels")
    ref_look = IsometricLook(spec.voxels)
    ref_looks = _TurnedLooks(turned)
    framing = common_isometric_framing([spec.voxels, *(o.voxels for o in options)],
                                       spec.panel)
    scale = framing.scale
    fitting = []
    boxes = record["layout"]["options"]
    if len(boxes) != len(options):
        return failures + [f"the image has {len(boxes)} option panels, not {len(options)}"]
    for o, data, box in zip(record["options"], options, boxes, strict=True):
        name = f"option {o['letter']}"
        copies = _turned_copies(data.voxels)
        congruent = copies[0] == reference
        if congruent != (o["operator"] == "rotation"):
            failures.append(f"{name} ({o['operator']}) is "
                            f"{'' if congruent else 'not '}congruent to the reference")
        if congruent == (spec.question == "can"):
            fitting.append(o["letter"])
        if not congruent:
            why = _looks_wrong(ref_looks, ref_look, data.voxels, copies)
            if why:
                failures.append(f"{name} cannot be told from a rotation: {why}")
            if legibility.hidden_difference(data.voxels, spec.voxels, rotation_group(),
                                            [(camera("isometric"), scale)]):
                failures.append(f"{name} differs from a turned copy of the reference only "
                                "in cubes its picture does not show")
            rival = unseen.drawn_alike(crop(image, box), data.voxels, turned, framing,
                                       spec.colour)
            if rival is not None:
                failures.append(f"{name} is drawn like the reference turned to "
                                f"{[list(v) for v in rival]}: its picture does not show what "
                                "makes it wrong")
    seen = [Framing(OPPOSITE_CORNERS[v], scale, spec.panel) for v in spec.views]
    for change in unseen.unseen_changes(spec.voxels, unseen.framed(seen), is_connected):
        failures.append(f"the reference pictures do not pin the stack down: "
                        f"{unseen.describe(change)} draws the same pictures")
    if fitting != [record["Answer"]]:
        failures.append(f"options fitting '{spec.question}': {fitting}, "
                        f"answer {record['Answer']}")
    return failures + _picture_failures(record, image, spec, options, framing)


Stack = tuple[tuple[int, ...], ...]


def _at_origin(voxels: Sequence[Sequence[int]], m: np.ndarray | None = None) -> Stack:
    return placed(np.array(voxels, dtype=int).reshape(-1, 3),
                  np.eye(3, dtype=int) if m is None else m)


def _operations(answer: OptionData) -> list[tuple[str, Any]]:
    ops: list[tuple[str, Any]] = []
    if answer.mirror_axis is not None:
        ops.append(("mirror", "xyz".index(answer.mirror_axis)))
    if answer.removed is not None:
        ops.append(("remove", tuple(answer.removed)))
    return ops + [("turn", axis) for axis, k in answer.steps for _ in range(k % 4)]


def step_start(spec: Spec, answer: OptionData) -> Stack:
    return _at_origin(spec.voxels)


def step_next(spec: Spec, answer: OptionData, state: Stack,
              k: int) -> Stack | None:
    """The stack after operation ``k`` (0-based); None after the last."""
    ops = _operations(answer)
    if k >= len(ops):
        return None
    op, arg = ops[k]
    stack = state
    if op == "mirror":
        flip = np.eye(3, dtype=int)
        flip[arg, arg] = -1
        return _at_origin(stack, flip)
    if op == "remove":
        return _at_origin([v for v in spec.voxels if tuple(v) != arg])
    return _at_origin(stack, QUARTERS[arg])


def step_goal(spec: Spec, answer: OptionData) -> Stack:
    return _at_origin(answer.voxels)


def step_read(spec: Spec, state: Any) -> Stack:
    return _at_origin(state)


def step_key(state: Stack) -> Stack:
    return state
