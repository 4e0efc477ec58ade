"""The composite image of one item: a captioned reference row and a lettered options row,
or, where those rows would hold more than ``MAX_PIXELS``, the same panels arranged
otherwise (:func:`arrangement`), each at its own size.

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
from dataclasses import dataclass
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
TITLE_H = 70  # a title's band above everything
SEPARATION = 30  # between the references and the options, and between option rows: a rule
ROW_GAP = 20  # between reference panels stacked one above the other


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
    need = _row_width(_sizes(panels))
    if need <= avail:
        return panels
    f = max(1e-3, (avail - GAP * (len(panels) - 1)) / sum(p.shape[1] for p in panels))
    out = []
    for p in panels:
        w = max(1, int(p.shape[1] * f))
        h = max(1, int(round(p.shape[0] * f)))
        out.append(cv2.resize(p, (w, h), interpolation=cv2.INTER_AREA))
    return out


def caption_width(panel_w: int) -> int:
    """The width of the caption band under a reference panel ``panel_w`` px wide."""
    return panel_w + GAP - 4


def height(reference_h: int, options_h: int) -> int:
    """The composite's height for a captioned reference row and an options row of these
    panel heights (the vertical plan of the usual rows, without a title)."""
    return PAD + reference_h + 4 + CAPTION_H + 10 + 20 + options_h + LABEL_H + PAD


Size = tuple[int, int]  # a panel's (width, height)
Row = tuple[str, tuple[int, ...]]  # "reference" or "options", and the panels' indices


@dataclass(frozen=True)
class Shape:
    """An arrangement of the panels: the references in rows of ``reference_columns``, the
    options in rows of ``option_columns``, beneath them or (``beside``) to their right."""

    reference_columns: int
    option_columns: int
    beside: bool = False


@dataclass(frozen=True)
class Plan:
    """Where :func:`compose` puts everything, decided by the panels' sizes alone."""

    shape: Shape  # how the panels are arranged
    width: int
    height: int
    reference: list[list[int]]  # [x, y, w, h] of each reference panel
    options: list[list[int]]  # [x, y, w, h] of each option panel
    caption_y: list[int]  # the top of each reference panel's caption band
    label_y: list[int]  # the top of each option's letter band
    rules: list[tuple[int, int, int, int]]  # thin grey lines, (x0, y0, x1, y1)
    title_box: tuple[int, int, int, int] | None

    def fits(self) -> bool:
        """Both sides within ``MAX_WIDTH`` and the area within ``MAX_PIXELS``."""
        return (max(self.width, self.height) <= MAX_WIDTH
                and too_large(self.width, self.height) is None)


def _sizes(panels: Sequence[np.ndarray]) -> list[Size]:
    return [(int(p.shape[1]), int(p.shape[0])) for p in panels]


def _row_width(sizes: Sequence[Size]) -> int:
    return sum(w for w, _ in sizes) + GAP * (len(sizes) - 1)


