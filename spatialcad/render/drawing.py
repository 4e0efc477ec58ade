"""2D line drawings with OpenCV: filled shapely shapes, solid/dashed polylines, text panels."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence

import numba
import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import (
    GeometryCollection,
    LinearRing,
    LineString,
    MultiLineString,
    MultiPolygon,
    Point,
    Polygon,
)
from shapely.geometry.base import BaseGeometry

from spatialcad.geometry.colours import Colour as Color
from spatialcad.render.pixels import plain
from spatialcad.render.raster import remembered

from .opencv import cv2

FONT = cv2.FONT_HERSHEY_SIMPLEX
_SHIFT = 4  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT
MARGIN = 16  # px left free around fitted shapes (draw_shapes)


def _canvas(size: tuple[int, int], background: Color, one_channel: bool = False
            ) -> np.ndarray:
    """An image of ``size`` in ``background`` (``one_channel``: (H, W), its first channel)."""
    w, h = int(size[0]), int(size[1])
    if w <= 0 or h <= 0:
        raise ValueError(f"bad image size {size!r}")
    return np.full((h, w), background[0], dtype=np.uint8) if one_channel else plain(
        w, h, background)


def fitted_scale(bounds: Sequence[float], size: Sequence[int], margin: int = MARGIN) -> float:
    """The px per unit at which :func:`draw_shapes` fits ``bounds`` (minx, miny, maxx, maxy)
    into ``size`` less ``margin`` on each side."""
    minx, miny, maxx, maxy = (float(b) for b in bounds)
    aw, ah = max(1, int(size[0]) - 2 * margin), max(1, int(size[1]) - 2 * margin)
    cands = [aw / (maxx - minx)] if maxx - minx > 1e-12 else []
    if maxy - miny > 1e-12:
        cands.append(ah / (maxy - miny))
    return min(cands) if cands else 1.0


class _Frame:
    """World (x, y) -> pixel mapping: ``scale`` px per unit, ``center`` at the image centre."""

    def __init__(
        self,
        bounds: tuple[float, float, float, float],
        size: tuple[int, int],
        margin: int,
        scale: float | None,
        flip_y: bool = True,
    ) -> None:
        minx, miny, maxx, maxy = (float(b) for b in bounds)
        self.w, self.h = int(size[0]), int(size[1])
        self.scale = float(fitted_scale(bounds, size, margin) if scale is None else scale)
        self.cx, self.cy = (minx + maxx) / 2.0, (miny + maxy) / 2.0
        self.flip = flip_y

    def px(self, xy: np.ndarray) -> npt.NDArray[np.float64]:
        """Float pixel coordinates (cv2 convention: pixel centres at integers)."""
        xy = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        x = (xy[:, 0] - self.cx) * self.scale + self.w / 2.0 - 0.5
        dy = (xy[:, 1] - self.cy) * self.scale
        y = (self.h / 2.0 - dy if self.flip else self.h / 2.0 + dy) - 0.5
        return np.stack([x, y], axis=1)

    def fixed(self, xy: np.ndarray) -> npt.NDArray[np.int32]:
        """Fixed-point int32 pixel coordinates for cv2 calls with ``shift``."""
        return np.rint(self.px(xy) * _ONE).astype(np.int32)


def _flatten(geoms: Iterable[BaseGeometry]) -> list[BaseGeometry]:
    out: list[BaseGeometry] = []
    for g in geoms:
        if g is None or g.is_empty:
            continue
        if isinstance(g, MultiPolygon | MultiLineString | GeometryCollection):
            out.extend(_flatten(g.geoms))
        elif isinstance(g, Polygon | LineString | LinearRing | Point):
            out.append(g)
        else:
            raise TypeError(f"cannot draw geometry of type {g.geom_type}")
    return out


def draw_shapes(
    geoms: list[BaseGeometry],
    size: tuple[int, int] = (400, 400),
    *,
    fill: Color | None = (170, 200, 235),
    outline: Color = (0, 0, 0),
    width: int = 2,
    margin: int = MARGIN,
    scale: float | None = None,
    background: Color = (255, 255, 255),
    flip_y: bool = True,
    bounds: tuple[float, float, float, float] | None = None,
) -> np.ndarray:
    """Draw shapely (Multi)Polygons filled, holes in background colour, AA outlines.

    All geometries share one scale (None: fit their joint bounds into size - margin) and
    the centre of their joint bounds (or of ``bounds``) is at the image centre. Lines and
    points are drawn as outlines. ``fill=None`` draws outlines only.  Remembered as
    :func:`spatialcad.render.raster.render`'s images are (a verifier draws them again).
    """
    geoms = list(geoms)
    key = hashlib.blake2b(repr(("shapes", size, fill, outline, width, margin, scale,
                                background, flip_y, bounds)).encode(), digest_size=20)
    for g in geoms:
        key.update(shapely.to_wkb(g))
    return remembered(key.digest(), lambda: _drawn_shapes(
        geoms, size, fill, outline, width, margin, scale, background, flip_y, bounds))


def _drawn_shapes(geoms: list[BaseGeometry], size: tuple[int, int], fill: Color | None,
                  outline: Color, width: int, margin: int, scale: float | None,
                  background: Color, flip_y: bool,
                  bounds: tuple[float, float, float, float] | None) -> np.ndarray:
    """:func:`draw_shapes`, drawn."""
    parts = _flatten(geoms)
    img = _canvas(size, background)
    if not parts:
        return img
    if bounds is None:
        b = np.array([p.bounds for p in parts])
        bounds = (b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max())
    fr = _Frame(bounds, size, margin, scale, flip_y)
    bg = tuple(int(c) for c in background)
    oc = tuple(int(c) for c in outline)
    th = max(1, int(width))
    for p in parts:
        if isinstance(p, Polygon):
            ext = fr.fixed(np.asarray(p.exterior.coords)[:, :2])
            holes = [fr.fixed(np.asarray(r.coords)[:, :2]) for r in p.interiors]
            if fill is not None:
                fc = tuple(int(c) for c in fill)
                cv2.fillPoly(img, [ext], fc, cv2.LINE_AA, _SHIFT)
                for hole in holes:
                    cv2.fillPoly(img, [hole], bg, cv2.LINE_AA, _SHIFT)
            if width > 0:
                cv2.polylines(img, [ext, *holes], True, oc, th, cv2.LINE_AA, _SHIFT)
        elif isinstance(p, Point):
            c = fr.fixed(np.asarray(p.coords)[:, :2])[0]
            cv2.circle(img, (int(c[0]), int(c[1])), th * _ONE, oc, -1, cv2.LINE_AA, _SHIFT)
        elif width > 0:
            pts = fr.fixed(np.asarray(p.coords)[:, :2])
            cv2.polylines(img, [pts], isinstance(p, LinearRing), oc, th, cv2.LINE_AA, _SHIFT)
    return img


@numba.njit(cache=True, nogil=True)
def _dashed(points: np.ndarray, starts: np.ndarray, dashed: np.ndarray, on: float, off: float,
            cap: float) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - compiled
    """The pieces to draw of the pixel polylines ``points[starts[l]:starts[l + 1]]``: the
    points of every piece one after the other, and each piece's number of points.  A line
    not ``dashed`` is one piece; a dashed one is split into dashes of ``on`` px separated by
    ``off`` px measured along it (so curves discretized into short pieces dash like
    straight lines), the pattern centred on the line so both ends look alike, the leftovers
    at both ends partial dashes when they are long enough to see, each dash shortened by
    ``cap`` at both ends (the round caps of thick lines add it back).

    Ends are interpolated as ``np.interp`` does (the same floats as the NumPy version this
    replaced, so drawings keep their bytes).
    """
    period = on + off
    at = np.empty(len(points))  # arc length along its line
    pieces = np.zeros(len(starts) - 1, dtype=np.int64)  # dashes of each line, 0: whole
    size, count = 0, 0
    for line in range(len(starts) - 1):
        s, e = starts[line], starts[line + 1]
        at[s] = 0.0
        for i in range(s + 1, e):
            at[i] = at[i - 1] + math.hypot(points[i, 0] - points[i - 1, 0],
                                           points[i, 1] - points[i - 1, 1])
        if dashed[line] and at[e - 1] > on and period > 0:
            n, start = _dash_layout(at[e - 1], on, off)
            pieces[line] = n + 2 if start > off + 1.0 else n
        size += e - s + 2 * pieces[line]  # a point of the line is in one dash at most
        count += max(pieces[line], 1)
    out = np.empty((size, 2))
    counts = np.empty(count, dtype=np.int64)
    size, count = 0, 0
    for line in range(len(starts) - 1):
        s, e = starts[line], starts[line + 1]
        if pieces[line] == 0:
            out[size:size + e - s] = points[s:e]
            size += e - s
            counts[count] = e - s
            count += 1
            continue
        length = at[e - 1]
        n, start = _dash_layout(length, on, off)
        partial = pieces[line] > n
        for k in range(pieces[line]):
            if partial and k == 0:
                a, b = 0.0, start - off
            elif partial and k == n + 1:
                a, b = length - start + off, length
            else:
                a = start + period * float(k - 1 if partial else k)
                b = a + on
            a2, b2 = a + cap, b - cap
            if b2 < a2:
                a2 = b2 = (a + b) / 2.0
            lo = s + np.searchsorted(at[s:e], a2, side="right")
            hi = s + np.searchsorted(at[s:e], b2, side="left")
            out[size, 0] = _interp(a2, at[s:e], points[s:e, 0])
            out[size, 1] = _interp(a2, at[s:e], points[s:e, 1])
            size += 1
            for i in range(lo, hi):
                out[size] = points[i]
                size += 1
            out[size, 0] = _interp(b2, at[s:e], points[s:e, 0])
            out[size, 1] = _interp(b2, at[s:e], points[s:e, 1])
            size += 1
            counts[count] = max(hi - lo, 0) + 2
            count += 1
    return out[:size], counts


@numba.njit(cache=True, nogil=True)
def _dash_layout(length: float, on: float, off: float) -> tuple[int, float]:  # pragma: no cover
    """(whole dashes that fit, where the first starts) on a line ``length`` px long: the
    pattern centred, the leftover at each end ``start - off`` long."""
    n = int((length + off) // (on + off))
    return n, (length - (n * (on + off) - off)) / 2.0


@numba.njit(cache=True, nogil=True)
def _interp(x: float, xp: np.ndarray, fp: np.ndarray) -> float:  # pragma: no cover
    """``np.interp(x, xp, fp)`` for sorted ``xp``, step for step as NumPy computes it."""
    if math.isnan(x):
        return x
    j = np.searchsorted(xp, x, side="right") - 1  # the last j with xp[j] <= x
    if j < 0:
        return float(fp[0])
    if j >= len(xp) - 1:
        return float(fp[len(xp) - 1])
    if xp[j] == x:
        return float(fp[j])
    slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j])
    y = slope * (x - xp[j]) + fp[j]
    if math.isnan(y):
        y = slope * (x - xp[j + 1]) + fp[j + 1]
        if math.isnan(y) and fp[j] == fp[j + 1]:
            y = fp[j]
    return float(y)


def draw_polylines(
    lines: Sequence[np.ndarray],
    dashed: Sequence[bool] | None = None,
    size: tuple[int, int] = (400, 400),
    *,
    color: Color = (0, 0, 0),
    width: int = 2,
    dash: tuple[float, float] = (10, 6),
    margin: int = MARGIN,
    scale: float | None = None,
    bounds: tuple[float, float, float, float] | None = None,
    background: Color = (255, 255, 255),
) -> np.ndarray:
    """Engineering line drawing of 2D polylines (each (k, 2), world units, y up).

    ``dashed[i]`` draws line i dashed (``dash`` = on/off pixels, continuous along the
    line). ``bounds`` = (minx, miny, maxx, maxy) is the world box whose centre goes to the
    image centre and which is fitted when ``scale`` is None (default: the lines' bounds).
    """
    polys = [np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in lines]
    # grey lines on grey: every channel is drawn alike, so one is drawn and copied (the
    # anti-aliased blend is per channel; a third of the pixels to blend)
    grey = len(set(color)) == 1 and len(set(background)) == 1
    img = _canvas(size, background, grey)
    flags = np.zeros(len(polys), dtype=bool) if dashed is None else np.asarray(
        list(dashed), dtype=bool)
    if len(flags) != len(polys):
        raise ValueError(f"{len(flags)} dashed flags for {len(polys)} lines")
    if not polys:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2RGB) if grey else img
    if bounds is None:
        pts = np.concatenate(polys)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        bounds = (lo[0], lo[1], hi[0], hi[1])
    fr = _Frame(bounds, size, margin, scale, True)
    c = tuple(int(v) for v in color)
    th = max(1, int(width))
    on, off = float(dash[0]), float(dash[1])
    # solid lines first so dashes (hidden lines) never cover them with gaps; one frame
    # transform for all lines, one cv2 call drawing all pieces in that order
    order = np.argsort(flags, kind="stable")
    px = fr.px(np.concatenate([polys[i] for i in order]))
    starts = np.concatenate([[0], np.cumsum([len(polys[i]) for i in order])])
    points, counts = _dashed(np.ascontiguousarray(px, dtype=np.float64), starts,
                             flags[order], on, off, th / 2.0)
    fixed = np.rint(points * _ONE).astype(np.int32)
    ends = np.cumsum(counts).tolist()  # slices: np.split takes ~10 times as long
    cv2.polylines(img, [fixed[e - n:e] for e, n in zip(ends, counts.tolist(), strict=True)],
                  False, c, th, cv2.LINE_AA, _SHIFT)
    return cv2.cvtColor(img, cv2.COLOR_GRAY2RGB) if grey else img


def _wrap(text: str, font_scale: float, thickness: int, max_width: int) -> list[str]:
    """Greedy word wrap to ``max_width`` pixels (over-long words are split)."""

    def fits(s: str) -> bool:
        return cv2.getTextSize(s, FONT, font_scale, thickness)[0][0] <= max_width

    lines: list[str] = []
    for para in text.split("\n"):
        cur = ""
        for word in para.split():
            while not fits(word) and len(word) > 1:
                k = len(word) - 1
                while k > 1 and not fits(word[:k]):
                    k -= 1
                if cur:
                    lines.append(cur)
                    cur = ""
                lines.append(word[:k])
                word = word[k:]
            cand = f"{cur} {word}" if cur else word
            if fits(cand):
                cur = cand
            else:
                lines.append(cur)
                cur = word
        lines.append(cur)
    return lines


def put_text_block(
    img: np.ndarray,
    text: str,
    box: tuple[int, int, int, int],
    *,
    font_scale: float = 0.7,
    color: Color = (0, 0, 0),
    thickness: int = 2,
    align: str = "left",
    valign: str = "center",
    min_scale: float = 0.35,
) -> float:
    """Write wrapped ``text`` inside ``box`` = (x, y, w, h) of ``img`` in place.

    The font shrinks (down to ``min_scale``) until the lines fit; returns the scale used.
    """
    x, y, w, h = box
    fs = float(font_scale)
    while True:
        th = max(1, int(round(thickness * min(1.0, fs / max(font_scale, 1e-9)))))
        lines = _wrap(text, fs, th, w)
        (_, lh), base = cv2.getTextSize("Ag", FONT, fs, th)
        step = int(round(lh + base + 0.35 * lh))
        total = step * len(lines) - int(round(0.35 * lh))
        if total <= h or fs <= min_scale:
            break
        fs = max(min_scale, fs * 0.9)
    if valign == "top":
        top = y
    else:
        top = y + max(0, (h - total) // 2)
    c = tuple(int(v) for v in color)
    for i, line in enumerate(lines):
        tw = cv2.getTextSize(line, FONT, fs, th)[0][0]
        if align == "center":
            tx = x + (w - tw) // 2
        elif align == "right":
            tx = x + w - tw
        else:
            tx = x
        ty = top + i * step + lh
        cv2.putText(img, line, (int(tx), int(ty)), FONT, fs, c, th, cv2.LINE_AA)
    return fs


def text_panel(
    text: str,
    size: tuple[int, int] = (400, 120),
    font_scale: float = 0.7,
    *,
    color: Color = (0, 0, 0),
    background: Color = (255, 255, 255),
    thickness: int = 2,
    margin: int = 10,
    align: str = "left",
) -> np.ndarray:
    """A panel with ``text`` word-wrapped (HERSHEY_SIMPLEX), vertically centred.

    Explicit newlines start new lines; the font shrinks if the text would not fit.
    """
    img = _canvas(size, background)
    w, h = img.shape[1], img.shape[0]
    box = (margin, margin, max(1, w - 2 * margin), max(1, h - 2 * margin))
    put_text_block(
        img, text, box, font_scale=font_scale, color=color, thickness=thickness, align=align
    )
    return img
