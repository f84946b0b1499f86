"""What the paragraph operations share: per-batch state, fresh paragraphs, runs, property changes.

Insertions, deletions, splits and merges are separate handlers, but within one batch they must see
each other's work: successive insertions after one anchor land in operation order, an insertion
must not land after a paragraph a deletion joined to the next one, and whether new paragraphs may
carry a ``w14:paraId`` is decided once per batch. That state lives here, keyed weakly on the
batch's :class:`~.context.EditContext`, with the small helpers every paragraph handler uses.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ..blocks import Block
from ..vocabulary import DELETED
from ..xmlutil import MC, NS, W14, W
from .context import EditContext
from .ppr import change_properties

_R = W + "r"
_SKIP_RUNS_UNDER = DELETED | {_R, W + "txbxContent"}


@dataclass(slots=True)
class BatchState:
    """What the paragraph operations of one batch remember between operations."""

    #: Anchor -> the last paragraph inserted after it (the next insertion goes after that one).
    after_tail: dict[etree._Element, etree._Element] = field(default_factory=dict)
    #: Paragraphs whose mark a deleteBlock of this batch deleted in place of the next one's.
    joined: dict[etree._Element, str] = field(default_factory=dict)
    para_ids: bool | None = None


_STATES: weakref.WeakKeyDictionary[EditContext, BatchState] = weakref.WeakKeyDictionary()


def batch_state(ctx: EditContext) -> BatchState:
    """The paragraph state of ``ctx``'s batch (created on first use)."""
    state = _STATES.get(ctx)
    if state is None:
        state = _STATES[ctx] = BatchState()
    return state


def revision_ids(ctx: EditContext, before: int) -> list[str]:
    """The revision ids minted since the counter stood at ``before`` (one counter, so a range)."""
    return [str(i) for i in range(before, ctx.stamper.next_revision_id)]


def empty_paragraph(ctx: EditContext) -> etree._Element:
    """An empty ``w:p`` with a fresh ``w14:paraId`` when the part declares w14 as ignorable.

    A paraId in an undeclared (or non-ignorable) namespace would make Word call the file
    corrupt (ooxml-rules §5.9); such a paragraph gets a positional block id instead.
    """
    p = etree.Element(W + "p")
    state = batch_state(ctx)
    if state.para_ids is None:
        root = ctx.doc.root
        prefixes = [k for k, v in root.nsmap.items() if v == NS["w14"] and k]
        ignorable = (root.get(MC + "Ignorable") or "").split()
        state.para_ids = any(prefix in ignorable for prefix in prefixes)
    if state.para_ids:
        p.set(W14 + "paraId", ctx.stamper.para_id())
    return p


def live_runs(p: etree._Element) -> list[etree._Element]:
    """Every run of the paragraph's own content not already deleted (text boxes excluded)."""
    runs = []
    for run in p.iter(_R):
        ancestors = []
        for ancestor in run.iterancestors():
            if ancestor is p:
                break
            ancestors.append(ancestor.tag)
        if not _SKIP_RUNS_UNDER.intersection(ancestors):
            runs.append(run)
    return runs


def change_paragraph(
    ctx: EditContext, p: etree._Element, apply: Callable[[etree._Element], None], own: bool = False
) -> bool:
    """Change ``p``'s properties through ``apply``: a ``w:pPrChange`` when tracked, plainly when not;
    ``own`` goes on from a pending change of the author's own (a person's keys) instead of refusing."""
    stamp = ctx.stamper.attributes if ctx.tracked else None
    return change_properties(p, apply, stamp, ctx.stamper.author if own else None)


def updated(block: Block) -> list[dict[str, Any]]:
    """The §5.9 receipt of an operation that rewrote ``block`` in place."""
    return [{"type": "block", "story": "main", "blockId": block.id, "effect": "updated"}]
