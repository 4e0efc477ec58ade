"""DeepCAD JSON models (Onshape sketch-and-extrude sequences) as FreeCAD solids, and back.

The format is the ``cad_json`` of the DeepCAD dataset (Wu et al., ICCV 2021): ``entities``
holds ``Sketch`` entities (a ``transform`` frame and named ``profiles``, each a list of
``loops`` of ``Line3D``/``Arc3D``/``Circle3D`` curves) and ``ExtrudeFeature`` entities
(``profiles`` as ``{sketch, profile}`` references, ``extent_type``, ``extent_one`` and
``extent_two`` distances, ``operation``); ``sequence`` orders the features.

Conventions, as checked against real dataset files and Onshape's own bounding boxes:

* Lengths are metres; solids are built in millimetres (x1000) in the model's coordinates.
* Curves are in the sketch's local coordinates (their z is ignored): a local point (u, v)
  is ``origin + u * x_axis + v * y_axis``; extrusion goes along ``z_axis``.
* An ``Arc3D`` is the local counter-clockwise arc starting at direction
  ``reference_vector`` and turning through ``end_angle - start_angle`` (the reference
  direction points at ``start_point`` or at ``end_point``, the curve's ``normal`` does not
  tell which reliably); it is built through its two ends and its point at the mean angle.
  That rule is unambiguous except for half circles, whose half it gets wrong in real files
  (Onshape's bounding box shows a convex slot end built concave): a half circle takes the
  half that continues its neighbours in its loop tangentially (slot ends, rounded tabs and
  U-notches all do), and the rule's half only when neither half is smoother.
* Loops list their curves in no particular order or direction; they are chained by their
  ends.  ``is_outer`` is unreliable (every loop of a washer says true): the loop enclosing
  the largest area is the outer one, the others are holes.
* Extents: OneSide spans [0, e1] along the normal, Symmetric [-|e1|, |e1|], TwoSides the
  union of [0, e1] and [-e2, 0]; a negative distance goes against the normal.
* NewBody and Join fuse into the model, Cut subtracts, Intersect keeps the common part, one
  extrude after the other in ``sequence`` order (DeepCAD's ``cadlib``: ``create_CAD``).  A
  Cut or Intersect before any body exists has nothing to act on and is skipped (Onshape's
  bounding box of such a model leaves it out).  An extrude whose ``profiles`` list is empty
  (2% of real files) is skipped with a :class:`DeepCADWarning`, as DeepCAD's reader skips
  it, and the rest is built.

Files are read as untrusted input (:func:`load_json`): only a regular file of at most
``MAX_JSON_BYTES``, UTF-8 JSON nested at most ``MAX_JSON_DEPTH`` deep (checked by a scan
before decoding, so a hostile file cannot exhaust the decoder's recursion), without NaN
or infinities, whose top level is an object.  Each refusal, like every model that builds
no solid, is a :class:`DeepCADError` whose ``reason`` names its kind for the counts of a
run's summary.

The writer half (:class:`DeepCADDoc` with :class:`Line`, :class:`Arc`, :class:`Circle`)
produces the same format from millimetre inputs.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from spatialcad import freecad_env
from spatialcad.cad.input_files import UnusableFile, read_bytes
from spatialcad.cad.step_io import solids_of
from spatialcad.geometry import exact

M_TO_MM = 1000.0
TOL_MM = 1e-3  # curve ends closer than this are the same point
HALF_CIRCLE_RAD = 1e-4  # an arc whose sweep is this close to pi is a half circle
# Boolean fuzzy value: the dataset rounds to 1e-8 m, so faces meant to coincide (a pocket
# sketched on a slanted face) miss by ~1e-5 mm, which exact booleans turn into garbage.
FUZZ_MM = 1e-4
OPERATIONS = {
    "new": "NewBodyFeatureOperation",
    "join": "JoinFeatureOperation",
    "cut": "CutFeatureOperation",
    "intersect": "IntersectFeatureOperation",
}
EXTENTS = {
    "one": "OneSideFeatureExtentType",
    "symmetric": "SymmetricFeatureExtentType",
    "two": "TwoSidesFeatureExtentType",
}
MAX_JSON_BYTES = 16 * 2**20  # the real files in tests' shared/ folders are under 25 kB
MAX_JSON_DEPTH = 64  # the dataset nests 10 deep; Python's decoder recurses once a level
# reasons (DeepCADError.reason) of the files a run passes over, besides input_files'
MALFORMED = "malformed JSON"
NOT_UTF8 = "not UTF-8"
TOO_DEEP = "too deeply nested"
NON_FINITE = "NaN or infinity"
NOT_OBJECT = "not an object"
NO_EXTRUDE = "no extrude"
INVALID = "invalid model"


class DeepCADError(UnusableFile):
    """A DeepCAD JSON model that cannot be turned into a valid solid; the message says why,
    ``reason`` in a few words that a run's summary counts (e.g. "too deeply nested")."""

    def __init__(self, message: str, reason: str = INVALID) -> None:
        super().__init__(message, reason)


