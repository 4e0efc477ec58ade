"""3ViewProjection, levels >= 1: the third orthographic view of an engineering part.

A part (DeepCAD JSON or STEP; the bundled ``deepcad_assets/`` unless ``--deepcad-dir``)
is turned by one of the 24 axis-aligned rotations.  Of its front, top and left views
(first-angle names as in SpatialViz-Bench; hidden edges dashed), the reference shows the
view of largest area and one other beside an isometric picture; the question asks for the
remaining view.  Wrong options are edits of that view: turned by 90 degrees, flipped,
another view of the part, or one internal line deleted from the answer or from one of
those.  Each must differ from the answer, and from the other options, by at least
``MIN_DIFF_PX`` of line as drawn (a symmetric view's flip draws the same and is not used).

The wrong options are chosen so that picture similarity does not give the answer away:
left alone, the answer is the option most like the others (every wrong option is an edit
of it).  Two target ranks for the answer are drawn uniformly, its thumbnail distance to
the reference panels and its summed distance to the other options (what the shortcut
audit measures, :mod:`spatialcad.render.thumbnails`), and the option set is drawn among
those giving the answer exactly these ranks (other rotations, then other parts, are
tried under the same target when none does).

Parts come from the folder's index (spatialcad/cad/part_index.py): levels pick parts by
face count (simple parts at level 1, more faces and hidden lines above) among those whose
views are legible (``render/legibility.py``), and items of a run take distinct parts
(:class:`PartDraws`).  The bundled library adds its generated parts, made at run time from
the screened recipes of the part families (spatialcad/cad/generated_parts.py), to its
files' parts.  A part that cannot make the item, for whatever reason, is skipped
and counted by reason (``Draft.skipped``, ``Reject.skipped``: the run's summary).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations, islice
from pathlib import Path

import numpy as np

from spatialcad.cad import generated_parts as generated
from spatialcad.cad.input_files import reason_counts
from spatialcad.cad.part_index import IndexEntry, part_index
from spatialcad.cad.part_views import (
    ViewOutline,
    part_edges,
    part_size,
    part_triangles,
    part_view,
    part_view_outline,
)
from spatialcad.cad.parts import generated_parts, portable, resolve
from spatialcad.derived import key_hash
from spatialcad.geometry import line_drawing as ld
from spatialcad.geometry.drawing_edits import TRANSFORMS
from spatialcad.geometry.line_drawing import LineDrawing
from spatialcad.geometry.rotations import proper_rotations
from spatialcad.record.splits import split_of
from spatialcad.render import legibility
from spatialcad.render.camera import VIEWS
from spatialcad.render.engineering import MAX_PART_PX, draw_isometric, draw_view, view_scale
from spatialcad.render.thumbnails import balanced_set, random_target
from spatialcad.tasks.base import Draft, ItemSlot, Option, OwnScene, Panel, Reject
from spatialcad.tasks.three_view.spec import (
    PRINCIPAL,
    PartFile,
    PartOption,
    PartSpec,
    part_scene_key,
    texts,
    view_words,
)

# face-count bands of the levels (inclusive); the last band serves every higher level
FACE_BANDS = ((1, 12), (13, 24), (25, 10**6))
GENERATED_MIN_FACES = 7  # the simplest bundled level-1 part's: fewer (a bar or block with
# one hole, 5-6 faces) would make level 1 easier than its bundled parts
PART_DRAWS = 12  # parts tried for one item's similarity-rank target
ROTATION_DRAWS = 8  # rotations of a part tried for it
DELETIONS_FROM_ANSWER = 4  # line deletions offered as wrong options, from the answer
DELETIONS_FROM_EDIT = 1  # and from each turned / flipped / other view
MIN_DIFF_PX = 16.0  # line length (px) one drawing must have and the other lack
SAME_LINE_PX = 4.0  # lines closer than this (px) count as the same line
KIND_WEIGHT = 0.12
DEFLECTION = 0.0005  # curve discretization, as a fraction of the part's largest dimension
TRANSFORM_WORDS = {  # by the names of geometry.drawing_edits.TRANSFORMS
    "turned_ccw": "turned 90 degrees counter-clockwise",
    "turned_cw": "turned 90 degrees clockwise",
    "flipped_lr": "flipped left-right",
    "flipped_ud": "flipped upside down",
}


def face_band(level: int) -> tuple[int, int]:
    return FACE_BANDS[min(level, len(FACE_BANDS)) - 1]


def drawn_difference(a: LineDrawing, b: LineDrawing, scale: float) -> float:
    """How differently two drawings look in their panels (centred), in pixels of line: line
    one has where the other has none, plus KIND_WEIGHT of the line drawn solid in one and
    dashed in the other (a dashed line differs from a solid one only in its gaps)."""
    return ink_difference(panel_ink(a, scale), panel_ink(b, scale), scale)


def panel_ink(d: LineDrawing, scale: float) -> ld.Ink:
    """The drawing centred and sampled as :func:`drawn_difference` compares it (kept for a
    drawing compared with many)."""
    return ld.Ink(d, SAME_LINE_PX / scale, centre=True)


def ink_difference(a: ld.Ink, b: ld.Ink, scale: float, missing: int | None = None) -> float:
    """:func:`drawn_difference` of two drawings' :func:`panel_ink` (``missing``: their
    :meth:`~spatialcad.geometry.line_drawing.Ink.missing`, when known)."""
    lacking, kind = a.difference(b, missing)
    return (lacking + KIND_WEIGHT * kind) * scale


def inks_apart(a: ld.Ink, b: ld.Ink, scale: float) -> bool:
    """Whether :func:`ink_difference` is at least ``MIN_DIFF_PX``; the line one drawing lacks
    alone (a lower bound of it) often says so, and then the restyled line is not measured.
    The line ``a`` lacks is measured first, on ``b``'s point grid (``b``: the drawing
    compared with many, whose grid is at hand); ``a``'s grid only when that is not enough."""
    one_way = a.lacking(b)
    if one_way * a.step * scale >= MIN_DIFF_PX:
        return True
    missing = max(one_way, b.lacking(a))
    return (missing * a.step * scale >= MIN_DIFF_PX
            or ink_difference(a, b, scale, missing) >= MIN_DIFF_PX)