class _Planner:
    """Places rows of panels (each panel with its caption or letter band beneath, the bands
    of a row level under its tallest panel) in sections side by side: a section's rows
    stacked top down, each centred in the section; sections parted by grey rules."""

    def __init__(self, reference: Sequence[Size], options: Sequence[Size], *,
                 captioned: bool, title: bool) -> None:
        self.sizes = {"reference": list(reference), "options": list(options)}
        self.bands = {"reference": CAPTION_H + 4 if captioned else 0, "options": LABEL_H}
        self.title = title
        self.top = PAD + (TITLE_H + 8 if title else 0)

    def row_width(self, row: Row) -> int:
        kind, indices = row
        return _row_width([self.sizes[kind][i] for i in indices])

    def row_height(self, row: Row) -> int:
        kind, indices = row
        return max(self.sizes[kind][i][1] for i in indices) + self.bands[kind]

    def before(self, rows: Sequence[Row], k: int) -> int:
        """The space above row ``k`` of a section: none above the first (unless it is an
        options row under the title), ``SEPARATION`` above options, ``ROW_GAP`` between
        reference rows."""
        kind = rows[k][0]
        if kind == "options":
            return SEPARATION if k > 0 or self.title else 0
        return ROW_GAP if k > 0 else 0

    def plan(self, shape: Shape, width: int | None = None) -> Plan:
        """The plan of ``shape`` (its sections side by side; one section: as wide as
        ``width``, or as its widest row)."""
        sections = self.sections(shape)
        widths = [max((self.row_width(r) for r in rows), default=0) for rows in sections]
        if width is None:
            width = 2 * PAD + sum(widths) + SEPARATION * (len(sections) - 1)
        if len(sections) == 1:
            widths = [width - 2 * PAD]
        boxes: dict[str, dict[int, list[int]]] = {"reference": {}, "options": {}}
        bands: dict[str, dict[int, int]] = {"reference": {}, "options": {}}
        rules: list[tuple[int, int, int, int]] = []
        bottom = self.top
        x0 = PAD
        for rows, cw in zip(sections, widths, strict=True):
            y = self.top
            for k, row in enumerate(rows):
                kind, indices = row
                space = self.before(rows, k)
                if kind == "options" and space:  # a rule across the section above options
                    rules.append((x0, y + 10, x0 + cw - 1, y + 10))
                y += space
                x = x0 + (cw - self.row_width(row)) // 2
                band_y = y + max(self.sizes[kind][i][1] for i in indices) + 4
                for j, i in enumerate(indices):
                    w, h = self.sizes[kind][i]
                    boxes[kind][i] = [x, y, w, h]
                    bands[kind][i] = band_y
                    if kind == "options" and j > 0:
                        rules.append((x - GAP // 2, y, x - GAP // 2, band_y + LABEL_H - 6))
                    x += w + GAP
                y += self.row_height(row)
            bottom = max(bottom, y)
            x0 += cw + SEPARATION
        height = bottom + PAD
        for k in range(1, len(sections)):  # a rule between two sections
            xr = PAD + sum(widths[:k]) + SEPARATION * (k - 1) + SEPARATION // 2
            rules.append((xr, self.top, xr, height - 1 - PAD))
        return Plan(
            shape=shape, width=width, height=height,
            reference=[boxes["reference"][i] for i in range(len(self.sizes["reference"]))],
            options=[boxes["options"][i] for i in range(len(self.sizes["options"]))],
            caption_y=[bands["reference"][i] for i in range(len(self.sizes["reference"]))],
            label_y=[bands["options"][i] for i in range(len(self.sizes["options"]))],
            rules=rules,
            title_box=(PAD, PAD, width - 2 * PAD, TITLE_H) if self.title else None,
        )

    def all(self, kind: str) -> tuple[int, ...]:
        return tuple(range(len(self.sizes[kind])))

    def sections(self, shape: Shape) -> list[list[Row]]:
        """The rows of each section of ``shape``: the reference rows, then the option rows
        (beside: in a second section)."""
        refs, opts = self.all("reference"), self.all("options")
        ref_rows: list[Row] = [("reference", refs[k : k + shape.reference_columns])
                               for k in range(0, len(refs), shape.reference_columns)]
        opt_rows: list[Row] = [("options", opts[k : k + shape.option_columns])
                               for k in range(0, len(opts), shape.option_columns)]
        return [ref_rows, opt_rows] if shape.beside else [ref_rows + opt_rows]

    def rows(self) -> Shape:
        """The usual shape: the references in one row, the options in one row beneath."""
        return Shape(max(1, len(self.sizes["reference"])), max(1, len(self.sizes["options"])))

    def shapes(self) -> list[Shape]:
        """Every shape, the usual rows first: the references in rows of any length (the
        longest first), the options in one row, rows of two or one column, beneath the
        references or (when there are both) beside them."""
        n, m = len(self.sizes["reference"]), len(self.sizes["options"])
        option_columns = sorted({max(1, m), max(1, (m + 1) // 2), 1}, reverse=True)
        placements = (False, True) if n and m else (False,)
        return [Shape(r, o, beside) for beside in placements
                for r in range(max(1, n), 0, -1) for o in option_columns]


def arrangement(reference: Sequence[Size], options: Sequence[Size], *,
                captioned: bool = True, title: bool = False) -> Plan | None:
    """The plan :func:`compose` follows for panels of these (width, height) sizes, each
    panel at its own size with its caption or letter beneath it: the usual rows (the
    references in a row, the options in a row beneath, at least ``WIDTH`` wide) when they
    fit the composite (``Plan.fits``), else the :class:`Shape` of the smallest area that
    fits, each as narrow as its rows (the first of ``_Planner.shapes`` among equal areas):
    e.g. the options in a 2 x 2 grid under the references, the references stacked beside
    that grid, everything in one row, or the rows narrower than ``WIDTH``; None when none
    fits.  ``captioned``: the reference panels have captions (a
    caption band beneath them)."""
    planner = _Planner(reference, options, captioned=captioned, title=title)
    rows = planner.rows()
    need = max((planner.row_width(r) for r in planner.sections(rows)[0]), default=0) + 2 * PAD
    if need <= MAX_WIDTH and (plan := planner.plan(rows, max(WIDTH, need))).fits():
        return plan
    plans = [planner.plan(shape) for shape in planner.shapes()]
    return min((p for p in plans if p.fits()), key=lambda p: p.width * p.height,
               default=None)


def compose(
    reference: list[tuple[np.ndarray, str]],
    options: list[np.ndarray] | None = None,
    *,
    width: int | None = None,
    labels: Sequence[str] = "ABCD",
    title: str | None = None,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Compose an item image: the reference panels, each with its caption beneath, and the
    option panels, each with a large letter beneath and thin grey rules between them.

    ``width`` None: laid out as :func:`arrangement` decides, every panel at its own size
    (the rows ``WIDTH`` wide, or as wide as the wider row needs); when no arrangement fits,
    the rows ``MAX_WIDTH`` wide at most.  ``width`` given: the rows that wide.  A row wider
    than the image is scaled down uniformly (INTER_AREA); a composite of more than
    ``MAX_PIXELS`` raises :class:`TooLarge`.  Returns (image, layout), where layout holds
    "width", "height", the [x, y, w, h] box of every panel image under "reference" and
    "options" (crop = image[y:y + h, x:x + w]) and the reference panels' captions under
    "captions" (what a reader sends beside each panel cut out on its own).
    """
    refs = [_rgb(img) for img, _ in reference]
    captions = [str(c) for _, c in reference]
    opts = [_rgb(o) for o in options] if options else []
    if len(opts) > len(labels):
        raise ValueError(f"{len(opts)} options but only {len(labels)} labels")
    captioned = any(captions)
    plan = None if width is not None else arrangement(
        _sizes(refs), _sizes(opts), captioned=captioned, title=bool(title))
    if plan is None:
        if width is None:
            need = max((_row_width(_sizes(row)) + 2 * PAD for row in (refs, opts) if row),
                       default=WIDTH)
            width = min(MAX_WIDTH, max(WIDTH, need))
        width = int(width)
        avail = width - 2 * PAD
        if avail < 16:
            raise ValueError(f"width {width} is too small")
        refs = _fit_row(refs, avail) if refs else []
        opts = _fit_row(opts, avail) if opts else []
        planner = _Planner(_sizes(refs), _sizes(opts), captioned=captioned, title=bool(title))
        plan = planner.plan(planner.rows(), width)
    if (why := too_large(plan.width, plan.height)) is not None:
        raise TooLarge(why)

    canvas = np.full((plan.height, plan.width, 3), 255, dtype=np.uint8)
    if title and plan.title_box is not None:
        put_text_block(canvas, title, plan.title_box, font_scale=0.8, thickness=2,
                       align="center")
    for (x, y, w, h), p, cap, cap_y in zip(plan.reference, refs, captions, plan.caption_y,
                                          strict=True):
        canvas[y : y + h, x : x + w] = p
        if cap:
            box = (x - GAP // 2 + 2, cap_y, caption_width(w), CAPTION_H)
            put_text_block(canvas, cap, box, font_scale=CAPTION_SCALE,
                           thickness=CAPTION_THICKNESS, align="center")
    for x0, y0, x1, y1 in plan.rules:
        cv2.line(canvas, (x0, y0), (x1, y1), RULE, 1)
    for (x, y, w, h), p, label, label_y in zip(plan.options, opts, labels, plan.label_y,
                                              strict=False):
        canvas[y : y + h, x : x + w] = p
        text = str(label)
        (tw, th), _ = cv2.getTextSize(text, FONT, LABEL_SCALE, LABEL_THICKNESS)
        org = (x + (w - tw) // 2, label_y + (LABEL_H - 8 + th) // 2)
        cv2.putText(canvas, text, org, FONT, LABEL_SCALE, (0, 0, 0), LABEL_THICKNESS, cv2.LINE_AA)
    layout = {
        "width": plan.width,
        "height": plan.height,
        "reference": plan.reference,
        "options": plan.options,
        "captions": captions,
    }
    return canvas, layout
