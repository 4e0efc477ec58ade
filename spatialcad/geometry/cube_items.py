"""What the two cube tasks (CubeUnfolding, CubeReconstruction) share besides pictures and
record fields: the face patterns of each level, a cube laid out on a random net, and the
words their questions use for the faces and the folding."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry import cube_nets as cn
from spatialcad.geometry.rotations import proper_rotations

FACE_WORDS = {  # face style -> what the questions say the faces show
    "solid": "six faces of different colours",
    # the glyphs are drawn from block letters but many do not read as letters (and they
    # turn with their face): the words call them patterns, which is what a solver sees
    "glyph": "six faces of different colours, each with its own black block pattern",
    "dots": "six faces with different patterns of coloured dots",
}
FOLDING = (
    "every square shows a face as it looks from outside the cube, and the net is folded "
    "along its edges away from the viewer"
)


def pattern_params(level: int) -> dict[str, Any]:
    """L0 solid colours; L1 letters; L2 3x3 coloured dots; L3+ 4x4 dots, then more colours
    and denser dots (saturating at L6)."""
    if level == 0:
        return {"style": "solid"}
    if level == 1:
        return {"style": "glyph"}
    return {
        "style": "dots",
        "grid": 3 if level == 2 else 4,
        "colours": min(3 + max(0, level - 3), 6),
        "density": round(min(0.5 + 0.05 * (level - 2), 0.7), 2),
    }


def random_net(cube: cn.Cube, name: str, rng: np.random.Generator) -> list[cn.NetCell]:
    """``cube`` unfolded onto net ``name``, laid out in one of four orientations that keep
    it wider than tall, from a random pose."""
    cells = cn.layout_turned(cn.NETS[name], 2 * int(rng.integers(2)), bool(rng.integers(2)))
    return cn.unfold(cube, cells, proper_rotations()[int(rng.integers(24))])