class DeepCADWarning(UserWarning):
    """A defect of a DeepCAD model that the reader skips (the message names file and feature)."""


# ----------------------------------------------------------------------------- reading


def _get(d: Any, key: str, where: str) -> Any:
    if not isinstance(d, dict):
        raise DeepCADError(f"{where}: expected an object, got {type(d).__name__}")
    if key not in d:
        raise DeepCADError(f"{where}: missing key {key!r}")
    return d[key]


def _num(d: Any, key: str, where: str) -> float:
    v = _get(d, key, where)
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise DeepCADError(f"{where}: {key!r} is not a finite number ({v!r})")
    return float(v)


def _vec(d: Any, key: str, where: str) -> np.ndarray:
    p = _get(d, key, where)
    return np.array([_num(p, c, f"{where}.{key}") for c in "xyz"])


@dataclass(frozen=True)
class Frame:
    """A sketch plane: origin (mm) and unit axes in model coordinates."""

    origin: np.ndarray
    x: np.ndarray
    y: np.ndarray
    z: np.ndarray

    def world(self, p: np.ndarray) -> np.ndarray:
        return self.origin + p[0] * self.x + p[1] * self.y


def _frame(sketch: dict, where: str) -> Frame:
    t = _get(sketch, "transform", where)
    where = f"{where}.transform"
    axes = []
    for key in ("x_axis", "y_axis", "z_axis"):
        a = _vec(t, key, where)
        n = exact.norm(a)
        if n < 1e-9:
            raise DeepCADError(f"{where}: {key} is a zero vector")
        axes.append(a / n)
    x, y, z = axes
    if max(abs(exact.dot(x, y)), abs(exact.dot(x, z)), abs(exact.dot(y, z))) > 1e-3:
        raise DeepCADError(f"{where}: axes are not perpendicular")
    return Frame(_vec(t, "origin", where) * M_TO_MM, x, y, z)


@dataclass(frozen=True)
class _Seg:
    """A line (two points) or an arc (start, middle, end; center) in local mm."""

    points: tuple[np.ndarray, ...]
    center: np.ndarray | None = None
    half_circle: bool = False

    @property
    def start(self) -> np.ndarray:
        return self.points[0]

    @property
    def end(self) -> np.ndarray:
        return self.points[-1]

    def reversed(self) -> _Seg:
        return replace(self, points=self.points[::-1])

    def with_ends(self, start: np.ndarray, end: np.ndarray) -> _Seg:
        return replace(self, points=(start, *self.points[1:-1], end))

    def tangent(self, at_end: bool) -> np.ndarray:
        """Unit direction of travel at the start or the end."""
        if self.center is None:
            d = self.end - self.start
        else:
            a, m, b = self.points
            r = (b if at_end else a) - self.center
            ccw = _cross(m - a, b - m) > 0
            d = np.array([-r[1], r[0]]) if ccw else np.array([r[1], -r[0]])
        return d / exact.norm(d)


@dataclass(frozen=True)
class _Ring:
    """A full circle in local mm."""

    center: np.ndarray
    radius: float


def _local(c: dict, key: str, where: str) -> np.ndarray:
    return _vec(c, key, where)[:2] * M_TO_MM


def _cross(u: np.ndarray, v: np.ndarray) -> float:
    return float(u[0] * v[1] - u[1] * v[0])


