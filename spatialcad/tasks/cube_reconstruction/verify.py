"""CubeReconstruction verifier.

Folds the stored net by rolling a cube under it (spatialcad/verify/cube_rolling.py), then
(a) finds the colour on the face opposite the named one: it must be the record's
``Answer_direct``, and exactly the option naming it (or "none of them") is the answer; or
(b) tries the 24 poses of the folded cube against every option's view: exactly the answer
is possible.  The net and every drawn view are read back from the image
(spatialcad/verify/cube_reading.py).

Its step-by-step solution (``step_start`` / ``step_next`` / ``step_goal``) is the net
folded one hinge at a time by the verifiers' own simulation
(spatialcad/verify/net_hinges.py), ending in the closed cube that rolling gives, which
must show the answer's view or have the answer's colour opposite the named face (the
answer "none of them" is proved by ``verify``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.tasks.cube_reconstruction.spec import (
    OPPOSITE,
    ColourOption,
    OptionData,
    Spec,
    ViewOption,
    parse_option,
    parse_spec,
)
from spatialcad.verify import net_hinges
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


def step_start(spec: Spec, answer: OptionData) -> dict[str, Any]:
    return net_hinges.start(spec.cells)


def step_next(spec: Spec, answer: OptionData, state: Any, k: int) -> dict[str, Any] | None:
    return net_hinges.step(spec.cells, k)


def _answers(spec: Spec, answer: OptionData, folded: Folded) -> bool:
    if isinstance(answer, ViewOption):
        return spec.question != OPPOSITE and shows(folded, answer.view.grids())
    if spec.question != OPPOSITE or spec.named is None:
        return False
    return answer.colour in (None, _opposite(folded, spec.faces.colour_names, spec.named))


def step_goal(spec: Spec, answer: OptionData) -> dict[str, Any] | None:
    """The net closed into its cube, if that cube gives the answer."""
    folded = roll(net_pictures(spec.cells, spec.faces.grids()))
    return net_hinges.closed(spec.cells) if _answers(spec, answer, folded) else None
