"""Parametric part families: seeded recipes of engineering parts in DeepCAD JSON.

Each family draws a few discrete choices (outline, proportions, hole pattern, which
features are present, through or blind) from a ``numpy.random.Generator`` and returns a
recipe.  Proportions are drawn, not only sizes, so two parts of a family differ in their
views, not by a uniform scaling.  Sizes are in millimetres, largest extent 60-120 mm, and
hidden features are kept deep enough to draw as dashes.

The bundled library's family parts (``deepcad_assets/make_assets.py``) were drawn from
these families in one stream per family.  A *generated* part is a recipe, a family and a
seed: the seed alone draws its choices, and :func:`recipe_json` gives its DeepCAD JSON
bytes (no bounding box, so the bytes depend on this code, the sketch helpers and the
DeepCAD writer only, not on FreeCAD).  How runs name, list and read generated parts:
spatialcad/cad/generated_parts.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np

from spatialcad.cad.deepcad import DeepCADDoc
from spatialcad.cad.sketch import (
    Loop,
    Recipe,
    arch,
    circle,
    ext,
    holes,
    poly,
    rect,
    ring_points,
    rrect,
    slot,
    two_circle_hull,
    xy,
    xz,
    yz,
)

Design = tuple[str, Recipe]  # (description, recipe)
T = TypeVar("T")


def _pick(rng: np.random.Generator, options: Sequence[T]) -> T:
    return options[int(rng.integers(len(options)))]


def _grid(nx: int, ny: int, hx: float, hy: float) -> list[tuple[float, float]]:
    """nx by ny points spread over [-hx, hx] x [-hy, hy] (one row/column on the axis)."""
    xs = [0.0] if nx == 1 else list(np.linspace(-hx, hx, nx))
    ys = [0.0] if ny == 1 else list(np.linspace(-hy, hy, ny))
    return [(float(x), float(y)) for x in xs for y in ys]


def _outline(kind: str, a: float, b: float) -> Loop:
    """Plate outline of half sizes a, b: rect, rounded, chamfered or notched."""
    if kind == "rounded":
        return rrect(-a, -b, a, b, min(a, b) * 0.3)
    if kind == "chamfered":
        c = min(a, b) * 0.3
        return poly((-a + c, -b), (a - c, -b), (a, -b + c), (a, b - c), (a - c, b), (-a + c, b),
                    (-a, b - c), (-a, -b + c))
    if kind == "notched":
        n = b * 0.45
        return poly((-a, -b), (a, -b), (a, b), (a * 0.3, b), (a * 0.3, b - n), (-a * 0.3, b - n),
                    (-a * 0.3, b), (-a, b))
    return rect(-a, -b, a, b)


def plate(rng: np.random.Generator) -> Design:
    a = float(_pick(rng, [40, 45, 50, 55, 60]))
    b = a * float(_pick(rng, [0.45, 0.55, 0.65, 0.8]))
    t = 2 * a * float(_pick(rng, [0.09, 0.12, 0.15]))
    kind = str(_pick(rng, ["plain", "rounded", "chamfered", "notched"]))
    nx, ny = _pick(rng, [(2, 1), (2, 2), (3, 2), (4, 2), (1, 2), (3, 1)])
    r = a * float(_pick(rng, [0.06, 0.08]))
    pts = _grid(nx, ny, a * 0.78, b * 0.68)
    centre = str(_pick(rng, ["none", "bore", "window", "slot", "pocket", "boss"]))
    cbore = bool(rng.integers(2))
    pts = [p for p in pts if centre == "none" or abs(p[0]) > a * 0.4 or abs(p[1]) > b * 0.5]

    def recipe(doc: DeepCADDoc) -> None:
        ext(doc, [[_outline(kind, a, b)]], xy(), t)
        if pts:
            if cbore:
                holes(doc, pts, r * 1.8, xy(t), -t * 0.45)
            holes(doc, pts, r, xy(), t)
        if centre == "bore":
            holes(doc, [(0, 0)], b * 0.3, xy(), t)
        elif centre == "window":
            ext(doc, [[rrect(-a * 0.3, -b * 0.3, a * 0.3, b * 0.3, b * 0.1)]], xy(), t, "cut")
        elif centre == "slot":
            ext(doc, [[slot((-a * 0.25, 0), (a * 0.25, 0), b * 0.18)]], xy(), t, "cut")
        elif centre == "pocket":
            ext(doc, [[rect(-a * 0.3, -b * 0.35, a * 0.3, b * 0.35)]], xy(t), -t * 0.55, "cut")
        elif centre == "boss":
            ext(doc, [[circle(0, 0, b * 0.35), circle(0, 0, b * 0.18)]], xy(t), t * 1.5,
                "join")
            holes(doc, [(0, 0)], b * 0.18, xy(), t)
    desc = (f"{kind} plate, {len(pts)} {'counterbored ' if cbore and pts else ''}holes"
            f"{'' if centre == 'none' else ', centre ' + centre}")
    return desc, recipe


def stepped_block(rng: np.random.Generator) -> Design:
    w = float(_pick(rng, [60, 70, 80, 90]))
    d = w * float(_pick(rng, [0.4, 0.55, 0.7]))
    h = w * float(_pick(rng, [0.35, 0.5, 0.65]))
    steps = int(rng.integers(1, 4))
    fr = [float(f) for f in sorted(rng.choice([0.3, 0.45, 0.6, 0.75], steps, replace=False))]
    # staircase outline in xz: step i drops the height to h * (1 - (i + 1) / (steps + 1))
    pts = [(0.0, 0.0), (w, 0.0)]
    for i, f in enumerate(reversed(fr)):
        z = h * (i + 1) / (steps + 1)
        pts += [(w, z), (w * f, z)] if i == 0 else [(pts[-1][0], z), (w * f, z)]
    pts += [(pts[-1][0], h), (0.0, h)]
    groove = str(_pick(rng, ["none", "square", "vee", "round"]))
    nh = int(rng.integers(0, 3))
    side = bool(rng.integers(2))

    def recipe(doc: DeepCADDoc) -> None:
        ext(doc, [[poly(*pts)]], xz(), d, extent="symmetric")
        g = w * 0.14
        x0 = w * fr[0] * 0.5
        if groove == "square":
            ext(doc, [[rect(x0 - g / 2, h - g, x0 + g / 2, h + 1)]], xz(), d + 2, "cut",
                "symmetric")
        elif groove == "vee":
            ext(doc, [[poly((x0 - g, h + 1), (x0, h - g), (x0 + g, h + 1))]], xz(), d + 2,
                "cut", "symmetric")
        elif groove == "round":
            ext(doc, [[arch(x0 - g / 2, x0 + g / 2, h - g, h + 1)]], xz(), d + 2, "cut",
                "symmetric")
        if nh:
            xs = [w * (fr[-1] + 1) / 2] if nh == 1 else [w * (fr[-1] + 0.5 * (1 - fr[-1]) * k)
                                                        for k in (0.5, 1.5)]
            holes(doc, [(x, 0.0) for x in xs], d * 0.12, xy(), h)
        if side:
            holes(doc, [(0.0, h * 0.3)], h * 0.12, yz(-1), w * fr[0] * 0.8)
    desc = (f"block with {steps} step{'s' * (steps > 1)}"
            f"{'' if groove == 'none' else ', ' + groove + ' groove'}, {nh} vertical holes"
            f"{', blind side hole' if side else ''}")
    return desc, recipe


def bracket(rng: np.random.Generator) -> Design:
    base = float(_pick(rng, [60, 70, 80, 90]))
    up = base * float(_pick(rng, [0.6, 0.8, 1.0, 1.2]))
    t = base * float(_pick(rng, [0.09, 0.12]))
    wd = base * float(_pick(rng, [0.4, 0.55, 0.75]))
    gussets = int(_pick(rng, [0, 1, 2]))
    nb, nu = int(rng.integers(0, 4)), int(rng.integers(0, 3))
    slots = bool(rng.integers(2))
    r = t * 0.45

    def recipe(doc: DeepCADDoc) -> None:
        ext(doc, [[poly((0, 0), (base, 0), (base, t), (t, t), (t, up), (0, up))]], xz(),
            wd, extent="symmetric")
        if gussets:
            for y in ([0.0] if gussets == 1 else [-wd / 2 + t / 2, wd / 2 - t / 2]):
                ext(doc, [[poly((t, t), (base * 0.6, t), (t, up * 0.6))]], xz(y), t / 2,
                    "join", "symmetric")
        bx = base * 0.8
        if nb:
            ys = [0.0] if nb == 1 else list(np.linspace(-wd * 0.32, wd * 0.32, nb))
            if slots and nb == 2:
                ext(doc, [[slot((bx - base * 0.1, float(y)), (bx + base * 0.08, float(y)), r)]
                          for y in ys], xy(t), -t, "cut")
            else:
                holes(doc, [(bx, float(y)) for y in ys], r, xy(t), -t)
        if nu:
            ys = [0.0] if nu == 1 else [-wd * 0.28, wd * 0.28]
            holes(doc, [(float(y), up * 0.78) for y in ys], r, yz(), t)
    desc = (f"L-bracket, {gussets} gusset{'s' * (gussets != 1)}, {nb} base "
            f"{'slots' if slots and nb == 2 else 'holes'}, {nu} upright holes")
    return desc, recipe


def flange(rng: np.random.Generator) -> Design:
    rad = float(_pick(rng, [35, 40, 45, 50]))
    t = rad * float(_pick(rng, [0.2, 0.28]))
    shape = str(_pick(rng, ["round", "square", "hex"]))
    n = int(_pick(rng, [3, 4, 5, 6, 8]))
    hub = rad * float(_pick(rng, [0.0, 0.45, 0.55]))
    hub_h = rad * float(_pick(rng, [0.4, 0.7]))
    bore = rad * float(_pick(rng, [0.2, 0.3]))
    cbore = bool(rng.integers(2))
    hr = rad * 0.08
    if shape == "square":
        n = 4

    def recipe(doc: DeepCADDoc) -> None:
        if shape == "round":
            outer = circle(0, 0, rad)
        elif shape == "square":
            outer = rrect(-rad, -rad, rad, rad, rad * 0.2)
        else:
            outer = poly(*ring_points(rad * 1.08, 6, 30))
        ext(doc, [[outer]], xy(), t)
        top = t
        if hub:
            ext(doc, [[circle(0, 0, hub)]], xy(t), hub_h, "join")
            top = t + hub_h
        holes(doc, [(0, 0)], bore, xy(), top)
        if cbore:
            holes(doc, [(0, 0)], bore * 1.5, xy(top), -top * 0.35)
        if shape == "square":
            pts = [(x, y) for x in (-rad * 0.72, rad * 0.72) for y in (-rad * 0.72, rad * 0.72)]
        else:
            pts = ring_points(rad * 0.76, n, 90.0 / n)
        holes(doc, pts, hr, xy(), t)
    desc = (f"{shape} flange, {n} bolt holes"
            f"{', hub' if hub else ''}{', counterbored bore' if cbore else ', bore'}")
    return desc, recipe


def shaft(rng: np.random.Generator) -> Design:
    k = int(rng.integers(2, 5))
    radii = [float(r) for r in rng.choice([6, 8, 10, 12, 15, 18], k, replace=False)]
    if rng.integers(2):
        radii = sorted(radii, reverse=True)
    lens = [float(_pick(rng, [15, 20, 25, 30])) for _ in range(k)]
    bore = bool(rng.integers(2))
    cross = int(rng.integers(0, 3))
    key = bool(rng.integers(2))

    def recipe(doc: DeepCADDoc) -> None:
        x = 0.0
        for i, (r, ln) in enumerate(zip(radii, lens, strict=True)):
            ext(doc, [[circle(0, 0, r)]], yz(x), ln, "new" if i == 0 else "join")
            x += ln
        rmin = min(radii)
        if bore:
            holes(doc, [(0, 0)], rmin * 0.4, yz(), x)
        for j in range(cross):
            i = [radii.index(max(radii)), 0][j]
            cx = sum(lens[:i]) + lens[i] / 2
            holes(doc, [(cx, 0.0)], min(radii[i] * 0.3, lens[i] * 0.25), xy(), radii[i] + 1,
                  "symmetric")
        if key:
            i = radii.index(max(radii))
            x0 = sum(lens[:i])
            w = radii[i] * 0.3
            ext(doc, [[rect(x0 + lens[i] * 0.2, -w, x0 + lens[i] * 0.8, w)]], xy(radii[i]),
                -radii[i] * 0.3, "cut")
    desc = (f"shaft of {k} diameters{', axial bore' if bore else ''}"
            f"{f', {cross} cross holes' if cross else ''}{', keyway' if key else ''}")
    return desc, recipe


def housing(rng: np.random.Generator) -> Design:
    bw = float(_pick(rng, [70, 80, 90, 100]))
    bd = bw * float(_pick(rng, [0.35, 0.5, 0.7]))
    bt = bw * float(_pick(rng, [0.1, 0.14]))
    rr = bw * float(_pick(rng, [0.22, 0.28, 0.33]))
    ch = bt + rr * float(_pick(rng, [1.0, 1.3]))
    form = str(_pick(rng, ["arch", "round", "block"]))
    nh = int(_pick(rng, [0, 2, 4]))
    stepped = bool(rng.integers(2))
    rib = bool(rng.integers(2)) and form != "round"

    def recipe(doc: DeepCADDoc) -> None:
        ext(doc, [[rect(-bw / 2, -bd / 2, bw / 2, bd / 2)]], xy(), bt)
        if form == "arch":
            ext(doc, [[arch(-rr, rr, bt * 0.5, ch)]], xz(), bd, "join", "symmetric")
        elif form == "round":
            ext(doc, [[circle(0, ch, rr)], [rect(-rr * 0.6, bt * 0.5, rr * 0.6, ch)]], xz(),
                bd, "join", "symmetric")
        else:
            ext(doc, [[rect(-rr, bt * 0.5, rr, ch + rr * 0.7)]], xz(), bd, "join",
                "symmetric")
        if rib:
            ext(doc, [[poly((-bw / 2, bt), (bw / 2, bt), (rr * 0.5, ch), (-rr * 0.5, ch))]],
                xz(), bd * 0.25, "join", "symmetric")
        holes(doc, [(0, ch)], rr * 0.5, xz(), bd + 2, "symmetric")
        if stepped:
            holes(doc, [(0, ch)], rr * 0.7, xz(-bd / 2), -bd * 0.3)
        if nh:
            pts = _grid(2, nh // 2, bw * 0.4, bd * 0.28)
            holes(doc, pts, bw * 0.04, xy(), bt)
    desc = (f"{form} bearing housing on a base{', rib' if rib else ''}"
            f"{', stepped bore' if stepped else ', bore'}, {nh} base holes")
    return desc, recipe


def link(rng: np.random.Generator) -> Design:
    d = float(_pick(rng, [60, 70, 80, 90]))
    r1 = d * float(_pick(rng, [0.16, 0.2, 0.25]))
    r2 = r1 * float(_pick(rng, [0.6, 0.8, 1.0]))
    t = d * float(_pick(rng, [0.08, 0.11]))
    boss = str(_pick(rng, ["none", "one", "both"]))
    window = str(_pick(rng, ["none", "slot", "holes"]))

    def recipe(doc: DeepCADDoc) -> None:
        ext(doc, [[two_circle_hull(r1, d, r2)]], xy(), t)
        if boss in ("one", "both"):
            ext(doc, [[circle(0, 0, r1)]], xy(t), t, "join")
        if boss == "both":
            ext(doc, [[circle(d, 0, r2)]], xy(t), t, "join")
        top = 2 * t if boss != "none" else t
        holes(doc, [(0, 0)], r1 * 0.5, xy(), top)
        holes(doc, [(d, 0)], r2 * 0.5, xy(), top)
        gap0, gap1 = r1 + d * 0.08, d - r2 - d * 0.08
        w = min(r1, r2) * 0.35
        if window == "slot" and gap1 - gap0 > 2 * w:
            ext(doc, [[slot((gap0 + w, 0), (gap1 - w, 0), w)]], xy(), t, "cut")
        elif window == "holes" and gap1 - gap0 > 4 * w:
            holes(doc, [(gap0 + w, 0), (gap1 - w, 0)], w, xy(), t)
    desc = (f"link with {'no' if boss == 'none' else boss} boss{'es' * (boss == 'both')}"
            f"{'' if window == 'none' else ', ' + window + ' in the web'}")
    return desc, recipe


def profile(rng: np.random.Generator) -> Design:
    """A bar of one extruded profile (angle, tee, channel, zed, step, wedge, trapezoid)
    with one or two holes through one or two of its flat walls (generated parts only)."""
    kind = _pick(rng, ["angle", "tee", "channel", "zed", "step", "wedge", "trapezoid"])
    w = float(_pick(rng, [60, 70, 80, 90, 100, 110]))  # across the profile (x)
    h = w * float(_pick(rng, [0.4, 0.5, 0.6, 0.7, 0.8, 0.9]))  # its height (z)
    length = w * float(_pick(rng, [0.4, 0.5, 0.6, 0.7, 0.8, 1.0]))  # along y (centred)
    t = min(w, h) * float(_pick(rng, [0.18, 0.22, 0.26, 0.3]))  # wall thickness
    a, b = float(_pick(rng, [0.35, 0.5, 0.65])), float(_pick(rng, [0.3, 0.45, 0.6]))
    m0, m1 = w / 2 - t / 2, w / 2 + t / 2
    # the profile (x, z) and its flat walls: ("h", x0, x1, top z, thickness) drilled down,
    # ("v", z0, z1, x, thickness) drilled along +x from the plane at x
    walls: list[tuple[str, float, float, float, float]]
    if kind == "angle":
        pts = [(0, 0), (w, 0), (w, t), (t, t), (t, h), (0, h)]
        walls = [("h", t, w, t, t), ("v", t, h, 0, t)]
    elif kind == "tee":
        pts = [(m0, 0), (m1, 0), (m1, h - t), (w, h - t), (w, h), (0, h), (0, h - t),
               (m0, h - t)]
        walls = [("h", 0, m0, h, t), ("h", m1, w, h, t), ("v", 0, h - t, m0, t)]
    elif kind == "channel":
        pts = [(0, 0), (w, 0), (w, h), (w - t, h), (w - t, t), (t, t), (t, h), (0, h)]
        walls = [("h", t, w - t, t, t), ("v", t, h, 0, t), ("v", t, h, w - t, t)]
    elif kind == "zed":
        pts = [(0, 0), (m1, 0), (m1, h - t), (w, h - t), (w, h), (m0, h), (m0, t), (0, t)]
        walls = [("h", 0, m0, t, t), ("h", m1, w, h, t), ("v", t, h - t, m0, t)]
    elif kind == "step":
        pts = [(0, 0), (w, 0), (w, h * a), (w * b, h * a), (w * b, h), (0, h)]
        walls = [("h", w * b, w, h * a, h * a), ("h", 0, w * b, h, h)]
    elif kind == "wedge":
        pts = [(0, 0), (w, 0), (w, h * a), (w * b, h), (0, h)]
        walls = [("h", 0, w * b, h, h), ("v", 0, h * a, 0, w)]
    else:
        pts = [(0, 0), (w, 0), (w * (1 - b / 2), h), (w * b / 2, h)]
        walls = [("h", w * b / 2, w * (1 - b / 2), h, h)]
    drilled = [walls[int(i)] for i in sorted(rng.permutation(len(walls))[:int(
        rng.integers(1, min(2, len(walls)) + 1))])]
    pairs = [int(rng.integers(1, 3)) for _ in drilled]
    r_share = float(_pick(rng, [0.14, 0.18, 0.22]))

    def recipe(doc: DeepCADDoc) -> None:
        ext(doc, [[poly(*pts)]], xz(), length / 2, extent="symmetric")
        for (way, lo, hi, at, thick), n in zip(drilled, pairs, strict=True):
            r = min((hi - lo) * r_share, length * 0.12)
            ys = [0.0] if n == 1 else [-length * 0.27, length * 0.27]
            mid = (lo + hi) / 2
            if way == "h":
                holes(doc, [(mid, y) for y in ys], r, xy(at), -thick)
            else:
                holes(doc, [(y, mid) for y in ys], r, yz(at), thick)
    desc = (f"{kind} profile bar, {sum(pairs)} hole{'s' * (sum(pairs) != 1)} through "
            f"{len(drilled)} wall{'s' * (len(drilled) != 1)}")
    return desc, recipe


FAMILIES: dict[str, Callable[[np.random.Generator], Design]] = {
    "plate": plate, "block": stepped_block, "bracket": bracket, "flange": flange,
    "shaft": shaft, "housing": housing, "link": link,
}


# ------------------------------------------------------------------ generated parts

RECIPE_SEED = 20261128  # seeds generated parts' draws (the bundled stream's is make_assets')
# generated parts come from the bundled library's families and more (appended: a family's
# place in this order seeds its draws)
GENERATED_FAMILIES: dict[str, Callable[[np.random.Generator], Design]] = {
    **FAMILIES, "profile": profile}


def recipe_design(family: str, seed: int) -> tuple[str, DeepCADDoc]:
    """The description and model of the generated part (family, seed): the family's
    choices drawn from a generator of its own seeded by ``(RECIPE_SEED, family, seed)``."""
    rng = np.random.default_rng([RECIPE_SEED, list(GENERATED_FAMILIES).index(family), seed])
    description, recipe = GENERATED_FAMILIES[family](rng)
    doc = DeepCADDoc()
    recipe(doc)
    return description, doc


def recipe_json(family: str, seed: int) -> bytes:
    """The DeepCAD JSON file of the generated part (family, seed), as bytes (the same in
    every process: what the listing's SHA-256 names)."""
    return (json.dumps(recipe_design(family, seed)[1].as_dict(), indent=1) + "\n").encode()
