"""What the builder leaves behind: rendered paragraphs, the flow between them, the build context.

Kept apart from :mod:`.builder` so the layout, page index and painter can use the records
without the writing code.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from lxml import etree
from PySide6.QtGui import QTextTable

from ...docx.blocks import Block
from ...docx.format_props import Border, ParaProps
from ...docx.format_resolver import FormatResolver
from ...docx.package import Package
from ...docx.vocabulary import BLOCK_WRAPPERS
from ...docx.xmlutil import MC, W
from .qformats import FormatFactory

MODES = ("all", "none", "original")
_P, _TBL, _ALT_CHUNK = W + "p", W + "tbl", W + "altChunk"


@dataclass(slots=True, eq=False)
class RenderedBlock:
    """One Word paragraph as laid out: its document, position range and clean-text spans.

    ``spans`` are ``(offset, length, clean)``: the characters at ``start + offset`` are clean
    text, read one for one (``clean`` None) or standing for ``clean`` as a whole (a note marker).
    ``comments`` are ``(comment id, offset)`` anchors; ``moves`` ``(from, to, kind)`` offset
    ranges the painter doubles; ``revisions`` ``(from, to, change id)`` and ``commented``
    ``(from, to, comment ids)`` say what a click on the text selects. Offsets are relative to
    :attr:`start` so that shifting a block after an earlier edit is cheap; the ``abs_*``
    methods give document positions.
    """

    block_id: str | None
    doc_index: int
    start: int
    end: int
    element: etree._Element | None = None
    spans: list[tuple[int, int, str | None]] = field(default_factory=list)
    changed: bool = False
    change_author: str | None = None
    format_change: bool = False
    comments: list[tuple[str, int]] = field(default_factory=list)
    moves: list[tuple[int, int, str]] = field(default_factory=list)
    revisions: list[tuple[int, int, str]] = field(default_factory=list)
    commented: list[tuple[int, int, frozenset[str]]] = field(default_factory=list)
    borders: tuple[tuple[str, Border], ...] = ()
    #: tab leader kind (``dot``, ``hyphen``, ``underscore``, ``middleDot``) when a stop has one
    leader: str | None = None
    #: a body paragraph (not in a table) asking to stay on the page of the next one / to
    #: keep a lone first line off the foot of a page / to keep all its lines on one page
    #: (Word's keepNext, widowControl, keepLines)
    keep_next: bool = False
    orphan_control: bool = False
    keep_lines: bool = False
    #: a paragraph in a table cell says keep with next (resolved like ``keep_next``): a table
    #: whose rows but the last all say so is kept together (see :mod:`.keeps`)
    cell_keep_next: bool = False
    #: a keep rule gave the paragraph a page break before it (taken back when lines before move)
    kept: bool = False
    #: footnote references laid out in the paragraph: ``(offset, footnote id, number shown)``
    notes: list[tuple[int, str, str]] = field(default_factory=list)

    def open_gap(self, offset: int, delta: int) -> None:
        """``delta`` characters were inserted (or, negative, removed) at ``offset`` inside the block.

        The page view splits a paragraph at a line boundary with a block separator to move
        its remaining lines to the next page (room for footnotes); what follows the gap
        shifts, and a text span the gap falls inside is cut in two around it.
        """
        spans: list[tuple[int, int, str | None]] = []
        for at, length, clean in self.spans:
            if at >= offset:
                spans.append((at + delta, length, clean))
            elif at + length > offset and delta > 0:
                spans.append((at, offset - at, clean))
                spans.append((offset + delta, at + length - offset, clean))
            else:
                spans.append((at, length, clean))
        if delta < 0:  # removing a gap again: join the two halves of a span cut by it
            joined: list[tuple[int, int, str | None]] = []
            for at, length, clean in spans:
                if joined and clean is None and joined[-1][2] is None and joined[-1][0] + joined[-1][1] == at:
                    joined[-1] = (joined[-1][0], joined[-1][1] + length, None)
                else:
                    joined.append((at, length, clean))
            spans = joined
        self.spans = spans

        def moved(value: int) -> int:
            return value + delta if value >= offset else value

        self.end += delta
        self.comments = [(cid, moved(at)) for cid, at in self.comments]
        self.moves = [(moved(a), moved(b), kind) for a, b, kind in self.moves]
        self.revisions = [(moved(a), moved(b), cid) for a, b, cid in self.revisions]
        self.commented = [(moved(a), moved(b), ids) for a, b, ids in self.commented]
        self.notes = [(moved(at), nid, label) for at, nid, label in self.notes]

    def abs_spans(self) -> list[tuple[int, int, str | None]]:
        """:attr:`spans` with document positions."""
        start = self.start
        return [(start + offset, length, clean) for offset, length, clean in self.spans]

    def abs_comments(self) -> list[tuple[str, int]]:
        """:attr:`comments` with document positions."""
        return [(comment_id, self.start + offset) for comment_id, offset in self.comments]

    def abs_moves(self) -> list[tuple[int, int, str]]:
        """:attr:`moves` with document positions."""
        return [(self.start + a, self.start + b, kind) for a, b, kind in self.moves]

    def position_of(self, offset: int) -> int:
        """Document position of clean-text ``offset`` (past the end: the last character's)."""
        seen = 0
        last = self.start
        for position, length, clean in self.abs_spans():
            size = length if clean is None else len(clean)
            if offset < seen + size:
                return position + (offset - seen if clean is None else 0)
            seen += size
            last = position + max(0, length - 1)
        return last

    def range_positions(self, start: int, end: int) -> tuple[int, int]:
        """Document positions ``[a, b)`` of clean-text offsets ``[start, end)``."""
        a = self.position_of(start)
        return a, (self.position_of(end - 1) + 1 if end > start else a)

    def clean_offset(self, position: int) -> int:
        """Clean-text offset of document ``position`` (a label or deletion maps to what follows it)."""
        seen = 0
        for span_position, length, clean in self.abs_spans():
            if position < span_position:
                return seen
            size = length if clean is None else len(clean)
            if position < span_position + length:
                return seen + (position - span_position if clean is None else 0)
            seen += size
        return seen

    def change_at(self, position: int) -> str | None:
        """The id of the tracked change shown at document ``position`` (None outside changes)."""
        offset = position - self.start
        return next((cid for a, b, cid in self.revisions if a <= offset < b), None)

    def comments_at(self, position: int) -> frozenset[str]:
        """Ids of the comments whose highlighted range holds document ``position``."""
        offset = position - self.start
        found: frozenset[str] = frozenset()
        for a, b, ids in self.commented:
            if a <= offset < b:
                found |= ids
        return found


class ParagraphFacts(NamedTuple):
    """What writing a ``w:p`` reads first (see ``StoryBuilder.paragraph_props``)."""

    #: the snapshot's block of the paragraph (None when it has none, e.g. in a header)
    block: Block | None
    ppr: etree._Element | None
    style_id: str | None
    #: the list (numId, level) the paragraph is numbered in
    numbering: tuple[str, int] | None
    #: the effective properties, list level counted
    props: ParaProps


@dataclass(slots=True)
class Flow:
    """What one paragraph needs to know about the one before it in the same container."""

    fresh: bool = True
    prev_style: str | None = None
    page_break: bool = False
    #: space after the previous paragraph (twips): Qt ignores a block's margin next to a table,
    #: so a table takes the paragraph's spacing as its own margin
    prev_after: int = 0
    last_table: QTextTable | None = None
    #: the container is shaded dark: text in the automatic colour is drawn white, as in Word
    dark: bool = False


@dataclass(frozen=True, slots=True)
class MarkupFilter:
    """What All Markup leaves out, as Word's Show Markup does.

    A hidden reviewer's changes read as accepted, without colour or change bar, and their
    comments are neither highlighted nor ballooned (Show Markup ▸ by reviewer). ``simple``
    (Simple Markup) shows every change as accepted with a bar beside its paragraph.
    """

    hidden_authors: frozenset[str] = frozenset()
    simple: bool = False

    def hides(self, author: str | None) -> bool:
        """True when changes by ``author`` read as accepted."""
        return self.simple or (author or "") in self.hidden_authors


@dataclass(slots=True)
class BuildContext:
    """Everything a story builder reads from (one per layout, shared by body and headers)."""

    resolver: FormatResolver
    factory: FormatFactory
    package: Package
    part_name: str
    mode: str
    blocks: dict[etree._Element, Block]
    content_width: float
    diagnostics: list[Block] = field(default_factory=list)
    page_fields: dict[str, str] | None = None
    markup: MarkupFilter = field(default_factory=MarkupFilter)
    #: ids of the comments whose author the markup filter hides
    hidden_comments: frozenset[str] = frozenset()

    def revision_mode(self, revision: etree._Element | None) -> str:
        """The mode one change shows in: ``none`` (as accepted) for a change the markup filter
        hides in All Markup, else the layout's mode."""
        if self.mode == "all" and revision is not None and self.markup.hides(revision.get(W + "author")):
            return "none"
        return self.mode

    def marks_comments(self, comment_ids: frozenset[str]) -> bool:
        """True when text under these comments is highlighted (All Markup, a shown author's comment)."""
        return self.mode == "all" and bool(comment_ids - self.hidden_comments)


def story_items(parent: etree._Element) -> Iterator[etree._Element]:
    """Paragraphs, tables and altChunks of a container, through sdt/customXml/revision wrappers."""
    for child in parent:
        tag = child.tag
        if tag in (_P, _TBL, _ALT_CHUNK):
            yield child
        elif tag == W + "sdt":
            content = child.find(W + "sdtContent")
            if content is not None:
                yield from story_items(content)
        elif tag in BLOCK_WRAPPERS:
            yield from story_items(child)
        elif tag == MC + "AlternateContent":
            chosen = child.find(MC + "Choice")
            if chosen is None:
                chosen = child.find(MC + "Fallback")
            if chosen is not None:
                yield from story_items(chosen)
