"""What the comparison works on: blocks as comparable entries, and the shared work budget.

A block is compared by its *key*: the accepted-view text with whitespace normalized, note
markers stripped of their reading-order number (``[^3]`` → ``[^]``), and the shown result of a
self-updating field (page number, date) read as the field's name (``Page {PAGE}``). Inserting
one footnote near the top renumbers every later marker, and every save recomputes page numbers;
a comparison that saw those as edits would report half a contract as changed when not a word
moved.

Every quadratic step of the comparison (block LCS in a gap, similarity pairing, word diffs,
near-identical move search) draws from one :class:`Budget` per comparison, shared by all story
pairs, so a huge or hostile document costs bounded work and gets a coarser answer instead.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ..blocks import Block
from ..hashing import normalize_text
from ..text import FieldState, NoteNumbers, paragraph_text
from ..xmlutil import W

_MARKER = re.compile(r"\[\^(e?)\d+\]")
_WORD = re.compile(r"\S+")
_TERM = re.compile(r"\w+")

#: Cells (m·n) the block alignment may spend on LCS and similarity tables (contract §10).
ALIGN_CELLS = 4_000_000
#: Token cells all word diffs of one comparison may spend together before falling back to
#: one replacement of the changed stretch per block.
WORD_DIFF_CELLS = 60_000_000
#: Cells the near-identical move search may spend (deleted × added block pairs).
MOVE_CELLS = 1_000_000


#: Fields whose shown result Word recomputes on its own (page numbers, dates, counts): a
#: different cached result is layout, not an edit ("Page 17" in one save, "Page 10" in the next).
VOLATILE_FIELDS = frozenset(
    (
        "PAGE",
        "NUMPAGES",
        "SECTIONPAGES",
        "SECTION",
        "DATE",
        "TIME",
        "PRINTDATE",
        "SAVEDATE",
        "CREATEDATE",
        "EDITTIME",
        "NUMWORDS",
        "NUMCHARS",
        "FILESIZE",
        "REVNUM",
    )
)
_FLD_CHAR, _INSTR, _FLD_SIMPLE = W + "fldChar", W + "instrText", W + "fldSimple"


def canonical(normalized: str) -> str:
    """The comparison key of a normalized block text: note markers without their numbers."""
    return _MARKER.sub(r"[^\1]", normalized) if "[^" in normalized else normalized


def _volatile(instruction: str) -> str | None:
    """The field's name when it is one Word recomputes on its own, else None."""
    words = instruction.split()
    name = words[0].upper() if words else ""
    return name if name in VOLATILE_FIELDS else None


def _volatile_elements(p: etree._Element) -> dict[etree._Element, tuple[str, int]]:
    """Text elements showing the result of a volatile field in this paragraph: (name, field number)."""
    found: dict[etree._Element, tuple[str, int]] = {}
    stack: list[list[Any]] = []  # [instruction, in its result part, field number]
    number = 0
    for el in p.iter():
        tag = el.tag
        if tag == _FLD_CHAR:
            kind = el.get(W + "fldCharType")
            if kind == "begin":
                number += 1
                stack.append(["", False, number])
            elif kind == "separate" and stack:
                stack[-1][1] = True
            elif kind == "end" and stack:
                stack.pop()
        elif tag == _INSTR and stack and not stack[-1][1]:
            stack[-1][0] += el.text or ""
        else:
            for instruction, in_result, field in stack:
                name = _volatile(instruction) if in_result else None
                if name:
                    found[el] = (name, field)
                    break
    for simple in p.iter(_FLD_SIMPLE):
        name = _volatile(simple.get(W + "instr") or "")
        if name:
            number += 1
            found.update((el, (name, number)) for el in simple.iter())
    return found


