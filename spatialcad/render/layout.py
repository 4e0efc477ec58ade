"""The composite image of one item: a captioned reference row and a lettered options row.

``MAX_PIXELS`` is Qwen2.5-VL's default ``max_pixels``, below which the usual vision front
ends (Qwen2.5-VL, GPT-4o, Claude) show a picture at its own size: a larger composite would
be shrunk before a model sees it, and every cube edge, dash and caption with it, below the
legibility rules proved at full size (render/legibility.py).  Tasks lay their pictures out
to fit it rather than shrink them: :func:`compose` refuses a larger composite
(:class:`TooLarge`, a candidate the pipeline draws again) and the shared verification
(spatialcad/run/verification.py) checks every stored image against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .drawing import FONT, put_text_block
from .opencv import cv2

PAD = 16  # outer padding
GAP = 24  # horizontal gap between panels
CAPTION_H = 40  # caption band under reference panels
CAPTION_SCALE = 0.75  # caption font scale (smaller where a caption needs it to fit)
CAPTION_THICKNESS = 2
LABEL_H = 60  # letter band under option panels
LABEL_SCALE = 1.6  # option letters: about 36 px tall
LABEL_THICKNESS = 3
RULE = (170, 170, 170)  # thin grey rules
WHITE = (255, 255, 255)
WIDTH = 1280  # the composite's usual width
MAX_WIDTH = 2048  # a row of large panels widens the composite up to this
MAX_PIXELS = 1_003_520  # width x height of every composite (Qwen2.5-VL's max_pixels)


class TooLarge(ValueError):
    """A composite of more than ``MAX_PIXELS`` pixels was asked for."""


def too_large(width: int, height: int) -> str | None:
    """Why a composite of this size breaks the pixel limit, or None when it keeps it."""
    if width * height > MAX_PIXELS:
        return (f"the composite is {width} x {height} = {width * height:,} pixels, more than "
                f"{MAX_PIXELS:,}")
    return None


def _rgb(img: np.ndarray) -> np.ndarray:
    a = np.asarray(img)
    if a.ndim == 2:
        a = np.repeat(a[:, :, None], 3, axis=2)
    if a.ndim != 3 or a.shape[2] != 3 or a.dtype != np.uint8:
        raise ValueError(f"panels must be RGB uint8 (H, W, 3), got {a.dtype} {a.shape}")
    return a


def _fit_row(panels: list[np.ndarray], avail: int) -> list[np.ndarray]:
    """Panels at native size, or all scaled down by one factor if the row is too wide."""
    need = sum(p.shape[1] for p in panels) + GAP * (len(panels) - 1)
    if need <= avail:
        return panels
    f = max(1e-3, (avail - GAP * (len(panels) - 1)) / sum(p.shape[1] for p in panels))
    out = []
    for p in panels:
        w = max(1, int(p.shape[1] * f))
        h = max(1, int(round(p.shape[0] * f)))
        out.append(cv2.resize(p, (w, h), interpolation=cv2.INTER_AREA))
    return out


def _row_boxes(panels: list[np.ndarray], width: int, y: int) -> list[list[int]]:
    """[x, y, w, h] of each panel of a row centred horizontally, tops at ``y``."""
    total = sum(p.shape[1] for p in panels) + GAP * (len(panels) - 1)
    x = (width - total) // 2
    boxes = []
    for p in panels:
        boxes.append([x, y, int(p.shape[1]), int(p.shape[0])])
        x += p.shape[1] + GAP
    return boxes


def caption_width(panel_w: int) -> int:
    """The width of the caption band under a reference panel ``panel_w`` px wide."""
    return panel_w + GAP - 4


def height(reference_h: int, options_h: int) -> int:
    """The composite's height for a captioned reference row and an options row of these
    panel heights (the vertical plan of ``compose``, without a title)."""
    return PAD + reference_h + 4 + CAPTION_H + 10 + 20 + options_h + LABEL_H + PAD


def compose(
    reference: list[tuple[np.ndarray, str]],
    options: list[np.ndarray] | None = None,
    *,
    width: int | None = None,
    labels: Sequence[str] = "ABCD",
    title: str | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Compose an item image of ``width`` px: reference row, then options row.

    ``width`` None: ``WIDTH``, or as wide as the wider row needs, up to ``MAX_WIDTH``.

    Reference panels sit side by side with their captions centred beneath; option panels
    get large letters beneath and thin grey rules between them. A row wider than the
    image is scaled down uniformly (INTER_AREA); a composite of more than ``MAX_PIXELS``
    raises :class:`TooLarge`. Returns (image, layout), where layout
    holds "width", "height", the [x, y, w, h] box of every panel image under "reference"
    and "options" (crop = image[y:y + h, x:x + w]) and the reference panels' captions
    under "captions" (what a reader sends beside each panel cut out on its own).
    """
    if width is None:
        rows = [[img for img, _ in reference], list(options or [])]
        need = max((sum(p.shape[1] for p in row) + GAP * (len(row) - 1) + 2 * PAD
                    for row in rows if row), default=WIDTH)
        width = min(MAX_WIDTH, max(WIDTH, need))
    width = int(width)
    avail = width - 2 * PAD
    if avail < 16:
        raise ValueError(f"width {width} is too small")
    refs = [_rgb(img) for img, _ in reference]
    captions = [str(c) for _, c in reference]
    opts = [_rgb(o) for o in options] if options else []
    if len(opts) > len(labels):
        raise ValueError(f"{len(opts)} options but only {len(labels)} labels")
    refs = _fit_row(refs, avail) if refs else []
    opts = _fit_row(opts, avail) if opts else []

    # vertical plan
    y = PAD
    title_box = None
    if title:
        title_h = 70
        title_box = (PAD, y, avail, title_h)
        y += title_h + 8
    ref_boxes = _row_boxes(refs, width, y) if refs else []
    if refs:
        y += max(p.shape[0] for p in refs)
        cap_y = y + 4
        if any(captions):
            y += CAPTION_H + 4
    rule_y = None
    opt_boxes: list[list[int]] = []
    if opts:
        if refs or title:
            rule_y = y + 10
            y = rule_y + 20
        opt_boxes = _row_boxes(opts, width, y)
        y += max(p.shape[0] for p in opts)
        label_y = y + 4
        y += LABEL_H
    height = y + PAD

    if (why := too_large(width, height)) is not None:
        raise TooLarge(why)
    canvas = np.full((height, width, 3), 255, dtype=np.uint8)
    if title and title_box is not None:
        put_text_block(canvas, title, title_box, font_scale=0.8, thickness=2, align="center")
    for (x, yy, w, h), p, cap in zip(ref_boxes, refs, captions, strict=True):
        canvas[yy : yy + h, x : x + w] = p
        if cap:
            box = (x - GAP // 2 + 2, cap_y, caption_width(w), CAPTION_H)
            put_text_block(canvas, cap, box, font_scale=CAPTION_SCALE,
                           thickness=CAPTION_THICKNESS, align="center")
    if rule_y is not None:
        cv2.line(canvas, (PAD, rule_y), (width - 1 - PAD, rule_y), RULE, 1)
    for i, ((x, yy, w, h), p) in enumerate(zip(opt_boxes, opts, strict=True)):
        canvas[yy : yy + h, x : x + w] = p
        text = str(labels[i])
        (tw, th), _ = cv2.getTextSize(text, FONT, LABEL_SCALE, LABEL_THICKNESS)
        org = (x + (w - tw) // 2, label_y + (LABEL_H - 8 + th) // 2)
        cv2.putText(canvas, text, org, FONT, LABEL_SCALE, (0, 0, 0), LABEL_THICKNESS, cv2.LINE_AA)
        if i > 0:
            xr = x - GAP // 2
            cv2.line(canvas, (xr, yy), (xr, label_y + LABEL_H - 6), RULE, 1)
    layout = {
        "width": width,
        "height": int(height),
        "reference": ref_boxes,
        "options": opt_boxes,
        "captions": captions,
    }
    return canvas, layout
