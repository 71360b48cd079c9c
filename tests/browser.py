"""Headless Chromium for the browser tests, through Debian's chromedriver.

``tools/check.py`` (the README's test command) and ``.ci/run`` install
``chromium`` and ``chromium-driver`` where they are missing; a test that
finds neither fails and says so, never skips.
"""

from __future__ import annotations

import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chromium(
    width: int, height: int, *, pinned: bool = False, console: bool = False
) -> webdriver.Chrome:
    """A headless Chromium whose window is ``width`` × ``height``.

    ``pinned`` also pins the page's own size to that (headless windows hold
    no browser frame, but a page's viewport may still differ) and keeps the
    console's messages for the test to read; ``console`` keeps them alone
    (``driver.get_log("browser")`` reads them: script errors and refused
    resources are ``SEVERE``).
    """
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        pytest.fail(
            "the browser tests need Chromium and its driver: apt-get install -y chromium "
            "chromium-driver (python tools/check.py and .ci/run install them)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={width},{height}")
    if pinned or console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chrome = webdriver.Chrome(service=Service(driver), options=options)
    if pinned:
        chrome.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
    return chrome
