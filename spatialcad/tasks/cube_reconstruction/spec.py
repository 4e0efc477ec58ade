"""CubeReconstruction's spec: the face set, the net shown (and where it is drawn), which
question it asks and, for the opposite-colour question, the colour it names; an option's
data: a colour (None for "none of them") or a corner view (and where it is drawn)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry.cube_fields import CellRow
from spatialcad.geometry.cube_items import FACE_WORDS, FOLDING
from spatialcad.record.spec import (
    CANDIDATE,
    YES_NO,
    JsonSpec,
    SpecError,
    Texts,
    judged_alike,
    optional,
    scene_text,
)
from spatialcad.tasks.cube_spec import CubeDrawing, Faces, NetDrawing, View

OPPOSITE, VIEW = "opposite", "view"  # the questions
INTRO = "The {where} shows the net of a cube with {faces}: {folding}. "
OPPOSITE_QUESTION = "Which colour is on the face opposite the {named} face? "
VIEW_QUESTION = ("Which option shows the folded cube seen from one of its corners"
                 "{orientation}? ")
ORIENTATION = ", every pattern in its true orientation"  # patterned faces only
CHOOSE = "Answer with A, B, C or D."
NAME = "Answer with one colour name."
NONE_OF_THEM = "All three other options are incorrect"


@dataclass(frozen=True)
class Spec(JsonSpec):
    faces: Faces
    net: str  # the layout's name in geometry.cube_nets.NETS
    cells: list[CellRow]
    net_drawing: NetDrawing
    question: str  # OPPOSITE or VIEW
    named: str | None = optional()  # OPPOSITE: the colour whose opposite face is asked for


@dataclass(frozen=True)
class ColourOption(JsonSpec):
    """An option of the opposite-colour question."""

    colour: str | None  # None: "none of them"


@dataclass(frozen=True)
class ViewOption(JsonSpec):
    """An option of the view question."""

    view: View
    drawing: CubeDrawing


OptionData = ColourOption | ViewOption


def parse_spec(data: Any) -> Spec:
    spec = Spec.from_json(data)
    if spec.question not in (OPPOSITE, VIEW):
        raise SpecError(f"spec.question: expected {OPPOSITE!r} or {VIEW!r}, "
                        f"got {spec.question!r}")
    if (spec.named is not None) != (spec.question == OPPOSITE):
        raise SpecError("spec.named: the opposite-colour question, and only it, names a colour")
    return spec


def parse_option(data: Any) -> OptionData:
    if isinstance(data, dict) and "view" in data:
        return ViewOption.from_json(data, "option")
    return ColourOption.from_json(data, "option")


def opposite_colour(spec: Spec) -> str:
    """The colour of the face opposite the ``named`` one when the net is folded."""
    names = spec.faces.colour_names
    cube = cn.fold_net([cn.NetCell(*c) for c in spec.cells])
    normal = next((n for n, (face, _) in cube.items() if names[face] == spec.named), None)
    if normal is None:
        raise SpecError(f"spec.named: no face has the colour {spec.named!r}")
    return names[cube[cn.opposite(normal)][0]]


def _choice(option: OptionData) -> str:
    if not isinstance(option, ColourOption):
        raise SpecError("option: a view option in an opposite-colour item")
    return NONE_OF_THEM if option.colour is None else option.colour


def texts(spec: Spec, options: Sequence[OptionData]) -> Texts:
    faces = FACE_WORDS[spec.faces.style]
    if spec.question == OPPOSITE:
        intro = (INTRO.format(where="image", faces=faces, folding=FOLDING)
                 + OPPOSITE_QUESTION.format(named=spec.named))
        net = INTRO.format(where="image", faces=faces, folding=FOLDING)
        judge = [f"{net}Is {o.colour} the colour on the face opposite the {spec.named} face?"
                 + YES_NO if isinstance(o, ColourOption) and o.colour is not None
                 else None for o in options]  # "none of the others" means nothing alone
        return Texts(intro + CHOOSE, intro + NAME, opposite_colour(spec),
                     [_choice(o) for o in options], judge)
    orientation = "" if spec.faces.style == "solid" else ORIENTATION
    return Texts(INTRO.format(where="top image", faces=faces, folding=FOLDING)
                 + VIEW_QUESTION.format(orientation=orientation) + CHOOSE,
                 judge=judged_alike(
                     INTRO.format(where="top image", faces=faces, folding=FOLDING)
                     + f"Is {CANDIDATE} the folded cube seen from one of its "
                     f"corners{orientation}?"))


def scene_key(spec: Spec) -> str:
    """The net with its face pictures, and what is asked of it."""
    return scene_text([spec.question, spec.named, spec.faces.to_json(), sorted(spec.cells)])
