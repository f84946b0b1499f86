"""Cutting a long flow into several section documents, at page tops, as it is laid out.

Qt re-lays out every table that follows an edit in the same QTextDocument (a paginated
document re-lays out its frames), so re-rendering one paragraph near the start of a
table-heavy contract would cost the rest of the contract. :class:`FlowSplitter` starts a new
document where a paragraph begins a page: the pages do not change, and an in-place re-render
only re-lays out the document holding it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QTextCursor, QTextFormat

from .pages import SPLIT_MIN_CHARS, SPLIT_PAGES, SectionDoc, SplitMark, line_top
from .qformats import TWIPS

if TYPE_CHECKING:  # pragma: no cover
    from ...docx.sections import SectionProps
    from .builder import StoryBuilder
    from .note_room import NoteRoom
    from .records import Flow, RenderedBlock

#: How close (LU) to the top margin a paragraph's first line must be for the flow to be cut there.
_AT_TOP_MARGIN = 0.5


class FlowSplitter:
    """Mixed into :class:`~.body_writer.BodyWriter`; uses its builder, flow and documents."""

    builder: StoryBuilder
    notes: NoteRoom
    docs: list[SectionDoc]
    by_id: dict[str, RenderedBlock]
    _flow: Flow
    _next: int
    _section: int
    _section_pending: bool
    _strip_break: bool

    def _new_doc(self, props: SectionProps) -> SectionDoc:  # pragma: no cover - provided by the layout
        raise NotImplementedError

    def _cuttable(self, current: SectionDoc) -> bool:
        """Only long documents are split, and only before a paragraph that follows a paragraph."""
        return (
            bool(current.records)
            and self._flow.last_table is None
            and not self._flow.fresh
            and current.document.characterCount() > SPLIT_MIN_CHARS
        )

    def _mark(self, current: SectionDoc) -> SplitMark:
        state = self.builder.state
        return SplitMark(
            self._next,
            current.cursor.position() + 1,
            len(self.builder.records),
            len(current.records),
            (list(state.fields.stack), set(state.open_comments), [list(c) for c in state.codes]),
            self._flow.prev_style,
            self._section,
        )

    def cut_at_page_top(self, marks: list[SplitMark]) -> None:
        """Start a new document at the first paragraph of this slice that begins a page.

        Qt re-lays out every table after an edit in the same document, so an in-place
        re-render near the start of a table-heavy contract would cost the whole rest of it.
        Cutting the flow where a paragraph starts at the top of a page changes nothing on the
        pages (the next document starts at the top of a page too) and bounds that cost by
        the length of one document. The paragraphs after the cut are written again.

        No cut falls before a section start written in the same slice: that section's first
        page would lose its first-page header and count as the section before it.

        Only a first line exactly at the top margin is a cut. Qt puts a paragraph given a
        page break (by a keep rule or a footnote) below the top margin by the space after
        the paragraph before it, but a document's first paragraph at the top margin: cutting
        there would let that page hold one more line, and every later page would then break
        elsewhere than in a layout written in one slice. Nor is a paragraph that carries a page
        break of its own (page break before, a closing page break, a keep rule's or a footnote's
        break): since such a paragraph starts at the top margin too, cutting there made the
        Docx4j guide's sliced layout one page longer than its layout in one slice.
        """
        current = self.docs[-1]
        if current.page_count() < SPLIT_PAGES:
            return
        document = current.document
        doc_layout = document.documentLayout()
        top = current.props.top * TWIPS
        height = current.page_height
        for mark in marks:
            if any(position >= mark.position - 1 for position, _section in current.sections):
                continue  # a section starts in what would be cut off: its start stays where it is
            block = document.findBlock(mark.position)
            if not block.isValid() or block.position() != mark.position or not block.previous().isValid():
                continue
            # where its first line is rules out most paragraphs: asked first
            first = line_top(doc_layout, block, 0)
            if first is None:
                continue
            page = int(first // height)
            if page < SPLIT_PAGES or abs(first - page * height - top) > _AT_TOP_MARGIN:
                continue
            if block.blockFormat().pageBreakPolicy() & QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore:
                continue
            last = line_top(doc_layout, block.previous(), -1)
            if last is None or int(last // height) >= page:
                continue
            self._cut(current, mark)
            return

    def _cut(self, current: SectionDoc, mark: SplitMark) -> None:
        cursor = QTextCursor(current.document)
        cursor.setPosition(mark.position - 1)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        self.notes.forget_after(len(self.docs) - 1, mark.position - 1)
        for record in self.builder.records[mark.records :]:
            if record.block_id is not None and self.by_id.get(record.block_id) is record:
                del self.by_id[record.block_id]
        del self.builder.records[mark.records :]
        del current.records[mark.doc_records :]
        del current.starts[mark.doc_records :]
        current.floats[:] = [f for f in current.floats if f[0] < mark.position - 1]
        state = self.builder.state
        state.fields.stack[:] = mark.state[0]
        state.open_comments = set(mark.state[1])
        state.codes = mark.state[2]
        self._next = mark.item
        self._section_pending = False
        self._section = carried = mark.section
        self.builder.pending_break = False
        following = self._new_doc(current.props)
        following.carried = carried
        self._strip_break = True  # the new document's first page is that page already
        self._flow.prev_style = mark.prev_style
