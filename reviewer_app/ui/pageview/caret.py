"""The caret: where the person last clicked, as a paragraph and a character offset in its clean text.

Kept as a block id and a clean-text offset (the agent's coordinates, like every range the view
reports) rather than a document position, so it survives a re-layout and an edit elsewhere, and
any other code (the live bridge, the paragraph commands, typing later) can read it without
knowing the layout. This module also answers where the caret is drawn on a page and which word
or paragraph a double or triple click takes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF
from PySide6.QtGui import QTextBlock, QTextDocument, QTextLine

from .geometry import clean_text, record_span

if TYPE_CHECKING:  # pragma: no cover
    from .layout import Page, PagedLayout
    from .records import RenderedBlock

#: a word for double-click: letters and digits, joined by inner apostrophes or hyphens
#: ("party's", "sub-processor")
_WORD = re.compile(r"\w+(?:['’\-]\w+)*")


@dataclass(frozen=True, slots=True)
class Caret:
    """A place between two characters of a paragraph's clean text (``offset`` 0 = before the first)."""

    block_id: str
    offset: int


def clean_length(record: RenderedBlock) -> int:
    """How many clean-text characters the paragraph holds (labels and deletions left out)."""
    return sum(length if clean is None else len(clean) for _o, length, clean in record.spans)


def caret_position(record: RenderedBlock, offset: int) -> int:
    """The document position of the gap before clean offset ``offset`` (past the end: after the last)."""
    length = clean_length(record)
    if length == 0:
        return record.start + (record.spans[0][0] if record.spans else 0)
    if offset >= length:
        return record.position_of(length - 1) + 1
    return record.position_of(max(0, offset))


def text_line(
    layout: PagedLayout, record: RenderedBlock, offset: int
) -> tuple[QTextBlock, QTextLine, int] | None:
    """(the Qt text block, its line holding the gap before clean ``offset``, the gap's position in
    the block); None when the paragraph has no laid-out line."""
    return document_line(layout.docs[record.doc_index].document, record, offset)


def document_line(
    document: QTextDocument, record: RenderedBlock, offset: int
) -> tuple[QTextBlock, QTextLine, int] | None:
    """:func:`text_line` in the document ``record`` belongs to (a section's, or a note's)."""
    position = caret_position(record, offset)
    block = document.findBlock(position)
    text_layout = block.layout()
    if not block.isValid() or text_layout is None or not text_layout.lineCount():
        return None
    line = text_layout.lineForTextPosition(position - block.position())
    if not line.isValid():
        line = text_layout.lineAt(text_layout.lineCount() - 1)
    return block, line, position - block.position()


def caret_line(layout: PagedLayout, page: Page, record: RenderedBlock, offset: int) -> QLineF | None:
    """The caret's vertical line on ``page`` in page LU (None when its line is on another page)."""
    found = text_line(layout, record, offset) if record.doc_index == page.doc_index else None
    if found is None:
        return None
    block, line, in_block = found
    document = layout.docs[page.doc_index].document
    origin = document.documentLayout().blockBoundingRect(block)
    top = origin.y() + line.y() - page.top
    if not 0 <= top + line.height() / 2 < page.height:
        return None
    x = origin.x() + line.cursorToX(in_block)[0]
    return QLineF(QPointF(x, top), QPointF(x, top + line.height()))


def paragraph_text(layout: PagedLayout, record: RenderedBlock) -> str:
    """The paragraph's clean text, as the agent reads it."""
    return clean_text(layout, record_span(record)) if clean_length(record) else ""


def word_bounds(text: str, offset: int) -> tuple[int, int] | None:
    """Clean offsets ``[start, end)`` of the word holding the character at ``offset`` (None off a word)."""
    for match in _WORD.finditer(text):
        if match.start() <= offset < match.end():
            return match.start(), match.end()
        if match.start() > offset:
            break
    return None
