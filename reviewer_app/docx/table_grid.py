"""One model of a Word table's grid, read by the block model, the edit engine and the page view.

Word stores a table as rows of cells over a shared column grid (``w:tblGrid``): a cell covers
``w:gridSpan`` grid columns from where the cells before it (and ``w:gridBefore``) end, continues
the cell above it (``w:vMerge``), or, in old files, the cell before it (``w:hMerge``). Each reader
used to resolve that itself and they disagreed on the edge cases; :class:`TableGrid` resolves it
once, with the sizes the layout needs (``w:tblW``, ``w:tcW``, ``w:tblInd``, ``w:jc``, cell
margins, fixed or autofit) and the tracked row and cell insertions and deletions as plain data,
so a reader that shows a markup mode filters rows itself (``keep``). No Qt here.

Merge rule (the one Word applies): a ``vMerge`` cell that is not ``restart`` continues the cell
directly above it when that cell starts at the same grid column, covers the same columns and is
itself part of a vertical merge; otherwise it starts its own cell.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from lxml import etree

from .xmlutil import W, first_child, first_children, int_attr, is_on

_TR, _TC, _TRPR, _TCPR, _TBLPR = W + "tr", W + "tc", W + "trPr", W + "tcPr", W + "tblPr"
_SDT, _SDT_CONTENT, _CUSTOM_XML = W + "sdt", W + "sdtContent", W + "customXml"
_WRAPPERS = frozenset((_SDT, _CUSTOM_XML))
_TYPE, _W = W + "type", W + "w"
_SIDES = {"top": "top", "bottom": "bottom", "left": "left", "right": "right", "start": "left", "end": "right"}
#: Word's cell margins when neither the table, its style nor the cell states any (twips).
DEFAULT_CELL_MARGINS = {"top": 0, "bottom": 0, "left": 108, "right": 108}
#: Width of a grid column no ``w:gridCol`` or cell states (twips, one inch).
_UNSTATED_COLUMN = 1440


def unwrap_children(parent: etree._Element, wanted: str) -> list[etree._Element]:
    """Children tagged ``wanted``, looking through ``w:sdt``/``w:customXml`` wrappers.

    Rows and cells may sit inside content controls; every table reader must see them.
    """
    found: list[etree._Element] = []
    for child in parent:
        tag = child.tag
        if tag == wanted:
            found.append(child)
        elif tag in _WRAPPERS:
            found.extend(_unwrapped(child, wanted))
    return found


def _unwrapped(wrapper: etree._Element, wanted: str) -> list[etree._Element]:
    """The ``wanted`` children inside one ``w:sdt`` (its content) or ``w:customXml``."""
    if wrapper.tag == _SDT:
        content = first_child(wrapper, _SDT_CONTENT)
        return [] if content is None else unwrap_children(content, wanted)
    return unwrap_children(wrapper, wanted)


def row_hidden(tr: etree._Element) -> bool:
    """True for a ``w:trPr/w:hidden`` row, which readers skip so invisible text never shows."""
    trpr = tr.find(_TRPR)
    return trpr is not None and is_on(trpr.find(W + "hidden"))


@dataclass(frozen=True, slots=True)
class Measure:
    """A ``w:tblW``/``w:tcW``/``w:tblInd`` value: twips (``dxa``), a share (``pct``) or ``auto``."""

    value: float
    unit: str  # "dxa", "pct" (value is a fraction, 1.0 = 100 %), "auto" or "nil"

    def twips(self, available: int) -> int | None:
        """The width in twips against ``available`` (a share's base); None for ``auto``/``nil``."""
        if self.unit == "dxa":
            return int(self.value)
        if self.unit == "pct":
            return int(self.value * available)
        return None


def read_measure(el: etree._Element | None) -> Measure | None:
    """A width element as a :class:`Measure` (None when absent or unreadable).

    ``pct`` is stored in fiftieths of a percent (``5000`` = 100 %) or, in newer files, as
    ``"50%"``; a missing type means ``dxa``.
    """
    if el is None:
        return None
    return _measure(el.get(_TYPE) or "dxa", el.get(_W) or "")


@lru_cache(maxsize=1024)
def _measure(kind: str, raw: str) -> Measure | None:
    """A measure by its attributes, made once per value (a measure is immutable, and a long
    contract's thousands of cells state a few dozen widths)."""
    raw = raw.strip()
    if kind in ("auto", "nil"):
        return Measure(0, kind)
    try:
        if kind == "pct":
            share = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw) / 5000
            return Measure(share, "pct")
        return Measure(float(raw), "dxa")
    except ValueError:
        return None


