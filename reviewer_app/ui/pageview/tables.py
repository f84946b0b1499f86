"""Word tables as QTextTable geometry and cell formats.

Word describes a table as rows of cells placed on a shared column grid (``w:tblGrid``); a cell
may span grid columns (``w:gridSpan``) or continue the cell above (``w:vMerge``). Qt wants a
rectangular table and explicit merges, so :func:`table_grid` turns the rows into grid positions
with row and column spans once, before any cell is filled; merging later would move content.

Borders resolve cell (``w:tcBorders``) → table (``w:tblBorders``, ``insideH``/``insideV`` for
inner edges) → table style, and are drawn per cell with Qt's collapsed borders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lxml import etree
from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QTextFormat,
    QTextFrameFormat,
    QTextLength,
    QTextTableCellFormat,
    QTextTableFormat,
)

from ...docx.table_grid import row_hidden, unwrap_children
from ...docx.xmlutil import W, int_attr, is_on
from .formatting import Border, FormatResolver, element_key, parse_border
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
#: tcPr children that do not change how a cell is drawn.
_TCPR_SKIP = frozenset(
    W + t for t in ("tcW", "gridSpan", "vMerge", "hMerge", "tcPrChange", "cellIns", "cellDel")
)
#: Word's default cell margins (twips): 0.08" left and right, none above and below.
_DEFAULT_MARGINS = {"top": 0, "bottom": 0, "left": 108, "right": 108}


@dataclass(slots=True)
class GridCell:
    """One Word cell placed on the grid; ``covered`` cells continue a vertical merge above."""

    element: etree._Element
    row: int
    column: int
    column_span: int
    row_span: int = 1
    covered: bool = False


@dataclass(slots=True)
class TableGrid:
    """The rectangular shape Qt needs: rows, grid columns, their widths (LU) and the cells."""

    rows: list[etree._Element]
    columns: int
    widths: list[float]
    cells: list[GridCell]
    header_rows: int


def _row_removed(tr: etree._Element, mode: str) -> bool:
    if mode == "all":
        return False
    trpr = tr.find(W + "trPr")
    if trpr is None:
        return False
    return trpr.find(W + ("del" if mode == "none" else "ins")) is not None


def cell_is_dark(fill: str | None) -> bool:
    """True when text in Word's automatic colour turns white on this shading (``RRGGBB``)."""
    if not fill or len(fill) != 6 or fill == "auto":
        return False
    try:
        red, green, blue = int(fill[0:2], 16), int(fill[2:4], 16), int(fill[4:6], 16)
    except ValueError:
        return False
    return 0.299 * red + 0.587 * green + 0.114 * blue < 110


def table_grid(tbl: etree._Element, mode: str = "all") -> TableGrid:
    """Place every visible cell of ``tbl`` on its grid.

    Hidden rows are left out (as in the snapshot), and so are tracked row deletions when the
    view shows changes accepted (``mode="none"``) and tracked row insertions when it shows
    them rejected (``mode="original"``).
    """
    rows = [tr for tr in unwrap_children(tbl, W + "tr") if not row_hidden(tr) and not _row_removed(tr, mode)]
    grid = tbl.find(W + "tblGrid")
    widths = (
        [max(0, int_attr(col, "w") or 0) * TWIPS for col in grid.iterchildren(W + "gridCol")]
        if grid is not None
        else []
    )
    cells: list[GridCell] = []
    open_merges: dict[int, GridCell] = {}
    columns = len(widths)
    header_rows = 0
    counting_header = True
    for r, tr in enumerate(rows):
        trpr = tr.find(W + "trPr")
        if counting_header and trpr is not None and is_on(trpr.find(W + "tblHeader")):
            header_rows += 1
        else:
            counting_header = False
        column = int_attr(trpr.find(W + "gridBefore"), "val") or 0 if trpr is not None else 0
        for tc in unwrap_children(tr, W + "tc"):
            tcpr = tc.find(W + "tcPr")
            span = max(1, int_attr(tcpr.find(W + "gridSpan"), "val") or 1) if tcpr is not None else 1
            vmerge = tcpr.find(W + "vMerge") if tcpr is not None else None
            cell = GridCell(tc, r, column, span)
            if vmerge is not None and (vmerge.get(W + "val") or "continue") == "continue":
                above = open_merges.get(column)
                if above is not None and above.row + above.row_span == r and above.column_span == span:
                    above.row_span += 1
                    cell.covered = True
            elif vmerge is not None:
                open_merges[column] = cell
            else:
                open_merges.pop(column, None)
            cells.append(cell)
            column += span
        columns = max(columns, column)
    if len(widths) < columns:
        known = sum(widths)
        fill = max(720.0, (4680.0 - known) / max(1, columns - len(widths)))
        widths.extend([fill] * (columns - len(widths)))
    widths = [w if w > 0 else 360.0 for w in widths[:columns]] or [4680.0]
    return TableGrid(rows, max(1, columns), widths, cells, header_rows)


def table_style_id(tbl: etree._Element) -> str | None:
    """The ``w:tblStyle`` a table names (None for the document's default table style)."""
    tblpr = tbl.find(W + "tblPr")
    style = tblpr.find(W + "tblStyle") if tblpr is not None else None
    return style.get(W + "val") if style is not None else None