def _rotate(v: np.ndarray, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def _arc(c: dict, where: str) -> _Seg:
    start, end = _local(c, "start_point", where), _local(c, "end_point", where)
    center = _local(c, "center_point", where)
    radius = _num(c, "radius", where) * M_TO_MM
    a0, a1 = _num(c, "start_angle", where), _num(c, "end_angle", where)
    ref = _vec(c, "reference_vector", where)[:2]
    if radius < TOL_MM or exact.norm(ref) < 1e-9:
        raise DeepCADError(f"{where}: degenerate arc (radius {radius:g} mm)")
    ref = ref / exact.norm(ref)
    ends = [center + radius * _rotate(ref, a) for a in (a0, a1)]
    gap = min(max(exact.norm(ends[0] - start), exact.norm(ends[1] - end)),
              max(exact.norm(ends[0] - end), exact.norm(ends[1] - start)))
    if gap > max(10 * TOL_MM, 0.01 * radius):
        raise DeepCADError(f"{where}: arc angles and end points disagree by {gap:.3g} mm")
    mid = center + radius * _rotate(ref, 0.5 * (a0 + a1))
    return _Seg((start, mid, end), center, abs(abs(a1 - a0) - math.pi) < HALF_CIRCLE_RAD)


def _curve(c: Any, where: str) -> _Seg | _Ring | None:
    """One profile curve; None for a zero-length line (dropped, as Onshape does)."""
    kind = _get(c, "type", where)
    if kind == "Line3D":
        a, b = _local(c, "start_point", where), _local(c, "end_point", where)
        return None if exact.norm(b - a) < TOL_MM else _Seg((a, b))
    if kind == "Arc3D":
        return _arc(c, where)
    if kind == "Circle3D":
        radius = _num(c, "radius", where) * M_TO_MM
        if radius < TOL_MM:
            raise DeepCADError(f"{where}: degenerate circle (radius {radius:g} mm)")
        return _Ring(_local(c, "center_point", where), radius)
    raise DeepCADError(f"{where}: unsupported curve type {kind!r}")


def _chain(segs: list[_Seg], where: str) -> list[_Seg]:
    """Order and orient ``segs`` into one closed chain whose shared ends are identical."""
    rest = list(segs)
    chain = [rest.pop(0)]
    while rest:
        tip = chain[-1].end
        dists = [min(exact.norm(s.start - tip), exact.norm(s.end - tip)) for s in rest]
        k = int(np.argmin(dists))
        if dists[k] > TOL_MM:
            if exact.norm(tip - chain[0].start) <= TOL_MM:
                raise DeepCADError(f"{where}: curves form more than one closed chain")
            u, v = tip
            raise DeepCADError(f"{where}: profile does not close: open end at "
                               f"({u:.4g}, {v:.4g}) mm in the sketch plane")
        s = rest.pop(k)
        if exact.norm(s.start - tip) > exact.norm(s.end - tip):
            s = s.reversed()
        chain.append(s.with_ends(tip, s.end))
    gap = exact.norm(chain[-1].end - chain[0].start)
    if gap > TOL_MM:
        u, v = chain[-1].end
        raise DeepCADError(f"{where}: profile does not close: gap of {gap:.4g} mm at "
                           f"({u:.4g}, {v:.4g}) in the sketch plane")
    chain[-1] = chain[-1].with_ends(chain[-1].start, chain[0].start)
    return _settle_half_circles(chain)


def _settle_half_circles(chain: list[_Seg]) -> list[_Seg]:
    """Flip each half circle of a closed chain to the half tangent to its neighbours."""
    for i, seg in enumerate(chain):
        if not seg.half_circle or len(chain) == 1:
            continue
        assert seg.center is not None
        a, m, b = seg.points
        bulge = (m - seg.center) / exact.norm(m - seg.center)
        t_in = chain[i - 1].tangent(at_end=True)
        t_out = chain[(i + 1) % len(chain)].tangent(at_end=False)
        # leaving a, a half circle heads along its bulge; arriving at b, against it
        if exact.dot(t_in, bulge) - exact.dot(t_out, bulge) < -0.1:
            chain[i] = replace(seg, points=(a, 2.0 * seg.center - m, b))
    return chain


def _loop(loop: Any, where: str) -> _Ring | list[_Seg]:
    curves = _get(loop, "profile_curves", where)
    if not isinstance(curves, list) or not curves:
        raise DeepCADError(f"{where}: empty loop")
    parts = [_curve(c, f"{where} curve {i}") for i, c in enumerate(curves)]
    rings = [p for p in parts if isinstance(p, _Ring)]
    segs = [p for p in parts if isinstance(p, _Seg)]
    if rings:
        if len(parts) > 1:
            raise DeepCADError(f"{where}: a full circle shares its loop with other curves")
        return rings[0]
    if not segs:
        raise DeepCADError(f"{where}: every curve of the loop has zero length")
    return _chain(segs, where)


def _wire(loop: _Ring | list[_Seg], frame: Frame) -> Any:
    FreeCAD, Part = freecad_env.load()

    def v(p: np.ndarray) -> Any:
        return FreeCAD.Vector(*frame.world(p))

    if isinstance(loop, _Ring):
        circle = Part.Circle(v(loop.center), FreeCAD.Vector(*frame.z), loop.radius)
        return Part.Wire(circle.toShape())
    edges = [Part.LineSegment(v(s.start), v(s.end)).toShape() if len(s.points) == 2
             else Part.Arc(*(v(p) for p in s.points)).toShape() for s in loop]
    return Part.Wire(edges)


def _face(profile: Any, frame: Frame, where: str) -> Any:
    """The planar face of a profile: its largest loop minus the others."""
    _, Part = freecad_env.load()
    loops = _get(profile, "loops", where)
    if not isinstance(loops, list) or not loops:
        raise DeepCADError(f"{where}: profile has no loops")
    wires = [_wire(_loop(lp, f"{where} loop {i}"), frame) for i, lp in enumerate(loops)]
    areas = [Part.Face(w).Area for w in wires]
    order = np.argsort(areas)[::-1]
    outer, holes = wires[order[0]], [wires[i] for i in order[1:]]
    face = Part.makeFace([outer, *holes], "Part::FaceMakerBullseye") if holes else Part.Face(outer)
    expected = areas[order[0]] - sum(areas[i] for i in order[1:])
    if len(face.Faces) != 1 or abs(face.Area - expected) > 1e-6 * areas[order[0]]:
        raise DeepCADError(f"{where}: inner loops are not all inside the outer loop")
    return face.Faces[0]


def _span(extrude: dict, where: str) -> tuple[float, float]:
    """(low, high) offsets in mm along the sketch normal."""
    kind = _get(extrude, "extent_type", where)
    sides = {"one": ["extent_one"], "symmetric": ["extent_one"],
             "two": ["extent_one", "extent_two"]}
    short = {v: k for k, v in EXTENTS.items()}.get(kind)
    if short is None:
        raise DeepCADError(f"{where}: unsupported extent_type {kind!r}")
    dists = []
    for key in sides[short]:
        ext = _get(extrude, key, where)
        if _get(ext, "type", f"{where}.{key}") != "DistanceExtentDefinition":
            raise DeepCADError(f"{where}: {key} is not a distance extent ({ext['type']!r})")
        taper = _get(ext, "taper_angle", f"{where}.{key}")
        if _num(taper, "value", f"{where}.{key}.taper_angle") != 0.0:
            raise DeepCADError(f"{where}: tapered extrudes are not supported")
        dists.append(_num(_get(ext, "distance", f"{where}.{key}"), "value",
                          f"{where}.{key}.distance") * M_TO_MM)
    if short == "symmetric":
        ends = [-abs(dists[0]), abs(dists[0])]
    elif short == "two":
        ends = [0.0, dists[0], -dists[1]]
    else:
        ends = [0.0, dists[0]]
    lo, hi = min(ends), max(ends)
    if hi - lo < TOL_MM:
        raise DeepCADError(f"{where}: zero extrude distance")
    return lo, hi


def _label(eid: str, entity: Any) -> str:
    name = entity.get("name") if isinstance(entity, dict) else None
    return f"{eid} ({name})" if name else eid


def _prism(entities: dict, extrude: dict, where: str) -> Any:
    """The solid swept by one ExtrudeFeature (all its profiles, fused)."""
    FreeCAD, _ = freecad_env.load()
    start = _get(_get(extrude, "start_extent", where), "type", f"{where}.start_extent")
    if start != "ProfilePlaneStartDefinition":
        raise DeepCADError(f"{where}: unsupported start_extent {start!r}")
    refs = _get(extrude, "profiles", where)
    if not isinstance(refs, list) or not refs:
        raise DeepCADError(f"{where}: 'profiles' must be a non-empty list")
    lo, hi = _span(extrude, where)
    pairs = [(_get(r, "sketch", where), _get(r, "profile", where)) for r in refs]
    prisms = []
    for sid, pid in dict.fromkeys(pairs):  # the dataset sometimes repeats a profile
        sketch = entities.get(sid)
        if not isinstance(sketch, dict) or sketch.get("type") != "Sketch":
            raise DeepCADError(f"{where}: profile refers to unknown sketch {sid!r}")
        swhere = _label(sid, sketch)
        frame = _frame(sketch, swhere)
        profile = _get(_get(sketch, "profiles", swhere), pid, f"{swhere}.profiles")
        face = _face(profile, frame, f"{swhere} profile {pid}")
        face.translate(FreeCAD.Vector(*(frame.z * lo)))
        prisms.append(face.extrude(FreeCAD.Vector(*(frame.z * (hi - lo)))))
    return prisms[0] if len(prisms) == 1 else prisms[0].fuse(prisms[1:], FUZZ_MM)


def _combine(body: Any, tool: Any, operation: str, where: str) -> Any:
    short = {v: k for k, v in OPERATIONS.items()}.get(operation)
    if short is None:
        raise DeepCADError(f"{where}: unsupported operation {operation!r}")
    if body is None:
        return tool if short in ("new", "join") else None
    if short in ("new", "join"):
        return body.fuse([tool], FUZZ_MM)
    return body.cut([tool], FUZZ_MM) if short == "cut" else body.common([tool], FUZZ_MM)


def build(data: Any, skipped: list[str] | None = None) -> Any:
    """The solid (``Part.Solid``, or a compound of solids) of a parsed DeepCAD JSON model.
    Extrudes with an empty ``profiles`` list are left out, each with a line appended to
    ``skipped``."""
    _, Part = freecad_env.load()
    if not isinstance(data, dict):
        raise DeepCADError(f"model: {NOT_OBJECT} (the JSON is a {type(data).__name__})",
                           NOT_OBJECT)
    entities = _get(data, "entities", "model")
    steps = _get(data, "sequence", "model")
    if not isinstance(entities, dict) or not isinstance(steps, list):
        raise DeepCADError("model: 'entities' must be an object and 'sequence' a list")
    body = None
    extrudes, empty = 0, list[str]()
    for i, step in enumerate(steps):
        eid = _get(step, "entity", f"sequence[{i}]")
        entity = entities.get(eid)
        if not isinstance(entity, dict):
            raise DeepCADError(f"sequence[{i}]: unknown entity {eid!r}")
        kind = _get(entity, "type", _label(eid, entity))
        if kind == "Sketch":
            continue  # sketches are read when an extrude uses them
        if kind != "ExtrudeFeature":
            raise DeepCADError(f"{_label(eid, entity)}: unsupported feature type {kind!r}")
        where = _label(eid, entity)
        if _get(entity, "profiles", where) == []:
            empty.append(f"{where}: empty profiles list, extrude skipped")
            continue
        extrudes += 1
        try:
            tool = _prism(entities, entity, where)
            body = _combine(body, tool, _get(entity, "operation", where), where)
        except Part.OCCError as exc:
            raise DeepCADError(f"{where}: geometry kernel failed ({exc})") from exc
    if not extrudes:
        raise DeepCADError("model: no extrude with a profile (every profiles list is empty)"
                           if empty else "model: no extrude (the model holds only sketches)",
                           NO_EXTRUDE)
    if skipped is not None:
        skipped.extend(empty)
    if body is None or not body.Solids:
        raise DeepCADError("model: the result holds no solid")
    body = body.removeSplitter()
    if not body.isValid():
        raise DeepCADError("model: the result is not a valid solid")
    if body.Volume < TOL_MM**3:
        raise DeepCADError(f"model: the result has zero volume ({body.Volume:.3g} mm^3)")
    return solids_of(body)


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)  # a JSON string, escapes included


