"""Definitions a pending tracked deletion took out of the text.

The checks read the accepted view, where a deleted definition is simply gone and its term
looks like any capitalised phrase: one that may stay known as a clause's run-in title
(``Customer Content.``) or be too rare in a short document to be judged a term at all. The
deletion itself shows the phrase was a defined term, so the term rules report every such term
still used and defined nowhere else, whatever those guards say.

Only paragraphs the block model saw deleted content in are read again (with their deletions
restored), and each block once: an edit makes a new block, so a re-check re-reads only those.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..blocks import Block
from ..llm_view import original_text
from . import definitions
from .clauses import ClauseTracker
from .terms import Term, as_term


class RemovedDefinitions:
    """The terms pending deletions removed from the definitions of a document's blocks."""

    def __init__(self) -> None:
        self._by_block: dict[Block, tuple[bool, tuple[Term, ...]]] = {}

    def terms(self, blocks: Sequence[Block]) -> dict[Term, str]:
        """Each term whose definition a pending deletion removed, with the id of the block the
        definition was in (``blocks`` is every block of a snapshot holding the changes)."""
        if not any(block.has_removed_text for block in blocks):
            self._by_block = {}
            return {}
        found: dict[Term, str] = {}
        known: dict[Block, tuple[bool, tuple[Term, ...]]] = {}
        clause = ClauseTracker()
        for block in blocks:
            if block.heading_level is not None and block.normalized:
                clause.read(block)
            if not block.has_removed_text:
                continue
            cached = self._by_block.get(block)
            if cached is None or cached[0] != clause.in_definitions:
                cached = (clause.in_definitions, _removed(block, clause.in_definitions))
            known[block] = cached
            for term in cached[1]:
                found.setdefault(term, block.id)
        self._by_block = known
        return found


def _removed(block: Block, in_definitions: bool) -> tuple[Term, ...]:
    before = definitions.find(original_text(block), in_definitions)
    after = {d.term for d in definitions.find(block.text, in_definitions)}
    return tuple(dict.fromkeys(as_term(d.term) for d in before if d.term not in after))
