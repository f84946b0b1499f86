"""setListLevel: Tab, Shift+Tab and Backspace at the start of a numbered paragraph, as Word records them.

A host operation (never offered to the model, see :data:`.contract.HOST_OPERATION_SCHEMAS`).
``level`` 0-8 moves the paragraph to that level of its list; ``null`` takes its number away
(Backspace at its start). Where the list links the new level to a paragraph style (``w:lvl/w:pStyle``,
as "Heading 2" is linked to the second level of a contract's clause numbering), the paragraph takes
that style, as Word does, so a demoted clause looks like its new siblings.

Taking the number away keeps the paragraph indented where its number stood, as Word does: the
first line starts at the number's place and the lines under it align with it (``w:ind``), instead of
the text falling back to its style's indent. A paragraph with an indent of its own keeps it.

Either way it is a paragraph property change (``w:pPrChange``) through the same writer as
``setBlockParagraphProperties``. Unlike that operation it goes on from a pending change of the
person's own instead of refusing it, as Word does: the change keeps the properties from before the
first key, so Tab then Shift+Tab leaves no change at all.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..blocks import direct_indentation
from ..text import paragraph_mark_state
from ..xmlutil import REL_NUMBERING, W
from .batch import Operation
from .context import EditContext, Outcome
from .numbering_write import writer_for
from .paragraph_batch import change_paragraph, revision_ids, updated
from .registry import handles
from .skips import Skip


def _level_element(ctx: EditContext, num_id: int, ilvl: int) -> etree._Element | None:
    """The ``w:lvl`` list ``num_id`` uses at ``ilvl`` (its instance's override first)."""
    root = ctx.doc.part_root(REL_NUMBERING)
    if root is None:
        return None
    num = next((n for n in root.iterchildren(W + "num") if n.get(W + "numId") == str(num_id)), None)
    if num is None:
        return None
    for override in num.iterchildren(W + "lvlOverride"):
        lvl = override.find(W + "lvl")
        if override.get(W + "ilvl") == str(ilvl) and lvl is not None:
            return lvl
    abstract_id = num.find(W + "abstractNumId")
    wanted = abstract_id.get(W + "val") if abstract_id is not None else None
    for abstract in root.iterchildren(W + "abstractNum"):
        if abstract.get(W + "abstractNumId") == wanted:
            return next(
                (lvl for lvl in abstract.iterchildren(W + "lvl") if lvl.get(W + "ilvl") == str(ilvl)), None
            )
    return None


def _number_place(ctx: EditContext, p: etree._Element, list_reference: dict[str, Any]) -> int | None:
    """Where the paragraph's number stands (twips from the margin), when its list places it and
    the paragraph has no indent of its own."""
    if p.find(f"{W}pPr/{W}ind") is not None:
        return None
    lvl = _level_element(ctx, list_reference["numId"], list_reference["level"])
    ind = direct_indentation(lvl.find(f"{W}pPr/{W}ind") if lvl is not None else None)
    if ind is None or "indentLeft" not in ind:
        return None
    return max(0, ind["indentLeft"] + ind.get("indentFirstLine", 0))


def _properties(
    ctx: EditContext, op: Operation, p: etree._Element, list_reference: dict[str, Any], stated: str
) -> dict[str, Any]:
    """The paragraph properties that put the paragraph at ``level`` of its list (or out of it)."""
    level = op.fields["level"]
    if level is None:
        place = _number_place(ctx, p, list_reference)
        kept = {} if place is None else {"indentation": {"indentLeft": place, "indentFirstLine": 0}}
        return {"numbering": {"kind": "none"}, **kept}
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
    props = _properties(ctx, op, p, block.list_reference, block.stated_numbering.get("kind", "inherit"))
    writer = writer_for(ctx, op.id)
    writer.check(props)
    ctx.touch(p)
    before = ctx.stamper.next_revision_id
    if not change_paragraph(ctx, p, lambda ppr: writer.apply(ppr, props), own=True):
        raise Skip("noopOperation", "the paragraph is at that level already")
    ctx.mark_structure_changed()
    return Outcome(updated(block), revision_ids=revision_ids(ctx, before))
