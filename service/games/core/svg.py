"""Text in the games' SVG pictures: player names and labels may hold anything JSON can, but XML 1.0 allows no control
characters besides tab and newlines, so those are replaced before escaping (a picture must stay well-formed XML)."""
from __future__ import annotations

import textwrap
from typing import Any, NamedTuple
from xml.sax import saxutils

from .language import DEFAULT, said
from .messages import tr


def printable(text: str) -> str:
    return "".join(ch if ch.isprintable() or ch == " " else "\ufffd" for ch in text)


def escape(text: str) -> str:
    """Text content or a double-quoted attribute value."""
    return saxutils.escape(printable(text), {'"': "&quot;"})


def quoteattr(text: str) -> str:
    """An attribute value with its quotes."""
    return saxutils.quoteattr(printable(text))


class Mark(NamedTuple):
    """How a proposed step is marked on a picture: the class of its group, its colour, its glyph and its
    outline's dashes (a refused step is dashed and crossed, so that the mark does not rest on colour alone)."""

    kind: str
    colour: str
    glyph: str
    dash: str


def mark_of(proposal: Any, dashes: str = "6 3") -> Mark:
    """The mark of a proposed step (service.games.core.game.Proposal): legal, or refused."""
    if proposal.legal:
        return Mark("legal", "#1b5e20", "\u2713", "")
    return Mark("refused", "#b71c1c", "\u2717", f' stroke-dasharray="{dashes}"')


LINE = 18  # px between the lines of a verdict
CHARACTER = 7.2  # px: an average character of the pictures' 13px sans-serif, for wrapping


def verdict(proposal: Any, language: str = DEFAULT) -> list[str]:
    """A proposed step's verdict in words (service.games.core.game.Proposal): legal and what it does, or refused
    with each rule and why."""
    number = proposal.index + 1
    if proposal.legal:
        return [said(tr("Step {number} is legal:", number=number), language),
                *(said(sentence, language) for sentence in proposal.sentences)]
    return [said(tr("Step {number} is refused ({rule}): {message}", number=number, rule=problem.rule or "-",
                    message=problem.message), language) for problem in proposal.violations]


def verdict_band(proposal: Any, language: str, x: float, y: float, width: float) -> tuple[str, float]:
    """The verdict of a proposed step as SVG text lines wrapped to `width`, from (x, y): (the group, its height).
    Classes `verdict legal` / `verdict refused` let a page style it; the colours are a picture's own."""
    kind = "legal" if proposal.legal else "refused"
    colour = "#1b5e20" if proposal.legal else "#b71c1c"
    lines = [wrapped for line in verdict(proposal, language)
             for wrapped in textwrap.wrap(line, max(20, int(width / CHARACTER))) or [""]]
    texts = "".join(f'<text x="{x:g}" y="{y + LINE * (i + 1):g}">{escape(line)}</text>' for i, line in enumerate(lines))
    return (f'<g class="verdict {kind}" fill="{colour}" font-family="sans-serif" font-size="13" '
            f'font-weight="{"normal" if proposal.legal else "bold"}">{texts}</g>', LINE * len(lines) + LINE / 2)


__all__ = ["Mark", "escape", "mark_of", "printable", "quoteattr", "verdict", "verdict_band"]
