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

from . import blanks, numbers, xrefs
from .model import Finding, placed
from .words import Words, contains_any, words

_COMPANY = re.compile(
    r"\b(?:Ltd|Limited|Inc|LLC|L\.L\.C|PLC|plc|LLP|Corporation|Corp|GmbH|S\.A|N\.V|B\.V|AG|SE)\b\.?"
)
#: What a company name must hold for :data:`_COMPANY` to match it (most paragraphs hold none).
_COMPANY_CUES = ("Ltd", "Limited", "Inc", "LLC", "L.L.C", "PLC", "plc", "LLP", "Corp", "GmbH", "S.A")
_COMPANY_CUES += ("N.V", "B.V", "AG", "SE")
#: "Undefined capitalized words have the meanings given in the Agreement": the document borrows
#: its terms from another, so a term it does not define may well be defined there.
_BORROWS_TERMS = re.compile(
    r"(?:undefined|not (?:otherwise )?defined)[^.]{0,100}\b(?:meanings?|definitions?)\b", re.I
)


@dataclass(frozen=True, slots=True)
class TextFacts:
    """One text's reading; its ``local`` findings name the first block read with the text (see
    :meth:`local_for`)."""

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
    """Reads each distinct text once; one reader serves one check."""

    def __init__(self) -> None:
        self._read: dict[str, TextFacts] = {}

    def read(self, block_id: str, text: str) -> TextFacts:
        found = self._read.get(text)
        if found is None:
            found = self._read[text] = _read(block_id, text)
        return found


def _read(block_id: str, text: str) -> TextFacts:
    return TextFacts(
        words=words(text),
        references=xrefs.find(text),
        local=blanks.check(block_id, text) + numbers.check(block_id, text),
        manual=numbers.manual_number(text),
        names_company=contains_any(text, _COMPANY_CUES) and _COMPANY.search(text) is not None,
        borrows_terms="defined" in text.lower() and _BORROWS_TERMS.search(text) is not None,
    )
