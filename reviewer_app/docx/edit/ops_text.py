"""Text operations: replaceInBlock, replaceRange, replaceBlock and formatRange (contract §5.5).

A replacement is written as a word-level redline over the stretch it changes: unchanged words
are left alone, each changed stretch becomes a ``w:del`` followed by a ``w:ins``, and the new
text takes the formatting of the first character it replaces.
"""

from __future__ import annotations

import copy
import unicodedata
from dataclasses import dataclass
from typing import Any

from lxml import etree

from ..blocks import Block
from ..hashing import text_hash
from ..text import NOTE_MARKER
from ..worddiff import word_diff
from ..xmlutil import W
from .batch import Operation
from .context import EditContext, Outcome
from .markup import (
    delete_runs,
    insert_runs,
    insertion_point,
    isolate,
    make_runs,
    pieces_of,
    runs_of,
    template_rpr,
)
from .registry import handles
from .rpr import apply_formatting
from .skips import Skip
from .stamp import Stamper

_JOINERS = frozenset("\u200d\ufe0e\ufe0f")


def splits_character(text: str, offset: int) -> bool:
    """True when ``offset`` falls between a letter and its combining marks or inside an emoji
    sequence (joiner, variation selector, skin-tone modifier)."""
    if offset <= 0 or offset >= len(text):
        return False
    ch, prev = text[offset], text[offset - 1]
    return (
        unicodedata.combining(ch) > 0 or ch in _JOINERS or prev == "\u200d" or 0x1F3FB <= ord(ch) <= 0x1F3FF
    )


def live_text(ctx: EditContext, block: Block) -> str:
    """The block's clean text now; ``changedBlock`` if it moved on without this batch knowing."""
    text = pieces_of(block.element, block.notes_before).text
    if block.id not in ctx.edited and text != block.text:
        raise Skip("changedBlock")
    return text


def _check_markers(old: str, new: str) -> None:
    """Note markers are references, not text: keep each one the old text covers, in order."""
    if NOTE_MARKER.findall(old) != NOTE_MARKER.findall(new):
        raise Skip("protectedReference")


def _has_mixed_formatting(runs: list[etree._Element]) -> bool:
    props = {etree.tostring(template_rpr(r)) if template_rpr(r) is not None else b"" for r in runs}
    return len(props) > 1


def replace_text(ctx: EditContext, block: Block, start: int, end: int, new: str) -> TextChange:
    """Redline live ``[start, end)`` of ``block`` into ``new``: the revision ids and changed span."""
    p = block.element
    old_text = pieces_of(p, block.notes_before).text
    old = old_text[start:end]
    _check_markers(old, new)
    ctx.touch(p)
    revision_ids: list[str] = []
    mixed_noted = False
    first: etree._Element | None = None
    last: etree._Element | None = None
    # apply hunks right to left so earlier offsets stay valid
    for hunk in reversed(word_diff(old, new)):
        s, e = start + hunk.start, start + hunk.end
        if splits_character(old_text, s) or splits_character(old_text, e):
            raise Skip("splitsCharacter")
        before = ctx.stamper.next_revision_id
        mixed, span = replace_span(ctx, block, s, e, hunk.new_text)
        if span is not None:
            first = span[0]
            last = last if last is not None else span[1]
        if mixed and not mixed_noted:
            ctx.normalize(
                f"operations[id={ctx.operation_id}]",
                "the replaced text had mixed formatting; the new text takes the first replaced "
                "character's formatting",
            )
            mixed_noted = True
        revision_ids.extend(str(i) for i in range(before, ctx.stamper.next_revision_id))
    ctx.text_changed(p)
    ctx.record_edit(block.id, start, end, start + len(new))
    return TextChange(revision_ids, (p, first, last) if first is not None else (p, None, None))


@dataclass(slots=True)
class TextChange:
    """What :func:`replace_text` wrote: revision ids, and the changed stretch for a comment."""

    revision_ids: list[str]
    anchor: tuple[etree._Element, etree._Element | None, etree._Element | None]


Span = tuple[etree._Element, etree._Element]


