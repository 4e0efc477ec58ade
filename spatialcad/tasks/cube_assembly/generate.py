"""CubeAssembly: which piece completes a split cube stack?  (SpatialViz-Bench Alg. 14-15.)

A pyramid-like stack is split into ``k`` face-connected pieces.  The reference shows the
complete stack and ``k - 1`` pieces in place (one colour each); the options show candidate
pieces moved but not rotated.  Every picture shows its cubes from the front-right and from
the back-left (a single view hides too many cubes), all at one scale, standing on the floor
or on their shadow (render/piece_pictures.py).  The composite keeps within
``layout.MAX_PIXELS`` with legible cubes: an option's views have the room the composite
leaves them (``option_view``), and a stack whose missing piece does not fit them is drawn
again, as is a wrong piece that does not.  Wrong options are
the missing piece with a cube removed, a cube added, or a cube moved elsewhere, or with
two such edits, always connected, never a translate or rotation of the missing piece.
A stack its pictures leave open (a cube they do not show could be added or removed, the
stack standing: it would change the missing piece) is drawn again (issue 35).

The wrong options are chosen so that picture similarity does not give the answer away:
left alone, the answer is the option most like the others (every wrong option is an edit
of it).  Two target ranks for the answer are drawn uniformly, its thumbnail distance to
the reference panels and its summed distance to the other options (what the shortcut
audit measures, :mod:`spatialcad.render.thumbnails`); the three wrong options are drawn
from a pool of one- and two-edit pieces among the sets giving the answer exactly these
ranks, and the stack is redrawn under the same target when none does.  The pool is ranked on
draft pictures (half size, no anti-aliasing); a drawn set is kept only when its pieces
are legible (every cube shows, and so does a difference from the missing piece) and its
full pictures give the answer the same ranks and look different from each other (so no
wrong piece is drawn like the missing one: the two pictures differ in at least
``MIN_DIFFERENCE`` face areas, so in one of the views in at least the quarter face that
``piece_pictures.looks_like`` asks for; the verifier checks that on the image).

The pictures are :mod:`spatialcad.render.piece_pictures`' (the verifier draws them again);
the spec and the question are :mod:`spatialcad.tasks.cube_assembly.spec`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from spatialcad.geometry import rotations, splitting
from spatialcad.geometry.voxels import Voxel, is_connected, normalized
from spatialcad.render import legibility
from spatialcad.render.piece_pictures import (
    DRAFT_SHRINK,
    fits_option,
    option_framings,
    option_picture,
    option_view,
    reference_framings,
    reference_pictures,
    tops_visible,
    unseen_changes,
    visible,
)
from spatialcad.render.pixels import pixels_differing
from spatialcad.render.stacks import Framing
from spatialcad.render.thumbnails import (
    answer_ranks,
    balanced_set,
    distances,
    nearest_distance,
    random_target,
    rank_possible,
    thumbnail,
)
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.cube_assembly.spec import OptionData, Spec, part_names, texts

MIN_DIFFERENCE = 0.5  # face areas of pixels by which two options must differ
MIN_PART = 3  # cubes per piece
DISTRACTORS = ("remove_cube", "add_cube", "move_cube")
TWO_EDITS = "two_edits"  # the operator of a piece two one-cube edits away from the answer
EDITS_PER_KIND = 4  # one-cube edits of the missing piece tried per kind
SECOND_EDITS = 8  # one-cube edits of those tried (pieces two edits from the missing one)
STACK_DRAWS = 30  # stacks tried for one item's similarity-rank target
Shape = tuple[Voxel, ...]  # a piece's cubes normalized: how pictures and records show it
EDIT_WORDS = {"remove_cube": "a cube removed", "add_cube": "a cube added",
              "move_cube": "a cube moved"}


def looks_different(a: np.ndarray, b: np.ndarray, scale: float) -> bool:
    """Pixels whose largest channel difference exceeds 40 cover MIN_DIFFERENCE face areas."""
    return pixels_differing(a, b, 40) >= MIN_DIFFERENCE * scale**2


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        """L0: 3x3x3 space, 2 pieces; L1: 3 pieces; L2: a 4x4 floor; L3: 4 high (more
        pieces or a larger space would not fit ``layout.MAX_PIXELS`` with legible cubes:
        tasks/cube_assembly/__init__.py)."""
        side = 3 if level < 2 else 4
        return {"space": (side, side, 4 if level >= 3 else 3), "pieces": 2 if level == 0 else 3}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        # Similarity ranks of the answer (to the reference, and summed to the other options),
        # drawn first and kept while stacks are redrawn, so that they stay uniform.
        p = self.params(level)
        if option_view(p["space"], p["pieces"]) is None:
            raise Reject("a row of pictures with legible cubes would not fit the composite")
        target = random_target(rng)
        for drawn in range(1, STACK_DRAWS + 1):
            item = _try_stack(p["space"], p["pieces"], rng, target, drawn)
            if item is not None:
                return item
        raise Reject(f"no option set gave the answer the similarity ranks {target}")


@dataclass
class Candidate:
    """A wrong piece: its cubes in the stack's coordinates, its shape (the cubes
    :func:`normalized`, as options show and record it), the edits that made it and its
    draft picture."""

    cubes: list[Voxel]
    shape: Shape
    edits: tuple[str, ...]
    draft: np.ndarray

    @property
    def operator(self) -> str:
        return self.edits[0] if len(self.edits) == 1 else TWO_EDITS


def _try_stack(space: tuple[int, int, int], k: int, rng: np.random.Generator,
               target: tuple[int, int], drawn: int) -> Draft | None:
    """One item on a new stack (the ``drawn``-th) whose answer has the ``target`` similarity
    ranks; None when the stack is unusable or no option set gives them."""
    stack = splitting.pyramid_stack(rng, space)
    if len(stack) < MIN_PART * k:
        return None
    pieces = sorted(splitting.split_connected(rng, stack, k), key=lambda q: (len(q), q))
    if min(len(q) for q in pieces) < MIN_PART:
        return None
    missing = pieces.pop(int(rng.integers(k)))
    ref = reference_framings(space)
    if not tops_visible(stack, ref) or not all(visible(q, ref) for q in pieces):
        return None  # a cube of the stack or of a piece is hidden
    truth = normalized(missing)
    answer: Shape = tuple(truth)
    if not fits_option(truth, space, k) or not visible(truth, option_framings(space, k)):
        return None  # the answer's own picture would not fit, or hides a cube
    answer_draft = option_picture(truth, space, k, draft=True)
    box = (_corner(stack, min), _corner(stack, max))
    pool = _wrong_pool(rng, missing, box, space, k, answer_draft)
    full = _FullPictures(stack, pieces, space, k)

    @cache
    def legible(i: int) -> bool:
        return _legible(list(pool[i].shape), truth, option_framings(space, k))

    def accept(picked: tuple[int, ...]) -> bool:
        """Kinds mixed, and on the full pictures the answer's similarity ranks those of the
        drafts (the ``target``), every piece legible and the options unlike each other.

        Legibility is checked here rather than for the whole pool: most pieces are never
        in a drawn set, and a set's ranks depend only on its own pieces, so the sets drawn
        from are the same.  The checks run from the one failing most often (the ranks, for
        most sets drawn at level 0) to those that hardly ever fail; the first rank is
        tried as the full pictures are drawn (:meth:`_FullPictures.may_rank`), so a set
        it refuses draws no more of them."""
        if len({pool[i].operator for i in picked}) < 2:
            return False
        shown = [answer, *(pool[i].shape for i in picked)]
        if not full.may_rank(shown, target[0]):
            return False
        dist = distances([*full.reference_thumbnails, *(full.thumbnail(c) for c in shown)])
        k = len(full.reference)
        return (answer_ranks(dist, range(k), range(k, k + len(shown))) == target
                and all(map(legible, picked))
                and all(full.unlike(a, b) for a, b in combinations(shown, 2)))

    drafts = reference_pictures(stack, pieces, space, draft=True)
    picked = balanced_set(answer_draft, drafts, [c.draft for c in pool], target, rng, accept)
    if picked is None or unseen_changes(stack, pieces, space):
        return None  # (rare) a cube the pictures do not show could be added or removed
    wrong = [(pool[i], OptionData(list(pool[i].shape), list(pool[i].edits))) for i in picked]
    data = [OptionData(truth), *(d for _, d in wrong)]
    options = [Option(True, "missing_piece", "It is exactly the cubes of the complete "
                      "stack that the shown pieces leave uncovered.", image=full.option(answer),
                      data=data[0].to_json())]
    options += [Option(False, c.operator, _explain(c.edits, len(missing), len(d.voxels)),
                       image=full.option(c.shape), data=d.to_json()) for c, d in wrong]
    spec = Spec(voxels=stack, space=space, pieces=k, parts=pieces, answer_ranks=target,
                stacks_drawn=drawn)
    said = texts(spec, data)
    return Draft(
        question=said.question,
        question_direct=said.question_direct,
        answer_direct=said.answer_direct,
        spec=spec.to_json(),
        reference=[Panel(img, cap) for img, cap in zip(
            full.reference, ["Complete stack", *part_names(k)], strict=True)],
        options=options,
    )


class _FullPictures:
    """The item's full pictures, each drawn when first needed: the reference panels, the
    answer and wrong pieces (by their :data:`Shape`); and, worked out once per piece or
    pair, what option sets are compared by: thumbnails, and which pictures look
    different."""

    def __init__(self, stack: list[Voxel], pieces: list[list[Voxel]],
                 space: tuple[int, int, int], k: int) -> None:
        self._stack, self._pieces, self._space, self._k = stack, pieces, space, k
        self._options: dict[Shape, np.ndarray] = {}
        self._thumbnails: dict[Shape, np.ndarray] = {}
        self._nearest: dict[Shape, float] = {}
        self._unlike: dict[tuple[Shape, Shape], bool] = {}
        self.scale = option_framings(space, k)[0].scale

    @cached_property
    def reference(self) -> list[np.ndarray]:
        return reference_pictures(self._stack, self._pieces, self._space)

    @cached_property
    def reference_thumbnails(self) -> list[np.ndarray]:
        return [thumbnail(p) for p in self.reference]

    def option(self, shape: Shape) -> np.ndarray:
        if shape not in self._options:
            self._options[shape] = option_picture(list(shape), self._space, self._k)
        return self._options[shape]

    def thumbnail(self, shape: Shape) -> np.ndarray:
        if shape not in self._thumbnails:
            self._thumbnails[shape] = thumbnail(self.option(shape))
        return self._thumbnails[shape]

    def nearest(self, shape: Shape) -> float:
        """The thumbnail distance of a piece's picture to the nearest reference panel."""
        if shape not in self._nearest:
            self._nearest[shape] = nearest_distance(self.reference_thumbnails,
                                                    self.thumbnail(shape))
        return self._nearest[shape]

    def may_rank(self, shown: list[Shape], rank: int) -> bool:
        """False when the answer ``shown[0]`` cannot get the first of its ranks (by the
        distance to the nearest reference panel) among the pieces ``shown``, as
        :func:`answer_ranks` counts it: the pieces already drawn are tried first, then
        each of the others is drawn only while some pictures of those left could still
        give the rank.  The same answer as :func:`answer_ranks`' first rank, for less
        drawing where it is false."""
        answer = self.nearest(shown[0])
        rest = sorted(shown[1:], key=lambda c: c not in self._thumbnails)
        known: list[float] = []
        for cubes in rest:
            if not rank_possible(answer, known, len(rest) - len(known), rank):
                return False
            known.append(self.nearest(cubes))
        return rank_possible(answer, known, 0, rank)

    def unlike(self, a: Shape, b: Shape) -> bool:
        """Whether the pictures of pieces ``a`` and ``b`` look different."""
        pair = (a, b)
        if pair not in self._unlike:
            self._unlike[pair] = looks_different(self.option(a), self.option(b), self.scale)
        return self._unlike[pair]


