"""``PageIndex``: pages ↔ blocks ↔ text, read from where Qt put each line.

Built alongside the layout: every time a stretch of the body is laid out, the lines of its
finished blocks are assigned to pages (a line belongs to the page band holding its middle), so
reading page 120 of a 300-page contract never walks the whole document. After a block is
re-rendered in place (:meth:`PageIndex.edited`) that kept its lines on its one page (a keystroke,
most of the time), only the block's own entry changes and the blocks after it are noted as moved
by the length difference, which lookups apply. When its lines changed (a typed word wraps), what
the index holds from the block's page on is forgotten and read again from the layout only as far
as a lookup asks: the page of the paragraph being typed in costs a page of blocks, not a walk of
every line of a long contract. A lookup of a page's text indexes every document first.

Text is the agent's text: clean text as accepted, of what is laid out on the page. List labels,
deleted text and pictures are not part of it; a note reference reads ``[^N]``; a line break
reads ``\\n``. Footnote text, laid out at the foot of its page, and endnote text, laid out
after the body, is not page text: it is the note's own story, and page text stays the body's,
so that the pages add up to the document's text. Pieces of one paragraph on a page are joined
as they are; paragraphs (and table cells) are separated by ``\\n``. A paragraph that runs over
a page boundary is split at the line boundary, so joining every page's text gives every
content block's text in order, up to whitespace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtGui import QTextLayout

if TYPE_CHECKING:  # pragma: no cover
    from .pages import PageSequence
    from .records import RenderedBlock

#: One laid-out stretch of a QTextBlock on a page: (block position as indexed, from char, to char).
Piece = tuple[int, int, int]

#: After this many in-place edits in one document its index is read afresh: every lookup maps
#: positions through each edit since the document was indexed.
_MAX_SHIFTS = 64


@dataclass(slots=True, eq=False)
class _DocIndex:
    """What the index holds of one section document; pages count from the document's first.

    Positions are kept as they were when the document was first indexed (``shifts`` maps them to
    the document as it is now), so an edit does not renumber the blocks after it.
    """

    #: per page, the pieces on it in document order
    pages: list[list[Piece]] = field(default_factory=list)
    #: block position as indexed -> (line start chars, line pages); entries from ``next_block`` on
    #: are out of date (left behind by :meth:`rewind`) and written again when indexed
    lines: dict[int, tuple[list[int], list[int]]] = field(default_factory=dict)
    #: position (as indexed) of the next block to index; None once the whole document is
    next_block: int | None = 0
    #: the in-place edits since, oldest first: positions from ``since`` on (as they are after
    #: that edit) moved by ``delta`` characters
    shifts: list[tuple[int, int]] = field(default_factory=list)

    def indexed(self, position: int) -> int:
        """A block position in the document now, as the index keeps it."""
        for since, delta in reversed(self.shifts):
            if position >= since:
                position -= delta
        return position

    def current(self, position: int) -> int:
        """A block position as the index keeps it, in the document now."""
        for since, delta in self.shifts:
            if position >= since - delta:
                position += delta
        return position

    def shift(self, since: int, delta: int) -> None:
        """Positions from ``since`` on (as they are now) moved by ``delta`` characters."""
        if self.shifts and self.shifts[-1][0] == since - delta:  # the same block again: one shift
            self.shifts[-1] = (since, self.shifts[-1][1] + delta)
        else:
            self.shifts.append((since, delta))

    def add(self, page: int, key: int, start: int, end: int) -> None:
        pages = self.pages
        while len(pages) <= page:
            pages.append([])
        on_page = pages[page]
        if on_page and on_page[-1][0] == key:
            on_page[-1] = (key, on_page[-1][1], end)
        else:
            on_page.append((key, start, end))

    def rewind(self, key: int) -> None:
        """Forget every piece from the page where block ``key`` begins on, to index again from
        the first block with a line on that page: a block whose lines changed moves the ones
        after it, and may push a line of its page's earlier blocks over the page's foot."""
        pages, start = self.pages, key
        first = self.lines[start][1][0]
        while True:  # a table row over a page boundary puts a cell's blocks on a page before
            earliest = min((on_page[0][0] for on_page in pages[first:] if on_page), default=start)
            if earliest >= start:
                break
            start = earliest
            first = self.lines[start][1][0]
        del pages[first + 1 :]
        at = first
        while at >= 0 and pages[at] and pages[at][-1][0] >= start:
            pages[at] = [piece for piece in pages[at] if piece[0] < start]
            at -= 1
        self.next_block = start


class PageIndex:
    """Maps global page numbers to the laid-out lines on them (see the module docstring).

    It reads the layout's finished pages: ``pages`` (the section documents), ``blocks`` (the
    block map, id -> rendered paragraph) and ``settled`` (how many pages of a document still
    being written no longer move for footnotes, see :meth:`.note_room.NoteRoom.settled`).
    """

    def __init__(
        self, pages: PageSequence, blocks: dict[str, RenderedBlock], settled: Callable[[int], int]
    ) -> None:
        self.pages = pages
        self.blocks = blocks
        self._settled = settled
        self._docs: dict[int, _DocIndex] = {}

    # ------------------------------------------------------------------ building
    def invalidate(self) -> None:
        """Forget everything; reads index the layout again as far as they need."""
        self._docs = {}

    def _doc(self, doc_index: int) -> _DocIndex:
        found = self._docs.get(doc_index)
        if found is None:
            found = self._docs[doc_index] = _DocIndex()
        return found

    def edited(
        self, doc_index: int, position: int, old_length: int, new_length: int, same_lines: bool
    ) -> None:
        """The QTextBlock at ``position`` was rebuilt in place, ``old_length`` characters long
        before and ``new_length`` now. With ``same_lines`` (the same lines at the same height, so
        nothing after it moved on the page) and the whole block on one page, its entry is updated
        and what follows shifts; otherwise the index forgets what it holds from the block's page
        on, and reads it again from the layout only as far as a lookup asks."""
        doc = self._doc(doc_index)
        key = doc.indexed(position)
        delta = new_length - old_length
        if delta:
            if len(doc.shifts) >= _MAX_SHIFTS:
                self._docs.pop(doc_index)
                return
            doc.shift(position + new_length, delta)
        if doc.next_block is not None and key >= doc.next_block:
            return  # not indexed yet: read as it is when asked
        entry = doc.lines.get(key)
        if entry is None:  # it had no lines, so no page to read again from: read it all again
            self._docs.pop(doc_index)
            return
        if same_lines and len(entry[1]) == 1:
            pieces = doc.pages[entry[1][0]]
            found = next((i for i, piece in enumerate(pieces) if piece[0] == key), None)
            if found is not None:
                piece = pieces[found]
                pieces[found] = (key, piece[1], piece[2] + delta)
                return
        doc.rewind(key)

    def extend(self, doc_index: int, final: bool, until: int | None = None) -> None:
        """Index the blocks of document ``doc_index`` laid out since the last call (up to the one
        at position ``until``, when given).

        The document's last block stays unindexed until ``final``: the next paragraph written
        may still claim it (the empty block Qt keeps after a table).
        """
        doc = self._doc(doc_index)
        if doc.next_block is None:
            return
        section_doc = self.pages.docs[doc_index]
        document = section_doc.document
        rect = document.documentLayout().blockBoundingRect  # looked up once: asked of every block
        height = section_doc.page_height
        block = document.findBlock(doc.current(doc.next_block))
        last = document.lastBlock().position()
        # lines on pages whose footnotes are not settled may still move to the next page
        settled = None if final else self._settled(doc_index)
        shifted = bool(doc.shifts)
        while block.isValid():
            position = block.position()
            if position == last and not final:
                break
            if until is not None and position > until:
                break
            text_layout = block.layout()
            count = text_layout.lineCount() if text_layout is not None else 0
            if count:
                # blockBoundingRect sits at the layout's origin; lines Qt pushed to the next page
                # keep their offset from it, so the extent of the lines is origin + line box
                y = rect(block).y()
                lines = text_layout.boundingRect()
                top_page = int((y + lines.top()) // height)
                bottom_page = int((y + lines.bottom() - 1) // height)
                if settled is not None and bottom_page >= settled:
                    break
                key = doc.indexed(position) if shifted else position
                if top_page == bottom_page:
                    # the whole block sits on one page (most do): no need to visit its lines
                    doc.add(top_page, key, 0, block.length() - 1)
                    doc.lines[key] = ([0], [top_page])
                else:
                    self._split_block(doc, key, text_layout, y, height)
            block = block.next()
        doc.next_block = (
            (doc.indexed(block.position()) if shifted else block.position()) if block.isValid() else None
        )

    @staticmethod
    def _split_block(doc: _DocIndex, key: int, text_layout: QTextLayout, base: float, height: float) -> None:
        """Assign each line of a block that runs over a page boundary to its page."""
        starts: list[int] = []
        line_pages: list[int] = []
        for i in range(text_layout.lineCount()):
            line = text_layout.lineAt(i)
            page = int((base + line.y() + line.height() / 2) // height)
            start = line.textStart()
            starts.append(start)
            line_pages.append(page)
            doc.add(page, key, start, start + line.textLength())
        doc.lines[key] = (starts, line_pages)

    def _complete(self) -> None:
        """Index every document as far as it is laid out."""
        for doc_index in range(len(self.pages.docs)):
            self.extend(doc_index, self.pages.final(doc_index))

    def _located(self, page: int) -> tuple[int, _DocIndex, int] | None:
        """(document index, its index, page within it) of global ``page``, every document indexed."""
        self._complete()
        docs = self.pages.docs
        if page < 0 or not docs:
            return None
        first = 0
        for doc_index, section_doc in enumerate(docs):
            count = section_doc.page_count()
            if page < first + count or doc_index == len(docs) - 1:
                doc = self._docs.get(doc_index)
                if doc is None or page - first >= len(doc.pages):
                    return None
                return doc_index, doc, page - first
            first += count
        return None

    # ------------------------------------------------------------------ reading
    @property
    def page_count(self) -> int:
        """Pages laid out (as the layout counts them, including pages with no text)."""
        self._complete()
        indexed = (self.pages.first_page_of_doc(i) + len(doc.pages) for i, doc in self._docs.items())
        return max(self.pages.page_count(), max(indexed, default=0))

    def page_text(self, page: int) -> str:
        """The clean text laid out on ``page`` (0-based), in reading order (see module docstring)."""
        return "\n".join(text for _block_id, text in self.page_pieces(page))

    def page_pieces(self, page: int) -> list[tuple[str | None, str]]:
        """``(block id, clean text)`` of each paragraph with lines on ``page``, in document order.

        A paragraph split over pages has a piece on each; joining a block's pieces in page order
        gives its clean text. (Reading pages one after another interleaves the cells of a table
        row that runs over a page boundary, so the pieces, not the page texts, are what add up.)
        """
        located = self._located(page)
        if located is None:
            return []
        doc_index, doc, local = located
        section_doc = self.pages.docs[doc_index]
        document = section_doc.document
        out: list[tuple[str | None, str]] = []
        last_record: RenderedBlock | None = None
        for indexed, start, end in doc.pages[local]:
            position = doc.current(indexed)
            block = document.findBlock(position)
            a, b = position + start, position + end
            record = section_doc.record_at(a)
            if record is None:
                continue
            piece = clean_slice(record, block.text(), position, a, b)
            if record is last_record:
                out[-1] = (record.block_id, out[-1][1] + piece)
            else:
                out.append((record.block_id, piece))
                last_record = record
        return out

    def blocks_on_page(self, page: int) -> list[str]:
        """Ids of the blocks with at least one line on ``page``, in order."""
        located = self._located(page)
        if located is None:
            return []
        doc_index, doc, local = located
        section_doc = self.pages.docs[doc_index]
        found: list[str] = []
        for indexed, start, _end in doc.pages[local]:
            record = section_doc.record_at(doc.current(indexed) + start)
            if record is not None and record.block_id and (not found or found[-1] != record.block_id):
                found.append(record.block_id)
        return found

    def page_of_block(self, block_id: str) -> int | None:
        """The page of the block's first line of clean text (its first line when it has none)."""
        record = self.blocks.get(block_id)
        if record is None:
            return None
        position = record.start + (record.spans[0][0] if record.spans else 0)
        return self._page_of(record.doc_index, position)

    def page_of_range(self, block_id: str, start: int, end: int) -> int | None:
        """The page where clean-text offsets ``[start, end)`` of a block begin.

        Offsets count the block's clean text (``block.text``); an offset past the end maps to
        the block's last character.
        """
        record = self.blocks.get(block_id)
        if record is None:
            return None
        del end  # a range starts on one page; the page of its start is where to look
        position = record.position_of(max(0, start))
        return self._page_of(record.doc_index, position)

    def pages_of_block(self, block_id: str) -> tuple[int, int] | None:
        """(first, last) page holding lines of the block."""
        record = self.blocks.get(block_id)
        if record is None:
            return None
        first = self._page_of(record.doc_index, record.start)
        last = self._page_of(record.doc_index, max(record.start, record.end - 1))
        if first is None or last is None:
            return None
        return first, last

    def _page_of(self, doc_index: int, position: int) -> int | None:
        document = self.pages.docs[doc_index].document
        block = document.findBlock(position)
        if not block.isValid():
            return None
        doc = self._doc(doc_index)
        at = block.position()
        if doc.next_block is not None and doc.current(doc.next_block) <= at:
            self.extend(doc_index, self.pages.final(doc_index), until=at)
        key = doc.indexed(at)
        if doc.next_block is not None and key >= doc.next_block:
            return None  # not laid out yet
        entry = doc.lines.get(key)
        if entry is None:
            return None
        starts, pages = entry
        offset = position - at
        page = pages[0]
        for line_start, line_page in zip(starts, pages, strict=True):
            if line_start > offset:
                break
            page = line_page
        return self.pages.first_page_of_doc(doc_index) + page


def clean_slice(record: RenderedBlock, text: str, block_position: int, a: int, b: int) -> str:
    """The clean text of document positions ``[a, b)`` inside one QTextBlock of ``record``."""
    out: list[str] = []
    for position, length, clean in record.abs_spans():
        if position + length <= a or position >= b:
            continue
        if clean is not None:
            if a <= position < b:
                out.append(clean)
            continue
        lo, hi = max(position, a) - block_position, min(position + length, b) - block_position
        out.append(text[lo:hi].replace("\u2028", "\n"))
    return "".join(out)
