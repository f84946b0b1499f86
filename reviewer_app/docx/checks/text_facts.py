"""What the checks read from a block's text alone, read once per distinct text in a check.

Contracts repeat texts: table cells such as "Year 1", "Target date", "N/A" or an amount, and
whole clauses in schedules built from one template. Most of a block's cost is fixed (a dozen
pattern searches and small records whatever its length), so blocks with the same text share
one reading: their words, references, blanks and number mismatches, manual number and the
cues the party and borrowed-terms rules look for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import blanks, definitions, numbers, xrefs
from .definitions import Definition
from .model import Finding, placed
from .words import Words, words

_COMPANY = re.compile(
    r"\b(?:Ltd|Limited|Inc|LLC|L\.L\.C|PLC|plc|LLP|Corporation|Corp|GmbH|S\.A|N\.V|B\.V|AG|SE)\b\.?"
)
#: What a company name must hold for :data:`_COMPANY` to match it (most paragraphs hold none):
#: one search for any of them is faster here than a substring search for each.
_COMPANY_CUE = re.compile(r"Ltd|Limited|Inc|LLC|L\.L\.C|PLC|plc|LLP|Corp|GmbH|S\.A|N\.V|B\.V|AG|SE")
#: "Undefined capitalized words have the meanings given in the Agreement": the document borrows
#: its terms from another, so a term it does not define may well be defined there.
_BORROWS_TERMS = re.compile(
    r"(?:undefined|not (?:otherwise )?defined)[^.]{0,100}\b(?:meanings?|definitions?)\b", re.I
)

#: Where a run-in title ends: a tab, a full stop ending the text or, after a small letter or a
#: bracket, one before a space (led by the characters, so searched for quickly).
_TITLE_END = re.compile(r"\t|\.(?:$|(?<=[a-z)]\.)(?=\s))")


def title_of(text: str) -> str | None:
    """The title a heading or numbered clause carries (``Confidentiality.`` → ``Confidentiality``)."""
    text = text.strip()
    if not text:
        return None
    head = _TITLE_END.split(text, maxsplit=1)[0].strip()
    return head if 0 < words_up_to(head, 8) <= 8 else None


def words_up_to(text: str, most: int) -> int:
    """The number of words in ``text``, counted up to ``most + 1`` (enough to tell whether there
    are at most ``most``, without splitting a long paragraph into all its words)."""
    return len(text.split(None, most))


@dataclass(slots=True)
class TextFacts:
    """One text's reading, shared by the blocks with the text and not to be changed (not frozen:
    a frozen record is several times slower to make, and a contract has thousands of texts);
    its ``local`` findings name the first block read with the text (see :meth:`local_for`)."""

    words: Words
    references: list[xrefs.Reference]
    local: list[Finding]
    manual: tuple[int, int | None] | None
    names_company: bool
    borrows_terms: bool

    def local_for(self, block_id: str) -> list[Finding]:
        """The blanks and number findings, placed in block ``block_id``."""
        return placed(self.local, block_id)


class TextReader:
    """Reads each distinct text once; one reader serves one check. Its title and definitions
    are read when a rule asks, also once (a text shows in several contexts: a table's label
    column and another, inside and outside a definitions clause)."""

    def __init__(self) -> None:
        self._read: dict[str, TextFacts] = {}
        self._titles: dict[str, str | None] = {}
        self._definitions: dict[tuple[str, bool], list[Definition]] = {}

    def title(self, text: str) -> str | None:
        """The title a heading or numbered clause carries (see :func:`title_of`)."""
        found = self._titles.get(text, self)
        if found is self:
            found = self._titles[text] = title_of(text)
        return found  # type: ignore[return-value]

    def definitions(self, text: str, in_definitions_clause: bool) -> list[Definition]:
        """The text's definitions (:func:`definitions.find`); the list is shared, not to change."""
        key = (text, in_definitions_clause)
        found = self._definitions.get(key)
        if found is None:
            found = self._definitions[key] = definitions.find(text, in_definitions_clause)
        return found

    def read(self, block_id: str, text: str) -> TextFacts:
        found = self._read.get(text)
        if found is None:
            found = self._read[text] = _read(block_id, text)
        return found


def _read(block_id: str, text: str) -> TextFacts:
    lower = text.lower()
    return TextFacts(
        words(text),
        xrefs.find(text),
        blanks.check(block_id, text, lower) + numbers.check(block_id, text),
        numbers.manual_number(text),
        _COMPANY_CUE.search(text) is not None and _COMPANY.search(text) is not None,
        "defined" in lower and _BORROWS_TERMS.search(text) is not None,
    )
