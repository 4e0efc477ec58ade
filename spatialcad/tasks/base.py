"""The contract between a task's generator and the pipeline.

A generator turns ``(level, rng)`` into a :class:`Draft`: the question, the scene spec, the
reference panels and four options in canonical order, each option saying whether it is
the answer and which operator made it.  The pipeline shuffles the options (balanced answer
letters), composes the image, writes the record and runs the task's independent verifier.
What a task is called and which levels it has is its declaration (spatialcad/tasks/registry.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spatialcad.seeding import scene_order


class Reject(Exception):
    """A candidate item is unusable (degenerate scene, unprovable distractor): try the next seed.
    ``skipped``: inputs (such as part files) passed over on the way, counted by reason, for
    the run's summary."""

    def __init__(self, message: str = "", skipped: Mapping[str, int] | None = None) -> None:
        super().__init__(message)
        self.skipped = dict(skipped or {})


@dataclass(frozen=True)
class ItemSlot:
    """Which item of a run a generator builds: ``index`` of ``n``, from the run's ``seed``.
    A level whose scenes the generator can list (part files; ``Generator.scene_count``)
    gives item ``index`` the scene :meth:`pick` names, so that a scene comes back only once
    the run has used every one; ``held``: the scene hashes an item must keep clear of (the
    run's block, when the pipeline looks for a new scene of a level it cannot list:
    spatialcad/run/scenes.py)."""

    index: int
    n: int
    seed: int
    held: frozenset[str] = frozenset()

    def pick(self, count: int, *key: object, weights: np.ndarray | None = None) -> int:
        """This item's place among ``count`` listed scenes (``key``: which list, e.g. the
        level): entry ``index mod count`` of a permutation drawn from the run's seed
        (weighted by ``weights``, when given: ``seeding.scene_order``), so items ``k*count
        .. (k+1)*count - 1`` take every scene once, whatever other items the process makes
        (jobs, shards, resumed runs, API entries)."""
        return scene_order(self.seed, count, *key, weights=weights)[self.index % count]

    def spare(self, count: int, k: int, *key: object, weights: np.ndarray | None = None
              ) -> int | None:
        """The ``k``-th spare scene of an item whose own scene makes no item: one that no
        item of the run takes in this item's round of ``count`` items (the last round of a
        run that does not fill it has some; spread over the round's items so that two of
        them rarely share one); None when the round has none or ``k >= SPARE_ATTEMPTS``."""
        start = self.index - self.index % count
        used = min(self.n - start, count)  # the round's scenes the run's items take
        if used >= count or k >= SPARE_ATTEMPTS:
            return None
        at = used + ((self.index - start) * SPARE_ATTEMPTS + k) % (count - used)
        return scene_order(self.seed, count, *key, weights=weights)[at]


OWN_ATTEMPTS = 8  # attempts an item tries its own listed scene before its spares
SPARE_ATTEMPTS = 8  # spare scenes it tries then, one attempt each, before drawing any


@dataclass
class OwnScene:
    """The attempts one item has given its listed scenes: each of its first
    ``OWN_ATTEMPTS`` attempts tries its own scene (:meth:`ItemSlot.pick`) anew (another
    similarity-rank target, other distractors); if none makes an item, or once
    :meth:`give_up` says the scene cannot, the next ``SPARE_ATTEMPTS`` attempts try the
    round's spare scenes (:meth:`ItemSlot.spare`, none repeating a scene of the round);
    after that the generator draws a scene as without a slot (a repeat, counted)."""

    slot: ItemSlot | None
    tried: int = 0

    def next(self, count: int, *key: object, weights: np.ndarray | None = None
             ) -> int | None:
        """The place among ``count`` (``key``, ``weights``: as for :meth:`ItemSlot.pick`)
        of the scene this attempt tries, or None (no slot, or no listed scene left to
        try)."""
        if self.slot is None:
            return None
        self.tried += 1
        if self.tried <= OWN_ATTEMPTS:
            return self.slot.pick(count, *key, weights=weights)
        return self.slot.spare(count, self.tried - OWN_ATTEMPTS - 1, *key, weights=weights)

    def give_up(self) -> None:
        """The scene just named cannot make an item: go on to the spares (or past one)."""
        self.tried = max(self.tried, OWN_ATTEMPTS)


@dataclass
class Panel:
    """One picture of the reference row, with its caption (e.g. "Front view")."""

    image: np.ndarray  # RGB uint8, H x W x 3
    caption: str = ""


@dataclass
class Option:
    """One answer option before shuffling.

    ``is_answer`` marks the option that answers the question (for "which cannot ..." it is
    the impossible one).  ``operator`` names what made it ("rotation", "mirror",
    "scaled_solid", "min_count"...).  ``data`` is the JSON-able per-option spec the
    verifier needs; ``image`` is the option's panel for image options, ``text`` the option
    text for text options.
    """

    is_answer: bool
    operator: str
    explanation: str
    text: str | None = None
    image: np.ndarray | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Draft:
    question: str
    spec: dict[str, Any]
    reference: list[Panel]
    options: list[Option]
    question_direct: str | None = None
    answer_direct: str | None = None
    skipped: dict[str, int] = field(default_factory=dict)  # as Reject.skipped, before this one


@dataclass(frozen=True)
class Step:
    """One step of an item's step-by-step solution (a task's ``steps.py``): a short line of
    text saying what the step does and the JSON-able state it leads to."""

    text: str
    state: Any


class Generator:
    """Base class of a task's ``generate.Generator``: ``params`` and ``build``."""

    def __init__(self, options: Mapping[str, Any] | None = None,
                 split: str | None = None) -> None:
        """``options``: run-wide settings from the command line (e.g. ``deepcad_dir``);
        ``split``: the split being made (spatialcad/record/splits.py), so that a generator may
        leave out scenes of other splits early (the pipeline rejects them anyway)."""
        self.options: dict[str, Any] = dict(options or {})
        self.split = split
        self.slot: ItemSlot | None = None  # set by the pipeline for the item being built

    def own_scene(self) -> OwnScene:
        """The attempts the item being built (``slot``) has given its own listed scene."""
        own: OwnScene | None = getattr(self, "_own", None)
        if own is None or own.slot != self.slot:
            own = self._own = OwnScene(self.slot)
        return own

    def params(self, level: int) -> dict[str, Any]:
        """The difficulty parameters of ``level``."""
        raise NotImplementedError

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        """Build one item; raise :class:`Reject` to have the pipeline try the next sub-seed."""
        raise NotImplementedError

    def scene_count(self, level: int) -> int | None:
        """The number of distinct scenes ``level`` holds when the generator lists them (a
        finite pool of inputs, one scene each): its items then take them in turn
        (:meth:`ItemSlot.pick`) and the pipeline no longer looks for new scenes itself;
        else None (spatialcad/run/scenes.py then estimates the space by drawing)."""
        return None

    def lists_scenes(self, level: int) -> bool:
        """Whether :meth:`scene_count` of ``level`` is not None (a generator whose count
        takes long to work out answers without it)."""
        return self.scene_count(level) is not None
