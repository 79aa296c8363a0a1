"""Headless Chromium (Debian's `chromium` and its `chromedriver`) through Selenium, with no
browser download: None (and why) when either is missing."""

from __future__ import annotations

import shutil

CHROMIUM_NAMES = ("chromium", "chromium-browser")


def chromium_driver() -> tuple[object | None, str]:
    """A headless Chrome WebDriver, or (None, the reason there is none)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None, "selenium is not installed (pip install -e '.[dev]')"
    binary = next((found for n in CHROMIUM_NAMES if (found := shutil.which(n))), None)
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        return None, "chromium/chromedriver not installed (scripts/setup installs them as root)"
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1800"):  # fmt: skip
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path=driver), options=options), ""
