"""The home page in Chromium, on a phone and a laptop, in every language: no sideways scroll, targets of at least
44 px, the language picker, links that work, and axe-core with no serious or critical finding."""
from __future__ import annotations

import pytest

from service.games.core.language import LANGUAGES

from .axe import assert_accessible
from .conftest import SIZES


@pytest.fixture
def sized(browser, base_url, request):
    width, height = SIZES[request.param]
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=base_url,
                                  has_touch=request.param == "phone", locale="en-GB")
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    context.close()


@pytest.mark.parametrize("sized", list(SIZES), indirect=True)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_at_the_table_and_at_a_desk(sized, language):
    page = sized
    page.goto(f"/?lang={language}")
    assert page.get_attribute("html", "lang") == language
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    small = page.evaluate("""() => [...document.querySelectorAll('a')].filter(a => {
        const box = a.getBoundingClientRect();
        return box.width > 0 && (box.height < 44 || box.width < 24);
    }).map(a => a.textContent.trim() + ' ' + a.getBoundingClientRect().height)""")
    assert small == []
    assert_accessible(page)
    assert page.errors == []


def test_the_language_picker_and_the_browser_s_language(browser, base_url):
    context = browser.new_context(base_url=base_url, locale="fr-FR")
    page = context.new_page()
    page.goto("/")
    assert page.get_attribute("html", "lang") == "fr"
    page.get_by_role("link", name="Deutsch").click()
    page.wait_for_url("**/?lang=de")
    assert page.get_attribute("html", "lang") == "de"
    page.get_by_role("link", name="Einen fertigen Tisch werten").first.click()
    page.wait_for_url("**/referee?lang=de*")
    context.close()
