"""The referee page in a real headless Chromium (Debian's), driven by Playwright, against the app served on a
loopback port by werkzeug in a thread.

These tests fail, never skip, when Chromium or Playwright is missing: `scripts/test` installs both
(`apt-get install chromium`; `pip install playwright` — never `playwright install`: no browser downloads)."""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..serving import served

CHROMIUM = Path("/usr/bin/chromium")
# Screenshots are artifacts, never committed: REFEREE_SCREENSHOTS names their folder (CI may keep it).
SCREENSHOTS = Path(os.environ.get("REFEREE_SCREENSHOTS") or Path(tempfile.gettempdir()) / "referee-screenshots")
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with served("referee-page-server") as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as "
                    "scripts/test does", pytrace=False)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is missing: pip install -e '.[test]' (never `playwright install`)",
                    pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser, base_url):
    """A fresh page (its own context: no stored text) that records every request and console error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base_url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.requests = []  # type: ignore[attr-defined]
    page.errors = []  # type: ignore[attr-defined]
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    try:
        yield page
    finally:
        context.close()


def pytest_report_header() -> str:
    return f"chromium: {CHROMIUM if CHROMIUM.exists() else 'MISSING'}; which chromium: {shutil.which('chromium')}"


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def open_referee(page, fragment: str = "") -> None:
    """Open the page (at a game or a shared table) and wait until its editor is ready."""
    page.goto("/referee" + fragment)
    page.wait_for_selector("html[data-ready=true]")


def link_of(page, fragment: str) -> str:
    """The page's address once its fragment matches the regular expression `fragment`: a page writes its link a
    moment after what it shows (the record's part is compressed first), and page.url follows the history later
    still, so neither is read at once."""
    page.wait_for_function("(pattern) => new RegExp(pattern).test(location.hash)", arg=fragment)
    return page.evaluate("location.href")


def check_both_sizes(page, folder: Path, name: str) -> None:
    """Screenshots at the desktop and the phone size, and nothing wider than the window at either."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # let the layout settle after the resize
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter((node) => node.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                              && !node.closest('.table-scroll, .drawing, .board-scroll, .visually-hidden'))
            .map((node) => node.tagName + (node.id ? '#' + node.id : '') + '.' + node.className).slice(0, 5)""")
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        path = folder / f"{name}-{size}-{width}x{height}.png"
        page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 5_000
        assert overflow <= 0 and not wide, f"{name} overflows at {width}px by {overflow}px: {wide}"
    page.set_viewport_size({"width": SIZES["desktop"][0], "height": SIZES["desktop"][1]})
