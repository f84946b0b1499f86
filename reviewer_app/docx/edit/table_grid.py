"""The table model the table operations share (contract §5.5): a ``w:tbl`` read as a grid.

Every physical cell gets its grid column (``w:gridBefore`` and ``w:gridSpan`` counted) and its
vertically merged *unit* (a ``vMerge`` restart and the continue cells below it), so row, column,
merge and split operations reason about what the reader sees, not about element positions. Also
here: where a table's blocks and live runs are, and the grid columns and the fixed table width
that must move together when a column comes or goes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from lxml import etree

from ..blocks import unwrap_children
from ..xmlutil import W, is_on

_P, _TBL, _TR, _TC = W + "p", W + "tbl", W + "tr", W + "tc"
_TRPR, _TCPR, _GRID = W + "trPr", W + "tcPr", W + "tblGrid"

#: Paragraph content elements whose runs belong to the paragraph (deleted wrappers are skipped).
_RUN_CONTAINERS = frozenset(
    W + t
    for t in (
        "ins",
        "moveTo",
        "hyperlink",
        "smartTag",
        "customXml",
        "fldSimple",
        "dir",
        "bdo",
        "sdt",
        "sdtContent",
    )
)
#: Run children that are content even without text (a cell holding one is not empty).
_RUN_CONTENT = frozenset(
    W + t
    for t in (
        "delText",
        "drawing",
        "pict",
        "object",
        "sym",
        "tab",
        "instrText",
        "delInstrText",
        "footnoteReference",
        "endnoteReference",
    )
)


# ------------------------------------------------------------------ reading the grid
def int_value(el: etree._Element | None, attr: str = "val", default: int = 0) -> int:
    """An integer attribute of ``el`` (``default`` when absent or not a number)."""
    raw = el.get(W + attr) if el is not None else None
    try:
        return int(float(raw)) if raw is not None else default
    except ValueError:
        return default


@dataclass(slots=True, eq=False)
class Slot:
    """One physical cell: its row, first grid column, column span and ``vMerge`` state."""

    tc: etree._Element
    row: int
    col: int
    span: int
    vmerge: str | None  # "restart", "continue" or None

    @property
    def end(self) -> int:
        return self.col + self.span


class Grid:
    """The grid of one ``w:tbl`` (nested tables are separate grids)."""

    def __init__(self, tbl: etree._Element) -> None:
        self.tbl = tbl
        self.rows: list[etree._Element] = unwrap_children(tbl, _TR)
        grid = tbl.find(_GRID)
        cols = grid.findall(W + "gridCol") if grid is not None else []
        self.widths: list[int] = [int_value(c, "w") for c in cols]
        self.slots: list[list[Slot]] = []
        self.before: list[int] = []
        self.hidden: list[bool] = []
        for index, tr in enumerate(self.rows):
            trpr = tr.find(_TRPR)
            column = int_value(trpr.find(W + "gridBefore")) if trpr is not None else 0
            self.before.append(column)
            self.hidden.append(trpr is not None and is_on(trpr.find(W + "hidden")))
            row: list[Slot] = []
            for tc in unwrap_children(tr, _TC):
                tcpr = tc.find(_TCPR)
                span = max(1, int_value(tcpr.find(W + "gridSpan"), default=1)) if tcpr is not None else 1
                vm = tcpr.find(W + "vMerge") if tcpr is not None else None
                vmerge = None if vm is None else ("restart" if vm.get(W + "val") == "restart" else "continue")
                row.append(Slot(tc, index, column, span, vmerge))
                column += span
            self.slots.append(row)

    @property
    def column_count(self) -> int:
        """Grid columns in use: the ``w:tblGrid`` or the widest row, whichever is larger."""
        widest = max((r[-1].end for r in self.slots if r), default=0)
        return max(len(self.widths), widest)

    def slot_of(self, tc: etree._Element) -> Slot:
        for row in self.slots:
            for slot in row:
                if slot.tc is tc:
                    return slot
        raise LookupError("cell not in this table")

    def at(self, row: int, col: int) -> Slot | None:
        """The cell covering grid column ``col`` of ``row`` (None: no cell there)."""
        if not 0 <= row < len(self.slots):
            return None
        return next((s for s in self.slots[row] if s.col <= col < s.end), None)

    def unit(self, slot: Slot) -> tuple[Slot, int]:
        """The top cell of ``slot``'s vertically merged unit and the unit's row count."""
        top = slot
        while top.vmerge == "continue":
            above = self.at(top.row - 1, top.col)
            if above is None or above.col != top.col or above.vmerge is None:
                break
            top = above
        rows = 1
        if top.vmerge is not None:
            while True:
                below = self.at(top.row + rows, top.col)
                if below is None or below.col != top.col or below.vmerge != "continue":
                    break
                rows += 1
        return top, rows

    def unit_slots(self, top: Slot, rows: int) -> list[Slot]:
        """The physical cells of a unit, top first."""
        out = [top]
        for r in range(top.row + 1, top.row + rows):
            below = self.at(r, top.col)
            assert below is not None
            out.append(below)
        return out

    def width(self, col: int, span: int = 1) -> int:
        """Sum of the grid widths of ``span`` columns from ``col`` (missing columns count 0)."""
        return sum(self.widths[c] for c in range(col, col + span) if c < len(self.widths))


def containing(el: etree._Element, tag: str) -> etree._Element | None:
    """The nearest ancestor of ``el`` tagged ``tag``."""
    return next(el.iterancestors(tag), None)


def outermost_table(el: etree._Element) -> etree._Element | None:
    """The outermost ``w:tbl`` holding ``el`` (None outside tables)."""
    tables = list(el.iterancestors(_TBL))
    return tables[-1] if tables else None


def block_paragraphs(container: etree._Element) -> Iterator[etree._Element]:
    """Block-level paragraphs under a cell, row or table in reading order (nested tables included,
    text-box paragraphs inside runs not: deleting the run deletes them)."""
    for child in container:
        tag = child.tag
        if tag == _P:
            yield child
        elif tag in (_TBL, _TR, _TC, W + "sdt", W + "sdtContent", W + "customXml"):
            yield from block_paragraphs(child)


def content_runs(parent: etree._Element) -> list[etree._Element]:
    """The runs of a paragraph that are live content (not already deleted), in order.

    Runs holding only a comment reference are left alone: a comment is not text and must keep
    its anchor.
    """
    out: list[etree._Element] = []
    for child in parent:
        tag = child.tag
        if tag == W + "r":
            kinds = {c.tag for c in child if c.tag != W + "rPr"}
            if kinds and kinds <= {W + "commentReference", W + "annotationRef"}:
                continue
            out.append(child)
        elif tag in _RUN_CONTAINERS:
            out.extend(content_runs(child))
    return out


def cell_is_empty(tc: etree._Element) -> bool:
    """True when a cell shows nothing and hides nothing pending: no text, objects or nested table."""
    if tc.find(".//" + _TBL) is not None:
        return False
    for run in tc.iter(W + "r"):
        for child in run:
            if child.tag in _RUN_CONTENT or (child.tag == W + "t" and child.text):
                return False
    return True


def row_mark(tr: etree._Element, tag: str) -> etree._Element | None:
    """The row's ``w:trPr/w:ins`` or ``w:del`` record."""
    trpr = tr.find(_TRPR)
    return trpr.find(tag) if trpr is not None else None


