"""Headless Chromium for the page tests: Debian's chromium, driven directly or by selenium.

The flags keep Chromium off the network (no background requests, component updates,
sync or QUIC) and give every browser a fresh profile; it runs as root, hence
``--no-sandbox``.  Selenium talks to Debian's chromedriver directly (``SE_OFFLINE``: no
Selenium Manager, no download).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

CHROMIUM = shutil.which("chromium")
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = ("needs Debian's chromium and chromium-driver: `make test` installs them "
           "(apt-get install chromium chromium-driver)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def run_chromium(profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """One headless Chromium process (``--dump-dom``, ``--screenshot`` ...)."""
    assert CHROMIUM, MISSING
    return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=60, check=True)


def driver(profile: Path, downloads: Path | None = None, width: int = 1280, height: int = 800):
    """A selenium Chrome driver on a ``width`` x ``height`` viewport; files the page
    downloads go to ``downloads``.  Quit it when done."""
    assert CHROMIUM and CHROMEDRIVER, MISSING
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # console, see page_errors
    browser = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        if downloads is not None:
            downloads.mkdir(parents=True, exist_ok=True)
            browser.execute_cdp_cmd("Browser.setDownloadBehavior", {
                "behavior": "allow", "downloadPath": str(downloads)})
    except Exception:
        browser.quit()
        raise
    return browser


def page_errors(browser) -> list[str]:
    """The page's console errors and uncaught exceptions since the last call."""
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def fetched(browser) -> list[str]:
    """Every resource the current page loaded that is not inline (data:, blob:) or a file."""
    names = browser.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name)")
    return [n for n in names if not n.startswith(("data:", "blob:", "file:"))]
