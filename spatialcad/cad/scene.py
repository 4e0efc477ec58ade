"""The FreeCAD scene toolkit of the macros: things side by side, cube stacks, flat tiles.

A :class:`Scene` adds the objects of an item's scene to a document: every thing shown (the
reference, each option...) is a group of ``Part::Feature`` objects with readable labels;
things stand side by side along +x, the first one at its own coordinates (so section planes
keep their true offsets).  Each object records its colour in a ``Colour`` property; the GUI
colours (``ViewObject``) are set only when ``FreeCAD.GuiUp``.  Each task's ``scene.py``
builds its items from these pieces; spatialcad/item_scene.py opens an item.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialcad import freecad_env
from spatialcad.geometry import cube_nets, face_patterns
from spatialcad.geometry.colours import Colour

Point = Sequence[float] | np.ndarray
Record = dict[str, Any]

GAP = 1.5  # free space between two things standing side by side
RAISE = 0.01  # symbols and arrows float this high above their cells


@dataclass
class Piece:
    """One object of a thing: its label, shape and colour (and see-through percentage)."""

    label: str
    shape: Any
    colour: Colour
    transparency: int = 0


class Scene:
    """A document being filled with things standing side by side along +x."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.objects: list[Any] = []
        self.right_edge: float | None = None  # x where the things placed so far end

    def put(self, title: str, pieces: list[Piece]) -> None:
        """Add ``pieces`` as one thing in a group titled ``title``, moved together right of
        the previous thing (the first thing stays where it is)."""
        FreeCAD, _ = freecad_env.load()
        boxes = [p.shape.BoundBox for p in pieces]
        x_min, x_max = min(b.XMin for b in boxes), max(b.XMax for b in boxes)
        dx = 0.0 if self.right_edge is None else self.right_edge + GAP - x_min
        self.right_edge = x_max + dx
        group = self.doc.addObject("App::DocumentObjectGroup", identifier(title))
        group.Label = title
        for piece in pieces:
            shape = piece.shape.copy()
            shape.translate(FreeCAD.Vector(dx, 0.0, 0.0))
            obj = self.doc.addObject("Part::Feature", identifier(f"{title} {piece.label}"))
            obj.Label = f"{title}: {piece.label}"
            obj.Shape = shape
            _colour(obj, piece.colour, piece.transparency)
            group.addObject(obj)
            self.objects.append(obj)


def _colour(obj: Any, colour: Colour, transparency: int) -> None:
    FreeCAD, _ = freecad_env.load()
    rgb = tuple(c / 255.0 for c in colour)
    obj.addProperty("App::PropertyColor", "Colour", "Scene", "colour of the item's drawing")
    obj.Colour = rgb
    if FreeCAD.GuiUp:
        obj.ViewObject.ShapeColor = rgb
        obj.ViewObject.Transparency = transparency


def identifier(text: str) -> str:
    """A FreeCAD object name made of ``text`` (FreeCAD appends numbers to repeats)."""
    return re.sub(r"\W+", "_", text, flags=re.ASCII).strip("_")[:60] or "Item"


def option_title(option: Mapping[str, Any], what: str = "") -> str:
    """E.g. "Option B (answer): mirror"."""
    answer = " (answer)" if option["is_answer"] else ""
    return f"Option {option['letter']}{answer}: {what or option['operator'].replace('_', ' ')}"


# ---- cube stacks ------------------------------------------------------------------------

def cubes(cells: Sequence[Sequence[int]]) -> Any:
    """A compound of the unit boxes ``[x, x+1] x [y, y+1] x [z, z+1]``."""
    FreeCAD, Part = freecad_env.load()
    return Part.makeCompound([Part.makeBox(1, 1, 1, FreeCAD.Vector(*map(float, c)))
                              for c in cells])


def stack_piece(cells: Sequence[Sequence[int]], colour: Colour, label: str = "cubes") -> Piece:
    """A stack of unit cubes as one piece, labelled with its cube count."""
    return Piece(f"{label} ({len(cells)})", cubes(cells), colour)


# ---- flat faces and coloured tiles ------------------------------------------------------

def lifted(geom: Any, origin: Point, u: Point, v: Point) -> Any:
    """A shapely (Multi)Polygon of plane coordinates as faces (holes kept) in the plane
    ``origin + x u + y v``."""
    _, Part = freecad_env.load()
    o, du, dv = (np.asarray(a, dtype=np.float64) for a in (origin, u, v))

    def wire(ring: Any) -> Any:
        return Part.makePolygon([vector(o + x * du + y * dv) for x, y in ring.coords])

    faces = [Part.makeFace([wire(p.exterior), *map(wire, p.interiors)],
                           "Part::FaceMakerBullseye") for p in getattr(geom, "geoms", [geom])]
    return Part.makeCompound(faces)


Tile = tuple[str, Colour, Any]  # colour name, colour, flat face


