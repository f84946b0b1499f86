"""Cell operations (contract §5.5): mergeTableCells and splitTableCell.

Direct, a merge is ``w:gridSpan`` across and ``w:vMerge`` down, the other cells' content moving
into the first cell; a split gives every grid column of the merged cell its own cell again.
Tracked, only vertical merges and splits can be expressed: ``w:vMerge`` changes recorded as
``w:tcPrChange`` (LibreOffice 7.4 ignores those and shows the change applied).
"""

from __future__ import annotations

import copy

from lxml import etree

from ..table_grid import GridCell, TableGrid
from ..xmlutil import W
from . import table_targets as targets
from .batch import Operation
from .context import EditContext, Outcome
from .registry import handles
from .skips import Skip
from .table_markup import TCPR_ORDER, Look, declare_w14, ensure_props, new_cell, new_paragraph, place, simple
from .table_removal import remove
from .table_xml import block_paragraphs, cell_is_empty, cell_width, row_mark

_TCPR, _DEL = W + "tcPr", W + "del"


def _region(
    ctx: EditContext, op: Operation, grid: TableGrid, anchor: GridCell, tbl: etree._Element
) -> list[list[GridCell]]:
    """The rows of cells a merge covers (a rectangle whose edges cut through no merged cell)."""
    top, rows = grid.unit(anchor)
    if "endBlockId" in op.fields:
        _end_block, end_tc, _end_tr, end_tbl = targets.in_cell(ctx, op.fields["endBlockId"])
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
    region: list[list[GridCell]] = []
    for r in range(r0, r1):
        if grid.rows[r].hidden or row_mark(grid.rows[r].tr, _DEL) is not None:
            raise Skip("unsupportedBlock", f"row {r + 1} is hidden or pending deletion")
        cover = [s for s in grid.rows[r].cells if s.col < c1 and s.end > c0]
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


def _pending_cell_change(slots: list[GridCell]) -> None:
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
    block, tc, _tr, tbl = targets.in_cell(ctx, op.fields["blockId"])
    grid = TableGrid(tbl)
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
    targets.untouched(ctx, [s.tc for s in slots], whole_only=True)
    revisions = targets.Revisions(ctx)
    removed: list[etree._Element] = []
    if ctx.tracked:
        for r, row in enumerate(region):
            _record_cell_change(ctx, row[0].tc, "restart" if r == 0 else "continue")
    else:
        removed = _merge_direct(ctx, grid, region)
    targets.consume(ctx, targets.block_ids(ctx, removed))
    if "endBlockId" in op.fields:
        extent = {"endAnchorBlockId": op.fields["endBlockId"]}
    else:
        extent = {"rowCount": op.fields["rowCount"]}
    receipt = targets.structure_receipt("tableCells", block, "merged", **extent)
    return Outcome([receipt], revision_ids=revisions.ids())


def _move_content(ctx: EditContext, source: etree._Element, target: etree._Element) -> None:
    for child in [c for c in source if c.tag != _TCPR]:
        ctx.removing(child)
        source.remove(child)
        target.append(child)
        ctx.created(child)


def _merge_direct(ctx: EditContext, grid: TableGrid, region: list[list[GridCell]]) -> list[etree._Element]:
    """Merge ``region`` into its first cell; return the elements removed (their blocks are gone)."""
    first = region[0][0]
    c0, c1 = first.col, region[0][-1].end
    width = grid.width(c0, c1 - c0) or sum(cell_width(s.tc) for s in region[0])
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
                remove(ctx, slot.tc, next(block_paragraphs(first.tc), None))
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
            remove(ctx, child, next((p for p in block_paragraphs(first.tc) if p not in own), None))
            removed.append(child)
    declare_w14(ctx.doc.root)
    return removed


@handles("splitTableCell")
def split_table_cell(ctx: EditContext, op: Operation) -> Outcome:
    """Split a merged cell back into single cells; the content stays in the top-left one.

    Tracked (§5.5): vertical spans only, each cell's ``w:vMerge`` removal kept in ``w:tcPrChange``.
    """
    block, tc, _tr, tbl = targets.in_cell(ctx, op.fields["blockId"])
    grid = TableGrid(tbl)
    top, rows = grid.unit(grid.slot_of(tc))
    if top.span == 1 and rows == 1:
        raise Skip("noopOperation", "the cell is not merged")
    slots = grid.unit_cells(top, rows)
    if ctx.tracked:
        if top.span > 1:
            raise Skip("unsupportedMode", "a tracked split can only undo a vertical merge")
        _pending_cell_change(slots)
    targets.untouched(ctx, [s.tc for s in slots], whole_only=True)
    revisions = targets.Revisions(ctx)
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
                simple("tcW", w=str(grid.width(slot.col) or cell_width(slot.tc) // slot.span), type="dxa"),
                TCPR_ORDER,
            )
        previous = slot.tc
        for col in range(slot.col + 1, slot.end):
            cell = new_cell(ctx, grid.width(col) or cell_width(slot.tc), "", Look.of_cell(top.tc), tcpr)
            previous.addnext(cell)
            ctx.created(cell)
            previous = cell
    ctx.mark_structure_changed()
    declare_w14(ctx.doc.root)
    return Outcome(
        [targets.structure_receipt("tableCell", block, "split")],
        revision_ids=revisions.ids(),
    )
