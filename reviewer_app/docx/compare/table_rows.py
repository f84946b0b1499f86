"""Tables whose rows the paragraph alignment tangled: aligned again row by row, then cell by cell.

The block alignment pairs paragraphs, and a paragraph's text may well recur in another row or
column ("Lorem." moved from the middle of row 2 to the start of row 3). When the pairs it found
no longer respect rows — one revised row takes paragraphs of two base rows, or one base row
gives paragraphs to two revised rows — the redline cannot be written from them: a row the
revised version added would be filled from paragraphs paired elsewhere, and the words left over
would have no paragraph of their own cell to attach to.

Such a table pair is aligned again as WmlComparer does it: rows equal in every cell pair in order;
between two such rows the others pair by position, and the rows one side has more are inserted
or deleted whole; each pair of rows is then aligned cell by cell (by their whole row when their
cell counts differ). Tables whose pairs respect rows keep the paragraph alignment, which pairs
an edited row with its base row even when rows were added around it.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ..xmlutil import W
from .model import Budget, Entry, Event

_TBL, _TR, _TC = W + "tbl", W + "tr", W + "tc"

#: Aligns two lists of entries whose ``index`` is their position in the list.
Aligner = Callable[[list[Entry], list[Entry], Budget], list[Event]]


@dataclass(slots=True)
class _Table:
    """One version's top-level table as the alignment sees it: its rows' entries, in order."""

    rows: dict[etree._Element, list[Entry]] = field(default_factory=dict)
    nested: bool = False

    def cells(self, row: etree._Element) -> list[list[Entry]]:
        by_cell: dict[etree._Element, list[Entry]] = {}
        for e in self.rows[row]:
            by_cell.setdefault(next(e.block.element.iterancestors(_TC)), []).append(e)
        return list(by_cell.values())

    def key(self, row: etree._Element) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(e.key for e in cell) for cell in self.cells(row))


def _place(
    entry: Entry | None, tables: dict[etree._Element, _Table]
) -> tuple[etree._Element, etree._Element] | None:
    """The entry's top-level table and row, registering both; None for a body paragraph."""
    if entry is None or not entry.in_table or entry.block.element is None:
        return None
    outer = list(entry.block.element.iterancestors(_TBL))
    if not outer:
        return None
    table = tables.setdefault(outer[-1], _Table())
    table.nested = table.nested or len(outer) > 1
    row = next(entry.block.element.iterancestors(_TR))
    table.rows.setdefault(row, []).append(entry)
    return outer[-1], row


def _tangled(pairs: list[tuple[Hashable, Hashable]]) -> bool:
    """True when a row of either side has paragraphs paired with paragraphs of two rows of the other."""
    forward: dict[Hashable, set[Hashable]] = {}
    backward: dict[Hashable, set[Hashable]] = {}
    for b, r in pairs:
        forward.setdefault(b, set()).add(r)
        backward.setdefault(r, set()).add(b)
    return any(len(s) > 1 for s in forward.values()) or any(len(s) > 1 for s in backward.values())


def _any_tangled(events: list[Event]) -> bool:
    """Whether some pair of tables has tangled rows, by the rows' numbers in the blocks' table
    places (``tableIndex``, ``rowIndex``): cheap, as every comparison with a table asks."""
    pairs: dict[tuple[Any, Any], list[tuple[tuple[Any, Any], tuple[Any, Any]]]] = {}
    for ev in events:
        if ev.kind != "pair" or not ev.base.in_table or not ev.revised.in_table:
            continue
        b, r = ev.base.block.table or {}, ev.revised.block.table or {}
        rows = (b.get("tableIndex"), b.get("rowIndex")), (r.get("tableIndex"), r.get("rowIndex"))
        pairs.setdefault((b.get("outerTableIndex"), r.get("outerTableIndex")), []).append(rows)
    return any(_tangled(rows) for rows in pairs.values())


def _reindexed(entries: list[Entry]) -> list[Entry]:
    return [Entry(i, e.block, e.key, e.in_table) for i, e in enumerate(entries)]


