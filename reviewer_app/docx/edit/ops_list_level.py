"""setListLevel: Tab, Shift+Tab and Backspace at the start of a numbered paragraph, as Word records them.

A host operation (never offered to the model, see :data:`.contract.HOST_OPERATION_SCHEMAS`).
``level`` 0-8 moves the paragraph to that level of its list; ``null`` takes its number away
(Backspace at its start). Where the list links the new level to a paragraph style (``w:lvl/w:pStyle``,
as "Heading 2" is linked to the second level of a contract's clause numbering), the paragraph takes
that style, as Word does, so a demoted clause looks like its new siblings.

Either way it is a paragraph property change (``w:pPrChange``) through the same writer as
``setBlockParagraphProperties``. Unlike that operation it goes on from a pending change of the
person's own instead of refusing it, as Word does: the change keeps the properties from before the
first key, so Tab then Shift+Tab leaves no change at all.
"""

from __future__ import annotations

from typing import Any

from ..text import paragraph_mark_state
from .batch import Operation
from .context import EditContext, Outcome
from .numbering_write import writer_for
from .paragraph_batch import change_paragraph, revision_ids, updated
from .registry import handles
from .skips import Skip


def _properties(
    ctx: EditContext, op: Operation, list_reference: dict[str, Any], stated: str
) -> dict[str, Any]:
    """The paragraph properties that put the paragraph at ``level`` of its list (or out of it)."""
    level = op.fields["level"]
    if level is None:
        return {"numbering": {"kind": "none"}}
    num_id = list_reference["numId"]
    linked = ctx.doc.numbering.level(str(num_id), level)
    props: dict[str, Any] = {}
    if linked is not None and linked.pstyle:
        props["styleId"] = linked.pstyle
    if not props or stated != "inherit":
        props["numbering"] = {"kind": "reference", "numId": num_id, "ilvl": level}
    return props


@handles("setListLevel")
def set_list_level(ctx: EditContext, op: Operation) -> Outcome:
    """Put a numbered paragraph at another level of its list, or take its number away (tracked)."""
    block = ctx.block(op.fields["blockId"])
    p = block.element
    if block.list_reference is None:
        raise Skip("unsupportedBlock", "the paragraph is not numbered")
    if paragraph_mark_state(p)[0]:
        raise Skip("pendingParagraphMarkDeletion")
    props = _properties(ctx, op, block.list_reference, block.stated_numbering.get("kind", "inherit"))
    writer = writer_for(ctx, op.id)
    writer.check(props)
    ctx.touch(p)
    before = ctx.stamper.next_revision_id
    if not change_paragraph(ctx, p, lambda ppr: writer.apply(ppr, props), own=True):
        raise Skip("noopOperation", "the paragraph is at that level already")
    ctx.mark_structure_changed()
    return Outcome(updated(block), revision_ids=revision_ids(ctx, before))
