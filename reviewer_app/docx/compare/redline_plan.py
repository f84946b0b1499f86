"""Plan one story's redline: walk the alignment events and choose an operation for each difference.

See :mod:`.redline_ops` for the operation chosen per kind of difference and why insertions come
first. Planning is pure: it reads the two stories and returns a :class:`~.redline_ops.StoryPlan`;
:mod:`.redline` applies it through the edit engine.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from lxml import etree

from ..numbering import NumberingDefinitions
from ..styles import StyleIndex
from .align import Event
from .formatting import format_ranges
from .model import Budget, Entry
from .notes import segment_edits, with_base_markers
from .redline_ops import (
    _P,
    _TBL,
    _TC,
    _TR,
    SPLIT_SEPARATOR,
    Planned,
    Split,
    StoryPlan,
    _covering,
    ancestors,
    children,
    find_moves,
    insert_fields,
    range_op,
)

_LINE_BREAKS = re.compile("\r\n|[\r\n\u2028\u2029]")


def _top_level(tbl: etree._Element) -> bool:
    """True for a table that is not inside another table."""
    return next(tbl.iterancestors(_TBL), None) is None


class Planner:
    """Builds the :class:`StoryPlan` of one paired story."""

    def __init__(
        self,
        events: list[Event],
        styles: StyleIndex,
        numbering: NumberingDefinitions,
        budget: Budget,
        move_ids: itertools.count[int],
    ) -> None:
        self.events = events
        self.styles = styles
        self.numbering = numbering
        self.budget = budget
        self.move_ids = move_ids
        self.plan = StoryPlan()
        self.base = [e.base for e in events if e.base is not None]
        self.revised = [e.revised for e in events if e.revised is not None]
        self.partner = {id(e.revised): e.base for e in events if e.kind == "pair"}
        self.revised_at = {e.block.element: e for e in self.revised if e.block.element is not None}
        self.move: dict[int, str] = {}
        self.done: set[int] = set()
        self.done_elements: set[etree._Element] = set()
        self.unpaired_moves: set[str] = set()
        # host pair (by id of its base entry) -> (texts added before it, texts added after it)
        self.hosted: dict[int, tuple[list[str], list[str]]] = {}

    # ------------------------------------------------------------------ entry point
    def run(self) -> StoryPlan:
        deleted = [e.base for e in self.events if e.kind == "base" and e.base.block.element is not None]
        added = [e.revised for e in self.events if e.kind == "revised"]
        for d, a in find_moves(deleted, added, self.budget):
            move_id = f"move-{next(self.move_ids)}"
            self.move[id(d)] = self.move[id(a)] = move_id
        chosen_b = {id(e) for e in deleted if e.in_table}
        chosen_r = {id(e) for e in added if e.in_table}
        self.tables_b = {k: t for k, t in _covering(self.base, chosen_b, _TBL).items() if _top_level(t)}
        self.rows_b = _covering(self.base, chosen_b - set(self.tables_b), _TR)
        self.tables_r = {k: t for k, t in _covering(self.revised, chosen_r, _TBL).items() if _top_level(t)}
        self.rows_r = _covering(self.revised, chosen_r - set(self.tables_r), _TR)
        self._next_base()
        for index, event in enumerate(self.events):
            r = event.revised
            if event.kind == "revised" and r.in_table and all(id(r) not in s for s in self._placed()):
                self._host(index, r)
        row_inserts: list[tuple[etree._Element, str, Planned]] = []
        for index, event in enumerate(self.events):
            if event.kind == "pair":
                self._pair(event.base, event.revised)
            elif event.kind == "base":
                self._deleted(event.base)
            else:
                self._added(index, event.revised, row_inserts)
        self._order_rows(row_inserts)
        for planned in self.plan.edits:
            if planned.op.get("moveId") in self.unpaired_moves:
                del planned.op["moveId"]
        return self.plan

    def _placed(self) -> tuple[dict[int, Any], ...]:
        """Revised entries that already have a place: moves, new tables, new rows."""
        return self.move, self.tables_r, self.rows_r

    # ------------------------------------------------------------------ anchors
    def _next_base(self) -> None:
        self.anchor_at: list[Entry | None] = [None] * (len(self.events) + 1)
        nxt: Entry | None = None
        for k in range(len(self.events) - 1, -1, -1):
            base = self.events[k].base
            if base is not None and base.block.element is not None:
                nxt = base
            self.anchor_at[k] = nxt
        body = [e for e in self.base if e.block.element is not None and not e.in_table]
        anyone = [e for e in self.base if e.block.element is not None]
        self.last = body[-1] if body else (anyone[-1] if anyone else None)

    def _anchor(self, index: int) -> tuple[Entry, str] | None:
        nxt = self.anchor_at[index]
        if nxt is not None:
            return nxt, "before"
        return (self.last, "after") if self.last is not None else None

    # ------------------------------------------------------------------ pairs
    def _pair(self, b: Entry, r: Entry) -> None:
        if b.block.element is None:
            return
        before, after = self.hosted.get(id(b), ([], []))
        if b.key != r.key or before or after:
            own = with_base_markers(b.block.text, r.block.text) if b.key != r.key else b.block.text
            parts = [*before, own, *after]
            text = SPLIT_SEPARATOR.join(parts)
            if text != b.block.text:
                planned = Planned({"type": "replaceBlock", "text": text}, b.block.element)
                if len(parts) == 1 and "[^" in text:
                    planned.fallback = self._between_markers(b, text)
                self.plan.edits.append(planned)
            offsets, at = [], 0
            for part in parts[:-1]:
                at += len(part)
                offsets.append(at)
                at += len(SPLIT_SEPARATOR)
            if offsets:
                self.plan.splits.append(Split(b.block.element, offsets))
            return
        for start, end, formatting in format_ranges(b.block, r.block):
            self.plan.edits.append(Planned(range_op(b.block, start, end, formatting), b.block.element))

    def _between_markers(self, b: Entry, text: str) -> list[Planned]:
        """Fallback for a replacement refused because a change would span a note reference."""
        element = b.block.element
        edits = segment_edits(b.block.text, text) or []
        out = []
        for start, end, replacement in edits:
            op = range_op(b.block, start, end, {})
            op.update(type="replaceRange", replace=replacement)
            del op["formatting"]
            out.append(Planned(op, element))
        return out

    def _host(self, index: int, r: Entry) -> None:
        """Attach a paragraph added inside an existing cell to a paired neighbour in that cell."""
        cells = ancestors(r.block.element, _TC) if r.block.element is not None else []
        if not cells:
            return
        cell = cells[0]

        def host_at(k: int) -> Entry | None:
            e = self.events[k]
            if e.kind != "pair" or e.revised.block.element is None or e.base.block.element is None:
                return None
            inner = ancestors(e.revised.block.element, _TC)
            return e.base if inner and inner[0] is cell else None

        for k in range(index - 1, -1, -1):
            host = host_at(k)
            if host is not None:
                self.hosted.setdefault(id(host), ([], []))[1].append(r.block.text)
                self.done.add(id(r))
                return
        for k in range(index + 1, len(self.events)):
            host = host_at(k)
            if host is not None:
                self.hosted.setdefault(id(host), ([], []))[0].append(r.block.text)
                self.done.add(id(r))
                return

    # ------------------------------------------------------------------ deletions
    def _deleted(self, b: Entry) -> None:
        el = b.block.element
        if el is None:
            return
        move_id = self.move.get(id(b))
        if move_id is not None:
            self.plan.edits.append(Planned({"type": "deleteBlock", "moveId": move_id}, el))
            return
        table = self.tables_b.get(id(b))
        if table is not None:
            if table not in self.done_elements:
                self.done_elements.add(table)
                self.plan.edits.append(Planned({"type": "deleteTable"}, el, self._block_deletes(table)))
            return
        row = self.rows_b.get(id(b))
        if row is not None:
            if row not in self.done_elements:
                self.done_elements.add(row)
                self.plan.edits.append(Planned({"type": "deleteTableRow"}, el, self._block_deletes(row)))
            return
        self.plan.edits.append(Planned({"type": "deleteBlock"}, el))

    def _block_deletes(self, container: etree._Element) -> list[Planned]:
        """Fallback for a refused row/table deletion: delete each of its blocks' words."""
        inside = {p for p in container.iter(_P)}
        return [
            Planned({"type": "deleteBlock"}, e.block.element) for e in self.base if e.block.element in inside
        ]

    # ------------------------------------------------------------------ insertions
    def _added(self, index: int, r: Entry, row_inserts: list[tuple[etree._Element, str, Planned]]) -> None:
        if id(r) in self.done or r.block.kind == "diagnostic":
            return
        table = self.tables_r.get(id(r))
        if table is not None:
            if table not in self.done_elements:
                self.done_elements.add(table)
                self._insert_table(index, table)
            return
        row = self.rows_r.get(id(r))
        if row is not None:
            if row not in self.done_elements:
                self.done_elements.add(row)
                self._insert_row(row, row_inserts)
            return
        if r.in_table and id(r) not in self.move:
            if not r.key:
                return  # a blank line added in a cell with no neighbour to carry it: layout only
            self.plan.refused.append(
                f'a paragraph added inside an existing table cell ("{r.block.text[:40]}") has no paragraph '
                "of its own cell to attach to"
            )
            return
        where = self._anchor(index)
        if where is None:
            self.plan.refused.append("the base story has no paragraph to anchor an insertion on")
            return
        anchor, position = where
        fields = insert_fields(r.block, anchor.block, self.styles, self.numbering)
        if id(r) in self.move:
            fields["moveId"] = self.move[id(r)]
        kind = "insertBeforeBlock" if position == "before" else "insertAfterBlock"
        self._place(Planned({"type": kind, **fields}, anchor.block.element), trailing=position == "after")

    def _place(self, planned: Planned, trailing: bool, table: bool = False) -> None:
        """Queue an insertion; one at the story's end may need a later pass (see :class:`StoryPlan`).

        The engine puts a table right after its anchor but paragraphs after the ones already
        inserted there, so at the end of a story a table and whatever follows it each wait for
        the pass after the one that wrote what precedes them, anchored on the story's last block.
        """
        if not trailing:
            self.plan.inserts.append(planned)
            return
        if table or (self.plan.tail and self.plan.tail[-1][-1].op["type"] == "insertTable"):
            self.plan.tail.append([])
        if not self.plan.tail:
            self.plan.inserts.append(planned)
            return
        planned.target = None
        move_id = planned.op.pop("moveId", None)
        if move_id is not None:  # a move's halves must share a batch: this one becomes plain
            self.unpaired_moves.add(move_id)
        self.plan.tail[-1].append(planned)

    def _cell_text(self, tc: etree._Element) -> str:
        """A new cell's text: one line per paragraph. A line break *inside* a paragraph becomes a
        space, since the engine reads every line of a cell text as a paragraph of its own."""
        texts = [self.revised_at[p].block.text for p in tc.iter(_P) if p in self.revised_at]
        return "\n".join(_LINE_BREAKS.sub(" ", t) for t in texts)

    def _insert_table(self, index: int, tbl: etree._Element) -> None:
        rows: list[list[str]] = []
        for tr in children(tbl, _TR):
            if not any(p in self.revised_at for p in tr.iter(_P)):
                continue  # a hidden row: not in the snapshot, not inserted
            rows.append([self._cell_text(tc) for tc in children(tr, _TC)] or [""])
        if not rows:
            return
        width = max(len(row) for row in rows)
        rows = [row + [""] * (width - len(row)) for row in rows]
        where = self._anchor(index)
        if where is None:
            self.plan.refused.append("the base story has no paragraph to anchor a new table on")
            return
        anchor, position = where
        op: dict[str, Any] = {"type": "insertTable", "rows": rows, "position": position}
        self._place(Planned(op, anchor.block.element), trailing=position == "after", table=True)

    def _paired_base_in_row(self, tr: etree._Element) -> Entry | None:
        for p in tr.iter(_P):
            r = self.revised_at.get(p)
            if r is None or id(r) not in self.partner:
                continue
            rows = ancestors(p, _TR)
            base = self.partner[id(r)]
            if rows and rows[0] is tr and base.block.element is not None and base.in_table:
                return base
        return None

    def _insert_row(self, tr: etree._Element, row_inserts: list[tuple[etree._Element, str, Planned]]) -> None:
        table = next(tr.iterancestors(_TBL), None)
        siblings = children(table, _TR) if table is not None else [tr]
        at = siblings.index(tr)
        anchor, position = None, "after"
        for candidate in reversed(siblings[:at]):
            anchor = self._paired_base_in_row(candidate)
            if anchor is not None:
                break
        if anchor is None:
            position = "before"
            for candidate in siblings[at + 1 :]:
                anchor = self._paired_base_in_row(candidate)
                if anchor is not None:
                    break
        if anchor is None:
            self.plan.refused.append("a new table row has no unchanged row of its table to anchor on")
            return
        texts = [self._cell_text(tc) for tc in children(tr, _TC)]
        op: dict[str, Any] = {"type": "insertTableRow", "position": position}
        if any(texts):
            op["cellTexts"] = texts
        planned = Planned(op, anchor.block.element)
        row_inserts.append((anchor.block.element, position, planned))
        self.plan.inserts.append(planned)

    def _order_rows(self, row_inserts: list[tuple[etree._Element, str, Planned]]) -> None:
        """Rows inserted *after* one anchor land right below it, so they are sent last-first."""
        groups: dict[etree._Element, list[Planned]] = {}
        for anchor, position, planned in row_inserts:
            if position == "after":
                groups.setdefault(anchor, []).append(planned)
        for group in groups.values():
            if len(group) < 2:
                continue
            slots = sorted(i for i, p in enumerate(self.plan.inserts) if any(p is g for g in group))
            for slot, planned in zip(slots, reversed(group), strict=True):
                self.plan.inserts[slot] = planned


def plan_story(
    events: list[Event],
    styles: StyleIndex,
    numbering: NumberingDefinitions,
    budget: Budget,
    move_ids: itertools.count[int],
) -> StoryPlan:
    """The operations that turn the base story into the revised one (see :mod:`.redline_ops`)."""
    return Planner(events, styles, numbering, budget, move_ids).run()
