"""Where a document defines its terms: ``"Term" means``, ``(the "Term")``, ``(each a "Term")``,
lists of quoted terms that ``have the meanings`` given, and, inside a definitions clause, a
term opening its paragraph without quotes (``Affiliate means …``).

Straight and curly quotes are both accepted; a quoted phrase counts as a term only when it
looks like one (capitalised, at most eight words, no sentence punctuation), so quoted speech
or a quoted "AS IS" disclaimer is not mistaken for a definition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_QUOTED = re.compile(r"[\"“”‘']([A-Z][A-Za-z0-9&/'’\-. ]{0,80}?)[\"”“’']")
_MEANS = re.compile(
    r"\s*,?\s*(?:means|mean|shall\s+mean|will\s+mean|(?:shall\s+|will\s+)?ha(?:s|ve)\s+the\s+meanings?|"
    r"is\s+defined|are\s+defined|includes|shall\s+include|refers\s+to|:)",
)
_CHAIN = re.compile(r"\s*(?:,|and|or|,\s*and|,\s*or)\s*[\"“‘']")
_UNQUOTED = re.compile(
    r"^(?:\([a-zA-Z0-9]{1,4}\)\s*)?([A-Z][A-Za-z0-9\-]*(?:\s+(?:[A-Z][A-Za-z0-9\-]*|of|and|the|for|to|in|on)){0,5})\s*(?:means|:)\s"
)
_LOWER_WORDS = frozenset(
    ("of", "and", "the", "for", "to", "in", "on", "or", "a", "an", "by", "with", "under", "per")
)


@dataclass(frozen=True, slots=True)
class Definition:
    """A term defined at ``[start, end)`` of a block's text (the term itself, without quotes)."""

    term: str
    start: int
    end: int
    form: str  # "means", "parenthetical" or "clause"


def looks_like_term(phrase: str) -> bool:
    """A capitalised phrase of one to eight words whose other words are capitalised or short
    joining words (``Statement of Work``), without sentence punctuation."""
    words = phrase.split()
    if not 1 <= len(words) <= 8 or phrase != phrase.strip() or phrase.endswith("."):
        return False
    if phrase.isupper() and len(words) > 1 and len(phrase) > 12:
        return False  # a shouted disclaimer such as "AS IS AND AS AVAILABLE"
    return all(w[0].isupper() or w[0].isdigit() or w in _LOWER_WORDS for w in words)


def find(text: str, in_definitions_clause: bool) -> list[Definition]:
    """Every definition in one block's text."""
    found: list[Definition] = []
    for m in _QUOTED.finditer(text):
        term = m.group(1)
        if not looks_like_term(term):
            continue
        form = _form(text, m.start(), m.end())
        if form is not None:
            found.append(Definition(term, m.start(1), m.end(1), form))
    if not found and in_definitions_clause:
        m = _UNQUOTED.match(text)
        if m is not None and looks_like_term(m.group(1)):
            found.append(Definition(m.group(1), m.start(1), m.end(1), "clause"))
    return found


def _form(text: str, start: int, end: int) -> str | None:
    """How the quoted phrase at ``[start, end)`` is defined, or None when it is not."""
    if _MEANS.match(text, end):
        return "means"
    position = end
    while True:  # "A", "B" and "C" have the meanings given in ...
        chained = _CHAIN.match(text, position)
        if chained is None:
            break
        nxt = _QUOTED.match(text, chained.end() - 1)
        if nxt is None:
            break
        position = nxt.end()
        if _MEANS.match(text, position):
            return "means"
    opening = text.rfind("(", max(0, start - 120), start)
    if opening >= 0 and ")" not in text[opening:start]:
        closing = text.find(")", end)
        if closing != -1 and closing - start < 200:
            return "parenthetical"
    return None
