"""The FreeCAD scene of a MechanicalSystem item: gears as extruded tooth profiles, ring
gears, pulleys and drums on their axles, belts as thin bands along their spans, racks as
extruded toothed bars, the rope and the weight; linkages and cams as their drawing's
outlines extruded (bars, sliders, cams, followers, fixed pivots), connecting rods a layer
in front of the cranks and rockers, pins as cylinders through both layers, guide rails
and hatching as thin rods."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad import freecad_env
from spatialcad.cad.scene import Piece, Record, Scene
from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.colours import MECHANISM_COLOURS as COLOURS
from spatialcad.render import mechanism_drawing as md
from spatialcad.render import mechanism_linkage as ml
from spatialcad.render import mechanism_worm as worm_drawing
from spatialcad.tasks.mechanical_system.spec import LINKAGE_QUESTIONS, Spec, geared, parse_spec

THICK = 1.5  # modules: the thickness of every part


def _face(points: np.ndarray) -> Any:
    FreeCAD, Part = freecad_env.load()
    vecs = [FreeCAD.Vector(*map(float, p)) for p in points]
    return Part.Face(Part.makePolygon(vecs + vecs[:1]))


def _worm(p: mech.Part) -> Any:
    """A worm: a core at its thread's root, ridges at its bottom crests' spacing along
    its axle (the scene shows where the thread is; the picture shows its hand)."""
    FreeCAD, Part = freecad_env.load()
    axis = FreeCAD.Vector(*p.axis)
    c = np.asarray(p.centre, dtype=float)
    start = c - worm_drawing.HALF_LENGTH * np.asarray(p.axis, dtype=float)
    solid = Part.makeCylinder(p.radius - mech.DEDENDUM, 2 * worm_drawing.HALF_LENGTH,
                              FreeCAD.Vector(*start), axis)
    first = worm_drawing.bottom_crests(p) - float(c[0])
    k = np.arange(-6, 7)
    for x in first + np.pi * k[np.abs(first + np.pi * k) < worm_drawing.HALF_LENGTH - 0.5]:
        base = c + (float(x) - 0.2 * np.pi) * np.asarray(p.axis, dtype=float)
        solid = solid.fuse(Part.makeCylinder(p.outer, 0.4 * np.pi, FreeCAD.Vector(*base), axis))
    return solid


def build(scene: Scene, record: Record) -> None:
    FreeCAD, Part = freecad_env.load()
    spec = parse_spec(record["spec"])
    if spec.question in LINKAGE_QUESTIONS and not geared(spec):
        scene.put("Mechanism", _linkage(spec))
        return
    parts = {p.name: mech.Part(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, p.teeth,
                               p.phase, bool(p.fixed), p.hand or "") for p in spec.parts}
    pieces = []
    for p in parts.values():
        if p.kind == "worm":
            pieces.append(Piece(f"worm {p.name}", _worm(p), COLOURS["worm"]))
            continue
        shapes = md.part_shapes(p)
        axis = FreeCAD.Vector(*p.axis) if p.turns else FreeCAD.Vector(0, 0, 1)
        solid = _face(shapes[0].points).extrude(axis * THICK)
        hole = shapes[0].hole
        if hole is not None:  # a ring gear's or a carrier's open inside
            solid = solid.cut(_face(hole).extrude(axis * THICK))
        for extra in shapes[1:]:  # a carrier's spokes, hub and pins
            if extra.fill is not None and extra.hole is None:
                solid = solid.fuse(_face(extra.points).extrude(axis * THICK))
        pieces.append(Piece(f"{p.kind} {p.name}", solid, COLOURS[p.kind]))
    for shaft in sorted({p.shaft for p in parts.values() if p.turns}):
        group = [p for p in parts.values() if p.turns and p.shaft == shaft]
        ends = md.axle(group)
        rod = Part.makeCylinder(0.4, float(np.linalg.norm(ends[1] - ends[0])),
                                FreeCAD.Vector(*ends[0]), FreeCAD.Vector(*(ends[1] - ends[0])))
        pieces.append(Piece(f"axle {shaft}", rod, (90, 90, 90)))
    for lk in spec.links:
        for k, s in enumerate(md.link_shapes(parts, lk.kind, lk.a, lk.b)):
            if len(s.points) != 2:  # a pin: through its two bars
                c = s.points.mean(axis=0)
                band = Part.makeCylinder(ml.PIN, 2 * THICK + 0.2,
                                         FreeCAD.Vector(c[0], c[1], c[2] - 0.1))
                pieces.append(Piece(f"{lk.kind} {lk.a}-{lk.b}", band, md.INK))
                continue
            a, b = s.points
            band = Part.makeCylinder(0.25 if lk.kind != "pin" else 0.08,
                                     float(np.linalg.norm(b - a)), FreeCAD.Vector(*a),
                                     FreeCAD.Vector(*(b - a)))
            name = f"guide {lk.b} {k}" if lk.kind == "pin" else f"{lk.kind} {lk.a}-{lk.b} {k + 1}"
            pieces.append(Piece(name, band, s.colour))
    scene.put("Mechanism", pieces)


LAYER = {"rod": 1, "slider": 1, "follower": 1}  # in front of the cranks, rockers and cams


def _linkage(spec: Spec) -> list[Piece]:
    """The linkage's pieces, one a part (its silhouette extruded), pin, fixed pivot or
    guide."""
    FreeCAD, Part = freecad_env.load()
    parts = [mech.Part(p.name, p.kind, p.shaft, p.centre, p.axis, p.radius, 0, p.phase)
             for p in spec.parts]
    kinds = {p.name: p.kind for p in spec.parts}
    shapes = ml.shapes(parts, [(lk.kind, lk.a, lk.b) for lk in spec.links],
                       {p.name: p.profile for p in spec.parts if p.profile is not None})
    solids: dict[str, list[Any]] = {}
    colours: dict[str, tuple[int, int, int]] = {}
    for s in shapes:
        z = FreeCAD.Vector(0, 0, THICK * LAYER.get(kinds.get(s.owner, ""), 0))
        if s.owner.startswith("pin:") or s.owner.startswith("pivot:"):  # through both layers
            c = s.points.mean(axis=0)
            solid = Part.makeCylinder(ml.PIN, 2 * THICK + 0.2, FreeCAD.Vector(c[0], c[1], -0.1))
        elif s.fill is not None:
            solid = _face(s.points).extrude(FreeCAD.Vector(0, 0, THICK)).translated(z)
        else:
            a, b = s.points[0], s.points[-1]
            solid = Part.makeCylinder(0.08, float(np.linalg.norm(b - a)),
                                      FreeCAD.Vector(*a) + z, FreeCAD.Vector(*(b - a)))
        solids.setdefault(s.owner, []).append(solid)
        if s.fill is not None and s.owner not in colours:
            colours[s.owner] = s.fill
    pieces = []
    for owner, found in solids.items():
        shape = found[0] if len(found) == 1 else found[0].fuse(found[1:])
        label = f"{kinds[owner]} {owner}" if owner in kinds else owner.replace(":", " ")
        pieces.append(Piece(label, shape, colours.get(owner, md.INK)))
    return pieces
