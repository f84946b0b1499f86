"""Turn one story's alignment into contract operations: the redline is written by the edit engine.

Every difference becomes an operation of contract §5.5, so the redline carries exactly the markup
the engine's tests vouch for:

- a paired block whose text changed → ``replaceBlock`` (the engine writes a word-level redline;
  the base's note references stay, see :mod:`.notes`, and when one readable change would span a
  reference the stretches between references are rewritten one by one with ``replaceRange``);
- a paired block whose paragraph properties differ (style, numbering, alignment, spacing,
  indentation, outline level) → ``setBlockParagraphProperties`` with the revised values, in a
  pass of its own (tracked as ``w:pPrChange``);
- a paired block whose text is equal but whose run formatting differs → ``formatRange`` per
  stretch, with the revised values (tracked as ``w:rPrChange``);
- a base-only block → ``deleteBlock``; a whole table row → ``deleteTableRow``; a whole table →
  ``deleteTable`` (falling back to deleting the blocks' words when the engine refuses the row);
- a revised-only block → ``insertBeforeBlock`` the next base block (``insertAfterBlock`` the last
  body paragraph at the end), stating the revised paragraph's style, numbering and spacing so it
  does not inherit its anchor's (see :mod:`.paragraph_props`); a whole new row →
  ``insertTableRow``; a whole new table →
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
from ..xmlutil import W
from .model import Budget, Entry, kept_share, word_count_at_least

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
    #: paragraph-property changes of paired paragraphs: a pass after the text changes (one
    #: operation per paragraph and batch, and the text change may be the first)
    properties: list[Planned] = field(default_factory=list)
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
