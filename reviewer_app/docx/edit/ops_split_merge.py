"""splitBlock and mergeBlockWithNext (contract §5.5): a paragraph mark inserted or deleted.

A split moves no words: the paragraph keeps its first half and a new paragraph takes over the
original mark; tracked, the first half's new mark is inserted (ECMA-376 17.13.5.20), so rejecting
joins the halves again. A merge deletes the first paragraph's mark; tracked, so rejecting splits
them again. Both are written the way Word records them (ooxml-rules §5.4, §5.6).
"""

from __future__ import annotations

from lxml import etree

from ..sections import ends_section
from ..text import paragraph_mark_state
from ..vocabulary import REVISION_WRAPPERS, SPLITTABLE_CONTAINERS
from ..xmlutil import W
from .batch import Operation
from .context import EditContext, Outcome
from .markup import delete_runs, insert_runs, isolate, make_runs, pieces_of, runs_of, template_rpr
from .numbering_write import writer_for
from .ops_text import live_text, splits_character
from .paragraph_batch import change_paragraph, empty_paragraph, live_runs, revision_ids, updated
from .ppr import (
    add_mark_revision,
    base_copy,
    base_key,
    drop_if_empty,
    ensure_ppr,
    inheritable_copy,
    next_block,
    replace_base,
    set_child,
)
from .registry import handles
from .skips import Skip

_P, _PPR, _SECT = W + "p", W + "pPr", W + "sectPr"
_INS, _DEL = W + "ins", W + "del"


def _consumed(ctx: EditContext, element: etree._Element) -> None:
    """Another paragraph this operation joins or merges: later operations on it overlap."""
    block = next((b for b in ctx.snapshot.blocks if b.element is element), None)
    if block is not None:
        ctx.record_whole_block(block.id)


# ----------------------------------------------------------------------------- splitBlock
def _split_tree(ctx: EditContext, p: etree._Element, node: etree._Element) -> etree._Element:
    """Cut every container between ``node`` and ``p`` before ``node``; return p's child that now starts
    the second half. A cut revision wrapper gets a fresh id (sibling fragments must not share one)."""
    current = node
    while current.getparent() is not p:
        parent = current.getparent()
        if parent.tag not in SPLITTABLE_CONTAINERS:
            raise Skip("unsupportedBlock", "the offset falls inside a content control or a simple field")
        if current.getprevious() is not None:
            clone = etree.Element(parent.tag, attrib=dict(parent.attrib))
            if parent.tag in REVISION_WRAPPERS:
                clone.set(W + "id", ctx.stamper.revision_id())
            for moving in [current, *current.itersiblings()]:
                clone.append(moving)
            parent.addnext(clone)
            current = clone
        else:
            current = parent
    return current


def _inside_field(p: etree._Element, node: etree._Element) -> bool:
    depth = 0
    for el in p.iter():
        if el is node:
            return depth > 0
        if el.tag == W + "fldChar":
            kind = el.get(W + "fldCharType")
            depth += 1 if kind == "begin" else -1 if kind == "end" and depth else 0
    return False


@handles("splitBlock")
def split_block(ctx: EditContext, op: Operation) -> Outcome:
    """Break a paragraph in two at ``offset``, moving a mark and no words.

    The paragraph element (and its id) stays the first half; the second half is a new
    paragraph that takes over the original mark with all its properties (a section break
    stays at the end). Tracked: the first half's new mark is inserted (ECMA-376 17.13.5.20).
    ``separator`` is the text at ``offset`` the break replaces (a space, say): it must be the
    text there and is deleted (tracked: marked deleted). ``firstParagraphProperties`` change
    the new mark's properties directly (rejecting removes that mark); changes to the second
    half's properties are tracked as a ``w:pPrChange``.
    """
    fields = op.fields
    block = ctx.block(fields["blockId"])
    p = block.element
    text = live_text(ctx, block)
    if not text:
        raise Skip("emptyOperation", "the block has no text to split")
    offset, separator = fields["offset"], fields.get("separator") or ""
    end = offset + len(separator)
    if not 0 < offset < len(text):
        raise Skip("noopOperation", f"offset {offset} is not strictly inside the block's text ({len(text)})")
    if separator and text[offset:end] != separator:
        raise Skip("missingFind", f"`separator` {separator!r} is not the text at offset {offset}")
    if splits_character(text, offset) or splits_character(text, end):
        raise Skip("splitsCharacter")
    writer = writer_for(ctx, op.id)
    first_props = fields.get("firstParagraphProperties") or {}
    second_props = fields.get("secondParagraphProperties") or {}
    writer.check(first_props)
    writer.check(second_props)
    ctx.touch(p)
    before = ctx.stamper.next_revision_id
    dropped = isolate(p, offset, end, block.notes_before)
    if any(piece.kind == "note" for piece in dropped):
        raise Skip("protectedReference")
    pieces = pieces_of(p, block.notes_before).pieces or ()
    tail = next((pc.run for pc in pieces if pc.start >= end and pc.run is not None), None)
    if tail is not None and _inside_field(p, tail):
        raise Skip("unsupportedBlock", "the offset falls inside a field")
    second = empty_paragraph(ctx)
    original_ppr = p.find(_PPR)
    if original_ppr is not None:
        p.remove(original_ppr)
        second.append(original_ppr)
        first_ppr = inheritable_copy(original_ppr)
        p.insert(0, first_ppr)
    if tail is not None:
        top = _split_tree(ctx, p, tail)
        second.extend([top, *top.itersiblings()])
    delete_runs(runs_of(dropped), p, ctx.stamper, ctx.tracked)
    p.addnext(second)
    ctx.created(second)
    if first_props:
        writer.apply(ensure_ppr(p), first_props)
    if ctx.tracked:
        add_mark_revision(p, _INS, ctx.stamper.attributes())
    drop_if_empty(p)
    if second_props:
        change_paragraph(ctx, second, lambda ppr: writer.apply(ppr, second_props))
    ctx.record_whole_block(block.id)
    ctx.mark_structure_changed()
    return Outcome(updated(block), revision_ids=revision_ids(ctx, before))


