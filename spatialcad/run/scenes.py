"""No repeated scene in a run: which scene an item takes, or must keep clear of.

A level whose scenes its generator lists (``Generator.scene_count`` is not None: a folder
of parts) gives item ``i`` of a task the scene ``ItemSlot.pick`` names: entry ``i mod S``
of a permutation of the ``S`` scenes drawn from the run's seed.  So items ``k*S .. (k+1)*S
- 1`` take every scene once, run-wide, and item ``i``'s scene is known without the other
items: the same for any ``--jobs``, shard split, ``--resume``, API entry or reasoning-gym
entry.  (An item whose own scene makes no item within its attempts takes another one: a
repeat, counted.)

Other levels (spaces too large to list) keep the block check: the items of one task are
taken in blocks of ``SCENE_BLOCK`` indices (``[0, 100)``, ``[100, 200)``, ...).  Within a
block, item ``i`` is the first verified candidate whose scene hash (the task's
``spec.scene_key``, spatialcad/derived.py) no earlier item of the block holds; when none of
``SCENE_ATTEMPTS`` further candidates is new, the level's scene space is spent for that
block: the item keeps its first verified candidate (a repeat) and the block's later items
no longer look.  (With a fifth of the space still free, 25 candidates all repeating happen
with odds under 0.8^25 = 0.4%.)  So an item depends only on the items before it in its
block, in index order: the output is the same whatever ``--jobs`` is; a shard or a resumed
run first remakes the block's items before its own first one (at most ``SCENE_BLOCK -
1``, not written); a shard's files stay those of the unsharded run, and ``merge`` joins
them unchanged; an API entry is the CLI item (spatialcad/api.py remakes the block's earlier
items once).  Splits stay leak-free: an item's split is still decided by its scene hash
alone.  Repeats across blocks are possible; every run counts its repeats run-wide
(``SceneTally``, spatialcad/record/benchmark.py: the summary, the manifest's
``repeated_scenes``, ``verify``'s recount).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import click

from spatialcad.derived import scene_hash
from spatialcad.seeding import derive_seed, item_rng
from spatialcad.tasks import registry
from spatialcad.tasks.base import Reject
from spatialcad.tasks.registry import TaskInfo

SCENE_BLOCK = 100
SCENE_ATTEMPTS = 25  # candidates an item tries for a scene its block does not hold


def block_start(index: int) -> int:
    """The first index of ``index``'s block."""
    return index - index % SCENE_BLOCK


@dataclass
class SceneGroup:
    """The scenes of one block's items so far (one task, one level, one run)."""

    held: set[str] = field(default_factory=set)
    spent: bool = False  # an item found no new scene: the later ones stop looking


class SceneGroups:
    """The current block's :class:`SceneGroup` of a run whose items come in order."""

    def __init__(self) -> None:
        self._key: tuple[str, int] | None = None
        self._group = SceneGroup()

    def of(self, task: str, index: int) -> SceneGroup:
        key = (task, block_start(index))
        if key != self._key:
            self._key, self._group = key, SceneGroup()
        return self._group


def lists_scenes(task: str, level: int, options: Mapping[str, Any] | None = None) -> bool:
    """Whether ``task``'s generator lists ``level``'s scenes (its items take them in turn,
    ``ItemSlot.pick``) rather than drawing them (the block check)."""
    return registry.task(task).generator(options).lists_scenes(level)


def level_space(task: str, level: int, options: Mapping[str, Any] | None = None
                ) -> dict[str, Any] | None:
    """The scene space of ``task``'s level for a run with ``options``: counted by the
    generator where it lists its scenes (three_view's parts, from ``deepcad_dir`` too),
    else as last measured (:func:`scene_space`; None if not measured)."""
    count = registry.task(task).generator(options).scene_count(level)
    if count is not None:
        return {"scenes": count, "how": "counted", "draws": 0, "seen": count}
    return scene_space(task, level)


SPACES_FILE = Path(__file__).with_name("scene_spaces.json")
DRAWS = 400  # candidates drawn per level by ``python -m spatialcad.run.scenes``


def scene_space(task: str, level: int) -> dict[str, Any] | None:
    """How many distinct scenes ``task``'s level holds, as ``python -m spatialcad.run.scenes``
    last measured it: ``{"scenes", "how", "draws", "seen"}``, or None if not measured."""
    spaces = _spaces()
    return spaces.get(task, {}).get(str(level))


@cache
def _spaces() -> dict[str, dict[str, dict[str, Any]]]:
    if not SPACES_FILE.is_file():
        return {}
    data: dict[str, dict[str, dict[str, Any]]] = json.loads(SPACES_FILE.read_text())
    return data


def measure(hashes: list[str], draws: int) -> dict[str, Any]:
    """The scene space behind ``hashes``, the scenes of ``draws`` independent candidates:
    "counted" when every scene drawn came at least twice (the draws then cover the space,
    but for scenes rarer than about 1 / draws), else "estimated" by Chao's bias-corrected
    estimator d + f1 (f1 - 1) / (2 (f2 + 1)) (f1, f2: scenes drawn once, twice), "at least"
    that when no scene came twice (the space is then likely larger still)."""
    counts = Counter(hashes)
    seen = len(counts)
    f1 = sum(1 for c in counts.values() if c == 1)
    f2 = sum(1 for c in counts.values() if c == 2)
    if seen and not f1:
        return {"scenes": seen, "how": "counted", "draws": draws, "seen": seen}
    how = "estimated" if seen < len(hashes) else "at least"  # no scene came twice: a rough
    return {"scenes": seen + f1 * (f1 - 1) // (2 * (f2 + 1)), "how": how,  # lower bound
            "draws": draws, "seen": seen}


def draw_scenes(task: TaskInfo, level: int, draws: int) -> list[str]:
    """The scene hashes of ``draws`` candidates of ``task``'s level (Rejects left out), from
    seeds of their own (no run's)."""
    generator = task.generator()
    out = []
    for k in range(draws):
        try:
            draft = generator.build(level, item_rng(derive_seed(0, "scene space", task.name,
                                                                level, k)))
        except Reject:
            continue
        out.append(scene_hash(task, draft.spec))
    return out


def _space(task: TaskInfo, level: int, draws: int) -> dict[str, Any]:
    """The level's scene space: counted by the generator where it knows it, else
    :func:`measure`'d from ``draws`` candidates."""
    if lists_scenes(task.name, level):
        space = level_space(task.name, level)
        assert space is not None
        return space
    return measure(draw_scenes(task, level, draws), draws)


@click.command()
@click.option("--draws", type=click.IntRange(min=2), default=DRAWS, show_default=True,
              help="Candidates drawn per task and level.")
@click.argument("names", metavar="[TASK]...", nargs=-1)
def main(draws: int, names: tuple[str, ...]) -> None:
    """Measure the scene spaces of levels 0-2 of TASKs (all by default) and store them in
    scene_spaces.json, which `spatialcad tasks` and the API's Dataset.scene_report read.
    Run it again after changing a generator."""
    unknown = [n for n in names if n not in registry.tasks()]
    if unknown:
        raise click.UsageError(f"unknown task {unknown[0]!r}; choose from: "
                               f"{', '.join(registry.tasks())}")
    spaces = dict(_spaces())
    for name in names or registry.tasks():
        task = registry.task(name)
        spaces[name] = {str(level): _space(task, level, draws)
                        for level in range(3) if task.has_level(level)}
        click.echo(f"{name} {spaces[name]}")
    SPACES_FILE.write_text(json.dumps(spaces, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
