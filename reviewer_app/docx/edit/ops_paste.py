"""pasteRuns: text copied in Reviewer pasted back with its formatting, as Word pastes from Word.

A host operation (never offered to the model, see :data:`.contract.HOST_OPERATION_SCHEMAS`).
Copy in the page view reads the selected text as *paragraphs of runs* (:func:`copied_paragraphs`):
each run's text with the character formatting set on it directly: its whole ``w:rPr`` as XML
(font, size, colour, character style...) without its revision history, and, for a payload read
without it, bold, italic, underline and strike (``None`` where the run leaves it to its style).
Pasting that writes one tracked insertion under the person's name whose runs carry that
formatting (Word's "keep source formatting"; a character style the target document does not
define is dropped), with no ``w:rPrChange``: Word records a paste as new text, never as text
reformatted. A line break inside a run (a
``w:br`` where it was copied) is a line break again.

Each paragraph break of the copy splits the paragraph where it falls (a tracked paragraph mark,
as Enter makes), so ``A¶B`` pasted inside ``xy|z`` reads ``xyA`` then ``Bz``, and ``A¶`` pasted at
the end of ``xyz`` adds an empty paragraph after ``xyzA``; a copy starting with a break is refused
at a paragraph's start (for now). Over a selection across paragraphs (``endBlockId``) the
selection is first deleted as typing over it deletes it.
"""

from __future__ import annotations

import copy
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from lxml import etree

from ..blocks import Block
from ..vocabulary import RPR_HISTORY
from ..xmlutil import NS, W, parse_xml
from .batch import Operation
from .context import EditContext, Outcome
from .markup import isolate, pieces_of, refuse_note_markers, runs_of
from .ops_paragraph import insert_block
from .ops_split_merge import split_block
from .ops_text import live_text, replace_span, splits_character
from .ops_typing import type_text
from .paragraph_batch import revision_ids, updated
from .registry import handles
from .rpr import apply_formatting
from .skips import Skip

if TYPE_CHECKING:  # pragma: no cover
    from ..styles import StyleIndex

_RPR, _TC, _RSTYLE = W + "rPr", W + "tc", W + "rStyle"
#: the contract's formatting key of each on/off run property a copy carries
_TOGGLES = (("bold", "b"), ("italic", "i"), ("underline", "u"), ("strike", "strike"))
_OFF = frozenset(("0", "false", "off", "none"))

Run = dict[str, Any]


def _direct(rpr: etree._Element | None) -> dict[str, bool | None]:
    """The on/off formatting set directly on a run (None: the style decides)."""
    found: dict[str, bool | None] = {}
    for key, name in _TOGGLES:
        element = rpr.find(W + name) if rpr is not None else None
        found[key] = None if element is None else element.get(W + "val", "").lower() not in _OFF
    return found


def _formatting_kept(rpr: etree._Element, styles: StyleIndex | None = None) -> list[etree._Element]:
    """Copies of the run properties a paste carries: WordprocessingML ones only (another
    namespace's would need its declarations in the target part), without revision history (a
    paste is new text), and without a character style ``styles`` does not define."""
    kept = []
    for child in rpr:
        if not isinstance(child.tag, str) or not child.tag.startswith(W) or child.tag in RPR_HISTORY:
            continue
        if (
            child.tag == _RSTYLE
            and styles is not None
            and styles.style_type(child.get(W + "val")) != "character"
        ):
            continue
        kept.append(copy.deepcopy(child))
    return kept


def _rpr_xml(rpr: etree._Element | None) -> str:
    """A run's properties as the clipboard carries them (an empty ``w:rPr`` for a plain run)."""
    out = etree.Element(_RPR, nsmap={"w": NS["w"]})
    out.extend(_formatting_kept(rpr) if rpr is not None else [])
    return etree.tostring(out, encoding="unicode")


def _copied_rpr(xml: Any) -> etree._Element | None:
    """The ``w:rPr`` a pasted run carries; None when the payload has none or it is not one (the
    run then takes its on/off ``formatting``)."""
    if not isinstance(xml, str):
        return None
    try:
        rpr = parse_xml(xml.encode("utf-8"))
    except (etree.XMLSyntaxError, ValueError):
        return None
    return rpr if rpr.tag == _RPR else None


def copied_paragraphs(parts: list[tuple[Block, int, int]]) -> list[list[Run]]:
    """The runs of clean text ``[start, end)`` of each block, for the clipboard.

    Neighbouring text with the same direct formatting is one run; a note reference is left out
    (its marker is no text a paste could recreate).
    """
    paragraphs: list[list[Run]] = []
    for block, start, end in parts:
        read = pieces_of(block.element, block.notes_before)
        runs: list[Run] = []
        for piece in read.pieces or ():
            a, z = max(start, piece.start), min(end, piece.end)
            if z <= a or piece.kind == "note":
                continue
            rpr = piece.run.find(_RPR) if piece.run is not None else None
            formatting, xml = _direct(rpr), _rpr_xml(rpr)
            if runs and runs[-1]["formatting"] == formatting and runs[-1]["rPr"] == xml:
                runs[-1]["text"] += read.text[a:z]
            else:
                runs.append({"text": read.text[a:z], "formatting": formatting, "rPr": xml})
        paragraphs.append(runs)
    return paragraphs