def _table_borders(
    tbl: etree._Element, resolver: FormatResolver, style_id: str | None
) -> dict[str, Border | None]:
    """Table-level borders: the style's ``w:tblBorders`` overridden side by side by the table's own."""
    found: dict[str, Border | None] = {}
    chain: list[etree._Element] = []
    current, seen = style_id, set()
    while current and current not in seen:
        seen.add(current)
        style = resolver.style(current)
        if style is None:
            break
        chain.append(style)
        based = style.find(W + "basedOn")
        current = based.get(W + "val") if based is not None else None
    sources = [s.find(f"{W}tblPr/{W}tblBorders") for s in reversed(chain)]
    tblpr = tbl.find(W + "tblPr")
    sources.append(tblpr.find(W + "tblBorders") if tblpr is not None else None)
    for borders in sources:
        if borders is None:
            continue
        for side in borders:
            if isinstance(side.tag, str):
                name = side.tag[len(W) :]
                found[{"start": "left", "end": "right"}.get(name, name)] = parse_border(side)
    return found


def _margins(container: etree._Element | None, into: dict[str, int]) -> None:
    if container is None:
        return
    for side in container:
        if isinstance(side.tag, str) and side.get(W + "type") in (None, "dxa"):
            name = side.tag[len(W) :]
            name = {"start": "left", "end": "right"}.get(name, name)
            value = int_attr(side, "w")
            if name in into and value is not None:
                into[name] = max(0, value)


class TableFormats:
    """Formats of one table: the QTextTableFormat and a cell format per grid cell."""

    def __init__(
        self,
        tbl: etree._Element,
        grid: TableGrid,
        resolver: FormatResolver,
        style_id: str | None,
        cache: dict[Any, Any] | None = None,
    ) -> None:
        self.tbl = tbl
        self.grid = grid
        tblpr = tbl.find(W + "tblPr")
        self.borders = _table_borders(tbl, resolver, style_id)
        self.margins = dict(_DEFAULT_MARGINS)
        style = resolver.style(style_id)
        if style is not None:
            _margins(style.find(f"{W}tblPr/{W}tblCellMar"), self.margins)
        if tblpr is not None:
            _margins(tblpr.find(W + "tblCellMar"), self.margins)
        self.tblpr = tblpr
        self.rows = len(grid.rows)
        self._cache = cache if cache is not None else {}
        # the table-wide part of every cell's cache key, reduced to one small int: hashing the
        # borders for each of a long table's cells would cost more than the lookup saves
        table_key = (tuple(sorted(self.borders.items())), tuple(sorted(self.margins.items())))
        self._key = self._cache.setdefault(("table", table_key), len(self._cache))

    def table_format(self, page_break: bool) -> QTextTableFormat:
        fmt = QTextTableFormat()
        fmt.setBorderCollapse(True)
        fmt.setBorder(0)
        fmt.setCellSpacing(0)
        fmt.setCellPadding(0)
        fmt.setMargin(0)
        fmt.setColumnWidthConstraints(
            [QTextLength(QTextLength.Type.FixedLength, w) for w in self.grid.widths]
        )
        fmt.setWidth(QTextLength(QTextLength.Type.FixedLength, sum(self.grid.widths)))
        if self.grid.header_rows:
            fmt.setHeaderRowCount(self.grid.header_rows)
        tblpr = self.tblpr
        if tblpr is not None:
            jc = tblpr.find(W + "jc")
            value = jc.get(W + "val") if jc is not None else None
            if value == "center":
                fmt.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            elif value in ("right", "end"):
                fmt.setAlignment(Qt.AlignmentFlag.AlignRight)
            indent = int_attr(tblpr.find(W + "tblInd"), "w")
            if indent and (value in (None, "left", "start")):
                fmt.setLeftMargin(indent * TWIPS)
        if page_break:
            fmt.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        return fmt

    def cell_format(self, cell: GridCell) -> QTextTableCellFormat:
        """The cell's borders, shading, vertical alignment and padding (shared between equal cells)."""
        tcpr = cell.element.find(W + "tcPr")
        last_row = cell.row + cell.row_span >= self.rows
        last_col = cell.column + cell.column_span >= self.grid.columns
        key = (element_key(tcpr, _TCPR_SKIP), cell.row == 0, last_row, cell.column == 0, last_col, self._key)
        found = self._cache.get(key)
        if found is None:
            found = self._cell_format(tcpr, cell.row == 0, last_row, cell.column == 0, last_col)
            self._cache[key] = found
        return found

    def _cell_format(
        self, tcpr: etree._Element | None, first_row: bool, last_row: bool, first_col: bool, last_col: bool
    ) -> QTextTableCellFormat:
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
            _margins(tcpr.find(W + "tcMar"), margins)
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
                getattr(fmt, f"set{setter}Border")(0)
                continue
            getattr(fmt, f"set{setter}Border")(max(2.5, border.size * 1.25))
            getattr(fmt, f"set{setter}BorderStyle")(
                _BORDER_STYLES.get(border.style, _BORDER_STYLES["single"])
            )
            getattr(fmt, f"set{setter}BorderBrush")(QBrush(QColor("#" + (border.color or "000000"))))
        fmt.setTopPadding(margins["top"] * TWIPS)
        fmt.setBottomPadding(margins["bottom"] * TWIPS)
        fmt.setLeftPadding(margins["left"] * TWIPS)
        fmt.setRightPadding(margins["right"] * TWIPS)
        return fmt
