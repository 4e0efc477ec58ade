"""Can a reader see it without zooming? Cube and dot sizes in the composite, and whether
the cubes that tell an option from a look-alike show in its picture.

Thresholds, for the composite at its native size (a benchmark image is shown to a model
as it is, and to a person at 100 % on a desktop screen, about 96 px per inch at 60 cm):

- ``MIN_CUBE_EDGE_PX = 32``: the shortest projected edge of a cube (an isometric edge is
  0.82 of the pixels per unit).  32 px is about 1/3 inch, 0.8 degrees of visual angle: a
  cube's three shaded faces and its neighbours' edges are told apart at a glance.  A blind
  solver of 44 items zoomed 3-4x into cubes of 20-27 px; 32 px is the size where a model's
  usual 14 px vision patch still spans less than half a cube edge.
- ``MIN_DOT_PX = 10``: a pip's diameter (a dot is 0.68 of its grid block; see
  render/cube_faces.py), along its short axis where a face is seen slanted; 10 px is about
  0.25 degrees, and its colour is read without zooming (the solver's dots were about 8 px);
  it fills most of a model's 14 px vision patch.
- ``MIN_SHOWN = 0.25``: a cube, or the gap a missing cube leaves, counts as shown in a
  picture when at least a quarter of a cube face's area (scale^2 pixels) of it is seen, and
  never fewer than ``MIN_SHOWN_PX`` pixels.
- ``MIN_PIECE_PX = 10``: the width (smallest extent across any direction) of every piece
  of a drawn cross-section (one solid's part of it).  A thinner piece is drawn as little
  more than its two 2 px outlines run together: a line on its neighbour's outline, not a
  shape (a pyramid cut 0.01 below its apex next to a frustum's section).  At 10 px about
  6 px of fill show between the outlines; the same size as a legible dot.
- ``MIN_STEP_PX = 4``: an overhang between two stacked solids shows in an outline that
  jogs by at least this much (twice the outline's 2 px line); one that sticks out
  ``2 * MIN_STEP_PX`` somewhere must show so in CrossSection's side view.
- The composite's longest side stays within ``layout.MAX_WIDTH`` (2048), and its area
  within ``layout.MAX_PIXELS`` (1,003,520: a model's front end would shrink it, and every
  size here with it): a panel may grow until no arrangement of its composite
  (``layout.arrangement``: the usual rows, or e.g. the options in a 2 x 2 grid, the
  references beside them, everything in one row) keeps within both.
- Engineering views (``render/engineering.py``): ``MIN_VIEW_PX = 40``, every orthographic
  view of a part is at least this wide and this high as drawn (1 degree of visual angle,
  the size of a cube edge and a half: room for the outline and a feature inside it; a flat
  plate seen edge on, 10-30 px, shows a bar and nothing else).  ``MIN_HIDDEN_PX``, every
  hidden line is at least one dash and one gap long (``DASH``, 9 + 5 px): shorter, it is a
  stub that reads as a solid line.  A part whose views fail is not used.

Inside :func:`measuring`, the checks a verifier runs also note what they measured (the
cube edge, dot, section piece and dash sizes, in composite pixels): ``spatialcad audit``
reads an item's sizes from its own verifier that way.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

import numpy as np

from spatialcad.geometry.line_drawing import LineDrawing, length
from spatialcad.geometry.voxels import Voxel
from spatialcad.render.camera import Camera
from spatialcad.render.cube_faces import DOT_RADIUS
from spatialcad.render.engineering import DASH
from spatialcad.render.layout import arrangement
from spatialcad.render.stacks import MARGIN, Framing, cube_visibility

_MEASURES: ContextVar[list[tuple[str, float]] | None] = ContextVar("measures", default=None)


@contextmanager
def measuring() -> Iterator[list[tuple[str, float]]]:
    """A list that collects ``(measure, px)`` of every check run inside the block:
    ``"cube edge"`` (edge and grid checks), ``"dot"``, ``"section piece"`` and ``"dash"``
    (an engineering view's hidden-line dash, drawn ``DASH[0]`` px long at the size shown)."""
    found: list[tuple[str, float]] = []
    token = _MEASURES.set(found)
    try:
        yield found
    finally:
        _MEASURES.reset(token)


def _measured(measure: str, px: float) -> None:
    found = _MEASURES.get()
    if found is not None:
        found.append((measure, float(px)))


MIN_CUBE_EDGE_PX = 32.0
MIN_DOT_PX = 10.0
MIN_SHOWN = 0.25
MIN_PIECE_PX = 10.0
MIN_STEP_PX = 4.0
MIN_SHOWN_PX = 30
MIN_VIEW_PX = 40.0
MIN_HIDDEN_PX = DASH[0] + DASH[1]
PROBE_SCALE = 12.0  # px per unit of a quick first look (a face: 144 px, a quarter: 36)
END_ON = 0.99  # an edge whose direction has this cosine with the view is seen end on


def edge_factor(cam: Camera) -> float:
    """Projected length of the shortest unit cube edge not seen end on, per unit of scale."""
    _, _, forward = cam.basis()
    lengths = [math.sqrt(max(0.0, 1.0 - float(f) ** 2)) for f in forward]
    return min(length for length in lengths if length > math.sqrt(1.0 - END_ON**2))


def cube_edge_px(cam: Camera, scale: float, factor: float = 1.0) -> float:
    """The shortest visible cube edge in pixels of a picture drawn at ``scale`` px per
    unit and shown in the composite at ``factor`` times its size."""
    return edge_factor(cam) * scale * factor


def shown_factor(box: Sequence[int], size: Sequence[int]) -> float:
    """How much larger the panel ``box`` = [x, y, w, h] of the composite is than the
    picture of ``size`` = (w, h) drawn for it (below 1 when the row was shrunk)."""
    return min(box[2] / size[0], box[3] / size[1])


def min_scale(cam: Camera) -> float:
    """The smallest pixels per unit at which ``cam`` draws legible cubes."""
    return MIN_CUBE_EDGE_PX / edge_factor(cam)


def grown_side(side: int, scale: float, need: float, margin: int = MARGIN) -> int:
    """The side of a square panel that a picture fitted at ``scale`` into ``side`` needs
    to be drawn at ``need`` px per unit instead (fitted scales grow with side - 2 margin)."""
    if scale >= need:
        return side
    return 2 * margin + math.ceil((side - 2 * margin) * need / scale)


@cache
def fits(panel_width: int, count: int, panel_height: int = 0,
         references: int | None = None) -> bool:
    """Whether ``references`` captioned reference panels (None: ``count``) and ``count``
    lettered option panels of this size fit the composite at their own size, in its sides
    and in its pixels, in one of the arrangements ``layout.compose`` chooses from."""
    panel = (panel_width, panel_height)
    shown = count if references is None else references
    return arrangement([panel] * shown, [panel] * count) is not None


def edge_failures(what: str, cam: Camera, scale: float, factor: float) -> list[str]:
    """A failure when the picture's cubes are smaller than ``MIN_CUBE_EDGE_PX``."""
    px = cube_edge_px(cam, scale, factor)
    _measured("cube edge", px)
    if px + 1e-6 < MIN_CUBE_EDGE_PX:
        return [f"{what}: its cubes' edges are {px:.1f} px, fewer than {MIN_CUBE_EDGE_PX:g}"]
    return []


def grid_failures(what: str, box: Sequence[int], shape: tuple[int, ...]) -> list[str]:
    """A failure when an orthographic view shown at ``box`` = [x, y, w, h], read back as a
    grid of ``shape`` = (rows, cols) cells, has cells narrower than ``MIN_CUBE_EDGE_PX``
    (measured from the pixels: the panel less the drawing margins, over the cells)."""
    rows, cols = shape[:2]
    px = min((box[2] - 2 * MARGIN) / cols, (box[3] - 2 * MARGIN) / rows)
    _measured("cube edge", px)
    if px + 1e-6 < MIN_CUBE_EDGE_PX:
        return [f"{what}: its cubes are {px:.1f} px wide, fewer than {MIN_CUBE_EDGE_PX:g}"]
    return []


def view_problem(drawing: LineDrawing, scale: float) -> tuple[str, str] | None:
    """(reason, detail) when an engineering view drawn at ``scale`` px per mm is not
    legible: empty, narrower or lower than ``MIN_VIEW_PX``, or with a hidden line shorter
    than ``MIN_HIDDEN_PX``; None when it is."""
    if not drawing.visible:
        return "empty view", "the view is empty"
    w, h = (v * scale for v in drawing.size())
    if min(w, h) + 1e-6 < MIN_VIEW_PX:
        return (f"view under {MIN_VIEW_PX:g} px across",
                f"the view is {w:.0f} x {h:.0f} px, under {MIN_VIEW_PX:g} px across")
    short = min((length(p) * scale for p in drawing.hidden), default=math.inf)
    if short + 1e-6 < MIN_HIDDEN_PX:
        return (f"hidden line under {MIN_HIDDEN_PX:g} px",
                f"a hidden line is {short:.1f} px long, shorter than a dash and a gap "
                f"({MIN_HIDDEN_PX:g} px)")
    return None


def panel_failures(what: str, dark: np.ndarray) -> list[str]:
    """A failure when the dark pixels of an engineering view's panel span fewer than
    ``MIN_VIEW_PX`` across in either direction, as read from the image (lines of
    ``LINE_WIDTH`` drawn at the drawing's extremes span it at least).  Its verifier
    compares the panel with the view drawn at full size, so a hidden line's dash shows
    ``DASH[0]`` px long."""
    _measured("dash", DASH[0])
    rows, cols = np.flatnonzero(dark.any(axis=1)), np.flatnonzero(dark.any(axis=0))
    if not len(rows):
        return [f"{what}: the panel is blank"]
    h, w = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
    if min(w, h) < MIN_VIEW_PX:
        return [f"{what}: the view is {w} x {h} px, under {MIN_VIEW_PX:g} px across"]
    return []


def net_dot_px(cell: float, grid: int) -> float:
    """A dot's diameter on a net drawn with ``cell`` px faces of ``grid`` x ``grid`` blocks."""
    return 2.0 * DOT_RADIUS * cell / grid


def view_dot_px(scale: float, grid: int) -> float:
    """The short axis of a dot on a face of a unit cube drawn isometric at ``scale`` px per
    unit (every face is seen at 1 / sqrt 3 foreshortening across its dots)."""
    return 2.0 * DOT_RADIUS * scale / grid / math.sqrt(3.0)


def dot_failures(what: str, dot_px: float) -> list[str]:
    _measured("dot", dot_px)
    if dot_px + 1e-6 < MIN_DOT_PX:
        return [f"{what}: its dots are {dot_px:.1f} px across, fewer than {MIN_DOT_PX:g}"]
    return []


def _cells(cubes: Iterable[Voxel]) -> list[Voxel]:
    return [(int(x), int(y), int(z)) for x, y, z in cubes]


def _shown_px(scale: float) -> float:
    return max(float(MIN_SHOWN_PX), MIN_SHOWN * scale**2)


def _open_framing(cubes: Sequence[Voxel], cam: Camera, scale: float) -> Framing:
    """A framing at ``scale`` large enough to hold every one of ``cubes`` whole."""
    corners = np.array(list(itertools.product((0, 1), repeat=3)))
    points = (np.array(cubes)[:, None, :] + corners[None]).reshape(-1, 3)
    uv = cam.project(points)[:, :2]
    w, h = np.ceil((uv.max(axis=0) - uv.min(axis=0)) * scale).astype(int) + 2 * MARGIN
    return Framing(cam, scale, (int(w), int(h)))


def shown_cells(cubes: Sequence[Voxel], cam: Camera, scale: float) -> set[Voxel]:
    """The cubes of a stack whose picture (``cam``, ``scale``) shows enough of them."""
    vox = _cells(cubes)
    counts = cube_visibility(vox, _open_framing(vox, cam, scale))
    return {v for v, n in zip(vox, counts, strict=True) if n >= _shown_px(scale)}


def gap_shows(cubes: Sequence[Voxel], cell: Voxel, cam: Camera, scale: float) -> bool:
    """Whether a cube at ``cell`` added to the stack would show enough of itself: then its
    absence shows in the stack's picture."""
    vox = _cells([*cubes, cell])
    counts = cube_visibility(vox, _open_framing(vox, cam, scale))
    return counts[-1] >= _shown_px(scale)


def alignments(option: Iterable[Voxel], reference: Iterable[Voxel],
               rotations: Iterable[np.ndarray]) -> list[tuple[set[Voxel], set[Voxel]]]:
    """The option's nearest look-alikes among the reference's turned and moved copies:
    for every rotation and translation whose overlap with the option is within one cube
    of the best, (cubes the option has and the copy lacks, cubes the copy has and the
    option lacks)."""
    opt = set(_cells(option))
    a = np.array(sorted(opt), dtype=np.int64)
    ref = np.array(list(reference), dtype=np.int64).reshape(-1, 3)
    base = 2 * int(max(np.abs(a).max(), np.abs(ref).max())) + 1  # |a shift| < base
    span = np.array([(2 * base) ** 2, 2 * base, 1], dtype=np.int64)
    turns = np.array([np.asarray(m, dtype=np.int64) for m in rotations]).reshape(-1, 3, 3)
    turned = np.einsum("rij,kj->rki", turns, ref)  # every turned reference: ref @ m.T
    # a move of turned copy r is coded r * (2 base)^3 + its shift's code (each shift
    # coordinate + base is in [0, 2 base)): one count of every (rotation, move) at once,
    # in the order of rotations, then of moves
    shifts = (a[None, :, None, :] - turned[:, None, :, :]).reshape(len(turns), -1, 3) + base
    codes = shifts @ span + (2 * base) ** 3 * np.arange(len(turns))[:, None]
    moves, overlap = np.unique(codes, return_counts=True)
    found = []
    for code in moves[overlap >= int(overlap.max()) - 1].tolist():
        r, code = divmod(code, (2 * base) ** 3)
        t = [code // span[0] - base, code // span[1] % (2 * base) - base,
             code % (2 * base) - base]
        copy = set(_cells((turned[r] + np.array(t)).tolist()))
        found.append((opt - copy, copy - opt))
    return found


def hidden_difference(option: Sequence[Voxel], reference: Sequence[Voxel],
                      rotations: Iterable[np.ndarray],
                      views: Sequence[tuple[Camera, float]]) -> bool:
    """True when the option's pictures (one per ``(camera, scale)`` of ``views``) could be
    of a turned copy of the reference: for one of its nearest look-alikes, no cube in which
    they differ (nor the gap of one the option lacks) shows in any of them."""
    shown = set().union(*(shown_cells(option, cam, scale) for cam, scale in views))
    gaps: dict[Voxel, bool] = {}

    def gap(cell: Voxel) -> bool:
        if cell not in gaps:
            gaps[cell] = any(gap_shows(option, cell, cam, scale) for cam, scale in views)
        return gaps[cell]

    for extra, missing in alignments(option, reference, rotations):
        if not extra & shown and not any(gap(c) for c in sorted(missing)):
            return True
    return False


def sliver_failures(what: str, widths: Iterable[float], scale: float) -> list[str]:
    """A failure when a piece of a section shown at ``scale`` px per unit is narrower than
    ``MIN_PIECE_PX``; ``widths``: its pieces' widths in the section's units (0: none)."""
    for w in widths:
        if w > 0.0:
            _measured("section piece", w * scale)
    thin = [w * scale for w in widths if w > 0.0 and w * scale + 1e-6 < MIN_PIECE_PX]
    if thin:
        return [f"{what}: a piece of its section is {min(thin):.1f} px wide, fewer than "
                f"{MIN_PIECE_PX:g}"]
    return []
