"""3DRotation: which option can (or cannot) be obtained by rotating a cube stack?

After SpatialViz-Bench Alg. 2-3.  The reference is a random connected stack drawn
isometric, and beside it the same stack from the opposite corner (back-left, below): the
stack must be readable from these two pictures, no stack one cube added or removed (still
connected) drawing the same two (render/unseen.py), so no cube the pictures hide decides
an option.  "Rotation" options are the stack turned about the x, y and z axes by 90, 180
or 270 degrees (one or two turns).  Wrong options are the stack with one cube removed
(still connected) and the mirrored stack, each then turned.  A mirror of an achiral stack
is a rotation, so achiral stacks get a second removed-cube option instead.

Every option is drawn at one common scale with the reference, in panels large enough for
legible cubes (render/legibility.py).  A wrong option must also look wrong: its picture
differs from the picture of every rotation of the reference, no rotation of it reproduces
the reference picture, and for each of its nearest look-alikes among the reference's
turned copies a cube in which they differ (or the gap of a missing one) shows in its
picture (a removed cube hidden from view, or a mirror that differs only in hidden cubes,
would be undetectable).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spatialcad.geometry import rotations, voxels
from spatialcad.geometry.colours import SAND
from spatialcad.geometry.voxels import Voxel
from spatialcad.render import legibility, unseen
from spatialcad.render.camera import camera
from spatialcad.render.stacks import (
    OPPOSITE_CORNERS,
    Framing,
    IsometricLook,
    common_isometric_framing,
    stack_picture,
)
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.rotation_3d.spec import (
    KINDS,
    VIEWS,
    OptionData,
    Spec,
    parse_option,
    texts,
)

Steps = list[tuple[str, int]]

PANEL = (290, 290)  # the smallest panel; larger stacks get larger ones
ISOMETRIC = camera("isometric")
MIN_PIXELS = 20  # a wrong option's signature differs from a rotation's in at least this many
AXIS_WORDS = {"x": "x (left-right)", "y": "y (front-back)", "z": "z (vertical)"}


def steps_words(steps: Steps) -> str:
    turns = {1: "90 degrees", 2: "180 degrees", 3: "270 degrees"}
    return " then ".join(f"{turns[k]} about the {AXIS_WORDS[a]} axis" for a, k in steps)


def steps_matrix(steps: Steps) -> np.ndarray:
    m = np.eye(3, dtype=int)
    for axis, k in steps:
        m = rotations.axis_rotation(axis, k) @ m
    return m


def random_steps(rng: np.random.Generator) -> Steps:
    """One or two quarter-turn rotations about different coordinate axes."""
    axes = [str(a) for a in rng.permutation(["x", "y", "z"])[: int(rng.integers(1, 3))]]
    return [(a, int(rng.integers(1, 4))) for a in axes]


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        """Level L: a random stack in an (L+3)^3 space; from level 2 on the fill drops a
        little per level so that bigger stacks stay readable."""
        side = level + 3
        fill = max(0.3, 0.5 - 0.05 * max(0, level - 1))
        return {"space": [side, side, side], "fill": round(fill, 2), "min_cubes": 5}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        p = self.params(level)
        stack = voxels.random_stack(rng, tuple(p["space"]), p["fill"])
        if len(stack) < p["min_cubes"]:
            raise Reject("stack too small")
        # the stack's own outline needs a panel no larger than the options' common one:
        # a stack too large for the composite is rejected before any option is built
        legible_framing([stack])
        must_not_hide(stack)
        kind = KINDS[int(rng.integers(2))]
        looks = _Looks(stack)
        chiral = rotations.is_chiral(stack)
        if kind == "can":
            rotated = _rotation_options(stack, 1, looks, rng)
            wrong_ops = ["mirror", "remove_cube", "remove_cube"] if chiral else ["remove_cube"] * 3
        else:
            rotated = _rotation_options(stack, 3, looks, rng)
            wrong_ops = ["mirror" if chiral and rng.random() < 0.5 else "remove_cube"]
        removable = [stack[int(i)] for i in rng.permutation(len(stack))]
        mirrors = [_mirrored(stack, rng) for op in wrong_ops if op == "mirror"]
        # a turn per wrong option, each for the next removed-cube option: nothing is drawn
        # after them, so the one left over when the mirror is kept changes no draw
        turns = [random_steps(rng) for _ in wrong_ops]
        known = [stack, *(parse_option(o.data).voxels for o in rotated)]
        bounds = [rotations.rotate(stack, steps_matrix(t)) for t in turns]
        # settled before the mirror is judged when its outline is smaller than a known
        # one: the framing is then the same whether it is kept or replaced
        read = settled_framing(known, bounds)
        if read is not None and any(_outline_key(m[2]) >= max(map(_outline_key, known))
                                    for m in mirrors):
            read = None
        if read is not None:
            must_read(stack, read)
        made = iter(mirrors)
        wrong = [_mirror_option(stack, looks, *next(made)) if op == "mirror" else None
                 for op in wrong_ops]
        known += [parse_option(o.data).voxels for o in wrong if o]
        left = list(zip(turns, bounds, strict=True))[: wrong.count(None)]
        options = list(rotated)
        for option in wrong:
            if option is None:
                if read is None:  # each removed-cube option chosen may settle it
                    read = settled_framing(known, [bound for _, bound in left])
                    if read is not None:
                        must_read(stack, read)
                option = _removed_cube_option(stack, removable, looks, left.pop(0)[0])
                known.append(parse_option(option.data).voxels)
            options.append(option)
        for option in options:
            option.is_answer = (option.operator == "rotation") == (kind == "can")
        shown = [stack, *(parse_option(o.data).voxels for o in options)]
        framing = legible_framing(shown)
        panel = framing.size
        spec = Spec(voxels=stack, space=p["space"], question=kind, chiral=chiral,
                    option_voxels=shown[1:], colour=SAND, panel=panel, views=list(VIEWS))
        if framing != read:
            must_read(stack, framing)
        for option, vox in zip(options, shown[1:], strict=True):
            if option.operator != "rotation" and legibility.hidden_difference(
                    vox, stack, rotations.proper_rotations(), [(ISOMETRIC, framing.scale)]):
                raise Reject("a wrong option differs from a rotation only in hidden cubes")
        for option, vox in zip(options, shown[1:], strict=True):
            option.image = stack_picture(vox, framing, colors=dict.fromkeys(vox, SAND))
        must_look_wrong(stack, options, shown[1:], framing)
        looks_of = [looks.look(s) for s in shown[1:]]
        for i in range(4):
            for j in range(i):
                if looks_of[i].difference(looks_of[j]) < MIN_PIXELS:
                    raise Reject("two options look the same")
        seen = [stack_picture(stack, Framing(OPPOSITE_CORNERS[v], framing.scale, panel),
                              colors=dict.fromkeys(stack, SAND)) for v in VIEWS]
        return Draft(
            question=texts(spec, []).question,
            spec=spec.to_json(),
            reference=[Panel(picture, f"From the {v}")
                       for v, picture in zip(VIEWS, seen, strict=True)],
            options=options,
        )


def must_read(stack: list[Voxel], framing: Framing, views: Sequence[str] = VIEWS) -> None:
    """Reject a stack the reference pictures (``views`` at the scale and size of
    ``framing``) do not pin down: one that a cube could be added to or removed from,
    still connected, drawing the same pictures."""
    seen = [Framing(OPPOSITE_CORNERS[v], framing.scale, framing.size) for v in views]
    change = unseen.first_unseen(stack, unseen.framed(seen), voxels.is_connected)
    if change is not None:
        raise Reject(f"the reference pictures do not show {unseen.describe(change)}")


def must_look_wrong(stack: list[Voxel], options: list[Option], cubes: list[list[Voxel]],
                    framing: Framing) -> None:
    """Reject a wrong option whose own picture (one view, drawn in ``framing``) could be
    the picture of a rotation of the stack: the rotation drawn alike differs from it in
    fewer pixels than a cube must show (``unseen.drawn_alike``).  A removed cube whose
    gap bares a look-alike cube behind it, or a mirror differing only in cubes its view
    hides, would make it a right answer to a solver who sees only that picture."""
    turned = sorted({rotations.rotate(stack, m) for m in rotations.proper_rotations()})
    for option, vox in zip(options, cubes, strict=True):
        if option.operator != "rotation" and option.image is not None and unseen.drawn_alike(
                option.image, vox, turned, framing, SAND) is not None:
            raise Reject(f"a {option.operator} option draws like a rotation of the stack")


def must_not_hide(stack: list[Voxel], views: Sequence[str] = VIEWS) -> None:
    """Reject, before any option is built, a stack that :func:`must_read` would reject at
    every scale: one that a cube could be added to or removed from, still connected,
    wholly behind other cubes in every reference picture (exact, drawing nothing)."""
    cams = [OPPOSITE_CORNERS[v] for v in views]
    change = next(unseen.hidden_changes(stack, cams, voxels.is_connected), None)
    if change is not None:
        raise Reject(f"the reference pictures do not show {unseen.describe(change)}")


def settled_framing(known: list[list[Voxel]], bounds: list[tuple[Voxel, ...]]
                    ) -> Framing | None:
    """The framing :meth:`Generator.build` draws the stacks ``known`` and the options still
    to choose in, when it is already settled: each of those is a part of a stack of
    ``bounds`` (the stack turned as the option will be, before a cube is removed), whose
    outline is smaller than the largest of ``known`` (the common scale fits the largest
    outline; a part's outline is no larger).  None when it is not settled; Reject as
    :func:`legible_framing` would."""
    largest = max(_outline_key(s) for s in known)
    if any(_outline_key(s) >= largest for s in bounds):
        return None
    return legible_framing(known)


def _outline_key(cubes: Sequence[Voxel]) -> int:
    """6 times the square of the longer side of a stack's ISOMETRIC outline, (x + y range
    + 2) / sqrt 2 wide and (-x + y + 2z range + 4) / sqrt 6 high (:func:`outline_sides`):
    an integer, in the order of the outlines' sizes (the two sides are never equal, and
    unequal keys are far apart against a float's error)."""
    a, b = outline_sides(cubes)[0]
    return max(3 * (a + 2) ** 2, (b + 4) ** 2)


