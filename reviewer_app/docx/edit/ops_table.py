"""Whole-table operations (contract §5.5): insertTable and deleteTable.

A new table is as wide as the text where it lands, with equal columns and the document's
``TableGrid`` style when it has one; tracked, every row and paragraph of it is marked inserted.
Deleting a table deletes all its rows (:func:`.table_removal.delete_rows`). Rows, columns, cells
and the signature table have their own modules (``ops_table_rows``, ``ops_table_columns``,
``ops_table_cells``, ``ops_signature_table``).
"""

from __future__ import annotations

from ..table_grid import TableGrid
from ..xmlutil import W
from . import table_targets as targets
from .batch import Operation
from .context import EditContext, Outcome
from .registry import handles
from .skips import Skip
from .table_markup import Look, build_table
from .table_placement import is_bidi, place_table, split_width, text_width, top_level
from .table_removal import delete_rows_and_report
from .table_xml import row_mark

_DEL = W + "del"


@handles("insertTable")
def insert_table(ctx: EditContext, op: Operation) -> Outcome:
    block = targets.table_block(ctx, op.fields["blockId"])
    position = op.fields.get("position", "after")
    rows = [list(row) for row in op.fields["rows"]]
    revisions = targets.Revisions(ctx)
    width = text_width(ctx.doc.body, top_level(block), after=position == "after")
    tbl = build_table(ctx, rows, split_width(width, len(rows[0])), Look(bidi=is_bidi(block.element)), "grid")
    place_table(ctx, block, tbl, position)
    return Outcome([targets.insertion_receipt(block, position, "table")], revision_ids=revisions.ids())


@handles("deleteTable")
def delete_table(ctx: EditContext, op: Operation) -> Outcome:
    """Delete the innermost table holding the block (all its rows, nested tables included)."""
    block, _tc, _tr, tbl = targets.in_cell(ctx, op.fields["blockId"])
    grid = TableGrid(tbl)
    if any(row.hidden for row in grid.rows):
        raise Skip("unsupportedBlock", "the table has hidden rows, whose content was never shown to you")
    ids = targets.untouched(ctx, [tbl])
    if ctx.tracked and all(row_mark(tr, _DEL) is not None for tr in grid.trs):
        raise Skip("noopOperation", "the table is already pending deletion")
    receipt = {"type": "block", "story": "main", "blockId": block.id, "effect": "deleted"}
    return delete_rows_and_report(ctx, tbl, grid.trs, ids, receipt)
