"""Orthographic views of a part file turned by one of the 24 axis-aligned rotations.

Hidden-line removal is the slow step (up to seconds for intersecting cylinders) and depends
only on the viewing direction, so a part is projected at most once from each of its six
axis directions: a view of the turned part is such a projection turned in the drawing
plane.  Projections are kept per process and in a content-addressed cache on disk that
every process and every shard of a cluster run can share: the key is the part file's
SHA-256, the direction, the curve deflection, the FreeCAD version and the projection code
itself, so a cached drawing is exactly the drawing a fresh projection gives.  The cache is
``$SPATIALCAD_CACHE_DIR`` (``generate --cache-dir``; empty: no disk cache), by default
``$XDG_CACHE_HOME/spatialcad`` or ``~/.cache/spatialcad``.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from functools import lru_cache
from pathlib import Path

import numpy as np

from spatialcad import freecad_env
from spatialcad.cad import projection
from spatialcad.cad.parts import cached_part, part_sha256
from spatialcad.geometry import line_drawing
from spatialcad.geometry.line_drawing import LineDrawing

CACHE_ENV = "SPATIALCAD_CACHE_DIR"


def cache_dir() -> Path | None:
    """The disk cache's directory, or None when it is switched off."""
    value = os.environ.get(CACHE_ENV)
    if value is not None:
        return Path(value) if value else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "spatialcad"


@lru_cache(maxsize=1)
def _code_key() -> str:
    """What a projection depends on besides the part: FreeCAD and our projection code."""
    FreeCAD, _ = freecad_env.load()
    digest = hashlib.sha256(".".join(FreeCAD.Version()[:3]).encode())
    for module in (projection, line_drawing):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


@lru_cache(maxsize=256)
def _part_key(path: Path) -> str:
    return part_sha256(path)


def _cache_file(path: Path, toward: tuple[int, int, int], deflection: float) -> Path | None:
    root = cache_dir()
    if root is None:
        return None
    sha = _part_key(path)
    name = f"{sha}-{'_'.join(map(str, toward))}-{deflection!r}-{_code_key()}.npz"
    return root / "projections" / sha[:2] / name


def _load(file: Path) -> LineDrawing | None:
    try:
        with np.load(file, allow_pickle=False) as data:
            nv, nh = (int(v) for v in data["counts"])
            return LineDrawing(tuple(data[f"v{i}"] for i in range(nv)),
                               tuple(data[f"h{i}"] for i in range(nh)))
    except (OSError, ValueError, KeyError, EOFError):
        return None  # absent or damaged: projected again and rewritten


def _save(file: Path, drawing: LineDrawing) -> None:
    """Write ``file`` atomically; an unwritable cache is no error (it is only a cache)."""
    arrays: dict[str, np.ndarray] = {
        "counts": np.array([len(drawing.visible), len(drawing.hidden)])}
    arrays |= {f"v{i}": p for i, p in enumerate(drawing.visible)}
    arrays |= {f"h{i}": p for i, p in enumerate(drawing.hidden)}
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            np.savez(f, **arrays)  # type: ignore[arg-type]  # a key could be "allow_pickle"
        os.replace(tmp, file)
    except OSError:
        pass


def canonical_axes(toward: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Screen (right, up) used to project from the axis direction ``toward``: up is +z, or
    +y when looking along z."""
    up = np.array([0, 1, 0]) if abs(toward[2]) else np.array([0, 0, 1])
    return np.cross(up, toward), up


@lru_cache(maxsize=512)
def _axis_drawing(path: Path, toward: tuple[int, int, int], deflection: float) -> LineDrawing:
    file = _cache_file(path, toward, deflection)
    cached = _load(file) if file is not None and file.is_file() else None
    if cached is not None:
        return cached
    right, up = canonical_axes(np.array(toward))
    drawing = projection.project(cached_part(path), right, up, deflection)
    if file is not None:
        _save(file, drawing)
    return drawing


def part_view(path: Path, rotation: np.ndarray, right: np.ndarray, up: np.ndarray,
              deflection: float) -> LineDrawing:
    """The view with screen axes ``right`` and ``up`` (axis-aligned unit vectors in world
    coordinates) of the part in ``path`` turned by ``rotation`` (one of the 24)."""
    r0 = np.rint(rotation.T @ right).astype(int)
    u0 = np.rint(rotation.T @ up).astype(int)
    toward = np.cross(r0, u0)
    rc, uc = canonical_axes(toward)
    in_plane = np.array([[r0 @ rc, r0 @ uc], [u0 @ rc, u0 @ uc]], dtype=np.float64)
    return _axis_drawing(path, tuple(int(t) for t in toward), deflection).transformed(in_plane)
