"""CubeReconstruction: given a net, which colour is opposite a face, or which corner view
of the folded cube is possible?

Level 0 (solid colours) asks either question; patterned levels ask for the view.  Wrong
views: the mirror-image cube seen from a corner, a true view with one face's picture
turned, or a true view with one face replaced by the face opposite another visible face
(opposite faces are never seen together).  A candidate whose wrong view turns out to be
possible (a symmetric picture can make a mirrored view possible) is rejected.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry.cube_fields import cell_rows
from spatialcad.geometry.cube_items import pattern_params, random_net
from spatialcad.geometry.face_patterns import FaceSet, make_faces, turned
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.render.cube_pictures import net_image, view_image
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.cube_reconstruction.spec import (
    OPPOSITE,
    VIEW,
    ColourOption,
    Spec,
    ViewOption,
    texts,
)
from spatialcad.tasks.cube_spec import CubeDrawing, Faces, NetDrawing, View

REF_CELL = 80
REF_PANEL = (440, 280)
OPTION_VIEW = 290
WRONG_VIEWS = ("mirror", "turned_face", "opposite_pair")


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        kinds = [OPPOSITE, VIEW] if level == 0 else [VIEW]
        return {**pattern_params(level), "questions": kinds}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        kinds = self.params(level)["questions"]
        question = kinds[int(rng.integers(len(kinds)))]
        try:
            faces = make_faces(pattern_params(level), rng)
        except ValueError as exc:
            raise Reject(str(exc)) from exc
        name = list(cn.NETS)[int(rng.integers(len(cn.NETS)))]
        net = random_net(cn.random_cube(rng), name, rng)
        cube = cn.fold_net(net)
        image, drawing = net_image(net, faces, REF_CELL, REF_PANEL)
        spec = Spec(Faces.of(faces), name, cell_rows(net), NetDrawing.from_json(drawing),
                    question)
        reference = [Panel(image, "The net")]
        if question == OPPOSITE:
            return _opposite_item(cube, faces, spec, reference, rng)
        return _view_item(cube, faces, spec, reference, rng)


def _opposite_item(
    cube: cn.Cube, faces: FaceSet, spec: Spec, reference: list[Panel], rng: np.random.Generator
) -> Draft:
    normal = cn.NORMALS[int(rng.integers(6))]
    named = faces.names[cube[normal][0]]
    truth = faces.names[cube[cn.opposite(normal)][0]]
    adjacent = [faces.names[cube[n][0]] for n in cn.NORMALS if cn.dot(n, normal) == 0]
    adjacent = [adjacent[int(i)] for i in rng.permutation(4)]
    none_is_answer = rng.random() < 0.25
    none_shown = none_is_answer or rng.random() < 0.5
    colours = adjacent[: 3 if none_is_answer else (2 if none_shown else 3)]
    if not none_is_answer:
        colours.append(truth)
    data = [ColourOption(c) for c in sorted(colours)]
    if none_shown:
        data.append(ColourOption(None))
    spec = replace(spec, named=named)
    said = texts(spec, data)
    assert said.choices is not None
    summary = f"Folded, the {truth} face is opposite the {named} face."
    options = []
    for d, text in zip(data, said.choices, strict=True):
        if d.colour is None:
            is_answer, operator = none_is_answer, "none_of_the_others"
            why = " No option names it." if none_is_answer else " One option names it."
        else:
            is_answer = d.colour == truth
            operator = "opposite" if is_answer else "adjacent"
            why = "" if is_answer else f" The {d.colour} face is next to it."
        options.append(Option(is_answer=is_answer, operator=operator, explanation=summary + why,
                              text=text, data=d.to_json()))
    return Draft(
        question=said.question,
        question_direct=said.question_direct,
        answer_direct=said.answer_direct,
        spec=spec.to_json(),
        reference=reference,
        options=options,
    )


def _view_item(
    cube: cn.Cube, faces: FaceSet, spec: Spec, reference: list[Panel], rng: np.random.Generator
) -> Draft:
    rotations = proper_rotations()
    pose = rotations[int(rng.integers(24))]
    candidates = [("view", cn.corner_view(cube, faces.grids, pose),
                   "This is the folded cube seen from one of its corners.")]
    kinds = ["mirror"] + [WRONG_VIEWS[int(i)] for i in rng.integers(3, size=2)]
    for kind in kinds:
        candidates.append(_wrong_view(kind, cube, faces, rng))
    for i, (kind, view, _) in enumerate(candidates):
        if i and cn.possible_poses(cube, faces.grids, view):
            raise Reject(f"the {kind} view is a possible view")
        if any(cn.same_view(view, other) for _, other, _ in candidates[:i]):
            raise Reject("two options show the same view")
    options, data = [], []
    for i, (kind, view, why) in enumerate(candidates):
        image, drawing = view_image(view, faces, OPTION_VIEW)
        data.append(ViewOption(View.of(view), CubeDrawing.from_json(drawing)))
        options.append(Option(is_answer=i == 0, operator=kind, explanation=why, image=image,
                              data=data[-1].to_json()))
    return Draft(
        question=texts(spec, data).question,
        spec=spec.to_json(),
        reference=reference,
        options=options,
    )


def _wrong_view(
    kind: str, cube: cn.Cube, faces: FaceSet, rng: np.random.Generator
) -> tuple[str, cn.View, str]:
    """A view the folded cube cannot show, made by operator ``kind``."""
    pose = proper_rotations()[int(rng.integers(24))]
    if kind == "mirror" or (kind == "turned_face" and faces.style == "solid"):
        return ("mirror", cn.corner_view(cube, faces.grids, pose @ cn.MIRROR),
                "This is the mirror image of the folded cube: around the corner the faces "
                "come in the wrong order.")
    view = cn.corner_view(cube, faces.grids, pose)
    names = list(cn.VIEW_FACES)
    a, b = (names[int(i)] for i in rng.choice(3, size=2, replace=False))
    if kind == "turned_face":
        k = int(rng.integers(1, 4))
        view[a] = turned(view[a], k)
        return (kind, view, f"The {a} face is turned by {90 * k} degrees: the folded cube "
                            "never shows it that way.")
    shown = cn.visible_normals(pose)
    face = cube[cn.opposite(shown[b])][0]
    view[a] = turned(faces.grids[face], int(rng.integers(4)))
    return (kind, view, f"The {a} and {b} faces are opposite faces of the folded cube, "
                        "which can never be seen together.")
