"""Where the caret goes on a key: a character or word left or right, a line or paragraph up or down,
a line's start or end, the document's start or end.

Moves are worked out on the laid-out pages (Qt's text lines), not on the XML, so they follow what
the person sees: Up and Down keep the caret's x as Word does, Home and End go to the ends of the
line on screen, and Left and Right step over deleted text and list labels (they are not clean
text), passing from one paragraph to the next at its ends. Ctrl+Left and Ctrl+Right go to the
start of a word as in Word (a run of punctuation is a word, the paragraph mark one too, so the
caret stops at a paragraph's end before it passes into the next), Ctrl+Up and Ctrl+Down to the
start of a paragraph. Every answer is a :class:`~.caret.Caret` (block id and clean offset), or
None when there is nowhere to go.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtGui import QTextBlock, QTextLine

from .caret import Caret, clean_length, paragraph_text, text_line

if TYPE_CHECKING:  # pragma: no cover
    from .layout import PagedLayout
    from .records import RenderedBlock

#: what Ctrl+Left and Ctrl+Right step over: a word (inner apostrophes and hyphens kept, as a double
#: click takes it) or a run of punctuation; the spaces after either go with it
_TOKEN = re.compile(r"\w+(?:['’\-]\w+)*|[^\w\s]+")


def _neighbour(layout: PagedLayout, record: RenderedBlock, step: int) -> RenderedBlock | None:
    """The laid-out paragraph before (``step`` -1) or after (+1) ``record`` that has a block id."""
    doc_index = record.doc_index
    records = layout.docs[doc_index].records
    i = records.index(record) + step
    while True:
        while 0 <= i < len(records):
            if records[i].block_id is not None:
                return records[i]
            i += step
        doc_index += step
        if not 0 <= doc_index < len(layout.docs):
            return None
        records = layout.docs[doc_index].records
        i = 0 if step > 0 else len(records) - 1


def horizontal(layout: PagedLayout, caret: Caret, step: int) -> Caret | None:
    """One character left (``step`` -1) or right (+1), into the neighbouring paragraph at an end."""
    record = layout.by_id.get(caret.block_id)
    if record is None:
        return None
    offset = caret.offset + step
    if 0 <= offset <= clean_length(record):
        return Caret(caret.block_id, offset)
    other = _neighbour(layout, record, step)
    if other is None or other.block_id is None:
        return None
    return Caret(other.block_id, clean_length(other) if step < 0 else 0)


def _located(layout: PagedLayout, caret: Caret) -> tuple[RenderedBlock, QTextBlock, QTextLine, int] | None:
    """The caret's paragraph, and its Qt text block, line and position in the block."""
    record = layout.by_id.get(caret.block_id)
    found = text_line(layout, record, caret.offset) if record is not None else None
    return None if record is None or found is None else (record, *found)


def _at(layout: PagedLayout, doc_index: int, position: int) -> Caret | None:
    record = layout.record_at(doc_index, position)
    if record is None or record.block_id is None:
        return None
    return Caret(record.block_id, min(record.clean_offset(position), clean_length(record)))


def vertical(layout: PagedLayout, caret: Caret, step: int) -> Caret | None:
    """One line up (``step`` -1) or down (+1) at the same x, into the next paragraph past its end."""
    found = _located(layout, caret)
    if found is None:
        return None
    record, text_block, line, in_block = found
    x = line.cursorToX(in_block)[0]
    number = line.lineNumber() + step
    while True:
        text_layout = text_block.layout()
        if text_layout is not None and 0 <= number < text_layout.lineCount():
            target = text_layout.lineAt(number)
            moved = _at(layout, record.doc_index, text_block.position() + target.xToCursor(x))
            if moved is not None:
                return moved
        text_block = text_block.previous() if step < 0 else text_block.next()
        if not text_block.isValid():
            other = _neighbour(layout, record, step)
            return None if other is None else Caret(other.block_id, 0 if step > 0 else clean_length(other))
        count = text_block.layout().lineCount() if text_block.layout() is not None else 0
        number = count - 1 if step < 0 else 0


def line_bound(text_block: QTextBlock, line: QTextLine, end: bool) -> int:
    """The document position of the start (Home) or end (End) of ``line`` of ``text_block``."""
    position = text_block.position() + line.textStart()
    if end:
        last = line.lineNumber() == text_block.layout().lineCount() - 1
        # a wrapped line ends before the space that wraps it, so the caret stays on this line
        position += line.textLength() - (0 if last else 1)
    return position


def line_end(layout: PagedLayout, caret: Caret, end: bool) -> Caret | None:
    """The start (Home) or end (End) of the caret's line on screen."""
    found = _located(layout, caret)
    if found is None:
        return None
    record, text_block, line, _in_block = found
    return _at(layout, record.doc_index, line_bound(text_block, line, end))


def word_start(text: str, offset: int, step: int) -> int:
    """The clean offset Ctrl+Right (``step`` +1) or Ctrl+Left (-1) goes to inside ``text``: the start
    of the next word (the text's end after its last), or of the word holding or before the caret."""
    starts = [match.start() for match in _TOKEN.finditer(text)]
    if step > 0:
        return next((start for start in starts if start > offset), len(text))
    return next((start for start in reversed(starts) if start < offset), 0)


def word(layout: PagedLayout, caret: Caret, step: int) -> Caret | None:
    """One word left (``step`` -1) or right (+1); at a paragraph's end into the neighbouring one."""
    record = layout.by_id.get(caret.block_id)
    if record is None:
        return None
    offset = min(caret.offset, clean_length(record))
    moved = word_start(paragraph_text(layout, record), offset, step)
    if moved != offset:
        return Caret(caret.block_id, moved)
    return horizontal(layout, Caret(caret.block_id, offset), step)


def paragraph(layout: PagedLayout, caret: Caret, step: int) -> Caret | None:
    """Ctrl+Down: the start of the next paragraph (the end of the last); Ctrl+Up: the start of this
    paragraph, or of the one before when the caret is at its start already."""
    record = layout.by_id.get(caret.block_id)
    if record is None:
        return None
    if step < 0 and caret.offset > 0:
        return Caret(caret.block_id, 0)
    other = _neighbour(layout, record, step)
    if other is not None and other.block_id is not None:
        return Caret(other.block_id, 0)
    return Caret(caret.block_id, clean_length(record) if step > 0 else 0)


def document_end(layout: PagedLayout, end: bool) -> Caret | None:
    """Ctrl+Home: before the first character of the document; Ctrl+End: after the last (of what is
    laid out: the caller lays the rest out first)."""
    for section_doc in reversed(layout.docs) if end else layout.docs:
        for record in reversed(section_doc.records) if end else section_doc.records:
            if record.block_id is not None:
                return Caret(record.block_id, clean_length(record) if end else 0)
    return None
