"""The FreeCAD scene of a MechanicalSystem item: gears as extruded tooth profiles, ring
gears, pulleys and drums on their axles, belts as thin bands along their spans, racks as
extruded toothed bars, the rope and the weight."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad import freecad_env
from spatialcad.cad.scene import Piece, Record, Scene
from spatialcad.geometry import mechanisms as mech
from spatialcad.geometry.colours import MECHANISM_COLOURS as COLOURS
from spatialcad.render import mechanism_drawing as md
from spatialcad.render import mechanism_worm as worm_drawing
from spatialcad.tasks.mechanical_system.spec import parse_spec

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
            a, b = s.points
            band = Part.makeCylinder(0.25, float(np.linalg.norm(b - a)), FreeCAD.Vector(*a),
                                     FreeCAD.Vector(*(b - a)))
            pieces.append(Piece(f"{lk.kind} {lk.a}-{lk.b} {k + 1}", band, s.colour))
    scene.put("Mechanism", pieces)
