"""The home page (service/api/home.py): GET / says what the service is in the language chosen, lists every
registered game and links to the pages and the API reference; a client asking for JSON gets the index of links."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from service.games.core.language import LANGUAGES
from service.games.registry import GAMES


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.links: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang")
        if tag == "a":
            self.links.append(found.get("href") or "")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _page(client: Any, **headers: str) -> tuple[Any, _Page]:
    answer = client.get("/", headers=headers)
    page = _Page()
    page.feed(answer.get_data(as_text=True))
    return answer, page


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_home_page_speaks_the_language_chosen(client: Any, language: str) -> None:
    answer, page = _page(client, **{"Accept-Language": f"{language}-XX, en;q=0.1"})
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    assert answer.headers["Content-Language"] == language == page.lang
    assert "Accept-Language" in answer.headers["Vary"] and "Accept" in answer.headers["Vary"]
    assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
    text = " ".join(page.text)
    for game in GAMES.values():
        assert game.info.title in text
    if language != "en":
        english = " ".join(_page(client)[1].text)
        assert "Score a finished table" in english and "Score a finished table" not in text


def test_the_home_page_links_to_the_pages_the_games_and_the_reference(client: Any) -> None:
    _, page = _page(client)
    for link in ("play", "referee", "referee/replay", "docs", "openapi.yaml"):
        assert link in page.links
    for game_id in GAMES:
        assert f"v1/games/{game_id}/rules" in page.links
    for link in page.links:  # relative, so that the page works wherever the service is mounted
        assert not link.startswith("/") and "//" not in link
        target = "/" + re.sub(r"#.*", "", link)
        assert client.get(target).status_code == 200, link
    assert [code for code in LANGUAGES if f"?lang={code}" in page.links] == list(LANGUAGES)


def test_a_language_named_in_the_link_is_kept_in_the_page_s_links(client: Any) -> None:
    answer = client.get("/?lang=it")
    page = _Page()
    page.feed(answer.get_data(as_text=True))
    assert page.lang == "it" and "referee?lang=it" in page.links and "referee/replay?lang=it" in page.links


def test_a_client_asking_for_json_gets_the_index(client: Any) -> None:
    answer = client.get("/", headers={"Accept": "application/json"})
    index = answer.get_json()
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert [game["id"] for game in index["games"]] == list(GAMES)
    assert index["links"]["games"] == "/v1/games" and index["links"]["docs"] == "/docs"
    for link in index["links"].values():
        assert client.get(link).status_code == 200, link
