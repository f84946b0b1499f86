"""Row operations (contract §5.5): insertTableRow and deleteTableRow.

A new row copies its neighbour's shape (cell widths, spans, borders, shading) and, tracked, is
marked inserted row and content alike; a deleted row is marked deleted row and content alike
(Word reads the row record, LibreOffice 7.4 the run and mark records).
"""

from __future__ import annotations

from lxml import etree

from ..table_grid import GridCell, TableGrid
from ..xmlutil import W, is_on
from . import table_targets as targets
from .batch import Operation
from .context import EditContext, Outcome
from .registry import handles
from .skips import Skip
from .table_markup import Look, declare_w14, new_cell, new_row, row_properties
from .table_removal import delete_rows_and_report
from .table_xml import cell_width, row_mark

_TRPR, _TCPR, _DEL = W + "trPr", W + "tcPr", W + "del"


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
    block, _tc, tr, tbl = targets.in_cell(ctx, op.fields["blockId"])
    position = op.fields.get("position", "after")
    texts = list(op.fields.get("cellTexts") or ())
    grid = TableGrid(tbl)
    index = grid.trs.index(tr)
    upper = index if position == "after" else index - 1
    plan: list[tuple[GridCell, bool]] = []
    for slot in grid.rows[index].cells:
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
    revisions = targets.Revisions(ctx)
    trpr = row_properties(tr)
    neighbour = grid.rows[index + 1].tr if position == "after" and index + 1 < len(grid.rows) else None
    keep_header = _is_header(tr) if position == "before" else _is_header(tr) and _is_header(neighbour)
    if trpr is not None and not keep_header:
        for header in trpr.findall(W + "tblHeader"):
            trpr.remove(header)
    row = new_row(ctx, trpr, tr.find(W + "tblPrEx"))
    queue = list(texts)
    for slot, inside in plan:
        top, _rows = grid.unit(slot)
        text = "" if inside or not queue else queue.pop(0)
        width = grid.width(slot.col, slot.span) or cell_width(slot.tc)
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
    return Outcome([targets.insertion_receipt(block, position, "tableRow")], revision_ids=revisions.ids())


@handles("deleteTableRow")
def delete_table_row(ctx: EditContext, op: Operation) -> Outcome:
    """Delete the anchor's row; refused where a vertically merged cell would lose its top."""
    block, _tc, tr, tbl = targets.in_cell(ctx, op.fields["blockId"])
    grid = TableGrid(tbl)
    index = grid.trs.index(tr)
    for slot in grid.rows[index].cells:
        top, rows = grid.unit(slot)
        if top is slot and rows > 1:
            raise Skip(
                "unsupportedBlock",
                "a vertically merged cell starts in this row and continues below; split it first",
            )
    if ctx.tracked and row_mark(tr, _DEL) is not None:
        raise Skip("noopOperation", "the row is already pending deletion")
    ids = targets.untouched(ctx, [tr])
    receipt = targets.structure_receipt("tableRow", block, "deleted")
    return delete_rows_and_report(ctx, tbl, [tr], ids, receipt)
