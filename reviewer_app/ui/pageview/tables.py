"""Word tables as QTextTable geometry and cell formats.

The grid (rows, grid columns, spans, merges, widths) is :class:`reviewer_app.docx.table_grid.TableGrid`,
read with the rows the markup mode shows (:func:`keep_row`); Qt wants a rectangular table and
explicit merges, which the builder makes from it before any cell is filled (merging later would
move content). This module turns Word's table and cell properties into Qt formats.

Borders resolve cell (``w:tcBorders``) → table (``w:tblBorders``, ``insideH``/``insideV`` for
inner edges) → table style, and are drawn per cell with Qt's collapsed borders.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lxml import etree
from PySide6.QtGui import (
    QBrush,
    QColor,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrameFormat,
    QTextLength,
    QTextTable,
    QTextTableCell,
    QTextTableCellFormat,
    QTextTableFormat,
)

from ...docx.format_props import Border, element_key, parse_border
from ...docx.format_resolver import FormatResolver
from ...docx.table_grid import DEFAULT_CELL_MARGINS, GridCell, GridRow, TableGrid, read_margins
from ...docx.xmlutil import W, first_child
from .pages import line_top
from .qformats import TWIPS

_BORDER_STYLES = {
    "single": QTextFrameFormat.BorderStyle.BorderStyle_Solid,
    "thick": QTextFrameFormat.BorderStyle.BorderStyle_Solid,
    "double": QTextFrameFormat.BorderStyle.BorderStyle_Double,
    "dotted": QTextFrameFormat.BorderStyle.BorderStyle_Dotted,
    "dashed": QTextFrameFormat.BorderStyle.BorderStyle_Dashed,
    "dashSmallGap": QTextFrameFormat.BorderStyle.BorderStyle_Dashed,
    "dotDash": QTextFrameFormat.BorderStyle.BorderStyle_DotDash,
    "dotDotDash": QTextFrameFormat.BorderStyle.BorderStyle_DotDotDash,
    "inset": QTextFrameFormat.BorderStyle.BorderStyle_Inset,
    "outset": QTextFrameFormat.BorderStyle.BorderStyle_Outset,
}
_TCPR, _TCMAR = W + "tcPr", W + "tcMar"
_TBL_BORDERS, _TBL_CELL_MAR = W + "tblBorders", W + "tblCellMar"
_FIXED = QTextLength.Type.FixedLength
#: tcPr children that do not change how a cell is drawn.
_TCPR_SKIP = frozenset(
    W + t for t in ("tcW", "gridSpan", "vMerge", "hMerge", "tcPrChange", "cellIns", "cellDel")
)


def keep_row(mode: str) -> Callable[[GridRow], bool]:
    """Which rows a markup mode shows: never hidden rows; with changes accepted (``none``) no
    tracked row deletion, with changes rejected (``original``) no tracked row insertion."""

    def keep(row: GridRow) -> bool:
        if row.hidden:
            return False
        if mode == "none":
            return row.deleted is None
        if mode == "original":
            return row.inserted is None
        return True

    return keep


def cell_is_dark(fill: str | None) -> bool:
    """True when text in Word's automatic colour turns white on this shading (``RRGGBB``)."""
    if not fill or len(fill) != 6 or fill == "auto":
        return False
    try:
        red, green, blue = int(fill[0:2], 16), int(fill[2:4], 16), int(fill[4:6], 16)
    except ValueError:
        return False
    return 0.299 * red + 0.587 * green + 0.114 * blue < 110


def table_style_id(tbl: etree._Element) -> str | None:
    """The ``w:tblStyle`` a table names (None for the document's default table style)."""
    tblpr = tbl.find(W + "tblPr")
    style = tblpr.find(W + "tblStyle") if tblpr is not None else None
    return style.get(W + "val") if style is not None else None


def _table_borders(
    tblpr: etree._Element | None, resolver: FormatResolver, style_id: str | None
) -> dict[str, Border | None]:
    """Table-level borders: the style's ``w:tblBorders`` overridden side by side by the table's own."""
    found: dict[str, Border | None] = {}
    chain = resolver.styles.chain_elements(style_id)
    sources = [s.find(f"{W}tblPr/{W}tblBorders") for s in reversed(chain)]
    sources.append(first_child(tblpr, _TBL_BORDERS) if tblpr is not None else None)
    for borders in sources:
        if borders is None:
            continue
        for side in borders:
            if isinstance(side.tag, str):
                name = side.tag[len(W) :]
                found[{"start": "left", "end": "right"}.get(name, name)] = parse_border(side)
    return found


