"""3ViewProjection (engineering parts) verifier.

From the record alone: the part file (checked by its SHA-256; a generated part is made
again from its recipe) turned by the stored rotation.  Proves, on the composite image:

* every drawing panel shows exactly the drawing its recipe names (a fresh TechDraw
  projection of that view, edited as stated, drawn at the item's scale);
* the answer's recipe is the asked view unedited, and the outline of the answer panel is
  the outer outline of the tessellated part seen from the asked side (found without
  TechDraw); the same for the reference views;
* every wrong option differs from the answer, as read from the image, by at least
  ``MIN_DIFF_PIXELS`` dark pixels lying farther than ``SAME_LINE_PX`` from the other's lines;
* every drawing panel's lines span at least ``legibility.MIN_VIEW_PX`` both ways.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.cad.part_views import part_size, part_triangles, part_view
from spatialcad.cad.parts import part_sha256, resolve
from spatialcad.render import legibility
from spatialcad.render.camera import VIEWS
from spatialcad.render.engineering import draw_view
from spatialcad.render.mesh import solid_mesh
from spatialcad.render.opencv import cv2
from spatialcad.render.pixels import darkest, pixels_differing
from spatialcad.render.raster import triangle_ids
from spatialcad.tasks.three_view.spec import PartOption, PartSpec, parse_option
from spatialcad.verify.base import crop

MIN_DIFF_PIXELS = 16
SAME_LINE_PX = 1.5  # below the gaps of dashed lines (5 px), so dashes differ from solid
MAX_OUTLINE_MISMATCH = 0.01
BAND_PX = 3
MAX_MISMATCH = 0.002  # share of a panel's pixels allowed to differ from a fresh drawing


def dark(panel: np.ndarray) -> np.ndarray:
    return darkest(panel) < 128


def _same_canvas(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both masks centred on one canvas (drawings are centred in their panels)."""
    h, w = max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])

    def pad(m: np.ndarray) -> np.ndarray:
        top, left = (h - m.shape[0]) // 2, (w - m.shape[1]) // 2
        out = np.zeros((h, w), dtype=bool)
        out[top : top + m.shape[0], left : left + m.shape[1]] = m
        return out

    return pad(a), pad(b)


def pixels_apart(a: np.ndarray, b: np.ndarray) -> int:
    """Dark pixels of one panel farther than SAME_LINE_PX from the other's (larger way)."""
    return masks_apart(dark(a), dark(b))


def masks_apart(a: np.ndarray, b: np.ndarray, enough: int | None = None) -> int:
    """:func:`pixels_apart` of the panels' :func:`dark` masks; with ``enough``, the count
    one way when that is already at least ``enough`` (a lower bound of the larger way that
    settles a test against it; smaller counts are exact)."""
    ma, mb = _same_canvas(a, b)

    def lacking(x: np.ndarray, y: np.ndarray) -> int:
        dist = cv2.distanceTransform((~y).astype(np.uint8), cv2.DIST_L2, 5)
        return int(np.count_nonzero(x & (dist > SAME_LINE_PX)))

    one_way = lacking(ma, mb)
    if enough is not None and one_way >= enough:
        return one_way
    return max(one_way, lacking(mb, ma))


def silhouette(vertices: np.ndarray, triangles: np.ndarray, view: str, scale: float,
               size: tuple[int, int]) -> np.ndarray:
    """The part's filled silhouette seen from ``view``, centred on a ``size`` canvas: the
    pixels whose centre some triangle covers (:func:`raster.triangle_ids`, which centres
    the part's projected box)."""
    ids = triangle_ids(solid_mesh(vertices, triangles), VIEWS[view], size, scale=scale)
    return filled(ids >= 0)


