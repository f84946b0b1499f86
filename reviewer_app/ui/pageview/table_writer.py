"""Writes a story's tables (``w:tbl``) as QTextTables: the table half of :class:`~.builder.StoryBuilder`.

A table's grid (the one model in :mod:`reviewer_app.docx.table_grid`, filtered by the markup
mode) decides its columns, merges and cell formats; each cell's content is then written by the
builder's own paragraph code for the cell's width, so nested tables and images are measured
against the cell, not the page.
"""

from __future__ import annotations

from typing import Any

from lxml import etree
from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QBrush,
    QTextBlock,
    QTextCursor,
    QTextFormat,
    QTextLength,
    QTextTable,
    QTextTableCell,
    QTextTableCellFormat,
)

from ...docx.table_grid import GridCell, TableGrid
from .qformats import TWIPS
from .records import BuildContext, Flow, ParagraphFacts, RenderedBlock
from .tables import ROW_HEIGHT, TableFormats, cell_is_dark, is_top_aligned, keep_row, table_style_id

_NO_BRUSH = Qt.BrushStyle.NoBrush
#: the spacing (twips) Word and LibreOffice give ``w:beforeAutospacing`` / ``w:afterAutospacing``
_AUTO_SPACING = 280
_SHARE = QTextLength.Type.PercentageLength
#: the format of a place in a table no Word cell fills: no padding, no border
_BARE = QTextTableCellFormat()
_BARE.setPadding(0)


