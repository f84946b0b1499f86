"""Paragraph operations (contract §5.5): insert, delete, split, merge, paragraph properties.

Every structural edit is written the way Word itself records it (ooxml-rules §5.4-§5.6): an
inserted paragraph has its runs in ``w:ins`` and its *mark* inserted; a deleted paragraph has
its runs in ``w:del`` and its mark deleted, so accepting removes it and rejecting restores it;
a split inserts a mark on the first half (ECMA-376 17.13.5.20), a merge deletes one; property
changes keep the old set in ``w:pPrChange``. A ``deleteBlock`` and one insertion sharing a
``moveId`` become ``w:moveFrom``/``w:moveTo`` with named range markers.

Decisions where the contract is silent are documented at the handler they concern.
"""

from __future__ import annotations

import copy
import re
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ..blocks import Block
from ..text import paragraph_mark_state
from ..xmlutil import MC, NS, W14, W
from .batch import Operation
from .context import EditContext, Outcome
from .markup import delete_runs, insert_runs, isolate, make_runs, pieces_of, runs_of, template_rpr
from .numbering_write import writer_for
from .ops_text import live_text, splits_character
from .ppr import (
    RANGE_MARKUP,
    PropertyWriter,
    add_mark_revision,
    base_copy,
    base_key,
    carries_section,
    change_properties,
    drop_if_empty,
    ensure_ppr,
    inheritable_copy,
    inserted_ppr,
    mark_carrier,
    mark_revision,
    next_block,
    previous_block,
    replace_base,
    set_child,
    take_over_mark,
)
from .registry import handles
from .skips import Skip

_P, _PPR, _RPR, _R, _TBL = W + "p", W + "pPr", W + "rPr", W + "r", W + "tbl"
_INS, _DEL, _MOVE_FROM, _MOVE_TO = W + "ins", W + "del", W + "moveFrom", W + "moveTo"
_SECT, _CHANGE = W + "sectPr", W + "pPrChange"
_INSERT_TYPES = ("insertAfterBlock", "insertBeforeBlock")
_LINE_BREAK = re.compile("\r\n|[\r\n\u2028\u2029]")
#: Run containers a split may cut in two (each half keeps the container's attributes).
_SPLITTABLE = frozenset(
    W + t for t in ("ins", "del", "moveFrom", "moveTo", "hyperlink", "smartTag", "customXml", "dir", "bdo")
)
_KEPT_MARKUP = RANGE_MARKUP - {W + "proofErr"}
_REVISION_WRAPPERS = frozenset((_INS, _DEL, _MOVE_FROM, _MOVE_TO))
_SKIP_RUNS_UNDER = frozenset((_DEL, _MOVE_FROM, _R, W + "txbxContent"))


# ----------------------------------------------------------------------------- batch state
@dataclass(slots=True)
class _MoveHalf:
    """What one half of a move wrote plainly, so the other half can turn both into a move."""

    source: bool  # True: the deletion (moveFrom); False: the insertion (moveTo)
    revisions: list[etree._Element]  # the w:ins / w:del (runs and marks) this half created
    paragraphs: list[etree._Element]
    start: tuple[etree._Element, bool]  # paragraph holding the range start; True = at its end
    end: etree._Element  # paragraph whose end holds the range end

    def attached(self, root: etree._Element) -> bool:
        return all(el.getroottree().getroot() is root for el in (*self.revisions, *self.paragraphs))


@dataclass(slots=True)
class _BatchState:
    after_tail: dict[etree._Element, etree._Element] = field(default_factory=dict)
    moves: dict[str, _MoveHalf] = field(default_factory=dict)
    #: Paragraphs whose mark a deleteBlock of this batch deleted in place of the next one's.
    joined: dict[etree._Element, str] = field(default_factory=dict)
    para_ids: bool | None = None


_STATES: weakref.WeakKeyDictionary[EditContext, _BatchState] = weakref.WeakKeyDictionary()


def _state(ctx: EditContext) -> _BatchState:
    state = _STATES.get(ctx)
    if state is None:
        state = _STATES[ctx] = _BatchState()
    return state


def set_batch_operations(ctx: EditContext, operations: Any) -> None:
    """Give the context the whole batch (the engine calls this once): moves pair across operations."""
    ctx.batch_operations = tuple(operations)  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- helpers
def _revision_ids(ctx: EditContext, before: int) -> list[str]:
    return [str(i) for i in range(before, ctx.stamper.next_revision_id)]


