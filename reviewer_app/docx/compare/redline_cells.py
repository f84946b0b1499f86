"""Cells the revised version added to rows the base already has: a tracked column insertion.

The edit engine writes tracked cell insertions (``w:cellIns``, with the cell's runs and mark
marked inserted too, and the old grid kept in ``w:tblGridChange``) only column-wise, through
``insertTableColumn``: one new cell in every row. So when every row of a revised table has a
new cell at the same place (a column was added, the usual case) that is the operation. Cells
added to only some rows have no engine operation (``insertTableRow`` copies its anchor row's
shape, so even replacing the row cannot give it more cells); their text is left to the
planner, which reports it as refused in words.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from .model import Entry
from .redline_ops import _P, _TBL, _TC, _TR, Planned, ancestors, children


def _cell_of(entry: Entry) -> etree._Element | None:
    cells = ancestors(entry.block.element, _TC) if entry.block.element is not None else []
    return cells[0] if cells else None


def _entries(tc: etree._Element, revised_at: dict[etree._Element, Entry]) -> list[Entry]:
    return [revised_at[p] for p in tc.iter(_P) if p in revised_at]


def new_columns(
    added: list[Entry],
    partner: dict[int, Entry],
    revised_at: dict[etree._Element, Entry],
    cell_text: Any,
) -> tuple[list[Planned], set[int]]:
    """``insertTableColumn`` operations for columns added to paired tables; the entries they place.

    ``added``: revised in-table entries nothing else has placed; ``partner``: revised entry id →
    its base pair; ``cell_text(tc)``: a new cell's text as the planner writes it.
    """
    candidates = {c for e in added if (c := _cell_of(e)) is not None}
    new_cells = {tc for tc in candidates if not any(id(e) in partner for e in _entries(tc, revised_at))}
    by_table: dict[etree._Element, set[int]] = {}
    for tc in new_cells:
        tr = tc.getparent()
        table = next(tc.iterancestors(_TBL), None)
        if tr is None or tr.tag != _TR or table is None:
            continue
        by_table.setdefault(table, set()).add(children(tr, _TC).index(tc))
    planned: list[Planned] = []
    placed: set[int] = set()
    for table, columns in by_table.items():
        if len(columns) != 1:
            continue  # several new columns in one table: not written here (see the module docstring)
        col = next(iter(columns))
        rows = [children(tr, _TC) for tr in children(table, _TR)]
        if not rows or any(len(c) < 2 or col >= len(c) or c[col] not in new_cells for c in rows):
            continue
        side, position = (col - 1, "after") if col > 0 else (col + 1, "before")
        anchor = None
        for cells in rows:
            for entry in _entries(cells[side], revised_at):
                if id(entry) in partner:
                    anchor = partner[id(entry)]
                    break
            if anchor is not None:
                break
        if anchor is None or anchor.block.element is None:
            continue
        texts = [cell_text(cells[col]) for cells in rows]
        op: dict[str, Any] = {"type": "insertTableColumn", "position": position}
        if any(texts):
            op["cellTexts"] = texts
        planned.append(Planned(op, anchor.block.element))
        placed.update(id(e) for cells in rows for e in _entries(cells[col], revised_at))
    return planned, placed
