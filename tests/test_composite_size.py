"""Every task's composites at levels 0-3 hold at most ``layout.MAX_PIXELS`` pixels, with
every legibility rule holding (each item is proved by its verifier as the pipeline makes
it), and the shared verification refuses a larger image."""

from __future__ import annotations

import numpy as np
import pytest

from spatialcad.render import legibility
from spatialcad.render.layout import (
    CAPTION_H,
    GAP,
    LABEL_H,
    MAX_PIXELS,
    Shape,
    TooLarge,
    arrangement,
    caption_width,
    compose,
)
from spatialcad.run.pipeline import make_item
from spatialcad.run.verification import check_size
from spatialcad.tasks import registry


@pytest.mark.parametrize("level", [0, 1, 2, 3])
@pytest.mark.parametrize("name", sorted(registry.tasks()))
def test_every_task_fits_the_pixel_limit(name: str, level: int) -> None:
    item = make_item(name, level, 0, 1, 0, keep_image=True, encode=False)
    assert item.image is not None
    h, w = item.image.shape[:2]
    assert w * h <= MAX_PIXELS, (name, level, w, h)
    assert (item.record["layout"]["width"], item.record["layout"]["height"]) == (w, h)


def test_compose_refuses_a_composite_over_the_limit() -> None:
    """CrossSection's plan (300 px panels: 1304 x 766) fits; taller options do not."""
    tall = np.full((520, 300, 3), 200, dtype=np.uint8)
    image, _ = compose([(tall[:300], "a")] * 3, [tall[:300]] * 4)
    assert image.shape[:2] == (766, 1304)
    with pytest.raises(TooLarge, match="1304 x 986 = 1,285,744 pixels, more than 1,003,520"):
        compose([(tall[:300], "a")] * 3, [tall] * 4)


def test_verification_refuses_an_image_over_the_limit() -> None:
    big = np.zeros((800, 1280, 3), dtype=np.uint8)
    (failure,) = check_size({"layout": {"width": 1280, "height": 800}}, big)
    assert "1,024,000 pixels, more than 1,003,520" in failure
    assert check_size({"layout": {"width": 1280, "height": 784}}, big[:784]) == []
    (wrong,) = check_size({"layout": {"width": 1280, "height": 700}}, big[:784])
    assert "its layout says 1280 x 700" in wrong


def _panel(w: int, h: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3)).astype(np.uint8)


# (reference sizes, option sizes) whose usual rows exceed MAX_PIXELS, the shape of the
# smallest area that fits and its size (worked out by hand from layout's constants:
# caption band 44 under a reference, letter band 60 under an option, 30 between the
# references and the options and between option rows, 20 between reference rows, 24
# between panels, 16 around)
ARRANGED = [
    # 3DRotation's 350 px panels: the rows would be 1504 x 866; the options' 2 x 2 grid
    # under the references is 756 x 1306, the references stacked beside that grid
    # 1136 x 882 (1,001,952 px), one row too wide
    ([(350, 350)] * 2, [(350, 350)] * 4, Shape(2, 2), (756, 1306)),
    # a tall reference beside the grid (the grid beneath it is 716 x 1576, one row 1784 x 736)
    ([(330, 660)], [(330, 330)] * 4, Shape(1, 2, beside=True), (1076, 842)),
    # 3ViewProjection's tall thin part: the rows would be 1280 x 906, everything in one row
    # is 1863 x 462 (the references in a column beside a column of options 733 x 1342)
    ([(280, 280), (301, 370), (120, 301)], [(370, 120), (120, 370), (120, 370), (370, 120)],
     Shape(3, 4, beside=True), (1863, 462)),
    # PaperFolding's five folds and punch from level 5: the rows would be 1592 x 646; the
    # references in rows of two over the grid are 536 x 1584 (in rows of three beside the
    # grid 1310 x 662, 867,220 px)
    ([(240, 240)] * 6, [(240, 240)] * 4, Shape(2, 2), (536, 1584)),
    # narrow panels: the usual rows 1280 wide would be 1280 x 806 (1,031,680 px); as
    # narrow as their rows they are 504 x 806
    ([(460, 320)], [(100, 320)] * 4, Shape(1, 4), (504, 806)),
]


@pytest.mark.parametrize(("refs", "opts", "shape", "size"), ARRANGED)
def test_an_arrangement_is_chosen_when_the_rows_would_exceed_the_limit(refs, opts, shape, size):
    """The panels keep their size, each reference over its caption and each option over
    its letter (no two of these cells overlap), and the layout's boxes are where the
    panels are; the same panels give the same bytes."""
    plan = arrangement(refs, opts)
    assert plan is not None and (plan.shape, plan.width, plan.height) == (shape, *size)
    references = [(_panel(w, h, k), f"View {k}") for k, (w, h) in enumerate(refs)]
    options = [_panel(w, h, 10 + k) for k, (w, h) in enumerate(opts)]
    image, layout = compose(references, options)
    assert image.shape[:2] == (size[1], size[0]) and size[0] * size[1] <= MAX_PIXELS
    assert (layout["reference"], layout["options"]) == (plan.reference, plan.options)
    for (x, y, w, h), panel in zip(layout["reference"] + layout["options"],
                                   [p for p, _ in references] + options, strict=True):
        assert np.array_equal(image[y:y + h, x:x + w], panel)
    cells = []
    for (x, y, w, h), cap_y in zip(layout["reference"], plan.caption_y, strict=True):
        assert cap_y >= y + h + 4
        box = (x - GAP // 2 + 2, cap_y, caption_width(w), CAPTION_H)
        text = image[box[1]:box[1] + box[3], box[0]:box[0] + box[2]]
        assert np.count_nonzero(text.max(axis=2) < 80) > 50  # the caption is drawn there
        cells.append((box[0], y, box[2], cap_y + CAPTION_H - y))
    for (x, y, w, h), label_y in zip(layout["options"], plan.label_y, strict=True):
        assert label_y >= y + h + 4
        letter = image[label_y:label_y + LABEL_H, x:x + w]
        assert np.count_nonzero(letter.max(axis=2) < 80) > 200
        cells.append((x, y, w, label_y + LABEL_H - y))
    for k, (x, y, w, h) in enumerate(cells):
        assert 0 <= x and x + w <= size[0] and y + h <= size[1]
        for (xx, yy, ww, hh) in cells[:k]:
            assert x + w <= xx or xx + ww <= x or y + h <= yy or yy + hh <= y
    again, same = compose(references, options)
    assert same == layout and again.tobytes() == image.tobytes()


def test_the_rows_are_kept_where_they_fit():
    """CrossSection's plan: 300 px panels make 1304 x 766, under the limit, in rows."""
    plan = arrangement([(300, 300)] * 3, [(300, 300)] * 4)
    assert plan is not None and (plan.shape, plan.width, plan.height) == (
        Shape(3, 4), 1304, 766)


def test_fits_predicts_the_composite_of_3d_rotation():
    """Two captioned references and four options of one square side fit up to 353 px:
    the grid of a 353 px side is 762 x 1315 = 1,002,030 px, of 354 px 764 x 1318."""
    for side in range(290, 420, 7):
        panel = _panel(side, side, side)
        try:
            image, layout = compose([(panel, "From the front-right, above")] * 2, [panel] * 4)
            made = all(b[2:] == [side, side] for b in layout["reference"] + layout["options"])
        except TooLarge:
            made = False
        assert legibility.fits(side, 4, side, references=2) == made, side
    assert legibility.fits(353, 4, 353, references=2)
    assert not legibility.fits(354, 4, 354, references=2)
