"""The basic solids of the cross-section task and their vertical stacks.

A solid is described by a small JSON-able dict ``{"kind": ..., "params": {...}}`` with
dimensions as plain floats.  Every solid is a prismatoid centred on the z axis: a bottom
outline (rectangle, equilateral triangle or circle) at its base, the same outline scaled by
``top_ratio`` at its top (1 for prisms, 0 for pointed solids).  Squares and rectangles
have sides parallel to x and y; a triangle has a vertex pointing to +y.

A composite is a list of descriptions from top to bottom (the order used in questions);
the bottom solid stands on z = 0 and each solid stands on the one below it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialcad import freecad_env
from spatialcad.geometry import exact

Desc = dict[str, Any]

# kind -> (outline, parameter names); the first name(s) size the bottom outline
KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "cuboid": ("rectangle", ("width", "depth", "height")),
    "square_prism": ("square", ("side", "height")),
    "triangular_prism": ("triangle", ("side", "height")),
    "cylinder": ("circle", ("radius", "height")),
    "square_pyramid": ("square", ("side", "height")),
    "triangular_pyramid": ("triangle", ("side", "height")),
    "cone": ("circle", ("radius", "height")),
    "square_frustum": ("square", ("bottom_side", "top_side", "height")),
    "triangular_frustum": ("triangle", ("bottom_side", "top_side", "height")),
    "circular_frustum": ("circle", ("bottom_radius", "top_radius", "height")),
}
POINTED = frozenset({"square_pyramid", "triangular_pyramid", "cone"})


@dataclass(frozen=True)
class Footprint:
    """A solid as a prismatoid: bottom outline sizes, top/bottom scale, height."""

    outline: str  # "rectangle" | "square" | "triangle" | "circle"
    size: tuple[float, float]  # rectangle: (width, depth); square/triangle: (side, side);
    # circle: (radius, radius)
    top_ratio: float
    height: float


def solid(kind: str, **params: float) -> Desc:
    """A description with its parameters rounded to 6 digits (byte-stable records)."""
    outline, names = KINDS[kind]
    if set(params) != set(names):
        raise ValueError(f"{kind} takes {names}, got {sorted(params)}")
    if any(not v > 0 for v in params.values()):
        raise ValueError(f"{kind}: dimensions must be positive, got {params}")
    return {"kind": kind, "params": {n: round(float(params[n]), 6) for n in names}}


def footprint(desc: Desc) -> Footprint:
    kind, p = desc["kind"], desc["params"]
    outline, _ = KINDS[kind]
    if kind == "cuboid":
        size = (p["width"], p["depth"])
    elif outline == "circle":
        r = p.get("radius", p.get("bottom_radius"))
        size = (r, r)
    else:
        s = p.get("side", p.get("bottom_side"))
        size = (s, s)
    if kind in POINTED:
        ratio = 0.0
    elif "top_side" in p:
        ratio = p["top_side"] / p["bottom_side"]
    elif "top_radius" in p:
        ratio = p["top_radius"] / p["bottom_radius"]
    else:
        ratio = 1.0
    return Footprint(outline, size, ratio, p["height"])


def outline_points(fp: Footprint, n_circle: int = 96) -> np.ndarray:
    """Counter-clockwise (n, 2) vertices of the bottom outline (a circle as an n-gon)."""
    a, b = fp.size
    if fp.outline in ("rectangle", "square"):
        return np.array([[-a / 2, -b / 2], [a / 2, -b / 2], [a / 2, b / 2], [-a / 2, b / 2]])
    if fp.outline == "triangle":
        return a / math.sqrt(3.0) * exact.cos_sin(np.radians([90.0, 210.0, 330.0]))
    return a * exact.cos_sin(np.linspace(0.0, 2.0 * math.pi, n_circle, endpoint=False))


def stack_bases(descs: list[Desc]) -> list[float]:
    """Base height z0 of every solid of a top-to-bottom stack (the bottom one at 0)."""
    bases = [0.0] * len(descs)
    z = 0.0
    for i in range(len(descs) - 1, -1, -1):
        bases[i] = z
        z += descs[i]["params"]["height"]
    return bases


def make_solid(desc: Desc, z0: float = 0.0) -> Any:
    """The FreeCAD ``Part.Solid`` of ``desc``, centred on the z axis with its base at ``z0``."""
    FreeCAD, Part = freecad_env.load()
    fp = footprint(desc)
    if fp.outline == "circle":
        base, up = FreeCAD.Vector(0.0, 0.0, z0), FreeCAD.Vector(0.0, 0.0, 1.0)
        r = fp.size[0]
        if fp.top_ratio == 1.0:
            return Part.makeCylinder(r, fp.height, base, up)
        return Part.makeCone(r, r * fp.top_ratio, fp.height, base, up)
    if fp.outline in ("rectangle", "square"):
        return _box_frustum(fp, z0)
    z1 = z0 + fp.height
    bottom = [FreeCAD.Vector(float(x), float(y), z0) for x, y in outline_points(fp)]
    # planar faces only (fast booleans): an extruded face, or faces by hand (a loft would
    # make its sides B-spline surfaces, several times slower to cut and fuse)
    if fp.top_ratio == 1.0:
        return _face(bottom).extrude(FreeCAD.Vector(0.0, 0.0, fp.height))
    if fp.top_ratio == 0.0:
        apex = FreeCAD.Vector(0.0, 0.0, z1)
        top = [apex] * len(bottom)
    else:
        top = [FreeCAD.Vector(p.x * fp.top_ratio, p.y * fp.top_ratio, z1) for p in bottom]
    faces = [_face(bottom[::-1])]
    if fp.top_ratio > 0.0:
        faces.append(_face(top))
    for i in range(len(bottom)):
        j = (i + 1) % len(bottom)
        quad = [bottom[i], bottom[j], top[j], top[i]]
        faces.append(_face(quad[:3] if fp.top_ratio == 0.0 else quad))
    return Part.Solid(Part.Shell(faces))


def _box_frustum(fp: Footprint, z0: float) -> Any:
    """A rectangle-based prism, frustum or pyramid as OpenCASCADE's wedge primitive (~80
    times faster than building its faces and shell): the wedge rises along its y axis,
    which an exact permutation matrix turns up (x, y, z -> x, -z, y + z0), so the corners
    are those of :func:`outline_points` scaled by ``top_ratio``, to the bit."""
    FreeCAD, Part = freecad_env.load()
    a, b = fp.size[0] / 2.0, fp.size[1] / 2.0
    ta, tb = a * fp.top_ratio, b * fp.top_ratio
    wedge = Part.makeWedge(-a, 0.0, -b, -tb, -ta, a, fp.height, b, tb, ta)
    wedge.transformShape(FreeCAD.Matrix(1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, z0, 0, 0, 0, 1))
    return wedge


def _face(points: list[Any]) -> Any:
    """Planar face bounded by the closed polygon through ``points``."""
    _, Part = freecad_env.load()
    return Part.Face(Part.makePolygon(points + points[:1]))


def stack_solids(descs: list[Desc]) -> list[Any]:
    """The FreeCAD solids of a top-to-bottom stack where they stand in it, not fused."""
    return [make_solid(d, z0) for d, z0 in zip(descs, stack_bases(descs), strict=True)]


def make_composite(descs: list[Desc]) -> Any:
    """The fused, refined solid of a top-to-bottom stack; raises ValueError if not one solid."""
    parts = stack_solids(descs)
    shape = parts[0].fuse(parts[1:]).removeSplitter() if len(parts) > 1 else parts[0]
    if len(shape.Solids) != 1 or not shape.isValid():
        raise ValueError("the stack does not fuse into one valid solid")
    return shape.Solids[0]


def rescaled(desc: Desc, width: float = 1.0, height: float = 1.0) -> Desc:
    """``desc`` with its horizontal sizes times ``width`` and its height times ``height``."""
    params = {
        k: v * (height if k == "height" else width) for k, v in desc["params"].items()
    }
    return solid(desc["kind"], **params)


def display_name(desc: Desc, article: bool = True) -> str:
    """English name, e.g. "a cone", "a cube", "a square frustum" (or without the article)."""
    kind, p = desc["kind"], desc["params"]
    cube = kind == "cuboid" and p["width"] == p["depth"] == p["height"]
    name = "cube" if cube else kind.replace("_", " ")
    return "a " + name if article else name
