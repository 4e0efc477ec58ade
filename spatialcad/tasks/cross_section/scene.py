"""The FreeCAD scene of a CrossSection item: the composite with the true sections' planes and
sections, its solids pulled apart, and each altered composite with its section."""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.cad import section as cut
from spatialcad.cad import solids
from spatialcad.cad.scene import Piece, Record, Scene, flat_face, lifted, option_title
from spatialcad.geometry.colours import SECTION as SECTION_COLOUR
from spatialcad.geometry.colours import SECTION_PLANE as PLANE_COLOUR
from spatialcad.geometry.colours import SOLID as SOLID_COLOUR
from spatialcad.tasks.cross_section.spec import AXIS_LETTER, Plane, descs, parse_option, parse_spec

EXPLODE = 0.4  # vertical gap between the separately shown solids of a composite
PLANE_MARGIN = 0.3  # a section plane reaches this far beyond its solid's box


def build(scene: Scene, record: Record) -> None:
    spec = parse_spec(record["spec"])
    stacked = descs(spec.solids)
    composite = solids.make_composite(stacked)
    pieces = [Piece("composite solid", composite, SOLID_COLOUR, 20)]
    altered = []
    for o in record["options"]:
        data = parse_option(o["data"])
        if data.solids == spec.solids:
            pieces += _section_pieces(o["letter"], data.plane, composite)
        else:
            altered.append((o, data))
    scene.put("Composite solid, true sections", pieces)
    scene.put("Solids, top to bottom (pulled apart)", [
        Piece(f"solid {i + 1}: {solids.display_name(d, article=False)}",
              solids.make_solid(d, z0 + EXPLODE * (len(stacked) - 1 - i)), SOLID_COLOUR)
        for i, (d, z0) in enumerate(zip(stacked, solids.stack_bases(stacked), strict=True))])
    for o, data in altered:
        changed = solids.make_composite(descs(data.solids))
        scene.put(option_title(o, "section of altered solids"),
                  [Piece("altered composite", changed, SOLID_COLOUR, 20),
                   *_section_pieces(o["letter"], data.plane, changed)])


def plane_words(family: str, offset: float) -> str:
    """E.g. "XZ, y = 0.3" or "XZ turned 45 deg about x, offset -0.26"."""
    if family in cut.AXIS_FAMILIES:
        return f"{family}, {AXIS_LETTER[family]} = {offset:g}"
    start = "XZ" if family[0] == "X" else "YZ"
    return f"{start} turned {family[1:]} deg about {family[0].lower()}, offset {offset:g}"


def _section_pieces(letter: str, plane: Plane, solid: Any) -> list[Piece]:
    """Option ``letter``'s section plane through ``solid`` and the section itself."""
    normal = cut.family_normal(plane.family)
    offset = float(plane.offset)
    u, v = cut.plane_basis(normal)
    origin = normal * offset
    spans = (cut.box_corners(solid) - origin) @ np.stack([u, v], axis=1)
    lo, hi = spans.min(axis=0) - PLANE_MARGIN, spans.max(axis=0) + PLANE_MARGIN
    rectangle = [origin + a * u + b * v for a, b in ((lo[0], lo[1]), (hi[0], lo[1]),
                                                    (hi[0], hi[1]), (lo[0], hi[1]))]
    where = plane_words(plane.family, offset)
    section = cut.section(solid, normal, offset)
    return [Piece(f"option {letter} plane ({where})", flat_face(rectangle), PLANE_COLOUR, 70),
            Piece(f"option {letter} section ({where})",
                  lifted(section, origin.tolist(), u.tolist(), v.tolist()), SECTION_COLOUR)]
