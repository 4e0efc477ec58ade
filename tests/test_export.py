"""`spatialcad export` (vlmeval, jsonl) and `spatialcad gallery`, checked by their readers
(hf: tests/test_export_hf.py; spatialviz: tests/test_export_spatialviz.py)."""

from __future__ import annotations

import base64
import csv
import json
import shutil

import numpy as np
import pandas
import pytest
from browser import fetched, page_errors, run_chromium
from eval_server import FakeEndpoint, gold_table, judge_table
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from spatialcad.export.vlmeval import COLUMNS
from spatialcad.render.png import decode_png
from spatialcad.run import pipeline


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    out = tmp_path_factory.mktemp("exportbench") / "b"
    pipeline.generate(["cube_counting", "three_view"], 0, 3, 1, out)
    return out


def records(bench):
    return json.loads((bench / "benchmark.json").read_text())


def test_vlmeval_tsv(sc, bench, tmp_path):
    out = tmp_path / "bench.tsv"
    code, _, err = sc("export", bench, "--format", "vlmeval", "--out", out)
    assert code == 0, err
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    recs = records(bench)
    assert list(rows[0]) == COLUMNS
    assert [r["index"] for r in rows] == [str(i) for i in range(len(recs))]
    for row, rec in zip(rows, recs, strict=True):
        assert [row[k] for k in "ABCD"] == rec["Choices"]
        assert row["answer"] == rec["Answer"] and row["question"] == rec["Question"]
        # the level in both category columns: VLMEvalKit's tables come per level
        assert row["category"] == f"{rec['Task']}/{rec['Level']}"
        assert row["l2-category"] == f"{rec['Category']}/{rec['Level']}"
        assert row["image_id"] == rec["Image_id"] and row["image_id"].startswith("000")
        assert base64.b64decode(row["image"]) == (bench / rec["image"]).read_bytes()
    assert rows[0]["category"] == "CubeCounting/Level0"
    # read as VLMEvalKit reads it (pandas, no dtypes): the item id stays text
    frame = pandas.read_csv(out, sep="\t")
    assert list(frame["id"]) == [r["image"][:-len(".png")] for r in recs]
    assert list(frame["category"])[:3] == ["CubeCounting/Level0"] * 3
    assert list(frame["index"]) == list(range(len(recs)))


def test_jsonl(sc, bench, tmp_path):
    out = tmp_path / "bench.jsonl"
    assert sc("export", bench, "--format", "jsonl", "--out", out)[0] == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    recs = records(bench)
    assert [{k: v for k, v in x.items() if k != "image_base64"} for x in lines] == recs
    assert base64.b64decode(lines[2]["image_base64"]) == (bench / recs[2]["image"]).read_bytes()


def test_export_bad_input(sc, tmp_path):
    (tmp_path / "empty").mkdir()
    code, _, err = sc("export", tmp_path / "empty", "--format", "jsonl", "--out", tmp_path / "x")
    assert code == 2 and "not a spatialcad benchmark" in err
    code, _, err = sc("export", tmp_path / "empty", "--format", "csv", "--out", tmp_path / "x")
    assert code == 2


def _chromium(tmp_path, *args):
    return run_chromium(tmp_path / "profile", *args)


def test_gallery_renders_in_chromium(sc, bench, tmp_path):
    page = tmp_path / "site" / "index.html"
    code, stdout, err = sc("gallery", bench, "--out", page)
    assert code == 0 and "6 items" in stdout, err
    dom = _chromium(tmp_path, "--dump-dom", page.as_uri()).stdout
    recs = records(bench)
    assert dom.count('class="item"') == len(recs)
    for rec in recs:
        assert f'id="{rec["Category"]}/{rec["Task"]}/{rec["Level"]}/{rec["Image_id"]}"' in dom
    assert "All three other options are incorrect" in dom or "Image A" in dom
    shot = tmp_path / "shot.png"
    _chromium(tmp_path, "--window-size=1280,900", f"--screenshot={shot}", page.as_uri())
    image = decode_png(shot)
    assert image.shape[:2] == (900, 1280)
    assert image.std() > 20  # not a blank page
    # the first item's image is shown: its main fill colour covers many screen pixels
    first = decode_png(bench / recs[0]["image"]).reshape(-1, 3)
    colours, counts = np.unique(first[(first != 255).any(axis=1)], axis=0, return_counts=True)
    fill = colours[counts.argmax()]
    assert (image == fill).all(axis=2).sum() > 1000


def test_gallery_embedded_and_default_path(sc, bench, tmp_path):
    copy = tmp_path / "b"
    shutil.copytree(bench, copy)
    assert sc("gallery", copy)[0] == 0
    html = (copy / "gallery.html").read_text()
    assert 'src="VisualPenetration/CubeCounting/Level0/0000.png"' in html
    assert sc("gallery", copy, "--embed", "--out", tmp_path / "one.html")[0] == 0
    assert (tmp_path / "one.html").read_text().count('src="data:image/png;base64,') == 6


