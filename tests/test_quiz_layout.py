"""The quiz page as a participant sees it, in headless Chromium at a laptop's page size
(1366x657) and a small window (1024x700): every item, its option D and Next fit without
scrolling and wide pictures are shown large; the pause screen can start over; the page's
title and texts say true things."""

from __future__ import annotations

import json

import pytest
from browser import driver, page_errors
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from spatialcad.render.png import decode_png
from spatialcad.run import pipeline

NEXT_BLUE = (31, 95, 174)  # quiz.css: button.next


@pytest.fixture(scope="module")
def quiz(tmp_path_factory):
    """A quiz of the longest questions (ArrowMoving, BlockMoving), the widest pictures
    (BlockMoving) and the tallest (CubeAssembly)."""
    root = tmp_path_factory.mktemp("layout")
    pipeline.generate(["arrow_moving", "block_moving", "cube_assembly"], 1, 2, 0, root / "b")
    from spatialcad.export.quiz import write_quiz
    write_quiz(root / "b", root / "q", 5)
    return root / "q"


def _keys(browser, *keys):
    ActionChains(browser).send_keys(*keys).perform()


GEOMETRY = """
const box = (e) => { const r = e.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; };
const img = document.getElementById('picture');
return { view: [innerWidth, innerHeight],
  page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
  d: box(document.querySelector('.choice[data-letter="D"]')),
  next: box(document.getElementById('next')), picture: box(img),
  natural: [img.naturalWidth, img.naturalHeight],
  panel: [document.querySelector('.panel').scrollHeight,
          document.querySelector('.panel').clientHeight] };
"""


@pytest.mark.parametrize(("width", "height"), [(1366, 657), (1024, 700)])
def test_every_item_fits_the_window(quiz, tmp_path, width, height):
    browser = driver(tmp_path / "profile", width=width, height=height)
    try:
        browser.get((quiz / "index.html").as_uri())
        assert browser.title == "Spatial reasoning quiz: 5 items"
        browser.find_element(By.ID, "name").send_keys("carol", Keys.ENTER)
        seen = []
        for k in range(6):  # the practice item, then the five items
            _keys(browser, "d")  # Next turns blue once an option is chosen
            g = browser.execute_script(GEOMETRY)
            assert g["view"] == [width, height]
            assert g["page"][0] <= width and g["page"][1] <= height, g  # no scrolling
            assert g["panel"][0] <= g["panel"][1] + 1, g  # nor inside the panel
            for name in ("d", "next", "picture"):
                left, top, right, bottom = g[name]
                assert 0 <= left and 0 <= top and right <= width and bottom <= height, (name, g)
            shot = tmp_path / f"shot{k}.png"
            browser.save_screenshot(str(shot))
            pixels = decode_png(shot)
            assert pixels.shape[:2] == (height, width)
            left, top, right, bottom = g["next"]
            centre = pixels[int((top + bottom) / 2), int(left) + 4]
            assert tuple(int(v) for v in centre) == NEXT_BLUE, centre
            nat_w, nat_h = g["natural"]
            shown = g["picture"][2] - g["picture"][0]
            seen.append((nat_w / nat_h, shown, g["picture"][3] - g["picture"][1]))
            _keys(browser, Keys.ENTER)
            if k == 0:
                _keys(browser, Keys.ENTER)  # past "Practice done"
        assert "You answered all 5 items" in browser.page_source
        assert not page_errors(browser)
    finally:
        browser.quit()
    # wide, short pictures are shown across most of the window, not beside a column (a
    # fixed 400 px column left them 906 px of 1366 and 564 of 1024)
    wide = [w for aspect, w, _ in seen if aspect > 3]
    assert wide and min(wide) >= 0.75 * (width - 40), seen
    # the others get half the width at least (the answer column takes at most 36 %), or
    # nearly the whole height when they are tall
    assert all(w >= 0.5 * width or h >= 0.8 * height for aspect, w, h in seen if aspect <= 3), seen


def test_pause_screen_starts_over_for_the_next_person(quiz, browser):
    browser.get((quiz / "index.html").as_uri())
    browser.find_element(By.ID, "name").send_keys("dave", Keys.ENTER)
    _keys(browser, "a", Keys.ENTER, Keys.ENTER, "b", Keys.ENTER)  # practice, then item 1
    browser.refresh()
    assert "answered 1 of 5" in browser.find_element(By.CSS_SELECTOR, ".paused").text
    forget = browser.find_element(By.ID, "forget")
    assert forget.text.startswith("Not dave? Start over")
    forget.click()
    browser.switch_to.alert.dismiss()  # a slip: nothing is lost
    assert browser.find_element(By.TAG_NAME, "h1").text == "Paused"
    browser.find_element(By.ID, "forget").click()
    browser.switch_to.alert.accept()
    assert browser.find_element(By.ID, "name").get_attribute("value") == ""
    plan = json.loads((quiz / "quiz.json").read_text())
    saved = browser.execute_script("return localStorage.getItem(arguments[0])",
                                   f"spatialcad-quiz:{plan['quiz']}")
    assert saved is None or json.loads(saved)["stage"] == "intro"
    browser.refresh()  # the reload (and its pagehide save) does not bring dave back
    assert browser.find_element(By.ID, "name").get_attribute("value") == ""
    assert browser.find_element(By.TAG_NAME, "h1").text == "Spatial reasoning quiz"


def test_the_download_note_does_not_claim_the_file_was_saved(quiz):
    page = (quiz / "index.html").read_text()
    assert "Saved to your downloads folder" not in page
    assert "<title>Spatial reasoning quiz: 5 items</title>" in page
    assert quiz.parent.joinpath("b").name not in page.split("</title>")[0]
