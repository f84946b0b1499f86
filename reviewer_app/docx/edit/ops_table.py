"""Table operations (contract §5.5): insert/delete tables, rows and columns, merge and split cells,
and the signature table.

Tracked markup follows what Word writes: a wholly inserted or deleted row carries ``w:trPr/w:ins``
or ``w:del`` *and* its runs and paragraph marks are marked too (LibreOffice 7.4 reads the run and
mark records, Word the row record); a column is cell records (``w:cellIns``/``w:cellDel``), which
LibreOffice 7.4 ignores, so the cells' runs and marks are marked as well and the text change stays
visible and reversible there (the empty cells stay in LibreOffice). Merges and splits are vertical
``w:vMerge`` changes recorded as ``w:tcPrChange``. Decisions where the contract is silent are
written next to the code that makes them.
"""

from __future__ import annotations

import copy
from typing import Any

from lxml import etree

from ..blocks import Block
from ..xmlutil import W, is_on
from .batch import Operation
from .context import EditContext, Outcome
from .registry import handles
from .skips import Skip
from .table_grid import (
    TCPR_ORDER,
    Grid,
    Look,
    Slot,
    block_paragraphs,
    build_table,
    cell_is_empty,
    containing,
    declare_w14,
    delete_content,
    edge_block,
    ensure_props,
    is_bidi,
    neighbour_paragraph,
    new_cell,
    new_paragraph,
    new_row,
    place,
    place_table,
    rescue_markers,
    row_mark,
    row_properties,
    separate,
    simple,
    split_width,
    text_width,
    top_level,
)

_P, _TBL, _TR, _TC = W + "p", W + "tbl", W + "tr", W + "tc"
_TCPR, _TRPR, _INS, _DEL = W + "tcPr", W + "trPr", W + "ins", W + "del"
_SIGNATURE_LINE = "_" * 30
#: Parties side by side per row of a signature table (the usual two-column execution block).
_PARTIES_PER_ROW = 2


# ------------------------------------------------------------------ targets and bookkeeping
def _block(ctx: EditContext, block_id: str) -> Block:
    """The paragraph block ``block_id`` names; diagnostic blocks cannot anchor a table edit."""
    seen = ctx.snapshot.block(block_id)
    if seen is not None and seen.kind == "diagnostic":
        raise Skip("unsupportedBlock", "a diagnostic block holds no editable paragraph")
    return ctx.block(block_id)


def _cell(block: Block) -> tuple[etree._Element, etree._Element, etree._Element]:
    """(cell, row, table) of a block in a table, or ``unsupportedBlock``."""
    tc = containing(block.element, _TC) if block.table is not None else None
    tr = containing(tc, _TR) if tc is not None else None
    tbl = containing(tr, _TBL) if tr is not None else None
    if tc is None or tr is None or tbl is None:
        raise Skip("unsupportedBlock", "the block is not in a table cell")
    return tc, tr, tbl


def _block_ids(ctx: EditContext, elements: list[etree._Element]) -> list[str]:
    """Ids (as the batch read them) of the blocks inside ``elements``."""
    by_element = {id(b.element): b.id for b in ctx.snapshot.blocks if b.element is not None}
    return [by_element[id(p)] for el in elements for p in el.iter(_P) if id(p) in by_element]


def _untouched(ctx: EditContext, elements: list[etree._Element], whole_only: bool = False) -> list[str]:
    """``overlappingOperation`` when an earlier operation of the batch edited a block in ``elements``
    (deletions), or consumed one (``whole_only``: merges and splits keep text edits); returns the
    blocks' ids."""
    ids = _block_ids(ctx, elements)
    for block_id in ids:
        edits = [e for e in ctx.edited.get(block_id, ()) if e.whole_block or not whole_only]
        if edits:
            raise Skip(
                "overlappingOperation", f'operation "{edits[0].operation_id}" already changes this table'
            )
    return ids


def _consume(ctx: EditContext, ids: list[str]) -> None:
    for block_id in ids:
        ctx.record_whole_block(block_id)
    ctx.mark_structure_changed()


class _Revisions:
    """The revision ids an operation mints (one counter, so a range)."""

    def __init__(self, ctx: EditContext) -> None:
        self.ctx = ctx
        self.start = ctx.stamper.next_revision_id

    def ids(self) -> list[str]:
        return [str(i) for i in range(self.start, self.ctx.stamper.next_revision_id)]


