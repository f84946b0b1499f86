"""The caret under a person's hands: a click places it, a double click takes a word, a third the paragraph.

:class:`CaretInteraction` is mixed into :class:`~.view.PageView` beside
:class:`~.interaction.PageInteraction` (whose mouse handlers call :meth:`_place_caret`,
:meth:`_third_click` and :meth:`_select_paragraph`). The caret itself is a
:class:`~.caret.Caret`, a block id and a clean-text offset, drawn as a thin steady line; the
paragraph commands (Edit, Insert, Delete Paragraph) ask :meth:`CaretInteraction.target_block`
which paragraph they act on, and :meth:`CaretInteraction.block_on_screen` whether the person can
see it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QApplication

from .caret import Caret, caret_line, clean_length, paragraph_text, word_bounds
from .geometry import character_at, position_at, range_rects, record_span
from .layout import Page
from .records import RenderedBlock

_CARET = QColor(20, 20, 20)
_CARET_PX = 2


class CaretInteraction:
    """The caret, double and triple clicks, and the paragraph a command acts on (see the module docstring)."""

    def _init_caret(self) -> None:
        self._caret: Caret | None = None
        self._double_click: tuple[int, QPointF] | None = None  # (timestamp, point) of the last one

    def _paint_caret(self: Any, painter: QPainter, page: Page) -> None:
        record = self._caret_record()
        line = caret_line(self._layout, page, record, self._caret.offset) if record is not None else None
        if line is None or self._selection is not None:
            return
        pen = QPen(_CARET)
        pen.setCosmetic(True)  # the same thin line at every zoom
        pen.setWidth(_CARET_PX)
        painter.setPen(pen)
        painter.drawLine(line)

    # ------------------------------------------------------------------ caret
    def caret(self: Any) -> Caret | None:
        """Where the person last clicked in the text (block id and clean-text offset), if anywhere."""
        return self._caret

    def set_caret(self: Any, block_id: str, offset: int) -> bool:
        """Put the caret before clean offset ``offset`` of a block (clamped to its text); False when
        the block is not laid out."""
        record = self._layout.by_id.get(block_id) if self._layout is not None else None
        if record is None:
            return False
        self._set_caret(Caret(block_id, max(0, min(offset, clean_length(record)))))
        return True

    def target_block(self: Any) -> str | None:
        """The paragraph a paragraph command acts on: the selection's, else the caret's (None: neither)."""
        selected = self.selection_range()
        if selected is not None:
            return selected[0]
        return self._caret.block_id if self._caret_record() is not None else None

    def block_on_screen(self: Any, block_id: str) -> bool:
        """True when at least one whole line of the block is inside the viewport now."""
        layout = self._layout
        record = layout.by_id.get(block_id) if layout is not None else None
        if record is None:
            return False
        span = record_span(record)
        height = self.viewport().height()
        for number in self.visible_pages():
            page = layout.pages()[number]
            top = self.page_rect(number).top()
            for rect in range_rects(layout, page, span):
                y = top + rect.y() * self._scale
                if y >= 0 and y + rect.height() * self._scale <= height:
                    return True
        return False

    def caret_viewport_line(self: Any) -> QLineF | None:
        """Where the caret is drawn in the viewport now (None: no caret, or not on a visible page)."""
        record = self._caret_record()
        if record is None:
            return None
        for number in self.visible_pages():
            line = caret_line(self._layout, self._pages()[number], record, self._caret.offset)
            if line is not None:
                page = self.page_rect(number)
                return QLineF(
                    page.topLeft() + line.p1() * self._scale, page.topLeft() + line.p2() * self._scale
                )
        return None

    def _caret_record(self: Any) -> RenderedBlock | None:
        if self._caret is None or self._layout is None:
            return None
        return self._layout.by_id.get(self._caret.block_id)

    def _set_caret(self: Any, caret: Caret | None) -> None:
        if caret != self._caret:
            self._caret = caret
            self.viewport().update()
            self.caret_changed.emit()

    # ------------------------------------------------------------------ clicks
    def _place_caret(self: Any, doc_index: int, position: int) -> None:
        record = self._layout.record_at(doc_index, position)
        if record is not None and record.block_id is not None:
            self._set_caret(Caret(record.block_id, record.clean_offset(position)))

    def mouseDoubleClickEvent(self: Any, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        """Select the word under the pointer (a third click soon after selects the paragraph)."""
        if event.button() != Qt.MouseButton.LeftButton:
            super().mouseDoubleClickEvent(event)
            return
        self._double_click = (event.timestamp(), event.position())
        hit = self._page_point(event.position())
        if hit is None:
            return
        page, point = hit
        character = character_at(self._layout, page, point)
        record = self._layout.record_at(page.doc_index, character) if character is not None else None
        if record is None or record.block_id is None:
            return
        offset = record.clean_offset(character)
        found = word_bounds(paragraph_text(self._layout, record), offset)
        if found is not None:
            self._select(record_span(record, *found))
            self._set_caret(Caret(record.block_id, found[1]))

    def _third_click(self: Any, event: QMouseEvent) -> bool:
        """True for a press soon after a double click, at the same place."""
        last, self._double_click = self._double_click, None
        if last is None:
            return False
        at, point = last
        near = (event.position() - point).manhattanLength() <= QApplication.startDragDistance()
        return near and 0 <= event.timestamp() - at <= QApplication.doubleClickInterval()

    def _select_paragraph(self: Any, page: Page, point: QPointF) -> None:
        position = position_at(self._layout, page, point, exact=False)
        record = self._layout.record_at(page.doc_index, position) if position is not None else None
        if record is not None and record.block_id is not None:
            self._select(record_span(record))
            self._set_caret(Caret(record.block_id, clean_length(record)))