class TableFormats:
    """Formats of one table: the QTextTableFormat and a cell format per grid cell.

    ``available`` is the width (twips) of the text column the table sits in (the page's, or a
    cell's for a nested table): percentage widths and alignment are measured against it.
    The table's border sits at ``w:tblInd`` (Word 2013's rule; older Word put the first cell's
    text there, which moves the NVCA certificate's pages in a way its footnote placement does
    not yet survive). Every cell of a row gets the largest top and bottom margin its row's cells
    state (:meth:`row_margins`).
    """

    def __init__(
        self,
        grid: TableGrid,
        resolver: FormatResolver,
        style_id: str | None,
        available: int,
        cache: dict[Any, Any] | None = None,
    ) -> None:
        self.grid = grid
        self._cache = cache if cache is not None else {}
        tblpr = grid.tblpr
        own = (
            (element_key(first_child(tblpr, _TBL_BORDERS)), element_key(first_child(tblpr, _TBL_CELL_MAR)))
            if tblpr is not None
            else ((), ())
        )
        # what a table's style and its own borders and margins give is the same for every table
        # stating the same: a long contract's hundreds of tables look it up once
        found = self._cache.get(("table", style_id, own))
        if found is None:
            borders = _table_borders(tblpr, resolver, style_id)
            margins = dict(DEFAULT_CELL_MARGINS)
            style = resolver.style(style_id)
            if style is not None:
                read_margins(style.find(f"{W}tblPr/{W}tblCellMar"), margins)
            if tblpr is not None:
                read_margins(first_child(tblpr, _TBL_CELL_MAR), margins)
            # the table-wide part of every cell's cache key, reduced to one small int: hashing
            # the borders for each of a long table's cells would cost more than the lookup saves
            table_key = (tuple(sorted(borders.items())), tuple(sorted(margins.items())))
            key = self._cache.setdefault(("table", table_key), len(self._cache))
            found = self._cache[("table", style_id, own)] = (borders, margins, key)
        self.borders: dict[str, Border | None] = found[0]
        self.margins: dict[str, int] = found[1]
        self._key: int = found[2]
        #: the padding (twips) of a cell side that states none: the table's left cell margin
        #: (see :meth:`table_format`)
        self.padding = self.margins["left"]
        self.rows = len(grid.rows)
        self.columns = max(1, grid.column_count)
        #: grid column widths in layout units
        self.widths = [max(1, w) * TWIPS for w in grid.column_widths(available)]
        #: the Qt column of each grid column (see :func:`_qt_columns`), and the Qt columns' widths
        self.qt_columns = _qt_columns(grid, self.widths)
        self.qt_widths = [0.0] * (self.qt_columns[-1] + 1 if self.qt_columns else 1)
        for column, width in zip(self.qt_columns, self.widths, strict=True):
            self.qt_widths[column] += width
        self.left = grid.left_edge(available, 0) * TWIPS
        self._row_margins: dict[int, tuple[int, int]] = {}

    def table_format(self, page_break: bool, header_rows: int) -> QTextTableFormat:
        """Fixed column widths, no spacing (Word's collapsed borders), placed at the table's left edge.

        The cell padding is the one of a cell side whose format states none: most cells' left
        and right margins are the table's, and leaving them out of the cell formats keeps those
        short (Qt's table layout copies a cell's whole format each time it reads the cell, a
        dozen times per cell and layout).
        """
        key = ("table format", self.padding, self.left, *self.qt_widths)
        shared = self._cache.get(key)  # tables of the same columns share it (a copy is cheap)
        if shared is None:
            shared = self._cache[key] = QTextTableFormat()
            shared.setBorderCollapse(True)
            shared.setBorder(0)
            shared.setCellSpacing(0)
            shared.setCellPadding(self.padding * TWIPS)
            shared.setMargin(0)
            shared.setColumnWidthConstraints([QTextLength(_FIXED, w) for w in self.qt_widths])
            shared.setWidth(QTextLength(_FIXED, sum(self.qt_widths)))
            shared.setLeftMargin(self.left)
        fmt = QTextTableFormat(shared)
        if header_rows:
            fmt.setHeaderRowCount(header_rows)
        if page_break:
            fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        return fmt

    def qt_span(self, cell: GridCell) -> tuple[int, int]:
        """The Qt column a shown cell starts in and how many Qt columns it spans."""
        first = self.qt_columns[cell.col]
        last = min(cell.col + cell.column_span, len(self.qt_columns)) - 1
        return first, self.qt_columns[last] - first + 1

    def span_width(self, cell: GridCell) -> float:
        """The width (LU) of the grid columns a shown cell covers, borders to borders."""
        return sum(self.widths[cell.col : cell.col + cell.column_span])

    def row_margins(self, row: int) -> tuple[int, int]:
        """The top and bottom margins (twips) of the cells of grid row ``row``: the largest any of
        its cells states. Word and LibreOffice start the text of every cell of a row as far below
        the row's top as the cell with the largest top margin does (and end it likewise), so a
        centred drafting note beside a label cell with 7.2 pt margins does not touch the border."""
        found = self._row_margins.get(row)
        if found is None:
            top, bottom = self.margins["top"], self.margins["bottom"]
            for cell in self.grid.rows[row].cells:
                tcpr = _tcpr(cell.tc)
                if tcpr is not None and (tcmar := first_child(tcpr, _TCMAR)) is not None:
                    margins = dict(self.margins)
                    read_margins(tcmar, margins)
                    top, bottom = max(top, margins["top"]), max(bottom, margins["bottom"])
            found = self._row_margins[row] = (top, bottom)
        return found

    def cell_format(self, cell: GridCell) -> QTextTableCellFormat:
        """The cell's borders, shading, vertical alignment and padding (shared between equal cells)."""
        tcpr = _tcpr(cell.tc)
        last_row = cell.row + cell.row_span >= self.rows
        last_col = cell.col + cell.column_span >= self.columns
        top = self.row_margins(cell.row)[0]
        bottom = self.row_margins(min(cell.row + cell.row_span, self.rows) - 1)[1]
        key = (
            element_key(tcpr, _TCPR_SKIP),
            cell.row == 0,
            last_row,
            cell.col == 0,
            last_col,
            top,
            bottom,
            self._key,
        )
        found = self._cache.get(key)
        if found is None:
            found = self._cell_format(tcpr, cell.row == 0, last_row, cell.col == 0, last_col)
            found.setTopPadding(top * TWIPS)
            found.setBottomPadding(bottom * TWIPS)
            self._cache[key] = found
        return found

    def _cell_format(
        self, tcpr: etree._Element | None, first_row: bool, last_row: bool, first_col: bool, last_col: bool
    ) -> QTextTableCellFormat:
        """Borders, shading, vertical alignment, left and right padding (top and bottom: the row's).

        Little that Qt has as its default is stated (see :meth:`table_format`): a black border
        has no brush, which Qt draws black; a left or right margin equal to the table's is the
        table's cell padding.
        """
        fmt = QTextTableCellFormat()
        own: dict[str, Border | None] = {}
        margins = dict(self.margins)
        if tcpr is not None:
            tcb = tcpr.find(W + "tcBorders")
            if tcb is not None:
                for side in tcb:
                    if isinstance(side.tag, str):
                        name = side.tag[len(W) :]
                        own[{"start": "left", "end": "right"}.get(name, name)] = parse_border(side)
            read_margins(tcpr.find(W + "tcMar"), margins)
            shd = tcpr.find(W + "shd")
            fill = shd.get(W + "fill") if shd is not None else None
            if fill and fill != "auto" and len(fill) == 6:
                fmt.setBackground(QBrush(QColor("#" + fill)))
            valign = tcpr.find(W + "vAlign")
            value = valign.get(W + "val") if valign is not None else None
            if value == "center":
                fmt.setVerticalAlignment(QTextTableCellFormat.VerticalAlignment.AlignMiddle)
            elif value == "bottom":
                fmt.setVerticalAlignment(QTextTableCellFormat.VerticalAlignment.AlignBottom)
        sides = {
            "top": own["top"] if "top" in own else self.borders.get("top" if first_row else "insideH"),
            "bottom": own["bottom"]
            if "bottom" in own
            else self.borders.get("bottom" if last_row else "insideH"),
            "left": own["left"] if "left" in own else self.borders.get("left" if first_col else "insideV"),
            "right": own["right"] if "right" in own else self.borders.get("right" if last_col else "insideV"),
        }
        for side, border in sides.items():
            setter = side.capitalize()
            if border is None:
                # laid out as no border either way, but Qt draws the ends of the borders
                # beside a side stated 0 wide otherwise than beside one stating nothing
                getattr(fmt, f"set{setter}Border")(0)
                continue
            getattr(fmt, f"set{setter}Border")(max(2.5, border.size * 1.25))
            getattr(fmt, f"set{setter}BorderStyle")(
                _BORDER_STYLES.get(border.style, _BORDER_STYLES["single"])
            )
            if border.color is not None and border.color != "000000":
                getattr(fmt, f"set{setter}BorderBrush")(QBrush(QColor("#" + border.color)))
        if margins["left"] != self.padding:
            fmt.setLeftPadding(margins["left"] * TWIPS)
        if margins["right"] != self.padding:
            fmt.setRightPadding(margins["right"] * TWIPS)
        return fmt