def _remove(ctx: EditContext, el: etree._Element, rescue_to: etree._Element | None) -> None:
    """Detach ``el`` (direct mode), keeping range markers whose partner lives elsewhere."""
    rescue_markers(ctx, el, rescue_to)
    ctx.removing(el)
    el.getparent().remove(el)


def _own_insertion(ctx: EditContext, tr: etree._Element) -> bool:
    """A row this author inserted and nobody deleted: deleting it simply takes it out, as in Word."""
    mark = row_mark(tr, _INS)
    return mark is not None and mark.get(W + "author") == ctx.stamper.author and row_mark(tr, _DEL) is None


def _delete_rows(ctx: EditContext, tbl: etree._Element, rows: list[etree._Element]) -> None:
    """Delete ``rows`` of ``tbl``: tracked marks, or removal (the whole table when no row is left).

    Tracked, a row this author inserted is simply taken out (as Word does with your own pending
    insertion); any other row is marked deleted, content included.
    """
    gone = rows if not ctx.tracked else [tr for tr in rows if _own_insertion(ctx, tr)]
    if gone and not [tr for tr in Grid(tbl).rows if tr not in gone]:
        _remove_table(ctx, tbl)
        return
    for tr in rows:
        if tr in gone:
            _remove(ctx, tr, neighbour_paragraph(tr))
        else:
            delete_content(ctx, tr)


def _remove_table(ctx: EditContext, tbl: etree._Element) -> None:
    parent, index = tbl.getparent(), tbl.getparent().index(tbl)
    _remove(ctx, tbl, neighbour_paragraph(tbl))
    before = parent[index - 1] if index > 0 else None
    after = parent[index] if index < len(parent) else None
    if (
        after is not None
        and edge_block(before, forward=False) == _TBL
        and edge_block(after, forward=True) == _TBL
    ):
        separate(ctx, after, before=True)  # two tables must not touch: Word would join them


def _insertion(block: Block, position: str, content: str) -> dict[str, Any]:
    """The §5.9 receipt of an insertion beside ``block``."""
    return dict(type="insertion", story="main", anchorBlockId=block.id, position=position, content=content)


def _structure(kind: str, block: Block, effect: str, **extra: Any) -> dict[str, Any]:
    """The §5.9 receipt of a row, column or cell change anchored at ``block``."""
    return {"type": kind, "story": "main", "anchorBlockId": block.id, "effect": effect, **extra}


@handles("insertTable")
def insert_table(ctx: EditContext, op: Operation) -> Outcome:
    block = _block(ctx, op.fields["blockId"])
    position = op.fields.get("position", "after")
    rows = [list(row) for row in op.fields["rows"]]
    revisions = _Revisions(ctx)
    width = text_width(ctx.doc.body, top_level(block), after=position == "after")
    tbl = build_table(ctx, rows, split_width(width, len(rows[0])), Look(bidi=is_bidi(block.element)), "grid")
    place_table(ctx, block, tbl, position)
    return Outcome([_insertion(block, position, "table")], revision_ids=revisions.ids())