def test_gallery_with_a_run_filters_and_deep_links(sc, bench, browser, tmp_path):
    run = tmp_path / "run"
    with FakeEndpoint(gold=gold_table(bench), mode="random", seed=5) as ep:
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", run, "--concurrency", 1)
    assert code == 0, err
    lines = {x["id"]: x for x in map(json.loads, (run / "results.jsonl").read_text().splitlines())}
    wrong = {i for i, x in lines.items() if not x["correct"]}
    assert 0 < len(wrong) < len(lines) == 6
    page = tmp_path / "g.html"
    code, stdout, err = sc("gallery", bench, "--run", run, "--out", page)
    assert code == 0 and "with the answers of" in stdout, err

    def shown():
        return {e.get_attribute("id") for e in browser.find_elements(By.CSS_SELECTOR, ".item")
                if e.is_displayed()}

    browser.get(page.as_uri())
    assert shown() == set(lines)
    for ident, line in lines.items():
        item = browser.find_element(By.ID, ident)
        pred = item.find_element(By.CSS_SELECTOR, ".prediction")
        assert pred.find_element(By.CSS_SELECTOR, ".extracted").text == line["extracted"]
        verdict = "right" if line["correct"] else "wrong"
        assert pred.find_element(By.CSS_SELECTOR, ".verdict").text == verdict
        raw = pred.find_element(By.TAG_NAME, "details")
        assert raw.get_attribute("open") is None  # the raw reply is folded
        assert raw.get_attribute("textContent").endswith(line["raw"])
    # a filter changed by hand is written into the hash
    browser.find_element(By.ID, "wrong").click()
    assert shown() == wrong and browser.execute_script("return location.hash") == "#wrong=1"
    Select(browser.find_element(By.ID, "task")).select_by_value("CubeCounting")
    assert browser.execute_script("return location.hash") == "#task=CubeCounting&wrong=1"
    cube_wrong = {i for i in wrong if "/CubeCounting/" in i}
    assert shown() == cube_wrong
    # a link opens the filtered view (on load, and when only the hash changes)
    for hop in ("#category=MentalRotation&level=Level0", "#task=CubeCounting&wrong=1"):
        browser.get(page.as_uri() + hop)
        browser.refresh()
        want = ({i for i in lines if i.startswith("MentalRotation/")} if "category" in hop
                else cube_wrong)
        assert shown() == want, hop
    assert Select(browser.find_element(By.ID, "task")).first_selected_option.text == "CubeCounting"
    assert browser.find_element(By.ID, "wrong").is_selected()
    # a link to one item shows everything and scrolls to it
    last = sorted(lines)[-1]
    browser.get(page.as_uri() + "#" + last)
    browser.refresh()
    assert shown() == set(lines)
    top = browser.execute_script(
        "return document.getElementById(arguments[0]).getBoundingClientRect().top", last)
    assert 0 <= top < 200
    assert not page_errors(browser) and not fetched(browser)


def test_gallery_refuses_a_run_of_another_benchmark(sc, bench, tmp_path):
    other = tmp_path / "other"
    pipeline.generate(["cube_counting"], 0, 1, 2, other)
    assert sc("eval", other, "--baseline", "random", "--out", tmp_path / "run")[0] == 0
    code, _, err = sc("gallery", bench, "--run", tmp_path / "run", "--out", tmp_path / "g.html")
    assert code == 2 and "scored another benchmark" in err
    assert not (tmp_path / "g.html").exists()


def test_gallery_shows_every_judged_option_of_a_judge_run(sc, bench, tmp_path):
    run = tmp_path / "judge"
    with FakeEndpoint(judge=judge_table(bench), mode="constant:yes") as ep:
        code, _, err = sc("eval", bench, "--model", "fake-vl", "--base-url", ep.base_url,
                          "--out", run, "--form", "judge")
    assert code == 0, err
    lines = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]
    code, _, err = sc("gallery", bench, "--run", run, "--out", tmp_path / "g.html")
    assert code == 0, err
    html = (tmp_path / "g.html").read_text()
    for line in lines:
        item, letter = line["id"].split("#")
        assert f"judging {letter} (answer {line['gold']})" in html
    section = html.split(f'id="{lines[0]["id"].split("#")[0]}"', 1)[1].split("</section>")[0]
    # "yes" to both questions: one is wrong, so the item shows under "wrong only"
    assert section.count('<li class="prediction ') == 2 and 'data-wrong="1"' in section


def test_gallery_shows_the_step_by_step_solutions(sc, tmp_path):
    out = tmp_path / "b"
    pipeline.generate(["arrow_moving"], 1, 2, 0, out, with_steps=True)
    steps = [len(r["steps"]) for r in records(out)]
    assert sc("gallery", out)[0] == 0
    html = (out / "gallery.html").read_text()
    assert html.count("Step-by-step solution (") == 2
    for r in records(out):
        for k, step in enumerate(r["steps"], 1):
            assert f'src="{r["image"][:-4]}-step{k}.png"' in html
            assert step["text"] in html
    assert sc("gallery", out, "--embed", "--out", tmp_path / "one.html")[0] == 0
    embedded = (tmp_path / "one.html").read_text().count('src="data:image/png;base64,')
    assert embedded == 2 + sum(steps)
    step_file = out / records(out)[0]["steps"][0]["image"]
    step_file.write_bytes(step_file.read_bytes() + b"x")  # no longer the manifest's file
    code, _, err = sc("gallery", out, "--out", tmp_path / "two.html")
    assert code == 2 and "checksum differs" in err and not (tmp_path / "two.html").exists()