class TableWriter:
    """Mixed into :class:`~.builder.StoryBuilder`; uses its context, cell state and ``container``."""

    ctx: BuildContext
    bleed: tuple[float, float]
    pending_break: bool
    aligned_cells: list[int]
    _cell_formats: dict[Any, Any]
    _cell_depth: int
    _cell_text_width: float
    _cell_facts: dict[int, _CellFacts]
    _last_grid: tuple[etree._Element, TableGrid] | None
    records: list[RenderedBlock]
    #: the cell being written spans Qt columns (see :func:`_share_columns`)
    _in_spanning_cell = False

    def container(  # pragma: no cover - provided by the builder
        self, parent: etree._Element, cursor: QTextCursor, flow: Flow, table_style: str | None, in_table: bool
    ) -> None:
        raise NotImplementedError

    def paragraph_props(  # pragma: no cover - provided by the builder
        self, p: etree._Element, table_style: str | None, in_table: bool
    ) -> ParagraphFacts:
        raise NotImplementedError

    def table(
        self, tbl: etree._Element, cursor: QTextCursor, flow: Flow, rows: tuple[int, int] | None = None
    ) -> None:
        """A ``w:tbl`` as a QTextTable: grid, merges and cell formats first, then the cells' content.

        ``rows`` builds only that row range (see :class:`TablePart`); a long table is laid out
        as consecutive QTextTables, which draw as one because Qt overlaps the empty block
        between them with the next table. A cell's content is built for the cell's own width,
        so nested tables and images are measured against the cell, not the page.
        """
        grid = self._grid(tbl)
        if not grid.rows or not any(row.cells for row in grid.rows):
            return
        first, stop = rows if rows is not None else (0, len(grid.rows))
        if self.pending_break:
            flow.page_break, self.pending_break = True, False
        style_id = table_style_id(tbl)
        ctx = self.ctx
        available = round(ctx.content_width / TWIPS)
        formats = TableFormats(grid, ctx.resolver, style_id, available, self._cell_formats)
        table_format = formats.table_format(flow.page_break, grid.header_rows if first == 0 else 0)
        table_format.setTopMargin(flow.prev_after * TWIPS)
        if not self._cell_depth:  # not a table nested in a cell
            left = table_format.leftMargin() + self.bleed[0]
            table_format.setLeftMargin(left)
            # Qt counts a table's margins inside its width: the table grows by its left margin
            # so the columns keep their widths
            table_format.setWidth(QTextLength(QTextLength.Type.FixedLength, left + sum(formats.widths)))
        columns = len(formats.qt_columns)
        cells = [(c, *formats.qt_span(c)) for r in grid.rows[first:stop] for c in r.cells if c.col < columns]
        table = cursor.insertTable(stop - first, len(formats.qt_widths), table_format)
        for cell, column, span_columns in cells:
            span_rows = min(cell.row_span, stop - cell.row)
            if (span_rows > 1 or span_columns > 1) and not cell.covered:
                table.mergeCells(cell.row - first, column, span_rows, span_columns)
        _clear_empty_places(table, cells, first)
        heights = _row_heights(grid, cells, stop)
        outer_width = ctx.content_width
        spanned = self._in_spanning_cell
        try:
            for cell, column, span_columns in cells:
                qcell = table.cellAt(cell.row - first, column)
                self._cell(qcell, cell, span_columns, formats, style_id, heights.get(id(cell), 0))
        finally:
            ctx.content_width = outer_width
            self._in_spanning_cell = spanned
        if spanned:
            _share_columns(table, formats.qt_widths, self._cell_text_width)
        cursor.setPosition(table.lastPosition() + 1)
        flow.fresh = True
        flow.prev_style, flow.page_break, flow.prev_after, flow.last_table = None, False, 0, table

    def _cell(
        self,
        qcell: QTextTableCell,
        cell: GridCell,
        span_columns: int,
        formats: TableFormats,
        style_id: str | None,
        row_height: int,
    ) -> None:
        """Write one cell's content (a covered cell's text joins the cell that shows it).

        A shown cell's format is set once, after its content, with the space its first and last
        paragraphs carry into its padding (see :func:`_padded`): setting it before as
        well cost a second format change per cell for Qt to file and lay out. ``row_height``
        (twips): the height the cell is to give its row once laid out (see :data:`ROW_HEIGHT`).
        """
        if not qcell.isValid():
            return
        covered = cell.covered
        if covered:
            if not "".join(cell.tc.itertext()).strip():
                return  # an empty continuation: Word shows nothing of it
            cell_cursor = qcell.lastCursorPosition()
            facts = self._facts(formats.cell_format(cell.top), formats.padding)
            cell_flow = Flow(fresh=False, dark=facts.dark)
        else:
            facts = self._facts(formats.cell_format(cell), formats.padding)
            if not facts.top_aligned:
                self.aligned_cells.append(qcell.firstPosition())
            cell_cursor = qcell.firstCursorPosition()
            cell_flow = Flow(fresh=True, dark=facts.dark)
        inner = formats.span_width(cell.top) - facts.left_padding - facts.right_padding
        self.ctx.content_width = max(1.0, inner)
        outer_text_width = self._cell_text_width
        # Qt sets collapsed borders half inside the cell
        self._cell_text_width = inner - facts.borders / 2
        first_record = len(self.records)
        self._in_spanning_cell = span_columns > 1
        self._cell_depth += 1
        try:
            self.container(cell.tc, cell_cursor, cell_flow, style_id, True)
        finally:
            self._cell_depth -= 1
            self._cell_text_width = outer_text_width
        _add_spacing_between(qcell, cell.tc, self.records, first_record)
        before, after = self._edge_spacing(
            qcell, cell_flow.prev_after, None if covered else first_record, style_id
        )
        if covered:  # the cell showing it has its format: the space after adds to its padding
            fmt = qcell.format().toTableCellFormat()
            fmt.setBottomPadding(facts.format.bottomPadding() + after)
            qcell.setFormat(fmt)
        else:
            fmt = _padded(qcell, facts.format, before, after)
            if row_height:
                fmt.setProperty(ROW_HEIGHT, row_height * TWIPS)
                if facts.top_aligned:  # else noted already
                    self.aligned_cells.append(qcell.firstPosition())
            qcell.setFormat(fmt)

    def _edge_spacing(
        self, qcell: QTextTableCell, after: int, first_record: int | None, table_style: str | None
    ) -> tuple[float, float]:
        """The space before (LU) of a cell's first paragraph (``self.records[first_record]``;
        None: the text written continues the cell, whose first paragraph stays) and the space
        after of its last (``after``, twips), automatic spacing left out: what the cell's
        padding carries (see :func:`_padded`)."""
        if after == _AUTO_SPACING and self._auto_spacing(qcell.lastCursorPosition(), -1, table_style)[1]:
            after = 0
        before = 0.0
        if first_record is not None:
            at = qcell.firstCursorPosition()
            before = at.block().blockFormat().topMargin()
            if before == _AUTO_SPACING * TWIPS and self._auto_spacing(at, first_record, table_style)[0]:
                before = 0.0
        return before, after * TWIPS

    def _auto_spacing(self, at: QTextCursor, index: int, table_style: str | None) -> tuple[bool, bool]:
        """Whether the paragraph of ``self.records[index]`` asks for automatic space before and
        after (``w:beforeAutospacing``, ``w:afterAutospacing``); (False, False) when that record
        is not the paragraph of the block at ``at`` (a cell opening or ending with a nested table).

        LibreOffice, as Word, leaves automatic spacing out at the top and the foot of a cell.
        """
        if not -len(self.records) <= index < len(self.records):
            return False, False
        record = self.records[index]
        block = at.block()
        p = record.element
        if p is None or not block.position() <= record.start < block.position() + block.length():
            return False, False
        props = self.paragraph_props(p, table_style, True).props
        return props.before_auto, props.after_auto

    def _facts(self, cell_format: QTextTableCellFormat, padding: int) -> _CellFacts:
        """The :class:`_CellFacts` of a shared cell format, read once per format (equal cells
        share one): asking Qt for each cell's padding, borders and shading cost more than the
        rest of writing a short cell. ``padding``: the table's (twips), for a side that states
        none (cells share a format only within tables of the same margins)."""
        found = self._cell_facts.get(id(cell_format))
        if found is None:
            found = self._cell_facts[id(cell_format)] = _CellFacts(cell_format, padding * TWIPS)
        return found

    def _grid(self, tbl: etree._Element) -> TableGrid:
        """The table's grid, computed once even when the table is built in parts."""
        if self._last_grid is None or self._last_grid[0] is not tbl:
            self._last_grid = (tbl, TableGrid(tbl, keep_row(self.ctx.mode)))
        return self._last_grid[1]