def block_key(block: Block) -> str:
    """The comparison key of a block: canonical text, each volatile field's shown result read as
    its name (``Page {PAGE}``): whether the field is there counts, what it last showed does not."""
    p = block.element
    if p is None or not (block.has_field_chars or next(p.iter(_FLD_SIMPLE), None) is not None):
        return canonical(block.normalized)
    volatile = _volatile_elements(p)
    if not volatile:
        return canonical(block.normalized)
    read = paragraph_text(p, FieldState(), NoteNumbers(*block.notes_before), collect=True)
    if read.text != block.text:
        return canonical(block.normalized)
    parts: list[str] = []
    last: tuple[str, int] | None = None
    for piece in read.pieces or ():
        field = volatile.get(piece.element)
        if field is None:
            parts.append(block.text[piece.start : piece.end])
        elif field != last:
            parts.append("{%s}" % field[0])
        last = field
    return canonical(normalize_text("".join(parts)))


def word_count_at_least(text: str, floor: int) -> bool:
    """True when ``text`` holds at least ``floor`` whitespace-separated words (stops early)."""
    return floor <= 0 or any(n >= floor for n, _ in enumerate(_WORD.finditer(text), start=1))


@dataclass(slots=True, eq=False)
class Entry:
    """One block of one story, as the alignment sees it."""

    index: int
    block: Block
    key: str
    in_table: bool
    _words: Counter[str] | None = field(default=None, repr=False)

    @property
    def stable(self) -> bool:
        """True for a paraId-backed id: identity that survives edits (positional ids do not)."""
        return self.block.id_stability == "stable" and self.block.kind != "diagnostic"

    @property
    def words(self) -> Counter[str]:
        """The block's words as a multiset, case and punctuation aside (built once), for similarity."""
        if self._words is None:
            self._words = Counter(_TERM.findall(self.key.lower()))
        return self._words


def entries(blocks: list[Block]) -> list[Entry]:
    """Comparable entries of a story's blocks, in order."""
    return [Entry(i, b, block_key(b), b.table is not None) for i, b in enumerate(blocks)]


def same_place(a: Entry, b: Entry, strict: bool) -> bool:
    """Whether a weak pass (similarity, position) may pair ``a`` and ``b``.

    Never a table block with a body block; table blocks only within the same grid column, and
    (``strict``, for pairing by position alone) at the same paragraph of their cell. Rows shift
    when rows are added or removed, columns rarely do.
    """
    if a.in_table != b.in_table:
        return False
    if not a.in_table:
        return True
    ta, tb = a.block.table or {}, b.block.table or {}
    if ta.get("gridColumnIndex") != tb.get("gridColumnIndex"):
        return False
    return not strict or ta.get("paragraphIndex") == tb.get("paragraphIndex")


def similarity(a: Entry, b: Entry) -> float:
    """Share of words the two blocks have in common (Dice over word multisets, 0..1)."""
    wa, wb = a.words, b.words
    total = sum(wa.values()) + sum(wb.values())
    if total == 0:
        return 1.0
    if len(wa) > len(wb):
        wa, wb = wb, wa
    common = sum(min(n, wb[w]) for w, n in wa.items() if w in wb)
    return 2 * common / total


def kept_share(a: Entry, b: Entry) -> float:
    """Share of the larger block's words the other keeps: the "≥ 80 % kept" test of a move."""
    wa, wb = a.words, b.words
    larger = max(sum(wa.values()), sum(wb.values()))
    if larger == 0:
        return 1.0
    common = sum(min(n, wb[w]) for w, n in wa.items() if w in wb)
    return common / larger


@dataclass(slots=True)
class Event:
    """One step of an alignment: ``pair`` (both set), ``base`` only or ``revised`` only."""

    kind: str
    base: Entry | None = None
    revised: Entry | None = None


@dataclass(slots=True)
class Budget:
    """Cells of quadratic work left, per kind; shared by every story pair of one comparison."""

    align: int = ALIGN_CELLS
    words: int = WORD_DIFF_CELLS
    moves: int = MOVE_CELLS
    exhausted: set[str] = field(default_factory=set)

    def take(self, kind: str, cells: int) -> bool:
        """Spend ``cells`` of ``kind`` if that many are left; False (and remembered) when not."""
        left = getattr(self, kind)
        if cells > left:
            self.exhausted.add(kind)
            return False
        setattr(self, kind, left - cells)
        return True
