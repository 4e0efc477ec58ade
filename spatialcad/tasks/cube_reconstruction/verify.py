"""CubeReconstruction verifier.

Folds the stored net by rolling a cube under it (see ``verify.cube_unfolding``), then
(a) finds the colour on the face opposite the named one and proves the one option that
names it (or "none of them") right, or (b) tries the 24 poses of the folded cube against
every option's view: exactly the answer is possible.  The net and every drawn view are read
back from the image.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.tasks.cube_unfolding.verify import (
    as_view,
    check_net_image,
    check_view_image,
    net_cells,
    roll,
    shows,
)
from spatialcad.verify.base import crop


def _opposite(folded, names: list[str], named: str) -> str:
    """The colour of the face opposite the face of colour ``named`` (solid faces)."""
    colour = {normal: names[int(pic[0, 0])] for normal, (pic, _, _) in folded.items()}
    normal = next(n for n, c in colour.items() if c == named)
    return colour[tuple(-np.array(normal))]


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = record["spec"]
    faces = [np.array(g, dtype=int) for g in spec["faces"]["faces"]]
    try:
        cells = net_cells(spec, faces)
        folded = roll(cells)
    except ValueError as exc:
        return [f"the net: {exc}"]
    failures = check_net_image(crop(image, record["layout"]["reference"][0]),
                               {"drawing": spec["net_drawing"]}, cells, spec["faces"], "the net")
    if spec["question"] == "opposite":
        names = spec["faces"]["colour_names"]
        if spec["faces"]["style"] != "solid" or len(set(names)) != 6:
            return failures + ["the opposite-colour question needs six solid colours"]
        truth = _opposite(folded, names, spec["named"])
        right = [o["letter"] for o in record["options"] if o["data"]["colour"] == truth]
        none = [o["letter"] for o in record["options"] if o["data"]["colour"] is None]
        expected = right if right else none
        if expected != [record["Answer"]]:
            failures.append(f"the {truth} face is opposite the {spec['named']} face: options "
                            f"{expected} fit, answer {record['Answer']}")
        for o, text in zip(record["options"], record["Choices"], strict=True):
            if o["data"]["colour"] is not None and text != o["data"]["colour"]:
                failures.append(f"option {o['letter']} text {text!r} is not its colour")
        return failures
    possible = []
    for o, box in zip(record["options"], record["layout"]["options"], strict=True):
        view = as_view(o["data"]["view"])
        failures += check_view_image(crop(image, box), view, o["data"]["drawing"],
                                     spec["faces"], f"option {o['letter']}")
        if shows(folded, view):
            possible.append(o["letter"])
    if possible != [record["Answer"]]:
        failures.append(f"possible views: {possible}, answer {record['Answer']}")
    return failures