class _CellFacts:
    """What writing a cell's content reads from its format: alignment, shading, padding, borders.

    Keeps the format alive, so the ``id`` a shared format is filed under stays its own.
    """

    __slots__ = ("format", "top_aligned", "dark", "left_padding", "right_padding", "borders")

    def __init__(self, cell_format: QTextTableCellFormat, padding: float) -> None:
        self.format = cell_format
        self.top_aligned = is_top_aligned(cell_format)
        self.dark = _dark(cell_format.background())
        # a side stating no padding has the table's (see TableFormats.table_format)
        left, right = QTextFormat.Property.TableCellLeftPadding, QTextFormat.Property.TableCellRightPadding
        self.left_padding = cell_format.leftPadding() if cell_format.hasProperty(left) else padding
        self.right_padding = cell_format.rightPadding() if cell_format.hasProperty(right) else padding
        #: the left and right borders' widths together
        self.borders = cell_format.leftBorder() + cell_format.rightBorder()


def _row_heights(grid: TableGrid, cells: list[tuple[GridCell, int, int]], stop: int) -> dict[int, int]:
    """The rows that state a height (``w:trHeight``, twips): ``id`` of the cell that is to make
    each as tall (its first shown cell within the row alone) -> the height. ``cells``: the
    grid cells written, with their Qt column and span; ``stop``: the row after the last."""
    found: dict[int, int] = {}
    for cell, _column, _span in cells:
        height = grid.rows[cell.row].height
        if height and not cell.covered and min(cell.row_span, stop - cell.row) == 1:
            found.setdefault(cell.row, id(cell))
    return {cell_id: grid.rows[row].height for row, cell_id in found.items()}


