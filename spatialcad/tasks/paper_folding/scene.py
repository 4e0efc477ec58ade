"""The FreeCAD scene of a PaperFolding item: the folded, punched paper and each option's
unfolded sheet as thin plates with round holes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spatialcad import freecad_env
from spatialcad.cad.scene import Piece, Record, Scene, lifted, option_title
from spatialcad.geometry import paper as pf
from spatialcad.geometry.colours import PAPER
from spatialcad.render.paper_drawing import HOLE_RADIUS
from spatialcad.tasks.paper_folding.spec import parse_option, parse_spec

SHEET = 0.05  # thickness of the paper sheets


def build(scene: Scene, record: Record) -> None:
    spec = parse_spec(record["spec"])
    folds = [pf.Fold(f.kind, f.line, f.flap) for f in spec.folds]
    folded = pf.fold_all(spec.rows, spec.cols, folds)[-1]
    plate = punched(folded.outline(), spec.holes)
    scene.put(f"Folded paper ({len(folds)} folds), punched", [Piece("paper", plate, PAPER)])
    sheet = pf.Paper.sheet(spec.rows, spec.cols).outline()
    for o in record["options"]:
        holes = parse_option(o["data"]).holes
        scene.put(option_title(o, f"unfolded sheet, {len(holes)} holes"),
                  [Piece("paper", punched(sheet, holes), PAPER)])


def punched(outline: Any, holes: Sequence[Sequence[int]]) -> Any:
    """A paper outline (sheet coordinates: x right, y down) as a thin plate in z >= 0 at
    x, -y, with a round hole through each cell ``[row, col]`` of ``holes``."""
    FreeCAD, Part = freecad_env.load()
    plate = lifted(outline, (0, 0, 0), (1, 0, 0), (0, -1, 0)).Faces[0].extrude(
        FreeCAD.Vector(0, 0, SHEET))
    drills = [Part.makeCylinder(HOLE_RADIUS, 3 * SHEET, FreeCAD.Vector(c + 0.5, -r - 0.5, -SHEET))
              for r, c in holes]
    return plate.cut(Part.makeCompound(drills))