def _tcpr(tc: etree._Element) -> etree._Element | None:
    """A cell's ``w:tcPr``: its first child as the schema orders it, else searched (lxml's
    ``find`` costs a path lookup for each of a long contract's thousands of cells)."""
    first = tc[0] if len(tc) else None
    if first is not None and first.tag == _TCPR:
        return first
    return first_child(tc, _TCPR)


#: grid columns narrower than this (LU, one point) that cells only span into are joined to the one before
_SLIVER = 10.0


def _qt_columns(grid: TableGrid, widths: list[float]) -> list[int]:
    """The Qt column of each grid column: a sliver that cells only span into joins the column before.

    Word's grids carry slivers (a 10-twip column that only ``w:gridAfter`` and cells spanning
    into it cover). Qt spreads a spanning cell's minimum width evenly over its columns and then
    widens any column narrower than its share, so a sliver under a cell with a long word grew
    to a tenth of the page and pushed the table past the right margin. A row that leaves the
    sliver empty (``w:gridAfter``) ends that much wider instead, by less than :data:`_SLIVER`;
    a wider sliver is kept (joining it would widen every such row by more than a point).
    """
    starts = {cell.col for cell in grid.cells()}
    spanned = {col for cell in grid.cells() for col in range(cell.col + 1, cell.col + cell.column_span)}
    mapping: list[int] = []
    column = -1
    for index, width in enumerate(widths):
        if index == 0 or index in starts or index not in spanned or width >= _SLIVER:
            column += 1
        mapping.append(column)
    return mapping


