"""``spatialcad audit``: the pictures at the size a model sees them.

Per task: the composite's size (w x h, megapixels) and whether it fits ``MAX_PIXELS``
(1,003,520 = 1280 x 28 x 28, Qwen2.5-VL's default ``max_pixels``), the linear factor
Qwen2.5-VL's ``smart_resize`` applies to it (both sides rounded to multiples of 28, then
scaled down until w x h <= max_pixels; the smaller of the two sides' factors), and at that
size the smallest sizes a reader must tell apart:

- cube edge, dot and section piece: what the task's own verifier measures with
  ``render/legibility.py`` (collected by :func:`legibility.measuring`);
- dash: a hidden line's dash in an engineering view (``engineering.DASH``);
- caption: the cap height of the reference captions' letters, at the font scale
  ``render/layout.compose`` drew them with.

A task whose pictures have no such thing (or whose verifier does not measure it) shows
``n/a``.  Each cell is the task's smallest item: "native -> resized" px.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spatialcad.render import legibility
from spatialcad.render.drawing import FONT, put_text_block
from spatialcad.render.layout import CAPTION_H, CAPTION_SCALE, CAPTION_THICKNESS, caption_width
from spatialcad.render.opencv import cv2
from spatialcad.run.verification import run_verifier

MAX_PIXELS = 1_003_520  # Qwen2.5-VL's default max_pixels: 1280 patches of 28 x 28
FACTOR = 28  # its side multiple: a 14 px patch merged 2 x 2
MIN_PIXELS = 56 * 56
MEASURES = ("cube edge", "dot", "section piece", "dash", "caption")

Record = dict[str, Any]


def smart_resize(width: int, height: int, max_pixels: int = MAX_PIXELS,
                 factor: int = FACTOR, min_pixels: int = MIN_PIXELS) -> tuple[int, int]:
    """(width, height) Qwen2.5-VL resizes a picture to (qwen_vl_utils' ``smart_resize``):
    each side rounded to a multiple of ``factor``; scaled down (sides floored) when the
    area then exceeds ``max_pixels``, up (sides ceiled) when it is under ``min_pixels``."""
    h = max(factor, round(height / factor) * factor)
    w = max(factor, round(width / factor) * factor)
    if h * w > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h = max(factor, math.floor(height / beta / factor) * factor)
        w = max(factor, math.floor(width / beta / factor) * factor)
    elif h * w < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h = math.ceil(height * beta / factor) * factor
        w = math.ceil(width * beta / factor) * factor
    return w, h


def resize_factor(width: int, height: int, max_pixels: int = MAX_PIXELS) -> float:
    """The factor a length of the picture is shown at after :func:`smart_resize` (the
    smaller of the two sides')."""
    w, h = smart_resize(width, height, max_pixels)
    return min(w / width, h / height)


def caption_px(caption: str, panel_w: int) -> float:
    """The cap height of ``caption``'s letters as ``compose`` draws it under a reference
    panel ``panel_w`` px wide (its font shrinks where the caption needs it to fit)."""
    band = np.full((CAPTION_H, caption_width(panel_w), 3), 255, dtype=np.uint8)
    scale = put_text_block(band, caption, (0, 0, band.shape[1], CAPTION_H),
                           font_scale=CAPTION_SCALE, thickness=CAPTION_THICKNESS)
    thickness = max(1, int(round(CAPTION_THICKNESS * min(1.0, scale / CAPTION_SCALE))))
    (_, cap), _ = cv2.getTextSize("H", FONT, scale, thickness)
    return float(cap)


@dataclass
class ItemSizes:
    """One item's picture size and its smallest measures, native px (None: none)."""

    task: str
    width: int
    height: int
    measures: dict[str, float | None]
    verified: bool = True
    captions_recorded: bool = True  # False: made before records held their captions

    @property
    def factor(self) -> float:
        return resize_factor(self.width, self.height)


def item_sizes(record: Record, image: np.ndarray) -> ItemSizes:
    """The sizes of one item: its verifier's legibility measures and its captions'."""
    with legibility.measuring() as found:
        failures = run_verifier(record, image)
    measures: dict[str, float | None] = {
        m: min((px for name, px in found if name == m), default=None) for m in MEASURES}
    layout = record["layout"]
    captions = [caption_px(c, box[2]) for c, box in
                zip(layout.get("captions", []), layout["reference"], strict=False) if c]
    measures["caption"] = min(captions, default=None)
    height, width = image.shape[:2]
    return ItemSizes(record["Task"], int(width), int(height), measures, not failures,
                     "captions" in layout)


@dataclass
class TaskSizes:
    """A task's items: the largest picture and each measure's smallest resized item."""

    task: str
    items: list[ItemSizes] = field(default_factory=list)

    def largest(self) -> ItemSizes:
        return max(self.items, key=lambda i: (i.width * i.height, i.width))

    def fitting(self) -> int:
        return sum(i.width * i.height <= MAX_PIXELS for i in self.items)

    def smallest(self, measure: str) -> tuple[float, float] | None:
        """(native px, px at the resized size) of the item where it is smallest resized."""
        sized = [(px, px * i.factor) for i in self.items
                 if (px := i.measures[measure]) is not None]
        return min(sized, key=lambda pair: pair[1], default=None)


def by_task(items: Iterable[ItemSizes]) -> list[TaskSizes]:
    out: dict[str, TaskSizes] = {}
    for item in items:
        out.setdefault(item.task, TaskSizes(item.task)).items.append(item)
    return list(out.values())


def _cell(pair: tuple[float, float] | None) -> str:
    return "n/a" if pair is None else f"{pair[0]:.1f} -> {pair[1]:.1f}"


def table(tasks: list[TaskSizes]) -> str:
    """The markdown report of :func:`by_task`'s tasks."""
    head = ["task", "items", "largest picture", "MP", f"fit {MAX_PIXELS:,} px",
            "smallest factor", *(f"{m} px" for m in MEASURES)]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for t in tasks:
        big = t.largest()
        factor = min(i.factor for i in t.items)
        lines.append("| " + " | ".join([
            t.task, str(len(t.items)), f"{big.width} x {big.height}",
            f"{big.width * big.height / 1e6:.2f}", f"{t.fitting()}/{len(t.items)}",
            f"{factor:.3f}", *(_cell(t.smallest(m)) for m in MEASURES)]) + " |")
    failed = sum(not i.verified for t in tasks for i in t.items)
    unknown = sum(not i.captions_recorded for t in tasks for i in t.items)
    note = (f"\n{failed} items failed verification: their measures may be incomplete "
            "(`spatialcad verify` lists why).\n" if failed else "")
    if unknown:
        note += (f"\n{unknown} items record no captions (made before records held them): "
                 "their caption sizes are not known.\n")
    return (f"Pictures at the size a model sees them: Qwen2.5-VL's smart resize to at most "
            f"{MAX_PIXELS:,} px (sides multiples of {FACTOR}); px: native -> resized, the "
            "task's smallest item; n/a: the task's pictures have none.\n\n"
            + "\n".join(lines) + "\n" + note)
