"""`spatialcad quiz`: the sample, the page in headless Chromium (keys, clicks, pause and
resume across a reload, the download), and `spatialcad report` on the downloaded file."""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter

import numpy as np
import pytest
from browser import fetched, page_errors
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from spatialcad.export.pages import balanced_sample, spread
from spatialcad.render.png import decode_png
from spatialcad.run import pipeline


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    out = tmp_path_factory.mktemp("quizbench") / "b"
    pipeline.generate(["cube_counting", "three_view"], 0, 4, 1, out)
    return out


def records(bench):
    return {"/".join((r["Category"], r["Task"], r["Level"], r["Image_id"])): r
            for r in json.loads((bench / "benchmark.json").read_text())}


def test_spread_and_balanced_sample():
    assert spread([5, 5, 5], 7, [2, 0, 1]) == [2, 2, 3]
    assert spread([1, 9, 9], 9, [0, 1, 2]) == [1, 4, 4]  # a small group runs out
    with pytest.raises(ValueError):
        spread([1, 1], 3, [0, 1])
    items = [(t, lv, i) for t, size in (("a", 10), ("b", 3), ("c", 30)) for lv in (1, 2)
             for i in range(size)]
    keys = [lambda x: x[0], lambda x: x[1]]
    pick = balanced_sample(items, 20, np.random.default_rng(4), keys)
    assert Counter(x[0] for x in pick) == {"a": 7, "c": 7, "b": 6}  # b has 6 items in all
    assert all(abs(Counter(x[1] for x in pick if x[0] == t).get(1, 0)
                   - Counter(x[1] for x in pick if x[0] == t).get(2, 0)) <= 1 for t in "abc")
    assert pick == sorted(pick, key=items.index)
    assert pick == balanced_sample(items, 20, np.random.default_rng(4), keys)
    assert pick != balanced_sample(items, 20, np.random.default_rng(5), keys)


def test_quiz_sample_is_balanced_deterministic_and_hides_answers(sc, bench, tmp_path):
    code, out, err = sc("quiz", bench, "--n", 6, "--seed", 3, "--out", tmp_path / "q")
    assert code == 0 and "6 items" in out, err
    plan = json.loads((tmp_path / "q" / "quiz.json").read_text())
    assert Counter(i.split("/")[1] for i in plan["items"]) == {
        "CubeCounting": 3, "3ViewProjection": 3}
    assert plan["practice"] not in plan["items"]
    export = json.loads((tmp_path / "q" / "manifest.json").read_text())
    assert export["export"] == "quiz" and set(export["files"]) == {"index.html", "quiz.json"}
    assert plan["benchmark_manifest_sha256"] == hashlib.sha256(
        (bench / "manifest.json").read_bytes()).hexdigest()
    assert sc("quiz", bench, "--n", 6, "--seed", 3, "--out", tmp_path / "q2")[0] == 0
    assert (tmp_path / "q2" / "index.html").read_bytes() == (
        tmp_path / "q" / "index.html").read_bytes()
    assert sc("quiz", bench, "--n", 6, "--seed", 4, "--out", tmp_path / "q3")[0] == 0
    other = json.loads((tmp_path / "q3" / "quiz.json").read_text())
    assert (other["items"], other["practice"]) != (plan["items"], plan["practice"])
    page = (tmp_path / "q" / "index.html").read_text()
    assert "Explanation" not in page and "All three other options are incorrect" in page
    assert '"Answer"' not in page and "is_answer" not in page and '"key"' not in page
    assert page.count('"practice_answer"') == 1  # the practice item's, shown by the page
    # again into the same folder: only with --overwrite
    code, _, err = sc("quiz", bench, "--n", 6, "--seed", 3, "--out", tmp_path / "q")
    assert code == 2 and "--overwrite" in err
    assert sc("quiz", bench, "--n", 6, "--out", tmp_path / "q", "--overwrite")[0] == 0


@pytest.mark.parametrize(("args", "message"), [
    (["--n", 8], "a quiz needs n + 1"),
    (["--n", 0], "--n must be >= 1"),
    (["--tasks", "cube_counting,paper_folding"], "paper_folding not in this benchmark"),
    (["--form", "open", "--tasks", "three_view", "--n", 1], "with an open form"),
])
def test_quiz_bad_input(sc, bench, tmp_path, args, message):
    code, _, err = sc("quiz", bench, *args, "--out", tmp_path / "q")
    assert code == 2 and message in err, err
    assert not (tmp_path / "q").exists()


