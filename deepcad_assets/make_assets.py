"""Generate the bundled engineering parts: DeepCAD JSON + STEP + index.json + README.md.

Run from the repository root: ``python deepcad_assets/make_assets.py``.  Deterministic:
every dimension is written here and the STEP writer is byte-stable, so a rerun rewrites
identical files.  Each part is a short sketch-and-extrude recipe in millimetres (the JSON
stores metres, as DeepCAD does).  Half circles are written as two quarter arcs, so no file
depends on how a reader settles the format's half-circle ambiguity.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from spatialcad.cad.deepcad import (  # noqa: E402  (import path set above)
    Arc,
    DeepCADDoc,
    Line,
    bbox_of,
    build,
)
from spatialcad.cad.generated_parts import (  # noqa: E402
    LISTING,
    Listed,
    load_listing,
    recipe_name,
    save_listing,
)
from spatialcad.cad.part_families import (  # noqa: E402
    FAMILIES,
    GENERATED_FAMILIES,
    recipe_design,
    recipe_json,
)
from spatialcad.cad.sketch import (  # noqa: E402
    Recipe,
    arch,
    arcs,
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
from spatialcad.cad.step_io import write_step  # noqa: E402

SOURCE = "spatialcad generator"


PARTS: dict[str, tuple[str, str, Recipe]] = {}


def part(name: str, kind: str, description: str) -> Callable[[Recipe], Recipe]:
    def register(recipe: Recipe) -> Recipe:
        PARTS[name] = (kind, description, recipe)
        return recipe
    return register


# ----------------------------------------------------------------------------- plates


@part("plate_four_holes", "plate", "rounded plate, four corner holes, large centre bore")
def _(doc: DeepCADDoc) -> None:
    corners = [circle(x, y, 3.5) for x in (-30, 30) for y in (-15, 15)]
    ext(doc, [[rrect(-40, -25, 40, 25, 6), *corners]], xy(), 8)
    holes(doc, [(0, 0)], 10, xy(8), -8)


@part("plate_slots", "plate", "plate with two obround slots and a rounded window")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(0, 0, 90, 50)]], xy(), 6)
    ext(doc, [[slot((12, 12), (12, 38), 4)], [slot((78, 12), (78, 38), 4)],
              [rrect(30, 15, 60, 35, 4)]], xy(), 6, "cut")


@part("counterbored_plate", "plate", "thick plate with two counterbored holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(-35, -20, 35, 20)]], xy(), 12)
    holes(doc, [(-20, 0), (20, 0)], 6, xy(12), -4)
    holes(doc, [(-20, 0), (20, 0)], 3.2, xy(), 12)


@part("cover_plate", "plate", "cover with a window, six holes and a rim underneath")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rrect(-60, -40, 60, 40, 8), rrect(-30, -20, 30, 20, 5)]], xy(), 5)
    ext(doc, [[rrect(-56, -36, 56, 36, 5), rrect(-50, -30, 50, 30, 3)]], xy(), -6, "join")
    holes(doc, [(x, y) for x in (-50, 0, 50) for y in (-33, 33)], 2.5, xy(5), -5)


@part("cross_plate", "plate", "cross-shaped plate with a bored centre boss and arm holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((-15, -45), (15, -45), (15, -15), (45, -15), (45, 15), (15, 15),
                    (15, 45), (-15, 45), (-15, 15), (-45, 15), (-45, -15), (-15, -15))]],
        xy(), 8)
    ext(doc, [[circle(0, 0, 13)]], xy(8), 10, "join")
    holes(doc, [(0, 0)], 7, xy(18), -18)
    holes(doc, [(0, 33), (33, 0), (0, -33), (-33, 0)], 4, xy(), 8)


@part("ribbed_plate", "plate", "base plate with three ribs and four corner holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(-50, -30, 50, 30)]], xy(), 6)
    for y in (-20, 0, 20):
        ext(doc, [[poly((-45, 6), (45, 6), (45, 12), (30, 22), (-30, 22), (-45, 12))]],
            xz(y), 2, "join", "two", 1)
    holes(doc, [(x, y) for x in (-44, 44) for y in (-25, 25)], 3, xy(6), -6)


# ----------------------------------------------------------------- brackets, profiles


@part("l_bracket", "bracket", "L-bracket with two holes in each leg")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((0, 0), (60, 0), (60, 8), (8, 8), (8, 50), (0, 50))]], xz(), 20,
        extent="symmetric")
    holes(doc, [(38, -10), (38, 10)], 4, xy(8), -8)
    holes(doc, [(-10, 32), (10, 32)], 4, yz(), 8)


@part("l_bracket_gusset", "bracket", "L-bracket with a centre gusset and base slots")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((0, 0), (70, 0), (70, 8), (8, 8), (8, 60), (0, 60))]], xz(), 25,
        extent="symmetric")
    ext(doc, [[poly((8, 8), (50, 8), (8, 45))]], xz(), 3, "join", "symmetric")
    ext(doc, [[slot((40, -17), (60, -17), 3.5)], [slot((40, 17), (60, 17), 3.5)]], xy(8),
        -8, "cut")
    holes(doc, [(-15, 40), (15, 40)], 4, yz(), 8)


@part("shelf_bracket", "bracket", "bracket with a triangular web and a lightening hole")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((0, 0), (80, 0), (80, 6), (6, 6), (6, 80), (0, 80))]], xz(), 15,
        extent="symmetric")
    ext(doc, [[poly((6, 6), (70, 6), (6, 70)), circle(26, 26, 10)]], xz(), 3, "join",
        "symmetric")
    holes(doc, [(60, -9), (60, 9)], 3.5, xy(6), -6)
    holes(doc, [(-9, 60), (9, 60)], 3.5, yz(), 6)


@part("z_bracket", "bracket", "Z-profile bracket with holes in both flanges")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((0, 0), (30, 0), (30, 40), (60, 40), (60, 46), (24, 46), (24, 6),
                    (0, 6))]], xz(), 20, extent="symmetric")
    holes(doc, [(10, -10), (10, 10)], 3.5, xy(6), -6)
    holes(doc, [(48, -10), (48, 10)], 3.5, xy(46), -6)


@part("corner_bracket", "bracket", "three-plate corner with a hole in each plate")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(0, 0, 50, 50)]], xy(), 6)
    ext(doc, [[rect(0, 6, 50, 50)]], xz(), -6, "join")
    ext(doc, [[rect(6, 6, 50, 50)]], yz(), 6, "join")
    holes(doc, [(30, 30)], 5, xy(6), -6)
    holes(doc, [(30, 30)], 5, xz(), -6)
    holes(doc, [(30, 30)], 5, yz(), 6)


@part("angle_slotted", "bracket", "equal angle with two slots in each leg")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((0, 0), (50, 0), (50, 5), (5, 5), (5, 50), (0, 50))]], xz(), 40,
        extent="symmetric")
    ext(doc, [[slot((25, -25), (25, -10), 3)], [slot((25, 10), (25, 25), 3)]], xy(5), -5,
        "cut")
    ext(doc, [[slot((-25, 25), (-10, 25), 3)], [slot((10, 25), (25, 25), 3)]], yz(), 5,
        "cut")


@part("clevis", "bracket", "clevis: base block, two rounded lugs, cross pin hole")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(-15, -20, 15, 20)]], xy(-10), 10)
    ext(doc, [[arch(-15, 15, 0, 30)]], xz(-12), 8, "join")
    ext(doc, [[arch(-15, 15, 0, 30)]], xz(20), 8, "join")
    holes(doc, [(0, 30)], 6, xz(), 25, "symmetric")
    holes(doc, [(0, 0)], 5, xy(), -10)


@part("hinge_leaf", "bracket", "hinge leaf: plate with counterbored holes and a knuckle")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(0, 0, 60, 30)]], xy(), 4)
    ext(doc, [[circle(33, 3, 5), circle(33, 3, 2.5)]], yz(), 60, "join")
    holes(doc, [(15, 15), (45, 15)], 4, xy(4), -2)
    holes(doc, [(15, 15), (45, 15)], 2, xy(), 4)


@part("yoke", "bracket", "yoke: bored round boss with two arms and a cross hole")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[circle(0, 0, 16), circle(0, 0, 8)]], xy(), 24)
    ext(doc, [[rect(14, -6, 55, 6)], [rect(-55, -6, -14, 6)]], xy(), 8, "join")
    holes(doc, [(45, 0), (-45, 0)], 3.5, xy(8), -8)
    holes(doc, [(0, 16)], 3, yz(), 20, "symmetric")


@part("tee_profile", "profile", "T-section bar with holes through flange and stem")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((-5, 0), (5, 0), (5, 30), (30, 30), (30, 38), (-30, 38), (-30, 30),
                    (-5, 30))]], xz(), 40, extent="symmetric")
    holes(doc, [(-20, -25), (20, -25), (-20, 25), (20, 25)], 3, xy(38), -8)
    holes(doc, [(0, 15)], 3, yz(-5), 10)


@part("u_channel", "profile", "U-channel with base holes and a slot through both walls")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((-25, 0), (25, 0), (25, 30), (19, 30), (19, 6), (-19, 6), (-19, 30),
                    (-25, 30))]], xz(), -80)
    holes(doc, [(0, 20), (0, 60)], 5, xy(), 6)
    ext(doc, [[slot((30, 18), (50, 18), 4)]], yz(), 30, "cut", "two", 30)


@part("c_channel_ribs", "profile", "C-channel with two stiffening ribs and web holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((0, 0), (40, 0), (40, 6), (6, 6), (6, 44), (40, 44), (40, 50),
                    (0, 50))]], xz(), -90)
    for y in (30, 60):
        ext(doc, [[rect(6, 6, 40, 44)]], xz(y), 2, "join", "symmetric")
    holes(doc, [(15, 25), (45, 25), (75, 25)], 4, yz(), 6)


# ------------------------------------------------------------- flanges, shafts, clamps


@part("round_flange", "flange", "round flange, six bolt holes, hub with a through bore")
def _(doc: DeepCADDoc) -> None:
    bolts = [circle(x, y, 4) for x, y in ring_points(30, 6, 30)]
    ext(doc, [[circle(0, 0, 40), circle(0, 0, 12), *bolts]], xy(), 10)
    ext(doc, [[circle(0, 0, 20), circle(0, 0, 12)]], xy(10), 15, "join")


@part("square_flange", "flange", "square flange, hub, bore with a counterbore below")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rrect(-40, -40, 40, 40, 8)]], xy(), 10)
    ext(doc, [[circle(0, 0, 18)]], xy(10), 20, "join")
    holes(doc, [(x, y) for x in (-30, 30) for y in (-30, 30)], 4.5, xy(10), -10)
    holes(doc, [(0, 0)], 10, xy(30), -30)
    holes(doc, [(0, 0)], 14, xy(), 5)


@part("double_flange", "flange", "spool: two flanges on a tube, with through bolt holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[circle(0, 0, 16), circle(0, 0, 10)]], xy(), 40)
    for z in (0, 32):
        ext(doc, [[circle(0, 0, 30), circle(0, 0, 10)]], xy(z), 8, "join")
    holes(doc, ring_points(23, 4, 45), 3.5, xy(40), -40)


@part("gear_blank", "flange", "disc with a symmetric hub, bore and lightening holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[circle(0, 0, 35)]], xy(), 6, extent="symmetric")
    ext(doc, [[circle(0, 0, 15)]], xy(), 14, "join", "symmetric")
    holes(doc, [(0, 0)], 8, xy(), 14, "symmetric")
    holes(doc, ring_points(23, 4, 45), 6, xy(), 6, "symmetric")


@part("keyed_hub", "flange", "hub with a keyed bore and two radial set-screw holes")
def _(doc: DeepCADDoc) -> None:
    a = math.degrees(math.asin(3 / 10))
    y = math.sqrt(10**2 - 3**2)
    bore = [Arc((0, 0), 10, 90 + a, 450 - a), Line((3, y), (3, 13)),
            Line((3, 13), (-3, 13)), Line((-3, 13), (-3, y))]
    ext(doc, [[circle(0, 0, 25), bore]], xy(), 25)
    holes(doc, [(0, 12.5)], 3, xz(), -30)
    holes(doc, [(0, 12.5)], 3, yz(), 30)


@part("stepped_shaft", "shaft", "three-diameter shaft with an axial bore and a keyway")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[circle(0, 0, 15)]], yz(), 30)
    ext(doc, [[circle(0, 0, 10)]], yz(30), 25, "join")
    ext(doc, [[circle(0, 0, 6)]], yz(55), 20, "join")
    holes(doc, [(0, 0)], 3, yz(), 75)
    ext(doc, [[rect(35, -2.5, 50, 2.5)]], xy(10), -3, "cut")


@part("cross_drilled_pin", "shaft", "collared pin with two cross holes and a blind hole")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[circle(0, 0, 10)]], xy(), 60)
    ext(doc, [[circle(0, 0, 14)]], xy(), 6, "join")
    holes(doc, [(0, 20)], 3, yz(), 12, "symmetric")
    holes(doc, [(0, 40)], 3, xz(), 12, "symmetric")
    holes(doc, [(0, 0)], 4, xy(60), -25)


@part("hex_spacer", "shaft", "hexagonal spacer with a bore and a counterbore")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly(*ring_points(15, 6, 30)), circle(0, 0, 5)]], xy(), 25)
    holes(doc, [(0, 0)], 8, xy(25), -8)


@part("pipe_clamp", "clamp", "half-ring pipe clamp with two bolt ears")
def _(doc: DeepCADDoc) -> None:
    s = math.sqrt(20**2 - 5**2)
    a = math.degrees(math.asin(5 / 20))
    loop = [Line((-34, 0), (-14, 0)), *arcs((0, 0), 14, 0, 180), Line((14, 0), (34, 0)),
            Line((34, 0), (34, 5)), Line((34, 5), (s, 5)), *arcs((0, 0), 20, a, 180 - a),
            Line((-s, 5), (-34, 5)), Line((-34, 5), (-34, 0))]
    ext(doc, [[loop]], xz(), 10, extent="symmetric")
    holes(doc, [(-27, 0), (27, 0)], 3, xy(5), -5)


@part("handle_u", "clamp", "U-shaped handle with holes in its feet")
def _(doc: DeepCADDoc) -> None:
    loop = [Line((-50, 0), (-38, 0)), Line((-38, 0), (-38, 20)), *arcs((0, 20), 38, 0, 180),
            Line((38, 20), (38, 0)), Line((38, 0), (50, 0)), Line((50, 0), (50, 20)),
            *arcs((0, 20), 50, 0, 180), Line((-50, 20), (-50, 0))]
    ext(doc, [[loop]], xz(), 8, extent="symmetric")
    holes(doc, [(-44, 0), (44, 0)], 3, xy(), 12)


@part("slotted_link", "link", "obround link with end bosses, bores and a centre slot")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[slot((0, 0), (80, 0), 12)]], xy(), 6)
    ext(doc, [[circle(0, 0, 12)], [circle(80, 0, 12)]], xy(3), 6, "join", "two", 6)
    holes(doc, [(0, 0), (80, 0)], 6, xy(9), -12)
    ext(doc, [[slot((25, 0), (55, 0), 4)]], xy(), 6, "cut")


@part("lever_arm", "link", "lever: two bosses joined by a tangent web, both bored")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[two_circle_hull(14, 80, 9)]], xy(), 6)
    ext(doc, [[circle(0, 0, 14)]], xy(6), 8, "join")
    ext(doc, [[circle(80, 0, 9)]], xy(6), 4, "join")
    holes(doc, [(0, 0)], 7, xy(14), -14)
    holes(doc, [(80, 0)], 4, xy(10), -10)
    ext(doc, [[slot((28, 0), (56, 0), 3)]], xy(), 6, "cut")


@part("cam_plate", "link", "cam: two-radius outline with a hub, bore and pin hole")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[two_circle_hull(30, 36, 12)]], xy(), 10)
    ext(doc, [[circle(0, 0, 18)]], xy(10), 8, "join")
    holes(doc, [(0, 0)], 8, xy(18), -18)
    holes(doc, [(36, 0)], 4, xy(10), -10)


# ----------------------------------------------------------------------------- blocks


@part("stepped_block", "block", "block with two steps and a vertical hole")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(0, -20, 60, 20)]], xy(), 30)
    ext(doc, [[rect(30, 20, 61, 31)], [rect(45, 10, 61, 20)]], xz(), 21, "cut",
        "symmetric")
    holes(doc, [(15, 0)], 6, xy(30), -30)


@part("stepped_block_slot", "block", "stepped block, slot in the low step, two holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((0, 0), (70, 0), (70, 15), (40, 15), (40, 35), (0, 35))]], xz(), 20,
        extent="symmetric")
    ext(doc, [[slot((50, 0), (62, 0), 4)]], xy(15), -15, "cut")
    holes(doc, [(20, 0)], 5, xy(35), -35)
    holes(doc, [(0, 25)], 4, yz(), 20)


@part("pocket_block", "block", "block with a rounded pocket and holes in its floor")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(-40, -25, 40, 25)]], xy(), 25)
    ext(doc, [[rrect(-25, -15, 25, 15, 5)]], xy(25), -10, "cut")
    holes(doc, [(-12, 0), (12, 0)], 4, xy(15), -15)


@part("round_pocket_block", "block", "block with a round pocket, a bore and a side hole")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rrect(-30, -30, 30, 30, 6)]], xy(), 30)
    ext(doc, [[circle(0, 0, 15)]], xy(30), -8, "cut")
    holes(doc, [(0, 0)], 5, xy(22), -22)
    holes(doc, [(0, 12)], 4, xz(-30), -60)


@part("manifold_block", "block", "block with drillings from three faces meeting inside")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(0, 0, 60, 50)]], xy(), 40)
    holes(doc, [(20, 25)], 6, xy(40), -30)
    holes(doc, [(20, 20)], 5, xz(), -40)
    holes(doc, [(25, 20)], 4, yz(30), 31, "symmetric")
    holes(doc, [(45, 35)], 5, xy(40), -12)


@part("dovetail_slide", "block", "block with a dovetail groove and four holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(-40, -25, 40, 25)]], xy(), 30)
    ext(doc, [[poly((-10, 31), (-18, 18), (18, 18), (10, 31))]], xz(), 30, "cut",
        "symmetric")
    holes(doc, [(-30, -15), (30, -15), (-30, 15), (30, 15)], 4, xy(30), -30)


@part("v_block", "block", "V-block with a relief groove, side slots and a bottom hole")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(-30, 0, 30, 40)]], xz(), 25, extent="symmetric")
    ext(doc, [[poly((-20, 41), (-2, 23), (-2, 17), (2, 17), (2, 23), (20, 41))],
              [rect(-31, 10, -24, 16)], [rect(24, 10, 31, 16)]], xz(), 26, "cut",
        "symmetric")
    holes(doc, [(0, 0)], 5, xy(), 12)


@part("t_slot_block", "block", "block with a T-slot along its length and four holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(0, -30, 100, 30)]], xy(), 35)
    ext(doc, [[poly((-6, 36), (-6, 25), (-14, 25), (-14, 15), (14, 15), (14, 25), (6, 25),
                    (6, 36))]], yz(-1), 102, "cut")
    holes(doc, [(10, 20), (90, 20), (10, -20), (90, -20)], 4, xy(35), -35)


@part("wedge_block", "block", "wedge with a step, a slanted face and three holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[poly((0, 0), (70, 0), (70, 12), (45, 12), (20, 40), (0, 40))]], xz(), 20,
        extent="symmetric")
    holes(doc, [(10, -10), (10, 10)], 3.5, xy(40), -40)
    holes(doc, [(58, 0)], 5, xy(12), -12)


@part("bridge_block", "block", "bridge with an arched tunnel and counterbored holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(-50, -15, 50, 15)]], xy(), 40)
    ext(doc, [[arch(-20, 20, -1, 15)]], xz(), 16, "cut", "symmetric")
    holes(doc, [(-38, 0), (38, 0)], 7, xy(40), -6)
    holes(doc, [(-38, 0), (38, 0)], 3.5, xy(), 40)


@part("intersect_saddle", "block", "saddle: front arch intersected with a rounded plan")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[arch(-30, 30, 0, 20)]], xz(), 25, extent="symmetric")
    ext(doc, [[rrect(-35, -20, 35, 20, 10)]], xy(-1), 60, "intersect")
    holes(doc, [(0, 22)], 8, xz(), 25, "symmetric")


# --------------------------------------------------------------------------- housings


@part("pillow_block", "housing", "bearing block: base with holes, arched housing, bore")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rrect(-45, -17, 45, 17, 4)]], xy(), 12)
    ext(doc, [[arch(-25, 25, 12, 35)]], xz(), 17, "join", "symmetric")
    holes(doc, [(0, 35)], 14, xz(), 18, "symmetric")
    holes(doc, [(0, 35)], 17, xz(-17), -4)
    holes(doc, [(-36, 0), (36, 0)], 5, xy(12), -12)


@part("bearing_housing", "housing", "square base, round housing, stepped bore")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(-40, -40, 40, 40)]], xy(), 15)
    ext(doc, [[circle(0, 0, 30)]], xy(15), 30, "join")
    holes(doc, [(0, 0)], 20, xy(45), -10)
    holes(doc, [(0, 0)], 15, xy(35), -35)
    holes(doc, [(x, y) for x in (-32, 32) for y in (-32, 32)], 4, xy(15), -15)


@part("motor_mount", "housing", "upright plate with a bored boss on a slotted base")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rect(-35, 0, 35, 40)]], xy(), 8)
    ext(doc, [[rrect(-35, 0, 35, 70, 6)]], xz(), -8, "join")
    ext(doc, [[circle(0, 42, 16)]], xz(), 6, "join")
    holes(doc, [(0, 42)], 9, xz(-6), -20)
    holes(doc, [(x, y + 42) for x, y in ring_points(12, 4, 45)], 2, xz(-6), -14)
    ext(doc, [[slot((-22, 18), (-22, 32), 3.5)], [slot((22, 18), (22, 32), 3.5)]], xy(8),
        -8, "cut")


@part("box_tray", "housing", "open tray with a divider and two drain holes")
def _(doc: DeepCADDoc) -> None:
    ext(doc, [[rrect(-45, -30, 45, 30, 6)]], xy(), 25)
    ext(doc, [[rrect(-41, -26, -1.5, 26, 3)], [rrect(1.5, -26, 41, 26, 3)]], xy(25), -21,
        "cut")
    holes(doc, [(-21, 0), (21, 0)], 5, xy(), 4)


# ------------------------------------------------------------------------------- main


def _solid(name: str, doc: DeepCADDoc) -> tuple[Any, dict[str, Any], list[float]]:
    shape = build(doc.as_dict())
    if len(shape.Solids) != 1:
        raise ValueError(f"{name}: {len(shape.Solids)} solids, expected one")
    box = [round(v, 4) + 0.0 for v in bbox_of(shape)]
    return shape, doc.as_dict(box), box


def _entry(name: str, kind: str, description: str, shape: Any, data: dict[str, Any],
           box: list[float], step: bool) -> dict[str, Any]:
    extrudes = [e for e in data["entities"].values() if e["type"] == "ExtrudeFeature"]
    return {
        "name": name, "kind": kind, "description": description, "source": SOURCE,
        "json": f"{name}.json", "step": f"{name}.step" if step else None,
        "bbox": {"min": box[:3], "max": box[3:]},
        "size": [round(box[i + 3] - box[i], 4) for i in range(3)],
        "faces": len(shape.Faces), "edges": len(shape.Edges),
        "volume": round(shape.Volume, 3),
        "operations": sorted({e["operation"] for e in extrudes}),
        "extents": sorted({e["extent_type"] for e in extrudes}),
    }


def _write_json(data: dict[str, Any], path: Path) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def make_part(name: str, out: Path) -> dict[str, Any]:
    """Write ``<name>.json`` and ``<name>.step`` to ``out``; return the index entry."""
    kind, description, recipe = PARTS[name]
    doc = DeepCADDoc()
    recipe(doc)
    try:
        shape, data, box = _solid(name, doc)
    except ValueError as exc:
        raise SystemExit(str(exc)) from exc
    _write_json(data, out / f"{name}.json")
    write_step(shape, out / f"{name}.step")
    return _entry(name, kind, description, shape, data, box, step=True)


# ------------------------------------------------------------------- family parts

# Family parts (spatialcad/cad/part_families.py) ship as DeepCAD JSON only: with STEP, 300
# more parts would take the folder past its ~12 MB budget.  Candidates are drawn from one
# seeded generator per family, in turn, and kept while their face band needs parts and
# they pass the checks three_view applies (single solid, legible size, legible hidden
# dashes) and are not a near-duplicate of a kept part.
FAMILY_SEED = 20261126
PER_BAND = 110
# the face bands of 3ViewProjection's levels when the library was made (they are now
# 1-12, 13-24, 25+: spatialcad/tasks/three_view/generate_parts.py); kept, so that the
# script remakes exactly these files
BANDS = ((1, 14), (15, 20), (21, 10**6))
MAX_DRAWS = 3000


def band_of(faces: int) -> int:
    return next(i for i, (lo, hi) in enumerate(BANDS) if lo <= faces <= hi)


def signature(entry: dict[str, Any]) -> tuple[Any, ...]:
    """What two parts drawing the same views share: face and edge counts, box proportions
    and filled fraction (scale-free, so a uniformly scaled copy matches)."""
    size = entry["size"]
    big = max(size)
    fill = entry["volume"] / (size[0] * size[1] * size[2])
    return (entry["faces"], entry["edges"], *(round(v / big, 2) for v in size),
            round(fill, 2))


def legible(path: Path) -> str | None:
    """Why three_view would skip the part in ``path`` (None when it would not)."""
    from spatialcad.cad.part_index import IndexEntry
    from spatialcad.cad.part_views import _axis_drawing, part_view
    from spatialcad.cad.parts import cached_part
    from spatialcad.render import legibility
    from spatialcad.render.camera import VIEWS
    from spatialcad.tasks.three_view.generate_parts import DEFLECTION, legible_size, part_scale

    cached_part.cache_clear()  # a rejected candidate's file is reused by the next one
    _axis_drawing.cache_clear()
    box = cached_part(path).BoundBox
    extents = (box.XLength, box.YLength, box.ZLength)
    bbox = (box.XMin, box.YMin, box.ZMin, box.XMax, box.YMax, box.ZMax)
    if not legible_size(IndexEntry(path.name, "", 0, 0, faces=1, solids=1, bbox=bbox)):
        return "view too small"
    scale = part_scale(extents)
    for v in VIEWS:
        if v != "isometric" and (problem := legibility.view_problem(
                part_view(path, np.eye(3), *VIEWS[v].basis()[:2], DEFLECTION * max(extents)),
                scale)):
            return problem[0]
    return None


def family_candidates() -> Iterator[tuple[str, str, DeepCADDoc]]:
    """(family, description, model) of every draw, the families in turn, each family
    drawing from its own seeded generator."""
    rngs = {f: np.random.default_rng([FAMILY_SEED, i]) for i, f in enumerate(FAMILIES)}
    for draw in range(MAX_DRAWS):
        fam = list(FAMILIES)[draw % len(FAMILIES)]
        description, recipe = FAMILIES[fam](rngs[fam])
        doc = DeepCADDoc()
        recipe(doc)
        yield fam, description, doc


def family_parts(out: Path) -> list[dict[str, Any]]:
    """Draw, check and write the family parts; return their index entries."""
    counts: Counter[str] = Counter()
    per_band = [0] * len(BANDS)
    seen: set[tuple[Any, ...]] = set()
    entries: list[dict[str, Any]] = []
    for fam, description, doc in family_candidates():
        if min(per_band) >= PER_BAND:
            break
        name = f"{fam}_{counts[fam] + 1:03d}"
        try:
            shape, data, box = _solid(name, doc)
        except ValueError:
            continue
        entry = _entry(name, fam, description, shape, data, box, step=False)
        band = band_of(entry["faces"])
        if per_band[band] >= PER_BAND or signature(entry) in seen:
            continue
        path = out / f"{name}.json"
        _write_json(data, path)
        if legible(path) is not None:
            path.unlink()
            continue
        seen.add(signature(entry))
        counts[fam] += 1
        per_band[band] += 1
        entries.append(entry)
    if min(per_band) < PER_BAND:
        raise SystemExit(f"family parts per face band {per_band}, wanted {PER_BAND} each")
    return entries


# ----------------------------------------------------------------- generated parts

# Generated parts (recipes named by family and seed, made at run time) are listed once
# screened: seeds 0, 1, 2, ... of every family in turn until level 1 holds
# GENERATED_LEVEL1 of them.  A recipe is listed when it builds one valid solid whose views
# are all legible in size, and when it is no near-duplicate (:func:`signature`) of a
# bundled or an earlier listed part (nor a byte-identical one).  Whether its hidden
# dashes are long enough (``legible``, ~1 s a part) is left to the run: an item whose part
# fails it takes a spare part of its round (spatialcad/tasks/base.py OwnScene).
GENERATED_LEVEL1 = 2100


def screened(fam: str, seed: int, seen: set[tuple[Any, ...]]) -> Listed | None:
    """The listing's line of recipe (fam, seed), or None when it is not listed; a listed
    recipe's signature is added to ``seen``."""
    from spatialcad.cad.part_index import IndexEntry
    from spatialcad.tasks.three_view.generate_parts import legible_size

    data = recipe_json(fam, seed)
    _, doc = recipe_design(fam, seed)
    try:
        shape, _, box = _solid(recipe_name(fam, seed), doc)
    except ValueError:
        return None
    entry = _entry(fam, fam, "", shape, doc.as_dict(box), box, step=False)
    if (not shape.isValid() or signature(entry) in seen
            or not legible_size(IndexEntry("", "", 0, 0, faces=1, solids=1, bbox=tuple(box)))):
        return None
    seen.add(signature(entry))
    return Listed(fam, seed, hashlib.sha256(data).hexdigest(), entry["faces"])


