"""The paged layout of one document in one markup mode: section documents, pages, block map.

A QTextDocument has one page size and one set of margins, so the body is laid out as one
document per run of sections sharing that geometry (a landscape schedule gets its own), stacked
with page numbers running on; a section break between sections of the same geometry is a page
break (or nothing, for a continuous section). Qt then splits paragraphs and tables across pages
line by line, and page *k* of a section document is the band ``[k·H, (k+1)·H)`` of it.

Building is incremental so the window stays responsive on a 300-page contract:
:meth:`PagedLayout.step` writes body items for a time budget inside one edit block, lets Qt lay
them out, and indexes the finished pages; the view calls it from its event loop until
:attr:`PagedLayout.done`. Renders and tests call :meth:`PagedLayout.build_all`.

The layout emits finished pages (:class:`.pages.PageSequence`) and a block map (``by_id``) and
re-renders a paragraph in place after an edit. The rest is done by parts that take only what
they read, none of them the layout: :mod:`.body_writer` writes the body into section documents
sized by :mod:`.section_geometry`; :mod:`.settling` applies the keep rules and has
:mod:`.note_room` make room for each page's footnotes; :mod:`.endnotes` follows the body;
:mod:`.headers` lays out a page's header and footer; :mod:`.page_index` reads the finished
pages. ``tests/project/test_import_circles.py`` keeps the imports of this folder free of circles.
"""

from __future__ import annotations

import bisect
import time
from typing import Any

from PySide6.QtCore import QRectF
from PySide6.QtGui import QTextBlock, QTextCursor, QTextDocument

from ...docx.comments import CommentRecord
from ...docx.format_resolver import FormatResolver
from ...docx.reviewer import DocxReviewer
from ...docx.sections import parse_section, section_elements
from ...docx.snapshot import Snapshot
from .body_writer import BodyWriter
from .builder import BuildContext, Flow, RenderedBlock, StoryBuilder
from .comment_threads import CommentThreads
from .endnotes import Endnotes
from .footnotes import NoteDocuments
from .headers import HeaderFooters
from .note_room import NoteRoom
from .page_index import PageIndex
from .pages import (
    SPLIT_PAGES,
    Page,
    PageSequence,
    SectionDoc,
    enclosing_table_style,
    hold_full_collections,
    normalize_mode,
)
from .qformats import FormatFactory
from .records import MarkupFilter
from .section_geometry import SectionGeometry, bleed, text_width
from .settling import PageSettler
from .tables import fit_row_heights, top_align_split_rows

#: Slice budget (s) once the current document is long enough to be cut (see .splitting).
_NEAR_CUT_BUDGET = 0.008
#: The most body items a slice writes before it lets Qt lay them out and settles their pages
#: (see :meth:`PagedLayout.step`).
PART_ITEMS = 16


#: the slice :meth:`PagedLayout.build_all` steps in (seconds); see there why it is small
BUILD_ALL_SLICE_S = 0.05


