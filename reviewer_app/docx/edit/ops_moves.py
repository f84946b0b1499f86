"""Moves: a ``deleteBlock`` and one insertion sharing a ``moveId`` become one tracked move.

Each half is first written plainly (a deletion, an insertion); once both halves of a batch are
written, their revision wrappers and marks are renamed ``w:moveFrom``/``w:moveTo`` and wrapped in
range markers sharing one ``w:name`` (ooxml-rules §5.5), so Word shows a move and accepting or
rejecting one half takes the other along. A ``moveId`` that does not name exactly one deletion
and one insertion of the batch is applied as the plain edit it is, with a note saying so.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from lxml import etree

from ..xmlutil import W
from .batch import Operation
from .context import EditContext

INSERT_TYPES = ("insertAfterBlock", "insertBeforeBlock")
_PPR = W + "pPr"


@dataclass(slots=True)
class MoveHalf:
    """What one half of a move wrote plainly, so the other half can turn both into a move."""

    source: bool  # True: the deletion (moveFrom); False: the insertion (moveTo)
    revisions: list[etree._Element]  # the w:ins / w:del (runs and marks) this half created
    paragraphs: list[etree._Element]
    start: tuple[etree._Element, bool]  # paragraph holding the range start; True = at its end
    end: etree._Element  # paragraph whose end holds the range end

    def attached(self, root: etree._Element) -> bool:
        return all(el.getroottree().getroot() is root for el in (*self.revisions, *self.paragraphs))


#: Per batch: move id -> the half written first, waiting for its partner.
_WAITING: weakref.WeakKeyDictionary[EditContext, dict[str, MoveHalf]] = weakref.WeakKeyDictionary()


def set_batch_operations(ctx: EditContext, operations: Any) -> None:
    """Give the context the whole batch (the engine calls this once): moves pair across operations."""
    ctx.batch_operations = tuple(operations)  # type: ignore[attr-defined]


def paired_move(ctx: EditContext, op: Operation, notes: list[tuple[str, str]]) -> str | None:
    """The op's ``moveId`` when it names exactly one deletion and one insertion (else a note)."""
    move_id = op.fields.get("moveId")
    if move_id is None:
        return None
    ops = getattr(ctx, "batch_operations", None) or ()
    deletions = sum(1 for o in ops if o.type == "deleteBlock" and o.fields.get("moveId") == move_id)
    insertions = sum(1 for o in ops if o.type in INSERT_TYPES and o.fields.get("moveId") == move_id)
    if deletions == 1 and insertions == 1:
        return move_id if ctx.tracked else None
    what = "deletion" if op.type == "deleteBlock" else "insertion"
    notes.append(
        (
            f"operations[id={op.id}].moveId",
            f'`moveId` "{move_id}" does not name exactly one deleteBlock and one insertion in this batch '
            f"({deletions} deletion(s), {insertions} insertion(s)); applied as a plain {what}",
        )
    )
    return None


def join_move(ctx: EditContext, move_id: str, half: MoveHalf) -> None:
    """Record this half; when the other half is already written, turn both into one move."""
    waiting = _WAITING.setdefault(ctx, {})
    other = waiting.pop(move_id, None)
    if other is None or not other.attached(ctx.doc.root):
        waiting[move_id] = half
        return
    for p in other.paragraphs:
        ctx.touch(p)
    start_id = ctx.stamper.next_revision_id
    name = f"ReviewerMove{start_id}"
    for piece in (other, half):
        _write_move(ctx, piece, name)


def _write_move(ctx: EditContext, half: MoveHalf, name: str) -> None:
    kind = "moveFrom" if half.source else "moveTo"
    for el in half.revisions:
        el.tag = W + kind
    attrs = ctx.stamper.attributes()
    start = etree.Element(W + kind + "RangeStart", attrib={**attrs, W + "name": name})
    end = etree.Element(W + kind + "RangeEnd", attrib={W + "id": attrs[W + "id"]})
    host, at_end = half.start
    if at_end:
        host.append(start)
    else:
        ppr = host.find(_PPR)
        host.insert(0 if ppr is None else host.index(ppr) + 1, start)
    half.end.append(end)
