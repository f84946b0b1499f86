"""Writes the paragraphs and tables of one story into a QTextDocument through a QTextCursor.

Every Word paragraph becomes one QTextBlock (two when a page break splits it); what the block
shows depends on the markup mode:

``all``
    insertions underlined and deletions struck through in the author's colour, moved text also
    doubled by the painter, commented text highlighted;
``none``
    as if every change were accepted: deletions are not laid out;
``original``
    as if every change were rejected: insertions are not laid out, deletions read plainly.

Each rendered paragraph leaves a :class:`RenderedBlock` behind: where it sits in its document
and which stretches of it are clean text, so pages can be read back as the agent's text and a
single block can be re-rendered after an edit.

Between two paragraphs the larger of the first's space after and the second's space before
applies (as in Word and LibreOffice, and as Qt does by itself); ``w:contextualSpacing`` drops a
paragraph's spacing next to a paragraph of the same style.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from lxml import etree
from PySide6.QtGui import (
    QColor,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextImageFormat,
)

from ...docx.format_props import RPR_SKIP, element_key
from ...docx.format_resolver import FormatResolver
from ...docx.numformats import symbol_font_text
from ...docx.paragraph_segments import StoryState, paragraph_segments
from ...docx.table_grid import TableGrid
from ...docx.text import NoteNumbers, mark_state
from ...docx.xmlutil import W, first_child
from .floating import Floating, read_floating
from .images import describe_object
from .list_labels import ListLabelLooks
from .long_words import BREAK_MARK, long_word_cuts
from .qformats import TWIPS, leave_spacing_before_break, script_of, starts_page_format
from .records import MODES, BuildContext, Flow, ParagraphFacts, RenderedBlock, story_items
from .slash_breaks import keep_slashed_words
from .table_split import TablePart
from .table_writer import TableWriter
from .tables import cell_is_dark

_P, _TBL, _PPR, _RPR, _PSTYLE = W + "p", W + "tbl", W + "pPr", W + "rPr", W + "pStyle"
__all__ = [
    "MODES",
    "BuildContext",
    "Flow",
    "RenderedBlock",
    "StoryBuilder",
    "story_items",
]
_DELETED = frozenset((W + "del", W + "moveFrom"))
_INSERTED = frozenset((W + "ins", W + "moveTo"))
_ALT_CHUNK, _DRAWING = W + "altChunk", W + "drawing"
_FOOTNOTE_REF, _ENDNOTE_REF = W + "footnoteReference", W + "endnoteReference"


class StoryBuilder(TableWriter):
    """Builds one story (the body, or a header/footer) into QTextDocuments."""

    def __init__(
        self, ctx: BuildContext, doc_index: int = 0, bleed: tuple[float, float] = (0.0, 0.0)
    ) -> None:
        self.ctx = ctx
        self.doc_index = doc_index
        #: (left, right) LU the document's text frame reaches past the text column (see
        #: :func:`~.layout.bleed`): what the story's own paragraphs and tables are shifted by
        self.bleed = bleed
        self.state = StoryState()
        self.records: list[RenderedBlock] = []
        #: endnote id -> number shown, in the order the story first cites them (the end lists them so)
        self.endnote_refs: dict[str, str] = {}
        #: a page break closed the last paragraph: the next block starts a new page
        self.pending_break = False
        #: cell formats shared by equal cells, and the table-wide keys they are filed under
        self._cell_formats: dict[Any, Any] = {}
        self._last_grid: tuple[etree._Element, TableGrid] | None = None
        #: id of a shared cell format -> what writing a cell reads from it (see table_writer)
        self._cell_facts: dict[int, Any] = {}
        self._dark = False
        #: a paragraph mark's properties, line factor and format by what decides them (see _mark)
        self._marks: dict[tuple[Any, ...], tuple[Any, float, QTextCharFormat]] = {}
        #: list labels' formats, suffixes and widths, each worked out once (see .list_labels)
        self._label_looks = ListLabelLooks(ctx)
        #: a slash or brace was written into the paragraph being built (see _keep_slashed_words)
        self._slashed = False
        #: the line-font numbers of the text written into the block being built; None when
        #: something without one went in (an image) or the block held text before: Qt is asked
        self._fonts: set[int] | None = None
        #: how many table cells deep the content being written sits (0: the story's own flow)
        self._cell_depth = 0
        #: the width (LU) Qt lays the lines of the cell being written out in
        self._cell_text_width = 0.0
        #: first positions of cells aligned to their middle or bottom, for the layout to check
        #: once laid out (see :func:`~.tables.top_align_split_rows`)
        self.aligned_cells: list[int] = []
        #: anchored drawings with the position of the paragraph text they are anchored at
        self.floats: list[tuple[int, Floating]] = []

    # ------------------------------------------------------------------ containers
    def container(
        self, parent: etree._Element, cursor: QTextCursor, flow: Flow, table_style: str | None, in_table: bool
    ) -> None:
        """Build every paragraph and table of ``parent`` at ``cursor``."""
        items = list(story_items(parent))
        for i, el in enumerate(items):
            following = items[i + 1] if i + 1 < len(items) else None
            self.item(el, cursor, flow, following, table_style, in_table)

    def item(
        self,
        el: etree._Element,
        cursor: QTextCursor,
        flow: Flow,
        following: etree._Element | None,
        table_style: str | None = None,
        in_table: bool = False,
    ) -> None:
        """Build one paragraph, table or opaque chunk."""
        if el.tag == _P:
            self.paragraph(el, cursor, flow, following, table_style, in_table)
        elif el.tag == _TBL:
            self.table(el, cursor, flow)
        elif isinstance(el, TablePart):
            self.table(el.element, cursor, flow, (el.first, el.stop))
        else:
            self.diagnostic(cursor, flow)

    # ------------------------------------------------------------------ paragraphs
    def paragraph_props(self, p: etree._Element, table_style: str | None, in_table: bool) -> ParagraphFacts:
        """A ``w:p``'s block, ``w:pPr``, style, list level and effective properties: what writing
        it and spacing its table cell (automatic spacing, see the table writer) read."""
        ctx = self.ctx
        block = ctx.blocks.get(p)
        ppr = p[0] if len(p) and p[0].tag == _PPR else first_child(p, _PPR)
        style_id = block.style_id if block is not None else _pstyle(ppr, ctx.resolver)
        numbering = None
        if block is not None and block.list_reference is not None:
            numbering = (str(block.list_reference["numId"]), int(block.list_reference["level"]))
        props = ctx.resolver.paragraph(ppr, style_id, numbering, table_style, in_table)
        return ParagraphFacts(block, ppr, style_id, numbering, props)

    def paragraph(
        self,
        p: etree._Element,
        cursor: QTextCursor,
        flow: Flow,
        following: etree._Element | None,
        table_style: str | None = None,
        in_table: bool = False,
        fixed_format: QTextBlockFormat | None = None,
    ) -> RenderedBlock | None:
        """Build one paragraph; returns its record (None when the mode hides it entirely)."""
        ctx = self.ctx
        mode = ctx.mode
        block, ppr, style_id, numbering, props = self.paragraph_props(p, table_style, in_table)
        notes = NoteNumbers(*block.notes_before) if block is not None else NoteNumbers()
        walk = paragraph_segments(p, self.state, notes, ctx.page_fields is not None)
        segments = walk.segments
        if walk.properties is ppr:
            mark_rpr = walk.mark_properties
        else:  # no w:pPr, or not where the walk met one first
            mark_rpr = first_child(ppr, _RPR) if ppr is not None else None
        mark_deleted, mark_inserted = mark_state(mark_rpr)
        mark_mode = ctx.revision_mode(_mark_revision(ppr)) if mark_deleted or mark_inserted else mode
        if (mark_mode == "none" and mark_deleted) or (mode == "original" and mark_inserted):
            hidden = "delete" if mark_mode == "none" else "insert"
            if all(
                (s.kind == hidden and ctx.revision_mode(s.revision) == mark_mode) or s.kind == "break"
                for s in segments
            ):
                return None  # the paragraph exists only as the change the mode takes away

        if self.pending_break:
            flow.page_break, self.pending_break = True, False
        before = 280 if props.before_auto else props.before
        after = 280 if props.after_auto else props.after
        contextual = props.contextual
        top = 0 if contextual and flow.prev_style is not None and flow.prev_style == style_id else before
        bottom = 0 if contextual and _style_of(following, ctx) == style_id else after
        after_table = flow.last_table is not None
        if flow.last_table is not None:
            table_format = flow.last_table.format()
            table_format.setBottomMargin(top * TWIPS)
            flow.last_table.setFormat(table_format)
            flow.last_table = None
        self._dark = flow.dark or cell_is_dark(props.shading)
        mark = (
            element_key(mark_rpr, RPR_SKIP) if mark_rpr is not None else (),
            style_id,
            table_style,
            in_table,
            self._dark,
        )
        mark_props, line_factor, mark_format = self._mark(mark, mark_rpr)
        if fixed_format is not None:
            block_format = fixed_format
        else:
            bleed = self._bleed(in_table)
            block_format = ctx.factory.block(props, top, bottom, flow.page_break, line_factor, bleed)
        # a table cell's first block keeps the mark's format only if it stays empty (see below)
        cell_mark = flow.fresh and in_table
        if flow.fresh:
            cursor.setBlockFormat(block_format)
            if not cell_mark:
                cursor.mergeBlockCharFormat(mark_format)
            flow.fresh = False
            self._fonts = set() if cursor.block().length() == 1 else None
        else:
            starts_page = (
                flow.page_break or props.page_break_before
                if fixed_format is None
                else starts_page_format(block_format)
            )
            if starts_page:
                leave_spacing_before_break(cursor)
            cursor.insertBlock(block_format, mark_format)
            self._fonts = set()
        record = RenderedBlock(
            block.id if block is not None else None, self.doc_index, cursor.position(), 0, p
        )
        record.borders = props.borders
        if not in_table:
            record.keep_next, record.orphan_control = props.keep_next, props.widow_control
            record.keep_lines = props.keep_lines
        else:
            record.cell_keep_next = props.keep_next
        if props.tabs:
            record.leader = next(
                (leader for _pos, _kind, leader in props.tabs if leader not in ("none", "")), None
            )
        label = block.shown_label if block is not None else None
        label_shift = 0.0
        self._slashed = False
        if label and numbering is not None:
            label_shift = self._label(cursor, label, numbering, mark, mark_rpr, mark_props)
        split = self._segments(
            cursor, walk, record, style_id, table_style, in_table, props, mark_format, bottom
        )
        if cell_mark and (split or cursor.position() == record.start):
            # else the block holds what was written: it keeps the cell's format as it is
            _mark_empty_cell_block(cursor, record.start, mark_format)
        text_factor = ctx.factory.text_line_factor(cursor, line_factor, self._fonts)
        if (label_shift or text_factor != line_factor) and fixed_format is None:
            block_format = ctx.factory.block(
                props, top, bottom, flow.page_break, text_factor, bleed, label_shift
            )
            cursor.setBlockFormat(block_format)
        self._keep_slashed_words(cursor, record, self._cell_text_width if in_table else None)
        if (
            after_table or (following is not None and following.tag in (_TBL, TablePart.tag))
        ) and cursor.block().length() <= 1:
            # Qt lays an empty block beside a table out of sight (it anchors the table); Word
            # gives the empty paragraph its line, so it gets an invisible character
            cursor.insertText("\u200b", mark_format)
        record.end = cursor.position()
        if mode == "all":
            if (mark_deleted or mark_inserted) and (mark_mode == "all" or ctx.markup.simple):
                record.changed = True
            record.format_change = walk.format_change and not ctx.markup.simple
            if walk.format_change:
                record.changed = True
        flow.prev_style = style_id
        flow.prev_after = bottom
        flow.page_break = False
        self.records.append(record)
        return record

    def _mark(
        self, mark: tuple[Any, ...], mark_rpr: etree._Element | None
    ) -> tuple[Any, float, QTextCharFormat]:
        """A paragraph mark's run properties, line factor and char format (a mark shows no
        highlight: "label" drops backgrounds and lines), worked out once per distinct mark: the
        paragraphs of a contract share a few, and the three look-ups cost more than this one.

        ``mark``: what decides them, the key of the mark's ``w:rPr`` (as the resolver keys
        it), the paragraph style, the table style, whether in a table, whether on dark shading.
        """
        found = self._marks.get(mark)
        if found is None:
            _rpr_key, style_id, table_style, in_table, dark = mark
            factory = self.ctx.factory
            props = self.ctx.resolver.run(mark_rpr, style_id, table_style, in_table)
            found = (props, factory.line_factor(props), factory.char(props, "label", on_dark=dark))
            self._marks[mark] = found
        return found

    def _keep_slashed_words(
        self, cursor: QTextCursor, record: RenderedBlock, cell_width: float | None
    ) -> None:
        """Move each word Qt would split after a slash inside it to the next line whole, with a
        layout-only line separator before it (see :mod:`.slash_breaks`); ``cell_width``: the
        content width (LU) of the table cell the paragraph is in."""
        if not self._slashed:
            # no slash or brace written (most paragraphs): no word to keep, and asking Qt for
            # the text costs more than this check
            return
        block = cursor.document().findBlock(record.start)
        while block.isValid() and block.position() <= cursor.position():
            for position in keep_slashed_words(block, cell_width):
                record.open_gap(position - record.start, 1)
                self.floats = [(p + 1 if p >= position else p, f) for p, f in self.floats]
            block = block.next()

    def _wrote(self, fmt: QTextCharFormat) -> None:
        """Text in ``fmt`` (a format of the factory's) went into the block being built: its line
        font counts for the block's line factor (see :meth:`.qformats.FormatFactory.text_line_factor`)."""
        if self._fonts is not None:
            number = self.ctx.factory.font_numbers.get(id(fmt))
            if number is None:
                self._fonts = None
            else:
                self._fonts.add(number)

    def _note_slashes(self, text: str) -> None:
        """Remember that ``text``, about to be written, holds a slash or brace Qt may split a word
        after (see :data:`.slash_breaks.SLASH_IN_WORD`): only such a paragraph needs a look."""
        if "/" in text or "}" in text:
            self._slashed = True

    def _label(
        self,
        cursor: QTextCursor,
        label: str,
        numbering: tuple[str, int],
        mark: tuple[Any, ...],
        mark_rpr: etree._Element | None,
        mark_props: Any,
    ) -> float:
        """Insert the list label; how far (LU) it reaches left of the number position: Word sets a
        right-justified label (``w:lvlJc="right"``, "(iii)" ending where "(ii)" ends) left of
        it, a centred one half its width. ``mark`` is the paragraph mark's key (see :meth:`_mark`)."""
        label_format, suffix, share = self._label_looks.look(numbering, mark, mark_rpr, mark_props)
        if label_format is None:
            return 0.0
        self._note_slashes(label)
        cursor.insertText(label + suffix, label_format)
        self._wrote(label_format)
        return share * self._label_looks.width(label_format, label) if share else 0.0

    def _segments(
        self,
        cursor: QTextCursor,
        walk: Any,
        record: RenderedBlock,
        style_id: str | None,
        table_style: str | None,
        in_table: bool,
        props: Any,
        mark_format: QTextCharFormat,
        bottom: int,
    ) -> bool:
        """Write the paragraph's segments; whether a page break in it started a new block."""
        ctx = self.ctx
        mode = ctx.mode
        resolver, factory = ctx.resolver, ctx.factory
        positions: list[int] = []
        unbroken = 0  # characters since the last break opportunity (see long_words)
        split = False
        for seg in walk.segments:
            start = cursor.position()
            positions.append(start)
            kind = seg.kind
            if kind == "text" or kind == "insert" or kind == "delete":
                role = kind
                if kind != "text" and ctx.revision_mode(seg.revision) != mode:
                    # shown as accepted in All Markup: Simple Markup still bars the paragraph
                    record.changed = record.changed or ctx.markup.simple
                    if kind == "delete":
                        continue
                    role = "text"
                elif kind == "delete":
                    if mode == "none":
                        continue
                    if mode == "original":
                        role = "text"
                elif kind == "insert":
                    if mode == "original":
                        continue
                    if mode == "none":
                        role = "text"
                rpr = _run_properties(walk, seg.run)
                run_props = resolver.run(rpr, style_id, table_style, in_table)
                family = seg.element.get(W + "font") if seg.element is not None else None
                text = symbol_font_text(seg.text, family or run_props.font)
                script = "latin" if text.isascii() else script_of(text)
                author = seg.revision.get(W + "author") if seg.revision is not None else None
                # most text is under no comment: no set difference needed to know it is not marked
                commented = bool(seg.comments) and ctx.marks_comments(seg.comments)
                fmt = factory.char(run_props, role, author, commented, script, family, self._dark)
                cuts, unbroken = long_word_cuts(text, unbroken)
                spans = None if kind == "delete" else record.spans
                offset = start - record.start
                self._note_slashes(text)
                _insert_text(cursor, text, seg.text, cuts, fmt, spans, offset)
                if text:
                    self._wrote(fmt)
                if role != "insert" and role != "delete" and not commented:
                    continue
                end = cursor.position() - record.start
                if role == "insert" or role == "delete":
                    record.changed = True
                    record.change_author = record.change_author or author
                    if seg.is_move:
                        record.moves.append((offset, end, role))
                    assert seg.revision is not None
                    record.revisions.append((offset, end, seg.revision.get(W + "id") or ""))
                if commented:
                    record.commented.append((offset, end, seg.comments))
            elif kind == "note":
                rpr = _run_properties(walk, seg.run)
                run_props = resolver.run(rpr, style_id, table_style, in_table)
                commented = ctx.marks_comments(seg.comments)
                self._note_slashes(seg.text)
                note_format = factory.char(run_props, "note", None, commented, on_dark=self._dark)
                cursor.insertText(seg.text, note_format)
                if seg.text:
                    self._wrote(note_format)
                record.spans.append((start - record.start, len(seg.text), seg.clean))
                if seg.element is not None and seg.element.tag == _FOOTNOTE_REF:
                    record.notes.append((start - record.start, seg.element.get(W + "id") or "", seg.text))
                elif seg.element is not None and seg.element.tag == _ENDNOTE_REF:
                    self.endnote_refs.setdefault(seg.element.get(W + "id") or "", seg.text)
                if commented:
                    offset = start - record.start
                    record.commented.append((offset, offset + len(seg.text), seg.comments))
            elif kind == "object":
                revision = seg.revision
                shown = ctx.revision_mode(revision)
                if revision is not None and (
                    (shown == "none" and revision.tag in _DELETED)
                    or (shown == "original" and revision.tag in _INSERTED)
                ):
                    continue
                self._object(cursor, seg.element)
            elif kind == "break":
                if not any(s.kind != "break" and s.kind != "field" for s in walk.segments[len(positions) :]):
                    # Word keeps the paragraph mark beside a closing page break: nothing moves
                    # to the next page but what follows the paragraph
                    self.pending_break = True
                    continue
                cursor.insertBlock(
                    factory.block(props, 0, bottom, True, bleed=self._bleed(in_table)), mark_format
                )
                self._fonts = set()
                split = True
            elif kind == "field" and ctx.page_fields is not None:
                rpr = _run_properties(walk, seg.run)
                run_props = resolver.run(rpr, style_id, table_style, in_table)
                result = ctx.page_fields.get(seg.text, "")
                self._note_slashes(result)
                field_format = factory.char(run_props, on_dark=self._dark)
                cursor.insertText(result, field_format)
                if result:
                    self._wrote(field_format)
        if mode == "all":
            end = cursor.position()
            for comment_id, index in walk.anchors:
                if comment_id in ctx.hidden_comments:
                    continue
                position = positions[index] if index < len(positions) else end
                record.comments.append((comment_id, position - record.start))
        return split

    def _object(self, cursor: QTextCursor, element: etree._Element) -> None:
        ctx = self.ctx
        obj = describe_object(element, ctx.package, ctx.part_name)
        if obj is None:
            floating = read_floating(element, ctx.package, ctx.part_name) if element.tag == _DRAWING else None
            if floating is not None:
                self.floats.append((cursor.position(), floating))
            return
        width, height = obj.width, obj.height
        if width > ctx.content_width > 0:
            height *= ctx.content_width / width
            width = ctx.content_width
        image = QTextImageFormat()
        image.setName(obj.url)
        image.setWidth(width)
        image.setHeight(height)
        cursor.insertImage(image)
        self._fonts = None  # an image's format has no line font: Qt's formats are read

    def diagnostic(self, cursor: QTextCursor, flow: Flow) -> None:
        """An opaque chunk (``w:altChunk``): its diagnostic text, greyed, in place of the content."""
        block = self.ctx.diagnostics.pop(0) if self.ctx.diagnostics else None
        text = block.text if block is not None else ""
        fmt = QTextCharFormat()
        fmt.setFontItalic(True)
        fmt.setForeground(QColor("#6B7280"))
        if flow.fresh:
            flow.fresh = False
        else:
            cursor.insertBlock()
        record = RenderedBlock(block.id if block is not None else None, self.doc_index, cursor.position(), 0)
        cursor.insertText(text, fmt)
        record.spans.append((0, len(text), None))
        record.end = cursor.position()
        flow.prev_style, flow.page_break = None, False
        self.records.append(record)

    def _bleed(self, in_table: bool) -> tuple[float, float]:
        """The shift of a paragraph's indents: the story's bleed, none inside a table cell."""
        return (0.0, 0.0) if in_table else self.bleed


def _mark_empty_cell_block(cursor: QTextCursor, start: int, mark_format: QTextCharFormat) -> None:
    """Give a table cell's first block, starting at ``start``, its paragraph mark's format if it
    holds no text: only an empty block's line is as tall as its mark.

    Merged, not set: a cell's first block's char format is the cell's own format (borders,
    padding, spans). Merging the mark into a block with text changes nothing on the page but
    makes that format twice as long, and Qt copies a cell's whole format each time its table
    layout reads the cell, several times per cell and layout.
    """
    if cursor.position() != start:
        first = cursor.document().findBlock(start)
        if first.length() > 1:
            return
        cursor = QTextCursor(first)
    cursor.mergeBlockCharFormat(mark_format)


def _insert_text(
    cursor: QTextCursor,
    shown: str,
    written: str,
    cuts: list[int],
    fmt: QTextCharFormat,
    spans: list[tuple[int, int, str | None]] | None,
    offset: int,
) -> None:
    """Insert a run's text, starting ``offset`` into its paragraph, with a layout-only break mark
    before each of ``cuts``; the marks are left out of ``spans`` (None: the text is not clean
    text, e.g. a deletion)."""
    if not cuts:  # most runs: one insert at the offset known
        if shown:
            cursor.insertText(shown, fmt)
            if spans is not None and shown == written:
                spans.append((offset, len(shown), None))
            elif spans is not None:
                spans.extend(_text_spans(offset, shown, written))
        return
    record_start = cursor.position() - offset
    begin = 0
    for piece, end in enumerate([*cuts, len(shown)]):
        if piece:
            cursor.insertText(BREAK_MARK, fmt)
        if end > begin:
            at = cursor.position()
            cursor.insertText(shown[begin:end], fmt)
            if spans is not None:
                spans.extend(_text_spans(at - record_start, shown[begin:end], written[begin:end]))
        begin = end


def _text_spans(offset: int, shown: str, written: str) -> list[tuple[int, int, str | None]]:
    """Spans of a run shown as ``shown`` for the ``written`` text (same length): a symbol shown
    as its Unicode look-alike (see :func:`symbol_font_text`) still reads as written."""
    if shown == written:
        return [(offset, len(shown), None)]
    spans: list[tuple[int, int, str | None]] = []
    start = 0
    for same, group in groupby(range(len(shown)), key=lambda k: shown[k] == written[k]):
        length = len(list(group))
        spans.append((offset + start, length, None if same else written[start : start + length]))
        start += length
    return spans


def _run_properties(walk: Any, run: etree._Element | None) -> etree._Element | None:
    """The ``w:rPr`` of a segment's run: as the walk found it, else (a deleted run's) searched."""
    if run is None:
        return None
    found = walk.run_properties
    return found[run] if run in found else first_child(run, _RPR)


def _style_of(el: etree._Element | None, ctx: BuildContext) -> str | None:
    """The paragraph style of ``el`` when it is a paragraph (for contextual spacing)."""
    if el is None or el.tag != _P:
        return None
    block = ctx.blocks.get(el)
    if block is not None:
        return block.style_id
    ppr = el[0] if len(el) and el[0].tag == _PPR else first_child(el, _PPR)
    return _pstyle(ppr, ctx.resolver)


def _pstyle(ppr: etree._Element | None, resolver: FormatResolver) -> str | None:
    style = first_child(ppr, _PSTYLE) if ppr is not None else None
    if style is not None and style.get(W + "val"):
        return style.get(W + "val")
    return resolver.document.styles.default_paragraph_style_id


def _mark_revision(ppr: etree._Element | None) -> etree._Element | None:
    """The insertion or deletion of a paragraph's mark (``w:pPr/w:rPr/w:ins|del``), for its author."""
    rpr = first_child(ppr, _RPR) if ppr is not None else None
    if rpr is None:
        return None
    return next((child for child in rpr if child.tag in _DELETED or child.tag in _INSERTED), None)