def legible_framing(stacks: list[list[Voxel]]) -> Framing:
    """The stacks' common isometric framing in the smallest square panel, at least
    ``PANEL``, that draws every one of them with legible cubes (the framing fitted to
    ``PANEL`` when that is large enough); Reject when the two reference and four option
    panels of that size fit no arrangement of the composite (``layout.arrangement``).
    Only the stacks of the largest outline are fitted: a smaller outline's fitted scale is
    larger by far more than a float's error (:func:`_outline_key`)."""
    keys = [_outline_key(s) for s in stacks]
    largest = [s for s, key in zip(stacks, keys, strict=True) if key == max(keys)]
    framing = common_isometric_framing(largest, PANEL)
    side = legibility.grown_side(PANEL[0], framing.scale, legibility.min_scale(ISOMETRIC))
    if not legibility.fits(side, 4, side, references=len(VIEWS)):
        raise Reject(f"the stacks need {side} px panels to show legible cubes")
    return framing if (side, side) == PANEL else common_isometric_framing(largest, (side, side))


# Per proper rotation m, the integer forms whose ranges over a stack turned by m give its
# isometric outline's sides in lattice steps (see outline_sides): x + y and -x + y + 2z of
# the turned cubes, i.e. (m0 + m1) . v and (-m0 + m1 + 2 m2) . v (m0, m1, m2: m's rows).
SIDE_FORMS = np.array([[m[0] + m[1], -m[0] + m[1] + 2 * m[2]]
                       for m in rotations.proper_rotations()], dtype=np.int64)


