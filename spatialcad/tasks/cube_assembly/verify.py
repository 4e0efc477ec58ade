"""CubeAssembly verifier.

Re-derives the missing piece as the cubes of the complete stack that the given pieces leave
uncovered, and compares every option with it after moving both to their minimum corner
(the options are drawn centred, so only the shape counts).  Proves: the stack stands and is
connected; all pieces but one are given (the question's count of pieces is the spec's:
spatialcad.run.verification checks the text); they are connected, disjoint and inside the
stack; the missing piece is connected; exactly the answer option has its shape; every
option is connected; the open answer (``Answer_direct``) is the missing piece's number of
cubes.  With the task's own pictures (spatialcad.render.piece_pictures) it also checks that
the panels show what the record says, with legible cubes, that every cube the question
relies on is visible, that no cube the complete stack's pictures leave unseen could be
added or removed (it would change the missing piece), and that each wrong option differs
from the missing piece (moved) in a cube, or the gap of one, that its pictures show, and
is drawn unlike it: its picture as stored differs from the missing piece's, drawn alike,
in one of the views by as many pixels as a cube must show (render/unseen.py).  The
options' views are those the composite has room for (``piece_pictures.option_view``):
every option, the missing piece among them, fits them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spatialcad.geometry.voxels import Voxel, is_connected
from spatialcad.render import legibility, unseen
from spatialcad.render import piece_pictures as pictures
from spatialcad.render.pixels import shows
from spatialcad.tasks.cube_assembly.spec import parse_option, parse_spec
from spatialcad.verify.base import crop


def _shape(cubes: set[Voxel]) -> tuple[Voxel, ...]:
    lo = [min(c[i] for c in cubes) for i in range(3)]
    return tuple(sorted((x - lo[0], y - lo[1], z - lo[2]) for x, y, z in cubes))


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = parse_spec(record["spec"])
    pieces = [parse_option(o["data"]).voxels for o in record["options"]]
    stack = set(spec.voxels)
    parts = [set(q) for q in spec.parts]
    space, k = spec.space, spec.pieces
    failures = []
    if any(z > 0 and (x, y, z - 1) not in stack for x, y, z in stack):
        failures.append("a cube of the complete stack floats")
    if not is_connected(stack):
        failures.append("the complete stack is not connected")
    if len(parts) != k - 1:
        failures.append(f"{len(parts)} pieces shown for a stack split into {k}")
    covered: set[Voxel] = set()
    for i, part in enumerate(parts):
        if not is_connected(part):
            failures.append(f"piece {i + 1} is not connected")
        if not part <= stack:
            failures.append(f"piece {i + 1} has cubes outside the stack")
        if part & covered:
            failures.append(f"piece {i + 1} overlaps another piece")
        covered |= part
    missing = stack - covered
    if not is_connected(missing):
        return failures + ["the uncovered cubes do not form one connected piece"]
    if record.get("Answer_direct") != str(len(missing)):
        failures.append(f"the open answer {record.get('Answer_direct')!r} is not the missing "
                        f"piece's {len(missing)} cubes")

    matches = []
    for o, cells in zip(record["options"], pieces, strict=True):
        piece = set(cells)
        if not is_connected(piece):
            failures.append(f"option {o['letter']} is not connected")
        elif _shape(piece) == _shape(missing):
            matches.append(o["letter"])
    if matches != [record["Answer"]]:
        failures.append(f"options with the missing piece's shape: {matches}, "
                        f"answer {record['Answer']}")

    boxes = record["layout"]
    stack_l, parts_l = sorted(stack), [sorted(q) for q in parts]
    for i, picture in enumerate(pictures.reference_pictures(stack_l, parts_l, space)):
        if not shows(crop(image, boxes["reference"][i]), picture):
            failures.append(f"reference panel {i + 1} does not show its cubes")
    if pictures.option_view(tuple(space), k) is None:
        return failures + [f"no option view of legible cubes fits the composite of {space}"]
    framings = pictures.option_framings(space, k)
    truth = pictures.option_picture(_shape(missing), space, k)
    for o, cells, box in zip(record["options"], pieces, boxes["options"], strict=True):
        drawn = sorted(set(cells))
        if not pictures.fits_option(drawn, space, k):
            failures.append(f"option {o['letter']} does not fit the options' views")
            continue
        shown = crop(image, box)
        if not shows(shown, pictures.option_picture(drawn, space, k)):
            failures.append(f"option {o['letter']} does not show its piece")
        if o["letter"] not in matches and pictures.looks_like(shown, truth, framings[0].scale):
            failures.append(f"option {o['letter']} is drawn like the missing piece: its "
                            "picture does not show what makes it wrong")
        if not pictures.visible(drawn, framings):
            failures.append(f"option {o['letter']} hides a cube")
        if o["letter"] not in matches and legibility.hidden_difference(
                drawn, sorted(missing), [np.eye(3, dtype=int)],
                [(f.cam, f.scale) for f in framings]):
            failures.append(f"option {o['letter']} differs from the missing piece only in "
                            "cubes its pictures do not show")
    for change in pictures.unseen_changes(stack_l, parts_l, space):
        failures.append(f"{unseen.describe(change)} draws the same complete-stack pictures "
                        "but changes the missing piece")
    ref = pictures.reference_framings(space)
    if not pictures.tops_visible(stack_l, ref) or not all(
            pictures.visible(q, ref) for q in parts_l):
        failures.append("a column top of the stack or a cube of a piece is hidden")
    return failures + pictures.legibility_failures(space, k, boxes["reference"],
                                                   boxes["options"])
