"""A rule's text from the rule books (docs/RULES.md, docs/THIRTY-ONE.md), by its number (``TP-4.9``,
``T31-4.1``): what a refusal cites, to be read in the game.

The books are the package ``tenpennies.rulebooks`` (pyproject.toml maps it to ``docs/``), read as its resources:
the source tree's docs/ in a checkout, what the wheel ships in an install. Where they are missing, there is no
text to show (the refusal's words and its number still are)."""

from __future__ import annotations

import functools
import re
from importlib import resources

from tenpennies.engine.games import GAMES

BOOKS_PACKAGE = "tenpennies.rulebooks"
BOOKS = dict(kind.rule_book for kind in GAMES.values() if kind.rule_book[1])
"""Each rule book by the prefix of its rules' numbers (each game's ``Kind.rule_book``)."""
RULE = re.compile(rf"\b({'|'.join(map(re.escape, BOOKS))})-\d+(?:\.\d+)?\b")


def cited(text: str) -> str | None:
    """The first rule number ``text`` cites (None: none)."""
    found = RULE.search(text)
    return found.group(0) if found else None


@functools.cache
def _book(name: str) -> tuple[str, ...]:
    try:
        return tuple(resources.files(BOOKS_PACKAGE).joinpath(name).read_text(encoding="utf-8").splitlines())
    except (ImportError, OSError):  # not installed, or not this book
        return ()


def rule_text(number: str) -> str | None:
    """The rule's text as the book words it: a numbered rule's item (its lines after the first, joined), or a
    section's first paragraph for a section's number (``TP-6``); None for a number the book does not hold."""
    prefix = number.split("-", 1)[0]
    lines = _book(BOOKS.get(prefix, ""))
    for i, line in enumerate(lines):
        if line.startswith(f"- {number} "):
            words = [line.removeprefix(f"- {number} ")]
            for more in lines[i + 1:]:
                if not more.startswith("  "):
                    break
                words.append(more.strip())
            return " ".join(words)
        if line.startswith("#") and line.lstrip("#").strip().startswith(f"{number} "):
            words = []
            for more in lines[i + 1:]:
                if more.startswith("#") or (not more.strip() and words):
                    break
                if more.strip():
                    words.append(more.strip())
            return " ".join(words) or line.lstrip("#").strip()
    return None
