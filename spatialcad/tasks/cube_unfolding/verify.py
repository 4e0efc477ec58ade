"""CubeUnfolding verifier.

Independent of the generator's hinge folding and frame transfer: every option's net is
folded by rolling a cube under it, and the view is matched against the folded cube in all
24 poses (spatialcad/verify/cube_rolling.py).  The pictures in the composite image are read
back at the centre of every grid block and must show what the record says
(spatialcad/verify/cube_reading.py).

Its step-by-step solution (``step_start`` / ``step_next`` / ``step_goal``) is the answer's
net folded one hinge at a time by the verifiers' own simulation
(spatialcad/verify/net_hinges.py), ending in the closed cube that rolling gives, which for
a "can" item shows the view in some pose and for a "cannot" item in none.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.tasks.cube_unfolding.spec import OptionData, Spec, parse_option, parse_spec
from spatialcad.verify import net_hinges
from spatialcad.verify.base import crop
from spatialcad.verify.cube_reading import check_net_image, check_view_image
from spatialcad.verify.cube_rolling import net_pictures, roll, shows


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    faces = spec.faces.grids()
    view = spec.view.grids()
    failures = check_view_image(crop(image, record["layout"]["reference"][0]), view,
                                spec.view_drawing, spec.faces, "the cube")
    fits = []
    for o, box in zip(record["options"], record["layout"]["options"], strict=True):
        data = parse_option(o["data"])
        try:
            cells = net_pictures(data.cells, faces)
            folded = roll(cells)
        except ValueError as exc:
            failures.append(f"option {o['letter']}: {exc}")
            continue
        failures += check_net_image(crop(image, box), data.drawing, cells, spec.faces,
                                    f"option {o['letter']}")
        fits.append((o["letter"], shows(folded, view)))
    if failures:
        return failures
    wanted = spec.question == "can"
    matching = [letter for letter, ok in fits if ok == wanted]
    if matching != [record["Answer"]]:
        failures.append(f"nets that {spec.question} fold into the cube: {matching}, "
                        f"answer {record['Answer']}")
    return failures


def step_start(spec: Spec, answer: OptionData) -> dict[str, Any]:
    return net_hinges.start(answer.cells)


def step_next(spec: Spec, answer: OptionData, state: Any, k: int) -> dict[str, Any] | None:
    return net_hinges.step(answer.cells, k)


def step_goal(spec: Spec, answer: OptionData) -> dict[str, Any] | None:
    """The answer's net closed into its cube, if that cube answers the question."""
    folded = roll(net_pictures(answer.cells, spec.faces.grids()))
    if shows(folded, spec.view.grids()) != (spec.question == "can"):
        return None
    return net_hinges.closed(answer.cells)
