"""Paragraph operations (contract §5.5): insert and delete blocks, paragraph properties.

Every structural edit is written the way Word itself records it (ooxml-rules §5.4-§5.6): an
inserted paragraph has its runs in ``w:ins`` and its *mark* inserted; a deleted paragraph has
its runs in ``w:del`` and its mark deleted, so accepting removes it and rejecting restores it;
property changes keep the old set in ``w:pPrChange``. A ``deleteBlock`` and one insertion sharing
a ``moveId`` become a move (:mod:`.ops_moves`); splits and merges are in :mod:`.ops_split_merge`.

Decisions where the contract is silent are documented at the handler they concern.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

from lxml import etree

from ..blocks import Block
from ..sections import ends_section
from ..text import paragraph_mark_state
from ..vocabulary import RANGE_MARKUP
from ..xmlutil import W
from .batch import Operation
from .context import EditContext, Outcome
from .markup import delete_runs, insert_runs, make_runs, pieces_of, refuse_note_markers, template_rpr
from .numbering_write import writer_for
from .ops_moves import INSERT_TYPES, MoveHalf, join_move, paired_move
from .ops_moves import set_batch_operations as set_batch_operations  # the engine calls it from here
from .ops_text import live_text
from .paragraph_batch import batch_state, change_paragraph, empty_paragraph, live_runs, revision_ids, updated
from .ppr import (
    PropertyWriter,
    add_mark_revision,
    base_copy,
    base_key,
    inserted_ppr,
    mark_carrier,
    mark_revision,
    next_block,
    previous_block,
    replace_base,
    take_over_mark,
)
from .registry import handles
from .skips import Skip
from .table_xml import outermost_table

_P, _PPR, _RPR, _R = W + "p", W + "pPr", W + "rPr", W + "r"
_INS, _DEL = W + "ins", W + "del"
_LINE_BREAK = re.compile("\r\n|[\r\n\u2028\u2029]")
_KEPT_MARKUP = RANGE_MARKUP - {W + "proofErr"}


# ----------------------------------------------------------------------------- inserts
def _texts(op: Operation, notes: list[tuple[str, str]]) -> list[str]:
    """The paragraphs an insertion writes: one per non-blank line unless ``lineBreakMode`` is inline."""
    text = op.fields["text"]
    refuse_note_markers(text)
    if op.fields.get("lineBreakMode") == "inline":
        return [text.replace("\r\n", "\n").replace("\r", "\n")]
    if not _LINE_BREAK.search(text):
        return [text]
    lines = [line for line in _LINE_BREAK.split(text) if line.strip()]
    if not lines:
        raise Skip("emptyOperation", "`text` holds only line breaks")
    notes.append(
        (
            f"operations[id={op.id}].text",
            f"`text` contained line breaks; split into {len(lines)} consecutive paragraphs "
            "(one per non-blank line)",
        )
    )
    return lines


def _first_run(p: etree._Element) -> etree._Element | None:
    for piece in pieces_of(p).pieces or ():
        if piece.kind == "text" and piece.run is not None:
            return piece.run
    return next(iter(live_runs(p)), None)


def _check_join(ctx: EditContext, previous: etree._Element | None) -> None:
    """Refuse new paragraphs right after one whose deleted mark joins it to the next paragraph.

    Accepting would join that paragraph's words to the new paragraph instead of the one it
    was joining. A blank one has no words to take along (inserting next to a block pending
    deletion is the contract's own advice), so only a paragraph with text is refused.
    """
    if previous is None or previous.tag != _P:
        return
    joiner = batch_state(ctx).joined.get(previous)
    if joiner is not None:
        raise Skip(
            "overlappingOperation", f'operation "{joiner}" joins the paragraph before this place to the next'
        )
    if paragraph_mark_state(previous)[0] and pieces_of(previous).text:
        raise Skip(
            "pendingParagraphMarkDeletion",
            "the paragraph before this place is pending a join with the next one; a paragraph inserted here "
            "would take its words",
        )


def _page_break_run(hard: Mapping[str, Any], rpr: etree._Element | None) -> etree._Element:
    """The empty run ``hardPageBreak`` inserts: ``w:br w:type="page"`` (with ``w:clear`` when given)."""
    run = etree.Element(_R)
    if rpr is not None:
        run.append(copy.deepcopy(rpr))
    brk = etree.SubElement(run, W + "br", attrib={W + "type": "page"})
    if hard.get("clear") is not None:
        brk.set(W + "clear", hard["clear"])
    return run


def _new_paragraphs(
    ctx: EditContext,
    fields: Mapping[str, Any],
    anchor: etree._Element,
    texts: list[str],
    writer: PropertyWriter,
) -> list[etree._Element]:
    """The paragraphs an insertion writes, runs tracked; their marks are added once they are placed."""
    all_scope = fields.get("formattingScope") == "allParagraphs"
    source = template_rpr(_first_run(anchor)) if fields.get("inheritFormatting") else None
    out = []
    for index, text in enumerate(texts):
        in_scope = index == 0 or all_scope
        rpr = source if in_scope else None
        p = empty_paragraph(ctx)
        ppr = inserted_ppr(anchor, fields, in_scope, index == 0, writer)
        if len(ppr) or ctx.tracked:
            p.append(ppr)
        if index == 0 and "hardPageBreak" in fields:
            runs = [_page_break_run(fields["hardPageBreak"], rpr)]
        else:
            runs = make_runs(text, rpr) if text else []
        if runs:
            insert_runs(runs, p, None, ctx.stamper, ctx.tracked)
        out.append(p)
    return out


@handles(*INSERT_TYPES)
def insert_block(ctx: EditContext, op: Operation) -> Outcome:
    """``insertAfterBlock`` / ``insertBeforeBlock``.

    Inside a table the insertion goes next to the outermost table. Successive insertions
    after the same anchor in one batch land in operation order. ``text: ""`` is a blank
    paragraph; ``hardPageBreak`` writes an empty run holding ``w:br w:type="page"``. New
    paragraphs followed by no paragraph leave their inserted mark to the paragraph before
    them (:func:`.ppr.mark_carrier`), so rejecting removes them without a trace.
    """
    fields = op.fields
    block = ctx.block(fields["blockId"])
    notes: list[tuple[str, str]] = []
    writer = writer_for(ctx, op.id)
    writer.check(fields)
    texts = [""] if "hardPageBreak" in fields else _texts(op, notes)
    move_id = paired_move(ctx, op, notes)
    before = ctx.stamper.next_revision_id
    new = _new_paragraphs(ctx, fields, block.element, texts, writer)
    anchor = outermost_table(block.element)
    anchor = anchor if anchor is not None else block.element
    state = batch_state(ctx)
    if op.type == "insertAfterBlock":
        ref = state.after_tail.get(anchor)
        ref = ref if ref is not None and ref.getparent() is not None else anchor
        for p in new:
            ref.addnext(p)
            ref = p
        state.after_tail[anchor] = new[-1]
    else:
        for p in new:
            anchor.addprevious(p)
    for p in new:
        ctx.created(p)
    _check_join(ctx, previous_block(new[0]))
    carrier = mark_carrier(new[0], new[-1]) if ctx.tracked else None
    marks: list[etree._Element] = []
    if ctx.tracked:
        marks = [
            add_mark_revision(p, _INS, ctx.stamper.attributes())
            for p in (new if carrier is None else new[:-1])
        ]
        if carrier is not None:
            ctx.touch(carrier)
            take_over_mark(carrier, new[-1], ctx.stamper.attributes)
            marks.append(add_mark_revision(carrier, _INS, ctx.stamper.attributes()))
    if move_id is not None:
        wrappers = [el for p in new for el in p.iterchildren(_INS)]
        start = (carrier, True) if carrier is not None else (new[0], False)
        paragraphs = new if carrier is None else [carrier, *new]
        join_move(ctx, move_id, MoveHalf(False, wrappers + marks, paragraphs, start, new[-1]))
    revisions = revision_ids(ctx, before)
    for path, message in notes:
        ctx.normalize(path, message)
    ctx.mark_structure_changed()
    position = "after" if op.type == "insertAfterBlock" else "before"
    receipt = {"type": "insertion", "story": "main", "anchorBlockId": block.id, "position": position}
    receipt["content"] = "block"
    # the operation's optional comment (attached by the engine) covers the first new paragraph
    return Outcome([receipt], revision_ids=revisions, comment_anchor=(new[0], None, None))


# ----------------------------------------------------------------------------- deleteBlock
def _evacuate_markup(ctx: EditContext, p: etree._Element) -> None:
    """Before a direct removal: keep bookmarks and comment ranges, moved to a neighbour.

    A ``w:commentRangeStart`` removed with its paragraph would leave the comment's other
    marker unpaired (and a comment without its reference run); the markers go to the start of
    the next paragraph, else the end of the previous one, else beside the paragraph (range
    markup is valid at block level).
    """
    markers = [
        el for el in p.iter(*_KEPT_MARKUP, _R) if el.tag != _R or el.find(W + "commentReference") is not None
    ]
    if not markers:
        return
    following, preceding = next_block(p), previous_block(p)
    for el in markers:
        el.getparent().remove(el)
    if following is not None and following.tag == _P:
        ctx.touch(following)
        ppr = following.find(_PPR)
        index = 0 if ppr is None else following.index(ppr) + 1
        for offset, el in enumerate(markers):
            following.insert(index + offset, el)
    elif preceding is not None and preceding.tag == _P:
        ctx.touch(preceding)
        preceding.extend(markers)
    else:
        for el in markers:
            p.addprevious(el)
            ctx.created(el)


@handles("deleteBlock")
def delete_block(ctx: EditContext, op: Operation) -> Outcome:
    """Delete a block: its runs and its mark, so accepting removes the paragraph.

    A blank block only has its mark to lose. A mark followed by no paragraph (the last of a
    body, cell, note or content control, or one before a table) cannot be deleted: it would
    join a paragraph that does not exist (LibreOffice leaves an empty paragraph, and the last
    mark of a container cannot go at all). ooxml-rules §5.4: the *previous* paragraph's mark
    is deleted instead, and this paragraph's mark takes over that paragraph's properties
    (tracked by a ``w:pPrChange``), so accepting leaves the previous paragraph as it was and
    this one gone. Without a previous paragraph in the container the block loses its words and
    keeps its place (the contract's rule); a blank one then is a ``noopOperation``. A paragraph
    that ends a section never loses its mark (that would merge two sections). Direct mode
    removes the element, keeping its bookmarks and comment ranges.
    """
    block = ctx.block(op.fields["blockId"])
    p = block.element
    live_text(ctx, block)
    notes: list[tuple[str, str]] = []
    move_id = paired_move(ctx, op, notes)
    following = next_block(p)
    keeps_mark = following is None or following.tag != _P or ends_section(p)
    previous = previous_block(p)
    borrow = previous if keeps_mark and not ends_section(p) and _joinable(previous) else None
    mark_deleted, _ = paragraph_mark_state(p)
    runs = live_runs(p)
    has_content = any(c.tag != _RPR for r in runs for c in r)
    if not has_content and mark_deleted:
        raise Skip("noopOperation", "this block is already pending deletion")
    if not has_content and keeps_mark and borrow is None:
        raise Skip(
            "noopOperation",
            "a paragraph that is the only one of its container, or ends a section, keeps its place, and "
            "this one has no words to delete",
        )
    before = ctx.stamper.next_revision_id
    ctx.touch(p)
    if not ctx.tracked:
        if keeps_mark and borrow is None:
            for child in list(p):
                keep = child.tag in _KEPT_MARKUP or child.find(f".//{W}commentReference") is not None
                if child.tag != _PPR and not keep:
                    p.remove(child)
        else:
            _evacuate_markup(ctx, p)
            ctx.removing(p)
            p.getparent().remove(p)
    else:
        delete_runs(runs, p, ctx.stamper, True)
        own_mark = _mark_author(p) == ctx.stamper.author
        if not keeps_mark and not mark_deleted:
            if own_mark and p.find(".//" + _R) is None:
                ctx.removing(p)
                p.getparent().remove(p)
            else:
                add_mark_revision(p, _DEL, ctx.stamper.attributes())
        elif borrow is not None:
            _delete_previous_mark(ctx, borrow, p)
            batch_state(ctx).joined[borrow] = ctx.operation_id
        if move_id is not None and p.getparent() is not None:
            ids = set(revision_ids(ctx, before))
            created = [el for el in p.iter(_DEL) if el.get(W + "id") in ids]
            join_move(ctx, move_id, MoveHalf(True, created, [p], (p, False), p))
    for path, message in notes:
        ctx.normalize(path, message)
    ctx.record_whole_block(block.id)
    ctx.mark_structure_changed()
    receipt = {"type": "block", "story": "main", "blockId": block.id, "effect": "deleted"}
    return Outcome([receipt], revision_ids=revision_ids(ctx, before))


def _joinable(p: etree._Element | None) -> bool:
    return p is not None and p.tag == _P and not ends_section(p)


def _delete_previous_mark(ctx: EditContext, previous: etree._Element, p: etree._Element) -> None:
    """Delete ``previous``'s mark so it joins ``p``, whose mark then carries ``previous``'s properties."""
    ctx.touch(previous)
    if not paragraph_mark_state(previous)[0]:
        add_mark_revision(previous, _DEL, ctx.stamper.attributes())
    wanted = base_copy(previous.find(_PPR))
    ppr = p.find(_PPR)
    if base_key(ppr) != base_key(wanted) and (ppr is None or ppr.find(W + "pPrChange") is None):
        change_paragraph(ctx, p, lambda target: replace_base(target, wanted))


def _mark_author(p: etree._Element) -> str | None:
    ins = mark_revision(p, _INS)
    return ins.get(W + "author") if ins is not None else None


# ----------------------------------------------------------------------------- properties
def set_style(ctx: EditContext, block: Block, style_id: str | None) -> bool:
    """Set (or clear) the paragraph style of ``block``; tracked as ``w:pPrChange``.

    Used by ``replaceBlock``. Refuses ``missingStyle`` for anything but a paragraph style the
    document defines; returns False when the block already had that style.
    """
    writer = writer_for(ctx, ctx.operation_id)
    writer.check_style(style_id)
    ctx.touch(block.element)
    changed = change_paragraph(ctx, block.element, lambda ppr: writer.apply(ppr, {"styleId": style_id}))
    if changed:
        ctx.mark_structure_changed()
    return changed


@handles("setBlockParagraphProperties")
def set_paragraph_properties(ctx: EditContext, op: Operation) -> Outcome:
    """Set style, outline level, numbering, alignment, spacing, indentation; tracked as one pPrChange.

    ``null`` removes the direct property. Refused when nothing would change
    (``noopOperation``), when the paragraph already has a pending property change, and when
    its mark is pending deletion (its properties would vanish with it).
    """
    block = ctx.block(op.fields["blockId"])
    p = block.element
    text = live_text(ctx, block)
    if paragraph_mark_state(p)[0]:
        raise Skip("pendingDeletion" if not text else "pendingParagraphMarkDeletion")
    props = op.fields["properties"]
    writer = writer_for(ctx, op.id)
    writer.check(props)
    ctx.touch(p)
    before = ctx.stamper.next_revision_id
    if not change_paragraph(ctx, p, lambda ppr: writer.apply(ppr, props)):
        raise Skip("noopOperation", "the paragraph already has these properties")
    ctx.mark_structure_changed()
    return Outcome(updated(block), revision_ids=revision_ids(ctx, before))