def screen() -> None:
    """Screen recipes into ``generated_parts.tsv`` (see GENERATED_LEVEL1)."""
    from spatialcad.tasks.three_view.generate_parts import face_band

    bundled = json.loads((HERE / "index.json").read_text())
    seen = {signature(e) for e in bundled}
    shas = {hashlib.sha256((HERE / e["json"]).read_bytes()).hexdigest() for e in bundled}
    lo, hi = face_band(1)
    listed: list[Listed] = []
    seed = 0
    while sum(lo <= r.faces <= hi for r in listed) < GENERATED_LEVEL1:
        for fam in GENERATED_FAMILIES:
            sha = hashlib.sha256(recipe_json(fam, seed)).hexdigest()
            if sha not in shas and (found := screened(fam, seed, seen)) is not None:
                shas.add(sha)
                listed.append(found)
        seed += 1
        if seed % 50 == 0:
            print(f"seeds 0-{seed - 1}: {len(listed)} listed", flush=True)
    save_listing(HERE / LISTING, listed, f"generated parts: seeds 0-{seed - 1} of every "
                  "family screened by deepcad_assets/make_assets.py --screen")
    write_listing(json.loads((HERE / "index.json").read_text()))  # the README's counts
    print(f"listed {len(listed)} generated parts (seeds 0-{seed - 1}) in {HERE / LISTING}")