def _corner(cubes: list[Voxel], pick: Callable[[Iterable[int]], int]) -> Voxel:
    return (pick(c[0] for c in cubes), pick(c[1] for c in cubes), pick(c[2] for c in cubes))


def _explain(edits: tuple[str, ...], need: int, have: int) -> str:
    counts = f"the missing piece has {need} cubes, this one {have}"
    if len(edits) == 2:
        return (f"It is the missing piece with {EDIT_WORDS[edits[0]]} and then "
                f"{EDIT_WORDS[edits[1]]}: {counts}, and they do not have the same shape.")
    what = {"remove_cube": "a cube too few", "add_cube": "an extra cube",
            "move_cube": "one cube in the wrong place"}[edits[0]]
    return f"It has {what}: {counts}, and they do not have the same shape."


def _edit(rng: np.random.Generator, kind: str, piece: list[Voxel],
          within: tuple[Voxel, Voxel]) -> list[Voxel] | None:
    """One cube removed, added (face-adjacent, inside ``within``) or both; the cubes stay in
    the stack's coordinates."""
    cubes = set(piece)
    gone: Voxel | None = None
    if kind in ("remove_cube", "move_cube"):
        removable = _removable(frozenset(cubes))
        if not removable:
            return None
        gone = removable[int(rng.integers(len(removable)))]
        cubes.discard(gone)
    if kind in ("add_cube", "move_cube"):
        cells = [c for c in _addable(frozenset(cubes), within) if c != gone]
        if not cells:
            return None
        cubes.add(cells[int(rng.integers(len(cells)))])
    return sorted(cubes)