def _replace_formatting(rpr: etree._Element, copied: etree._Element, styles: StyleIndex) -> None:
    """Give ``rpr`` the copied run's properties in place of its own, keeping its revision marks
    (first) and formatting change (last) where the schema puts them."""
    history = [child for child in rpr if child.tag in RPR_HISTORY]
    for child in list(rpr):
        rpr.remove(child)
    marks = [child for child in history if child.tag != W + "rPrChange"]
    rpr.extend(marks + _formatting_kept(copied, styles) + [c for c in history if c not in marks])


def _format_inserted(block: Block, start: int, runs: list[Run], styles: StyleIndex) -> None:
    """Give each pasted run, now at live ``start`` onwards, its copied formatting (untracked: it
    is inside the paste's own insertion)."""
    at = start
    for run in runs:
        length, formatting, copied = len(run["text"]), run.get("formatting"), _copied_rpr(run.get("rPr"))
        if length and (formatting or copied is not None):
            for element in runs_of(isolate(block.element, at, at + length, block.notes_before)):
                rpr = element.find(_RPR)
                if rpr is None:
                    rpr = etree.Element(_RPR)
                    element.insert(0, rpr)
                if copied is not None:
                    _replace_formatting(rpr, copied, styles)
                else:
                    apply_formatting(rpr, dict(formatting))
                if not len(rpr):
                    element.remove(rpr)
        at += length


def _in_cell(p: etree._Element) -> bool:
    return next(p.iterancestors(_TC), None) is not None


@handles("pasteRuns")
def paste_runs(ctx: EditContext, op: Operation) -> Outcome:
    """Replace ``[offset, offset + length)`` with the copied paragraphs' runs (tracked), splitting
    the paragraph at each paragraph break of the copy."""
    fields = op.fields
    block = ctx.block(fields["blockId"])
    if block.kind == "diagnostic":
        raise Skip("unsupportedBlock")
    paragraphs = [[dict(run) for run in paragraph] for paragraph in fields["paragraphs"]]
    texts = ["".join(run["text"] for run in paragraph) for paragraph in paragraphs]
    new = "".join(texts)
    refuse_note_markers(new)
    start = fields["offset"]
    end = start + fields.get("length", 0)
    text = live_text(ctx, block)
    if not 0 <= start <= end <= len(text):
        raise Skip("staleRange", f"offsets {start}-{end} are outside the block's text ({len(text)})")
    if splits_character(text, start) or splits_character(text, end):
        raise Skip("splitsCharacter")
    if not new and start == end:
        raise Skip("noopOperation")
    if start == 0 and len(texts) > 1 and not texts[0]:
        raise Skip(
            "unsupportedBlock", "a copy that starts with a paragraph break cannot go at a paragraph's start"
        )
    if len(texts) > 1 and not texts[-1] and end == len(text) and _in_cell(block.element):
        raise Skip(
            "unsupportedBlock", "a copy that ends with a paragraph break cannot end a table cell's text"
        )
    before = ctx.stamper.next_revision_id
    if "endBlockId" in fields:  # over a selection across paragraphs: deleted as typing over it deletes it
        across = {key: fields[key] for key in ("blockId", "endBlockId") if key in fields}
        selection = {**across, "id": op.id, "type": "typeText", "offset": start, "text": ""}
        type_text(ctx, Operation(op.id, "typeText", {**selection, "endOffset": fields.get("endOffset", 0)}))
        end = start
    ctx.touch(block.element)
    replace_span(ctx, block, start, end, new)
    ctx.record_edit(block.id, start, end, start + len(new))
    _format_inserted(block, start, [run for paragraph in paragraphs for run in paragraph], ctx.doc.styles)
    ctx.text_changed(block.element)
    # the last break first: the block keeps its id as the first half of each split; a copy that
    # ends with a break, pasted at the paragraph's end, adds an empty paragraph after it (as Enter)
    for offset in reversed(list(accumulate(len(t) for t in texts[:-1]))):
        at = start + offset
        if at >= len(live_text(ctx, block)):
            blank = {"id": op.id, "type": "insertAfterBlock", "blockId": block.id, "text": ""}
            insert_block(ctx, Operation(op.id, "insertAfterBlock", blank))
        else:
            split = {"id": op.id, "type": "splitBlock", "blockId": block.id, "offset": at}
            split_block(ctx, Operation(op.id, "splitBlock", split))
    # each paragraph the breaks made is an insertion after the block (the views lay out again)
    made = {
        "type": "insertion",
        "story": "main",
        "anchorBlockId": block.id,
        "position": "after",
        "content": "block",
    }
    return Outcome(updated(block) + [made] * (len(texts) - 1), revision_ids=revision_ids(ctx, before))