def _new_paragraph(ctx: EditContext) -> etree._Element:
    """An empty ``w:p`` with a fresh ``w14:paraId`` when the part declares w14 as ignorable.

    A paraId in an undeclared (or non-ignorable) namespace would make Word call the file
    corrupt (ooxml-rules §5.9); such a paragraph gets a positional block id instead.
    """
    p = etree.Element(_P)
    state = _state(ctx)
    if state.para_ids is None:
        root = ctx.doc.root
        prefixes = [k for k, v in root.nsmap.items() if v == NS["w14"] and k]
        ignorable = (root.get(MC + "Ignorable") or "").split()
        state.para_ids = any(prefix in ignorable for prefix in prefixes)
    if state.para_ids:
        p.set(W14 + "paraId", ctx.stamper.para_id())
    return p


def _outermost_table(p: etree._Element) -> etree._Element | None:
    tables = [a for a in p.iterancestors(_TBL)]
    return tables[-1] if tables else None


def _live_runs(p: etree._Element) -> list[etree._Element]:
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


def _consumed(ctx: EditContext, element: etree._Element) -> None:
    """Another paragraph this operation joins or merges: later operations on it overlap."""
    block = next((b for b in ctx.snapshot.blocks if b.element is element), None)
    if block is not None:
        ctx.record_whole_block(block.id)


def _change(ctx: EditContext, p: etree._Element, apply: Callable[[etree._Element], None]) -> bool:
    return change_properties(p, apply, ctx.stamper.attributes if ctx.tracked else None)


def set_style(ctx: EditContext, block: Block, style_id: str | None) -> bool:
    """Set (or clear) the paragraph style of ``block``; tracked as ``w:pPrChange``.

    Used by ``replaceBlock``. Refuses ``missingStyle`` for anything but a paragraph style the
    document defines; returns False when the block already had that style.
    """
    writer = writer_for(ctx, ctx.operation_id)
    writer.check_style(style_id)
    ctx.touch(block.element)
    changed = _change(ctx, block.element, lambda ppr: writer.apply(ppr, {"styleId": style_id}))
    if changed:
        ctx.mark_structure_changed()
    return changed


# ----------------------------------------------------------------------------- moves
def _paired_move(ctx: EditContext, op: Operation, notes: list[tuple[str, str]]) -> str | None:
    """The op's ``moveId`` when it names exactly one deletion and one insertion (else a note)."""
    move_id = op.fields.get("moveId")
    if move_id is None:
        return None
    ops = getattr(ctx, "batch_operations", None) or ()
    deletions = sum(1 for o in ops if o.type == "deleteBlock" and o.fields.get("moveId") == move_id)
    insertions = sum(1 for o in ops if o.type in _INSERT_TYPES and o.fields.get("moveId") == move_id)
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


def _join_move(ctx: EditContext, move_id: str, half: _MoveHalf) -> None:
    """Record this half; when the other half is already written, turn both into one move."""
    state = _state(ctx)
    other = state.moves.pop(move_id, None)
    if other is None or not other.attached(ctx.doc.root):
        state.moves[move_id] = half
        return
    for p in other.paragraphs:
        ctx.touch(p)
    start_id = ctx.stamper.next_revision_id
    name = f"ReviewerMove{start_id}"
    for piece in (other, half):
        _write_move(ctx, piece, name)


def _write_move(ctx: EditContext, half: _MoveHalf, name: str) -> None:
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


# ----------------------------------------------------------------------------- inserts
def _texts(op: Operation, notes: list[tuple[str, str]]) -> list[str]:
    """The paragraphs an insertion writes: one per non-blank line unless ``lineBreakMode`` is inline."""
    text = op.fields["text"]
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
    return next(iter(_live_runs(p)), None)


def _check_join(ctx: EditContext, previous: etree._Element | None) -> None:
    """Refuse new paragraphs right after one whose deleted mark joins it to the next paragraph.

    Accepting would join that paragraph's words to the new paragraph instead of the one it
    was joining. A blank one has no words to take along (inserting next to a block pending
    deletion is the contract's own advice), so only a paragraph with text is refused.
    """
    if previous is None or previous.tag != _P:
        return
    joiner = _state(ctx).joined.get(previous)
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
        p = _new_paragraph(ctx)
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


