"""Writing the body into section documents, item by item, for as long as a slice allows.

The layout (:mod:`.layout`) runs the slices, then settles and indexes what they wrote; the
writer owns where the writing stands: the next body item, the section it is in, the flow
between paragraphs, and the section documents it starts (one per run of sections sharing a
geometry, see :mod:`.section_geometry`). Each paragraph's record goes to its section document
and to the block map; a long flow is cut into more documents by :class:`.splitting.FlowSplitter`;
after the last item come the endnotes (:mod:`.endnotes`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QTextBlockFormat

from ...docx.format_props import ParaProps
from ...docx.sections import ends_section
from ...docx.xmlutil import W
from .builder import BuildContext, Flow, RenderedBlock, StoryBuilder, story_items
from .long_words import ends_in_long_block
from .pages import SectionDoc, SplitMark, clear_page_break
from .qformats import TWIPS
from .section_geometry import bleed, section_document, text_width
from .splitting import FlowSplitter
from .table_split import split_table

if TYPE_CHECKING:  # pragma: no cover
    from lxml import etree

    from ...docx.sections import SectionProps
    from .endnotes import Endnotes
    from .note_room import NoteRoom
    from .pages import PageSequence
    from .section_geometry import SectionGeometry

_P, _TBL = W + "p", W + "tbl"
_BLANK_PAGE_PARAGRAPH = ParaProps()


class BodyWriter(FlowSplitter):
    """Writes the body of ``body`` (the document's ``w:body``) into ``paging``'s section documents.

    ``by_id`` is the layout's block map; ``notes`` forgets its moves where the flow is cut;
    ``endnotes`` is written after the last item. ``section_breaks`` are the body's paragraph-level
    ``w:sectPr`` (:func:`...docx.sections.section_elements` but the last), which the layout has
    listed already: listing them walks the whole body while the window waits for the first page.
    """

    def __init__(
        self,
        body: etree._Element,
        context: BuildContext,
        geometry: SectionGeometry,
        paging: PageSequence,
        by_id: dict[str, RenderedBlock],
        notes: NoteRoom,
        endnotes: Endnotes,
        section_breaks: list[etree._Element],
    ) -> None:
        self.context = context
        self.geometry = geometry
        self.paging = paging
        self.docs = paging.docs
        self.by_id = by_id
        self.notes = notes
        self.endnotes = endnotes
        self.builder = StoryBuilder(context)
        self.builder.state.endnote_format = endnotes.number_format
        mode = context.mode
        self._items: list[Any] = []
        for item in story_items(body):
            self._items.extend(split_table(item, mode) if item.tag == _TBL else [item])
        # the paragraphs whose mark ends a section, found from the few w:sectPr rather than by
        # asking each of a contract's thousands of paragraphs
        marks = {sect.getparent().getparent() for sect in section_breaks}
        self._section_ends = {el for el in self._items if el in marks and ends_section(el)}
        self._next = 0
        self._section = 0
        self._section_pending = True
        self._flow = Flow()
        self._strip_break = False
        #: a paragraph with changes or comments was written (see :meth:`.layout.PagedLayout.has_markup`)
        self.markup = False
        if self.finished:
            self._new_doc(geometry.effective(0))

    @property
    def finished(self) -> bool:
        """True once every body item is written."""
        return self._next >= len(self._items)

    def write(self, deadline: float, limit: int) -> tuple[set[int], list[SplitMark], float]:
        """Write body items until ``deadline`` (``time.perf_counter``), at most ``limit`` of them
        (and the paragraph after a table written last), inside one edit block.

        Returns the section documents written to, where the flow may be cut (paragraphs
        starting in the last document, see :meth:`cut_at_page_top`), and when the writing
        ended: Qt lays out what was written as the edit block closes, after that.
        """
        current = self.docs[-1] if self.docs else None
        if current is not None:
            current.cursor.beginEditBlock()
        touched: set[int] = set()
        marks: list[SplitMark] = []
        items = self._items
        stop = self._next + limit
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
            if el in self._section_ends:
                self._section = min(self._section + 1, len(self.paging.sections) - 1)
                self._section_pending = True
            # nor does a part end on a table a paragraph follows: the next part would start in
            # the empty paragraph Qt keeps after the table, where Qt noted its place (a
            # checkpoint), and Qt would lay out again from the note before, the whole table
            if (
                (self._next >= stop or time.perf_counter() > deadline)
                and not (el.tag == _TBL and following is not None and following.tag == _P)
                and not ends_in_long_block(current.cursor)
            ):
                break
        if current is not None and self.finished and self.builder.endnote_refs:
            refs = self.builder.endnote_refs
            self.endnotes.write(current, len(self.docs) - 1, self._flow, refs, bleed(current.props))
        written = time.perf_counter()
        if current is not None:
            current.cursor.endEditBlock()
        return touched, marks, written

    def _new_doc(self, props: SectionProps) -> SectionDoc:
        section_doc = section_document(self.context.package, props, self.context.factory)
        self.docs.append(section_doc)
        self.builder.doc_index = len(self.docs) - 1
        self.builder.bleed = bleed(props)
        self.context.content_width = text_width(props)
        self._flow = Flow()
        return section_doc

    def _start_section(self, current: SectionDoc | None) -> SectionDoc:
        start = self.geometry.start(self._section, current.props if current is not None else None)
        if start.new_doc:
            if current is not None:
                current.cursor.endEditBlock()
            current = self._new_doc(start.props)
            current.cursor.beginEditBlock()
        elif not start.continuous:
            self._flow.page_break = True
        if start.parity and start.blank_page(self._starting_page(current, start.new_doc)):
            # Word leaves a blank page so the section starts on an odd (even) page number
            self._empty_block(current, 0.0)
            self._flow.page_break = True
        if start.extra:
            # the first page's taller header: only that page's body starts lower
            self._empty_block(current, start.extra * TWIPS)
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
        fmt = self.context.factory.block(_BLANK_PAGE_PARAGRAPH, 0, 0, self._flow.page_break)
        if height:
            fmt = QTextBlockFormat(fmt)
            fmt.setLineHeight(height, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
        current.cursor.setBlockFormat(fmt)

    def _starting_page(self, current: SectionDoc, new_doc: bool) -> int:
        """The number (1-based) of the page a section starting now would start on."""
        current.cursor.endEditBlock()  # let Qt lay out what is there to count its pages
        before = self.paging.first_page_of_doc(len(self.docs) - 1)
        if not new_doc and current.records:
            before += current.page_count()
        current.cursor.beginEditBlock()
        return before + 1

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
                self.markup = True