def test_quiz_help(sc):
    code, out, _ = sc("quiz", "--help")
    assert code == 0 and "human-<name>.jsonl" in out and "--form [choice|open]" in out


# ---- the page in headless Chromium ------------------------------------------------------------

def _state(browser, quiz):
    return browser.execute_script(
        "return JSON.parse(localStorage.getItem(arguments[0]))", f"spatialcad-quiz:{quiz}")


def _progress(browser):
    return browser.find_element(By.ID, "progress-text").text


def _keys(browser, *keys):
    ActionChains(browser).send_keys(*keys).perform()


def _downloaded(folder, name, timeout=15.0):
    path = folder / name
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.is_file() and not list(folder.glob("*.crdownload")):
            return path
        time.sleep(0.1)
    raise AssertionError(f"{name} was not downloaded: {list(folder.iterdir())}")


def _fill_colour_pixels(screenshot, png):
    """Pixels of ``screenshot`` near the most common non-white colour of image ``png``."""
    image = decode_png(png).reshape(-1, 3)
    colours, counts = np.unique(image[(image != 255).any(axis=1)], axis=0, return_counts=True)
    fill = colours[counts.argmax()].astype(int)
    return int((np.abs(screenshot.astype(int) - fill).max(axis=2) <= 3).sum())


def test_quiz_page_in_chromium_resumes_and_reports(sc, bench, browser, tmp_path):
    out = tmp_path / "quiz"
    assert sc("quiz", bench, "--n", 6, "--seed", 3, "--out", out)[0] == 0
    plan = json.loads((out / "quiz.json").read_text())
    recs = records(bench)
    order = plan["items"]
    golds = [recs[i]["Answer"] for i in order]
    # right on items 1, 3, 4, 6; wrong (the next letter) on items 2 and 5
    answers = [g if k not in (1, 4) else "ABCD"[("ABCD".index(g) + 1) % 4]
               for k, g in enumerate(golds)]
    browser.get((out / "index.html").as_uri())
    assert browser.execute_script("return [innerWidth, innerHeight]") == [1280, 800]
    browser.find_element(By.ID, "name").send_keys("alice", Keys.ENTER)
    # the practice item: not scored, its answer shown afterwards
    assert "Practice item (not scored)" in browser.page_source
    _keys(browser, "a", Keys.ENTER)
    assert "Practice done" in browser.find_element(By.TAG_NAME, "h1").text
    _keys(browser, Keys.ENTER)
    for k in range(3):
        assert _progress(browser) == f"Item {k + 1} of 6"
        assert browser.find_element(By.ID, "next").get_attribute("disabled") is not None
        _keys(browser, answers[k].lower() if k else answers[k])
        if k == 1:
            time.sleep(1.2)
        _keys(browser, Keys.ENTER)
    assert _progress(browser) == "Item 4 of 6"
    _keys(browser, "d")  # chosen, not confirmed: kept across the reload too
    browser.refresh()
    assert "answered 3 of 6" in browser.find_element(By.CSS_SELECTOR, ".paused").text
    saved = _state(browser, plan["quiz"])
    assert [a["extracted"] for a in saved["answers"]] == answers[:3]
    _keys(browser, Keys.ENTER)
    assert _progress(browser) == "Item 4 of 6"
    assert browser.find_element(
        By.CSS_SELECTOR, ".choice[aria-checked=true]").get_attribute("data-letter") == "D"
    for k in range(3, 6):
        assert _progress(browser) == f"Item {k + 1} of 6"
        if k == 3:  # by mouse
            browser.find_element(By.CSS_SELECTOR, f'.choice[data-letter="{answers[k]}"]').click()
            browser.find_element(By.ID, "next").click()
            continue
        if k == 4:  # a pause (Esc) stops the item's clock
            _keys(browser, Keys.ESCAPE)
            assert browser.find_element(By.TAG_NAME, "h1").text == "Paused"
            assert not browser.find_elements(By.ID, "picture")
            time.sleep(1.5)
            _keys(browser, Keys.ENTER)
            assert _progress(browser) == "Item 5 of 6"
        if k == 5:  # the picture is on screen at 1280x800, not a blank page
            image = browser.find_element(By.ID, "picture")
            assert browser.execute_script("return arguments[0].complete && "
                                          "arguments[0].naturalWidth", image) > 0
            shot = tmp_path / "shot.png"
            browser.save_screenshot(str(shot))
            pixels = decode_png(shot)
            assert pixels.shape[:2] == (800, 1280) and pixels.std() > 20
            assert _fill_colour_pixels(pixels, bench / recs[order[k]]["image"]) > 1000
        _keys(browser, answers[k], Keys.ENTER)
    assert "You answered all 6 items" in browser.page_source
    assert not page_errors(browser) and not fetched(browser)  # no errors, no network
    _keys(browser, Keys.ENTER)
    path = _downloaded(tmp_path / "downloads", "human-alice.jsonl")
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["id"] for x in lines] == order
    assert [x["extracted"] for x in lines] == answers
    for x, rid in zip(lines, order, strict=True):
        r = recs[rid]
        assert x["system"] == "human:alice" and x["form"] == "choice"
        assert "gold" not in x and "correct" not in x  # the file holds no answer key
        assert x["quiz_parameters"] == {"n": 6, "seed": 3, "tasks": []}
        assert (x["category"], x["task"], x["level"]) == (r["Category"], r["Task"], r["Level"])
        assert x["benchmark_manifest_sha256"] == plan["benchmark_manifest_sha256"]
        assert 0 < x["latency_s"] < 60
    assert lines[1]["latency_s"] >= 1.1 and lines[4]["latency_s"] < 1.0
    # the report reads it as the system human:alice
    code, md, err = sc("report", path, "--out", tmp_path / "rep")
    assert code == 0, err
    summary = json.loads((tmp_path / "rep" / "summary.json").read_text())
    col = summary["columns"][0]
    assert col["system"] == "human:alice" and col["overall"]["correct"] == 4
    assert col["overall"]["n"] == 6 and col["overall"]["accuracy"] == pytest.approx(4 / 6)
    for task in ("CubeCounting", "3ViewProjection"):
        mine = [x for x in lines if x["task"] == task]
        assert col["by_task_level"][f"{task}/Level0"]["correct"] == sum(
            a == recs[x["id"]]["Answer"] for a, x in zip(
                [x["extracted"] for x in mine], mine, strict=True))
        assert col["median_seconds_by_task"][task] == pytest.approx(
            float(np.median([x["latency_s"] for x in mine])))
    assert "| human-alice | human:alice | - | choice | 6 | 0 | 66.7 [30.0, 90.3] n=6" in md
    assert "## Median seconds per item by task" in md
    # beside a model run on the same benchmark: paired; and the gallery shows its answers
    assert sc("eval", bench, "--baseline", "constant", "--out", tmp_path / "const")[0] == 0
    code, md, err = sc("report", tmp_path / "const", path, "--out", tmp_path / "rep2")
    assert code == 0 and "| human-alice | all |" in md and "paired n=6" in md, err
    code, _, err = sc("gallery", bench, "--run", path, "--out", tmp_path / "g.html")
    assert code == 0, err
    assert (tmp_path / "g.html").read_text().count('class="prediction ') == 8


