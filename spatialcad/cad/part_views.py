"""Orthographic views and tessellations of a part file turned by one of the 24
axis-aligned rotations.

Hidden-line removal is the slow step (up to seconds for intersecting cylinders) and depends
only on the viewing direction, so a part is projected at most once from each of its six
axis directions: a view of the turned part is such a projection turned in the drawing
plane.  Projections are kept per process, and projections and tessellations in the
content-addressed disk cache (spatialcad/cad/disk_cache.py) that every process and every
shard of a cluster run can share: the key is the part file's SHA-256, the direction or
rotation, the deflection or tolerance, the FreeCAD version and the code itself, so a cached
drawing or mesh is exactly what a fresh computation gives.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from spatialcad.cad import disk_cache, projection, tessellate
from spatialcad.cad.parts import cached_part, part_sha256
from spatialcad.geometry import exact, line_drawing
from spatialcad.geometry.line_drawing import LineDrawing


@lru_cache(maxsize=1)
def _projection_code() -> str:
    """What a projection depends on besides the part: FreeCAD, our projection code and how
    this module stores it."""
    return disk_cache.code_key(projection, line_drawing, sys.modules[__name__])


@lru_cache(maxsize=1)
def _tessellation_code() -> str:
    """What a mesh depends on besides the part: turned(), triangles(), this module."""
    return disk_cache.code_key(projection, tessellate, sys.modules[__name__])


@lru_cache(maxsize=256)
def _part_key(path: Path) -> str:
    return part_sha256(path)


def canonical_axes(toward: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Screen (right, up) used to project from the axis direction ``toward``: up is +z, or
    +y when looking along z."""
    up = np.array([0, 1, 0]) if abs(toward[2]) else np.array([0, 0, 1])
    return np.cross(up, toward), up


@lru_cache(maxsize=512)
def _axis_drawing(path: Path, toward: tuple[int, int, int], deflection: float) -> LineDrawing:
    def make() -> dict[str, np.ndarray]:
        right, up = canonical_axes(np.array(toward))
        drawing = projection.project(cached_part(path), right, up, deflection)
        lines = [*drawing.visible, *drawing.hidden]  # one array, not one per line
        return {"counts": np.array([len(drawing.visible), len(drawing.hidden)]),
                "lengths": np.array([len(p) for p in lines], dtype=np.int64),
                "points": np.concatenate(lines) if lines else np.zeros((0, 2))}

    sha = _part_key(path)
    name = f"{sha}-{'_'.join(map(str, toward))}-{deflection!r}-{_projection_code()}"
    arrays = disk_cache.cached("projections", sha, name, make)
    visible = int(arrays["counts"][0])
    lengths = arrays["lengths"]
    lines = tuple(arrays["points"][end - n:end] for end, n in zip(np.cumsum(lengths), lengths,
                                                                  strict=True))
    return LineDrawing(lines[:visible], lines[visible:])


def _axis_and_turn(rotation: np.ndarray, right: np.ndarray, up: np.ndarray
                   ) -> tuple[tuple[int, int, int], np.ndarray]:
    """The axis direction the part (unturned) is seen from in the view with screen axes
    ``right`` and ``up`` of the part turned by ``rotation``, and the in-plane turn or flip
    of that axis view that gives the view (kept per rotation and view: a run asks for the
    same ones thousands of times)."""
    return _turn_of(*(np.asarray(a, dtype=np.float64).tobytes() for a in (rotation, right, up)))


@lru_cache(maxsize=1024)
def _turn_of(rotation: bytes, right: bytes, up: bytes
             ) -> tuple[tuple[int, int, int], np.ndarray]:
    """:func:`_axis_and_turn` of its arrays' float64 bytes (the matrix read-only: shared)."""
    turn = np.frombuffer(rotation).reshape(3, 3)
    r0 = np.rint(turn.T @ np.frombuffer(right)).astype(int)
    u0 = np.rint(turn.T @ np.frombuffer(up)).astype(int)
    toward = np.cross(r0, u0)
    rc, uc = canonical_axes(toward)
    in_plane = np.array([[r0 @ rc, r0 @ uc], [u0 @ rc, u0 @ uc]], dtype=np.float64)
    in_plane.flags.writeable = False
    return (int(toward[0]), int(toward[1]), int(toward[2])), in_plane


def part_view(path: Path, rotation: np.ndarray, right: np.ndarray, up: np.ndarray,
              deflection: float) -> LineDrawing:
    """The view with screen axes ``right`` and ``up`` (axis-aligned unit vectors in world
    coordinates) of the part in ``path`` turned by ``rotation`` (one of the 24)."""
    toward, in_plane = _axis_and_turn(rotation, right, up)
    return _axis_drawing(path, toward, deflection).transformed(in_plane)