# ----------------------------------------------------------------------------- mergeBlockWithNext
def join_mark(ctx: EditContext, p: etree._Element, following: etree._Element, own: bool = False) -> None:
    """Join ``p`` with ``following`` (the next paragraph in its container), keeping ``p``'s properties.

    Tracked, ``p``'s mark is deleted (unless it is already) and ``following`` takes ``p``'s
    properties with a ``w:pPrChange`` where they differ, since accepting leaves the *following*
    mark; untracked, ``following``'s content moves into ``p``. Shared by a merge and by typing
    over a selection that crosses paragraphs, so both write a joined paragraph the same way
    (``own``: as :func:`.paragraph_batch.change_paragraph`).
    """
    desired = base_copy(p.find(_PPR))
    if ctx.tracked:
        if base_key(following.find(_PPR)) != base_key(desired):
            change_paragraph(ctx, following, lambda ppr: replace_base(ppr, desired), own)
        if not paragraph_mark_state(p)[0]:
            add_mark_revision(p, _DEL, ctx.stamper.attributes())
    else:
        next_ppr = following.find(_PPR)
        section = next_ppr.find(_SECT) if next_ppr is not None else None
        if section is not None:
            set_child(ensure_ppr(p), "sectPr", section)
        p.extend([child for child in following if child.tag != _PPR])
        ctx.removing(following)
        following.getparent().remove(following)


@handles("mergeBlockWithNext")
def merge_block(ctx: EditContext, op: Operation) -> Outcome:
    """Join a paragraph with the next one. Tracked: its mark is deleted.

    The joined paragraph keeps the first paragraph's properties (plus
    ``mergedParagraphProperties``). Accepting a deleted mark leaves the *following* mark,
    so when the next paragraph's properties differ they are set to the merged ones with a
    ``w:pPrChange`` (rejecting restores them); a reader that keeps the first paragraph's
    properties gets the same result. ``separator`` is inserted between the two texts.
    Refused (``unsupportedBlock``) without a following paragraph in the same container or
    when the paragraph ends a section.
    """
    fields = op.fields
    block = ctx.block(fields["blockId"])
    p = block.element
    text = live_text(ctx, block)
    following = next_block(p)
    if following is None or following.tag != _P or ends_section(p):
        raise Skip(
            "unsupportedBlock",
            "there is no following paragraph in the same container to join (or the block ends a section)",
        )
    merged = fields.get("mergedParagraphProperties") or {}
    mark_deleted, _ = paragraph_mark_state(p)
    if mark_deleted and not text:
        raise Skip("pendingDeletion")
    if mark_deleted and not merged:
        raise Skip("pendingParagraphMarkDeletion")
    writer = writer_for(ctx, op.id)
    writer.check(merged)
    ctx.touch(p)
    ctx.touch(following)
    before = ctx.stamper.next_revision_id
    separator = fields.get("separator") or ""
    if separator:
        runs = live_runs(p)
        source = template_rpr(runs[-1]) if runs else None
        last = p[-1] if len(p) and p[-1].tag != _PPR else None
        insert_runs(make_runs(separator, source), p, last, ctx.stamper, ctx.tracked)
    if merged:
        change_paragraph(ctx, p, lambda ppr: writer.apply(ppr, merged))
    join_mark(ctx, p, following)
    ctx.record_whole_block(block.id)
    _consumed(ctx, following)
    ctx.mark_structure_changed()
    return Outcome(updated(block), revision_ids=revision_ids(ctx, before))
