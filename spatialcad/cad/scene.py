"""Rebuild a benchmark item's scene in a FreeCAD document, to look at it in the GUI.

:func:`build_scene` adds the objects that produced an item to a document: cube stacks as
compounds of unit boxes, the composite solids of a cross-section item with its section
planes and sections, an engineering part, and flat coloured tiles for grids, nets and
boards.  Every thing shown (the reference, each option...) is a group of ``Part::Feature``
objects with readable labels; things stand side by side along +x, the first one at its own
coordinates (so section planes keep their true offsets).  Each object records its colour
in a ``Colour`` property; the GUI colours (``ViewObject``) are set only when
``FreeCAD.GuiUp``.  :func:`open_item` finds an item of a benchmark by its id and builds it
in a new document.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from spatialcad import freecad_env
from spatialcad.benchmark import read_records
from spatialcad.cad import parts, solids
from spatialcad.cad import section as cut
from spatialcad.cad.projection import turned
from spatialcad.geometry import cube_nets, face_patterns, grid2d
from spatialcad.geometry import paper as pf
from spatialcad.geometry.arrows import HEADINGS
from spatialcad.records import BENCHMARK, image_path
from spatialcad.render import grid2d as grid_drawing
from spatialcad.render.arrow_drawing import SHAPE as ARROW_SHAPE
from spatialcad.render.paper_drawing import HOLE_RADIUS, PAPER
from spatialcad.render.stacks import CUBE_GREY, RED
from spatialcad.tasks import block_moving, cube_assembly, three_view
from spatialcad.tasks.cross_section import AXIS_LETTER
from spatialcad.tasks.cross_section import COLOR as SOLID_COLOUR

Colour = tuple[int, int, int]
Point = Sequence[float]
Record = dict[str, Any]

GAP = 1.5  # free space between two things standing side by side
RAISE = 0.01  # symbols and arrows float this high above their cells
PATTERN_PIXELS = 12  # a 2DRotation cell symbol as a grid of this many tiles a side
SHEET = 0.05  # thickness of the paper sheets
EXPLODE = 0.4  # vertical gap between the separately shown solids of a composite
PLANE_MARGIN = 0.3  # a section plane reaches this far beyond its solid's box
PLANE_COLOUR: Colour = (120, 170, 255)
SECTION_COLOUR: Colour = (230, 60, 60)
WHITE: Colour = (255, 255, 255)


def item_id(record: Record) -> str:
    """An item's id: its ``"id"`` field, else its image path (as the evaluation uses)."""
    return str(record.get("id") or image_path(record))


def load_records(benchmark: str | Path) -> list[Record]:
    """The records of a ``benchmark.json`` file, or of the benchmark directory holding it."""
    path = Path(benchmark)
    if path.is_dir():
        return read_records(path)
    if path.name != BENCHMARK:
        raise ValueError(f"{path}: expected a {BENCHMARK} file or the directory holding it")
    return read_records(path.parent)


def open_item(benchmark_json: str | Path, wanted: str, doc_name: str | None = None) -> Any:
    """A new FreeCAD document holding the scene of item ``wanted`` of a benchmark."""
    records = load_records(benchmark_json)
    matches = [r for r in records if item_id(r) == wanted]
    if not matches:
        sample = ", ".join(item_id(r) for r in records[:3])
        raise ValueError(f"item {wanted!r} is not in {benchmark_json} ({len(records)} items, "
                         f"ids like {sample})")
    record = matches[0]
    FreeCAD, _ = freecad_env.load()
    doc = FreeCAD.newDocument(doc_name or _identifier(wanted))
    doc.Label = wanted
    doc.Comment = "\n".join(
        [f"spatialcad item {wanted}", record.get("Question") or "",
         f"Answer: {record['Answer']}" if record.get("Answer") else ""]).strip()
    try:
        build_scene(record, doc)
    except Exception:
        FreeCAD.closeDocument(doc.Name)
        raise
    return doc