README = """# Bundled engineering parts

{n} sketch-and-extrude parts in the DeepCAD JSON format (Wu et al., ICCV 2021: Onshape
sketches of `Line3D`/`Arc3D`/`Circle3D` loops and `ExtrudeFeature`s, lengths in metres).
{hand} are hand-written recipes, each also as STEP (AP214, millimetres); {fam} are drawn
from seeded parametric families (`spatialcad/cad/part_families.py`: plates, blocks,
brackets, flanges, shafts, housings, links; names `<family>_NNN`) and ship as JSON only,
every one checked to give legible three-view drawings. Parts per face band: {per_band}.
Source: spatialcad generator. They are meant for three-view drawings, so most have hidden
features: holes, counterbores, pockets, slots, steps and grooves.

3ViewProjection also draws {generated} *generated* parts, listed in `generated_parts.tsv`:
recipes of the same families and of a profile-bar family (angle, tee, channel, zed, step,
wedge and trapezoid bars with holes through their walls), each named by its family and
seed (`generated/<family>/<seed>` in a record) and made at run time (its DeepCAD JSON, a
few kB, written once into the cache directory; spatialcad/cad/generated_parts.py). The
list holds each recipe's SHA-256 and face count, screened by `python
deepcad_assets/make_assets.py --screen` (seeds 0, 1, 2, ... of every family: one valid
solid, views legible in size, no near-duplicate of a bundled or an earlier listed part;
whether its hidden dashes are long enough is checked when an item is made, and a part
failing it gives way to a spare part), and the digest of the code that makes a recipe's
bytes (tests/test_generated_parts.py fails when that code changed and the list was not
made again). Usable parts per 3ViewProjection level (bundled files + generated):
{levels}.

Regenerate (deterministic, byte-identical) from the repository root:

    python deepcad_assets/make_assets.py
    python deepcad_assets/make_assets.py --screen   # generated_parts.tsv (~13 min)

`index.json` lists per part: name, kind, description, source, files, bounding box and size
(mm), face and edge counts, volume (mm^3), and the extrude operations and extent types
used (`step` is null for a JSON-only part). Load a part with
`spatialcad.cad.parts.load_part(path)`; list the parts of a directory with
`spatialcad.cad.parts.list_parts()`.

| part | kind | size x, y, z (mm) | faces | description |
| --- | --- | --- | --- | --- |
{rows}
"""