def cell_width(tc: etree._Element) -> int:
    """A cell's stated width in twips (1440 when it states none): for tables without a grid width."""
    tcw = tc.find(f"{_TCPR}/{W}tcW")
    try:
        if tcw is not None and tcw.get(W + "type") in (None, "dxa"):
            return int(float(tcw.get(W + "w") or ""))
    except ValueError:
        pass
    return 1440


# ------------------------------------------------------------------ grid columns and table width
def remove_grid_columns(
    holder: etree._Element, first: int, end: int, touch: Callable[[etree._Element], None] | None = None
) -> int:
    """Remove grid columns ``first``..``end`` (exclusive) from ``holder``'s ``w:tblGrid`` (a table's,
    or the old grid of a ``w:tblGridChange``); return their total width. ``touch`` is called with the
    grid before it changes (a checkpoint)."""
    grid = holder.find(_GRID)
    doomed = grid.findall(W + "gridCol")[first:end] if grid is not None else []
    if not doomed:
        return 0
    if touch is not None:
        touch(grid)
    for col in doomed:
        grid.remove(col)
    return sum(int_value(col, "w") for col in doomed)


def widen_fixed_table(
    tbl: etree._Element, delta: int, touch: Callable[[etree._Element], None] | None = None
) -> None:
    """A fixed table width (``w:tblW`` in dxa) follows its columns: add ``delta`` twips (never below 0).

    An automatic or percentage width needs nothing: the reader derives it from the columns.
    ``touch`` is called with the ``w:tblW`` before it changes (a checkpoint).
    """
    tblw = tbl.find(W + "tblPr/" + W + "tblW")
    if tblw is None or tblw.get(W + "type") != "dxa":
        return
    try:
        width = int(float(tblw.get(W + "w") or "0"))
    except ValueError:
        return
    if width > 0:
        if touch is not None:
            touch(tblw)
        tblw.set(W + "w", str(max(width + delta, 0)))
