"""What every table operation does first and last: find its table structure, check overlaps, report.

An anchor block must be a real paragraph in a table cell; an operation that deletes or reshapes
structure must not reach blocks an earlier operation of the batch edited (or consumed), and its
blocks are consumed in turn. Revision ids and §5.9 receipts are collected the same way by all.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..blocks import Block
from ..xmlutil import W
from .context import EditContext
from .skips import Skip
from .table_xml import containing

_P, _TBL, _TR, _TC = W + "p", W + "tbl", W + "tr", W + "tc"


def table_block(ctx: EditContext, block_id: str) -> Block:
    """The paragraph block ``block_id`` names; diagnostic blocks cannot anchor a table edit."""
    seen = ctx.snapshot.block(block_id)
    if seen is not None and seen.kind == "diagnostic":
        raise Skip("unsupportedBlock", "a diagnostic block holds no editable paragraph")
    return ctx.block(block_id)


def in_cell(ctx: EditContext, block_id: str) -> tuple[Block, etree._Element, etree._Element, etree._Element]:
    """The block ``block_id`` names and its (cell, row, table), or ``unsupportedBlock`` outside a table."""
    block = table_block(ctx, block_id)
    tc = containing(block.element, _TC) if block.table is not None else None
    tr = containing(tc, _TR) if tc is not None else None
    tbl = containing(tr, _TBL) if tr is not None else None
    if tc is None or tr is None or tbl is None:
        raise Skip("unsupportedBlock", "the block is not in a table cell")
    return block, tc, tr, tbl


def block_ids(ctx: EditContext, elements: list[etree._Element]) -> list[str]:
    """Ids (as the batch read them) of the blocks inside ``elements``."""
    by_element = {id(b.element): b.id for b in ctx.snapshot.blocks if b.element is not None}
    return [by_element[id(p)] for el in elements for p in el.iter(_P) if id(p) in by_element]


def untouched(ctx: EditContext, elements: list[etree._Element], whole_only: bool = False) -> list[str]:
    """``overlappingOperation`` when an earlier operation of the batch edited a block in ``elements``
    (deletions), or consumed one (``whole_only``: merges and splits keep text edits); returns the
    blocks' ids."""
    ids = block_ids(ctx, elements)
    for block_id in ids:
        edits = [e for e in ctx.edited.get(block_id, ()) if e.whole_block or not whole_only]
        if edits:
            raise Skip(
                "overlappingOperation", f'operation "{edits[0].operation_id}" already changes this table'
            )
    return ids


def consume(ctx: EditContext, ids: list[str]) -> None:
    """The operation consumed these blocks: any later operation of the batch on them overlaps."""
    for block_id in ids:
        ctx.record_whole_block(block_id)
    ctx.mark_structure_changed()


class Revisions:
    """The revision ids an operation mints (one counter, so a range)."""

    def __init__(self, ctx: EditContext) -> None:
        self.ctx = ctx
        self.start = ctx.stamper.next_revision_id

    def ids(self) -> list[str]:
        return [str(i) for i in range(self.start, self.ctx.stamper.next_revision_id)]


def insertion_receipt(block: Block, position: str, content: str) -> dict[str, Any]:
    """The §5.9 receipt of an insertion beside ``block``."""
    return dict(type="insertion", story="main", anchorBlockId=block.id, position=position, content=content)


def structure_receipt(kind: str, block: Block, effect: str, **extra: Any) -> dict[str, Any]:
    """The §5.9 receipt of a row, column or cell change anchored at ``block``."""
    return {"type": kind, "story": "main", "anchorBlockId": block.id, "effect": effect, **extra}