@handles("insertSignatureTable")
def insert_signature_table(ctx: EditContext, op: Operation) -> Outcome:
    """A borderless execution block: one cell per party, two parties side by side per row.

    Decision: the layout UK/US commercial contracts use: "Signed for and on behalf of <name>",
    a signature line, then "Name:", "Title:" and "Date:" lines left for the signatory to fill
    when the operation does not name them.
    """
    block = _block(ctx, op.fields["blockId"])
    parties = list(op.fields["parties"])
    if not parties:
        raise Skip("emptyOperation")
    position = op.fields.get("position", "after")
    look = Look(bidi=is_bidi(block.element))
    width = text_width(ctx.doc.body, top_level(block), after=position == "after")
    columns = min(_PARTIES_PER_ROW, len(parties))
    cells: list[list[Any]] = []
    for start in range(0, len(parties), _PARTIES_PER_ROW):
        chunk = parties[start : start + _PARTIES_PER_ROW]
        cells.append([_party_filler(ctx, p, look) for p in chunk] + [""] * (columns - len(chunk)))
    revisions = _Revisions(ctx)
    tbl = build_table(ctx, cells, [width // _PARTIES_PER_ROW] * columns, look, "none")
    place_table(ctx, block, tbl, position)
    # the engine puts the optional comment on the table's first paragraph
    return Outcome(
        [_insertion(block, position, "signatureTable")],
        revision_ids=revisions.ids(),
        comment_anchor=(next(block_paragraphs(tbl)), None, None),
    )


def _party_filler(ctx: EditContext, party: Any, look: Look) -> Any:
    lines: list[list[tuple[str, bool]]] = [
        [("Signed for and on behalf of ", False), (party["name"], True)],
        [],
        [(_SIGNATURE_LINE, False)],
        [("Name: " + (party.get("signatory") or ""), False)],
        [("Title: " + (party.get("title") or ""), False)],
        [("Date:", False)],
    ]

    def fill(tc: etree._Element) -> None:
        for parts in lines:
            tc.append(new_paragraph(ctx, "", look, parts=parts))

    return fill


@handles("deleteTable")
def delete_table(ctx: EditContext, op: Operation) -> Outcome:
    """Delete the innermost table holding the block (all its rows, nested tables included)."""
    block = _block(ctx, op.fields["blockId"])
    _tc, _tr, tbl = _cell(block)
    grid = Grid(tbl)
    if any(grid.hidden):
        raise Skip("unsupportedBlock", "the table has hidden rows, whose content was never shown to you")
    ids = _untouched(ctx, [tbl])
    if ctx.tracked and all(row_mark(tr, _DEL) is not None for tr in grid.rows):
        raise Skip("noopOperation", "the table is already pending deletion")
    revisions = _Revisions(ctx)
    _delete_rows(ctx, tbl, grid.rows)
    _consume(ctx, ids)
    return Outcome(
        [{"type": "block", "story": "main", "blockId": block.id, "effect": "deleted"}],
        revision_ids=revisions.ids(),
    )


# ------------------------------------------------------------------ rows
def _is_header(tr: etree._Element | None) -> bool:
    trpr = tr.find(_TRPR) if tr is not None else None
    return trpr is not None and is_on(trpr.find(W + "tblHeader"))


@handles("insertTableRow")
def insert_table_row(ctx: EditContext, op: Operation) -> Outcome:
    """A row beside the anchor's row, shaped like it (cell widths, spans, properties).

    Decision on vertical merges: a new row strictly inside a vertically merged cell continues the
    merge (the merged cell grows, the new slot takes no text); at the merge's top or bottom edge
    the new cell is an independent cell, as Word does when inserting above or below.
    """
    block = _block(ctx, op.fields["blockId"])
    _tc, tr, tbl = _cell(block)
    position = op.fields.get("position", "after")
    texts = list(op.fields.get("cellTexts") or ())
    grid = Grid(tbl)
    index = grid.rows.index(tr)
    upper = index if position == "after" else index - 1
    plan: list[tuple[Slot, bool]] = []
    for slot in grid.slots[index]:
        above, below = grid.at(upper, slot.col), grid.at(upper + 1, slot.col)
        inside = (
            above is not None
            and below is not None
            and above.col == below.col == slot.col
            and above.vmerge is not None
            and below.vmerge == "continue"
        )
        plan.append((slot, inside))
    writable = [slot for slot, inside in plan if not inside]
    if len(texts) > len(writable):
        raise Skip("payloadDoesNotFit", f"{len(texts)} cellTexts for a row with {len(writable)} free cells")
    revisions = _Revisions(ctx)
    trpr = row_properties(tr)
    neighbour = grid.rows[index + 1] if position == "after" and index + 1 < len(grid.rows) else None
    keep_header = _is_header(tr) if position == "before" else _is_header(tr) and _is_header(neighbour)
    if trpr is not None and not keep_header:
        for header in trpr.findall(W + "tblHeader"):
            trpr.remove(header)
    row = new_row(ctx, trpr, tr.find(W + "tblPrEx"))
    queue = list(texts)
    for slot, inside in plan:
        top, _rows = grid.unit(slot)
        text = "" if inside or not queue else queue.pop(0)
        width = grid.width(slot.col, slot.span) or _tcw(slot.tc)
        row.append(
            new_cell(
                ctx,
                width,
                text,
                Look.of_cell(top.tc),
                slot.tc.find(_TCPR),
                span=slot.span,
                vmerge="continue" if inside else None,
            )
        )
    if position == "before":
        tr.addprevious(row)
    else:
        tr.addnext(row)
    ctx.created(row)
    declare_w14(ctx.doc.root)
    return Outcome([_insertion(block, position, "tableRow")], revision_ids=revisions.ids())


def _tcw(tc: etree._Element) -> int:
    """A cell's stated width in twips (1440 when it states none): for tables without a grid width."""
    tcw = tc.find(f"{_TCPR}/{W}tcW")
    try:
        if tcw is not None and tcw.get(W + "type") in (None, "dxa"):
            return int(float(tcw.get(W + "w") or ""))
    except ValueError:
        pass
    return 1440


@handles("deleteTableRow")
def delete_table_row(ctx: EditContext, op: Operation) -> Outcome:
    block = _block(ctx, op.fields["blockId"])
    _tc, tr, tbl = _cell(block)
    grid = Grid(tbl)
    index = grid.rows.index(tr)
    for slot in grid.slots[index]:
        top, rows = grid.unit(slot)
        if top is slot and rows > 1:
            raise Skip(
                "unsupportedBlock",
                "a vertically merged cell starts in this row and continues below; split it first",
            )
    if ctx.tracked and row_mark(tr, _DEL) is not None:
        raise Skip("noopOperation", "the row is already pending deletion")
    ids = _untouched(ctx, [tr])
    revisions = _Revisions(ctx)
    _delete_rows(ctx, tbl, [tr])
    _consume(ctx, ids)
    return Outcome(
        [_structure("tableRow", block, "deleted")],
        revision_ids=revisions.ids(),
    )


# ------------------------------------------------------------------ columns
def _grid_element(ctx: EditContext, tbl: etree._Element) -> etree._Element:
    grid = tbl.find(W + "tblGrid")
    if grid is None:
        raise Skip("unsupportedBlock", "the table has no column grid")
    ctx.touch(grid)
    return grid


def _record_grid(ctx: EditContext, grid: etree._Element) -> None:
    """Tracked: keep the grid as it was in ``w:tblGridChange`` (once: an older record stays)."""
    if not ctx.tracked or grid.find(W + "tblGridChange") is not None:
        return
    change = etree.SubElement(grid, W + "tblGridChange", attrib={W + "id": ctx.stamper.revision_id()})
    old = etree.SubElement(change, W + "tblGrid")
    for col in grid.findall(W + "gridCol"):
        old.append(copy.deepcopy(col))


def _adjust_table_width(ctx: EditContext, tbl: etree._Element, delta: int) -> None:
    """Direct mode: a fixed table width (dxa) follows its columns."""
    tblw = tbl.find(W + "tblPr/" + W + "tblW")
    if ctx.tracked or tblw is None or tblw.get(W + "type") != "dxa":
        return
    try:
        width = int(float(tblw.get(W + "w") or "0"))
    except ValueError:
        return
    if width > 0:
        ctx.touch(tblw)
        tblw.set(W + "w", str(max(width + delta, 0)))


@handles("insertTableColumn")
def insert_table_column(ctx: EditContext, op: Operation) -> Outcome:
    """A column beside the anchor's column: one new cell per row, texts for the visible rows in order.

    Decision on widths: the new column copies the width of the anchor's adjacent grid column and
    the table grows by it (what Word's Insert Column does); tracked, the old grid is kept in
    ``w:tblGridChange`` so rejecting restores it exactly, and no existing cell is re-measured.
    """
    block = _block(ctx, op.fields["blockId"])
    tc, _tr, tbl = _cell(block)
    after = op.fields.get("position", "after") == "after"
    texts = list(op.fields.get("cellTexts") or ())
    grid = Grid(tbl)
    anchor = grid.slot_of(tc)
    boundary = anchor.end if after else anchor.col
    plan: list[tuple[int, Slot | None, Slot | None]] = []
    for r, row in enumerate(grid.slots):
        if not row or boundary > row[-1].end:
            continue  # a short row ends before the new column
        if boundary < grid.before[r] or any(s.col < boundary < s.end for s in row):
            raise Skip(
                "unsupportedBlock",
                f"a merged cell spans the new column's place in row {r + 1}; split it first",
            )
        left = next((s for s in row if s.end == boundary), None)
        right = next((s for s in row if s.col == boundary), None)
        plan.append((r, left, right))
    visible = [r for r, _l, _r in plan if not grid.hidden[r]]
    if len(texts) > len(visible):
        raise Skip("payloadDoesNotFit", f"{len(texts)} cellTexts for a column with {len(visible)} cells")
    revisions = _Revisions(ctx)
    width = grid.width(boundary - 1 if after else boundary) or _tcw(tc)
    grid_el = _grid_element(ctx, tbl)
    _record_grid(ctx, grid_el)
    cols = grid_el.findall(W + "gridCol")
    new_col = simple("gridCol", w=str(width))
    if boundary < len(cols):
        cols[boundary].addprevious(new_col)
    elif cols:
        cols[-1].addnext(new_col)
    else:
        grid_el.insert(0, new_col)
    _adjust_table_width(ctx, tbl, width)
    texts_by_row = dict(zip(visible, texts, strict=False))
    for r, left, right in plan:
        template = (left if after else right) or left or right
        assert template is not None
        top, _rows = grid.unit(template)
        cell = new_cell(
            ctx, width, texts_by_row.get(r, ""), Look.of_cell(top.tc), template.tc.find(_TCPR), mark=True
        )
        if left is not None:
            left.tc.addnext(cell)
        else:
            assert right is not None
            right.tc.addprevious(cell)
        ctx.created(cell)
    declare_w14(ctx.doc.root)
    return Outcome(
        [_insertion(block, "after" if after else "before", "tableColumn")], revision_ids=revisions.ids()
    )


@handles("deleteTableColumn")
def delete_table_column(ctx: EditContext, op: Operation) -> Outcome:
    """Delete the grid columns the anchor's cell covers, in every row.

    Tracked: each cell gets ``w:cellDel`` and its content is marked deleted; the grid stays as it
    is until the deletion is accepted (the cells are still there). Direct: the cells and grid
    columns go. The table's only column deletes the table.
    """
    block = _block(ctx, op.fields["blockId"])
    tc, _tr, tbl = _cell(block)
    grid = Grid(tbl)
    anchor = grid.slot_of(tc)
    first, end = anchor.col, anchor.end
    doomed: list[Slot] = []
    emptied: list[int] = []
    for r, row in enumerate(grid.slots):
        hit = [s for s in row if s.col < end and s.end > first]
        if any(s.col < first or s.end > end for s in hit) or (hit and grid.before[r] > first):
            raise Skip(
                "unsupportedBlock", f"a merged cell in row {r + 1} reaches across this column; split it first"
            )
        if grid.hidden[r] and any(not cell_is_empty(s.tc) for s in hit):
            raise Skip("unsupportedBlock", "the column runs through hidden rows that hold text")
        if row and len(hit) == len(row):
            emptied.append(r)
        doomed.extend(hit)
    whole_table = len(emptied) == len([row for row in grid.slots if row])
    if emptied and not whole_table:
        raise Skip(
            "unsupportedBlock", f"row {emptied[0] + 1} would have no cells left; delete that row instead"
        )
    live = [s for s in doomed if s.tc.find(_TCPR + "/" + W + "cellDel") is None]
    if ctx.tracked and not live:
        raise Skip("noopOperation", "the column is already pending deletion")
    ids = _untouched(ctx, [s.tc for s in doomed])
    revisions = _Revisions(ctx)
    if whole_table:
        _delete_rows(ctx, tbl, grid.rows)
    elif ctx.tracked:
        for slot in live:
            tcpr = ensure_props(ctx, slot.tc, _TCPR)
            place(tcpr, etree.Element(W + "cellDel", attrib=ctx.stamper.attributes()), TCPR_ORDER)
            delete_content(ctx, slot.tc)
    else:
        for slot in doomed:
            _remove(ctx, slot.tc, neighbour_paragraph(slot.tc))
        grid_el = _grid_element(ctx, tbl)
        for col in grid_el.findall(W + "gridCol")[first:end]:
            grid_el.remove(col)
        _adjust_table_width(ctx, tbl, -grid.width(first, end - first))
    _consume(ctx, ids)
    return Outcome(
        [_structure("tableColumn", block, "deleted")],
        revision_ids=revisions.ids(),
    )


# ------------------------------------------------------------------ merge and split
def _region(
    ctx: EditContext, op: Operation, grid: Grid, anchor: Slot, tbl: etree._Element
) -> list[list[Slot]]:
    """The rows of cells a merge covers (a rectangle whose edges cut through no merged cell)."""
    top, rows = grid.unit(anchor)
    if "endBlockId" in op.fields:
        end_block = _block(ctx, op.fields["endBlockId"])
        end_tc, _end_tr, end_tbl = _cell(end_block)
        if end_tbl is not tbl:
            raise Skip("unsupportedBlock", "endBlockId is not in the same table as blockId")
        other, other_rows = grid.unit(grid.slot_of(end_tc))
        r0, r1 = min(top.row, other.row), max(top.row + rows, other.row + other_rows)
        c0, c1 = min(top.col, other.col), max(top.end, other.end)
    else:
        r0, r1, c0, c1 = top.row, top.row + op.fields["rowCount"], top.col, top.end
        if r1 > len(grid.rows):
            raise Skip(
                "unsupportedBlock", f"the table has only {len(grid.rows) - r0} rows from this cell down"
            )
    region: list[list[Slot]] = []
    for r in range(r0, r1):
        if grid.hidden[r] or row_mark(grid.rows[r], _DEL) is not None:
            raise Skip("unsupportedBlock", f"row {r + 1} is hidden or pending deletion")
        cover = [s for s in grid.slots[r] if s.col < c1 and s.end > c0]
        spans = sum(s.span for s in cover)
        if not cover or cover[0].col != c0 or cover[-1].end != c1 or spans != c1 - c0:
            raise Skip("unsupportedBlock", f"the merge's edge cuts through a merged cell in row {r + 1}")
        for slot in cover:
            unit_top, unit_rows = grid.unit(slot)
            if unit_top.row < r0 or unit_top.row + unit_rows > r1:
                raise Skip("unsupportedBlock", "the merge's edge cuts through a vertically merged cell")
        region.append(cover)
    return region


def _record_cell_change(ctx: EditContext, tc: etree._Element, vmerge: str | None) -> None:
    """Tracked: set the cell's ``w:vMerge`` and keep the old properties in ``w:tcPrChange``."""
    tcpr = ensure_props(ctx, tc, _TCPR)
    old = copy.deepcopy(tcpr)
    old.tail = None
    for vm in tcpr.findall(W + "vMerge"):
        tcpr.remove(vm)
    if vmerge is not None:
        place(tcpr, simple("vMerge", val="restart") if vmerge == "restart" else simple("vMerge"), TCPR_ORDER)
    change = etree.Element(W + "tcPrChange", attrib=ctx.stamper.attributes())
    change.append(old)
    tcpr.append(change)


def _pending_cell_change(slots: list[Slot]) -> None:
    if any(s.tc.find(_TCPR + "/" + W + "tcPrChange") is not None for s in slots):
        raise Skip(
            "unsupportedBlock", "a cell already has a pending tracked property change; resolve it first"
        )


@handles("mergeTableCells")
def merge_table_cells(ctx: EditContext, op: Operation) -> Outcome:
    """Merge a rectangle of cells into its top-left cell.

    Direct: ``w:gridSpan`` across, ``w:vMerge`` down; the other cells' content moves into the
    first cell in reading order (empty cells add nothing). Tracked (§5.5): only a vertical merge
    whose cells below the first are empty, written as ``w:vMerge`` with ``w:tcPrChange``; any other
    merge is refused ``unsupportedMode`` since a tracked change cannot express moving text between
    cells. LibreOffice 7.4 ignores ``w:tcPrChange``: it shows the merge applied, not as a change.
    """
    block = _block(ctx, op.fields["blockId"])
    tc, _tr, tbl = _cell(block)
    grid = Grid(tbl)
    region = _region(ctx, op, grid, grid.slot_of(tc), tbl)
    units = {id(grid.unit(s)[0]) for row in region for s in row}
    if len(units) == 1:
        raise Skip("noopOperation", "those cells are already one cell")
    slots = [s for row in region for s in row]
    if ctx.tracked:
        if any(len(row) > 1 for row in region):
            raise Skip("unsupportedMode", "a tracked merge can only join cells vertically")
        if any(not cell_is_empty(row[0].tc) for row in region[1:]):
            raise Skip("unsupportedMode", "a tracked merge needs the cells below the first to be empty")
        _pending_cell_change(slots)
    _untouched(ctx, [s.tc for s in slots], whole_only=True)
    revisions = _Revisions(ctx)
    removed: list[etree._Element] = []
    if ctx.tracked:
        for r, row in enumerate(region):
            _record_cell_change(ctx, row[0].tc, "restart" if r == 0 else "continue")
    else:
        removed = _merge_direct(ctx, grid, region)
    _consume(ctx, _block_ids(ctx, removed))
    if "endBlockId" in op.fields:
        receipt = _structure("tableCells", block, "merged", endAnchorBlockId=op.fields["endBlockId"])
    else:
        receipt = _structure("tableCells", block, "merged", rowCount=op.fields["rowCount"])
    return Outcome([receipt], revision_ids=revisions.ids())


def _move_content(ctx: EditContext, source: etree._Element, target: etree._Element) -> None:
    for child in [c for c in source if c.tag != _TCPR]:
        ctx.removing(child)
        source.remove(child)
        target.append(child)
        ctx.created(child)


def _merge_direct(ctx: EditContext, grid: Grid, region: list[list[Slot]]) -> list[etree._Element]:
    """Merge ``region`` into its first cell; return the elements removed (their blocks are gone)."""
    first = region[0][0]
    c0, c1 = first.col, region[0][-1].end
    width = grid.width(c0, c1 - c0) or sum(_tcw(s.tc) for s in region[0])
    target_empty = cell_is_empty(first.tc)
    own = [c for c in first.tc if c.tag != _TCPR]
    moved = False
    removed: list[etree._Element] = []
    for r, row in enumerate(region):
        for slot in row:
            if slot is first:
                continue
            if not cell_is_empty(slot.tc):
                _move_content(ctx, slot.tc, first.tc)
                moved = True
            if slot is not row[0]:
                _remove(ctx, slot.tc, next(block_paragraphs(first.tc), None))
                removed.append(slot.tc)
        lead = row[0]
        tcpr = ensure_props(ctx, lead.tc, _TCPR)
        place(tcpr, simple("tcW", w=str(width), type="dxa"), TCPR_ORDER)
        for span in tcpr.findall(W + "gridSpan"):
            tcpr.remove(span)
        if c1 - c0 > 1:
            place(tcpr, simple("gridSpan", val=str(c1 - c0)), TCPR_ORDER)
        for vm in tcpr.findall(W + "vMerge"):
            tcpr.remove(vm)
        if len(region) > 1:
            place(tcpr, simple("vMerge", val="restart") if r == 0 else simple("vMerge"), TCPR_ORDER)
        if lead is not first and not list(block_paragraphs(lead.tc)):
            p = new_paragraph(ctx, "", Look())
            lead.tc.append(p)
            ctx.created(p)
    if moved and target_empty:
        for child in own:
            _remove(ctx, child, next((p for p in block_paragraphs(first.tc) if p not in own), None))
            removed.append(child)
    declare_w14(ctx.doc.root)
    return removed


@handles("splitTableCell")
def split_table_cell(ctx: EditContext, op: Operation) -> Outcome:
    """Split a merged cell back into single cells; the content stays in the top-left one.

    Tracked (§5.5): vertical spans only, each cell's ``w:vMerge`` removal kept in ``w:tcPrChange``.
    """
    block = _block(ctx, op.fields["blockId"])
    tc, _tr, tbl = _cell(block)
    grid = Grid(tbl)
    top, rows = grid.unit(grid.slot_of(tc))
    if top.span == 1 and rows == 1:
        raise Skip("noopOperation", "the cell is not merged")
    slots = grid.unit_slots(top, rows)
    if ctx.tracked:
        if top.span > 1:
            raise Skip("unsupportedMode", "a tracked split can only undo a vertical merge")
        _pending_cell_change(slots)
    _untouched(ctx, [s.tc for s in slots], whole_only=True)
    revisions = _Revisions(ctx)
    for slot in slots:
        if ctx.tracked:
            _record_cell_change(ctx, slot.tc, None)
            continue
        tcpr = ensure_props(ctx, slot.tc, _TCPR)
        for child in tcpr.findall(W + "vMerge") + tcpr.findall(W + "gridSpan"):
            tcpr.remove(child)
        if slot.span > 1:
            place(
                tcpr,
                simple("tcW", w=str(grid.width(slot.col) or _tcw(slot.tc) // slot.span), type="dxa"),
                TCPR_ORDER,
            )
        previous = slot.tc
        for col in range(slot.col + 1, slot.end):
            cell = new_cell(ctx, grid.width(col) or _tcw(slot.tc), "", Look.of_cell(top.tc), tcpr)
            previous.addnext(cell)
            ctx.created(cell)
            previous = cell
    ctx.mark_structure_changed()
    declare_w14(ctx.doc.root)
    return Outcome(
        [_structure("tableCell", block, "split")],
        revision_ids=revisions.ids(),
    )