def write_listing(entries: list[dict[str, Any]]) -> None:
    """index.json and README.md for these index entries."""
    (HERE / "index.json").write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")
    rows = "\n".join(
        f"| {e['name']} | {e['kind']} | {' x '.join(f'{v:g}' for v in e['size'])} | "
        f"{e['faces']} | {e['description']} |" for e in entries)
    bands = [sum(band_of(e["faces"]) == i for e in entries) for i in range(len(BANDS))]
    per_band = ", ".join(f"{lo}-{hi if hi < 10**6 else ''} faces {n}"
                         for (lo, hi), n in zip(BANDS, bands, strict=True))
    (HERE / "README.md").write_text(
        README.format(n=len(entries), hand=len(PARTS), fam=len(entries) - len(PARTS),
                      per_band=per_band, rows=rows, **generated_counts(entries)),
        encoding="utf-8")


def generated_counts(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The README's numbers of generated parts: listed, and usable per level with the
    bundled ones (face band and legible size, as three_view counts them)."""
    from spatialcad.cad.part_index import IndexEntry
    from spatialcad.tasks.three_view.generate_parts import (
        face_band,
        legible_size,
        takes_generated,
    )

    listed = load_listing(HERE / LISTING)[1]
    levels = []
    for level in (1, 2, 3):
        lo, hi = face_band(level)
        files = sum(lo <= e["faces"] <= hi and legible_size(IndexEntry(
            e["json"], "", 0, 0, faces=e["faces"], solids=1,
            bbox=(*e["bbox"]["min"], *e["bbox"]["max"]))) for e in entries)
        made = sum(takes_generated(level, r.faces) for r in listed)
        levels.append(f"level {level} ({lo}-{hi if hi < 10**6 else ''} faces) {files} + "
                      f"{made} = {files + made}")
    return {"generated": len(listed), "levels": ", ".join(levels)}


def main() -> None:
    for old in HERE.glob("*_[0-9][0-9][0-9].json"):  # family parts are drawn afresh
        old.unlink()
    entries = [make_part(name, HERE) for name in sorted(PARTS)] + family_parts(HERE)
    write_listing(entries)
    print(f"wrote {len(entries)} parts to {HERE}")


if __name__ == "__main__":
    screen() if "--screen" in sys.argv[1:] else main()
