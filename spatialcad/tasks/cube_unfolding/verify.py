"""CubeUnfolding verifier, and the cube folding and picture reading CubeReconstruction shares.

Independent of the generator's hinge folding and frame transfer: a cube is *rolled* under
the net from cell to cell (each roll is found by searching the 24 rotations for the one
that brings the face on the rolling side up), every cell stamping its picture on the face
that touches the net.  A view is matched against the folded cube by trying all 24 poses
and counting quarter turns with ``np.rot90``.  The pictures in the composite image are read
back at the centre of every grid block and must show what the record says.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from spatialcad.geometry.rotations import proper_rotations
from spatialcad.verify.base import crop

X, Y, Z = np.eye(3, dtype=int)
# visible face -> (outward normal, right, up) seen from outside, camera at (+1, -1, +1)
SHOWN = {"top": (Z, X, Y), "front": (-Y, X, Z), "right": (X, Y, Z)}
SCREEN_RIGHT = np.array([1.0, 1.0, 0.0]) / math.sqrt(2.0)
SCREEN_UP = np.array([-1.0, 1.0, 2.0]) / math.sqrt(6.0)
TOLERANCE = 40.0  # largest RGB distance between a read colour and its palette colour

Folded = dict[tuple, tuple[np.ndarray, np.ndarray, np.ndarray]]


def _roll_towards(d: np.ndarray) -> np.ndarray:
    """The rotation that rolls a cube under a ceiling one cell towards ``d``."""
    return next(m for m in proper_rotations()
                if np.array_equal(m @ d, Z) and np.array_equal(m @ Z, -d))


def roll(cells: list[tuple[int, int, np.ndarray]]) -> Folded:
    """Body normal -> (picture, picture right, picture up) in body coordinates, rolling a
    cube under the net from its first cell; raises ValueError if it is not a cube net."""
    where = {(r, c): pic for r, c, pic in cells}
    if len(where) != 6:
        raise ValueError("a net needs six different cells")
    start = (cells[0][0], cells[0][1])
    pose = {start: np.eye(3, dtype=int)}
    queue = [start]
    while queue:
        r, c = queue.pop(0)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            nb = (r + dr, c + dc)
            if nb in where and nb not in pose:
                pose[nb] = _roll_towards(np.array([dc, -dr, 0])) @ pose[(r, c)]
                queue.append(nb)
    if len(pose) != 6:
        raise ValueError("the net is not connected")
    folded: Folded = {}
    for cell, m in pose.items():
        folded[tuple(m.T @ Z)] = (where[cell], m.T @ X, m.T @ Y)
    if len(folded) != 6:
        raise ValueError("two cells fold onto the same face")
    return folded


def seen(folded: Folded, pose: np.ndarray) -> dict[str, np.ndarray]:
    """The three pictures the posed cube shows, each read in its face's frame."""
    out = {}
    for name, (w, _, up) in SHOWN.items():
        pic, _, body_up = folded[tuple(pose.T @ w)]
        target, turns, v = pose @ body_up, 0, up
        while not np.array_equal(v, target):
            v, turns = np.cross(w, v), turns + 1
        out[name] = np.rot90(pic, turns)
    return out


def shows(folded: Folded, view: dict[str, np.ndarray]) -> bool:
    """Some pose of the folded cube shows exactly ``view``."""
    return any(
        all(np.array_equal(s[k], view[k]) for k in SHOWN)
        for s in (seen(folded, m) for m in proper_rotations())
    )


def net_cells(data: dict[str, Any], faces: list[np.ndarray]) -> list[tuple[int, int, np.ndarray]]:
    """``(row, col, picture as drawn)`` of a stored net; faces must be used once each."""
    if sorted(f for _, _, f, _ in data["cells"]) != list(range(6)):
        raise ValueError("the net does not use each face exactly once")
    return [(r, c, np.rot90(faces[f], t)) for r, c, f, t in data["cells"]]


def _classify(pixels: np.ndarray, palette: np.ndarray) -> np.ndarray:
    """Palette index of each read colour, -1 where none is within TOLERANCE."""
    dist = np.linalg.norm(pixels[..., None, :].astype(float) - palette, axis=-1)
    idx = dist.argmin(axis=-1)
    return np.where(dist.min(axis=-1) <= TOLERANCE, idx, -1)


def read_net(panel: np.ndarray, drawing: dict, cells: list, n: int, palette) -> list[np.ndarray]:
    """The grid each net cell shows, read at its block centres."""
    cell, (x0, y0) = drawing["cell"], drawing["origin"]
    centres = (np.arange(n) + 0.5) * cell / n
    out = []
    for r, c, _ in cells:
        ys = (y0 + r * cell + centres).astype(int)
        xs = (x0 + c * cell + centres).astype(int)
        out.append(_classify(panel[np.ix_(ys, xs)], np.asarray(palette, dtype=float)))
    return out


def read_view(panel: np.ndarray, drawing: dict, n: int, palette) -> dict[str, np.ndarray]:
    """The grid each visible face of a drawn cube shows, read at its block centres."""
    s, (cx, cy) = drawing["scale"], drawing["center"]
    t = (np.arange(n) + 0.5) / n - 0.5
    out = {}
    for name, (w, right, up) in SHOWN.items():
        p = 0.5 * w + t[None, :, None] * right - t[:, None, None] * up
        xs = (cx + s * p @ SCREEN_RIGHT).astype(int)
        ys = (cy - s * p @ SCREEN_UP).astype(int)
        out[name] = _classify(panel[ys, xs], np.asarray(palette, dtype=float))
    return out


def check_net_image(panel, data, cells, faces_spec, what: str) -> list[str]:
    n = len(faces_spec["faces"][0])
    read = read_net(panel, data["drawing"], cells, n, faces_spec["palette"])
    bad = [f"{r},{c}" for (r, c, pic), got in zip(cells, read, strict=True)
           if not np.array_equal(pic, got)]
    return [f"{what}: cells {bad} do not show their pictures"] if bad else []


def check_view_image(panel, view, drawing, faces_spec, what: str) -> list[str]:
    n = len(faces_spec["faces"][0])
    read = read_view(panel, drawing, n, faces_spec["palette"])
    bad = [k for k in SHOWN if not np.array_equal(read[k], view[k])]
    return [f"{what}: the {bad} faces do not show their pictures"] if bad else []


def as_view(data: dict[str, list]) -> dict[str, np.ndarray]:
    return {k: np.array(data[k], dtype=int) for k in SHOWN}


def verify(record: dict[str, Any], image: np.ndarray) -> list[str]:
    spec = record["spec"]
    faces = [np.array(g, dtype=int) for g in spec["faces"]["faces"]]
    view = as_view(spec["view"])
    failures = check_view_image(crop(image, record["layout"]["reference"][0]), view,
                                spec["view_drawing"], spec["faces"], "the cube")
    fits = []
    for o, box in zip(record["options"], record["layout"]["options"], strict=True):
        try:
            cells = net_cells(o["data"], faces)
            folded = roll(cells)
        except ValueError as exc:
            failures.append(f"option {o['letter']}: {exc}")
            continue
        failures += check_net_image(crop(image, box), o["data"], cells, spec["faces"],
                                    f"option {o['letter']}")
        fits.append((o["letter"], shows(folded, view)))
    if failures:
        return failures
    wanted = spec["question"] == "can"
    matching = [letter for letter, ok in fits if ok == wanted]
    if matching != [record["Answer"]]:
        failures.append(f"nets that {spec['question']} fold into the cube: {matching}, "
                        f"answer {record['Answer']}")
    return failures