def outline_sides(cubes: Sequence[Voxel]) -> list[tuple[int, int]]:
    """Per proper rotation (``rotations.proper_rotations()``' order), the sides of the turned
    stack's isometric outline in lattice steps: the ranges of x + y and of -x + y + 2z over
    its cubes.  ISOMETRIC's screen axes are (1, 1, 0) / sqrt 2 and (-1, 1, 2) / sqrt 6, so
    an outline is (range + 2) / sqrt 2 wide and (range + 4) / sqrt 6 high: stacks whose
    sides differ differ by 7 or 4 pixels or more in their :class:`IsometricLook`
    picture's size (scale 10), and never look alike."""
    values = np.einsum("rfk,nk->rfn", SIDE_FORMS, np.array(cubes, dtype=np.int64))
    spans = values.max(axis=2) - values.min(axis=2)
    return [(int(a), int(b)) for a, b in spans.tolist()]


class _Looks:
    """The reference's look and the looks of its rotations, for look-alike tests; a
    rotation's look is made when a candidate of its outline's sides needs it."""

    def __init__(self, stack: list[Voxel]) -> None:
        self.stack = stack
        self._made: dict[tuple[Voxel, ...], IsometricLook] = {}
        self.reference = self.look(stack)
        every = outline_sides(stack)
        self.sides = every[0]  # the identity comes first
        self._turns: dict[tuple[int, int], list[np.ndarray]] = {}
        for m, sides in zip(rotations.proper_rotations(), every, strict=True):
            self._turns.setdefault(sides, []).append(m)
        self._looks: dict[tuple[int, int], list[IsometricLook]] = {}

    def look(self, cubes: Sequence[Voxel]) -> IsometricLook:
        """The look of these cubes, made once a build (with its picture, when drawn): the
        rotation options, the reference's rotations and the options' final check share
        theirs.  Keyed by the cubes in their order, which the picture's mesh follows."""
        key = tuple((int(x), int(y), int(z)) for x, y, z in cubes)
        if key not in self._made:
            self._made[key] = IsometricLook(key)
        return self._made[key]

    def rotations_of(self, sides: tuple[int, int]) -> list[IsometricLook]:
        """The looks of the reference's rotations whose outline has these sides (the
        rotations turned when first asked for)."""
        if sides not in self._looks:
            turned = {rotations.rotate(self.stack, m) for m in self._turns.get(sides, [])}
            self._looks[sides] = [self.look(s) for s in sorted(turned)]
        return self._looks[sides]

    def like_a_rotation(self, candidate: tuple[Voxel, ...]) -> bool:
        """The candidate's picture could be taken for a rotation of the reference, some
        rotation of the candidate draws the reference picture, or the candidate differs
        from a nearest turned copy of the reference only in hidden cubes.  Pictures of
        outlines of other sides are told apart without making them (:func:`outline_sides`)."""
        sides = outline_sides(candidate)
        alike = self.rotations_of(sides[0])
        if alike:
            own = self.look(candidate)
            if any(own.difference(r) < MIN_PIXELS for r in alike):
                return True
        turned = {rotations.rotate(candidate, m)
                  for m, s in zip(rotations.proper_rotations(), sides, strict=True)
                  if s == self.sides}
        if any(self.look(t).difference(self.reference) < MIN_PIXELS for t in sorted(turned)):
            return True
        return legibility.hidden_difference(candidate, self.stack, rotations.proper_rotations(),
                                            [(ISOMETRIC, legibility.PROBE_SCALE)])


