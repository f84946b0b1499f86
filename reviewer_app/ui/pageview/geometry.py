"""Where things are on a page: points to document positions, ranges to line rectangles, text back.

The view needs these to turn a click into "this tracked change", a drag into a selection the
agent can read, and a find hit or a ``show_in_document`` target into a highlight on the right
lines. Everything is in layout units (LU) with a page's top-left corner at the origin, as the
painter draws; positions are character positions in one section document (``doc_index``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt

from .page_index import clean_slice

if TYPE_CHECKING:  # pragma: no cover
    from .layout import Page, PagedLayout
    from .records import RenderedBlock

#: A stretch of one section document: (document index, from position, to position).
DocRange = tuple[int, int, int]


def position_at(layout: PagedLayout, page: Page, point: QPointF, exact: bool) -> int | None:
    """The document position under ``point`` (page LU); ``exact`` only when on a character."""
    if not (0 <= point.x() <= page.width and 0 <= point.y() <= page.height):
        return None
    accuracy = Qt.HitTestAccuracy.ExactHit if exact else Qt.HitTestAccuracy.FuzzyHit
    document = layout.docs[page.doc_index].document
    position = document.documentLayout().hitTest(QPointF(point.x(), page.top + point.y()), accuracy)
    return position if position >= 0 else None


def character_at(layout: PagedLayout, page: Page, point: QPointF) -> int | None:
    """The position of the character drawn under ``point`` (not the caret gap nearest to it)."""
    position = position_at(layout, page, point, exact=True)
    if position is None:
        return None
    document = layout.docs[page.doc_index].document
    block = document.findBlock(position)
    text_layout = block.layout()
    if not block.isValid() or text_layout is None:
        return position
    offset = position - block.position()
    line = text_layout.lineForTextPosition(offset)
    if not line.isValid():
        return position
    rect = document.documentLayout().blockBoundingRect(block)
    caret_x = rect.x() + line.cursorToX(offset)[0]
    # hitTest answers the caret gap nearest the point: the character is the one to its left
    # when the point lies left of that gap
    if point.x() < caret_x and offset > line.textStart():
        return position - 1
    return position


def range_rects(layout: PagedLayout, page: Page, span: DocRange) -> list[QRectF]:
    """Rectangles (page LU) covering the lines of ``span`` that lie on ``page``."""
    doc_index, a, b = span
    if doc_index != page.doc_index or b <= a:
        return []
    document = layout.docs[doc_index].document
    doc_layout = document.documentLayout()
    top, bottom = page.top, page.top + page.height
    rects: list[QRectF] = []
    block = document.findBlock(a)
    while block.isValid() and block.position() < b:
        text_layout = block.layout()
        if text_layout is not None:
            origin = doc_layout.blockBoundingRect(block)
            position = block.position()
            for i in range(text_layout.lineCount()):
                line = text_layout.lineAt(i)
                lo = max(a, position + line.textStart())
                hi = min(b, position + line.textStart() + line.textLength())
                y = origin.y() + line.y()
                if lo >= hi or not top <= y + line.height() / 2 < bottom:
                    continue
                x0 = origin.x() + line.cursorToX(lo - position)[0]
                x1 = origin.x() + line.cursorToX(hi - position)[0]
                rects.append(QRectF(min(x0, x1), y - top, max(abs(x1 - x0), 20.0), line.height()))
        block = block.next()
    return rects


def records_between(layout: PagedLayout, span: DocRange) -> Iterator[RenderedBlock]:
    """The rendered paragraphs overlapping ``span``, in order."""
    doc_index, a, b = span
    section_doc = layout.docs[doc_index]
    for record in section_doc.records:
        if record.end < a:
            continue
        if record.start > b:
            break
        yield record


def clean_text(layout: PagedLayout, span: DocRange) -> str:
    """The agent's clean text of ``span``: paragraphs joined by ``\\n``, labels and deletions left out."""
    doc_index, a, b = span
    document = layout.docs[doc_index].document
    pieces: list[str] = []
    for record in records_between(layout, span):
        lo, hi = max(a, record.start), min(b, record.end)
        if lo > hi or (lo == hi and pieces):
            continue
        parts: list[str] = []
        block = document.findBlock(lo)
        while block.isValid() and block.position() < hi:
            parts.append(clean_slice(record, block.text(), block.position(), lo, hi))
            block = block.next()
        pieces.append("".join(parts))
    return "\n".join(pieces)


def record_span(record: RenderedBlock, start: int = 0, end: int | None = None) -> DocRange:
    """The document range of clean offsets ``[start, end)`` of a block (its whole text by default)."""
    if end is None:
        end = sum(length if clean is None else len(clean) for _o, length, clean in record.spans)
    a, b = record.range_positions(start, end)
    if b <= a:  # an empty paragraph: highlight its line all the same
        a, b = record.start, max(record.end, record.start + 1)
    return record.doc_index, a, b


def change_spans(layout: PagedLayout, change_id: str) -> list[DocRange]:
    """Every stretch of text showing tracked change ``change_id`` (a change may span paragraphs)."""
    found: list[DocRange] = []
    for section_doc in layout.docs:
        for record in section_doc.records:
            found.extend(
                (record.doc_index, record.start + a, record.start + b)
                for a, b, cid in record.revisions
                if cid == change_id
            )
    return found


def comment_spans(layout: PagedLayout, comment_id: str) -> list[DocRange]:
    """The highlighted text of comment ``comment_id``; its anchor's character when it marks no text."""
    found: list[DocRange] = []
    anchor: DocRange | None = None
    for section_doc in layout.docs:
        for record in section_doc.records:
            found.extend(
                (record.doc_index, record.start + a, record.start + b)
                for a, b, ids in record.commented
                if comment_id in ids
            )
            for cid, offset in record.comments:
                if cid == comment_id and anchor is None:
                    position = max(record.start + offset, record.start + 1)
                    anchor = (record.doc_index, position - 1, position)
    return found or ([anchor] if anchor is not None else [])