def _clear_empty_places(table: QTextTable, cells: list[tuple[GridCell, int, int]], first: int) -> None:
    """Give the Qt cells no Word cell fills (a row ending early, ``w:gridBefore``/``gridAfter``)
    no padding: a cell whose format states none has the table's cell padding, which is there
    for the sides of Word's cells (see :meth:`TableFormats.table_format`), and an empty place
    with it could make its row taller. ``cells``: the grid cells with their Qt column and span."""
    columns = table.columns()
    taken: list[set[int]] = [set() for _ in range(table.rows())]
    for cell, column, span in cells:
        taken[cell.row - first].update(range(column, column + span))
    for row, places in enumerate(taken):
        if len(places) < columns:
            for column in range(columns):
                if column not in places:
                    table.cellAt(row, column).setFormat(_BARE)


def _share_columns(table: QTextTable, widths: list[float], cell_width: float) -> None:
    """Give a table nested in a cell that spans columns its column widths as shares.

    Qt spreads the least width of a spanning cell's content evenly over the columns it spans and
    widens a column narrower than its share; a nested table with fixed columns asks for its whole
    width, so an 11,000-twip table in a cell spanning a 4,208- and a 6,924-twip column widened the
    first by 65 pt and pushed the second off the page (the Tubulars procedure's cover table).
    Shares ask only for what their text needs. Qt lays a nested table out in its cell's width
    (``cell_width``, LU) and takes the shares of that less the table's left margin and half its
    outer borders; each share is the column's width of what is left.
    """
    fmt = table.format()
    rows, last = table.rows(), table.columns() - 1
    left = max(table.cellAt(row, 0).format().toTableCellFormat().leftBorder() for row in range(rows))
    right = max(table.cellAt(row, last).format().toTableCellFormat().rightBorder() for row in range(rows))
    shared = cell_width - fmt.leftMargin() - round(left / 2) - round(right / 2)
    if shared <= 0:
        return
    fmt.setColumnWidthConstraints([QTextLength(_SHARE, 100 * width / shared) for width in widths])
    table.setFormat(fmt)


def _add_spacing_between(
    qcell: QTextTableCell, tc: etree._Element, records: list[RenderedBlock], first: int
) -> None:
    """Give each paragraph of a cell that follows another the other's space after on top of its
    own space before, as LibreOffice 7.4 spaces them, where Qt keeps the larger of the two.
    ``records[first:]``: the paragraphs written for the cell (its nested tables' ones too, left
    alone); a cell of one paragraph, most cells, asks Qt nothing."""
    own = [r for r in records[first:] if r.element is not None and r.element.getparent() is tc]
    if len(own) < 2:
        return
    document = qcell.firstCursorPosition().document()
    last: QTextBlock | None = None  # the last block of the cell's paragraph before
    for record in own:
        block = document.findBlock(record.start)
        if last is not None and last.next() == block:
            below = last.blockFormat().bottomMargin()
            fmt = block.blockFormat()
            if below and fmt.topMargin():
                fmt.setTopMargin(fmt.topMargin() + below)
                QTextCursor(block).setBlockFormat(fmt)
        last = document.findBlock(record.end)


def _padded(
    qcell: QTextTableCell, own: QTextTableCellFormat, before: float, after: float
) -> QTextTableCellFormat:
    """The format of a shown cell: ``own`` with its first paragraph's space before and its last
    one's space after added to its top and bottom padding, and the paragraph mark an empty cell
    was given (see the builder's ``_mark_empty_cell_block``).

    LibreOffice 7.4 lays a cell's paragraphs out inside the cell, spacing included: the first
    line starts the first paragraph's space before below the cell margin, the row ends the last
    paragraph's space after below the last line, and a centred or bottom-aligned cell places
    the spaced paragraphs as a whole. Qt drops the top margin of a cell's first block and the
    bottom margin of its last one; as padding the space is kept, and Qt's vertical alignment
    of the content inside the padding puts the lines where LibreOffice's are.
    """
    fmt = QTextTableCellFormat(own)
    if before:
        fmt.setTopPadding(own.topPadding() + before)
    if after:
        fmt.setBottomPadding(own.bottomPadding() + after)
    fmt.merge(qcell.format())  # the mark's font, if any (the cell held no format before)
    return fmt


def _dark(brush: QBrush) -> bool:
    """A cell shading dark enough for Word to draw automatic-colour text white."""
    if brush.style() == _NO_BRUSH:
        return False
    return cell_is_dark(brush.color().name()[1:])
