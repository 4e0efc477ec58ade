"""The Python API: lazy, indexable datasets of verified items in any question form.

>>> import spatialcad
>>> ds = spatialcad.create_dataset("cube_counting", level=1, size=1000, seed=0)
>>> entry = ds[0]          # built now: question, answer, image (PIL), image_bytes, ...
>>> ds.score_answer("<think>...</think><answer>B</answer>", entry)

Entry ``i`` of a one-task dataset of size ``N`` is item ``i`` of ``spatialcad generate
--task T --level L --n N --seed S [--split P]``: the same record, the same PNG bytes.
Nothing is built until an entry is read, so a dataset of a million entries costs nothing
to create.  An item of a level whose scenes are listed (three_view's parts) takes its own
scene (spatialcad/run/scenes.py: none comes back before every one was used); an item of
another level keeps clear of the scenes of its block's earlier items (100 per block), so
reading entry ``i`` first makes those of them the dataset has not made yet (once: their
scenes are remembered).  :meth:`Dataset.scene_report` and each entry's
``metadata["scene_space"]`` say when a component asks for more entries than its level has
distinct scenes, and the report counts the repeated scenes among the entries read.

A mixture (a list of components, each a dict with ``task`` and optionally ``weight``,
``level``, ``form`` and ``split``; the keyword arguments are the defaults) gives component
``c`` ``n_c`` entries, the largest-remainder apportionment of ``size`` by the weights, and
its entries are items ``0..n_c-1`` of its own CLI run (``--n n_c``, the dataset's seed).
Position ``p`` of the dataset holds entry ``j = (a * p + b) mod size`` of the components
laid end to end, where ``a`` is the first integer from ``size`` times the golden ratio's
fraction (0.618...) up that is coprime with ``size``, and ``b`` is drawn from the seed: a
permutation computed per position (indexing stays lazy) that spreads every component
evenly, so any stretch of positions holds the components about in their weights.

``images="panels"`` adds ``entry["images"]``: the entry's panels cut out of its picture
(spatialcad/panels.py), in order, each ``{"caption", "image", "image_bytes"}`` (a PIL
image and its PNG), for a model that takes several images: send each caption as text
before its image.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from spatialcad import forms, panels
from spatialcad.evaluate.extract import extract, is_correct
from spatialcad.record.splits import SPLITS
from spatialcad.render.png import encode_png
from spatialcad.run import pipeline
from spatialcad.run.scenes import SceneGroup, block_start, level_space, lists_scenes
from spatialcad.seeding import derive_seed, item_rng
from spatialcad.tasks import registry

Entry = dict[str, Any]
COMPONENT_KEYS = ("task", "weight", "level", "form", "split")
GOLDEN = (math.sqrt(5) - 1) / 2  # the mixture's stride, as a fraction of its size
# The most entries a dataset may have: far beyond use (at 0.1 s an entry, 3,000 CPU-years),
# and where the floats of the apportionment and the stride are still exact to well under
# an entry (at 10**15 the counts of a mixture no longer add up to its size).
MAX_SIZE = 10**12


@dataclass(frozen=True)
class Component:
    """One task of a dataset: ``count`` items of its own CLI run."""

    task: str
    level: int
    form: str
    split: str | None
    weight: float
    count: int = 0


def _component(raw: Mapping[str, Any], level: int, form: str, split: str | None) -> Component:
    if not isinstance(raw, Mapping):
        raise TypeError(f"a mixture component is a dict with a 'task', got {raw!r}")
    if "task" not in raw:
        raise ValueError(f"a mixture component is a dict with a 'task', got {raw!r}")
    unknown = sorted(set(raw) - set(COMPONENT_KEYS))
    if unknown:
        raise ValueError(f"unknown component keys {unknown}; use {', '.join(COMPONENT_KEYS)}")
    comp = Component(_task_name(raw["task"]), _int("level", raw.get("level", level)),
                     forms.canonical(_str("form", raw.get("form", form))),
                     _split(raw.get("split", split)),
                     _number("weight", raw.get("weight", 1.0)))
    info = registry.task(comp.task)  # KeyError naming the known tasks
    if comp.form == "open" and not info.open_form:
        raise ValueError(f"{comp.task} has no open form; {_open_forms()}")
    if not info.has_level(comp.level):
        raise ValueError(f"{comp.task} has levels {info.levels_text()}, not {comp.level}")
    if comp.split is not None and comp.split not in SPLITS:
        raise ValueError(f"unknown split {comp.split!r}; choose from {', '.join(SPLITS)}")
    if not (math.isfinite(comp.weight) and comp.weight > 0):
        raise ValueError(f"{comp.task}: weight must be a positive number, got {comp.weight}")
    return comp


def _task_name(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("a task is given by its CLI name, a str such as 'cube_counting' (see "
                        f"`spatialcad tasks`), got {value!r}")
    return value


def _int(name: str, value: Any) -> int:
    """``value`` if it is an integer (not a bool, str or float); ``TypeError`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {value!r}")
    return int(value)


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    return float(value)


def _str(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {value!r}")
    return value


def _split(value: Any) -> str | None:
    return None if value is None else _str("split", value)


def _size(value: Any) -> int:
    """``value`` if it is an int from 1 to :data:`MAX_SIZE`: ``TypeError`` if it is no int
    (``"5"``, ``True``, ``5.0``), ``ValueError`` if it is out of range."""
    size = _int("size", value)
    if not 1 <= size <= MAX_SIZE:
        raise ValueError(f"size must be from 1 to {MAX_SIZE:,} entries, got {size}")
    return size


def apportion(weights: Sequence[float], size: int) -> list[int]:
    """``size`` split in proportion to ``weights`` by largest remainders (ties: first)."""
    total = sum(weights)
    quotas = [size * w / total for w in weights]
    counts = [math.floor(q) for q in quotas]
    by_remainder = sorted(range(len(weights)), key=lambda i: (counts[i] - quotas[i], i))
    for i in by_remainder[: size - sum(counts)]:
        counts[i] += 1
    return counts


@dataclass
class _Block:
    """The scenes of a component's block of items made so far (in index order), and the
    position in it from which its items stopped looking for new scenes."""

    scenes: list[str] = field(default_factory=list)
    spent_at: int | None = None


class Dataset:
    """A lazy dataset: ``len(ds)``, ``ds[i]`` (built on demand), iteration and
    :meth:`score_answer`."""

    def __init__(self, components: list[Component], size: int, seed: int,
                 options: Mapping[str, Any] | None = None, images: str = "composite") -> None:
        keys = [(c.task, c.level, c.form, c.split) for c in components]
        if len(set(keys)) < len(keys):
            raise ValueError("two components have the same task, level, form and split: "
                             "merge them (add their weights)")
        counts = apportion([c.weight for c in components], size)
        self.components = [Component(c.task, c.level, c.form, c.split, c.weight, n)
                           for c, n in zip(components, counts, strict=True)]
        self.size = size
        self.seed = seed
        self.options = dict(options or {})
        self.images = panels.check_images(images)
        self._a, self._b = 1, 0
        self._blocks: dict[tuple[str, int, str | None, int], _Block] = {}
        self._lists: dict[tuple[str, int], bool] = {}
        self._scenes: dict[tuple[str, int, str | None], dict[int, str]] = {}
        if len(components) > 1:
            self._a = max(1, round(size * GOLDEN))
            while math.gcd(self._a, size) != 1:
                self._a += 1
            self._b = int(item_rng(derive_seed(seed, "mixture")).integers(size))

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[Entry]:
        return (self[i] for i in range(self.size))

    def locate(self, i: int) -> tuple[Component, int]:
        """The component of entry ``i`` and the item index in its run; IndexError if
        ``i`` is not in ``0..len-1`` (negative indices are refused too)."""
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.size:
            raise IndexError(f"entry {i!r} is not in 0..{self.size - 1}")
        j = (self._a * i + self._b) % self.size
        for comp in self.components:
            if j < comp.count:
                return comp, j
            j -= comp.count
        raise AssertionError("apportioned counts add up to size")

    def __getitem__(self, i: int) -> Entry:
        comp, index = self.locate(i)
        judge = comp.form == "judge"  # the judged image is encoded by forms.entry
        result = self._made(comp, index, keep_image=True, encode=not judge)
        record, image = result.record, result.image
        assert image is not None
        if not forms.has_form(record, comp.form):
            fields = "Question_direct/Answer_direct" if comp.form == "open" else "judge"
            others = "; " + _open_forms() if comp.form == "open" else ""
            raise ValueError(f"{comp.task} level {comp.level} item {index} has no {comp.form} "
                             f"form (its record carries no {fields}){others}")
        option = forms.entry_option(record, i) if comp.form == "judge" else None
        made = forms.entry(record, image, None if judge else result.png, comp.form, option)
        out: Entry = {
            "question": made.question,
            "answer": made.answer,
            "image": Image.fromarray(made.image),
            "image_bytes": made.png,
            "metadata": {
                "task": comp.task, "level": comp.level, "index": index, "seed": self.seed,
                "item_seed": record["seed"], "form": comp.form, "split": comp.split,
                "spec": record["spec"], "scene_hash": record["scene_hash"],
                "judge_option": None if option is None else "ABCD"[option],
                "scene_space": _scene_entry(comp, self.options),
                "record": record,
            },
        }
        if made.choices is not None:
            out["choices"] = made.choices
        if self.images == "panels":
            out["images"] = [{"caption": p.caption, "image": Image.fromarray(p.image),
                              "image_bytes": encode_png(p.image)}
                             for p in panels.panels(record, image, option)]
        return out

    def _made(self, comp: Component, index: int, **kw: Any) -> pipeline.ItemResult:
        """Item ``index`` of the component's CLI run: clear of the scenes of its block's
        earlier items (spatialcad/run/scenes.py), which are made first where not yet known;
        an item of a level whose scenes are listed takes its own scene, made alone."""
        if self._listed(comp):
            args = (comp.task, comp.level, index, comp.count, self.seed, self.options, comp.split)
            return self._tallied(comp, index, pipeline.make_item(*args, **kw))
        key = (comp.task, comp.level, comp.split, block_start(index))
        block = self._blocks.setdefault(key, _Block())
        start = block_start(index)
        while start + len(block.scenes) < index:
            j = start + len(block.scenes)
            self._settle(comp, j, block, encode=False)
        return self._tallied(comp, index, self._settle(comp, index, block, **kw))

    def _listed(self, comp: Component) -> bool:
        """Whether the component's level lists its scenes (spatialcad/run/scenes.py)."""
        key = (comp.task, comp.level)
        if key not in self._lists:
            self._lists[key] = lists_scenes(comp.task, comp.level, self.options)
        return self._lists[key]

    def _tallied(self, comp: Component, index: int, result: pipeline.ItemResult
                 ) -> pipeline.ItemResult:
        """``result``, its scene noted as item ``index``'s (for :meth:`scene_report`)."""
        self._scenes.setdefault(_key(comp), {})[index] = result.record["scene_hash"]
        return result

    def _settle(self, comp: Component, index: int, block: _Block, **kw: Any
                ) -> pipeline.ItemResult:
        args = (comp.task, comp.level, index, comp.count, self.seed, self.options, comp.split)
        k = index - block_start(index)
        group = SceneGroup(set(block.scenes[:k]),
                           block.spent_at is not None and block.spent_at < k)
        result, repeat = pipeline.settled(
            group, pipeline.make_item(*args, **kw),
            lambda first, held: pipeline.make_item(*args, first_attempt=first, held=held, **kw))
        if k == len(block.scenes):
            block.scenes.append(result.record["scene_hash"])
            if group.spent and block.spent_at is None:
                block.spent_at = k
        return result

    def scene_report(self) -> list[dict[str, Any]]:
        """Per component: how many entries it asks for and how many distinct scenes its
        level holds (``scene_space``, as ``spatialcad tasks`` shows; None if not measured);
        ``short`` when it asks for more, so that its entries repeat scenes; ``made``: its
        entries built so far, and ``repeated``: how many of those hold the scene of a built
        entry of a lower item index (over the whole dataset once every entry was read, the
        count ``generate``'s summary and manifest give for its CLI run)."""
        return [{**_scene_entry(c, self.options), **_repeats(self._scenes.get(_key(c), {}))}
                for c in self.components]

    def score_answer(self, answer: Any, entry: Any) -> float:
        """1.0 if ``answer`` (a bare answer or a model's whole reply) gives the entry's
        answer, else 0.0; never raises, whatever ``answer`` is."""
        return score_answer(answer, entry)


def _key(c: Component) -> tuple[str, int, str | None]:
    return c.task, c.level, c.split


def _repeats(scenes: Mapping[int, str]) -> dict[str, int]:
    """``made`` and ``repeated`` of :meth:`Dataset.scene_report` from the scenes of the
    entries built, by item index."""
    seen: set[str] = set()
    repeated = 0
    for index in sorted(scenes):
        repeated += scenes[index] in seen
        seen.add(scenes[index])
    return {"made": len(scenes), "repeated": repeated}


def _scene_entry(c: Component, options: Mapping[str, Any]) -> dict[str, Any]:
    space = level_space(c.task, c.level, options)
    return {"task": c.task, "level": c.level, "entries": c.count, "scene_space": space,
            "short": space is not None and c.count > space["scenes"]}


def _open_forms() -> str:
    """Which tasks have an open form, on which items (for error messages)."""
    return "open forms: " + "; ".join(f"{t.name} ({t.open_form})"
                                      for t in registry.tasks().values() if t.open_form)


def score_answer(answer: Any, entry: Any) -> float:
    """Score ``answer`` against an entry of any form (see :meth:`Dataset.score_answer`)."""
    if not isinstance(answer, str) or not isinstance(entry, Mapping):
        return 0.0
    meta = entry.get("metadata")
    gold = entry.get("answer")
    form = meta.get("form") if isinstance(meta, Mapping) else None
    if not isinstance(gold, str) or form not in forms.FORMS:
        return 0.0
    choices = entry.get("choices")
    listed = [str(c) for c in choices] if isinstance(choices, list) else None
    right = is_correct(form, extract(form, answer, listed).value, gold)
    return 1.0 if right else 0.0


def create_dataset(tasks: str | Sequence[Mapping[str, Any]] | None = None, *,
                   task: str | None = None, level: int = 1, size: int = 100, seed: int = 0,
                   form: str = "choice", split: str | None = None,
                   options: Mapping[str, Any] | None = None,
                   images: str = "composite") -> Dataset:
    """A lazy dataset of one task (its CLI name, as ``tasks`` or ``task=``) or a mixture (a
    list of component dicts ``{"task", "weight", "level", "form", "split"}``; see the
    module docstring).  ``options`` are the run's task settings (as ``generate``'s, e.g.
    ``deepcad_dir``); ``images="panels"`` adds each entry's captioned panels.  Arguments
    of the wrong type (``seed="0"``, ``level=True``, ``size="5"``, ``task=None``) raise
    ``TypeError``; they are never converted.  ``size`` is from 1 to :data:`MAX_SIZE`, else
    ``ValueError``."""
    if (tasks is None) == (task is None):
        raise TypeError("create_dataset takes one task name (tasks='cube_counting' or "
                        "task='cube_counting') or a list of component dicts (tasks=[...]), "
                        f"got tasks={tasks!r}, task={task!r}")
    size = _size(size)
    if task is not None or isinstance(tasks, str):
        raw: list[Any] = [{"task": _task_name(task if task is not None else tasks)}]
    elif isinstance(tasks, Sequence):
        raw = list(tasks)
    else:
        raise TypeError(f"tasks must be a task name or a list of component dicts, got "
                        f"{tasks!r}")
    if not raw:
        raise ValueError("give a task name or a non-empty list of components")
    seed = _int("seed", seed)
    comps = [_component(c, level, form, split) for c in raw]
    return Dataset(comps, size, seed, options, _str("images", images))
