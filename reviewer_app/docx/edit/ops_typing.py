"""typeText: a person's keystroke in the page, as Word records it with Track Changes on.

A host operation (never offered to the model, see :data:`.contract.HOST_OPERATION_SCHEMAS`):
it replaces ``length`` characters at ``offset`` with ``text`` character for character, through
the same primitive as a hunk of a word-level replacement (:func:`.ops_text.replace_span`), so a
letter typed inside a word stays one inserted letter. Then, as Word does, the author's revisions
that now touch are joined: a sentence typed a key at a time is one ``w:ins`` (one change to
accept or reject), a word taken away with Backspace one ``w:del``, and runs with the same
formatting inside them one run.

With ``endBlockId`` and ``endOffset`` the replaced text runs from ``offset`` of one paragraph to
``endOffset`` of a later one in the same container (a selection across paragraphs): as Word
records it, the text of each paragraph in between is deleted, so is each paragraph mark but the
last (the paragraphs join as a merge joins them, :func:`.ops_split_merge.join_mark`), and the
typed text goes in at the start.

The block may be a paragraph of a footnote (or another story than the body), named by
:func:`..stories.story_block_id`: the keystroke is written into that story's part the same way,
within the paragraph. The body's blocks stay as they are (they show a note's reference, not its
text): the document's version moves on without a walk of the body (~2.4 s on a 300-page contract).
"""

from __future__ import annotations

from lxml import etree

from ..blocks import Block
from ..sections import ends_section
from ..stories import split_story_block_id, story_part
from ..xmlutil import W
from . import ops_list_level  # noqa: F401  (registers setListLevel, the other keystroke operation)
from .batch import Operation
from .context import EditContext, Outcome
from .markup import refuse_note_markers, set_space
from .ops_split_merge import join_mark
from .ops_text import live_text, replace_span, splits_character
from .ppr import next_block
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


def _checked_range(text: str, start: int, end: int) -> None:
    """Refuse offsets outside ``text`` or inside a character (a surrogate pair, a combining mark)."""
    if not 0 <= start <= end <= len(text):
        raise Skip("staleRange", f"offsets {start}-{end} are outside the block's text ({len(text)})")
    if splits_character(text, start) or splits_character(text, end):
        raise Skip("splitsCharacter")


def _paragraphs_to(ctx: EditContext, first: Block, last_id: str) -> list[Block]:
    """The paragraphs from ``first`` to the block ``last_id`` in document order, when they follow
    one another in one container with no table or section end between them (else refused)."""
    start, end = ctx.snapshot.index_of(first.id), ctx.snapshot.index_of(last_id)
    if end is None:
        raise Skip("missingBlock")
    assert start is not None  # ctx.block found it
    if end <= start:
        raise Skip("staleRange", "the selection must end in a later paragraph than it starts")
    blocks = [ctx.block(b.id) for b in ctx.snapshot.blocks[start : end + 1]]
    for block, following in zip(blocks, blocks[1:], strict=False):
        if next_block(block.element) is not following.element or ends_section(block.element):
            raise Skip(
                "unsupportedBlock",
                "the selection crosses a table, a cell or a section end; select within them to edit",
            )
    return blocks


@handles("typeText")
def type_text(ctx: EditContext, op: Operation) -> Outcome:
    """Replace ``[offset, offset + length)`` of a block's clean text with ``text`` (tracked), or
    from ``offset`` to ``endOffset`` of a later paragraph ``endBlockId``. The block may be a
    paragraph of a note, header or footer (a :func:`~..stories.story_block_id`)."""
    fields = op.fields
    block = ctx.block(fields["blockId"])
    if block.kind == "diagnostic":
        raise Skip("unsupportedBlock")
    split = split_story_block_id(block.id)
    story = split[0] if split is not None else None
    part = story_part(ctx.doc, story) if story is not None else None
    new = fields["text"]
    refuse_note_markers(new)
    start = fields["offset"]
    if "endBlockId" in fields:
        if story is not None:
            raise Skip("unsupportedBlock", "select within one paragraph of a note, header or footer")
        blocks = _paragraphs_to(ctx, block, fields["endBlockId"])
        texts = [live_text(ctx, b) for b in blocks]
        _checked_range(texts[0], start, len(texts[0]))
        _checked_range(texts[-1], 0, fields.get("endOffset", 0))
        spans = [(start, len(texts[0])), *((0, len(t)) for t in texts[1:-1]), (0, fields.get("endOffset", 0))]
    else:
        blocks = [block]
        text = live_text(ctx, block)
        spans = [(start, start + fields.get("length", 0))]
        _checked_range(text, *spans[0])
        if spans[0][0] == spans[0][1] and not new:
            raise Skip("noopOperation")
    before = ctx.stamper.next_revision_id
    for b, (a, z) in zip(blocks, spans, strict=True):
        ctx.touch(b.element, part)
        if a < z or (new and b is block):
            replace_span(ctx, b, a, z, new if b is block else "")
    for b, following in zip(blocks, blocks[1:], strict=False):
        join_mark(ctx, b.element, following.element, own=True)
    for b, (a, z) in zip(blocks, spans, strict=True):
        if ctx.tracked:
            join_revisions(b.element, ctx.stamper.author)
        if story is None:
            ctx.text_changed(b.element)
        if b is block:
            ctx.record_edit(b.id, a, z, a + len(new))
        else:
            ctx.record_whole_block(b.id)
    if len(blocks) > 1:
        ctx.record_whole_block(block.id)
        ctx.mark_structure_changed()
    # the revisions this keystroke opened and kept (none when it joined an earlier one)
    kept = [
        el.get(W + "id")
        for b in blocks
        for el in b.element.iter(_INS, _DEL)
        if int(el.get(W + "id") or -1) >= before
    ]
    return Outcome(
        [{"type": "block", "story": story or "main", "blockId": b.id, "effect": "updated"} for b in blocks],
        revision_ids=kept,
    )