@handles(*_INSERT_TYPES)
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
    move_id = _paired_move(ctx, op, notes)
    before = ctx.stamper.next_revision_id
    new = _new_paragraphs(ctx, fields, block.element, texts, writer)
    anchor = _outermost_table(block.element)
    anchor = anchor if anchor is not None else block.element
    state = _state(ctx)
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
        _join_move(ctx, move_id, _MoveHalf(False, wrappers + marks, paragraphs, start, new[-1]))
    revisions = _revision_ids(ctx, before)
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
    move_id = _paired_move(ctx, op, notes)
    following = next_block(p)
    keeps_mark = following is None or following.tag != _P or carries_section(p)
    previous = previous_block(p)
    borrow = previous if keeps_mark and not carries_section(p) and _joinable(previous) else None
    mark_deleted, _ = paragraph_mark_state(p)
    runs = _live_runs(p)
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
            _state(ctx).joined[borrow] = ctx.operation_id
        if move_id is not None and p.getparent() is not None:
            ids = set(_revision_ids(ctx, before))
            created = [el for el in p.iter(_DEL) if el.get(W + "id") in ids]
            _join_move(ctx, move_id, _MoveHalf(True, created, [p], (p, False), p))
    for path, message in notes:
        ctx.normalize(path, message)
    ctx.record_whole_block(block.id)
    ctx.mark_structure_changed()
    receipt = {"type": "block", "story": "main", "blockId": block.id, "effect": "deleted"}
    return Outcome([receipt], revision_ids=_revision_ids(ctx, before))


def _joinable(p: etree._Element | None) -> bool:
    return p is not None and p.tag == _P and not carries_section(p)


def _delete_previous_mark(ctx: EditContext, previous: etree._Element, p: etree._Element) -> None:
    """Delete ``previous``'s mark so it joins ``p``, whose mark then carries ``previous``'s properties."""
    ctx.touch(previous)
    if not paragraph_mark_state(previous)[0]:
        add_mark_revision(previous, _DEL, ctx.stamper.attributes())
    wanted = base_copy(previous.find(_PPR))
    ppr = p.find(_PPR)
    if base_key(ppr) != base_key(wanted) and (ppr is None or ppr.find(W + "pPrChange") is None):
        _change(ctx, p, lambda target: replace_base(target, wanted))


def _mark_author(p: etree._Element) -> str | None:
    ins = mark_revision(p, _INS)
    return ins.get(W + "author") if ins is not None else None


# ----------------------------------------------------------------------------- splitBlock
def _split_tree(ctx: EditContext, p: etree._Element, node: etree._Element) -> etree._Element:
    """Cut every container between ``node`` and ``p`` before ``node``; return p's child that now starts
    the second half. A cut revision wrapper gets a fresh id (sibling fragments must not share one)."""
    current = node
    while current.getparent() is not p:
        parent = current.getparent()
        if parent.tag not in _SPLITTABLE:
            raise Skip("unsupportedBlock", "the offset falls inside a content control or a simple field")
        if current.getprevious() is not None:
            clone = etree.Element(parent.tag, attrib=dict(parent.attrib))
            if parent.tag in _REVISION_WRAPPERS:
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
    second = _new_paragraph(ctx)
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
        _change(ctx, second, lambda ppr: writer.apply(ppr, second_props))
    ctx.record_whole_block(block.id)
    ctx.mark_structure_changed()
    return Outcome(_updated(block), revision_ids=_revision_ids(ctx, before))


def _updated(block: Block) -> list[dict[str, Any]]:
    return [{"type": "block", "story": "main", "blockId": block.id, "effect": "updated"}]


# ----------------------------------------------------------------------------- mergeBlockWithNext
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
    if following is None or following.tag != _P or carries_section(p):
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
        runs = _live_runs(p)
        source = template_rpr(runs[-1]) if runs else None
        last = p[-1] if len(p) and p[-1].tag != _PPR else None
        insert_runs(make_runs(separator, source), p, last, ctx.stamper, ctx.tracked)
    if merged:
        _change(ctx, p, lambda ppr: writer.apply(ppr, merged))
    desired = base_copy(p.find(_PPR))
    if ctx.tracked:
        if base_key(following.find(_PPR)) != base_key(desired):
            _change(ctx, following, lambda ppr: replace_base(ppr, desired))
        if not mark_deleted:
            add_mark_revision(p, _DEL, ctx.stamper.attributes())
    else:
        next_ppr = following.find(_PPR)
        section = next_ppr.find(_SECT) if next_ppr is not None else None
        if section is not None:
            set_child(ensure_ppr(p), "sectPr", section)
        p.extend([child for child in following if child.tag != _PPR])
        ctx.removing(following)
        following.getparent().remove(following)
    ctx.record_whole_block(block.id)
    _consumed(ctx, following)
    ctx.mark_structure_changed()
    return Outcome(_updated(block), revision_ids=_revision_ids(ctx, before))


# ----------------------------------------------------------------------------- properties
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
    if not _change(ctx, p, lambda ppr: writer.apply(ppr, props)):
        raise Skip("noopOperation", "the paragraph already has these properties")
    ctx.mark_structure_changed()
    return Outcome(_updated(block), revision_ids=_revision_ids(ctx, before))