def nesting_depth(data: bytes) -> int:
    """How deep the arrays and objects of the JSON text ``data`` nest (brackets outside
    strings counted in one pass, without recursion); an upper bound for malformed text."""
    bare = np.frombuffer(_STRING.sub(b"", data), np.uint8)
    opens = (bare == ord("[")) | (bare == ord("{"))
    brackets = opens | (bare == ord("]")) | (bare == ord("}"))
    steps = opens[brackets].astype(np.int32) * 2 - 1  # +1 opening, -1 closing
    return int(np.cumsum(steps, dtype=np.int32).max(initial=0))


def _no_constant(name: str) -> Any:
    raise DeepCADError(f"{NON_FINITE} ({name} is no JSON number)", NON_FINITE)


def load_json(path: str | Path) -> Any:
    """The parsed JSON of ``path`` (read as untrusted, see the module's docstring);
    :class:`DeepCADError` naming the file, with its ``reason``, if it cannot be used."""
    path = Path(path)
    try:
        data = read_bytes(path, MAX_JSON_BYTES)
    except UnusableFile as exc:
        raise DeepCADError(str(exc), exc.reason) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DeepCADError(f"{path.name}: {NOT_UTF8} (byte {exc.start})", NOT_UTF8) from exc
    if (depth := nesting_depth(data)) > MAX_JSON_DEPTH:
        raise DeepCADError(f"{path.name}: {TOO_DEEP} ({depth} levels; at most "
                           f"{MAX_JSON_DEPTH} are read)", TOO_DEEP)
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DeepCADError(f"{path.name}: {MALFORMED} ({exc.msg} at line {exc.lineno}, "
                           f"column {exc.colno})", MALFORMED) from exc
    except DeepCADError as exc:
        raise DeepCADError(f"{path.name}: {exc}", exc.reason) from exc


