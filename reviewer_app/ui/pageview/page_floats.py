"""The floating drawings one page shows: the body's anchored at its paragraphs, the header's and
footer's, each placed by :func:`.floating.place` and drawn behind or in front of the text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainter, QTextDocument

from .floating import Floating, paint_floating, place
from .headers import footer_top, story_document
from .qformats import TWIPS

if TYPE_CHECKING:  # pragma: no cover
    from .headers import HeaderFooters
    from .layout import Page, PagedLayout


def page_floats(
    layout: PagedLayout, headers: HeaderFooters, page: Page
) -> list[tuple[QRectF, Floating, QTextDocument]]:
    """(box on the page in LU, the object, the document whose resources hold its picture)."""
    section, _ = layout.section_of_page(page)
    props = layout.sections[section]
    found: list[tuple[QRectF, Floating, QTextDocument]] = []
    section_doc = layout.docs[page.doc_index]
    document = section_doc.document
    for position, item in section_doc.floats:
        y = _anchor_y(document, position)
        if y is None or int(y // page.height) != page.index_in_doc:
            continue
        found.append((place(item, props, y - page.top), item, document))
    left = (props.left + props.gutter) * TWIPS
    for kind in ("header", "footer"):
        story = headers.document(page, kind)
        if story is None or not getattr(story, "floats", None):
            continue
        if kind == "header":
            origin = QPointF(left, props.header * TWIPS)
        else:
            origin = QPointF(left, footer_top(page.height, props.footer, story))
        for position, item in story.floats:
            y = _anchor_y(story, position)
            found.append((place(item, props, origin.y() + (y or 0.0)), item, story))
    return found


def paint_page_floats(
    painter: QPainter, layout: PagedLayout, floats: list[tuple[QRectF, Floating, QTextDocument]], behind: bool
) -> None:
    """Draw the objects of ``floats`` that sit behind the text (``behind``) or in front of it."""

    def text_document(item: Floating, width: float) -> QTextDocument:
        assert item.text is not None
        return story_document(layout.context, item.part, item.text, {}, width)

    for rect, item, resources in floats:
        if item.behind == behind:
            paint_floating(painter, item, rect, resources, text_document)


def _anchor_y(document: QTextDocument, position: int) -> float | None:
    """Document y of the line holding ``position`` (the anchor's paragraph line)."""
    block = document.findBlock(position)
    text_layout = block.layout() if block.isValid() else None
    if text_layout is None or not text_layout.lineCount():
        return None
    line = text_layout.lineForTextPosition(position - block.position())
    if not line.isValid():
        line = text_layout.lineAt(0)
    return document.documentLayout().blockBoundingRect(block).y() + line.y()
