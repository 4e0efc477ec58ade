"""The shortcut-audit heuristics on hand-made composites and option texts."""

from __future__ import annotations

import numpy as np

from spatialcad.evaluate.baselines import ConstantAnswerer, RandomAnswerer, audit, text_scores
from spatialcad.render.layout import compose
from spatialcad.render.png import encode_png


def _panel(value: int, red: bool = False) -> np.ndarray:
    img = np.full((40, 40, 3), 255, np.uint8)
    img[8:32, 8:32] = value
    if red:
        img[8:20, 8:20] = (220, 30, 30)
    return img


def _record(reference, options, answer="B", choices=None):
    image, layout = compose([(p, "ref") for p in reference], options)
    record = {"Category": "C", "Task": "T", "Level": "Level0", "Image_id": "0000",
              "Answer": answer, "Choices": choices or [f"Image {x}" for x in "ABCD"],
              "layout": layout}
    return record, encode_png(image)


def picks(record, png):
    return {line["system"].split(":")[1]: line["extracted"] for line in audit(record, png)}


def test_image_heuristics():
    # B equals the reference; D is the odd one out (red corner, far from all others)
    record, png = _record([_panel(100)], [_panel(140), _panel(100), _panel(120),
                                          _panel(20, red=True)])
    got = picks(record, png)
    assert got["nearest_to_reference"] == "B"
    assert got["farthest_from_reference"] == "D"
    assert got["odd_one_out"] == "D"
    assert got["most_typical"] in "ABC"
    lines = audit(record, png)
    assert all(line["correct"] == (line["extracted"] == "B") for line in lines)


def _outline(sides: int) -> np.ndarray:
    """A square drawn with its first ``sides`` sides (4: closed)."""
    img = np.full((60, 60, 3), 255, np.uint8)
    for side in range(sides):
        y, x = [(slice(10, 12), slice(10, 50)), (slice(10, 50), slice(48, 50)),
                (slice(48, 50), slice(10, 50)), (slice(10, 50), slice(10, 12))][side]
        img[y, x] = 0
    return img


def test_most_enclosed_finds_the_one_closed_outline():
    """A wrong option with a line of its outline deleted is open: the audit notices."""
    record, png = _record([_outline(4)], [_outline(3), _outline(3), _outline(4),
                                          _outline(3)], answer="C")
    assert picks(record, png)["most_enclosed"] == "C"


def test_text_heuristics():
    scores = text_scores(["2", "6", "5", "All three other options are incorrect"])
    assert int(np.argmax(scores["longest_text"])) == 3
    assert int(np.argmax(scores["middle_number"])) == 2  # median of 2, 5, 6 is 5
    assert "middle_number" not in text_scores(["red", "blue", "green", "white"])
    record, png = _record([_panel(100)], None, answer="C",
                          choices=["2", "6", "5", "All three other options are incorrect"])
    assert picks(record, png) == {"longest_text": "D", "middle_number": "C"}


def test_ties_are_broken_reproducibly():
    record, png = _record([_panel(100)], [_panel(50)] * 4)
    first = picks(record, png)
    assert first == picks(record, png)


def test_random_and_constant():
    record, png = _record([_panel(100)], [_panel(50)] * 4)
    letters = {RandomAnswerer(seed)(dict(record, Image_id=f"{i:04d}"), png)[0]["extracted"]
               for seed in range(3) for i in range(20)}
    assert letters == set("ABCD")
    line = ConstantAnswerer("B")(record, png)[0]
    assert line["system"] == "baseline:constant_B" and line["correct"]