def grid_tiles(picture: Any, colours: Mapping[Any, tuple[str, Colour] | None], origin: Point,
               right: Point, up: Point) -> list[Tile]:
    """Rectangular tiles of a picture (row 0 on top) whose cell values ``colours`` names;
    the top-left corner at ``origin``, one cell ``right`` wide and ``up`` high."""
    _, Part = freecad_env.load()
    o, r, u = (np.asarray(a, dtype=np.float64) for a in (origin, right, up))
    width, height = float(np.linalg.norm(r)), float(np.linalg.norm(u))
    along, normal = vector(r / width), vector(np.cross(u, r) / width / height)
    tiles = []
    for (i, j), value in np.ndenumerate(np.asarray(picture)):
        named = colours.get(value.item())
        if named is not None:
            corner = vector(o + j * r - i * u)
            tiles.append((*named, Part.makePlane(width, height, corner, normal, along)))
    return tiles


def tile_pieces(tiles: list[Tile]) -> list[Piece]:
    """One piece per colour: the compound of that colour's tiles."""
    _, Part = freecad_env.load()
    by_name: dict[str, tuple[Colour, list[Any]]] = {}
    for name, colour, face in tiles:
        by_name.setdefault(name, (colour, []))[1].append(face)
    return [Piece(f"{name} tiles", Part.makeCompound(faces), colour)
            for name, (colour, faces) in by_name.items()]


def flat_face(corners: Sequence[Point]) -> Any:
    _, Part = freecad_env.load()
    points = [vector(p) for p in corners]
    return Part.Face(Part.makePolygon([*points, points[0]]))


def vector(p: Point) -> Any:
    FreeCAD, _ = freecad_env.load()
    return FreeCAD.Vector(*(float(c) for c in p))


# ---- cubes with pictured faces ----------------------------------------------------------

def face_colours(faces: Mapping[str, Any]) -> dict[int, tuple[str, Colour]]:
    """Palette index -> (colour name, or its hex code when unnamed, colour) of a face set."""
    names = faces.get("colour_names") or []
    out = {}
    for i, c in enumerate(faces["palette"]):
        colour: Colour = (int(c[0]), int(c[1]), int(c[2]))
        out[i] = (str(names[i]) if i < len(names) else "#" + bytes(colour).hex(), colour)
    return out


def cube_face_tiles(picture: Any, normal: Point, right: Point, up: Point,
                    colours: Mapping[int, tuple[str, Colour]]) -> list[Tile]:
    """A face picture on the face ``normal`` of the unit cube [0, 1]^3, read with
    ``right`` and ``up`` as seen from outside."""
    nv, r, u = (np.asarray(a, dtype=np.float64) for a in (normal, right, up))
    n = len(picture)
    corner = 0.5 + (nv - r + u) / 2.0
    return grid_tiles(picture, colours, corner, r / n, u / n)


def folded_tiles(cells: Sequence[Sequence[int]], grids: list[np.ndarray],
                 colours: Mapping[int, tuple[str, Colour]]) -> list[Tile]:
    """The cube a net ``[row, col, face, turns]`` folds into (first cell on top)."""
    cube = cube_nets.fold_net([cube_nets.NetCell(*c) for c in cells])
    return [t for normal, (face, up) in cube.items()
            for t in cube_face_tiles(grids[face], normal, cube_nets.cross(up, normal), up,
                                     colours)]


def net_tiles(cells: Sequence[Sequence[int]], grids: list[np.ndarray],
              colours: Mapping[int, tuple[str, Colour]]) -> list[Tile]:
    """A net flat in z = 0, cell (row, col) at x = col, y = -row, pictures turned."""
    out = []
    for row, col, face, turns in cells:
        picture = face_patterns.turned(grids[face], turns)
        n = len(picture)
        out += grid_tiles(picture, colours, (col, -row, 0.0), (1 / n, 0, 0), (0, 1 / n, 0))
    return out


def view_tiles(view: Mapping[str, Any], colours: Mapping[int, tuple[str, Colour]]) -> list[Tile]:
    """The three faces a corner view shows (top, front, right) on the unit cube."""
    return [t for name, (normal, right, up) in cube_nets.VIEW_FACES.items()
            for t in cube_face_tiles(view[name], normal, right, up, colours)]


def net_and_cube(cells: Sequence[Sequence[int]], grids: list[np.ndarray],
                  colours: Mapping[int, tuple[str, Colour]]) -> list[Piece]:
    """The net flat, and beside it the cube it folds into."""
    net = tile_pieces(net_tiles(cells, grids, colours))
    width = max(p.shape.BoundBox.XMax for p in net) + 1.0
    cube = tile_pieces(folded_tiles(cells, grids, colours))
    for p in cube:
        p.shape.translate(vector((width, 0.0, 0.0)))
    return ([Piece(f"net {p.label}", p.shape, p.colour) for p in net]
            + [Piece(f"folded cube {p.label}", p.shape, p.colour) for p in cube])