def read_margins(container: etree._Element | None, into: dict[str, int]) -> None:
    """Cell margins stated by a ``w:tblCellMar``/``w:tcMar`` into ``into`` (twips, dxa only).

    Called in order of precedence (style, table, cell), each overriding side by side.
    """
    if container is None:
        return
    for side in container:
        if not isinstance(side.tag, str) or side.get(W + "type") not in (None, "dxa"):
            continue
        name = _SIDES.get(side.tag[len(W) :])
        value = int_attr(side, "w")
        if name is not None and value is not None:
            into[name] = max(0, value)


@dataclass(slots=True, eq=False)
class GridCell:
    """One physical cell: where it sits on the grid and which shown cell it belongs to.

    ``top`` is the cell whose content shows in this place: the cell itself, or, for a cell that
    continues a merge (``covered``), the cell that starts it. On a starting cell ``row_span`` and
    ``column_span`` give the shown extent; ``span`` is always the cell's own ``w:gridSpan``.
    """

    tc: etree._Element
    row: int
    col: int
    span: int
    vmerge: str | None  # "restart", "continue" or None
    #: the cell's ``w:tcW``, read into :attr:`width` only when a layout asks (the block walk never does)
    width_element: etree._Element | None = None
    inserted: bool = False  # w:cellIns
    deleted: bool = False  # w:cellDel
    row_span: int = 1
    column_span: int = 0
    #: None while the cell shows its own content: pointing at itself would make every cell a cycle
    _top: GridCell | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.column_span = self.column_span or self.span

    @property
    def top(self) -> GridCell:
        return self if self._top is None else self._top

    @top.setter
    def top(self, cell: GridCell) -> None:
        self._top = None if cell is self else cell

    @property
    def width(self) -> Measure | None:
        """The width the cell states (``w:tcW``), None when it states none."""
        return read_measure(self.width_element)

    @property
    def end(self) -> int:
        """The grid column after the cell's own columns."""
        return self.col + self.span

    @property
    def covered(self) -> bool:
        """True when the cell continues a merge: its place shows ``top``'s content."""
        return self._top is not None


@dataclass(slots=True, eq=False)
class GridRow:
    """One ``w:tr``: its cells, the grid columns left empty before and after, and its marks."""

    tr: etree._Element
    index: int  # position among all the table's rows (kept or not)
    cells: list[GridCell]
    before: int = 0
    after: int = 0
    hidden: bool = False
    header: bool = False  # w:tblHeader: repeated at the top of each page
    cant_split: bool = False
    height: int = 0  # w:trHeight (twips); 0 = as tall as the content
    height_rule: str = "atLeast"  # or "exact"
    inserted: etree._Element | None = None  # trPr/w:ins, a tracked row insertion
    deleted: etree._Element | None = None  # trPr/w:del, a tracked row deletion


_GRID_BEFORE, _GRID_AFTER, _HIDDEN = W + "gridBefore", W + "gridAfter", W + "hidden"
_INS, _DEL = W + "ins", W + "del"
_TBL_HEADER, _CANT_SPLIT, _TR_HEIGHT = W + "tblHeader", W + "cantSplit", W + "trHeight"
_GRID_SPAN, _VMERGE, _HMERGE, _TCW = W + "gridSpan", W + "vMerge", W + "hMerge", W + "tcW"
_CELL_INS, _CELL_DEL, _VAL, _HRULE = W + "cellIns", W + "cellDel", W + "val", W + "hRule"


