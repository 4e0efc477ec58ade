"""Every task's composites at levels 0-3 hold at most ``layout.MAX_PIXELS`` pixels, with
every legibility rule holding (each item is proved by its verifier as the pipeline makes
it), and the shared verification refuses a larger image."""

from __future__ import annotations

import numpy as np
import pytest

from spatialcad.render.layout import MAX_PIXELS, TooLarge, compose
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
