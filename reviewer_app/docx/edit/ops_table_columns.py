"""Column operations (contract §5.5): insertTableColumn and deleteTableColumn.

A column is cells, one per row, plus a grid column. Tracked, each new or deleted cell carries
``w:cellIns``/``w:cellDel``, which LibreOffice 7.4 ignores, so the cells' runs and marks are marked
as well and the text change stays visible and reversible there (the empty cells stay in
LibreOffice); a new column keeps the old grid in ``w:tblGridChange`` so rejecting restores it.
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
from .table_markup import TCPR_ORDER, Look, declare_w14, ensure_props, new_cell, place, simple
from .table_removal import delete_content, delete_rows, neighbour_paragraph, remove
from .table_xml import cell_is_empty, cell_width, remove_grid_columns, widen_fixed_table

_TCPR = W + "tcPr"


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
    """Direct mode: a fixed table width (dxa) follows its columns (tracked, it waits for acceptance)."""
    if not ctx.tracked:
        widen_fixed_table(tbl, delta, ctx.touch)


@handles("insertTableColumn")
def insert_table_column(ctx: EditContext, op: Operation) -> Outcome:
    """A column beside the anchor's column: one new cell per row, texts for the visible rows in order.

    Decision on widths: the new column copies the width of the anchor's adjacent grid column and
    the table grows by it (what Word's Insert Column does); tracked, the old grid is kept in
    ``w:tblGridChange`` so rejecting restores it exactly, and no existing cell is re-measured.
    """
    block, tc, _tr, tbl = targets.in_cell(ctx, op.fields["blockId"])
    after = op.fields.get("position", "after") == "after"
    texts = list(op.fields.get("cellTexts") or ())
    grid = TableGrid(tbl)
    anchor = grid.slot_of(tc)
    boundary = anchor.end if after else anchor.col
    plan: list[tuple[int, GridCell | None, GridCell | None]] = []
    for r, grid_row in enumerate(grid.rows):
        row = grid_row.cells
        if not row or boundary > row[-1].end:
            continue  # a short row ends before the new column
        if boundary < grid_row.before or any(s.col < boundary < s.end for s in row):
            raise Skip(
                "unsupportedBlock",
                f"a merged cell spans the new column's place in row {r + 1}; split it first",
            )
        left = next((s for s in row if s.end == boundary), None)
        right = next((s for s in row if s.col == boundary), None)
        plan.append((r, left, right))
    visible = [r for r, _l, _r in plan if not grid.rows[r].hidden]
    if len(texts) > len(visible):
        raise Skip("payloadDoesNotFit", f"{len(texts)} cellTexts for a column with {len(visible)} cells")
    revisions = targets.Revisions(ctx)
    width = grid.width(boundary - 1 if after else boundary) or cell_width(tc)
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
        [targets.insertion_receipt(block, "after" if after else "before", "tableColumn")],
        revision_ids=revisions.ids(),
    )


@handles("deleteTableColumn")
def delete_table_column(ctx: EditContext, op: Operation) -> Outcome:
    """Delete the grid columns the anchor's cell covers, in every row.

    Tracked: each cell gets ``w:cellDel`` and its content is marked deleted; the grid stays as it
    is until the deletion is accepted (the cells are still there; accepting drops the grid column,
    see :mod:`.resolve_table`). Direct: the cells and grid columns go. The table's only column
    deletes the table.
    """
    block, tc, _tr, tbl = targets.in_cell(ctx, op.fields["blockId"])
    grid = TableGrid(tbl)
    anchor = grid.slot_of(tc)
    first, end = anchor.col, anchor.end
    doomed: list[GridCell] = []
    emptied: list[int] = []
    for r, grid_row in enumerate(grid.rows):
        hit = [s for s in grid_row.cells if s.col < end and s.end > first]
        if any(s.col < first or s.end > end for s in hit) or (hit and grid_row.before > first):
            raise Skip(
                "unsupportedBlock", f"a merged cell in row {r + 1} reaches across this column; split it first"
            )
        if grid_row.hidden and any(not cell_is_empty(s.tc) for s in hit):
            raise Skip("unsupportedBlock", "the column runs through hidden rows that hold text")
        if grid_row.cells and len(hit) == len(grid_row.cells):
            emptied.append(r)
        doomed.extend(hit)
    whole_table = len(emptied) == len([row for row in grid.rows if row.cells])
    if emptied and not whole_table:
        raise Skip(
            "unsupportedBlock", f"row {emptied[0] + 1} would have no cells left; delete that row instead"
        )
    live = [s for s in doomed if s.tc.find(_TCPR + "/" + W + "cellDel") is None]
    if ctx.tracked and not live:
        raise Skip("noopOperation", "the column is already pending deletion")
    ids = targets.untouched(ctx, [s.tc for s in doomed])
    revisions = targets.Revisions(ctx)
    if whole_table:
        delete_rows(ctx, tbl, grid.trs)
    elif ctx.tracked:
        for slot in live:
            tcpr = ensure_props(ctx, slot.tc, _TCPR)
            place(tcpr, etree.Element(W + "cellDel", attrib=ctx.stamper.attributes()), TCPR_ORDER)
            delete_content(ctx, slot.tc)
    else:
        for slot in doomed:
            remove(ctx, slot.tc, neighbour_paragraph(slot.tc))
        _grid_element(ctx, tbl)
        _adjust_table_width(ctx, tbl, -remove_grid_columns(tbl, first, end))
    targets.consume(ctx, ids)
    return Outcome(
        [targets.structure_receipt("tableColumn", block, "deleted")],
        revision_ids=revisions.ids(),
    )
