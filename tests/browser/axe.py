"""Accessibility checks of a page in the browser with axe-core (npm; scripts/test installs it in build/npm): the
WCAG 2.x A and AA rules (2.2 included), every finding of impact serious or critical listed."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parents[2] / "build" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
GRAVE = ("serious", "critical")


def audit(page: Any, *, exclude: tuple[str, ...] = ()) -> list[dict]:
    """axe-core's violations on the page as it is now (evaluated through the DevTools protocol: the pages' policy
    allows no injected script, and needs not)."""
    if not AXE.is_file():
        pytest.fail(f"{AXE} is missing: scripts/test installs axe-core into build/npm", pytrace=False)
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    context = {"exclude": [[selector] for selector in exclude]} if exclude else {"include": [["html"]]}
    result = page.evaluate("([context, tags]) => axe.run(context, {runOnly: {type: 'tag', values: tags}})",
                           [context, TAGS])
    return result["violations"]


def grave(violations: list[dict]) -> list[str]:
    """The serious and critical findings, each with its rule, help and the first elements it found."""
    return [f"{v['id']} ({v['impact']}): {v['help']}: " + "; ".join(n["target"][0] if isinstance(n["target"][0], str)
                                                                   else str(n["target"]) for n in v["nodes"][:4])
            for v in violations if v.get("impact") in GRAVE]


def assert_accessible(page: Any, **options: Any) -> None:
    found = grave(audit(page, **options))
    assert not found, "axe-core finds:\n" + "\n".join(found)
