"""Long body tables cut into row ranges, so that laying one out never holds the event loop long.

Qt lays a table out in one piece; a 100-row schedule written as one item of the layout's work
list made one long slice. :func:`split_table` cuts such a table into :class:`TablePart` items
the builder writes one after the other, each a table of its own rows.
"""

from __future__ import annotations

from lxml import etree

from ...docx.table_grid import TableGrid
from ...docx.xmlutil import W
from .tables import keep_row

_TR = W + "tr"


class TablePart:
    """Rows ``[first, stop)`` of a long body table: one item of the layout's work list.

    Qt lays a table out in one piece, so a 100-row schedule written as one item would hold the
    event loop for a long slice; parts keep each slice short. Parts end only between rows that
    no vertical merge spans.
    """

    __slots__ = ("element", "first", "stop")
    tag = "table-part"

    def __init__(self, element: etree._Element, first: int, stop: int) -> None:
        self.element = element
        self.first = first
        self.stop = stop


#: Tables longer than this many rows are laid out in parts.
TABLE_PART_ROWS = 24


def split_table(tbl: etree._Element, mode: str = "all") -> list[etree._Element | TablePart]:
    """``[tbl]`` for a short table, else its parts (see :class:`TablePart`)."""
    if sum(1 for _ in tbl.iter(_TR)) <= TABLE_PART_ROWS:
        return [tbl]
    grid = TableGrid(tbl, keep_row(mode))
    if len(grid.rows) <= TABLE_PART_ROWS:
        return [tbl]
    reach = [0] * (len(grid.rows) + 1)  # reach[r]: furthest row a merge starting above r covers
    for cell in grid.cells():
        end = cell.row + cell.row_span
        for r in range(cell.row + 1, min(end, len(grid.rows))):
            reach[r] = max(reach[r], end)
    parts: list[etree._Element | TablePart] = []
    first = 0
    for r in range(1, len(grid.rows)):
        if r - first >= TABLE_PART_ROWS and reach[r] <= r:
            parts.append(TablePart(tbl, first, r))
            first = r
    parts.append(TablePart(tbl, first, len(grid.rows)))
    return parts
