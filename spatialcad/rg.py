"""reasoning-gym datasets: ``import spatialcad.rg`` registers every task as
``spatialcad_<task>``, so ``reasoning_gym.create_dataset("spatialcad_cube_counting",
size=10, seed=42, level=1)`` works (needs the ``rl`` extra: ``pip install
spatialcad[rl]``).

Entries are the Python API's (:mod:`spatialcad.api`): ``question`` and ``answer`` are
text, and since reasoning-gym is text-first the image travels in ``metadata``
(``image``: the PNG as base64 text; ``spec``: the scene spec; ``record``: the whole
record). Every entry is plain JSON, so reasoning-gym's ``--save-metadata`` (``json.dumps``
of the entries) works; :func:`image_bytes` and :func:`image` give the PNG back as bytes or
a PIL image. ``score_answer`` is the API's: exact, on a bare answer or a model's whole reply.
With ``images="panels"`` in the config, ``metadata["images"]`` lists the entry's panels,
each ``{"caption", "image"}`` (the PNG as base64 text); :func:`panel_images` gives them
back as ``(caption, PIL image)``.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from typing import Any

from PIL import Image
from reasoning_gym.dataset import ProceduralDataset
from reasoning_gym.factory import DATASETS, register_dataset

from spatialcad import api
from spatialcad.tasks import registry

PREFIX = "spatialcad_"


@dataclass
class SpatialConfig:
    """A dataset of one task: ``size`` entries of ``level`` in ``form`` (see the API)."""

    task: str = "cube_counting"
    level: int = 1
    form: str = "choice"
    split: str | None = None
    seed: int | None = None
    size: int = 500
    images: str = "composite"  # or "panels": metadata["images"], the captioned panels

    def validate(self) -> None:
        """The API's own checks (task, level, form, split, size, seed, images): ``TypeError``
        for a value of the wrong type, ``ValueError`` for one out of range; it builds
        nothing."""
        api.create_dataset(self.task, level=self.level, size=self.size, form=self.form,
                           split=self.split, seed=0 if self.seed is None else self.seed,
                           images=self.images)


class SpatialDataset(ProceduralDataset):
    """A lazy reasoning-gym dataset over :func:`spatialcad.api.create_dataset`."""

    def __init__(self, config: SpatialConfig) -> None:
        super().__init__(config=config, seed=config.seed, size=config.size)
        self._data = api.create_dataset(config.task, level=config.level, size=config.size,
                                        seed=self.seed, form=config.form, split=config.split,
                                        images=config.images)

    def __getitem__(self, idx: int) -> dict[str, Any]:
        entry = self._data[idx]
        meta = {**entry["metadata"], "image": base64.b64encode(entry["image_bytes"]).decode(),
                "source_dataset": PREFIX + self.config.task, "source_index": idx}
        if "choices" in entry:
            meta["choices"] = entry["choices"]
        if "images" in entry:
            meta["images"] = [{"caption": p["caption"],
                               "image": base64.b64encode(p["image_bytes"]).decode()}
                              for p in entry["images"]]
        return {"question": entry["question"], "answer": entry["answer"], "metadata": meta}

    def score_answer(self, answer: Any, entry: dict[str, Any]) -> float:
        meta = entry.get("metadata") if isinstance(entry, dict) else None
        choices = meta.get("choices") if isinstance(meta, dict) else None
        return api.score_answer(answer, {**entry, "choices": choices}
                                if isinstance(entry, dict) else entry)


def image_bytes(entry: dict[str, Any]) -> bytes:
    """The PNG of a reasoning-gym ``entry`` (kept in its metadata as base64 text)."""
    return base64.b64decode(entry["metadata"]["image"], validate=True)


def image(entry: dict[str, Any]) -> Image.Image:
    """The picture of a reasoning-gym ``entry``, as an RGB PIL image."""
    return Image.open(io.BytesIO(image_bytes(entry))).convert("RGB")


def panel_images(entry: dict[str, Any]) -> list[tuple[str, Image.Image]]:
    """``(caption, RGB PIL image)`` of every panel of an entry made with
    ``images="panels"``, in order."""
    return [(p["caption"], Image.open(io.BytesIO(base64.b64decode(p["image"], validate=True)))
             .convert("RGB")) for p in entry["metadata"]["images"]]


def _config_for(task: str) -> type[SpatialConfig]:
    """A config class whose default task is ``task`` (reasoning-gym builds it from kwargs)."""
    return dataclass(type(f"SpatialConfig_{task}", (SpatialConfig,),
                          {"__annotations__": {"task": str}, "task": task}))


def register() -> list[str]:
    """Register every task not yet registered; return the names of all of them."""
    names = []
    for task in registry.tasks():
        name = PREFIX + task
        if name not in DATASETS:
            register_dataset(name, SpatialDataset, _config_for(task))
        names.append(name)
    return names


NAMES = register()
