"""Table XML the table operations share (contract §5.5), beside the grid model they read.

The grid itself (grid columns, spans, vertically merged units) is :mod:`reviewer_app.docx.table_grid`,
the one model the block list and the page view read too. Here: where a table's blocks and live
runs are, whether a cell is empty, a row's tracked marks, and the grid columns and the fixed table
width that must move together when a column comes or goes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from lxml import etree

from ..vocabulary import CELL_RUN_CONTAINERS
from ..xmlutil import W

_P, _TBL, _TR, _TC = W + "p", W + "tbl", W + "tr", W + "tc"
_TRPR, _TCPR, _GRID = W + "trPr", W + "tcPr", W + "tblGrid"

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


# ------------------------------------------------------------------ reading
def int_value(el: etree._Element | None, attr: str = "val", default: int = 0) -> int:
    """An integer attribute of ``el`` (``default`` when absent or not a number)."""
    raw = el.get(W + attr) if el is not None else None
    try:
        return int(float(raw)) if raw is not None else default
    except ValueError:
        return default


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
        elif tag in CELL_RUN_CONTAINERS:
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
