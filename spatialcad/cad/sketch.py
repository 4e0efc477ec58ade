"""Sketch-and-extrude helpers for writing DeepCAD models in millimetres: sketch planes,
closed loops of lines and arcs, and extrudes (the bundled parts' hand recipes in
``deepcad_assets/make_assets.py`` and the parametric families of
:mod:`spatialcad.cad.part_families`).  Half circles are written as two quarter arcs, so no
file depends on how a reader settles the format's half-circle ambiguity.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from spatialcad.cad.deepcad import Arc, Circle, Curve, DeepCADDoc, Line

Pt = tuple[float, float]
Loop = list[Curve]
Plane = dict[str, tuple[float, float, float]]
Recipe = Callable[[DeepCADDoc], None]

# ------------------------------------------------------------------ sketch planes (mm)


def xy(z: float = 0.0) -> Plane:
    """Horizontal plane at height z; local (u, v) = (x, y); normal +z."""
    return {"origin": (0.0, 0.0, z), "x_axis": (1.0, 0.0, 0.0), "y_axis": (0.0, 1.0, 0.0)}


def xz(y: float = 0.0) -> Plane:
    """Front plane at depth y; local (u, v) = (x, z); normal -y."""
    return {"origin": (0.0, y, 0.0), "x_axis": (1.0, 0.0, 0.0), "y_axis": (0.0, 0.0, 1.0)}


def yz(x: float = 0.0) -> Plane:
    """Side plane at x; local (u, v) = (y, z); normal +x."""
    return {"origin": (x, 0.0, 0.0), "x_axis": (0.0, 1.0, 0.0), "y_axis": (0.0, 0.0, 1.0)}


# ------------------------------------------------------------------------------ loops


def poly(*pts: Pt) -> Loop:
    """Closed polygon through ``pts``."""
    return [Line(a, b) for a, b in zip(pts, pts[1:] + pts[:1], strict=True)]


def rect(x0: float, y0: float, x1: float, y1: float) -> Loop:
    return poly((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def circle(cx: float, cy: float, r: float) -> Loop:
    return [Circle((cx, cy), r)]


def arcs(c: Pt, r: float, a0: float, a1: float) -> list[Curve]:
    """Counter-clockwise arc from a0 to a1 degrees, in pieces of at most 90 degrees."""
    n = max(1, math.ceil((a1 - a0) / 90.0 - 1e-9))
    step = (a1 - a0) / n
    return [Arc(c, r, a0 + i * step, a0 + (i + 1) * step) for i in range(n)]


def on_circle(c: Pt, r: float, deg: float) -> Pt:
    return Arc(c, r, deg, deg).point(deg)


def rrect(x0: float, y0: float, x1: float, y1: float, r: float) -> Loop:
    """Rectangle with its corners rounded to radius r."""
    return [Line((x0 + r, y0), (x1 - r, y0)), Arc((x1 - r, y0 + r), r, 270, 360),
            Line((x1, y0 + r), (x1, y1 - r)), Arc((x1 - r, y1 - r), r, 0, 90),
            Line((x1 - r, y1), (x0 + r, y1)), Arc((x0 + r, y1 - r), r, 90, 180),
            Line((x0, y1 - r), (x0, y0 + r)), Arc((x0 + r, y0 + r), r, 180, 270)]


def slot(a: Pt, b: Pt, r: float) -> Loop:
    """Obround of half-width r around the segment a-b (round ends centred on a and b)."""
    ang = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    nx, ny = -math.sin(math.radians(ang)) * r, math.cos(math.radians(ang)) * r
    return [Line((a[0] - nx, a[1] - ny), (b[0] - nx, b[1] - ny)),
            *arcs(b, r, ang - 90, ang + 90),
            Line((b[0] + nx, b[1] + ny), (a[0] + nx, a[1] + ny)),
            *arcs(a, r, ang + 90, ang + 270)]


def arch(x0: float, x1: float, y0: float, y1: float) -> Loop:
    """Rectangle x0..x1 by y0..y1 topped by the half disc on its top side."""
    c, r = ((x0 + x1) / 2, y1), (x1 - x0) / 2
    return [Line((x0, y0), (x1, y0)), Line((x1, y0), (x1, y1)), *arcs(c, r, 0, 180),
            Line((x0, y1), (x0, y0))]


def two_circle_hull(r1: float, d: float, r2: float) -> Loop:
    """Outline of a circle r1 at the origin, a circle r2 at (d, 0) and their tangents."""
    t = math.degrees(math.acos((r1 - r2) / d))
    c1, c2 = (0.0, 0.0), (d, 0.0)
    return [*arcs(c2, r2, -t, t), Line(on_circle(c2, r2, t), on_circle(c1, r1, t)),
            *arcs(c1, r1, t, 360 - t), Line(on_circle(c1, r1, -t), on_circle(c2, r2, -t))]


def ring_points(r: float, n: int, start_deg: float = 0.0) -> list[Pt]:
    """n points evenly spaced on a circle of radius r about the origin."""
    return [on_circle((0.0, 0.0), r, start_deg + 360.0 * i / n) for i in range(n)]


# --------------------------------------------------------------------------- features


def ext(doc: DeepCADDoc, profiles: Sequence[Sequence[Loop]], plane: Plane, d: float,
        op: str = "new", extent: str = "one", d2: float = 0.0) -> None:
    """Sketch ``profiles`` (each a list of loops, outer first) on ``plane``; extrude them."""
    sid, pids = doc.sketch(profiles, **plane)
    doc.extrude(sid, pids, d, op, extent, d2)


def holes(doc: DeepCADDoc, pts: Sequence[Pt], r: float, plane: Plane, d: float,
          extent: str = "one", d2: float = 0.0) -> None:
    """Cut round holes of radius r centred at ``pts`` of ``plane``."""
    ext(doc, [[circle(x, y, r)] for x, y in pts], plane, d, "cut", extent, d2)