def replace_span(ctx: EditContext, block: Block, start: int, end: int, new: str) -> tuple[bool, Span | None]:
    """Replace live ``[start, end)`` with ``new`` as it stands, character for character (one hunk of
    a word diff, or a person's keystroke): (mixed formatting?, first and last elements now holding
    the change)."""
    p = block.element
    tracked = ctx.tracked
    span_first: etree._Element | None = None
    inserted: etree._Element | None = None
    if end > start:
        pieces = isolate(p, start, end, block.notes_before)
        runs = runs_of(pieces)
        if any(pc.kind == "note" for pc in pieces):
            raise Skip("protectedReference")
        mixed = _has_mixed_formatting(runs)
        rpr = template_rpr(runs[0]) if runs else None
        anchor = _anchor_before(p, start, block) if not tracked else None
        delete_runs(runs, p, ctx.stamper, tracked)
        if tracked and runs[0].getparent() is not None:
            span_first = insertion_point(runs[0], p)
        if new:
            after = (
                insertion_point(runs[-1], p, ctx.stamper)
                if tracked and runs[-1].getparent() is not None
                else anchor
            )
            if tracked and runs[-1].getparent() is None:
                after = _anchor_before(p, start, block, ctx.stamper)
            inserted = insert_runs(make_runs(new, rpr), p, after, ctx.stamper, tracked)
        last = inserted if inserted is not None else span_first
        if last is None:
            return mixed, None
        return mixed, (span_first if span_first is not None else last, last)
    if new:
        isolate(p, start, start, block.notes_before)
        after = _anchor_before(p, start, block, ctx.stamper if tracked else None)
        source = _run_before(p, start, block)
        if source is None:
            source = _run_after(p, start, block)
        inserted = insert_runs(make_runs(new, template_rpr(source)), p, after, ctx.stamper, tracked)
        return False, (inserted, inserted)
    return False, None


def _run_before(p: etree._Element, offset: int, block: Block) -> etree._Element | None:
    before = [
        pc for pc in pieces_of(p, block.notes_before).pieces or () if pc.end <= offset and pc.run is not None
    ]
    return before[-1].run if before else None


def _run_after(p: etree._Element, offset: int, block: Block) -> etree._Element | None:
    after = [
        pc
        for pc in pieces_of(p, block.notes_before).pieces or ()
        if pc.start >= offset and pc.run is not None
    ]
    return after[0].run if after else None


def _anchor_before(
    p: etree._Element, offset: int, block: Block, stamper: Stamper | None = None
) -> etree._Element | None:
    """Where text inserted at ``offset`` goes: after the run ending there (None = paragraph start).

    Pass the ``stamper`` when the insertion is tracked, so a revision holding more text after
    the anchor is split there (see :func:`markup.insertion_point`).
    """
    run = _run_before(p, offset, block)
    return insertion_point(run, p, stamper) if run is not None else None


def _receipt(block: Block) -> list[dict[str, Any]]:
    return [{"type": "block", "story": "main", "blockId": block.id, "effect": "updated"}]


@handles("replaceInBlock")
def replace_in_block(ctx: EditContext, op: Operation) -> Outcome:
    block = ctx.block(op.fields["blockId"])
    find, replace = op.fields["find"], op.fields["replace"]
    if find == "":
        raise Skip("emptyOperation")
    if find == replace:
        raise Skip("noopOperation")
    text = live_text(ctx, block)
    hits = [i for i in range(len(text) - len(find) + 1) if text.startswith(find, i)]
    if not hits:
        raise Skip("missingFind")
    if len(hits) > 1:
        raise Skip("ambiguousFind", f"{len(hits)} matches")
    start = hits[0]
    earlier = ctx.overlapping(block.id, start, start + len(find))
    if earlier is not None:
        raise Skip("overlappingOperation", f'operation "{earlier.operation_id}" already edits this text')
    change = replace_text(ctx, block, start, start + len(find), replace)
    return Outcome(_receipt(block), revision_ids=change.revision_ids, comment_anchor=change.anchor)


