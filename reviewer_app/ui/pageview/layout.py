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
"""

from __future__ import annotations

import bisect
import dataclasses
import time
from typing import Any

from PySide6.QtCore import QRectF, QSizeF
from PySide6.QtGui import QTextBlock, QTextBlockFormat, QTextCursor, QTextDocument, QTextOption

from ...docx.comments import CommentRecord, comment_records
from ...docx.numformats import format_number
from ...docx.reviewer import DocxReviewer
from ...docx.snapshot import Snapshot
from ...docx.xmlutil import W
from .builder import BuildContext, Flow, RenderedBlock, StoryBuilder, split_table, story_items
from .endnotes import Endnotes, endnote_format
from .formatting import FormatResolver, ParaProps
from .headers import HeaderFooters
from .images import PageDocument
from .keeps import apply_keeps, chain_start, first_kept, release_keeps, still_kept
from .long_words import ends_in_long_block
from .note_room import NoteRoom
from .page_index import PageIndex
from .pages import (
    SPLIT_PAGES,
    Page,
    SectionDoc,
    SplitMark,
    clear_page_break,
    enclosing_table_style,
    ends_section,
    hold_full_collections,
    normalize_mode,
)
from .qformats import TWIPS, FormatFactory, make_font
from .records import MarkupFilter
from .sections import SectionProps, parse_section, section_elements
from .splitting import FlowSplitter
from .tables import top_align_split_rows

_P, _PPR, _SECT, _TBL = W + "p", W + "pPr", W + "sectPr", W + "tbl"
_BLANK_PAGE_PARAGRAPH = ParaProps()
#: Slice budget (s) once the current document is long enough to be cut (see FlowSplitter).
_NEAR_CUT_BUDGET = 0.008


#: the slice :meth:`PagedLayout.build_all` steps in (seconds); see there why it is small
BUILD_ALL_SLICE_S = 0.05


def bleed(props: SectionProps) -> tuple[float, float]:
    """How far (LU, left and right) a body document's text frame reaches past the text column.

    The frame spans the whole paper and every body paragraph and table is shifted back by the
    page margins, so a negative indent or table indent reaches into the margin as in Word (Qt
    clamps a block's or table's own negative margin to zero).
    """
    return (props.left + props.gutter) * TWIPS, props.right * TWIPS


class PagedLayout(FlowSplitter):
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
        self.sections = [parse_section(s) for s in section_elements(self.document.body)]
        self.docs: list[SectionDoc] = []
        self.by_id: dict[str, RenderedBlock] = {}
        self.comments: dict[str, CommentRecord] = {c.id: c for c in comment_records(self.document)}
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
            (first.width - first.left - first.right - first.gutter) * TWIPS,
            diagnostics,
            markup=markup or MarkupFilter(),
        )
        self.context.hidden_comments = self.hidden_comments()
        self.builder = StoryBuilder(self.context)
        self.builder.state.endnote_format = endnote_format(self.document)
        self.index = PageIndex(self)
        self.headers = HeaderFooters(self)
        self.notes = NoteRoom(self)
        self.endnotes = Endnotes(self)
        self._items: list[Any] = []
        for item in story_items(self.document.body):
            self._items.extend(split_table(item, self.mode) if item.tag == _TBL else [item])
        self._next = 0
        self._section = 0
        self._section_pending = True
        self._flow = Flow()
        self._pages_cache: list[Page] | None = None
        #: Qt layout time per unit of writing time, learned slice by slice (see :meth:`step`)
        self._qt_ratio = 1.0
        self._strip_break = False
        self._quiet_gc = False
        self._markup = False  # see has_markup
        self._kept: dict[int, int] = {}  # per document: first record keep rules still have to look at
        self.last_step = (0.0, 0.0)
        #: the last re-rendered paragraph kept its lines and height: nothing after it moved
        self.kept_lines = False
        self._numbers: list[str] | None = None
        self.done = not self._items
        if self.done:
            self._new_doc(self._effective(0))

    # ------------------------------------------------------------------ building
    def _new_doc(self, props: SectionProps) -> SectionDoc:
        doc = PageDocument(self.document.package)
        doc.setUndoRedoEnabled(False)
        doc.setUseDesignMetrics(True)
        option = QTextOption()
        option.setUseDesignMetrics(True)
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        option.setTabStopDistance(self.factory.default_tab)
        doc.setDefaultTextOption(option)
        doc.setDefaultFont(make_font("Calibri", 11, self.factory.scale))
        doc.setPageSize(QSizeF(props.width * TWIPS, props.height * TWIPS))
        frame = doc.rootFrame().frameFormat()
        frame.setTopMargin(props.top * TWIPS)
        frame.setBottomMargin(props.bottom * TWIPS)
        # the text frame spans the paper; paragraphs and tables are shifted back by the margins
        frame.setLeftMargin(0)
        frame.setRightMargin(0)
        frame.setBorder(0)
        frame.setPadding(0)
        doc.rootFrame().setFrameFormat(frame)
        section_doc = SectionDoc(doc, props, QTextCursor(doc))
        self.docs.append(section_doc)
        self.builder.doc_index = len(self.docs) - 1
        self.builder.bleed = bleed(props)
        self.context.content_width = (props.width - props.left - props.right - props.gutter) * TWIPS
        self._flow = Flow()
        return section_doc

    def step(self, budget: float = 0.03) -> bool:
        """Write and lay out body items for about ``budget`` seconds; True once everything is laid out.

        Qt lays out what was written when the edit block closes, after the items are written;
        that part of the slice is predicted from the slices before (tables cost Qt far more per
        item than paragraphs), so writing stops early enough for the whole slice to fit.
        """
        if self.done:
            return True
        if not self._quiet_gc:
            hold_full_collections(True)
            self._quiet_gc = True
        start = time.perf_counter()
        current = self.docs[-1] if self.docs else None
        if current is not None and current.page_count() >= SPLIT_PAGES - 1:
            # a cut is near: write little, since what follows the cut is written again
            budget = min(budget, _NEAR_CUT_BUDGET)
        deadline = start + budget / (1.0 + self._qt_ratio)
        if current is not None:
            current.cursor.beginEditBlock()
        touched: set[int] = set()
        marks: list[SplitMark] = []
        items = self._items
        while self._next < len(items):
            if self._section_pending:
                current = self._start_section(current)
            assert current is not None
            touched.add(len(self.docs) - 1)
            el = items[self._next]
            if el.tag == _P and self._cuttable(current):
                marks.append(self._mark(current))
            self._next += 1
            following = items[self._next] if self._next < len(items) else None
            before = len(self.builder.records)
            self.builder.item(el, current.cursor, self._flow, following)
            if self._strip_break:
                clear_page_break(current.document)
                self._strip_break = False
            self._register(current, before)
            if el.tag == _P and ends_section(el):
                self._section = min(self._section + 1, len(self.sections) - 1)
                self._section_pending = True
            if time.perf_counter() > deadline and not ends_in_long_block(current.cursor):
                break
        if current is not None and self._next >= len(items) and self.builder.endnote_refs:
            self.endnotes.write(current, len(self.docs) - 1, self._flow, self.builder.endnote_refs)
        written = time.perf_counter()
        if current is not None:
            current.cursor.endEditBlock()
        self.done = self._next >= len(items)
        self._pages_cache = None
        self._numbers = None
        for doc_index in sorted(touched):
            self.docs[doc_index].page_count()  # let Qt lay out what was written
            section_doc = self.docs[doc_index]
            final = self.done or doc_index < len(self.docs) - 1
            for separator in self._settle(doc_index, final):
                for mark in marks:  # marks are in the last document, which is the one split
                    if doc_index == len(self.docs) - 1 and separator < mark.position:
                        mark.position += 1
            top_align_split_rows(section_doc.document, section_doc.aligned_cells, section_doc.page_height)
            section_doc.aligned_cells.clear()
        if marks and not self.done:
            self._split(marks)
        laid_out = time.perf_counter()
        for doc_index in sorted(touched):
            self.index.extend(doc_index, final=self.done or doc_index < len(self.docs) - 1)
        build = max(1e-4, written - start)
        ratio = (time.perf_counter() - written) / build
        self._qt_ratio = 0.5 * self._qt_ratio + 0.5 * min(ratio, 20.0)
        self.last_step = (build, laid_out - written)
        if self.done:
            self.close()
        return self.done

    def _settle(self, doc_index: int, final: bool) -> list[int]:
        """Apply the keep rules and settle the footnotes of the pages laid out, page by page.

        Each page's paragraphs get their keep rules before its footnotes take room, and
        both before the next page's: done in that one order, the page breaks are the same
        however the writing was sliced (a slice used to apply the keep rules of all its
        paragraphs before any note moved a line). Returns where the notes inserted block
        separators (see :meth:`.note_room.NoteRoom.reserve`).
        """
        section_doc = self.docs[doc_index]
        separators: list[int] = []
        while True:
            page = self.notes.settled(doc_index)
            self._kept[doc_index] = apply_keeps(section_doc, self._kept.get(doc_index, 0), page, final)
            separators += self.notes.reserve(doc_index, final, page + 1)
            if self.notes.settled(doc_index) <= page:
                return separators

    def _settle_again(
        self,
        doc_index: int,
        chain: RenderedBlock,
        moved: bool,
        final: bool,
        kept: tuple[RenderedBlock, float] | None = None,
    ) -> None:
        """After a rebuild: settle the pages again from ``chain``, the first paragraph whose
        keep rules or notes the rebuilt one may change.

        When lines after it ``moved``, the keep rules are judged again from there. ``kept`` is
        the first later paragraph a keep rule had given a page break, with where the text
        before it ended (see :func:`.keeps.first_kept`): when that text ends no higher now,
        the break and every page after it stand and only the paragraphs before it are judged
        again; else the breaks from ``chain`` on are taken back and all judged again (taking a
        break back costs Qt a layout of the rest of the document).
        """
        section_doc = self.docs[doc_index]
        if moved:
            first = bisect.bisect_left(section_doc.starts, chain.start)
            if kept is not None and still_kept(section_doc, kept):
                stop = section_doc.records.index(kept[0])
                apply_keeps(section_doc, first, section_doc.page_count(), True, stop)
            else:
                release_keeps(section_doc, first)
                self._kept[doc_index] = min(self._kept.get(doc_index, 0), first)
        self.notes.rewind(doc_index, chain.start)
        self._settle(doc_index, final)

    def close(self) -> None:
        """Stop holding back Python's full garbage collections (the layout is done or dropped)."""
        if self._quiet_gc:
            self._quiet_gc = False
            hold_full_collections(False)

    def __del__(self) -> None:
        self.close()

    def _start_section(self, current: SectionDoc | None) -> SectionDoc:
        props = self._effective(self._section)
        # a continuous section shares its page with the one before (Word keeps that page's margins)
        same_paper = current is not None and (props.width, props.height) == (
            current.props.width,
            current.props.height,
        )
        continuous = props.kind == "continuous" and same_paper
        new_doc = current is None or (props.geometry != current.props.geometry and not continuous)
        if new_doc:
            if current is not None:
                current.cursor.endEditBlock()
            current = self._new_doc(props)
            current.cursor.beginEditBlock()
        elif not continuous:
            self._flow.page_break = True
        if props.kind in ("oddPage", "evenPage") and self._needs_blank_page(current, props.kind, new_doc):
            # Word leaves a blank page so the section starts on an odd (even) page number
            self._empty_block(current, 0.0)
            self._flow.page_break = True
        extra = 0 if continuous else self._first_page_extra(self._section, props)
        if extra:
            # the first page's taller header: only that page's body starts lower
            self._empty_block(current, extra * TWIPS)
            self._flow.page_break = False
        position = current.cursor.position() if self._flow.fresh else current.cursor.position() + 1
        current.sections.append((position, self._section))
        self._section_pending = False
        return current

    def _empty_block(self, current: SectionDoc, height: float) -> None:
        """Write a paragraph with no text and no record, ``height`` LU tall (0: one empty line).

        It takes the page break the section's first paragraph would have had.
        """
        if not self._flow.fresh:
            current.cursor.insertBlock()
        self._flow.fresh = False
        fmt = self.factory.block(_BLANK_PAGE_PARAGRAPH, 0, 0, self._flow.page_break)
        if height:
            fmt = QTextBlockFormat(fmt)
            fmt.setLineHeight(height, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
        current.cursor.setBlockFormat(fmt)

    def _needs_blank_page(self, current: SectionDoc, kind: str, new_doc: bool) -> bool:
        current.cursor.endEditBlock()  # let Qt lay out what is there to count its pages
        before = self.first_page_of_doc(len(self.docs) - 1)
        if not new_doc and current.records:
            before += current.page_count()
        current.cursor.beginEditBlock()
        number = before + 1  # the number of the page the section would start on
        return (kind == "oddPage") == (number % 2 == 0)

    def _effective(self, section: int) -> SectionProps:
        """The section's page with its margins grown to fit a taller header or footer, as Word does.

        The top fits the header of the pages after the first (see :meth:`_first_page_extra`);
        the bottom fits the taller of the first page's footer and the others'.
        """
        props = self.sections[section]
        top, bottom = props.top, props.bottom
        if not props.exact_top:
            top = self._header_top(section, False)
        if not props.exact_bottom:
            height = max(
                self.headers.story_height(section, "footer"),
                self.headers.story_height(section, "footer", first_page=True),
            )
            if height:
                bottom = max(bottom, props.footer + round(height / TWIPS))
        if (top, bottom) == (props.top, props.bottom):
            return props
        return dataclasses.replace(props, top=top, bottom=bottom)

    def _header_top(self, section: int, first_page: bool) -> int:
        """Where (twips) the body starts below the header of the section's first page or its others."""
        props = self.sections[section]
        height = self.headers.story_height(section, "header", first_page)
        return max(props.top, props.header + round(height / TWIPS)) if height else props.top

    def _first_page_extra(self, section: int, props: SectionProps) -> int:
        """How much lower (twips) than on its other pages the body starts on the section's first page.

        A section document has one top margin for all its pages, fitted to the header of the
        pages after the first; a taller first-page header (``w:titlePg``) is made room for on
        its own page. A shorter one leaves the first page at the others' top.
        """
        if props.exact_top or not self.sections[section].title_page:
            return 0
        return max(0, self._header_top(section, True) - props.top)

    def _register(self, current: SectionDoc, before: int) -> None:
        current.aligned_cells += self.builder.aligned_cells
        self.builder.aligned_cells.clear()
        current.floats += self.builder.floats
        self.builder.floats.clear()
        for record in self.builder.records[before:]:
            current.records.append(record)
            current.starts.append(record.start)
            if record.block_id is not None:
                self.by_id[record.block_id] = record
            if record.changed or record.comments:
                self._markup = True

    def build_all(self) -> PagedLayout:
        """Lay out the whole document now (renders, tests, the CLI, a read_page before the view is done).

        In the same small slices as the event loop uses: every keep rule applied after a slice
        makes Qt lay out again from that paragraph to the end of what is written, so one big
        slice of a 300-page contract costs minutes where small ones cost about two seconds.
        """
        while not self.step(BUILD_ALL_SLICE_S):
            pass
        return self

    # ------------------------------------------------------------------ pages
    def pages(self) -> list[Page]:
        """Every page laid out so far, in order."""
        if self._pages_cache is None:
            pages: list[Page] = []
            for doc_index, section_doc in enumerate(self.docs):
                for i in range(section_doc.page_count()):
                    pages.append(
                        Page(len(pages), doc_index, i, section_doc.page_width, section_doc.page_height)
                    )
            self._pages_cache = pages
        return self._pages_cache

    def page_count(self) -> int:
        """Pages laid out so far (the final count once :attr:`done`)."""
        return len(self.pages())

    def first_page_of_doc(self, doc_index: int) -> int:
        """Global number of the first page of section document ``doc_index``."""
        return sum(d.page_count() for d in self.docs[:doc_index])

    def section_of_page(self, page: Page) -> tuple[int, bool]:
        """(section index, is the section's first page) for ``page``: which headers it shows."""
        section_doc = self.docs[page.doc_index]
        if section_doc.carried is not None:
            found, first = section_doc.carried, False
        else:
            found, first = section_doc.sections[0][1] if section_doc.sections else 0, page.index_in_doc == 0
        for position, section in section_doc.sections:
            start_page = self.page_of_position(page.doc_index, position)
            if self.sections[section].kind == "continuous" and start_page > 0:
                start_page += 1
            if start_page <= page.index_in_doc:
                found, first = section, start_page == page.index_in_doc
        return found, first

    def page_of_position(self, doc_index: int, position: int) -> int:
        """Page (within its document) of the line holding ``position``."""
        section_doc = self.docs[doc_index]
        document = section_doc.document
        block = document.findBlock(position)
        if not block.isValid():
            return 0
        rect = document.documentLayout().blockBoundingRect(block)
        text_layout = block.layout()
        y = rect.y()
        if text_layout is not None and text_layout.lineCount():
            line = text_layout.lineForTextPosition(max(0, position - block.position()))
            if line.isValid():
                y = rect.y() + line.y() + line.height() / 2
        return max(0, int(y // section_doc.page_height))

    def page_numbers(self) -> list[str]:
        """The number each page shows in a PAGE field (section restarts and formats applied)."""
        if self._numbers is None:
            numbers: list[str] = []
            value = 0
            for page in self.pages():
                section, first = self.section_of_page(page)
                props = self.sections[section]
                value = props.page_start if first and props.page_start is not None else value + 1
                numbers.append(format_number(value, props.page_format) if props.page_format else str(value))
            self._numbers = numbers
        return self._numbers

    # ------------------------------------------------------------------ blocks
    def record_at(self, doc_index: int, position: int) -> RenderedBlock | None:
        """The rendered paragraph whose range holds ``position`` in document ``doc_index``."""
        section_doc = self.docs[doc_index]
        i = bisect.bisect_right(section_doc.starts, position) - 1
        if i < 0:
            return None
        record = section_doc.records[i]
        return record if record.start <= position <= record.end else None

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
        return self.mode == "all" and self._markup

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
        # the keep-with-next headings before it are judged again with it
        chain = section_doc.records[chain_start(section_doc.records, i)]
        # lines moved on for footnotes from there move back; they are settled again below
        self.notes.release(record.doc_index, chain.start)
        kept = first_kept(section_doc, i)
        if kept is not None and kept[0] is record:
            kept = None  # its own lines decide its break: judged again
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
        final = self.done or record.doc_index < len(self.docs) - 1
        if rebuilt is None:
            self._settle_again(record.doc_index, chain, True, final)
            return False
        delta = (rebuilt.end - first.position()) - old_length
        rebuilt.kept = record.kept  # its block format, kept, has the page break
        section_doc.records[i] = rebuilt
        self.by_id[block_id] = rebuilt
        self._markup = self._markup or rebuilt.changed or bool(rebuilt.comments)
        if delta:
            starts = section_doc.starts
            for j in range(i + 1, len(section_doc.records)):
                later = section_doc.records[j]
                later.start += delta
                later.end += delta
                starts[j] += delta
        now = document.findBlock(rebuilt.start)
        single = single and document.findBlock(rebuilt.end) == now
        self.kept_lines = single and _extent(document, now) == old_lines
        self._settle_again(
            record.doc_index, chain if chain is not record else rebuilt, not self.kept_lines, final, kept
        )
        self._pages_cache = None
        self._numbers = None
        if self.done and single:
            new_length = rebuilt.end - now.position()
            self.index.edited(record.doc_index, now.position(), old_length, new_length, self.kept_lines)
        else:
            self.index.invalidate()
        return True

    def comment(self, comment_id: str) -> CommentRecord | None:
        """The comment with ``comment_id`` (None when the document has no such comment)."""
        return self.comments.get(comment_id)

    def thread(self, comment_id: str) -> list[CommentRecord]:
        """The thread holding ``comment_id``: its root comment, then the replies (Word threads are
        flat); the comments of reviewers the markup filter hides are left out."""
        root = self.comments.get(comment_id)
        if root is None:
            return []
        root = self.comments.get(root.thread_id, root)
        thread = [root] + [c for c in self.comments.values() if c.is_reply and c.thread_id == root.id]
        hidden = self.context.hidden_comments
        return [c for c in thread if c.id not in hidden] if hidden else thread

    def hidden_comments(self) -> frozenset[str]:
        """Ids of the comments written by the reviewers the markup filter hides."""
        hidden = self.context.markup.hidden_authors
        return frozenset(c.id for c in self.comments.values() if (c.author or "") in hidden)

    def stats(self) -> dict[str, Any]:
        """Figures for logs and benchmarks."""
        return {"pages": self.page_count(), "documents": len(self.docs), "blocks": len(self.by_id)}


def _extent(document: QTextDocument, block: QTextBlock) -> tuple[int, float, float]:
    """(line count, top, height) of a laid-out QTextBlock: equal before and after an edit when
    nothing after it moved."""
    text_layout = block.layout()
    rect = document.documentLayout().blockBoundingRect(block)
    return (text_layout.lineCount() if text_layout is not None else 0, rect.y(), rect.height())
