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

    def pick(self, count: int, *key: object) -> int:
        """This item's place among ``count`` listed scenes (``key``: which list, e.g. the
        level): entry ``index mod count`` of a permutation drawn from the run's seed, so
        items ``k*count .. (k+1)*count - 1`` take every scene once, whatever other items
        the process makes (jobs, shards, resumed runs, API entries)."""
        return scene_order(self.seed, count, *key)[self.index % count]


OWN_ATTEMPTS = 8  # attempts an item tries its own listed scene before drawing another


@dataclass
class OwnScene:
    """The attempts one item has given its own listed scene (:meth:`ItemSlot.pick`): each of
    its first ``OWN_ATTEMPTS`` attempts tries it anew (another similarity-rank target,
    other distractors); after that, or once :meth:`give_up` (the scene cannot make an
    item), the generator draws a scene as without a slot (a repeat, counted)."""

    slot: ItemSlot | None
    tried: int = 0

    def next(self, count: int, *key: object) -> int | None:
        """The own scene's place among ``count`` (``key``: as for :meth:`ItemSlot.pick`)
        for this attempt, or None (no slot, or its attempts are used up)."""
        if self.slot is None or self.tried >= OWN_ATTEMPTS:
            return None
        self.tried += 1
        return self.slot.pick(count, *key)

    def give_up(self) -> None:
        self.tried = OWN_ATTEMPTS


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