def resolve_range(ctx: EditContext, rng: Any) -> tuple[Block, str, int, int]:
    """Block, live text and live offsets of a ``find_text`` range handle, or the contract's skip.

    ``staleRange`` when the selected text no longer hashes the same, ``splitsCharacter`` for an
    offset inside a character, ``overlappingOperation`` when an earlier op of the batch edited it.
    """
    block = ctx.block(rng["blockId"])
    text = live_text(ctx, block)
    start, end = ctx.to_live(block.id, rng["startOffset"]), ctx.to_live(block.id, rng["endOffset"])
    if not 0 <= start < end <= len(text) or text_hash(text[start:end]) != rng["selectedTextHash"]:
        raise Skip("staleRange")
    if splits_character(text, start) or splits_character(text, end):
        raise Skip("splitsCharacter")
    earlier = ctx.overlapping(block.id, start, end)
    if earlier is not None:
        raise Skip("overlappingOperation", f'operation "{earlier.operation_id}" already edits this text')
    return block, text, start, end


@handles("replaceRange")
def replace_range(ctx: EditContext, op: Operation) -> Outcome:
    block, text, start, end = resolve_range(ctx, op.fields["range"])
    if text[start:end] == op.fields["replace"]:
        raise Skip("noopOperation")
    change = replace_text(ctx, block, start, end, op.fields["replace"])
    return Outcome(_receipt(block), revision_ids=change.revision_ids, comment_anchor=change.anchor)


@handles("replaceBlock")
def replace_block(ctx: EditContext, op: Operation) -> Outcome:
    block = ctx.block(op.fields["blockId"])
    if block.kind == "diagnostic":
        raise Skip("unsupportedBlock")
    text = live_text(ctx, block)
    new = op.fields["text"]
    if new == text and "styleId" not in op.fields:
        raise Skip("noopOperation")
    change = replace_text(ctx, block, 0, len(text), new) if new != text else None
    revisions = change.revision_ids if change else []
    if "styleId" in op.fields:
        from .ops_paragraph import set_style  # paragraph properties live with the block operations

        set_style(ctx, block, op.fields["styleId"])
    ctx.record_whole_block(block.id)
    return Outcome(_receipt(block), revision_ids=revisions)


_COMPLEX_SCRIPT_TWINS = frozenset(W + name for name in ("bCs", "iCs", "szCs"))


def _visible(rpr: etree._Element) -> bytes:
    """Run properties without the complex-script twins the formatting writes alongside bold,
    italic and size: adding only those to Latin text changes nothing a reader sees."""
    kept = copy.deepcopy(rpr)
    for child in list(kept):
        if child.tag in _COMPLEX_SCRIPT_TWINS:
            kept.remove(child)
    return etree.tostring(kept)


@handles("formatRange")
def format_range(ctx: EditContext, op: Operation) -> Outcome:
    rng = op.fields["range"]
    block, _text, start, end = resolve_range(ctx, rng)
    p = block.element
    ctx.touch(p)
    runs = runs_of(isolate(p, start, end, block.notes_before))
    revision_ids: list[str] = []
    changed = False
    for run in runs:
        rpr = run.find(W + "rPr")
        if rpr is not None and rpr.find(W + "rPrChange") is not None:
            raise Skip("pendingRunPropertyChange")
        if rpr is None:
            rpr = etree.Element(W + "rPr")
            run.insert(0, rpr)
        old = copy.deepcopy(rpr)
        apply_formatting(rpr, op.fields["formatting"])
        if _visible(old) == _visible(rpr):
            continue
        changed = True
        if ctx.tracked:
            change = etree.SubElement(rpr, W + "rPrChange", attrib=ctx.stamper.attributes())
            change.append(old)
            revision_ids.append(change.get(W + "id"))
    if not changed:  # bold on text that is already bold: nothing to track (the split runs roll back)
        raise Skip("noopOperation")
    ctx.text_changed(p)
    ctx.record_edit(block.id, start, end, end)
    return Outcome(
        [{"type": "textRange", "range": dict(rng), "effect": "formatted"}], revision_ids=revision_ids
    )
