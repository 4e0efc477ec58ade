"""CrossSection: which image cannot be a cross-section of a stack of basic solids?

A composite of basic solids stacked on the z axis is shown from two angles above and from
the side at its own height (View 3, turned so that every overhang between two solids, and
as far as it can every step, shows in its outline: :func:`side_view`).  Three options are
true sections by planes of the level's families; the answer is a section of the same
solids with one or two of them stretched or squeezed, proved unlike every section of the
original along every family of the level, sampled densely (shapes are compared scale-free: see
``spatialcad.geometry.section_shape``).  View 3 and the four options are drawn at one
scale (``Spec.scale``, the largest that fits each of them into its panel), which the
question says.

Every section, sampled or drawn, is cut from the stack's polyhedra
(:mod:`spatialcad.cad.sweep`: round solids as 128-gon prismatoids, within 3e-4 of their
radius, as close as FreeCAD's slice discretised to 5e-4), so the proofs are about the very
polygons drawn; the verifier checks each against its own analytic section.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from spatialcad.cad import section as cut
from spatialcad.cad import solids, sweep, tessellate
from spatialcad.geometry import convex_pieces, exact
from spatialcad.geometry import section_shape as shape
from spatialcad.geometry.colours import SOLID
from spatialcad.render.camera import orbit
from spatialcad.render.drawing import MARGIN, draw_shapes, fitted_scale
from spatialcad.render.legibility import MIN_STEP_PX, sliver_failures
from spatialcad.render.mesh import Mesh, solid_mesh
from spatialcad.render.raster import fit_scale, render
from spatialcad.tasks import base
from spatialcad.tasks.base import Draft, Option, Panel, Reject
from spatialcad.tasks.cross_section.spec import (
    AXIS_LETTER,
    Change,
    OptionData,
    Plane,
    SolidDesc,
    Spec,
    View,
    parse_option,
    texts,
)

VIEWS = (View(35.0, 25.0), View(-55.0, 35.0))  # from above; View 3 is side_view's
PANEL = (300, 300)  # every panel: 3 views and a row of 4 options fit layout.MAX_PIXELS
SIDE_AZIMUTHS = tuple(float(a) for a in range(0, 180, 15))  # View 3's candidates
DIRECTIONS = 360  # horizontal directions in which steps and overhangs are looked for
STACKABLE = tuple(k for k in solids.KINDS if k not in solids.POINTED)
TRUE_DISTINCT = shape.OPTIONS_APART  # every two options differ at least this much
MIN_AREA = 0.2  # an option's section has at least this share of its family's largest area
MIN_PIECE = 0.03  # ... and every part of it at least this share of its own area (no specks)
ATTEMPTS = 12  # tries for the options before the candidate is rejected


class Generator(base.Generator):
    def params(self, level: int) -> dict[str, Any]:
        """L0: 2 solids, pointed on top; L1: 3 solids; L2: + oblique planes; L3+: up to 5
        solids and ever smaller proportion changes, proved by ever smaller margins."""
        step = max(0, level - 2)
        return {
            "solids": min(5, 2 if level == 0 else 3 + step),
            "pointed_top": level == 0,
            "families": list(cut.AXIS_FAMILIES)
            + (list(cut.OBLIQUE_FAMILIES) if level >= 2 else []),
            "factor": [max(1.25, 1.8 - 0.1 * level), max(1.4, 2.2 - 0.1 * level)],
            "margin": max(0.13, 0.2 - 0.02 * level),
        }

    def build(self, level: int, rng: np.random.Generator) -> Draft:
        p = self.params(level)
        descs = random_stack(rng, p["solids"], p["pointed_top"])
        try:
            composite = solids.make_composite(descs)
        except ValueError as exc:
            raise Reject(str(exc)) from exc
        edges = sweep.stack_edges(descs)
        samples = {f: family_samples(edges, f) for f in mirror_twins(descs, p["families"])}
        truths = shape.ShapeSet.of_samples(samples.values())
        trues = pick_true_options(edges, descs, samples, level, rng)
        answer = pick_false_option(descs, truths, [t[2] for t in trues], p, rng)
        options = [_true_option(descs, *t) for t in trues] + [answer]
        mesh = drawn_mesh(descs, composite)
        side, scale = side_view(descs, mesh, [o.section for o in options])
        if any(slivered(o.section, o.hulls, scale) for o in options):
            raise Reject("a piece of a section is too thin at the options' common scale")
        views = [*VIEWS, side]
        spec = Spec(_typed(descs), views, p["families"], scale)
        return Draft(
            question=texts(spec, [parse_option(o.data) for o in options]).question,
            spec=spec.to_json(),
            reference=[Panel(img, f"View {i + 1}")
                       for i, img in enumerate(render_views(mesh, views, scale))],
            options=[o.option(scale) for o in options],
        )


@dataclass(frozen=True)
class Section:
    """An option before it is drawn: its section, its pieces' hulls (one per solid and
    band, :func:`convex_pieces.bands`) and what the record says of it."""

    section: Any
    hulls: convex_pieces.Pieces
    is_answer: bool
    operator: str
    explanation: str
    data: dict[str, Any]

    def option(self, scale: float) -> Option:
        """The option, its section drawn at ``scale`` px per unit."""
        return Option(is_answer=self.is_answer, operator=self.operator,
                      explanation=self.explanation,
                      image=draw_shapes([self.section], PANEL, scale=scale), data=self.data)


def random_solid(kind: str, rng: np.random.Generator) -> solids.Desc:
    """``kind`` with random sizes: 0.55-1.25 from the axis to a corner, 0.5-1.4 tall."""
    reach, height, ratio = rng.uniform(0.55, 1.25), rng.uniform(0.5, 1.4), rng.uniform(0.35, 0.75)
    outline, names = solids.KINDS[kind]
    if kind == "cuboid":
        if rng.random() < 0.3:
            side = rng.uniform(1.0, 1.8)
            values = [side, side, side]
        else:
            values = [*rng.uniform(0.9, 2.4, size=2), height]
    else:
        size = reach * {"circle": 1.0, "square": math.sqrt(2.0), "triangle": math.sqrt(3.0)}[
            outline]
        values = [size, size * ratio, height] if len(names) == 3 else [size, height]
    return solids.solid(kind, **{n: round(float(v), 2) for n, v in zip(names, values, strict=True)})


def random_stack(rng: np.random.Generator, count: int, pointed_top: bool) -> list[solids.Desc]:
    """``count`` solids of distinct kinds, top to bottom; only the top one may be pointed."""
    tops = sorted(solids.POINTED) if pointed_top else list(solids.KINDS)
    top = tops[int(rng.integers(len(tops)))]
    rest = [k for k in STACKABLE if k != top]
    below = [rest[i] for i in rng.choice(len(rest), size=count - 1, replace=False)]
    return [random_solid(k, rng) for k in [top, *below]]


def family_samples(edges: list[np.ndarray], family: str) -> shape.Samples:
    """Dense sections of the stack along a plane family."""
    normal = cut.family_normal(family)
    lo, hi = sweep.offset_range(edges, normal)
    return shape.dense_samples(sweep.cutter(edges, normal), lo, hi)


def showable(parts: np.ndarray) -> np.ndarray:
    """Which sections (rows: their parts' areas, :func:`convex_pieces.part_areas`) are fit
    to be drawn: large enough within their family, no specks."""
    area, share = _shares(parts)
    specks = ((share >= 1e-9) & (share < MIN_PIECE)).any(axis=1)
    return ~specks & (area >= MIN_AREA * area.max())


def disconnected(parts: np.ndarray) -> np.ndarray:
    """Which sections (rows: their parts' areas) have two parts that are no specks."""
    return (_shares(parts)[1] >= MIN_PIECE).sum(axis=1) > 1


def _shares(parts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each section's area and its parts' shares of it."""
    area = parts.sum(axis=1)
    return area, parts / np.where(area > 0.0, area, 1.0)[:, None]


def usable(samples: shape.Samples, parts: np.ndarray) -> np.ndarray:
    """Indices of showable samples (``parts``: their parts' areas) in a calm stretch of
    their family (both neighbours differ little), so that the section at the offset as
    stored (rounded) matches the sample."""
    calm = np.zeros(len(samples.offsets), dtype=bool)
    calm[1:-1] = (samples.steps[:-1] < shape.DENSE_STEP) & (samples.steps[1:] < shape.DENSE_STEP)
    return np.flatnonzero(calm & showable(parts))


def mirror_twins(descs: list[solids.Desc], families: list[str]) -> list[str]:
    """``families`` without those whose sections mirror another's.

    Every outline is symmetric under x -> -x, which maps the Y135 and Z135 planes onto the
    Y45 and Z45 ones (sections equal up to a mirror, which dissimilarity ignores); without
    triangles (the only outlines not symmetric under y -> -y) X135 likewise mirrors X45.
    """
    twins = {"Y135": "Y45", "Z135": "Z45"}
    if not any(solids.KINDS[d["kind"]][0] == "triangle" for d in descs):
        twins["X135"] = "X45"
    return [f for f in families if twins.get(f) not in families]


def pick_true_options(
    edges: list[np.ndarray], descs: list[solids.Desc], samples: dict[str, shape.Samples],
    level: int, rng: np.random.Generator,
) -> list[tuple[str, float, Any, convex_pieces.Pieces]]:
    """Three (family, offset, section, its pieces' hulls) of the stack ``descs``
    (``edges``: its polyhedra, :func:`sweep.stack_edges`), pairwise unlike each other,
    each section cut at its offset as stored (3 decimals).

    From level 1 on, the first is disconnected when some usable section is; from level 2
    on, the last is oblique unless an earlier one is.
    """
    parts = {f: convex_pieces.part_areas(samples[f].pieces) for f in samples}
    pools = {f: usable(samples[f], parts[f]) for f in samples}
    families = [f for f in samples if len(pools[f])]
    oblique = [f for f in families if f in cut.OBLIQUE_FAMILIES]
    split = [(f, int(i)) for f in families
             for i in pools[f][disconnected(parts[f][pools[f]])]]
    picked: list[tuple[str, float, Any, convex_pieces.Pieces]] = []
    picked_pieces: list[convex_pieces.Pieces | None] = []
    for _ in range(ATTEMPTS * 3):
        if level >= 1 and split and not picked:
            family, i = split[int(rng.integers(len(split)))]
        else:
            last_oblique = level >= 2 and len(picked) == 2 and not any(
                p[0] in cut.OBLIQUE_FAMILIES for p in picked)
            choices = oblique if last_oblique and oblique else families
            family = choices[int(rng.integers(len(choices)))]
            i = int(rng.choice(pools[family]))
        (sample,) = samples[family].sections(np.array([i]))
        sample_pieces = (samples[family].pieces.rows(slice(i, i + 1))
                         if samples[family].disjoint[i] else None)
        if any(shape.dissimilarity(sample, p[2], (sample_pieces, gp)) < TRUE_DISTINCT
               for p, gp in zip(picked, picked_pieces, strict=True)):
            continue
        offset = round(float(samples[family].offsets[i]), 3)
        normal = cut.family_normal(family)
        exact = stored(convex_pieces.joined(
            sweep.section_pieces(edges, normal, np.array([offset]))))
        hulls, convex = convex_pieces.bands(exact, joint_levels(descs, normal, offset))
        if slivered(exact, hulls, fitted_scale(exact.bounds, PANEL)):
            continue  # the plane is drawn again
        exact_pieces = hulls if convex else None
        if shape.dissimilarity(exact, sample, (exact_pieces, sample_pieces)) >= (
                shape.SIMILAR_BELOW / 2):
            continue  # the sample disagrees with the section at the rounded offset
        if all(shape.dissimilarity(exact, p[2], (exact_pieces, gp)) >= TRUE_DISTINCT
               for p, gp in zip(picked, picked_pieces, strict=True)):
            picked.append((family, offset, exact, hulls))
            picked_pieces.append(exact_pieces)
            if len(picked) == 3:
                return picked
    raise Reject("could not find three distinct true sections")


def alter(
    descs: list[solids.Desc], rng: np.random.Generator, factor: list[float]
) -> tuple[list[solids.Desc], list[Change]]:
    """The stack with one solid (or, half the time, two) made taller/shorter or
    wider/narrower by a factor drawn from ``factor`` (or its inverse)."""
    count = 1 if len(descs) < 3 or rng.random() < 0.5 else 2
    changes: list[Change] = []
    altered = list(descs)
    for i in sorted(int(k) for k in rng.choice(len(descs), size=count, replace=False)):
        f = float(rng.uniform(factor[0], factor[1]))
        f = round(f if rng.random() < 0.5 else 1.0 / f, 3)
        what = "height" if rng.random() < 0.5 else "width"
        altered[i] = solids.rescaled(descs[i], **{what: f})
        changes.append(Change(i, what, f))
    return altered, changes


def pick_false_option(
    descs: list[solids.Desc], truths: shape.ShapeSet, shown: list[Any], p: dict[str, Any],
    rng: np.random.Generator,
) -> Section:
    """A section of an altered stack, unlike (>= margin) every dense true section and
    unlike (>= TRUE_DISTINCT) each ``shown`` true option."""
    apart = shape.ShapeSet.of_shapes(shown)  # one set for every attempt: profiles made once
    for _ in range(ATTEMPTS):
        altered, changes = alter(descs, rng, p["factor"])
        found = _false_section(altered, truths, apart, p, rng)
        if found is None:
            continue
        family, offset, exact, hulls = found
        changed = "; ".join(
            f"{solids.display_name(descs[c.solid], article=False)} {c.factor:g} times as "
            f"{'tall' if c.dimension == 'height' else 'wide'}"
            for c in changes
        )
        return Section(
            exact, hulls, is_answer=True, operator="altered_proportions",
            explanation=(
                "This is the answer: no plane cuts the solid in this outline. It is the "
                f"section by {plane_text(family, offset)} of the same solids with altered "
                f"proportions ({changed})."
            ),
            data=option_data(family, offset, exact, altered, changes),
        )
    raise Reject("no provably false section found")


def _false_section(
    altered: list[solids.Desc], truths: shape.ShapeSet, shown: shape.ShapeSet,
    p: dict[str, Any], rng: np.random.Generator,
) -> tuple[str, float, Any, convex_pieces.Pieces] | None:
    """(family, offset, section, its pieces' hulls) of the altered stack at least
    ``margin`` unlike every true section and ``TRUE_DISTINCT`` unlike each ``shown``
    option, trying a few planes of one random family; None if none is."""
    families = [f for f in p["families"] if f != "XY"]  # XY sections of a stretched solid
    family = families[int(rng.integers(len(families)))]  # are only scaled: never different
    normal = cut.family_normal(family)
    edges = sweep.stack_edges(altered)
    lo, hi = sweep.offset_range(edges, normal)
    offsets = np.round(lo + (hi - lo) * (np.arange(24) + 0.5) / 24, 3)
    pieces = sweep.section_pieces(edges, normal, offsets)
    for i in rng.permutation(np.flatnonzero(showable(convex_pieces.part_areas(pieces))))[:4]:
        own = pieces.rows(slice(i, i + 1))
        (section,) = shape.unions(convex_pieces.polygons(own))
        if truths.nearest(section, p["margin"], own) < p["margin"]:
            continue  # the unrounded section first: no rounding and validity test for it
        exact = stored(convex_pieces.joined(own))
        hulls, convex = convex_pieces.bands(exact, joint_levels(altered, normal, offsets[i]))
        if slivered(exact, hulls, fitted_scale(exact.bounds, PANEL)):
            continue
        by_solid = hulls if convex else None
        if (truths.nearest(exact, p["margin"], by_solid) >= p["margin"]
                and shown.nearest(exact, TRUE_DISTINCT) >= TRUE_DISTINCT):
            return family, float(offsets[i]), exact, hulls
    return None


def slivered(exact: Any, hulls: convex_pieces.Pieces, scale: float) -> bool:
    """Whether a piece of the section ``exact`` (``hulls``: its parts' hulls, one per band
    between its joint levels, :func:`convex_pieces.bands`) drawn at ``scale`` px per unit
    would be narrower than ``legibility.MIN_PIECE_PX`` (at most the scale fitting it to its
    panel: a first look before the options' common scale is known)."""
    widths = convex_pieces.widths(hulls)
    return bool(sliver_failures("section", widths.ravel(), scale))


def joint_levels(descs: list[solids.Desc], normal: np.ndarray, offset: float) -> np.ndarray:
    """Where the plane n.p = offset meets the stack's joints, as heights v in its section's
    coordinates (:func:`spatialcad.cad.section.plane_basis`), sorted: its section's part
    between two of them (or beyond the outer ones) is one solid's (convex) section (none for
    a horizontal plane: v is no height there)."""
    _, v = cut.plane_basis(normal)
    if abs(v[2]) < 1e-9:
        return np.zeros(0)
    z = np.array(solids.stack_bases(descs)[:-1])  # every base but the bottom one (z = 0)
    return np.sort((z - offset * float(np.asarray(normal)[2])) / v[2])


def stored(geom: Any) -> Any:
    """``geom`` as the record stores it (5 decimals); Reject if that is no valid polygon."""
    geom = shape.from_text(shape.to_text(geom))
    if geom.is_empty or not geom.is_valid:
        raise Reject("a section is not a valid polygon once rounded")
    return geom


def _true_option(descs: list[solids.Desc], family: str, offset: float, exact: Any,
                 hulls: convex_pieces.Pieces) -> Section:
    return Section(
        exact, hulls, is_answer=False, operator="true_section",
        explanation=f"Not the answer: {plane_text(family, offset)} cuts the solid in this section.",
        data=option_data(family, offset, exact, descs),
    )


def option_data(family: str, offset: float, geom: Any, descs: list[solids.Desc],
                changes: list[Change] | None = None) -> dict[str, Any]:
    """The option's JSON data: its plane, its section ``geom`` and the solids it cuts."""
    x, y, z = (round(float(c), 6) + 0.0 for c in cut.family_normal(family))
    return OptionData(Plane(family, (x, y, z), offset), shape.to_text(geom), _typed(descs),
                      changes).to_json()


def _typed(descs: list[solids.Desc]) -> list[SolidDesc]:
    return [SolidDesc.from_json(d) for d in descs]


def plane_text(family: str, offset: float) -> str:
    """E.g. "the plane y = 0.3 (parallel to the XZ plane)" or "the plane 0.71x - 0.71z =
    -1.95 (the YZ plane turned 45 degrees about the y axis)"."""
    if family in AXIS_LETTER:
        return f"the plane {AXIS_LETTER[family]} = {offset:g} (parallel to the {family} plane)"
    terms = [(c, name) for c, name in zip(cut.family_normal(family), "xyz", strict=True) if c]
    equation = " ".join(f"{'-' if c < 0 else '+'} {abs(c):.2f}{n}" for c, n in terms)
    equation = equation.removeprefix("+ ")
    start = "XZ" if family[0] == "X" else "YZ"
    return (f"the plane {equation} = {offset:g} (the {start} plane turned {family[1:]} degrees "
            f"about the {family[0].lower()} axis)")


def drawn_mesh(descs: list[solids.Desc], composite: Any) -> Mesh:
    """The stack ``descs`` as drawn: its polyhedra (:func:`sweep.stack_mesh`) with the
    crease edges of its FreeCAD ``composite``."""
    size = max(composite.BoundBox.XLength, composite.BoundBox.YLength, composite.BoundBox.ZLength)
    edges = tessellate.feature_edges(composite, 0.002 * size)
    return solid_mesh(*sweep.stack_mesh(descs), SOLID, edges)


def render_views(mesh: Mesh, views: list[View], scale: float) -> list[np.ndarray]:
    """The stack's ``mesh`` seen from ``views``: those from above fitted to their panels,
    the side view (the last) at the options' ``scale``."""
    *above, side = views
    return [render([mesh], orbit(v.azimuth, v.elevation), PANEL) for v in above] + [
        render([mesh], orbit(side.azimuth, side.elevation), PANEL, scale=scale)]


def joint_outlines(descs: list[solids.Desc]) -> list[tuple[np.ndarray, np.ndarray]]:
    """For every two stacked solids, top to bottom: the supports (along ``DIRECTIONS``
    horizontal directions, one a degree from +x) of the upper one's base outline and of the
    lower one's top outline (a circle's is its radius)."""
    angles = exact.cos_sin(np.radians(np.arange(DIRECTIONS, dtype=float)))

    def support(desc: solids.Desc, ratio_of_top: bool) -> np.ndarray:
        fp = solids.footprint(desc)
        k = fp.top_ratio if ratio_of_top else 1.0
        if fp.outline == "circle":
            return np.full(DIRECTIONS, fp.size[0] * k)
        along: np.ndarray = exact.matmul(solids.outline_points(fp), angles.T).max(axis=0) * k
        return along

    return [(support(upper, False), support(lower, True))
            for upper, lower in zip(descs, descs[1:], strict=False)]


def side_view(descs: list[solids.Desc], mesh: Mesh, sections: list[Any]) -> tuple[View, float]:
    """View 3, level with the stack, and the common scale of it and the options.

    Of ``SIDE_AZIMUTHS``, the one whose outline shows the smallest overhang between two
    solids the most (every one sticking out ``2 MIN_STEP_PX`` somewhere, at the scale, must
    jog its outline at least ``MIN_STEP_PX``, on the view's left or right: an overhang's
    underside shows in no view from above), then the smallest step (a lower solid sticking
    out, which Views 1 and 2 also show from above); Reject if none shows every overhang."""
    fits = min(fitted_scale(g.bounds, PANEL) for g in sections)
    joints = joint_outlines(descs)
    best: tuple[tuple[float, float], View, float] | None = None
    for azimuth in SIDE_AZIMUTHS:
        cam = orbit(azimuth, 0.0)
        scale = round(min(fits, fit_scale([mesh], cam, PANEL, MARGIN)), 4)
        right = cam.basis()[0]
        degree = round(math.degrees(math.atan2(float(right[1]), float(right[0])))) % DIRECTIONS
        sides = [degree, (degree + DIRECTIONS // 2) % DIRECTIONS]  # screen right and left
        shown = [math.inf, math.inf]  # of the overhangs, of the steps
        for upper, lower in joints:
            for k, jut in enumerate((upper - lower, lower - upper)):
                if jut.max() * scale >= 2 * MIN_STEP_PX:
                    shown[k] = min(shown[k], float(jut[sides].max()) * scale)
        if best is None or (shown[0], shown[1]) > best[0]:
            best = ((shown[0], shown[1]), View(azimuth, 0.0), scale)
    assert best is not None
    if best[0][0] < MIN_STEP_PX:
        raise Reject("no side view shows every overhang between the solids")
    return best[1], best[2]
