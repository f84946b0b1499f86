"""``PageIndex``: pages ↔ blocks ↔ text, read from where Qt put each line.

Built once per layout, alongside it: every time a stretch of the body is laid out, the lines
of its finished blocks are assigned to pages (a line belongs to the page band holding its
middle), so reading page 120 of a 300-page contract never walks the whole document. After a
block is re-rendered in place, the index is rebuilt on the next read, unless the block kept its
lines on its one page (a keystroke, most of the time): then only the block's own entry changes
and the blocks after it are noted as moved by the length difference (:meth:`PageIndex.edited`),
which lookups apply, so typing does not cost a walk of every line of a long contract.

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

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF
from PySide6.QtGui import QTextBlock, QTextLayout

if TYPE_CHECKING:  # pragma: no cover
    from .builder import RenderedBlock
    from .layout import PagedLayout

#: One laid-out stretch of a QTextBlock: (document index, block position, from char, to char).
Piece = tuple[int, int, int, int]


class PageIndex:
    """Maps global page numbers to the laid-out lines on them (see the module docstring)."""

    def __init__(self, layout: PagedLayout) -> None:
        self.layout = layout
        self._pages: list[list[Piece]] = []
        #: (document index, block position) -> (line start chars, line pages), pages global
        self._lines: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
        self._next_block: dict[int, int] = {}  # per document: position of the next block to index
        #: per document, the in-place edits since the index was built, oldest first: positions from
        #: ``since`` on (as they are after that edit) moved by ``delta`` characters
        self._shifts: dict[int, list[tuple[int, int]]] = {}
        self._stale = False

    # ------------------------------------------------------------------ building
    def invalidate(self) -> None:
        """Forget everything; the next read re-indexes the whole layout."""
        self._stale = True

    def edited(
        self, doc_index: int, position: int, old_length: int, new_length: int, same_lines: bool
    ) -> None:
        """The QTextBlock at ``position`` was rebuilt in place, ``old_length`` characters long
        before and ``new_length`` now. With ``same_lines`` (the same lines at the same height, so
        nothing after it moved on the page) and the whole block on one page, its entry is updated
        and what follows shifts; otherwise the index is rebuilt on the next read."""
        if self._stale:
            return
        key = self._indexed(doc_index, position)
        entry = self._lines.get((doc_index, key))
        if not same_lines or entry is None or len(entry[1]) != 1:
            self._stale = True
            return
        pieces = self._pages[entry[1][0]]
        found = next((i for i, piece in enumerate(pieces) if piece[:2] == (doc_index, key)), None)
        if found is None:
            self._stale = True
            return
        piece = pieces[found]
        pieces[found] = (doc_index, key, piece[2], piece[3] + new_length - old_length)
        delta = new_length - old_length
        if not delta:
            return
        shifts = self._shifts.setdefault(doc_index, [])
        since = position + new_length
        if shifts and shifts[-1][0] == since - delta:  # the same block again: one shift
            shifts[-1] = (since, shifts[-1][1] + delta)
        else:
            shifts.append((since, delta))

    def _indexed(self, doc_index: int, position: int) -> int:
        """A document position now, as the index recorded it (before the edits since)."""
        for since, delta in reversed(self._shifts.get(doc_index, ())):
            if position >= since:
                position -= delta
        return position

    def _current(self, doc_index: int, position: int) -> int:
        """A position the index recorded, as it is in the document now."""
        for since, delta in self._shifts.get(doc_index, ()):
            if position >= since - delta:
                position += delta
        return position

    def _rebuild(self) -> None:
        self._pages = []
        self._lines = {}
        self._next_block = {}
        self._shifts = {}
        self._stale = False
        for doc_index in range(len(self.layout.docs)):
            final = self.layout.done or doc_index < len(self.layout.docs) - 1
            self.extend(doc_index, final)

    def extend(self, doc_index: int, final: bool) -> None:
        """Index the blocks of document ``doc_index`` laid out since the last call.

        The document's last block stays unindexed until ``final``: the next paragraph written
        may still claim it (the empty block Qt keeps after a table).
        """
        if self._stale:
            return
        section_doc = self.layout.docs[doc_index]
        document = section_doc.document
        doc_layout = document.documentLayout()
        height = section_doc.page_height
        first_page = self.layout.first_page_of_doc(doc_index)
        block = document.findBlock(self._next_block.get(doc_index, 0))
        last = document.lastBlock()
        # lines on pages whose footnotes are not settled may still move to the next page
        settled = None if final else self.layout.notes.settled(doc_index)
        while block.isValid():
            if block == last and not final:
                break
            text_layout = block.layout()
            count = text_layout.lineCount() if text_layout is not None else 0
            if count:
                # blockBoundingRect sits at the layout's origin; lines Qt pushed to the next page
                # keep their offset from it, so the extent of the lines is origin + line box
                rect = doc_layout.blockBoundingRect(block)
                lines = text_layout.boundingRect()
                position = block.position()
                top_page = int((rect.y() + lines.top()) // height)
                bottom_page = int((rect.y() + lines.bottom() - 1) // height)
                if settled is not None and bottom_page >= settled:
                    break
                if top_page == bottom_page:
                    # the whole block sits on one page (most do): no need to visit its lines
                    page = first_page + top_page
                    self._add(page, doc_index, position, 0, block.length() - 1)
                    self._lines[(doc_index, position)] = ([0], [page])
                else:
                    self._split_block(block, text_layout, rect, doc_index, first_page, height)
            block = block.next()
        self._next_block[doc_index] = block.position() if block.isValid() else document.characterCount()

    def _add(self, page: int, doc_index: int, position: int, start: int, end: int) -> None:
        pages = self._pages
        while len(pages) <= page:
            pages.append([])
        on_page = pages[page]
        if on_page and on_page[-1][0] == doc_index and on_page[-1][1] == position:
            on_page[-1] = (doc_index, position, on_page[-1][2], end)
        else:
            on_page.append((doc_index, position, start, end))

    def _split_block(
        self,
        block: QTextBlock,
        text_layout: QTextLayout,
        rect: QRectF,
        doc_index: int,
        first_page: int,
        height: float,
    ) -> None:
        """Assign each line of a block that runs over a page boundary to its page."""
        base = rect.y()
        position = block.position()
        starts: list[int] = []
        line_pages: list[int] = []
        for i in range(text_layout.lineCount()):
            line = text_layout.lineAt(i)
            page = first_page + int((base + line.y() + line.height() / 2) // height)
            start = line.textStart()
            starts.append(start)
            line_pages.append(page)
            self._add(page, doc_index, position, start, start + line.textLength())
        self._lines[(doc_index, position)] = (starts, line_pages)

    def _ready(self) -> None:
        if self._stale:
            self._rebuild()

    # ------------------------------------------------------------------ reading
    @property
    def page_count(self) -> int:
        """Pages laid out (as the layout counts them, including pages with no text)."""
        self._ready()
        return max(self.layout.page_count(), len(self._pages))

    def page_text(self, page: int) -> str:
        """The clean text laid out on ``page`` (0-based), in reading order (see module docstring)."""
        return "\n".join(text for _block_id, text in self.page_pieces(page))

    def page_pieces(self, page: int) -> list[tuple[str | None, str]]:
        """``(block id, clean text)`` of each paragraph with lines on ``page``, in document order.

        A paragraph split over pages has a piece on each; joining a block's pieces in page order
        gives its clean text. (Reading pages one after another interleaves the cells of a table
        row that runs over a page boundary, so the pieces, not the page texts, are what add up.)
        """
        self._ready()
        if not 0 <= page < len(self._pages):
            return []
        out: list[tuple[str | None, str]] = []
        last_record: RenderedBlock | None = None
        for doc_index, indexed, start, end in self._pages[page]:
            position = self._current(doc_index, indexed)
            document = self.layout.docs[doc_index].document
            block = document.findBlock(position)
            a, b = position + start, position + end
            record = self.layout.record_at(doc_index, a)
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
        self._ready()
        if not 0 <= page < len(self._pages):
            return []
        found: list[str] = []
        for doc_index, indexed, start, _end in self._pages[page]:
            record = self.layout.record_at(doc_index, self._current(doc_index, indexed) + start)
            if record is not None and record.block_id and (not found or found[-1] != record.block_id):
                found.append(record.block_id)
        return found

    def page_of_block(self, block_id: str) -> int | None:
        """The page of the block's first line of clean text (its first line when it has none)."""
        record = self.layout.by_id.get(block_id)
        if record is None:
            return None
        position = record.start + (record.spans[0][0] if record.spans else 0)
        return self._page_of(record.doc_index, position)

    def page_of_range(self, block_id: str, start: int, end: int) -> int | None:
        """The page where clean-text offsets ``[start, end)`` of a block begin.

        Offsets count the block's clean text (``block.text``); an offset past the end maps to
        the block's last character.
        """
        record = self.layout.by_id.get(block_id)
        if record is None:
            return None
        del end  # a range starts on one page; the page of its start is where to look
        position = record.position_of(max(0, start))
        return self._page_of(record.doc_index, position)

    def pages_of_block(self, block_id: str) -> tuple[int, int] | None:
        """(first, last) page holding lines of the block."""
        record = self.layout.by_id.get(block_id)
        if record is None:
            return None
        first = self._page_of(record.doc_index, record.start)
        last = self._page_of(record.doc_index, max(record.start, record.end - 1))
        if first is None or last is None:
            return None
        return first, last

    def _page_of(self, doc_index: int, position: int) -> int | None:
        self._ready()
        document = self.layout.docs[doc_index].document
        block = document.findBlock(position)
        if not block.isValid():
            return None
        entry = self._lines.get((doc_index, self._indexed(doc_index, block.position())))
        if entry is None:
            return None
        starts, pages = entry
        offset = position - block.position()
        page = pages[0]
        for line_start, line_page in zip(starts, pages, strict=True):
            if line_start > offset:
                break
            page = line_page
        return page


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
