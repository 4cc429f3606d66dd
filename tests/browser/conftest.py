"""The referee page in a real headless Chromium (Debian's), driven by Playwright, against the app served on a
loopback port by werkzeug in a thread.

These tests fail, never skip, when Chromium or Playwright is missing: `scripts/test` installs both
(`apt-get install chromium`; `pip install playwright` — never `playwright install`: no browser downloads)."""
from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Iterator

import pytest
from werkzeug.serving import make_server

from service.api import create_app

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    app = create_app({"TESTING": True, "RATE_LIMIT": "", "LOG_LEVEL": "WARNING", "REDIS_URL": ""})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="referee-page-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


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