def _read_row(tr: etree._Element, index: int, row: int) -> GridRow:
    out = GridRow(tr, index, [])
    trpr = None
    tcs: list[etree._Element] = []
    for child in tr:  # the row's properties and cells in one pass (as unwrap_children finds them)
        tag = child.tag
        if tag == _TC:
            tcs.append(child)
        elif tag == _TRPR:
            trpr = trpr if trpr is not None else child
        elif tag in _WRAPPERS:
            tcs.extend(_unwrapped(child, _TC))
    if trpr is not None:
        props = first_children(trpr)
        out.before = max(0, int_attr(props.get(_GRID_BEFORE), "val") or 0)
        out.after = max(0, int_attr(props.get(_GRID_AFTER), "val") or 0)
        out.hidden = is_on(props.get(_HIDDEN))
        out.header = is_on(props.get(_TBL_HEADER))
        out.cant_split = is_on(props.get(_CANT_SPLIT))
        height = props.get(_TR_HEIGHT)
        out.height = max(0, int_attr(height, "val") or 0)
        if height is not None and height.get(_HRULE) == "exact":
            out.height_rule = "exact"
        elif height is not None and height.get(_HRULE) == "auto":
            out.height = 0
        out.inserted, out.deleted = props.get(_INS), props.get(_DEL)
    cells = out.cells
    column = out.before
    for tc in tcs:
        first = tc[0] if len(tc) else None
        tcpr = first if first is None or first.tag == _TCPR else first_child(tc, _TCPR)
        span, vmerge, hmerge, width, inserted, deleted = 1, None, None, None, False, False
        if tcpr is not None:
            for child in tcpr:
                tag = child.tag
                if tag == _TCW:
                    width = child
                elif tag == _GRID_SPAN:
                    span = max(1, int_attr(child, "val") or 1)
                elif tag == _VMERGE:
                    vmerge = "restart" if child.get(_VAL) == "restart" else "continue"
                elif tag == _HMERGE:
                    hmerge = "restart" if child.get(_VAL) == "restart" else "continue"
                elif tag == _CELL_INS:
                    inserted = True
                elif tag == _CELL_DEL:
                    deleted = True
        cell = GridCell(tc, row, column, span, vmerge, width, inserted, deleted, 1, span)
        if hmerge == "continue" and vmerge is None and cells:
            previous = cells[-1].top
            cell.top = previous
            previous.column_span = cell.end - previous.col
        cells.append(cell)
        column += span
    return out


