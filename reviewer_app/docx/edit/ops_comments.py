"""Comment operations: commentOnBlock and commentOnRange (contract §5.5, §4.8).

A comment is not a tracked change: tracked and direct mode write the same thing, a Word comment
(all five parts, see :mod:`..comment_writer`) anchored by range markers around the commented text.
Anchoring only splits runs at the range's ends, so the block's text and formatting stay as they
were and later operations of the batch still address the text as read.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..blocks import Block
from ..comment_writer import attach_comment
from .batch import Operation
from .context import EditContext, Outcome
from .markup import isolate, runs_of
from .ops_text import live_text, resolve_range
from .registry import handles
from .skips import Skip

__all__ = ["attach_comment", "comment_on_block", "comment_on_range"]


def _check_block(block: Block) -> None:
    if block.kind == "diagnostic" or block.element is None:
        raise Skip("unsupportedBlock")


def _anchor(ctx: EditContext, block: Block, start: int, end: int, text: str) -> str:
    """Comment on live ``[start, end)`` of ``block``'s clean text; return the comment id."""
    p = block.element
    ctx.touch(p)
    runs: list[etree._Element] = runs_of(isolate(p, start, end, block.notes_before))
    if not runs:  # nothing but markup there: anchor the whole paragraph rather than nothing
        return attach_comment(ctx, p, None, None, text)
    return attach_comment(ctx, p, runs[0], runs[-1], text)


def _comment_receipt(comment_id: str) -> dict[str, Any]:
    return {"type": "comment", "commentId": comment_id}


@handles("commentOnBlock")
def comment_on_block(ctx: EditContext, op: Operation) -> Outcome:
    """Comment on a block: on the one occurrence of ``quote``, else on the whole block."""
    block = ctx.block(op.fields["blockId"])
    _check_block(block)
    text = live_text(ctx, block)
    quote = op.fields.get("quote") or ""
    body = op.fields["comment"]["text"]
    if quote:
        hits = [i for i in range(len(text) - len(quote) + 1) if text.startswith(quote, i)]
        if not hits:
            raise Skip("missingFind")
        if len(hits) > 1:
            raise Skip("ambiguousFind", f"{len(hits)} matches")
        comment_id = _anchor(ctx, block, hits[0], hits[0] + len(quote), body)
    else:
        ctx.touch(block.element)
        comment_id = attach_comment(ctx, block.element, None, None, body)
    affected = [
        {"type": "block", "story": "main", "blockId": block.id, "effect": "commented"},
        _comment_receipt(comment_id),
    ]
    return Outcome(affected, comment_id=comment_id)


@handles("commentOnRange")
def comment_on_range(ctx: EditContext, op: Operation) -> Outcome:
    """Comment on the text a find_text range handle selects (``staleRange`` when it moved)."""
    rng = op.fields["range"]
    _check_block(ctx.block(rng["blockId"]))
    block, _text, start, end = resolve_range(ctx, rng)
    comment_id = _anchor(ctx, block, start, end, op.fields["comment"]["text"])
    affected = [
        {"type": "textRange", "range": dict(rng), "effect": "commented"},
        _comment_receipt(comment_id),
    ]
    return Outcome(affected, comment_id=comment_id)
