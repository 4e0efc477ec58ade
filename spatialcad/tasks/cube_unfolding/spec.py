"""CubeUnfolding's spec: the face set, the corner view shown (and where it is drawn), the
cube's pose and whether the question asks for the net that can or that cannot fold into it;
an option's data: its net, and where its cells are drawn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spatialcad.geometry.cube_fields import CellRow
from spatialcad.geometry.cube_items import FACE_WORDS, FOLDING
from spatialcad.record.spec import CANDIDATE, JsonSpec, Texts, judged_alike, one_of, scene_text
from spatialcad.tasks.cube_spec import CubeDrawing, Faces, NetDrawing, View

QUESTIONS = ("can", "cannot")  # which net the question asks for
QUESTION = (
    "The top image shows a cube with {faces}, seen from one of its corners. Each option is a "
    "net of a cube: {folding}. Which net {question} be folded into a cube that, turned "
    "suitably, looks exactly like the one shown{orientation}? Answer with A, B, C or D."
)
ORIENTATION = ", every pattern in the same orientation"  # patterned faces only


@dataclass(frozen=True)
class Spec(JsonSpec):
    faces: Faces
    view: View  # the cube as the reference shows it
    view_drawing: CubeDrawing
    pose: list[list[int]]  # the cube's pose in the view (body -> world)
    question: str  # one of QUESTIONS


@dataclass(frozen=True)
class OptionData(JsonSpec):
    net: str  # the layout's name in geometry.cube_nets.NETS
    cells: list[CellRow]
    drawing: NetDrawing


def parse_spec(data: Any) -> Spec:
    spec = Spec.from_json(data)
    one_of(spec.question, QUESTIONS, "spec.question")
    return spec


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def texts(spec: Spec, options: list[OptionData]) -> Texts:
    orientation = "" if spec.faces.style == "solid" else ORIENTATION
    judge = judged_alike(
        f"The top image shows a cube with {FACE_WORDS[spec.faces.style]}, seen from one of "
        f"its corners. {CANDIDATE.capitalize()} is a net of a cube: {FOLDING}. Can it be "
        f"folded into a cube that, turned suitably, looks exactly like the one "
        f"shown{orientation}?")
    return Texts(QUESTION.format(faces=FACE_WORDS[spec.faces.style], folding=FOLDING,
                                 question=spec.question, orientation=orientation),
                 judge=judge, judge_polarity=spec.question == "can")


def scene_key(spec: Spec) -> str:
    """The cube shown: its face pictures as seen from the corner (its pose is drawn)."""
    return scene_text([spec.question, spec.faces.to_json(), spec.view.to_json()])
