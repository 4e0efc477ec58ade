"""CubeReconstruction: given a net, which colour is opposite a face, or which corner view
of the folded cube is possible?

Level 0 (solid colours) asks either question; patterned levels ask for the view.  Wrong
views: the mirror-image cube seen from a corner, a true view with one face's picture
turned, or a true view with one face replaced by the face opposite another visible face
(opposite faces are never seen together).  A candidate whose wrong view turns out to be
possible (a symmetric picture can make a mirrored view possible) is rejected.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry.face_patterns import FaceSet, turned
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.cube_unfolding.generate import (
    FACE_WORDS,
    FOLDING,
    faces_for,
    net_image,
    net_json,
    pattern_params,
    random_net,
    view_image,
    view_json,
)

NONE_OF_THEM = "All three other options are incorrect"
REF_CELL = 80
REF_PANEL = (440, 280)
OPTION_VIEW = 290
WRONG_VIEWS = ("mirror", "turned_face", "opposite_pair")


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        kinds = ["opposite", "view"] if level == 0 else ["view"]
        return {**pattern_params(level), "questions": kinds}

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        kinds = self.params(level)["questions"]
        question = kinds[int(rng.integers(len(kinds)))]
        faces = faces_for(level, rng)
        name = list(cn.NETS)[int(rng.integers(len(cn.NETS)))]
        net = random_net(cn.random_cube(rng), name, rng)
        cube = cn.fold_net(net)
        image, drawing = net_image(net, faces, REF_CELL, REF_PANEL)
        spec = {"faces": faces.to_json(), **net_json(name, net), "net_drawing": drawing,
                "question": question}
        reference = [Panel(image, "The net")]
        if question == "opposite":
            return _opposite_item(cube, faces, spec, reference, rng)
        return _view_item(cube, faces, spec, reference, rng)


def _opposite_item(
    cube: cn.Cube, faces: FaceSet, spec: dict, reference: list[Panel], rng: np.random.Generator
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
    summary = f"Folded, the {truth} face is opposite the {named} face."
    options = [
        Option(is_answer=c == truth, operator="opposite" if c == truth else "adjacent",
               explanation=summary + ("" if c == truth else f" The {c} face is next to it."),
               text=c, data={"colour": c})
        for c in sorted(colours)
    ]
    if none_shown:
        options.append(Option(
            is_answer=none_is_answer, operator="none_of_the_others",
            explanation=summary + (" No option names it." if none_is_answer else
                                   " One option names it."),
            text=NONE_OF_THEM, data={"colour": None}))
    intro = (f"The image shows the net of a cube with {FACE_WORDS[faces.style]}: {FOLDING}. "
             f"Which colour is on the face opposite the {named} face? ")
    return Draft(
        question=intro + "Answer with A, B, C or D.",
        question_direct=intro + "Answer with one colour name.",
        answer_direct=truth,
        spec={**spec, "named": named},
        reference=reference,
        options=options,
    )


def _view_item(
    cube: cn.Cube, faces: FaceSet, spec: dict, reference: list[Panel], rng: np.random.Generator
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
    options = []
    for i, (kind, view, why) in enumerate(candidates):
        image, drawing = view_image(view, faces, OPTION_VIEW)
        options.append(Option(is_answer=i == 0, operator=kind, explanation=why, image=image,
                              data={"view": view_json(view), "drawing": drawing}))
    orientation = "" if faces.style == "solid" else ", every pattern in its true orientation"
    return Draft(
        question=(
            f"The top image shows the net of a cube with {FACE_WORDS[faces.style]}: {FOLDING}. "
            "Which option shows the folded cube seen from one of its corners"
            f"{orientation}? Answer with A, B, C or D."
        ),
        spec=spec,
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
