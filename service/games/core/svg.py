"""Text in the games' SVG pictures: player names and labels may hold anything JSON can, but XML 1.0 allows no control
characters besides tab and newlines, so those are replaced before escaping (a picture must stay well-formed XML)."""
from __future__ import annotations

from xml.sax import saxutils


def printable(text: str) -> str:
    return "".join(ch if ch.isprintable() or ch == " " else "\ufffd" for ch in text)


def escape(text: str) -> str:
    """Text content or a double-quoted attribute value."""
    return saxutils.escape(printable(text), {'"': "&quot;"})


def quoteattr(text: str) -> str:
    """An attribute value with its quotes."""
    return saxutils.quoteattr(printable(text))


__all__ = ["escape", "printable", "quoteattr"]