_TOP = QTextTableCellFormat.VerticalAlignment.AlignTop
_OFF_TOP = (
    QTextTableCellFormat.VerticalAlignment.AlignMiddle,
    QTextTableCellFormat.VerticalAlignment.AlignBottom,
)


def is_top_aligned(fmt: QTextTableCellFormat) -> bool:
    """True unless the cell is centred or bottom-aligned: Qt sets a cell that states no
    alignment (``AlignNormal``, most cells) at its top, so only the two others need a look
    once laid out (see :func:`top_align_split_rows`)."""
    return fmt.verticalAlignment() not in _OFF_TOP


#: on a cell's format, the height (LU) its row must reach (``w:trHeight``), for
#: :func:`fit_row_heights` to give the cell once laid out; the writer notes the cell's
#: position with the aligned cells'
ROW_HEIGHT = QTextFormat.Property.UserProperty + 30
#: on such a cell's format, the padding (LU) the last fit added above and below its text, taken
#: off again before the cell is measured anew (after an edit in it)
_FIT_ABOVE = QTextFormat.Property.UserProperty + 31
_FIT_BELOW = QTextFormat.Property.UserProperty + 32


def _cells_at(document: QTextDocument, positions: list[int]) -> list[tuple[QTextTable, QTextTableCell]]:
    """The table cells holding ``positions`` (positions outside a table are left out)."""
    cursor = QTextCursor(document)
    cells: list[tuple[QTextTable, QTextTableCell]] = []
    for position in positions:
        cursor.setPosition(position)
        table = cursor.currentTable()
        if table is not None:
            cells.append((table, table.cellAt(position)))
    return cells


def fit_row_heights(document: QTextDocument, positions: list[int]) -> None:
    """Make the rows that state a height (:data:`ROW_HEIGHT`) of the cells at ``positions`` that tall.

    Done once Qt has laid the rows out and before the pages are settled, so the keep and note
    rules judge the rows at their height; done again for a cell whose paragraph was rebuilt, so
    an edit that adds or drops a line keeps the row at its stated height.
    """
    formats = [(cell, cell.format().toTableCellFormat()) for _table, cell in _cells_at(document, positions)]
    fitted = [(cell, fmt) for cell, fmt in formats if fmt.hasProperty(ROW_HEIGHT)]
    if not fitted:
        return
    doc_layout = document.documentLayout()
    cursor = QTextCursor(document)
    cursor.beginEditBlock()  # every row measured before any changes: Qt re-lays out once
    for cell, fmt in [(cell, _fit_row(document, doc_layout, cell, fmt)) for cell, fmt in fitted]:
        cell.setFormat(fmt)
    cursor.endEditBlock()