def _sub_align(bs: list[Entry], rs: list[Entry], budget: Budget, aligner: Aligner) -> list[Event]:
    """``aligner`` on a part of each story (entries re-indexed for it, then mapped back)."""
    cb, cr = _reindexed(bs), _reindexed(rs)
    back = {id(c): e for c, e in zip(cb + cr, bs + rs, strict=True)}
    return [
        Event(
            ev.kind,
            back[id(ev.base)] if ev.base is not None else None,
            back[id(ev.revised)] if ev.revised is not None else None,
        )
        for ev in aligner(cb, cr, budget)
    ]


def _row_events(base: _Table, revised: _Table, budget: Budget, aligner: Aligner) -> list[Event] | None:
    """The events of a tangled table pair, aligned row by row (see the module text)."""
    rows_b, rows_r = list(base.rows), list(revised.rows)
    if not budget.take("align", len(rows_b) * len(rows_r)):
        return None
    matcher = difflib.SequenceMatcher(
        None, [base.key(r) for r in rows_b], [revised.key(r) for r in rows_r], autojunk=False
    )
    events: list[Event] = []

    def pair_rows(b: etree._Element, r: etree._Element) -> None:
        cells_b, cells_r = base.cells(b), revised.cells(r)
        if len(cells_b) != len(cells_r):
            events.extend(_sub_align(base.rows[b], revised.rows[r], budget, aligner))
            return
        for cb, cr in zip(cells_b, cells_r, strict=True):
            events.extend(_sub_align(cb, cr, budget, aligner))

    last_b = last_r = 0
    for i, j, n in matcher.get_matching_blocks():
        gap_b, gap_r = rows_b[last_b:i], rows_r[last_r:j]
        for b, r in zip(gap_b, gap_r, strict=False):
            pair_rows(b, r)
        events.extend(Event("base", base=e) for b in gap_b[len(gap_r) :] for e in base.rows[b])
        events.extend(Event("revised", revised=e) for r in gap_r[len(gap_b) :] for e in revised.rows[r])
        for k in range(n):
            pair_rows(rows_b[i + k], rows_r[j + k])
        last_b, last_r = i + n, j + n
    return events


def realign_tables(events: list[Event], budget: Budget, aligner: Aligner) -> list[Event]:
    """``events`` with each tangled pair of tables aligned again row by row (see the module text).

    A table pair is realigned only when its events form one stretch of their own, no other
    table's or body's paragraph among them, and neither table holds another.
    """
    if not _any_tangled(events):
        return events  # the usual case, told from the blocks' table places without the XML
    tables_b: dict[etree._Element, _Table] = {}
    tables_r: dict[etree._Element, _Table] = {}
    places = [(_place(ev.base, tables_b), _place(ev.revised, tables_r)) for ev in events]
    links: dict[etree._Element, set[etree._Element]] = {}
    row_pairs: dict[tuple[etree._Element, etree._Element], list[tuple[etree._Element, etree._Element]]] = {}
    for pb, pr in places:
        if pb is not None and pr is not None:
            links.setdefault(pb[0], set()).add(pr[0])
            links.setdefault(pr[0], set()).add(pb[0])
            row_pairs.setdefault((pb[0], pr[0]), []).append((pb[1], pr[1]))
    out = events
    for (tb, tr), pairs in reversed(list(row_pairs.items())):
        if links[tb] != {tr} or links[tr] != {tb} or tables_b[tb].nested or tables_r[tr].nested:
            continue
        if not _tangled(pairs):
            continue
        span = [k for k, (pb, pr) in enumerate(places) if (pb and pb[0] is tb) or (pr and pr[0] is tr)]
        first, last = span[0], span[-1]
        if len(span) != last - first + 1:
            continue
        redone = _row_events(tables_b[tb], tables_r[tr], budget, aligner)
        if redone is not None:
            out = out[:first] + redone + out[last + 1 :]
    return out