class PagedLayout:
    """All pages of one document in one markup mode (see the module docstring)."""

    def __init__(
        self,
        reviewer: DocxReviewer,
        mode: str = "all",
        snapshot: Snapshot | None = None,
        markup: MarkupFilter | None = None,
    ) -> None:
        self.reviewer = reviewer
        self.document = reviewer.document
        self.mode = normalize_mode(mode)
        self.snapshot = snapshot if snapshot is not None else reviewer.snapshot()
        self.resolver = FormatResolver(self.document)
        self.factory = FormatFactory(self.resolver.settings["default_tab"])
        section_props = section_elements(self.document.body)
        self.sections = [parse_section(s) for s in section_props]
        self.docs: list[SectionDoc] = []
        #: the finished pages, read by the index, the headers, the painter and the view
        self.paging = PageSequence(self.docs, self.sections)
        #: the block map: block id -> its rendered paragraph
        self.by_id: dict[str, RenderedBlock] = {}
        markup = markup or MarkupFilter()
        self.threads = CommentThreads(self.document, markup.hidden_authors)
        blocks = {b.element: b for b in self.snapshot.blocks if b.element is not None}
        diagnostics = [b for b in self.snapshot.blocks if b.kind == "diagnostic"]
        first = self.sections[0]
        self.context = BuildContext(
            self.resolver,
            self.factory,
            self.document.package,
            self.document.main_part,
            self.mode,
            blocks,
            text_width(first),
            diagnostics,
            markup=markup,
            hidden_comments=self.threads.hidden,
        )
        self.headers = HeaderFooters(self.document, self.context, self.paging)
        self.geometry = SectionGeometry(self.sections, self.headers.story_height)
        self.notes = NoteRoom(self.docs, NoteDocuments(self.document, self.context))
        self.settler = PageSettler(self.docs, self.notes)
        self.endnotes = Endnotes(self.document, self.context)
        self.index = PageIndex(self.paging, self.by_id, self.notes.settled)
        self.writer = BodyWriter(
            self.document.body,
            self.context,
            self.geometry,
            self.paging,
            self.by_id,
            self.notes,
            self.endnotes,
            [sect for sect in section_props[:-1] if sect is not None],
        )
        #: Qt layout time per unit of writing time, learned part by part (see :meth:`_part`)
        self._qt_ratio = 1.0
        self._quiet_gc = False
        #: the most body items written before they are laid out and settled (see :meth:`step`)
        self.part_items = PART_ITEMS
        #: the last re-rendered paragraph kept its lines and height: nothing after it moved
        self.kept_lines = False
        self.paging.done = self.writer.finished

    @property
    def done(self) -> bool:
        """True once every body item is written and laid out."""
        return self.paging.done

    # ------------------------------------------------------------------ building
    def step(self, budget: float = 0.03) -> bool:
        """Write and lay out body items for about ``budget`` seconds; True once everything is laid out.

        The slice is written in parts of at most :attr:`part_items` body items, each laid out,
        settled and indexed before the next is written (see :meth:`_part`): a page break a keep
        rule or a footnote sets makes Qt lay out again everything written after it, every table
        there whole, so the less is written past the pages being settled, the less is laid out
        twice. A fast machine's slice held several pages, most of them laid out again after each
        break; parts keep that to about a page whatever the machine, and a slow (or busy) one's
        short slices are not cut further. (Parts much smaller cost more: each has Qt lay out again
        from its last checkpoint, a few inches above the end.)
        """
        if self.done:
            return True
        if not self._quiet_gc:
            hold_full_collections(True)
            self._quiet_gc = True
        start = time.perf_counter()
        end = start + budget
        while True:
            self._part(max(0.0, end - start))
            now = time.perf_counter()
            # a part that would not fit in what is left is left to the next slice: cut short, it
            # would cost a checkpoint's layout for a few items
            if self.done or now + (now - start) > end:
                break
            start = now
        if self.done:
            self.close()
        return self.done

    def _part(self, budget: float) -> None:
        """Write at most :attr:`part_items` body items for about ``budget`` seconds, let Qt lay
        them out, settle and index the pages they complete.

        Qt lays out what was written when the edit block closes, after the items are written;
        that part of the slice is predicted from the parts before (tables cost Qt far more per
        item than paragraphs), so writing stops early enough for the whole part to fit.
        """
        start = time.perf_counter()
        current = self.docs[-1] if self.docs else None
        if current is not None and current.page_count() >= SPLIT_PAGES - 1:
            # a cut is near: write little, since what follows the cut is written again
            budget = min(budget, _NEAR_CUT_BUDGET)
        deadline = start + budget / (1.0 + self._qt_ratio)
        # where the new text will start (see SectionDoc.lines_below_margin): the writer goes on
        # in the last document, or in new ones, which start empty
        ends = {len(self.docs) - 1: current.document.characterCount()} if current is not None else {}
        touched, marks, written = self.writer.write(deadline, self.part_items)
        self.paging.done = self.writer.finished
        self.paging.changed()
        for doc_index in sorted(touched):
            section_doc = self.docs[doc_index]
            section_doc.lines_below_margin(ends.get(doc_index, 0))
            section_doc.page_count()  # let Qt lay out what was written
            fit_row_heights(section_doc.document, section_doc.aligned_cells)
            for separator in self.settler.settle(doc_index, self.paging.final(doc_index)):
                for mark in marks:  # marks are in the last document, which is the one split
                    if doc_index == len(self.docs) - 1 and separator < mark.position:
                        mark.position += 1
            section_doc.lines_below_margin()  # the page breaks settling set are laid out the same way
            top_align_split_rows(section_doc.document, section_doc.aligned_cells, section_doc.page_height)
            section_doc.aligned_cells.clear()
        if marks and not self.done:
            self.writer.cut_at_page_top(marks)
        for doc_index in sorted(touched):
            self.index.extend(doc_index, final=self.paging.final(doc_index))
        build = max(1e-4, written - start)
        ratio = (time.perf_counter() - written) / build
        self._qt_ratio = 0.5 * self._qt_ratio + 0.5 * min(ratio, 20.0)

    def close(self) -> None:
        """Stop holding back Python's full garbage collections (the layout is done or dropped)."""
        if self._quiet_gc:
            self._quiet_gc = False
            hold_full_collections(False)

    def __del__(self) -> None:
        self.close()

    def build_all(self) -> PagedLayout:
        """Lay out the whole document now (renders, tests, the CLI, a read_page before the view is done).

        In the same small slices as the event loop uses: every keep rule applied after a slice
        makes Qt lay out again from that paragraph to the end of what is written, so one big
        slice of a 300-page contract costs minutes where small ones cost about two seconds.
        """
        while not self.step(BUILD_ALL_SLICE_S):
            pass
        return self

    # ------------------------------------------------------------------ pages (see PageSequence)
    def pages(self) -> list[Page]:
        return self.paging.pages()

    def page_count(self) -> int:
        return self.paging.page_count()

    def first_page_of_doc(self, doc_index: int) -> int:
        return self.paging.first_page_of_doc(doc_index)

    def section_of_page(self, page: Page) -> tuple[int, bool]:
        return self.paging.section_of_page(page)

    def page_numbers(self) -> list[str]:
        return self.paging.page_numbers()

    def page_of_position(self, doc_index: int, position: int) -> int:
        """Page (within its document) of the line holding ``position``."""
        return self.docs[doc_index].page_of(position)

    # ------------------------------------------------------------------ blocks
    def record_at(self, doc_index: int, position: int) -> RenderedBlock | None:
        """The rendered paragraph whose range holds ``position`` in document ``doc_index``."""
        return self.docs[doc_index].record_at(position)

    def block_rect(self, block_id: str) -> tuple[int, QRectF] | None:
        """(document index, rectangle in LU) of a block's first line of clean text."""
        record = self.by_id.get(block_id)
        if record is None:
            return None
        document = self.docs[record.doc_index].document
        position = record.start + (record.spans[0][0] if record.spans else 0)
        block = document.findBlock(position)
        rect = document.documentLayout().blockBoundingRect(block)
        text_layout = block.layout()
        if text_layout is not None and text_layout.lineCount():
            lines = text_layout.boundingRect()  # lines pushed to the next page sit below the origin
            rect = QRectF(rect.x(), rect.y() + lines.y(), rect.width(), lines.height())
        return record.doc_index, rect

    def has_markup(self) -> bool:
        """True when the margin column has something to show (changes or comments).

        Asked for every page on every paint, so it is kept up to date as records arrive
        rather than computed by walking them.
        """
        return self.mode == "all" and self.writer.markup

    def rerender_block(self, block_id: str, snapshot: Snapshot | None = None) -> bool:
        """Rebuild one paragraph in place after an edit (its text or changes, not its structure).

        The paragraph keeps its block format (spacing, page break); later blocks of the same
        document shift by the length difference. The page index follows (see
        :meth:`.page_index.PageIndex.edited`).
        """
        record = self.by_id.get(block_id)
        if record is None or record.element is None:
            return False
        element = record.element
        if snapshot is not None:
            block = snapshot.block(block_id)
            if block is None or block.element is None:
                return False
            element = block.element
            self.context.blocks[element] = block
        elif element.getparent() is None:
            return False  # the paragraph left the document: its structure changed
        section_doc = self.docs[record.doc_index]
        document = section_doc.document
        i = bisect.bisect_left(section_doc.starts, record.start)
        while section_doc.records[i] is not record:
            i += 1
        # the keep-with-next headings before it are judged again with it, and lines moved on
        # for footnotes from there move back; they are settled again below
        chain, kept = self.settler.unsettle(record.doc_index, i)
        cursor = QTextCursor(document)
        first = document.findBlock(record.start)
        cursor.setPosition(first.position())
        cursor.setPosition(record.end, QTextCursor.MoveMode.KeepAnchor)
        fixed = first.blockFormat()
        old_length = record.end - first.position()
        single = document.findBlock(record.end) == first  # the paragraph is one QTextBlock
        old_lines = _extent(document, first)
        cursor.beginEditBlock()
        cursor.removeSelectedText()
        cursor.setBlockFormat(fixed)
        builder = StoryBuilder(self.context, record.doc_index, bleed(section_doc.props))
        in_table = cursor.currentTable() is not None
        following = element.getnext()
        rebuilt = builder.paragraph(
            element, cursor, Flow(fresh=True), following, enclosing_table_style(element), in_table, fixed
        )
        cursor.endEditBlock()
        if in_table:  # a row of stated height stays that tall with the paragraph's new lines
            fit_row_heights(document, [first.position()])
        # Qt laid the text out again from its last checkpoint before the edit, as it does what a
        # slice writes: a paragraph there may be left in a page's top margin (see _part)
        section_doc.lines_below_margin(first.position())
        final = self.paging.final(record.doc_index)
        if rebuilt is None:
            self.settler.settle_again(record.doc_index, chain, True, final)
            section_doc.lines_below_margin()
            return False
        delta = (rebuilt.end - first.position()) - old_length
        rebuilt.kept = record.kept  # its block format, kept, has the page break
        section_doc.records[i] = rebuilt
        self.by_id[block_id] = rebuilt
        if rebuilt.changed or rebuilt.comments:
            self.writer.markup = True
        if delta:
            section_doc.shift_records(i + 1, delta)
        now = document.findBlock(rebuilt.start)
        single = single and document.findBlock(rebuilt.end) == now
        self.kept_lines = single and _extent(document, now) == old_lines
        self.settler.settle_again(
            record.doc_index, chain if chain is not record else rebuilt, not self.kept_lines, final, kept
        )
        section_doc.lines_below_margin()  # the page breaks settling set are laid out the same way
        self.paging.changed()
        if self.done and single:
            new_length = rebuilt.end - now.position()
            self.index.edited(record.doc_index, now.position(), old_length, new_length, self.kept_lines)
        else:
            self.index.invalidate()
        return True

    @property
    def comments(self) -> dict[str, CommentRecord]:
        """The document's comments by id, as last read (see :meth:`reread_comments`)."""
        return self.threads.comments

    def thread(self, comment_id: str) -> list[CommentRecord]:
        """The thread holding ``comment_id`` (see :meth:`.comment_threads.CommentThreads.thread`)."""
        return self.threads.thread(comment_id)

    def reread_comments(self) -> None:
        """Read the comments again after a reply, a resolution or a new comment, so the balloons and
        the threads they open show it (the paragraphs' highlights come from their own re-render)."""
        self.threads.read(self.document)
        self.context.hidden_comments = self.threads.hidden

    def stats(self) -> dict[str, Any]:
        """Figures for logs and benchmarks."""
        return {"pages": self.page_count(), "documents": len(self.docs), "blocks": len(self.by_id)}


def _extent(document: QTextDocument, block: QTextBlock) -> tuple[int, float, float]:
    """(line count, top, height) of a laid-out QTextBlock: equal before and after an edit when
    nothing after it moved."""
    text_layout = block.layout()
    rect = document.documentLayout().blockBoundingRect(block)
    return (text_layout.lineCount() if text_layout is not None else 0, rect.y(), rect.height())