def _rotation_options(
    stack: list[Voxel], count: int, looks: _Looks, rng: np.random.Generator
) -> list[Option]:
    """``count`` rotated copies, each looking different from the reference and each other."""
    seen = [looks.reference]
    options = []
    for _ in range(20):
        steps = random_steps(rng)
        turned = rotations.rotate(stack, steps_matrix(steps))
        picture = looks.look(turned)
        if any(picture.difference(s) < MIN_PIXELS for s in seen):
            continue
        seen.append(picture)
        options.append(_option("rotation", f"It is the stack turned {steps_words(steps)}.",
                               OptionData(list(turned), steps)))
        if len(options) == count:
            return options
    raise Reject("too few rotations that look different (symmetric stack)")


def _mirrored(stack: list[Voxel], rng: np.random.Generator
              ) -> tuple[Steps, int, tuple[Voxel, ...]]:
    """A mirror option's draws (its turns, the axis reflected along) and its stack."""
    steps = random_steps(rng)
    axis = int(rng.integers(3))
    return steps, axis, rotations.rotate(rotations.mirror(stack, axis), steps_matrix(steps))


def _mirror_option(stack: list[Voxel], looks: _Looks, steps: Steps, axis: int,
                   turned: tuple[Voxel, ...]) -> Option | None:
    """The mirrored stack turned (:func:`_mirrored`), or None when it would look like a
    rotation."""
    if looks.like_a_rotation(turned):
        return None
    text = (f"It is the mirror image of the stack (reflected along {'xyz'[axis]}), turned "
            f"{steps_words(steps)}; the stack is chiral, so no rotation gives it.")
    return _option("mirror", text, OptionData(list(turned), steps, mirror_axis="xyz"[axis]))


def _removed_cube_option(
    stack: list[Voxel], removable: list[Voxel], looks: _Looks, steps: Steps
) -> Option:
    """The stack minus one cube (taken from ``removable`` in order and consumed), turned
    by ``steps``, still connected and not looking like any rotation of the reference."""
    while removable:
        cube = removable.pop(0)
        rest = [v for v in stack if v != cube]
        if not voxels.is_connected(rest):
            continue
        m = steps_matrix(steps)
        turned = rotations.rotate(rest, m)
        if _gap_unseen(rest, cube, m) or looks.like_a_rotation(turned):
            continue
        text = (f"It is the stack with the cube at {list(cube)} removed, turned "
                f"{steps_words(steps)}: {len(rest)} cubes instead of {len(stack)}.")
        return _option("remove_cube", text, OptionData(list(turned), steps, removed=cube))
    raise Reject("no removable cube gives a visibly different stack")


# The picture a removed cube's gap is first looked for in: the smallest scale a panel is
# drawn at (legible_framing), where a gap shows least; must_look_wrong decides at the
# panel's own scale.
PROBE = unseen.framed([Framing(ISOMETRIC, legibility.min_scale(ISOMETRIC), PANEL)])


def _gap_unseen(rest: list[Voxel], cube: Voxel, m: np.ndarray) -> bool:
    """Whether the stack turned by ``m`` draws like ``rest`` (the stack without ``cube``)
    turned alike: the cube is hidden in that view, or its gap bares a look-alike behind
    it, so the option would picture the turned stack itself."""
    return unseen.change_unseen([_turn(v, m) for v in rest], ("add", _turn(cube, m)), PROBE)


def _turn(cube: Voxel, m: np.ndarray) -> Voxel:
    x, y, z = (int(c) for c in m @ np.array(cube))
    return x, y, z


def _option(op: str, text: str, data: OptionData) -> Option:
    return Option(is_answer=False, operator=op, explanation=text, data=data.to_json())
