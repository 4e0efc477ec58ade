"""Named edits of an engineering view, the recipes of 3ViewProjection's wrong options: the
view turned or flipped (a 2x2 matrix about the centre of its bounds), and one of its lines
deleted."""

from __future__ import annotations

import numpy as np

from spatialcad.geometry.line_drawing import FLIP_LR, FLIP_UD, TURN_CCW, TURN_CW, LineDrawing

TRANSFORMS: dict[str, np.ndarray] = {
    "turned_ccw": TURN_CCW,
    "turned_cw": TURN_CW,
    "flipped_lr": FLIP_LR,
    "flipped_ud": FLIP_UD,
}


def edited(drawing: LineDrawing, transform: str | None = None,
           deleted: tuple[bool, int] | None = None) -> LineDrawing:
    """``drawing`` mapped by the named ``transform``, then without line ``deleted``
    (``(hidden, index)`` in the mapped drawing)."""
    if transform:
        drawing = drawing.transformed(TRANSFORMS[transform])
    if deleted:
        hidden, index = deleted
        drawing = drawing.without(hidden, index)
    return drawing
