"""CrossSection's spec: the stacked solids, the three views of the composite, the level's
plane families and the common scale of View 3 and the options; an option's data: its
plane, its section polygon and the solids it cuts (for the answer, the altered solids and
what was changed).  Also the question it asks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spatialcad.cad.solids import display_name
from spatialcad.record.spec import (
    CANDIDATE,
    JsonSpec,
    Texts,
    judged_alike,
    optional,
    scene_text,
    spoken_list,
)

QUESTION = (
    "The top row shows a composite solid: Views 1 and 2 from two angles above it, View 3 "
    "from the side, level with it. It consists of {listing} from top to bottom. Each "
    "option shows a plane section; View 3 and the four options are drawn at one common "
    "scale. Which of the following images cannot be a cross-section of the solid? Answer "
    "with A, B, C or D."
)
AXIS_LETTER = {"XY": "z", "XZ": "y", "YZ": "x"}  # the coordinate an axis family's plane fixes


@dataclass(frozen=True)
class SolidDesc(JsonSpec):
    """A solid as spatialcad.cad.solids describes it (``to_json()`` is its ``Desc``)."""

    kind: str  # a key of spatialcad.cad.solids.KINDS
    params: dict[str, float]  # the kind's dimensions


@dataclass(frozen=True)
class View(JsonSpec):
    azimuth: float  # degrees
    elevation: float


@dataclass(frozen=True)
class Spec(JsonSpec):
    solids: list[SolidDesc]  # top to bottom; the bottom one stands on z = 0
    views: list[View]  # of the reference pictures: two from above, the last level (View 3)
    families: list[str]  # the plane families of the level (spatialcad.cad.section)
    scale: float  # px per unit of View 3 and of every option panel (as drawn, 300 px)


@dataclass(frozen=True)
class Plane(JsonSpec):
    family: str
    normal: tuple[float, float, float]  # the family's unit normal
    offset: float  # the plane is normal . p = offset


@dataclass(frozen=True)
class Change(JsonSpec):
    """One solid of the answer's stack made taller/shorter or wider/narrower."""

    solid: int  # index into the spec's solids
    dimension: str  # "height" or "width"
    factor: float


@dataclass(frozen=True)
class OptionData(JsonSpec):
    plane: Plane
    polygon: str  # the section in the plane's (u, v) coordinates, as WKT (5 decimals)
    solids: list[SolidDesc]  # the solids cut: the spec's, or the answer's altered ones
    changes: list[Change] | None = optional()  # the answer's alterations


def descs(solids: list[SolidDesc]) -> list[dict[str, Any]]:
    """``solids`` as spatialcad.cad.solids takes them."""
    return [s.to_json() for s in solids]


def parse_spec(data: Any) -> Spec:
    return Spec.from_json(data)


def parse_option(data: Any) -> OptionData:
    return OptionData.from_json(data, "option")


def texts(spec: Spec, options: list[OptionData]) -> Texts:
    """The question, naming the spec's solids top to bottom; the options are pictures."""
    names = [display_name(d) for d in descs(spec.solids)]
    judge = judged_alike(
        f"The top images show {spoken_list(names)} stacked from top to bottom, from two "
        f"angles. Can {CANDIDATE} be a cross-section of this stack by a plane of one of the "
        "shown families?")
    return Texts(QUESTION.format(listing=spoken_list(names)), judge=judge,
                 judge_polarity=False)


def scene_key(spec: Spec) -> str:
    """The stacked solids, top to bottom."""
    return scene_text(descs(spec.solids))
