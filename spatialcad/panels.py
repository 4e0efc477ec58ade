"""An item's pictures as separate panels, each with its caption (``--images panels``).

The composite PNG stays the benchmark's one picture; a client that takes several images
per question can instead be sent its panels, cut out of the composite by the boxes the
record's ``layout`` holds (every byte of each cut is the composite's own), each after its
caption as text:

- a reference panel: its caption as drawn under it (``layout["captions"]``, e.g. "Front
  view", "Fold 1"; "Picture k" for a panel drawn without one);
- a pictured option: ``Image A`` .. ``Image D``, the names of the record's ``Choices``;
- in the judge form, the judged option alone: ``Candidate`` (its question calls it the
  candidate).

Items whose options are texts have reference panels only (the options are in the
question).  A benchmark made before captions were recorded cannot be cut into panels.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialcad.record.records import LETTERS
from spatialcad.render.png import decode_png, encode_png
from spatialcad.verify.base import crop

IMAGES = ("composite", "panels")  # what a client is sent of an item's pictures
CANDIDATE = "Candidate"

Record = dict[str, Any]


@dataclass(frozen=True)
class Panel:
    """One panel of an item's composite: its caption and its pixels."""

    caption: str
    image: np.ndarray


def check_images(images: str) -> str:
    """``images`` if it is one of ``IMAGES``; ValueError otherwise."""
    if images not in IMAGES:
        raise ValueError(f"unknown images {images!r}; choose from {', '.join(IMAGES)}")
    return images


def captions(record: Record, option: int | None = None) -> list[str]:
    """The captions of the panels :func:`panels` cuts from ``record``'s composite, in order;
    ValueError for a record made before the captions were recorded."""
    layout = record["layout"]
    if "captions" not in layout:
        raise ValueError(f"{record.get('image', 'an item')} records no panel captions (made "
                         "before spatialcad recorded them): generate the benchmark again to "
                         "send its panels")
    out = [c or f"Picture {k}" for k, c in enumerate(layout["captions"], 1)]
    if not layout["options"]:
        return out
    if option is not None:
        return [*out, CANDIDATE]
    return [*out, *(f"Image {LETTERS[k]}" for k in range(len(layout["options"])))]


def require_captions(records: Iterable[Record]) -> None:
    """ValueError (naming the item) if one of ``records`` has no recorded captions: checked
    before a run or an export starts, so nothing is half done."""
    for r in records:
        captions(r)


def panels(record: Record, image: np.ndarray, option: int | None = None) -> list[Panel]:
    """The panels of ``record``'s composite ``image``: every reference panel, then every
    pictured option (``option`` given: the judged one alone), each with its caption."""
    layout = record["layout"]
    boxes = list(layout["reference"])
    if layout["options"]:
        boxes += [layout["options"][option]] if option is not None else layout["options"]
    return [Panel(c, crop(image, b))
            for c, b in zip(captions(record, option), boxes, strict=True)]


def panel_pngs(record: Record, png: bytes, option: int | None = None
               ) -> list[tuple[str, bytes]]:
    """``(caption, PNG bytes)`` of every panel of :func:`panels`, from the item's PNG."""
    return [(p.caption, encode_png(p.image))
            for p in panels(record, decode_png(png), option)]


def listing(names: list[str]) -> str:
    """A line naming the images in the order they are given, for a client that puts every
    image before the text (VLMEvalKit, lmms-eval): ``Images, in order: 1. Front view; ...``."""
    return "Images, in order: " + "; ".join(f"{k}. {c}" for k, c in enumerate(names, 1)) + "."