def read_deepcad(path: str | Path) -> Any:
    """The solid of a DeepCAD JSON file in mm; :class:`DeepCADError` naming file and reason.
    Each feature left out (:func:`build`) is a :class:`DeepCADWarning` naming the file."""
    path = Path(path)
    data = load_json(path)
    skipped: list[str] = []
    try:
        solid = build(data, skipped)
    except DeepCADError as exc:
        raise DeepCADError(f"{path.name}: {exc}", exc.reason) from exc
    for line in skipped:
        warnings.warn(f"{path.name}: {line}", DeepCADWarning, stacklevel=2)
    return solid


# ------------------------------------------------------------------------------ bounds


def bbox_of(shape: Any) -> tuple[float, float, float, float, float, float]:
    """(min x, y, z, max x, y, z) of the geometry; a copy, because once a shape is
    tessellated OpenCASCADE bounds its triangles instead (inside curved faces)."""
    b = shape.copy().BoundBox
    return (b.XMin, b.YMin, b.ZMin, b.XMax, b.YMax, b.ZMax)


# ------------------------------------------------------------------------------ writing


@dataclass(frozen=True)
class Line:
    """A sketch line from ``a`` to ``b`` (local mm)."""

    a: tuple[float, float]
    b: tuple[float, float]


@dataclass(frozen=True)
class Arc:
    """A sketch arc, counter-clockwise from ``start_deg`` to ``end_deg`` (local mm)."""

    center: tuple[float, float]
    radius: float
    start_deg: float
    end_deg: float

    def point(self, deg: float) -> tuple[float, float]:
        t = math.radians(deg)
        return (self.center[0] + self.radius * math.cos(t),
                self.center[1] + self.radius * math.sin(t))