class TableGrid:
    """The grid of one ``w:tbl`` (a nested table has its own).

    ``keep`` chooses the rows that exist for this reader (the page view leaves out hidden rows
    and the rows a markup mode removes); merges are resolved over the kept rows only.
    """

    def __init__(self, tbl: etree._Element, keep: Callable[[GridRow], bool] | None = None) -> None:
        self.tbl = tbl
        tblpr = first_child(tbl, _TBLPR)
        self.tblpr = tblpr
        grid = first_child(tbl, W + "tblGrid")
        cols = grid.iterchildren(W + "gridCol") if grid is not None else ()
        self.widths: list[int] = [max(0, int_attr(c, "w") or 0) for c in cols]
        self.rows: list[GridRow] = []
        for index, tr in enumerate(unwrap_children(tbl, _TR)):
            row = _read_row(tr, index, len(self.rows))
            if keep is None or keep(row):
                self.rows.append(row)
        self._merge()
        props = first_children(tblpr) if tblpr is not None else {}
        self.table_width = read_measure(props.get(W + "tblW"))
        self.indent = read_measure(props.get(W + "tblInd"))
        jc = props.get(W + "jc")
        self.jc: str | None = jc.get(W + "val") if jc is not None else None
        layout = props.get(W + "tblLayout")
        self.fixed = layout is not None and layout.get(W + "type") == "fixed"

    def _merge(self) -> None:
        for r in range(1, len(self.rows)):
            for cell in self.rows[r].cells:
                if cell.vmerge != "continue" or cell.covered:
                    continue
                above = self.at(r - 1, cell.col)
                if above is None or above.col != cell.col or above.span != cell.span or above.vmerge is None:
                    continue
                top = above.top
                if top.row + top.row_span != r:
                    continue  # the cell above is covered horizontally: not a vertical chain
                cell.top = top
                top.row_span += 1

    # ------------------------------------------------------------------ reading
    @property
    def trs(self) -> list[etree._Element]:
        """The kept rows' ``w:tr`` elements, in order."""
        return [row.tr for row in self.rows]

    def cells(self) -> Iterator[GridCell]:
        """Every physical cell of the kept rows, row by row."""
        for row in self.rows:
            yield from row.cells

    @property
    def header_rows(self) -> int:
        """Leading rows marked as header rows (Word repeats them on each page)."""
        count = 0
        for row in self.rows:
            if not row.header:
                break
            count += 1
        return count

    @property
    def column_count(self) -> int:
        """Grid columns in use: the ``w:tblGrid`` or the widest row, whichever is larger."""
        widest = max(((r.cells[-1].end if r.cells else r.before) + r.after for r in self.rows), default=0)
        return max(len(self.widths), widest)

    def slot_of(self, tc: etree._Element) -> GridCell:
        """The grid cell of ``tc`` (LookupError when ``tc`` is not in a kept row)."""
        for cell in self.cells():
            if cell.tc is tc:
                return cell
        raise LookupError("cell not in this table")

    def at(self, row: int, col: int) -> GridCell | None:
        """The physical cell covering grid column ``col`` of ``row`` (None: no cell there)."""
        if not 0 <= row < len(self.rows):
            return None
        return next((c for c in self.rows[row].cells if c.col <= col < c.end), None)

    def unit(self, cell: GridCell) -> tuple[GridCell, int]:
        """The top cell of ``cell``'s vertically merged unit and the unit's row count."""
        top = cell.top if cell.top.col == cell.col else cell
        return top, top.row_span

    def unit_cells(self, top: GridCell, rows: int) -> list[GridCell]:
        """The physical cells of a vertical unit, top first."""
        out = [top]
        for r in range(top.row + 1, top.row + rows):
            below = self.at(r, top.col)
            assert below is not None
            out.append(below)
        return out

    def width(self, col: int, span: int = 1) -> int:
        """Sum of the ``w:gridCol`` widths of ``span`` columns from ``col`` (missing columns count 0)."""
        return sum(self.widths[c] for c in range(col, col + span) if c < len(self.widths))

    # ------------------------------------------------------------------ layout
    def column_widths(self, available: int) -> list[int]:
        """The width of every grid column in twips, for a text column ``available`` twips wide.

        The ``w:tblGrid`` is Word's own result of its last layout and is used as stored, in fixed
        and in autofit tables alike; columns it does not state take a single-column cell's
        ``w:tcW`` (a share of ``available`` for ``pct``), else share what the table's width leaves.
        A table whose ``w:tblW`` is a share of the text column is scaled to that share.
        """
        count = max(1, self.column_count)
        widths: list[int | None] = [w if w > 0 else None for w in self.widths[:count]]
        widths.extend([None] * (count - len(widths)))
        if any(w is None for w in widths):
            for cell in self.cells():
                if cell.span == 1 and widths[cell.col] is None and cell.width is not None:
                    stated = cell.width.twips(available)
                    if stated:
                        widths[cell.col] = stated
        total = self.table_width.twips(available) if self.table_width is not None else None
        missing = [i for i, w in enumerate(widths) if w is None]
        if missing:
            known = sum(w for w in widths if w is not None)
            room = (total or available) - known
            share = room // len(missing) if room >= 360 * len(missing) else _UNSTATED_COLUMN
            for i in missing:
                widths[i] = share
        result = [w or 0 for w in widths]
        if self.table_width is not None and self.table_width.unit == "pct" and total:
            scale = total / max(1, sum(result))
            result = [int(w * scale) for w in result]
        return result

    def left_edge(self, available: int, cell_margin_left: int) -> int:
        """Where the table's left border sits, in twips from the text column's left edge.

        ``w:tblInd`` (negative too) places it for a left-aligned table; a centred or right-aligned
        table is placed by ``w:jc`` against ``available`` instead. Word (before its 2013 layout)
        measures ``w:tblInd`` to the first cell's text, so the border sits a cell margin further
        left; ``cell_margin_left`` is that margin when the document asks for the old layout, else 0.
        """
        width = sum(self.column_widths(available))
        if self.jc == "center":
            return (available - width) // 2
        if self.jc in ("right", "end"):
            return available - width
        indent = self.indent.twips(available) if self.indent is not None else None
        return (indent or 0) - cell_margin_left
