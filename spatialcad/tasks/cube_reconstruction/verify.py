"""CubeReconstruction verifier.

Folds the stored net by rolling a cube under it (spatialcad/verify/cube_rolling.py), then
(a) finds the colour on the face opposite the named one: it must be the record's
``Answer_direct``, and exactly the option naming it (or "none of them") is the answer; or
(b) tries the 24 poses of the folded cube against every option's view: exactly the answer
is possible.  The net and every drawn view are read back from the image
(spatialcad/verify/cube_reading.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.tasks.cube_reconstruction.spec import (
    OPPOSITE,
    ColourOption,
    Spec,
    ViewOption,
    parse_option,
    parse_spec,
)
from spatialcad.verify.base import crop
from spatialcad.verify.cube_reading import check_net_image, check_view_image
from spatialcad.verify.cube_rolling import Folded, net_pictures, roll, shows


def _opposite(folded: Folded, names: list[str], named: str) -> str:
    """The colour of the face opposite the face of colour ``named`` (solid faces)."""
    colour = {normal: names[int(pic[0, 0])] for normal, (pic, _, _) in folded.items()}
    normal = next(n for n, c in colour.items() if c == named)
    return colour[tuple(-np.array(normal))]


def _check_opposite(record: dict[str, Any], spec: Spec, folded: Folded) -> list[str]:
    names = spec.faces.colour_names
    if spec.faces.style != "solid" or len(set(names)) != 6 or spec.named not in names:
        return ["the opposite-colour question needs six solid colours, one of them named"]
    truth = _opposite(folded, names, spec.named)
    failures = []
    if record.get("Answer_direct") != truth:
        failures.append(f"the {truth} face is opposite the {spec.named} face, not the "
                        f"{record.get('Answer_direct')} one")
    parsed = [(o["letter"], parse_option(o["data"])) for o in record["options"]]
    colours = [(letter, d.colour) for letter, d in parsed if isinstance(d, ColourOption)]
    if len(colours) != len(parsed):
        return failures + ["an option of the opposite-colour question is not a colour"]
    right = [letter for letter, colour in colours if colour == truth]
    none = [letter for letter, colour in colours if colour is None]
    expected = right if right else none
    if expected != [record["Answer"]]:
        failures.append(f"the {truth} face is opposite the {spec.named} face: options "
                        f"{expected} fit, answer {record['Answer']}")
    return failures


def _check_views(record: dict[str, Any], image: np.ndarray, spec: Spec, folded: Folded
                 ) -> list[str]:
    failures, possible = [], []
    for o, box in zip(record["options"], record["layout"]["options"], strict=True):
        data = parse_option(o["data"])
        if not isinstance(data, ViewOption):
            failures.append(f"option {o['letter']} shows no view")
            continue
        view = data.view.grids()
        failures += check_view_image(crop(image, box), view, data.drawing, spec.faces,
                                     f"option {o['letter']}")
        if shows(folded, view):
            possible.append(o["letter"])
    if possible != [record["Answer"]]:
        failures.append(f"possible views: {possible}, answer {record['Answer']}")
    return failures


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    try:
        cells = net_pictures(spec.cells, spec.faces.grids())
        folded = roll(cells)
    except ValueError as exc:
        return [f"the net: {exc}"]
    failures = check_net_image(crop(image, record["layout"]["reference"][0]), spec.net_drawing,
                               cells, spec.faces, "the net")
    if spec.question == OPPOSITE:
        return failures + _check_opposite(record, spec, folded)
    return failures + _check_views(record, image, spec, folded)