@dataclass(frozen=True)
class Circle:
    """A full sketch circle (local mm)."""

    center: tuple[float, float]
    radius: float


Curve = Line | Arc | Circle


def _xyz(v: Sequence[float] | np.ndarray, scale: float = 1.0 / M_TO_MM) -> dict[str, float]:
    return {c: round(float(x) * scale, 12) + 0.0 for c, x in zip("xyz", (*v, 0.0)[:3],
                                                                  strict=True)}


def _distance(value_mm: float, role: str, taper_role: str) -> dict[str, Any]:
    def param(v: float, r: str) -> dict[str, Any]:
        return {"type": "ModelParameter", "role": r, "name": "none", "value": v}

    return {"distance": param(round(value_mm / M_TO_MM, 12), role),
            "type": "DistanceExtentDefinition", "taper_angle": param(0.0, taper_role)}


class DeepCADDoc:
    """Builds a DeepCAD JSON model from millimetre inputs (written in metres)."""

    def __init__(self) -> None:
        self.entities: dict[str, Any] = {}
        self.sequence: list[dict[str, Any]] = []
        self._curves = 0

    def _add(self, kind: str, prefix: str, entity: dict[str, Any]) -> str:
        n = sum(e["type"] == kind for e in self.entities.values()) + 1
        eid = f"{prefix}{n}"
        self.entities[eid] = entity
        self.sequence.append({"index": len(self.sequence), "type": kind, "entity": eid})
        return eid

    def _curve(self, c: Curve, normal: dict[str, float]) -> dict[str, Any]:
        self._curves += 1
        cid = f"C{self._curves}"
        if isinstance(c, Line):
            return {"type": "Line3D", "start_point": _xyz(c.a), "curve": cid,
                    "end_point": _xyz(c.b)}
        if isinstance(c, Circle):
            return {"center_point": _xyz(c.center), "type": "Circle3D",
                    "radius": round(c.radius / M_TO_MM, 12), "curve": cid, "normal": normal}
        t0, t1 = math.radians(c.start_deg), math.radians(c.end_deg)
        return {"center_point": _xyz(c.center), "normal": normal,
                "end_point": _xyz(c.point(c.end_deg)), "start_angle": 0.0, "curve": cid,
                "end_angle": round(t1 - t0, 12), "radius": round(c.radius / M_TO_MM, 12),
                "type": "Arc3D", "start_point": _xyz(c.point(c.start_deg)),
                "reference_vector": _xyz((math.cos(t0), math.sin(t0)), 1.0)}

    def sketch(self, profiles: Sequence[Sequence[Sequence[Curve]]],
               origin: Sequence[float] = (0, 0, 0), x_axis: Sequence[float] = (1, 0, 0),
               y_axis: Sequence[float] = (0, 1, 0)) -> tuple[str, list[str]]:
        """Add a sketch; ``profiles`` is a list of profiles, each a list of loops (outer
        first), each a list of curves.  Returns the sketch id and its profile ids."""
        x, y = np.asarray(x_axis, float), np.asarray(y_axis, float)
        normal = _xyz(np.cross(x, y), 1.0)
        pids = [f"P{i + 1}" for i in range(len(profiles))]
        body = {pid: {"loops": [{"is_outer": k == 0,
                                 "profile_curves": [self._curve(c, normal) for c in loop]}
                                for k, loop in enumerate(loops)], "properties": {}}
                for pid, loops in zip(pids, profiles, strict=True)}
        transform = {"origin": _xyz(origin), "y_axis": _xyz(y, 1.0), "x_axis": _xyz(x, 1.0),
                     "z_axis": normal}
        n = sum(e["type"] == "Sketch" for e in self.entities.values()) + 1
        sid = self._add("Sketch", "S", {"transform": transform, "type": "Sketch",
                                        "name": f"Sketch {n}", "profiles": body,
                                        "reference_plane": {}})
        return sid, pids

    def extrude(self, sketch: str, profiles: Sequence[str], distance: float,
                operation: str = "new", extent: str = "one", distance_two: float = 0.0) -> str:
        """Add an extrude of ``profiles`` of ``sketch``; ``operation`` in new/join/cut/
        intersect, ``extent`` in one/symmetric/two (distances in mm)."""
        n = sum(e["type"] == "ExtrudeFeature" for e in self.entities.values()) + 1
        return self._add("ExtrudeFeature", "E", {
            "name": f"Extrude {n}", "type": "ExtrudeFeature",
            "profiles": [{"profile": p, "sketch": sketch} for p in profiles],
            "extent_two": _distance(distance_two, "AgainstDistance", "Side2TaperAngle"),
            "extent_one": _distance(distance, "AlongDistance", "TaperAngle"),
            "operation": OPERATIONS[operation],
            "start_extent": {"type": "ProfilePlaneStartDefinition"},
            "extent_type": EXTENTS[extent]})

    def as_dict(self, bbox: Sequence[float] | None = None) -> dict[str, Any]:
        """The JSON model; ``bbox`` (min xyz, max xyz in mm) fills ``properties``."""
        props: dict[str, Any] = {}
        if bbox is not None:
            props["bounding_box"] = {"max_point": _xyz(bbox[3:]), "type": "BoundingBox3D",
                                     "min_point": _xyz(bbox[:3])}
        return {"entities": self.entities, "properties": props, "sequence": self.sequence}
