"""An item's panels cut out of its composite, each with its caption (spatialcad/panels.py),
and the readers that send or export them (eval --images panels: tests/test_eval_run.py)."""

from __future__ import annotations

import base64
import csv
import json

import numpy as np
import pytest
from conftest import one_line, small_benchmark
from test_faults import tampered

from spatialcad import panels
from spatialcad.forms import judge_image
from spatialcad.render.layout import Shape, arrangement, compose
from spatialcad.render.png import decode_png, encode_png


def _picture(w: int, h: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3)).astype(np.uint8)


REFS = [(_picture(200, 150, 1), "Front view"), (_picture(120, 150, 2), "")]
OPTS = [_picture(180, 140, 10 + k) for k in range(4)]


def _record(options: bool = True) -> tuple[dict, np.ndarray]:
    image, layout = compose(REFS, OPTS if options else None)
    return {"image": "Cat/Task/Level1/0007.png", "layout": layout}, image


def test_the_layout_records_the_reference_captions():
    _, layout = compose(REFS, OPTS)
    assert layout["captions"] == ["Front view", ""]


def test_panels_are_the_composites_crops_after_their_captions():
    record, image = _record()
    got = panels.panels(record, image)
    assert [p.caption for p in got] == ["Front view", "Picture 2", "Image A", "Image B",
                                        "Image C", "Image D"]
    for p, want in zip(got, [r for r, _ in REFS] + OPTS, strict=True):
        assert np.array_equal(p.image, want)  # the panels sit in the composite unscaled
    png = [(c, decode_png(data)) for c, data in panels.panel_pngs(record, encode_png(image))]
    assert [c for c, _ in png] == [p.caption for p in got]
    assert all(np.array_equal(a, p.image) for (_, a), p in zip(png, got, strict=True))


def test_a_judged_option_is_the_candidate_and_text_options_have_no_panel():
    record, image = _record()
    judged = panels.panels(record, image, option=2)
    assert [p.caption for p in judged] == ["Front view", "Picture 2", "Candidate"]
    assert np.array_equal(judged[-1].image, OPTS[2])
    record, image = _record(options=False)
    for option in (None, 1):
        assert [p.caption for p in panels.panels(record, image, option)] == [
            "Front view", "Picture 2"]


# panels too large for the usual rows within layout.MAX_PIXELS, laid out as the options
# in a 2 x 2 grid under the references, the references beside that grid, and one row
ARRANGED = {
    Shape(2, 2): ([(350, 350)] * 2, [(350, 350)] * 4),
    Shape(1, 2, beside=True): ([(330, 660)], [(330, 330)] * 4),
    Shape(3, 4, beside=True): ([(280, 280), (301, 370), (120, 301)],
                               [(370, 120), (120, 370), (120, 370), (370, 120)]),
}


@pytest.mark.parametrize("shape", ARRANGED)
def test_panels_are_cut_in_every_arrangement(shape):
    """``--images panels`` sends each panel of a rearranged composite, after its caption,
    and a judged option's image shows the references and that option alone."""
    refs, opts = ARRANGED[shape]
    assert arrangement(refs, opts).shape == shape
    references = [(_picture(w, h, k), f"View {k}") for k, (w, h) in enumerate(refs)]
    options = [_picture(w, h, 10 + k) for k, (w, h) in enumerate(opts)]
    image, layout = compose(references, options)
    record = {"image": "Cat/Task/Level3/0001.png", "layout": layout}
    got = panels.panels(record, image)
    assert [p.caption for p in got] == [f"View {k}" for k in range(len(refs))] + [
        f"Image {x}" for x in "ABCD"]
    for p, want in zip(got, [r for r, _ in references] + options, strict=True):
        assert np.array_equal(p.image, want)
    left = min(x for x, _, _, _ in layout["options"])
    top = min(y for _, y, _, _ in layout["options"])
    for k, option in enumerate(options):
        assert np.array_equal(panels.panels(record, image, option=k)[-1].image, option)
        judged = judge_image(record, image, k)
        h, w = option.shape[:2]
        if not shape.beside:  # the references and rule above, the option centred beneath
            kept, at = (slice(0, top), slice(None)), (top, (layout["width"] - w) // 2)
        else:  # everything left of the options, the option beside it at their top
            kept, at = (slice(None), slice(0, left)), (top, left)
        assert np.array_equal(judged[kept], image[kept])
        assert np.array_equal(judged[at[0]:at[0] + h, at[1]:at[1] + w], option)
        rest = np.ones(judged.shape[:2], dtype=bool)  # white but for those two
        rest[kept] = False
        rest[at[0]:at[0] + h, at[1]:at[1] + w] = False
        assert (judged[rest] == 255).all()


def test_a_record_without_captions_is_refused_naming_the_item():
    record, image = _record()
    del record["layout"]["captions"]
    with pytest.raises(ValueError, match=r"Cat/Task/Level1/0007.png records no panel "
                                         r"captions .* generate the benchmark again"):
        panels.require_captions([record])
    with pytest.raises(ValueError, match="unknown images 'tiles'"):
        panels.check_images("tiles")


def test_listing_names_the_images_in_order():
    assert panels.listing(["Front view", "Image A"]) == (
        "Images, in order: 1. Front view; 2. Image A.")


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    return small_benchmark(tmp_path_factory.mktemp("panels") / "b")


def test_vlmeval_panels_tsv_holds_a_list_of_images_with_their_names(sc, bench, tmp_path):
    out = tmp_path / "p.tsv"
    code, _, err = sc("export", bench, "--format", "vlmeval", "--images", "panels",
                      "--out", out)
    assert code == 0, err
    records = json.loads((bench / "benchmark.json").read_text())
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert list(rows[0])[:4] == ["index", "image", "image_path", "question"]
    for i, (row, r) in enumerate(zip(rows, records, strict=True)):
        want = panels.panel_pngs(r, (bench / r["image"]).read_bytes())
        assert [base64.b64decode(x) for x in json.loads(row["image"])] == [
            data for _, data in want]
        assert json.loads(row["image_path"]) == [f"{i}-{k}.png"
                                                 for k in range(1, len(want) + 1)]
        assert row["question"] == panels.listing([c for c, _ in want]) + "\n" + r["Question"]
    code, _, err = sc("export", bench, "--format", "jsonl", "--images", "panels",
                      "--out", tmp_path / "x.jsonl")
    assert code == 2 and "--images panels needs --format hf or vlmeval" in one_line(err)


def test_readers_refuse_panels_of_a_benchmark_without_captions(sc, bench, tmp_path):
    def strip(records, copy):
        for r in records:
            del r["layout"]["captions"]
        return records

    old = tampered(bench, tmp_path, strip)
    for args in (["eval", old, "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                  "--images", "panels", "--out", tmp_path / "run"],
                 ["export", old, "--format", "hf", "--images", "panels", "--out",
                  tmp_path / "hf"],
                 ["export", old, "--format", "vlmeval", "--images", "panels", "--out",
                  tmp_path / "x.tsv"]):
        code, _, err = sc(*args)
        assert code == 2 and "records no panel captions" in one_line(err), err
    assert not {"run", "hf", "x.tsv"} & {p.name for p in tmp_path.iterdir()}
    code, _, err = sc("export", old, "--format", "vlmeval", "--out", tmp_path / "x.tsv")
    assert code == 0, err  # the composite needs no captions