def build_scene(record: Record, doc: Any) -> list[Any]:
    """Add the scene of ``record`` to ``doc``; return the ``Part::Feature`` objects made."""
    builder = BUILDERS.get(record.get("Task", ""))
    if builder is None:
        raise ValueError(f"no scene for task {record.get('Task')!r} (item {item_id(record)}); "
                         f"known tasks: {', '.join(sorted(BUILDERS))}")
    scene = Scene(doc)
    builder(scene, record)
    doc.recompute()
    return scene.objects


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
        group = self.doc.addObject("App::DocumentObjectGroup", _identifier(title))
        group.Label = title
        for piece in pieces:
            shape = piece.shape.copy()
            shape.translate(FreeCAD.Vector(dx, 0.0, 0.0))
            obj = self.doc.addObject("Part::Feature", _identifier(f"{title} {piece.label}"))
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


def _identifier(text: str) -> str:
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


def _stack(cells: Sequence[Sequence[int]], colour: Colour, label: str = "cubes") -> Piece:
    return Piece(f"{label} ({len(cells)})", cubes(cells), colour)


def _rotation_3d(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    colour = tuple(spec["colour"])
    scene.put("Reference stack", [_stack(spec["voxels"], colour)])
    for o in record["options"]:
        scene.put(option_title(o), [_stack(o["data"]["voxels"], colour)])


def _cube_counting(scene: Scene, record: Record) -> None:
    scene.put("Stack", [_stack(record["spec"]["voxels"], CUBE_GREY)])


def _cube_assembly(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    scene.put("Complete stack", [_stack(spec["voxels"], CUBE_GREY)])
    scene.put("Given parts, in place", [
        _stack(part, cube_assembly.PART_COLOURS[i % len(cube_assembly.PART_COLOURS)],
               f"part {i + 1}") for i, part in enumerate(spec["parts"])])
    for o in record["options"]:
        scene.put(option_title(o), [_stack(o["data"]["voxels"], cube_assembly.OPTION_COLOUR)])


def _block_moving(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    for title, key in (("Initial state", "voxels"), ("Final state", "final")):
        scene.put(title, [Piece(f"{name} cube", cubes([cell]), block_moving.PALETTE[name])
                          for name, cell in zip(spec["colors"], spec[key], strict=True)])


def _three_view(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    if "part" in spec:
        _part(scene, spec)
        return
    stack = [tuple(v) for v in spec["voxels"]]
    red = {tuple(v) for v in spec["red"]}
    scene.put("Stack with red cubes", [
        _stack([v for v in stack if v not in red], CUBE_GREY, "grey cubes"),
        _stack(sorted(red), RED, "red cubes")])
    codes = {1: ("grey", CUBE_GREY), 2: ("red", RED)}
    for o in record["options"]:
        data = o["data"]
        picture = three_view.colour_grid(stack, {tuple(v) for v in data["red"]}, data["view"])
        tiles = grid_tiles(picture, codes, (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
        scene.put(option_title(o), tile_pieces(tiles))


def _part(scene: Scene, spec: Mapping[str, Any]) -> None:
    """The part of a 3ViewProjection item (level >= 1), turned as the item shows it."""
    part = spec["part"]
    solid = turned(parts.load_part(parts.resolve(part["file"])), spec.get("rotation", np.eye(3)))
    scene.put(f"Part {part['name']}", [Piece("solid", solid, SOLID_COLOUR)])


# ---- cross-sections ---------------------------------------------------------------------

def _cross_section(scene: Scene, record: Record) -> None:
    descs = record["spec"]["solids"]
    composite = solids.make_composite(descs)
    pieces = [Piece("composite solid", composite, SOLID_COLOUR, 20)]
    altered = []
    for o in record["options"]:
        if o["data"]["solids"] == descs:
            pieces += _section_pieces(o, composite)
        else:
            altered.append(o)
    scene.put("Composite solid, true sections", pieces)
    scene.put("Solids, top to bottom (pulled apart)", [
        Piece(f"solid {i + 1}: {solids.display_name(d, article=False)}",
              solids.make_solid(d, z0 + EXPLODE * (len(descs) - 1 - i)), SOLID_COLOUR)
        for i, (d, z0) in enumerate(zip(descs, solids.stack_bases(descs), strict=True))])
    for o in altered:
        changed = solids.make_composite(o["data"]["solids"])
        scene.put(option_title(o, "section of altered solids"),
                  [Piece("altered composite", changed, SOLID_COLOUR, 20),
                   *_section_pieces(o, changed)])


def plane_words(family: str, offset: float) -> str:
    """E.g. "XZ, y = 0.3" or "XZ turned 45 deg about x, offset -0.26"."""
    if family in cut.AXIS_FAMILIES:
        return f"{family}, {AXIS_LETTER[family]} = {offset:g}"
    start = "XZ" if family[0] == "X" else "YZ"
    return f"{start} turned {family[1:]} deg about {family[0].lower()}, offset {offset:g}"


def _section_pieces(option: Mapping[str, Any], solid: Any) -> list[Piece]:
    """Option ``option``'s section plane through ``solid`` and the section itself."""
    plane = option["data"]["plane"]
    normal = cut.family_normal(plane["family"])
    offset = float(plane["offset"])
    u, v = cut.plane_basis(normal)
    origin = normal * offset
    box = solid.BoundBox
    corners = np.array([(x, y, z) for x in (box.XMin, box.XMax) for y in (box.YMin, box.YMax)
                        for z in (box.ZMin, box.ZMax)]) - origin
    spans = corners @ np.stack([u, v], axis=1)
    lo, hi = spans.min(axis=0) - PLANE_MARGIN, spans.max(axis=0) + PLANE_MARGIN
    rectangle = [origin + a * u + b * v for a, b in ((lo[0], lo[1]), (hi[0], lo[1]),
                                                    (hi[0], hi[1]), (lo[0], hi[1]))]
    where = plane_words(plane["family"], offset)
    section = cut.section(solid, normal, offset)
    return [Piece(f"option {option['letter']} plane ({where})", _face(rectangle),
                  PLANE_COLOUR, 70),
            Piece(f"option {option['letter']} section ({where})",
                  lifted(section, origin, u, v), SECTION_COLOUR)]


def lifted(geom: Any, origin: Point, u: Point, v: Point) -> Any:
    """A shapely (Multi)Polygon of plane coordinates as faces (holes kept) in the plane
    ``origin + x u + y v``."""
    _, Part = freecad_env.load()
    origin, u, v = (np.asarray(a, dtype=np.float64) for a in (origin, u, v))

    def wire(ring: Any) -> Any:
        return Part.makePolygon([_vector(origin + x * u + y * v) for x, y in ring.coords])

    faces = [Part.makeFace([wire(p.exterior), *map(wire, p.interiors)],
                           "Part::FaceMakerBullseye") for p in getattr(geom, "geoms", [geom])]
    return Part.makeCompound(faces)


# ---- flat coloured tiles ----------------------------------------------------------------

Tile = tuple[str, Colour, Any]  # colour name, colour, flat face


def grid_tiles(picture: Any, colours: Mapping[Any, tuple[str, Colour] | None], origin: Point,
               right: Point, up: Point) -> list[Tile]:
    """Rectangular tiles of a picture (row 0 on top) whose cell values ``colours`` names;
    the top-left corner at ``origin``, one cell ``right`` wide and ``up`` high."""
    _, Part = freecad_env.load()
    origin, right, up = (np.asarray(a, dtype=np.float64) for a in (origin, right, up))
    width, height = float(np.linalg.norm(right)), float(np.linalg.norm(up))
    along, normal = _vector(right / width), _vector(np.cross(up, right) / width / height)
    tiles = []
    for (i, j), value in np.ndenumerate(np.asarray(picture)):
        named = colours.get(value.item())
        if named is not None:
            corner = _vector(origin + j * right - i * up)
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


def _face(corners: Sequence[Point]) -> Any:
    _, Part = freecad_env.load()
    points = [_vector(p) for p in corners]
    return Part.Face(Part.makePolygon([*points, points[0]]))


def _vector(p: Point) -> Any:
    FreeCAD, _ = freecad_env.load()
    return FreeCAD.Vector(*(float(c) for c in p))


def _rotation_2d(scene: Scene, record: Record) -> None:
    scene.put("Reference grid", tile_pieces(rotation_grid_tiles(record["spec"]["reference"])))
    for o in record["options"]:
        scene.put(option_title(o), tile_pieces(rotation_grid_tiles(o["data"]["grid"])))


def rotation_grid_tiles(data: Mapping[str, Any]) -> list[Tile]:
    """A 2DRotation grid in the z = 0 plane, cell (row, col) at x = col, y = -row: coloured
    cells, black symbols slightly above them, and the red corner marker."""
    grid = grid2d.from_json(data)
    rows, cols = grid.shape
    names = {i: (n, grid_drawing.PALETTE[n]) for i, n in enumerate(grid2d.COLOURS)}
    tiles = grid_tiles(grid.colours, names, (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    ink = {True: ("black", grid_drawing.INK)}
    step = 1.0 / PATTERN_PIXELS
    for (r, c), kind in np.ndenumerate(grid.patterns):
        if kind:
            mask = grid_drawing.pattern_mask(grid2d.PATTERNS[kind - 1], PATTERN_PIXELS) >= 0.5
            mask = np.rot90(np.fliplr(mask) if grid.flips[r, c] else mask, grid.turns[r, c])
            tiles += grid_tiles(mask, ink, (c, -r, RAISE), (step, 0.0, 0.0), (0.0, step, 0.0))
    size = 0.3  # the marker square sits just outside its corner
    x = -size if grid.marker[1] == "l" else cols
    y = 0.0 if grid.marker[0] == "t" else -rows - size
    marker = [(x, y + size, 0.0), (x + size, y + size, 0.0), (x + size, y, 0.0), (x, y, 0.0)]
    return [*tiles, ("red marker", grid_drawing.MARKER, _face(marker))]


def _arrow_moving(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    boards = [("Start", spec["start"]), ("End", spec["end"])]
    boards += [(option_title(o), o["data"]["arrows"]) for o in record["options"]
               if "arrows" in o["data"]]
    for title, arrows in boards:
        scene.put(title, tile_pieces(board_tiles(spec["grid"], arrows, spec["palette"])))


def board_tiles(size: Sequence[int], arrows: list[Mapping[str, Any]],
                palette: Mapping[str, Sequence[int]]) -> list[Tile]:
    """An ArrowMoving board: white cells, cell (x, y) at [x, x+1] x [y, y+1], and each arrow
    a coloured outline pointing its heading, slightly above its cell."""
    cells = np.zeros((size[1], size[0]), dtype=int)  # row 0 on top is y = size[1] - 1
    tiles = grid_tiles(cells, {0: ("white", WHITE)}, (0.0, size[1], 0.0), (1.0, 0.0, 0.0),
                       (0.0, 1.0, 0.0))
    for a in arrows:
        shape = ARROW_SHAPE
        for _ in range(HEADINGS.index(a["heading"])):  # a quarter turn clockwise per step
            shape = np.stack([shape[:, 1], -shape[:, 0]], axis=1)
        x, y = a["cell"]
        corners = [(x + 0.5 + du, y + 0.5 + dv, RAISE) for du, dv in shape]
        tiles.append((f"{a['colour']} arrow", tuple(palette[a["colour"]]), _face(corners)))
    return tiles


def _paper_folding(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    folds = [pf.Fold(f["kind"], tuple(f["line"]), f["flap"]) for f in spec["folds"]]
    folded = pf.fold_all(spec["rows"], spec["cols"], folds)[-1]
    plate = punched(folded.outline(), spec["holes"])
    scene.put(f"Folded paper ({len(folds)} folds), punched", [Piece("paper", plate, PAPER)])
    sheet = pf.Paper.sheet(spec["rows"], spec["cols"]).outline()
    for o in record["options"]:
        scene.put(option_title(o, f"unfolded sheet, {len(o['data']['holes'])} holes"),
                  [Piece("paper", punched(sheet, o["data"]["holes"]), PAPER)])


def punched(outline: Any, holes: Sequence[Sequence[int]]) -> Any:
    """A paper outline (sheet coordinates: x right, y down) as a thin plate in z >= 0 at
    x, -y, with a round hole through each cell ``[row, col]`` of ``holes``."""
    FreeCAD, Part = freecad_env.load()
    plate = lifted(outline, (0, 0, 0), (1, 0, 0), (0, -1, 0)).Faces[0].extrude(
        FreeCAD.Vector(0, 0, SHEET))
    drills = [Part.makeCylinder(HOLE_RADIUS, 3 * SHEET, FreeCAD.Vector(c + 0.5, -r - 0.5, -SHEET))
              for r, c in holes]
    return plate.cut(Part.makeCompound(drills))


# ---- cubes with pictured faces ----------------------------------------------------------

def face_colours(faces: Mapping[str, Any]) -> dict[int, tuple[str, Colour]]:
    """Palette index -> (colour name, or its hex code when unnamed, colour) of a face set."""
    names = faces.get("colour_names") or []
    out = {}
    for i, c in enumerate(faces["palette"]):
        colour = tuple(int(v) for v in c)
        out[i] = (names[i] if i < len(names) else "#" + bytes(colour).hex(), colour)
    return out


def cube_face_tiles(picture: Any, normal: Point, right: Point, up: Point,
                    colours: Mapping[int, tuple[str, Colour]]) -> list[Tile]:
    """A face picture on the face ``normal`` of the unit cube [0, 1]^3, read with
    ``right`` and ``up`` as seen from outside."""
    normal, right, up = (np.asarray(a, dtype=np.float64) for a in (normal, right, up))
    n = len(picture)
    corner = 0.5 + (normal - right + up) / 2.0
    return grid_tiles(picture, colours, corner, right / n, up / n)


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


def _net_and_cube(cells: Sequence[Sequence[int]], grids: list[np.ndarray],
                  colours: Mapping[int, tuple[str, Colour]]) -> list[Piece]:
    """The net flat, and beside it the cube it folds into."""
    net = tile_pieces(net_tiles(cells, grids, colours))
    width = max(p.shape.BoundBox.XMax for p in net) + 1.0
    cube = tile_pieces(folded_tiles(cells, grids, colours))
    for p in cube:
        p.shape.translate(_vector((width, 0.0, 0.0)))
    return ([Piece(f"net {p.label}", p.shape, p.colour) for p in net]
            + [Piece(f"folded cube {p.label}", p.shape, p.colour) for p in cube])


def _cube_unfolding(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    colours = face_colours(spec["faces"])
    grids = [np.array(g) for g in spec["faces"]["faces"]]
    scene.put("Reference cube, visible faces", tile_pieces(view_tiles(spec["view"], colours)))
    for o in record["options"]:
        scene.put(option_title(o, f"net {o['data']['net']} ({o['operator'].replace('_', ' ')})"),
                  _net_and_cube(o["data"]["cells"], grids, colours))


def _cube_reconstruction(scene: Scene, record: Record) -> None:
    spec = record["spec"]
    colours = face_colours(spec["faces"])
    grids = [np.array(g) for g in spec["faces"]["faces"]]
    scene.put(f"Reference net {spec['net']}", _net_and_cube(spec["cells"], grids, colours))
    for o in record["options"]:
        if "view" in o["data"]:
            scene.put(option_title(o), tile_pieces(view_tiles(o["data"]["view"], colours)))


BUILDERS: dict[str, Callable[[Scene, Record], None]] = {
    "2DRotation": _rotation_2d,
    "3DRotation": _rotation_3d,
    "3ViewProjection": _three_view,
    "PaperFolding": _paper_folding,
    "CubeUnfolding": _cube_unfolding,
    "CubeReconstruction": _cube_reconstruction,
    "CrossSection": _cross_section,
    "CubeCounting": _cube_counting,
    "CubeAssembly": _cube_assembly,
    "ArrowMoving": _arrow_moving,
    "BlockMoving": _block_moving,
}