@lru_cache(maxsize=256)
def _removable(cubes: frozenset[Voxel]) -> tuple[Voxel, ...]:
    """:func:`splitting.removable_cubes`, remembered by the cubes: a pool edits the missing
    piece, and the pieces one edit from it, several times each."""
    return tuple(splitting.removable_cubes(cubes))


@lru_cache(maxsize=256)
def _addable(cubes: frozenset[Voxel], within: tuple[Voxel, Voxel]) -> tuple[Voxel, ...]:
    """:func:`splitting.addable_cells`, remembered like :func:`_removable`."""
    return tuple(splitting.addable_cells(cubes, within))


def _legible(piece: list[Voxel], truth: list[Voxel], framings: list[Framing]) -> bool:
    """Every cube of the loose ``piece`` shows in its picture, and so does some cube in
    which it differs from the missing piece ``truth`` (or the gap of one)."""
    views = [(f.cam, legibility.PROBE_SCALE) for f in framings]  # verified at full scale
    return visible(piece, framings) and not legibility.hidden_difference(
        piece, truth, [np.eye(3, dtype=int)], views)


def _wrong_pool(rng: np.random.Generator, missing: list[Voxel], within: tuple[Voxel, Voxel],
                space: tuple[int, int, int], k: int, answer: np.ndarray) -> list[Candidate]:
    """Distinct wrong pieces, connected, fitting the options' views (of a stack in
    ``space`` split into ``k``), looking unlike the answer (draft picture ``answer``), none
    congruent to it: up to ``EDITS_PER_KIND`` one-cube edits of the
    missing piece per kind, and up to ``SECOND_EDITS`` edits of those (whether they are
    legible is checked when a set holding them is drawn: ``_legible``)."""
    framings = option_framings(space, k)
    truth = normalized(missing)
    truth_form = rotations.canonical(truth)  # congruent pieces have the same cube count
    seen = {tuple(truth)}
    pool: list[Candidate] = []

    def offer(cubes: list[Voxel] | None, edits: tuple[str, ...]) -> None:
        if cubes is None or not is_connected(cubes):
            return
        shape = tuple(normalized(cubes))
        if shape in seen or (len(shape) == len(truth)
                             and rotations.canonical(shape) == truth_form):
            return
        seen.add(shape)
        if not fits_option(shape, space, k):
            return
        draft = option_picture(list(shape), space, k, draft=True)
        if looks_different(draft, answer, framings[0].scale / DRAFT_SHRINK):
            pool.append(Candidate(cubes, shape, edits, draft))

    for kind in DISTRACTORS:
        for _ in range(EDITS_PER_KIND):
            offer(_edit(rng, kind, missing, within), (kind,))
    first = list(pool)
    for _ in range(SECOND_EDITS if first else 0):
        base = first[int(rng.integers(len(first)))]
        kind = DISTRACTORS[int(rng.integers(len(DISTRACTORS)))]
        offer(_edit(rng, kind, base.cubes, within), (*base.edits, kind))
    return pool
