"""typeText: a person's keystroke in the page, as Word records it with Track Changes on.

A host operation (never offered to the model, see :data:`.contract.HOST_OPERATION_SCHEMAS`):
it replaces ``length`` characters at ``offset`` with ``text`` character for character, through
the same primitive as a hunk of a word-level replacement (:func:`.ops_text.replace_span`), so a
letter typed inside a word stays one inserted letter. Then, as Word does, the author's revisions
that now touch are joined: a sentence typed a key at a time is one ``w:ins`` (one change to
accept or reject), a word taken away with Backspace one ``w:del``, and runs with the same
formatting inside them one run.
"""

from __future__ import annotations

from lxml import etree

from ..xmlutil import W
from .batch import Operation
from .context import EditContext, Outcome
from .markup import refuse_note_markers, set_space
from .ops_text import live_text, replace_span, splits_character
from .registry import handles
from .skips import Skip

_INS, _DEL, _R, _RPR = W + "ins", W + "del", W + "r", W + "rPr"
_TEXT_TAGS = frozenset((W + "t", W + "delText"))


def _simple_text(run: etree._Element) -> etree._Element | None:
    """The run's one text element when it holds nothing else but properties (None otherwise)."""
    content = [child for child in run if child.tag != _RPR]
    return content[0] if len(content) == 1 and content[0].tag in _TEXT_TAGS else None


def _same_properties(a: etree._Element, b: etree._Element) -> bool:
    rpr_a, rpr_b = a.find(_RPR), b.find(_RPR)
    if rpr_a is None or rpr_b is None:
        return rpr_a is rpr_b
    return etree.tostring(rpr_a) == etree.tostring(rpr_b)


def _join_runs(wrapper: etree._Element) -> None:
    """Neighbouring plain-text runs with the same formatting become one run."""
    runs = list(wrapper)
    for first, second in zip(runs, runs[1:], strict=False):
        if first.tag != _R or second.tag != _R or first.getparent() is not wrapper:
            continue
        a, b = _simple_text(first), _simple_text(second)
        if a is None or b is None or a.tag != b.tag or not _same_properties(first, second):
            continue
        b.text = (a.text or "") + (b.text or "")
        set_space(b)
        wrapper.remove(first)


def join_revisions(p: etree._Element, author: str) -> None:
    """Join each of ``author``'s insertions and deletions in ``p`` with a neighbour of the same
    kind and author (the earlier one keeps its id and date, as Word keeps a typing burst's)."""
    for wrapper in list(p.iter(_INS, _DEL)):
        if wrapper.getparent() is None or wrapper.get(W + "author") != author:
            continue
        following = wrapper.getnext()
        while (
            following is not None
            and following.tag == wrapper.tag
            and following.get(W + "author") == author
            and not (following.tail or "").strip()
        ):
            wrapper.extend(list(following))
            following.getparent().remove(following)
            following = wrapper.getnext()
        _join_runs(wrapper)


@handles("typeText")
def type_text(ctx: EditContext, op: Operation) -> Outcome:
    """Replace ``[offset, offset + length)`` of a block's clean text with ``text`` (tracked)."""
    fields = op.fields
    block = ctx.block(fields["blockId"])
    if block.kind == "diagnostic":
        raise Skip("unsupportedBlock")
    text = live_text(ctx, block)
    start = fields["offset"]
    end = start + fields.get("length", 0)
    new = fields["text"]
    if not 0 <= start <= end <= len(text):
        raise Skip("staleRange", f"offsets {start}-{end} are outside the block's text ({len(text)})")
    if start == end and not new:
        raise Skip("noopOperation")
    if splits_character(text, start) or splits_character(text, end):
        raise Skip("splitsCharacter")
    refuse_note_markers(new)
    p = block.element
    ctx.touch(p)
    before = ctx.stamper.next_revision_id
    replace_span(ctx, block, start, end, new)
    if ctx.tracked:
        join_revisions(p, ctx.stamper.author)
    ctx.text_changed(p)
    ctx.record_edit(block.id, start, end, start + len(new))
    # the revisions this keystroke opened and kept (none when it joined an earlier one)
    kept = [el.get(W + "id") for el in p.iter(_INS, _DEL) if int(el.get(W + "id") or -1) >= before]
    return Outcome(
        [{"type": "block", "story": "main", "blockId": block.id, "effect": "updated"}], revision_ids=kept
    )
