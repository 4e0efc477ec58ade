"""`spatialcad audit`: the pictures at the size a model sees them (issue 48 item 6)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import one_line, small_benchmark
from test_faults import tampered

from spatialcad.evaluate.picture_sizes import MAX_PIXELS, resize_factor, smart_resize
from spatialcad.render import legibility
from spatialcad.render.drawing import FONT
from spatialcad.render.opencv import cv2
from spatialcad.render.png import decode_png
from spatialcad.render.stacks import MARGIN
from spatialcad.verify.raycast import occupancy


@pytest.mark.parametrize(("size", "want"), [
    ((1920, 1080), (1316, 728)),  # over: sqrt(1920 * 1080 / max) = 1.4375; sides floored
    ((1704, 966), (1316, 728)),   # 966 / 28 = 34.5 rounds to 34, as Python's round does
    ((1280, 208), (1288, 196)),   # under: only rounded to multiples of 28
    ((1280, 784), (1260, 784)),   # 1288 x 784 > max: beta = 1 exactly, sides floored
    ((40, 30), (84, 56)),         # tiny: scaled up past min_pixels (56 x 56), ceiled
])
def test_smart_resize_is_qwen25vls(size, want):
    got = smart_resize(*size)
    assert got == want and got[0] % 28 == 0 and got[1] % 28 == 0
    assert got[0] * got[1] <= MAX_PIXELS


def test_the_factor_is_the_smaller_sides():
    assert resize_factor(1920, 1080) == min(1316 / 1920, 728 / 1080)
    assert resize_factor(1280, 208) == 196 / 208


def test_checks_note_what_they_measure_only_when_asked():
    with legibility.measuring() as found:
        legibility.grid_failures("v", [0, 0, 2 * MARGIN + 100, 2 * MARGIN + 60], (3, 4))
        legibility.dot_failures("d", 12.5)
        legibility.panel_failures("p", np.ones((50, 50), dtype=bool))
    assert found == [("cube edge", 20.0), ("dot", 12.5), ("dash", 9.0)]
    with legibility.measuring() as later:
        pass
    legibility.dot_failures("d", 3.0)  # outside: noted nowhere
    assert later == [] and len(found) == 3


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    return small_benchmark(tmp_path_factory.mktemp("sizes") / "b")


def _row(md: str, task: str) -> list[str]:
    line = next(x for x in md.splitlines() if x.startswith(f"| {task} |"))
    return [c.strip() for c in line.strip("|").split("|")]


def test_audit_reports_each_tasks_sizes_at_the_models_size(sc, bench, tmp_path):
    code, out, err = sc("audit", bench, "--out", tmp_path / "sizes.md")
    assert code == 0, err
    assert (tmp_path / "sizes.md").read_text() + "\n" == out
    records = json.loads((bench / "benchmark.json").read_text())
    for task in ("CubeCounting", "2DRotation"):
        mine = [r for r in records if r["Task"] == task]
        sizes = [decode_png(bench / r["image"]).shape[1::-1] for r in mine]
        factors = [resize_factor(w, h) for w, h in sizes]
        w, h = max(sizes, key=lambda s: (s[0] * s[1], s[0]))
        row = _row(out, task)
        assert row[1:6] == [str(len(mine)), f"{w} x {h}", f"{w * h / 1e6:.2f}",
                            f"{sum(a * b <= MAX_PIXELS for a, b in sizes)}/{len(mine)}",
                            f"{min(factors):.3f}"]
        # captions: cap height of "H" at the caption font, all short enough to fit at 0.75
        cap = cv2.getTextSize("H", FONT, 0.75, 2)[0][1]
        assert row[-1] == f"{cap:.1f} -> {cap * min(factors):.1f}"
        assert row[7:10] == ["n/a", "n/a", "n/a"]  # no dots, sections or dashes here
    # cube edge: CubeCounting's views are grids of cubes, each cell the panel less its
    # margins over the grid's cells; 2DRotation draws no cubes
    counting = [r for r in records if r["Task"] == "CubeCounting"]
    edges = []
    for r in counting:
        image = decode_png(bench / r["image"])
        f = resize_factor(image.shape[1], image.shape[0])
        vox = {tuple(v) for v in r["spec"]["voxels"]}
        for view, (_, _, bw, bh) in zip(r["spec"]["views"], r["layout"]["reference"],
                                         strict=True):
            rows, cols = occupancy(vox, view).shape
            px = min((bw - 2 * MARGIN) / cols, (bh - 2 * MARGIN) / rows)
            edges.append((px, px * f))
    native, shown = min(edges, key=lambda e: e[1])
    assert _row(out, "CubeCounting")[6] == f"{native:.1f} -> {shown:.1f}"
    assert _row(out, "2DRotation")[6] == "n/a"


def test_audit_of_a_broken_benchmark_is_one_line(sc, tmp_path):
    (tmp_path / "empty").mkdir()
    code, _, err = sc("audit", tmp_path / "empty")
    assert code == 2 and one_line(err)


def test_a_benchmark_without_recorded_captions_says_so(sc, bench, tmp_path):
    def strip(records, copy):
        for r in records:
            del r["layout"]["captions"]
        return records

    code, out, err = sc("audit", tampered(bench, tmp_path, strip))
    assert code == 0, err
    assert _row(out, "CubeCounting")[-1] == "n/a"
    assert "6 items record no captions (made before records held them)" in out
