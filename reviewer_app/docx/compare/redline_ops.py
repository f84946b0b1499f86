"""Turn one story's alignment into contract operations: the redline is written by the edit engine.

Every difference becomes an operation of contract §5.5, so the redline carries exactly the markup
the engine's tests vouch for:

- a paired block whose text changed → ``replaceBlock`` (the engine writes a word-level redline;
  the base's note references stay, see :mod:`.notes`, and when one readable change would span a
  reference the stretches between references are rewritten one by one with ``replaceRange``);
- a paired block whose text is equal but whose run formatting differs → ``formatRange`` per
  stretch, with the revised values (tracked as ``w:rPrChange``);
- a base-only block → ``deleteBlock``; a whole table row → ``deleteTableRow``; a whole table →
  ``deleteTable`` (falling back to deleting the blocks' words when the engine refuses the row);
- a revised-only block → ``insertBeforeBlock`` the next base block (``insertAfterBlock`` the last
  body paragraph at the end), stating the revised paragraph's style, numbering and spacing so it
  does not inherit its anchor's; a whole new row → ``insertTableRow``; a whole new table →
  ``insertTable`` (at the story's end a new table, and what follows it, wait for a later pass
  anchored on the story's last block); a paragraph added inside an existing cell → its text
  joined to a paired neighbour in the cell, then split off again (``splitBlock`` in a later pass);
- a deleted and an added body block with the same text, or keeping ≥ 80 % of their words (at
  least three), → ``deleteBlock`` + insertion sharing a ``moveId`` (``w:moveFrom``/``w:moveTo``).

Insertions come first in the batch: every operation addresses the story as read, and an
insertion anchored on a block that a later operation of the batch deletes is still placed.
Operations name their target by element; ids are resolved just before each pass is applied.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ..blocks import Block
from ..hashing import text_hash
from ..numbering import NumberingDefinitions
from ..styles import StyleIndex
from ..xmlutil import W
from .model import Budget, Entry, kept_share, word_count_at_least
from .notes import without_markers

_TR, _TC, _TBL, _P = W + "tr", W + "tc", W + "tbl", W + "p"
_SDT, _CUSTOM_XML = W + "sdt", W + "customXml"
#: A paragraph keeping this share of its words (and at least three) counts as moved.
MOVE_KEPT = 0.8
MOVE_MINIMUM_WORDS = 3
#: What joins a paragraph added in a cell to its host until the split pass cuts it off again.
SPLIT_SEPARATOR = " "


@dataclass(slots=True, eq=False)
class Planned:
    """One operation to send: contract fields, the base paragraph it names, what to try if refused."""

    op: dict[str, Any]
    target: etree._Element | None
    fallback: list[Planned] = field(default_factory=list)


@dataclass(slots=True)
class Split:
    """Cut ``host`` at each of ``offsets`` (one per pass, last first), deleting the separator there."""

    host: etree._Element
    offsets: list[int]


@dataclass(slots=True)
class StoryPlan:
    """Operations for one story: the first pass (insertions, then the rest), later passes, refusals.

    ``tail`` holds insertions at the story's end that go, in a second pass, before the blank
    paragraph the first pass inserts after ``tail_after`` (see ``Planner._finish_end``); their
    target is filled in then.
    """

    inserts: list[Planned] = field(default_factory=list)
    edits: list[Planned] = field(default_factory=list)
    tail: list[Planned] = field(default_factory=list)
    tail_after: etree._Element | None = None
    splits: list[Split] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # what could not be expressed, in words

    @property
    def first_pass(self) -> list[Planned]:
        return [*self.inserts, *self.edits]


def ancestors(el: etree._Element, tag: str) -> list[etree._Element]:
    """``el``'s ancestors tagged ``tag``, innermost first."""
    return [a for a in el.iterancestors(tag)]


def children(parent: etree._Element, tag: str) -> list[etree._Element]:
    """``parent``'s children tagged ``tag``, looking through content controls and custom XML
    (repeating rows are often wrapped in a ``w:sdt``)."""
    found: list[etree._Element] = []
    for child in parent:
        if child.tag == tag:
            found.append(child)
        elif child.tag == _SDT:
            content = child.find(W + "sdtContent")
            if content is not None:
                found.extend(children(content, tag))
        elif child.tag == _CUSTOM_XML:
            found.extend(children(child, tag))
    return found