def filled(mask: np.ndarray) -> np.ndarray:
    """The mask with its holes filled (through-holes are inside a view's outline)."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    out = np.zeros(mask.shape[:2], dtype=np.uint8)
    cv2.drawContours(out, contours, -1, 1, cv2.FILLED)
    return out.astype(bool)


def outline_mismatch(region: np.ndarray, silhouette: np.ndarray) -> float:
    """Share of the silhouette's area where it and the drawn region disagree, not counting
    a band of BAND_PX around the silhouette's edge (the drawn lines' own width)."""
    sil = silhouette.astype(np.uint8)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * BAND_PX + 1, 2 * BAND_PX + 1))
    band = cv2.dilate(sil, kernel) > cv2.erode(sil, kernel)
    return np.count_nonzero((region ^ silhouette) & ~band) / max(1, int(np.count_nonzero(sil)))


def verify_part(record: dict[str, Any], image: np.ndarray, spec: PartSpec) -> list[str]:
    try:
        path = resolve(spec.part.file)  # a generated part's recipe: its file, made again
    except ValueError as exc:
        return [f"part file: {exc}"]
    if not path.is_file():
        return [f"part file {path} is missing"]
    if part_sha256(path) != spec.part.sha256:
        return [f"part file {path} is not the one the item was made from (SHA-256 differs)"]
    parsed = [parse_option(o["data"]) for o in record["options"]]
    options = [o for o in parsed if isinstance(o, PartOption)]
    if len(options) != len(parsed):
        return ["an option's data is not the recipe of a part drawing"]
    rotation = np.asarray(spec.rotation, dtype=int)
    scale, deflection = float(spec.scale_px_per_mm), float(spec.deflection_mm)
    asked = spec.asked_view
    names = {asked, *spec.reference_views[1:], *(o.view for o in options)}
    views = {v: part_view(path, rotation, *VIEWS[v].basis()[:2], deflection) for v in names}
    largest = max(part_size(path).extents)  # a turn permutes the box's lengths
    vertices, triangles = part_triangles(path, rotation, 0.002 * largest)

    failures = []

    def check_panel(panel: np.ndarray, mask: np.ndarray, recipe: PartOption, what: str) -> None:
        failures.extend(legibility.panel_failures(what, mask))
        expected = draw_view(recipe.drawing(views), scale)
        if panel.shape != expected.shape:
            failures.append(f"{what}: panel is {panel.shape[:2]}, its drawing {expected.shape[:2]}")
            return
        off = pixels_differing(panel, expected, 64)
        if off > MAX_MISMATCH * panel.shape[0] * panel.shape[1]:
            failures.append(f"{what} does not show its stated drawing ({off} pixels differ)")

    def check_outline(mask: np.ndarray, view: str, what: str) -> None:
        size = (mask.shape[1], mask.shape[0])
        off = outline_mismatch(filled(mask),
                               silhouette(vertices, triangles, view, scale, size))
        if off > MAX_OUTLINE_MISMATCH:
            failures.append(f"{what}: outline is not the part's {view} silhouette "
                            f"({off:.1%} of its area differs)")

    for view, box in zip(spec.reference_views[1:], record["layout"]["reference"][1:],
                         strict=True):
        panel = crop(image, box)
        mask = dark(panel)
        check_panel(panel, mask, PartOption(view), f"reference {view} view")
        check_outline(mask, view, f"reference {view} view")

    panels = [crop(image, box) for box in record["layout"]["options"]]
    masks = [dark(panel) for panel in panels]
    for o, recipe, panel, mask in zip(record["options"], options, panels, masks, strict=True):
        check_panel(panel, mask, recipe, f"option {o['letter']}")
    answer = next(i for i, o in enumerate(record["options"]) if o["letter"] == record["Answer"])
    if options[answer] != PartOption(asked):
        failures.append(f"the answer's drawing is not the plain {asked} view")
    check_outline(masks[answer], asked, "answer")
    for i, (o, mask) in enumerate(zip(record["options"], masks, strict=True)):
        if i == answer:
            continue
        if (apart := masks_apart(mask, masks[answer], MIN_DIFF_PIXELS)) < MIN_DIFF_PIXELS:
            failures.append(f"option {o['letter']} draws like the answer "
                            f"(only {apart} pixels apart)")
    return failures