def top_align_split_rows(document: QTextDocument, positions: list[int], page_height: float) -> None:
    """Align to the top the cells at ``positions`` whose row Qt has split over two pages.

    Qt centres (or bottom-aligns) a cell in its row's whole height, the gap between the pages
    included, so the text of a short centred cell beside a long one lands in the page margins or
    above the next page's header. Word sets the part of a split row on each page from its top;
    aligning such a cell to the top puts its text where Word's first line is.
    """
    doc_layout = document.documentLayout()
    cells = [
        (table, cell, cell.format().toTableCellFormat()) for table, cell in _cells_at(document, positions)
    ]
    spans: dict[int, bool] = {}  # table's first position -> it is on more than one page
    split: list[QTextTableCell] = []
    for table, cell, fmt in cells:
        if is_top_aligned(fmt):
            continue  # noted for its row's height only
        key = table.firstPosition()
        if key not in spans:  # most tables sit on one page: their rows need no look
            rect = doc_layout.frameBoundingRect(table)
            spans[key] = int(rect.top() // page_height) != int(rect.bottom() // page_height)
        if spans[key] and cell.isValid() and _row_split(document, doc_layout, table, cell, page_height):
            split.append(cell)
    if not split:
        return
    cursor = QTextCursor(document)
    cursor.beginEditBlock()  # formats set after every look, in one edit: Qt re-lays out once, not per cell
    for cell in split:
        fmt = cell.format().toTableCellFormat()
        fmt.setVerticalAlignment(_TOP)
        cell.setFormat(fmt)
    cursor.endEditBlock()


def _fit_row(
    document: QTextDocument, doc_layout: Any, cell: QTextTableCell, fmt: QTextTableCellFormat
) -> QTextTableCellFormat:
    """``fmt``, the format of a laid-out cell of a row that must be :data:`ROW_HEIGHT` tall
    (Word's ``w:trHeight``, at least or exactly), with the padding that makes the cell that tall.

    Qt's table rows are as tall as their tallest cell and take no height of their own; a cell
    made as tall as its row must be makes the row so (taller cells beside it still win, where
    Word's exact rule would clip them). The cell's text stays where its alignment puts it in
    the row: the padding goes below a top-aligned cell's text, half above a centred one's and
    above a bottom-aligned one's.
    """
    height = fmt.doubleProperty(ROW_HEIGHT)
    fmt.setTopPadding(fmt.topPadding() - fmt.doubleProperty(_FIT_ABOVE))
    fmt.setBottomPadding(fmt.bottomPadding() - fmt.doubleProperty(_FIT_BELOW))
    top = doc_layout.blockBoundingRect(document.findBlock(cell.firstPosition())).top()
    bottom = doc_layout.blockBoundingRect(document.findBlock(cell.lastPosition())).bottom()
    # Qt sets collapsed borders half inside the cell
    now = bottom - top + fmt.topPadding() + fmt.bottomPadding() + (fmt.topBorder() + fmt.bottomBorder()) / 2
    extra = max(0.0, height - now)
    alignment = fmt.verticalAlignment()
    above = extra if alignment == _OFF_TOP[1] else extra / 2 if alignment == _OFF_TOP[0] else 0.0
    fmt.setTopPadding(fmt.topPadding() + above)
    fmt.setBottomPadding(fmt.bottomPadding() + extra - above)
    fmt.setProperty(_FIT_ABOVE, above)
    fmt.setProperty(_FIT_BELOW, extra - above)
    return fmt


def _row_split(
    document: QTextDocument, doc_layout: Any, table: QTextTable, target: QTextTableCell, page_height: float
) -> bool:
    """True when the rows ``target`` spans have lines on more than one page (its own cell aside:
    Qt's offset is what misplaces it)."""
    pages: set[int] = set()
    last_row = target.row() + target.rowSpan()
    for row in range(target.row(), last_row):
        for column in range(table.columns()):
            cell = table.cellAt(row, column)
            if cell.row() != row or cell.column() != column or cell == target:
                continue
            if cell.row() + cell.rowSpan() > last_row:
                continue
            for position, index in ((cell.firstPosition(), 0), (cell.lastPosition(), -1)):
                top = line_top(doc_layout, document.findBlock(position), index)
                if top is not None:
                    pages.add(int(top // page_height))
    return len(pages) > 1
