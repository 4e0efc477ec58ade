"""CubeUnfolding: which net can (or cannot) fold into the cube seen from a corner?

The reference shows a cube with six distinct faces from the corner (+1, -1, +1).  Nets
that fold into it: the same cube unfolded onto other nets, or the cube with its three
hidden faces shuffled.  Nets that cannot: two visible faces swapped, a visible face
swapped with its opposite face, or (patterned faces) a visible face's picture turned.
Every option is checked by folding it and trying the 24 poses; a candidate whose option
does not behave as its operator claims is rejected.

The face patterns by level, the nets and the pictures are shared with CubeReconstruction
(spatialcad/geometry/cube_items.py, spatialcad/render/cube_pictures.py).
"""

from __future__ import annotations

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
from spatialcad.tasks.cube_spec import CubeDrawing, Faces, NetDrawing, View
from spatialcad.tasks.cube_unfolding.spec import (
    QUESTIONS,
    OptionData,
    Spec,
    texts,
)

NET_CELL = 60  # dots of a 4 x 4 grid 10 px across (render/legibility.py)
NET_PANEL = (310, 190)
VIEW_PANEL = 300


def faces_for(level: int, rng: np.random.Generator) -> FaceSet:
    try:
        return make_faces(pattern_params(level), rng)
    except ValueError as exc:
        raise Reject(str(exc)) from exc


def _variant(
    kind: str, cube: cn.Cube, faces: FaceSet, shown: dict[str, cn.Vec], rng: np.random.Generator
) -> tuple[cn.Cube, str]:
    """The cube an option's net folds into, and why it does or does not fit the view."""
    out = dict(cube)
    visible = list(shown.values())
    where = {n: name for name, n in shown.items()}

    def label(normal: cn.Vec) -> str:
        return faces.label(cube[normal][0], where.get(normal, "hidden"))

    if kind == "same_cube":
        return out, ("Folded, this net gives the cube shown: turned suitably it shows the "
                     "same three faces in the same places and orientations.")
    if kind == "hidden_shuffled":
        hidden = [n for n in cn.NORMALS if n not in visible]
        order = [hidden[i] for i in rng.permutation(3)]
        while order == hidden:
            order = [hidden[i] for i in rng.permutation(3)]
        for src, dst in zip(hidden, order, strict=True):
            out[dst] = (cube[src][0], _random_up(dst, rng))
        return out, ("Folded, it shows the three visible faces exactly as in the picture; "
                     "only the hidden faces are arranged differently.")
    a, b = (visible[i] for i in rng.choice(3, size=2, replace=False))
    if kind == "swap_visible":
        out[a], out[b] = (cube[b][0], _random_up(a, rng)), (cube[a][0], _random_up(b, rng))
        return out, (f"{label(a).capitalize()} and {label(b)} have swapped "
                     "places: around their corner the faces come in the mirror order.")
    if kind == "swap_opposite":
        o = cn.opposite(a)
        out[a], out[o] = cube[o], cube[a]
        return out, (f"{label(a).capitalize()} has swapped places with the face opposite "
                     "it, so the corner shows the faces in the mirror order.")
    if kind == "rotated":
        k = int(rng.integers(1, 4))
        face, up = cube[a]
        for _ in range(k):
            up = cn.cross(a, up)
        out[a] = (face, up)
        return out, (f"{label(a).capitalize()} is turned by {90 * k} degrees compared with "
                     "the picture.")
    raise ValueError(kind)


def _random_up(normal: cn.Vec, rng: np.random.Generator) -> cn.Vec:
    ups = [v for v in cn.NORMALS if cn.dot(v, normal) == 0]
    return ups[int(rng.integers(4))]


def drawn_key(net: list[cn.NetCell], faces: FaceSet) -> tuple:
    """What a net's picture shows (equal keys: identical pictures)."""
    return tuple((c.row, c.col, turned(faces.grids[c.face], c.turns).tobytes()) for c in net)


POSITIVE = ("same_cube", "hidden_shuffled")


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        return pattern_params(level)

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        faces = faces_for(level, rng)
        cube = cn.random_cube(rng)
        pose = proper_rotations()[int(rng.integers(24))]
        view = cn.corner_view(cube, faces.grids, pose)
        shown = cn.visible_normals(pose)
        question = QUESTIONS[int(rng.integers(2))]

        negative = ["swap_visible", "swap_opposite"] + (["rotated"] * (faces.style != "solid"))
        if question == "can":
            kinds = [POSITIVE[int(rng.integers(2))]]
            kinds += [negative[int(i)] for i in rng.permutation(len(negative))][:3]
            kinds += [negative[int(rng.integers(len(negative)))]] * (4 - len(kinds))
        else:
            kinds = [negative[int(rng.integers(len(negative)))], "same_cube", "hidden_shuffled"]
            kinds.append(POSITIVE[int(rng.integers(2))])
        names = [list(cn.NETS)[int(i)] for i in rng.choice(len(cn.NETS), size=4, replace=False)]

        options, data, keys = [], [], set()
        for i, (kind, net_name) in enumerate(zip(kinds, names, strict=True)):
            folded, why = _variant(kind, cube, faces, shown, rng)
            fits = bool(cn.possible_poses(folded, faces.grids, view))
            if fits != (kind in POSITIVE):
                raise Reject(f"a {kind} net {'fits' if fits else 'does not fit'} the view")
            net = random_net(folded, net_name, rng)
            keys.add(drawn_key(net, faces))
            image, drawing = net_image(net, faces, NET_CELL, NET_PANEL)
            data.append(OptionData(net_name, cell_rows(net), NetDrawing.from_json(drawing)))
            options.append(Option(is_answer=i == 0, operator=kind, explanation=why, image=image,
                                  data=data[-1].to_json()))
        if len(keys) < 4:
            raise Reject("two options draw the same net")

        ref, ref_drawing = view_image(view, faces, VIEW_PANEL)
        spec = Spec(Faces.of(faces), View.of(view), CubeDrawing.from_json(ref_drawing),
                    pose.tolist(), question)
        return Draft(
            question=texts(spec, data).question,
            spec=spec.to_json(),
            reference=[Panel(ref, "The cube")],
            options=options,
        )
