"""Plan one story's redline: walk the alignment events and choose an operation for each difference.

See :mod:`.redline_ops` for the operation chosen per kind of difference and why insertions come
first. Planning is pure: it reads the two stories and returns a :class:`~.redline_ops.StoryPlan`;
:mod:`.redline` applies it through the edit engine.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

from lxml import etree

from ..xmlutil import W
from .align import Event
from .formatting import format_ranges
from .model import Budget, Entry
from .notes import segment_edits, with_base_markers, without_markers
from .paragraph_props import RevisedProperties
from .redline_cells import new_columns
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
    range_op,
)
from .units import holds_object, spaces_differ

#: How far (in alignment events) a paragraph added in a cell looks for a neighbour of its cell.
_HOST_WINDOW = 200
_LINE_BREAKS = re.compile("\r\n|[\r\n\u2028\u2029]")


def _top_level(tbl: etree._Element) -> bool:
    """True for a table that is not inside another table."""
    return next(tbl.iterancestors(_TBL), None) is None


class Planner:
    """Builds the :class:`StoryPlan` of one paired story."""

    def __init__(
        self,
        events: list[Event],
        props: RevisedProperties,
        budget: Budget,
        move_ids: itertools.count[int],
    ) -> None:
        self.events = events
        self.props = props
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
        self.trailing: list[Planned] = []
        # host pair (by id of its base entry) -> (texts added before it, texts added after it)
        self.hosted: dict[int, tuple[list[str], list[str]]] = {}
        #: revised entries of cells a new column brings (see :mod:`.redline_cells`)
        self.columns_r: set[int] = set()
        #: blank base paragraphs that take the text hosted after them (see :meth:`_host_after`)
        self.blank_hosts: set[int] = set()

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
        loose = [e for e in added if e.in_table and all(id(e) not in s for s in self._placed())]
        columns, self.columns_r = new_columns(loose, self.partner, self.revised_at, self._cell_text)
        self.plan.inserts.extend(columns)
        self.done |= self.columns_r
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
        self._finish_end()
        for planned in self.plan.edits:
            if planned.op.get("moveId") in self.unpaired_moves:
                del planned.op["moveId"]
        return self.plan

    def _placed(self) -> tuple[dict[int, Any], ...]:
        """Revised entries that already have a place: moves, new tables, new rows, new columns."""
        return self.move, self.tables_r, self.rows_r, self.columns_r

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
        # The story's last paragraph, when it ends the story and ends up with no words (it is
        # deleted, or blank, holding no picture or equation, and paired with a blank), can take
        # what the revised version adds at the end *before* it: insertions before one anchor
        # land in order, tables included, all in the first pass (after it, a new table must wait
        # for a pass of its own).
        last = self.last
        wordless = {
            id(e.base)
            for e in self.events
            if (e.kind == "base" and id(e.base) not in self.move)
            or (
                e.kind == "pair"
                and not e.base.key
                and not e.revised.key
                and not holds_object(e.base.block.element)
            )
        }
        self.end_before = last is not None and anyone[-1] is last and id(last) in wordless

    def _anchor(self, index: int) -> tuple[Entry, str] | None:
        nxt = self.anchor_at[index]
        if nxt is not None:
            return nxt, "before"
        if self.last is None:
            return None
        return self.last, "before" if self.end_before else "after"

    # ------------------------------------------------------------------ pairs
    def _pair(self, b: Entry, r: Entry) -> None:
        if b.block.element is None:
            return
        before, after = self.hosted.get(id(b), ([], []))
        edits = len(self.plan.edits)
        self._text_and_format(b, r, before, after)
        if not before and not after:
            self._properties(b, r, alone=len(self.plan.edits) == edits)

    def _text_and_format(self, b: Entry, r: Entry, before: list[str], after: list[str]) -> None:
        changed = b.key != r.key or spaces_differ(b.block.text, r.block.text)
        if changed or before or after:
            own = with_base_markers(b.block.text, r.block.text) if changed else b.block.text
            parts = [*before, own, *after] if id(b) not in self.blank_hosts else after
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

    def _properties(self, b: Entry, r: Entry, alone: bool) -> None:
        """A paired paragraph whose paragraph properties differ: the revised ones, tracked.

        ``alone``: no other operation names this paragraph, so the change rides in the first
        pass; otherwise it waits for the properties pass (one operation per paragraph and batch).
        """
        props = self.props.changes(b.block, r.block)
        if props:
            op = {"type": "setBlockParagraphProperties", "properties": props}
            (self.plan.edits if alone else self.plan.properties).append(Planned(op, b.block.element))

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

        def host_at(k: int) -> Event | None:
            e = self.events[k]
            if e.kind != "pair" or e.revised.block.element is None or e.base.block.element is None:
                return None
            inner = ancestors(e.revised.block.element, _TC)
            return e if inner and inner[0] is cell else None

        text = without_markers(r.block.text)
        for k in range(index - 1, max(index - _HOST_WINDOW, 0) - 1, -1):
            host = host_at(k)
            if host is not None:
                self._host_after(host, (host_at(j) for j in range(k - 1, max(k - _HOST_WINDOW, 0) - 1, -1)))
                self.hosted.setdefault(id(host.base), ([], []))[1].append(text)
                self.done.add(id(r))
                return
        for k in range(index + 1, min(index + _HOST_WINDOW, len(self.events))):
            host = host_at(k)
            if host is not None:
                self.hosted.setdefault(id(host.base), ([], []))[0].append(text)
                self.done.add(id(r))
                return

    def _host_after(self, host: Event, earlier: Iterator[Event | None]) -> None:
        """Before the first paragraph is hosted after a blank one: let the blank line be made at
        the end of the pair before it in the cell instead, and the blank paragraph take the
        added text. A paragraph can only be split strictly inside its text, so a blank host
        would have to be split at its very start; a neighbour with words can end in a new blank
        line. A blank pair holding a picture or equation keeps it (it is not blank there)."""
        b, r = host.base, host.revised
        if id(b) in self.hosted or b.block.text or r.block.text:
            return
        if holds_object(b.block.element) or holds_object(r.block.element):
            return
        before = next((e for e in earlier if e is not None), None)
        if before is None or not before.base.block.text:
            return
        self.hosted.setdefault(id(before.base), ([], []))[1].append("")
        self.blank_hosts.add(id(b))

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
        fields = self.props.insert_fields(r.block, anchor.block)
        if id(r) in self.move:
            fields["moveId"] = self.move[id(r)]
        kind = "insertBeforeBlock" if position == "before" else "insertAfterBlock"
        self._place(Planned({"type": kind, **fields}, anchor.block.element), trailing=position == "after")

    def _place(self, planned: Planned, trailing: bool) -> None:
        """Queue an insertion; those after the story's last block wait for :meth:`_finish_end`."""
        (self.trailing if trailing else self.plan.inserts).append(planned)

    def _finish_end(self) -> None:
        """Place what the revised version adds after the base story's last block.

        Paragraphs inserted after one anchor land in order, but the engine puts a new table right
        after its anchor, ahead of them. So when a table is among them, a blank paragraph goes
        after the last block first (the revised version's own final blank one when it has one,
        else a new blank line), and everything else is inserted *before* it in a second pass,
        where paragraphs and tables alike land in order. A move's half in that pass is written
        as a plain insertion (both halves of a move must share a batch).
        """
        items, last = self.trailing, self.last
        if not items or last is None:
            return
        if all(p.op["type"] != "insertTable" for p in items):
            self.plan.inserts.extend(items)
            return
        final = items[-1].op
        if final["type"] == "insertAfterBlock" and not final["text"] and "moveId" not in final:
            sentinel, rest = items[-1], items[:-1]
        else:
            fields: dict[str, Any] = {"type": "insertAfterBlock", "text": ""}
            ppr = last.block.element.find(W + "pPr")
            if ppr is not None and ppr.find(W + "numPr") is not None:
                fields["numbering"] = {"kind": "inherit"}
            sentinel, rest = Planned(fields, last.block.element), items
        self.plan.inserts.append(sentinel)
        for planned in rest:
            op = planned.op
            if op["type"] == "insertTable":
                op["position"] = "before"
            else:
                op["type"] = "insertBeforeBlock"
                op.setdefault("numbering", {"kind": "inherit"})
                op.setdefault("outlineLevel", None)
                move_id = op.pop("moveId", None)
                if move_id is not None:
                    self.unpaired_moves.add(move_id)
            planned.target = None
        self.plan.tail = rest
        self.plan.tail_after = last.block.element

    def _cell_text(self, tc: etree._Element) -> str:
        """A new cell's text: one line per paragraph. A line break *inside* a paragraph becomes a
        space, since the engine reads every line of a cell text as a paragraph of its own."""
        texts = [self.revised_at[p].block.text for p in tc.iter(_P) if p in self.revised_at]
        return "\n".join(_LINE_BREAKS.sub(" ", without_markers(t)) for t in texts)

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
        self._place(Planned(op, anchor.block.element), trailing=position == "after")

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
    events: list[Event], props: RevisedProperties, budget: Budget, move_ids: itertools.count[int]
) -> StoryPlan:
    """The operations that turn the base story into the revised one (see :mod:`.redline_ops`)."""
    return Planner(events, props, budget, move_ids).run()