@dataclass
class Candidate:
    operator: str
    data: PartOption  # the recipe of its drawing
    explanation: str
    what: str  # what it draws, e.g. "the left view flipped left-right"


class PartSkipped(Exception):
    """The part drawn cannot make this item; ``reason`` is its short name in the summary."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


# what the geometry of an odd part may raise while its item is made (FreeCAD's errors
# are RuntimeErrors): the part is skipped, the run goes on
PART_ERRORS = (ValueError, RuntimeError, ArithmeticError, LookupError)


def part_scene(entry: IndexEntry) -> str:
    """The scene hash of every item on the part (spatialcad/derived.py)."""
    return _scene_of(entry.sha256)


@lru_cache(maxsize=1 << 15)
def _scene_of(sha256: str) -> str:
    """:func:`part_scene` of the part with this content (kept: an item's part draws ask it
    of every usable part; the bundled library's levels hold some 10k)."""
    return key_hash("three_view", part_scene_key(sha256))


def part_split(entry: IndexEntry) -> str:
    """The split a part belongs to (every item on it is one scene: spatialcad/record/splits.py)."""
    return split_of(part_scene(entry))


def part_scale(extents: Sequence[float]) -> float:
    """Pixels per mm of a part's views: thin parts drawn larger (:func:`view_scale`), with
    a pixel to spare (curves are drawn as chords, a little inside their extent)."""
    return view_scale(extents, legibility.MIN_VIEW_PX + 1.0)


def legible_size(entry: IndexEntry) -> bool:
    """Whether every view of the part is at least ``MIN_VIEW_PX`` across (each view shows
    two of the box's extents)."""
    return min(entry.extents) * part_scale(entry.extents) >= legibility.MIN_VIEW_PX + 1.0 - 1e-6


@lru_cache(maxsize=32)
def usable_parts(directory: Path, level: int, with_generated: bool = False
                 ) -> tuple[IndexEntry, ...]:
    """The distinct parts (by content) of ``directory``'s index that a level can use: valid
    parts of one solid (DeepCAD holds some of several separate pieces: no part to draw) in
    its face band whose views are all legible in size; ``with_generated`` (the bundled
    library as the default, no ``--deepcad-dir``): followed by the library's generated
    parts of the band (:func:`generated_entry`; screened for the rest)."""
    lo, hi = face_band(level)
    found: dict[str, IndexEntry] = {}
    for e in part_index(directory):
        if e.problem is None and lo <= e.faces <= hi and legible_size(e):
            found.setdefault(e.sha256, e)
    if with_generated:
        for r in generated_parts():
            if takes_generated(level, r.faces):
                found.setdefault(r.sha256, generated_entry(r))
    return tuple(found.values())


def takes_generated(level: int, faces: int) -> bool:
    """Whether ``level`` uses a generated part of ``faces`` faces: in its face band, and at
    least ``GENERATED_MIN_FACES``."""
    lo, hi = face_band(level)
    return max(lo, GENERATED_MIN_FACES) <= faces <= hi


def generated_entry(recipe: generated.Listed) -> IndexEntry:
    """A generated part as a usable part: its ``file`` is its recipe name (no file of the
    folder: :func:`part_path`), its SHA-256 and faces the listing's (no bounding box: the
    listing holds only recipes of legible size)."""
    return IndexEntry(recipe.name, recipe.sha256, 0, 0, faces=recipe.faces, solids=1)


def part_path(directory: Path, entry: IndexEntry) -> Path:
    """The file of a usable part of ``directory``: its own, or a generated part's (written
    once: spatialcad/cad/generated_parts.py)."""
    return resolve(entry.file) if generated.is_recipe_name(entry.file) else \
        directory / entry.file


def record_file(path: Path, entry: IndexEntry) -> PartFile:
    """How a record names the part of ``entry`` in ``path`` (a generated part by its recipe,
    which :func:`~spatialcad.cad.parts.resolve` turns into its file again)."""
    recipe = generated.is_recipe_name(entry.file)
    return PartFile(name=entry.file.replace("/", "_") if recipe else path.stem,
                    file=entry.file if recipe else portable(path), sha256=entry.sha256,
                    faces=part_size(path).faces)


def supply_line(directory: Path, levels: Sequence[int]) -> str:
    """What ``directory`` holds for 3ViewProjection, e.g. for ``generate``'s output."""
    index = part_index(directory)
    valid = sum(e.valid for e in index)
    per_level = ", ".join(f"level {lv} {len(usable_parts(directory, lv))}" for lv in levels)
    return (f"parts in {directory}: {valid} of {len(index)} files build a valid solid; usable "
            f"(one solid, face band, views at least {legibility.MIN_VIEW_PX:g} px): {per_level}")


def passed_over_lines(directory: Path, verbose: bool = False) -> list[str]:
    """The files of ``directory`` no part can be drawn from, counted by reason (e.g. "passed
    over 3 files: 2 malformed JSON, 1 not a regular file"; nothing when there are none),
    and with ``verbose`` one line more for each, naming it and saying why."""
    unusable = {e.file: (e.problem, e.problem_detail) for e in part_index(directory)
                if e.problem is not None}
    if not unusable:
        return []
    lines = [f"passed over {len(unusable)} file{'s' * (len(unusable) != 1)}: "
             + reason_counts(problem for problem, _ in unusable.values())]
    if verbose:
        lines += [f"  {file}: {detail}" for file, (_, detail) in sorted(unusable.items())]
    return lines


@dataclass
class PartDraws:
    """The parts one item tries.  The level's usable parts are the level's listed scenes:
    item i of a run takes part ``ItemSlot.pick`` names (a permutation of them drawn from the
    run's seed, entry i mod their number), so that a part comes back only once the run has
    used every one (spatialcad/run/scenes.py).  It tries its own part first, anew for each
    of its first attempts (another similarity-rank target, other rotations), then the
    spare parts of its round (:class:`OwnScene`); after that, parts are drawn at random,
    passing over those whose scene is in the slot's ``held`` (when every part is held,
    the item is rejected at once).  Without a slot (an item built alone), parts are drawn
    at random."""

    directory: Path
    level: int
    split: str | None
    slot: ItemSlot | None
    with_generated: bool = False  # the bundled library's generated parts too
    tries: OwnScene = field(init=False)

    def __post_init__(self) -> None:
        self.tries = OwnScene(self.slot)

    def pool(self) -> list[IndexEntry]:
        """The level's usable parts (of the split being made), in the folder index's order."""
        pool = [e for e in usable_parts(self.directory, self.level, self.with_generated)
                if self.split is None or part_split(e) == self.split]
        if not pool:
            lo, hi = face_band(self.level)
            raise Reject(f"no usable part in {self.directory} has {lo}-{hi} faces")
        return pool

    def own(self) -> IndexEntry | None:
        """The listed part this attempt tries (:class:`OwnScene`: the item's own, then its
        round's spares; passing over those whose views are not legible or whose scene is
        held), or None once there is none left to try (or no slot)."""
        pool = self.pool()
        held = self.slot.held if self.slot else frozenset()
        while (at := self.tries.next(len(pool), "three_view parts", self.level)) is not None:
            entry = pool[at]
            if part_scene(entry) not in held and \
                    not drawing(part_path(self.directory, entry))[2]:
                return entry
            self.tries.give_up()
        return None

    def next(self, rng: np.random.Generator) -> IndexEntry:
        """A part drawn at random, clear of the held scenes."""
        pool = self.pool()
        held = self.slot.held if self.slot else frozenset()
        fresh = [e for e in pool if part_scene(e) not in held]
        if not fresh:
            raise Reject(f"every usable part in {self.directory} is already in the run")
        return fresh[int(rng.integers(len(fresh)))]


def build_part_item(level: int, rng: np.random.Generator, draws: PartDraws) -> Draft:
    # Similarity ranks of the answer (to the reference, and summed to the other options),
    # drawn first and kept while parts are redrawn, so that they stay uniform.
    target = random_target(rng)
    own = draws.own()
    if own is not None:  # the next attempt tries it again, for another target
        try:
            return _try_part(level, rng, part_path(draws.directory, own), own, target, 1)
        except PartSkipped as exc:
            raise Reject(f"the item's listed part made no item for the ranks {target} "
                         f"({exc.reason})", {exc.reason: 1}) from exc
        except PART_ERRORS as exc:
            raise Reject(f"the item's listed part failed: {type(exc).__name__}",
                         {f"error ({type(exc).__name__})": 1}) from exc
    skipped: Counter[str] = Counter()
    tried: set[str] = set()
    for drawn in range(1, PART_DRAWS + 1):
        entry = draws.next(rng)
        if entry.sha256 in tried:
            continue  # a small pool: the part failed this target already
        tried.add(entry.sha256)
        try:
            path = part_path(draws.directory, entry)
            item = _try_part(level, rng, path, entry, target, drawn)
        except PartSkipped as exc:
            skipped[exc.reason] += 1
            continue
        except PART_ERRORS as exc:
            skipped[f"error ({type(exc).__name__})"] += 1
            continue
        item.skipped = dict(skipped)
        return item
    raise Reject(f"no part of {PART_DRAWS} drawn made an item with the answer's similarity "
                 f"ranks {target}", skipped)


def _try_part(level: int, rng: np.random.Generator, path: Path, entry: IndexEntry,
              target: tuple[int, int], drawn: int) -> Draft:
    """An item on the part in ``path``, the ``drawn``-th tried, turned by one of up to
    ``ROTATION_DRAWS`` rotations; :class:`PartSkipped` when its views are not legible or
    none of those gives an option set whose answer has the similarity ranks ``target``."""
    scale, deflection, problem = drawing(path)
    if problem:
        raise PartSkipped(*problem)
    skipped: PartSkipped | None = None
    for turn in rng.permutation(24)[:ROTATION_DRAWS]:
        try:
            return _item(rng, path, entry, proper_rotations()[int(turn)], scale, deflection,
                         target, drawn)
        except PartSkipped as exc:
            skipped = exc
    assert skipped is not None
    raise skipped


@lru_cache(maxsize=1024)
def drawing(path: Path) -> tuple[float, float, tuple[str, str] | None]:
    """How the part's views are drawn: scale (px per mm), curve deflection (mm), and why
    they are not legible (:class:`PartSkipped`'s reason and detail) or None.  The scale is
    :func:`part_scale`'s, or larger (up to ``MAX_PART_PX`` for the largest dimension) where
    that draws the shortest hidden line at least a dash and a gap long.  The six axis views
    of every rotation are the part's six axis drawings turned in their plane, so this holds
    for every turn (kept per process: items of a run try a part again)."""
    extents = part_size(path).extents
    scale, deflection = part_scale(extents), DEFLECTION * max(extents)
    views = {v: part_view(path, np.eye(3), *VIEWS[v].basis()[:2], deflection)
             for v in VIEWS if v != "isometric"}
    short = min((ld.length(p) for d in views.values() for p in d.hidden), default=math.inf)
    if short * scale < legibility.MIN_HIDDEN_PX:
        scale = max(scale, min((legibility.MIN_HIDDEN_PX + 0.5) / short,
                               MAX_PART_PX / max(extents)))
    for v, d in views.items():
        if problem := legibility.view_problem(d, scale):
            return scale, deflection, (problem[0], f"{path.name}, {v} view: {problem[1]}")
    return scale, deflection, None


def _item(rng: np.random.Generator, path: Path, entry: IndexEntry, rotation: np.ndarray,
          scale: float, deflection: float, target: tuple[int, int], drawn: int) -> Draft:
    """The item on the part in ``path`` turned by ``rotation``, or :class:`PartSkipped`."""
    size = part_size(path)
    largest = max(size.extents)
    views, outlines = {}, {}
    for v in VIEWS:
        if v != "isometric":
            right, up = VIEWS[v].basis()[:2]
            views[v] = part_view(path, rotation, right, up, deflection)
            outlines[v] = part_view_outline(path, rotation, right, up, deflection)
    first = max(PRINCIPAL, key=lambda v: (outlines[v].area, -PRINCIPAL.index(v)))
    rest = [v for v in PRINCIPAL if v != first]
    second = rest[int(rng.integers(2))]
    asked = next(v for v in rest if v != second)

    answer = Candidate("correct_view", PartOption(asked), f"It is {view_words(asked)}.",
                       f"the {asked} view")
    pool, inks = _wrong_options(answer, views, outlines, (first, second), scale, rng)
    if len({c.operator for c, _ in pool}) < 2 or len(pool) < 3:
        raise PartSkipped("too few wrong options", f"{path.name}: {len(pool)} drawings "
                          "differ from the answer")
    vertices, triangles = part_triangles(path, rotation, 0.01 * largest)
    edges = part_edges(path, rotation, deflection)
    reference = [Panel(draw_isometric(vertices, triangles, edges), "Isometric view")]
    reference += [Panel(draw_view(views[v], scale), f"{v.capitalize()} view")
                  for v in (first, second)]
    images = [draw_view(views[asked], scale), *(draw_view(d, scale) for _, d in pool)]

    apart: dict[tuple[int, int], bool] = {}  # sets share pairs

    def pair_apart(i: int, j: int) -> bool:
        if (i, j) not in apart:
            apart[i, j] = inks_apart(inks[i], inks[j], scale)
        return apart[i, j]

    def accept(picked: tuple[int, ...]) -> bool:
        return len({pool[i][0].operator for i in picked}) >= 2 and all(  # kinds mixed
            pair_apart(i, j) for i, j in combinations(picked, 2))

    picked = balanced_set(images[0], [p.image for p in reference], images[1:], target, rng, accept)
    if picked is None:
        raise PartSkipped("no option set with the drawn similarity ranks",
                          f"{path.name}: ranks {target}")
    chosen = [(answer, images[0]), *((pool[i][0], images[1 + i]) for i in picked)]
    options = [Option(is_answer=i == 0, operator=c.operator, explanation=c.explanation,
                      image=image, data=c.data.to_json()) for i, (c, image) in enumerate(chosen)]
    spec = PartSpec(
        part=record_file(path, entry),
        rotation=rotation.tolist(),
        reference_views=["isometric", first, second],
        asked_view=asked,
        scale_px_per_mm=scale,
        deflection_mm=deflection,
        answer_ranks=list(target),
        parts_drawn=drawn,
    )
    return Draft(question=texts(spec, []).question, spec=spec.to_json(), reference=reference,
                 options=options)


def _wrong_options(answer: Candidate, views: dict[str, LineDrawing],
                   outlines: dict[str, ViewOutline], shown: tuple[str, str], scale: float,
                   rng: np.random.Generator
                   ) -> tuple[list[tuple[Candidate, LineDrawing]], list[ld.Ink]]:
    """Every turned, flipped and other view, and a few line deletions from the answer and
    from each of those, that draws differently from the answer; with their
    :func:`panel_ink`.  A turned or flipped view has its view's internal lines (same
    order)."""
    asked = answer.data.view
    edits = [*_transforms(asked, tuple(TRANSFORMS), rng), *_other_views(asked, shown, rng)]
    bases = [answer, *edits]
    cands = edits + [c for b, n in zip(bases, [DELETIONS_FROM_ANSWER] + [DELETIONS_FROM_EDIT]
                                       * len(edits), strict=True)
                     for c in islice(_deletions(b, outlines[b.data.view].internal, rng), n)]
    answer_ink = panel_ink(views[asked], scale)
    pool: list[tuple[Candidate, LineDrawing]] = []
    inks = []
    edited: dict[tuple[str, str | None], LineDrawing] = {}  # a base is turned once
    for c in cands:
        base = (c.data.view, c.data.transform)
        if base not in edited:
            edited[base] = replace(c.data, deleted=None).drawing(views)
        d = edited[base].without(*c.data.deleted) if c.data.deleted else edited[base]
        ink = panel_ink(d, scale)
        if inks_apart(ink, answer_ink, scale):
            pool.append((c, d))
            inks.append(ink)
    return pool, inks


def _deletions(base: Candidate, lines: Sequence[tuple[bool, int]], rng: np.random.Generator
               ) -> Iterator[Candidate]:
    for i in rng.permutation(len(lines)):
        hidden, index = lines[int(i)]
        kind = "hidden (dashed)" if hidden else "visible"
        yield Candidate("line_deleted", replace(base.data, deleted=(hidden, index)),
                        f"It is {base.what} with one {kind} line missing.", base.what)


def _transforms(view: str, names: tuple[str, ...], rng: np.random.Generator
                ) -> Iterator[Candidate]:
    for i in rng.permutation(len(names)):
        name = names[int(i)]
        what = f"the {view} view {TRANSFORM_WORDS[name]}"
        yield Candidate(name.split("_")[0], PartOption(view, transform=name), f"It is {what}.",
                        what)


def _other_views(asked: str, shown: tuple[str, str], rng: np.random.Generator
                 ) -> Iterator[Candidate]:
    others = [v for v in VIEWS if v not in ("isometric", asked, *shown)]
    for i in rng.permutation(len(others)):
        v = others[int(i)]
        yield Candidate("other_view", PartOption(v), f"It is {view_words(v)}, not the {asked} "
                        "view.", f"the {v} view")
