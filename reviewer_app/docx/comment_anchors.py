"""Where a comment's markers sit in the main story: the block holding each, its clean-text offset,
and the text quoted between a range's start and end.

The snapshot's blocks are the unit: a marker inside a block paragraph belongs to it, one between
paragraphs to the block after it (a range start) or before it (a range end). Offsets count the
clean text (accepted view, see :mod:`.text`) before the marker, so a quote is what the reader sees.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from .snapshot import Snapshot
from .text import FieldState, NoteNumbers, Piece, paragraph_text
from .xmlutil import W

_P = W + "p"


class Locator:
    """Maps a marker in the main story to (block index, clean-text offset) through a snapshot."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.blocks = snapshot.blocks
        self.index: dict[etree._Element, int] = {
            b.element: i for i, b in enumerate(snapshot.blocks) if b.element is not None
        }
        self._pieces: dict[int, tuple[str, list[Piece]]] = {}
        self._order: dict[int, dict[etree._Element, int]] = {}
        self._sources: dict[int, tuple[bytes, str, tuple[int, int]] | None] = {}
        self._walked = False

    # ------------------------------------------------------------- text
    def text_and_pieces(self, i: int) -> tuple[str, list[Piece]]:
        """Clean text of block ``i`` with its pieces, as the block walker read it."""
        cached = self._pieces.get(i)
        if cached is not None:
            return cached
        block = self.blocks[i]
        assert block.element is not None
        got = paragraph_text(block.element, FieldState(), NoteNumbers(*block.notes_before), collect=True)
        if got.text != block.text and not self._walked:
            # a field opened in an earlier paragraph changes what this one shows: read in order
            self._walk_all()
            return self._pieces[i]
        result = (got.text, got.pieces or [])
        self._pieces[i] = result
        return result

    def _walk_all(self) -> None:
        fields, notes = FieldState(), NoteNumbers()
        for i, block in enumerate(self.blocks):
            if block.element is None:
                continue
            got = paragraph_text(block.element, fields, notes, collect=True)
            self._pieces[i] = (got.text, got.pieces or [])
        self._walked = True

    def offset(self, i: int, marker: etree._Element) -> int:
        """Clean-text offset of ``marker`` inside block ``i``: the end of the text before it."""
        order = self._order.get(i)
        if order is None:
            element = self.blocks[i].element
            assert element is not None
            order = {el: n for n, el in enumerate(element.iter())}
            self._order[i] = order
        position = order[marker]
        _, pieces = self.text_and_pieces(i)
        return max((p.end for p in pieces if order[p.element] < position), default=0)

    # ------------------------------------------------------------- position
    def containing(self, marker: etree._Element) -> tuple[int | None, bool]:
        """(block index holding ``marker``, whether it sits inside any paragraph at all)."""
        in_paragraph = False
        for ancestor in marker.iterancestors():
            found = self.index.get(ancestor)
            if found is not None:
                return found, True
            if ancestor.tag == _P:
                in_paragraph = True
        return None, in_paragraph

    def neighbour(self, marker: etree._Element, forward: bool) -> int | None:
        """The first block after (or last block before) ``marker`` in document order."""
        node: etree._Element | None = marker
        while node is not None:
            for sibling in node.itersiblings(preceding=not forward):
                if not isinstance(sibling.tag, str):
                    continue
                candidates = [sibling] if sibling.tag == _P else list(sibling.iter(_P))
                if not forward:
                    candidates.reverse()
                for p in candidates:
                    found = self.index.get(p)
                    if found is not None:
                        return found
            node = node.getparent()
        return None

    def start(self, marker: etree._Element) -> tuple[int, int] | None:
        """Where a range opening at ``marker`` begins: (block, offset)."""
        block, _ = self.containing(marker)
        if block is not None:
            return block, self.offset(block, marker)
        following = self.neighbour(marker, forward=True)
        return None if following is None else (following, 0)

    def end(self, marker: etree._Element) -> tuple[int, int] | None:
        """Where a range closing at ``marker`` ends: (block, offset)."""
        block, _ = self.containing(marker)
        if block is not None:
            return block, self.offset(block, marker)
        preceding = self.neighbour(marker, forward=False)
        if preceding is None:
            return None
        return preceding, len(self.text_and_pieces(preceding)[0])

    def quote(self, start: etree._Element, end: etree._Element) -> str:
        """Clean text between two markers; paragraphs joined by ``"\\n"``; "" when empty or reversed."""
        first, last = self.start(start), self.end(end)
        if first is None or last is None or first > last:
            return ""
        parts: list[str] = []
        for i in range(first[0], last[0] + 1):
            if self.blocks[i].element is None:
                continue  # diagnostic blocks carry no text of the document
            text, _ = self.text_and_pieces(i)
            lo = first[1] if i == first[0] else 0
            hi = last[1] if i == last[0] else len(text)
            parts.append(text[lo:hi])
        return "\n".join(parts)

    def quote_source(self, start: etree._Element, end: etree._Element) -> tuple[Any, ...]:
        """What :meth:`quote` reads for these markers: each block of :meth:`span`, as its XML, its
        text and the note numbers before it. Equal sources give equal quotes, whatever else changed."""
        span = self.span(start, end)
        return () if span is None else tuple(self._source(i) for i in range(span[0], span[1] + 1))

    def span(self, start: etree._Element, end: etree._Element) -> tuple[int, int] | None:
        """The blocks from the one holding (or following) ``start`` to the one holding (or
        preceding) ``end`` (None when either is outside every block)."""
        first, _ = self.containing(start)
        if first is None:
            first = self.neighbour(start, forward=True)
        last, _ = self.containing(end)
        if last is None:
            last = self.neighbour(end, forward=False)
        return None if first is None or last is None else (first, last)

    def _source(self, i: int) -> tuple[bytes, str, tuple[int, int]] | None:
        if i not in self._sources:
            block = self.blocks[i]
            element = block.element
            self._sources[i] = (
                None if element is None else (etree.tostring(element), block.text, block.notes_before)
            )
        return self._sources[i]

    def block_index(self, marker: etree._Element) -> int | None:
        """Block holding ``marker``; a marker between paragraphs belongs to the next block."""
        block, in_paragraph = self.containing(marker)
        if block is None and not in_paragraph:
            block = self.neighbour(marker, forward=True)
        return block