def test_quiz_open_form_in_chromium(sc, bench, browser, tmp_path):
    out = tmp_path / "quiz"
    code, _, err = sc("quiz", bench, "--n", 3, "--form", "open", "--tasks", "cube_counting",
                      "--out", out)
    assert code == 0, err
    plan = json.loads((out / "quiz.json").read_text())
    recs = records(bench)
    golds = [recs[i]["Answer_direct"] for i in plan["items"]]
    typed = [f"{golds[0]} cubes", str(int(golds[1]) + 1), f" {golds[2]}"]
    browser.get((out / "index.html").as_uri())
    browser.find_element(By.ID, "name").send_keys("bob-2", Keys.ENTER)
    browser.find_element(By.ID, "answer").send_keys("7", Keys.ENTER)
    _keys(browser, Keys.ENTER)
    for k, text in enumerate(typed):
        assert _progress(browser) == f"Item {k + 1} of 3"
        box = browser.find_element(By.ID, "answer")
        assert box.get_attribute("type") == "text" and not browser.find_elements(
            By.CSS_SELECTOR, ".choice")
        box.send_keys(text, Keys.ENTER)
    browser.find_element(By.ID, "download").click()
    assert not page_errors(browser) and not fetched(browser)
    path = _downloaded(tmp_path / "downloads", "human-bob-2.jsonl")
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["extracted"] for x in lines] == [t.strip() for t in typed]
    assert all(x["form"] == "open" and "gold" not in x for x in lines)
    code, md, err = sc("report", path, "--out", tmp_path / "rep")
    assert code == 0 and "| human-bob-2 | human:bob-2 | - | open | 3 | 0 | 66.7" in md, err