@dataclass(frozen=True)
class ViewOutline:
    """What a view's outline tells (spatialcad/geometry/line_drawing.py, at the view's
    deflection): the area its visible lines enclose and its internal lines."""

    area: float
    internal: tuple[tuple[bool, int], ...]  # (hidden, index), as internal_lines gives them


def part_view_outline(path: Path, rotation: np.ndarray, right: np.ndarray, up: np.ndarray,
                      deflection: float) -> ViewOutline:
    """:class:`ViewOutline` of :func:`part_view`: worked out once per axis view, as an
    in-plane turn or flip keeps the area and the order of the lines."""
    return _axis_outline(path, _axis_and_turn(rotation, right, up)[0], deflection)


@lru_cache(maxsize=512)
def _axis_outline(path: Path, toward: tuple[int, int, int], deflection: float) -> ViewOutline:
    def make() -> dict[str, np.ndarray]:
        drawing = _axis_drawing(path, toward, deflection)
        region = line_drawing.outline(drawing, deflection)
        internal = line_drawing.internal_lines(drawing, deflection, region)
        return {"area": np.array([float(region.area)]),
                "internal": np.array(internal, dtype=np.int64).reshape(-1, 2)}

    sha = _part_key(path)
    name = f"{sha}-{'_'.join(map(str, toward))}-{deflection!r}-{_projection_code()}"
    arrays = disk_cache.cached("outlines", sha, name, make)
    return ViewOutline(float(arrays["area"][0]),
                       tuple((bool(h), int(i)) for h, i in arrays["internal"]))


def part_triangles(path: Path, rotation: np.ndarray, tolerance: float) -> tuple[np.ndarray,
                                                                              np.ndarray]:
    """:func:`spatialcad.cad.tessellate.triangles` of the part in ``path`` turned by
    ``rotation`` (one of the 24), at ``tolerance``."""
    def make() -> dict[str, np.ndarray]:
        vertices, triangles = tessellate.triangles(
            projection.turned(cached_part(path), rotation), tolerance)
        return {"vertices": vertices, "triangles": triangles}

    sha = _part_key(path)
    turn = "_".join(str(int(v)) for v in np.asarray(rotation).ravel())
    arrays = disk_cache.cached("tessellations", sha, f"{sha}-{turn}-{tolerance!r}-"
                               f"{_tessellation_code()}", make)
    return arrays["vertices"], arrays["triangles"]


@lru_cache(maxsize=1)
def _solid_code() -> str:
    """What a part's extents, face count and feature edges depend on besides the part."""
    return disk_cache.code_key(tessellate, sys.modules[__name__])


@dataclass(frozen=True)
class PartSize:
    """A part's bounding-box lengths along x, y and z (mm, OpenCASCADE's box of the solid as
    read) and its number of faces."""

    extents: tuple[float, float, float]
    faces: int


@lru_cache(maxsize=256)
def part_size(path: Path) -> PartSize:
    """:class:`PartSize` of the part in ``path``, from the disk cache when it holds it (so a
    part whose views are cached is not built again)."""
    def make() -> dict[str, np.ndarray]:
        part = cached_part(path)
        box = part.BoundBox
        return {"extents": np.array([box.XLength, box.YLength, box.ZLength], dtype=np.float64),
                "faces": np.array([len(part.Faces)], dtype=np.int64)}

    sha = _part_key(path)
    arrays = disk_cache.cached("sizes", sha, f"{sha}-{_solid_code()}", make)
    x, y, z = (float(v) for v in arrays["extents"])
    return PartSize((x, y, z), int(arrays["faces"][0]))


@lru_cache(maxsize=256)
def _feature_edges(path: Path, deflection: float) -> np.ndarray:
    def make() -> dict[str, np.ndarray]:
        return {"edges": tessellate.feature_edges(cached_part(path), deflection)}

    sha = _part_key(path)
    edges = disk_cache.cached("edges", sha, f"{sha}-{deflection!r}-{_solid_code()}",
                              make)["edges"]
    edges.flags.writeable = False
    return edges


def part_edges(path: Path, rotation: np.ndarray, deflection: float) -> np.ndarray:
    """:func:`spatialcad.cad.tessellate.feature_edges` of the part in ``path`` turned by
    ``rotation`` (one of the 24): the part's own, found once per process, turned (the
    rotation only permutes and negates coordinates; FreeCAD finds the same points for the
    turned part, up to round-off in the last bit)."""
    turned: np.ndarray = exact.matmul(_feature_edges(path, deflection), np.asarray(rotation).T)
    return turned
