"""2D line drawings with OpenCV: filled shapely shapes, solid/dashed polylines, text panels."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import cv2
import numpy as np
import numpy.typing as npt
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

FONT = cv2.FONT_HERSHEY_SIMPLEX
_SHIFT = 4  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT


def _canvas(size: tuple[int, int], background: Color) -> np.ndarray:
    w, h = int(size[0]), int(size[1])
    if w <= 0 or h <= 0:
        raise ValueError(f"bad image size {size!r}")
    return plain(w, h, background)


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
        if scale is None:
            aw, ah = max(1, self.w - 2 * margin), max(1, self.h - 2 * margin)
            cands = [aw / (maxx - minx)] if maxx - minx > 1e-12 else []
            if maxy - miny > 1e-12:
                cands.append(ah / (maxy - miny))
            scale = min(cands) if cands else 1.0
        self.scale = float(scale)
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
    margin: int = 16,
    scale: float | None = None,
    background: Color = (255, 255, 255),
    flip_y: bool = True,
    bounds: tuple[float, float, float, float] | None = None,
) -> np.ndarray:
    """Draw shapely (Multi)Polygons filled, holes in background colour, AA outlines.

    All geometries share one scale (None: fit their joint bounds into size - margin) and
    the centre of their joint bounds (or of ``bounds``) is at the image centre. Lines and
    points are drawn as outlines. ``fill=None`` draws outlines only.
    """
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


def _dash_pieces(line: np.ndarray, on: float, off: float, cap: float = 0.0
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Split the pixel polyline into dashes of ``on`` px separated by ``off`` px, measured
    along the line (so curves discretized into short pieces dash like straight lines): the
    dashes' points one after the other, and each dash's number of points.

    The pattern is centred on the line so both ends look alike; each dash is shortened by
    ``cap`` at both ends, which the round caps of thick lines add back.
    """
    steps = np.hypot(*np.diff(line, axis=0).T)
    at = np.concatenate([[0.0], np.cumsum(steps)])
    length = float(at[-1])
    period = on + off
    if length <= on or period <= 0:
        return line, np.array([len(line)])
    n = int((length + off) // period)  # whole dashes that fit
    used = n * period - off
    start = (length - used) / 2.0
    # leftovers at both ends become partial dashes when they are long enough to see
    a = start + period * np.arange(n, dtype=np.float64)
    b = a + on
    if start > off + 1.0:
        a = np.concatenate([[0.0], a, [length - start + off]])
        b = np.concatenate([[start - off], b, [length]])
    a2, b2 = a + cap, b - cap
    short = b2 < a2
    a2[short] = b2[short] = (a[short] + b[short]) / 2.0
    first = np.stack([np.interp(a2, at, line[:, 0]), np.interp(a2, at, line[:, 1])], axis=1)
    last = np.stack([np.interp(b2, at, line[:, 0]), np.interp(b2, at, line[:, 1])], axis=1)
    lo, hi = np.searchsorted(at, a2, side="right"), np.searchsorted(at, b2, side="left")
    # dash k: its first point, the line's points lo[k]..hi[k]-1, its last point
    counts = np.maximum(hi - lo, 0) + 2
    dash = np.repeat(np.arange(len(a)), counts)
    place = np.arange(len(dash)) - np.repeat(np.cumsum(counts) - counts, counts)
    rows = np.where(place == 0, len(line) + dash, lo[dash] + place - 1)
    rows = np.where(place == counts[dash] - 1, len(line) + len(a) + dash, rows)
    return np.concatenate([line, first, last])[rows], counts


def draw_polylines(
    lines: Sequence[np.ndarray],
    dashed: Sequence[bool] | None = None,
    size: tuple[int, int] = (400, 400),
    *,
    color: Color = (0, 0, 0),
    width: int = 2,
    dash: tuple[float, float] = (10, 6),
    margin: int = 16,
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
    img = _canvas(size, background)
    flags = np.zeros(len(polys), dtype=bool) if dashed is None else np.asarray(
        list(dashed), dtype=bool)
    if len(flags) != len(polys):
        raise ValueError(f"{len(flags)} dashed flags for {len(polys)} lines")
    if not polys:
        return img
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
    px = np.split(fr.px(np.concatenate([polys[i] for i in order])),
                  np.cumsum([len(polys[i]) for i in order])[:-1])
    pieces = [_dash_pieces(line, on, off, th / 2.0) if flags[i] else (line, [len(line)])
              for i, line in zip(order, px, strict=True)]
    fixed = np.rint(np.concatenate([points for points, _ in pieces]) * _ONE).astype(np.int32)
    ends = np.cumsum(np.concatenate([counts for _, counts in pieces]))
    cv2.polylines(img, np.split(fixed, ends[:-1]), False, c, th, cv2.LINE_AA, _SHIFT)
    return img


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