def _covering(entries: list[Entry], chosen: set[int], tag: str) -> dict[int, etree._Element]:
    """For chosen table entries: the outermost ``tag`` ancestor all of whose blocks are chosen."""
    total: dict[etree._Element, int] = {}
    hit: dict[etree._Element, int] = {}
    for e in entries:
        if e.block.element is None or not e.in_table:
            continue
        for anc in ancestors(e.block.element, tag):
            total[anc] = total.get(anc, 0) + 1
            if id(e) in chosen:
                hit[anc] = hit.get(anc, 0) + 1
    out: dict[int, etree._Element] = {}
    for e in entries:
        if id(e) not in chosen or e.block.element is None or not e.in_table:
            continue
        full = [a for a in ancestors(e.block.element, tag) if hit.get(a) == total[a]]
        if full:
            out[id(e)] = full[-1]
    return out


def _numbering(block: Block, numbering: NumberingDefinitions) -> dict[str, Any]:
    stated = dict(block.stated_numbering or {"kind": "inherit"})
    if stated.get("kind") == "reference":
        if not numbering.instance_defined(str(stated.get("numId"))):
            return {"kind": "inherit"}
        out: dict[str, Any] = {"kind": "reference", "numId": stated["numId"]}
        if stated.get("ilvl") is not None and 0 <= stated["ilvl"] <= 8:
            out["ilvl"] = stated["ilvl"]
        return out
    if stated.get("kind") == "levelOnly" and not 0 <= (stated.get("ilvl") or 0) <= 8:
        return {"kind": "inherit"}
    return stated


def _spacing(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if not value:
        return None
    out = {k: v for k, v in value.items() if not (k in ("spaceBefore", "spaceAfter") and v < 0)}
    return out or None


def insert_fields(
    block: Block, anchor: Block | None, styles: StyleIndex, numbering: NumberingDefinitions
) -> dict[str, Any]:
    """Paragraph properties an inserted copy of ``block`` states, so it does not take its anchor's."""
    fields: dict[str, Any] = {"text": without_markers(block.text)}
    if "\n" in block.text or "\r" in block.text:
        fields["lineBreakMode"] = "inline"
    if block.style_id and styles.is_paragraph_style(block.style_id):
        fields["styleId"] = block.style_id
    if block.direct_alignment:
        fields["alignment"] = block.direct_alignment
    anchor_ppr = anchor.element.find(W + "pPr") if anchor is not None and anchor.element is not None else None
    stated = _numbering(block, numbering)
    if stated["kind"] != "inherit" or (anchor_ppr is not None and anchor_ppr.find(W + "numPr") is not None):
        fields["numbering"] = stated
    if block.direct_outline_level:
        fields["outlineLevel"] = block.direct_outline_level
    elif anchor_ppr is not None and anchor_ppr.find(W + "outlineLvl") is not None:
        fields["outlineLevel"] = None
    spacing = _spacing(block.direct_spacing)
    if spacing:
        fields["spacing"] = spacing
    if block.direct_indentation:
        fields["indentation"] = dict(block.direct_indentation)
    return fields


def find_moves(deleted: list[Entry], added: list[Entry], budget: Budget) -> list[tuple[Entry, Entry]]:
    """Deleted/added body blocks that are one moved block: same text first, then ≥ 80 % kept."""
    eligible_d = [e for e in deleted if not e.in_table and word_count_at_least(e.key, MOVE_MINIMUM_WORDS)]
    eligible_a = [e for e in added if not e.in_table and word_count_at_least(e.key, MOVE_MINIMUM_WORDS)]
    moves: list[tuple[Entry, Entry]] = []
    waiting: dict[str, list[Entry]] = {}
    for e in eligible_d:
        waiting.setdefault(e.key, []).append(e)
    rest_a = []
    for e in eligible_a:
        queue = waiting.get(e.key)
        if queue:
            moves.append((queue.pop(0), e))
        else:
            rest_a.append(e)
    rest_d = [e for queue in waiting.values() for e in queue]
    if not rest_d or not rest_a or not budget.take("moves", len(rest_d) * len(rest_a)):
        return moves
    scored = []
    for d in rest_d:
        nd = sum(d.words.values())
        for a in rest_a:
            na = sum(a.words.values())
            if min(nd, na) < MOVE_KEPT * max(nd, na):
                continue
            share = kept_share(d, a)
            if share >= MOVE_KEPT:
                scored.append((-share, d.index, a.index, d, a))
    used: set[int] = set()
    for _s, _di, _ai, d, a in sorted(scored, key=lambda t: t[:3]):
        if id(d) not in used and id(a) not in used:
            used.update((id(d), id(a)))
            moves.append((d, a))
    return moves


def range_op(block: Block, start: int, end: int, formatting: dict[str, Any]) -> dict[str, Any]:
    """A ``formatRange`` over ``[start, end)`` of ``block``'s text (blockId filled in later)."""
    rng = {
        "type": "textRange",
        "story": "main",
        "blockId": "",
        "startOffset": start,
        "endOffset": end,
        "selectedTextHash": text_hash(block.text[start:end]),
    }
    return {"type": "formatRange", "range": rng, "formatting": formatting}
