"""What a person does with the pages: click a change or comment, drag a selection, use the keys.

:class:`PageInteraction` is mixed into :class:`~.view.PageView` (kept apart so the view module
stays about geometry and painting). It keeps three kinds of highlight, each a list of document
ranges recomputed from its *target* whenever the layout changes, so a highlight survives an
edit elsewhere in the document:

* the *focus*: a selected tracked change or comment, a block or range the agent showed;
* the *find hits*: every hit of the find bar (lightly, on the pages in view), the current one strongly;
* the person's own text *selection* (dropped when the document changes under it).

A click also puts the caret where it lands, and double and triple clicks select a word and a
paragraph (the caret's part lives in :mod:`.caret_view`). Clicking text inside a tracked change
also selects that change (``change_clicked``); clicking commented text or a comment balloon
selects the comment (``comment_clicked``). The redline and comments panels call
:meth:`select_change` / :meth:`select_comment` to do the same from a list.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPen

from .caret import Caret
from .geometry import (
    DocRange,
    change_spans,
    character_at,
    clean_text,
    comment_spans,
    position_at,
    range_rects,
    record_span,
)
from .layout import Page

_FOCUS_FILL = QColor(255, 200, 0, 90)
_FOCUS_EDGE = QColor(214, 140, 0)
_FIND_FILL = QColor(255, 120, 0, 150)
_FIND_EDGE = QColor(204, 85, 0)
_OTHER_HITS_FILL = QColor(255, 170, 60, 60)
_SELECTION_FILL = QColor(51, 103, 214, 80)
#: where a shown target lands: this fraction of the viewport down from its top
_SHOW_AT = 1 / 3


class PageInteraction:
    """Selection, highlights, clicks and keys of the page view (see the module docstring)."""

    def _init_interaction(self) -> None:
        self._focus_target: tuple[str, ...] | None = None
        self._focus: list[DocRange] = []
        self._find_targets: list[tuple[str, int, int]] = []
        self._find_current = -1
        self._find: list[DocRange] = []  # the current hit
        self._find_all: list[tuple[int, int, DocRange]] = []  # (first page, last page, span) of every hit
        self._selection: DocRange | None = None
        self._press: tuple[int, int] | None = None  # (document index, position) where a drag began

    def _forget_targets(self: Any) -> None:
        """A new document (or none): no highlight, hit or caret refers to it."""
        self._focus_target = None
        self._find_targets, self._find_current = [], -1
        self._set_caret(None)

    # ------------------------------------------------------------------ highlights
    def select_change(self: Any, change_id: str) -> bool:
        """Highlight tracked change ``change_id`` and scroll to it; False when it is not shown."""
        return self._focus_on(("change", change_id))

    def select_comment(self: Any, comment_id: str) -> bool:
        """Highlight comment ``comment_id`` (its text and balloon) and scroll to it."""
        return self._focus_on(("comment", comment_id))

    def show_block(self: Any, block_id: str) -> bool:
        """Highlight a whole block and scroll to it (``show_in_document`` with a block id)."""
        return self._focus_on(("block", block_id))

    def block_viewport_rect(self: Any, block_id: str) -> QRect | None:
        """Where the block's first page of lines sits in the viewport now (None when not laid out).

        The in-place paragraph editor opens over this rectangle; call :meth:`show_block` first so
        the block is on screen.
        """
        layout = self._layout
        record = layout.by_id.get(block_id) if layout is not None else None
        if record is None:
            return None
        span = record_span(record)
        doc_index, a, _b = span
        number = layout.first_page_of_doc(doc_index) + layout.page_of_position(doc_index, a)
        if not 0 <= number < len(self._tops):
            return None
        page = self._pages()[number]
        rects = range_rects(layout, page, span)
        if not rects:
            return None
        box = rects[0]
        for rect in rects[1:]:
            box = box.united(rect)
        left = self._page_x(page) + box.x() * self._scale
        top = self._tops[number] - self.verticalScrollBar().value() + box.y() * self._scale
        return QRectF(left, top, box.width() * self._scale, box.height() * self._scale).toAlignedRect()

    def show_range(self: Any, block_id: str, start: int, end: int) -> bool:
        """Highlight clean-text offsets ``[start, end)`` of a block and scroll to them."""
        return self._focus_on(("range", block_id, str(start), str(end)))

    def show_find_hits(self: Any, hits: list[tuple[str, int, int]], current: int) -> bool:
        """Mark the find bar's hits (block id, clean start, end): every one lightly, ``hits[current]``
        strongly, and scroll to the current one."""
        if hits and hits == self._find_targets:  # a step to the next hit: only the strong one moves
            self._find_current = current
            block_id, start, end = hits[current]
            self._find = self._spans_of(("range", block_id, str(start), str(end)))
        else:
            self._find_targets, self._find_current = list(hits), current
            self._locate_find_hits()
        self.viewport().update()
        return bool(self._find) and self._scroll_to_span(self._find[0])

    def clear_find_hit(self: Any) -> None:
        self._find_targets, self._find_current = [], -1
        self._find, self._find_all = [], []
        self.viewport().update()

    def find_hit_spans(self: Any) -> tuple[list[DocRange], list[DocRange]]:
        """(every hit's document ranges, the current hit's) as painted now."""
        return [span for _a, _b, span in self._find_all], list(self._find)

    def _locate_find_hits(self: Any) -> None:
        """Turn the hits into document ranges and note their pages (a paint only looks at its page's)."""
        layout = self._layout
        self._find, self._find_all = [], []
        for i, (block_id, start, end) in enumerate(self._find_targets):
            spans = self._spans_of(("range", block_id, str(start), str(end)))
            if i == self._find_current:
                self._find = spans
            for span in spans:
                doc_index, a, b = span
                first = layout.first_page_of_doc(doc_index)
                pages = (layout.page_of_position(doc_index, a), layout.page_of_position(doc_index, b - 1))
                self._find_all.append((first + pages[0], first + pages[1], span))

    def clear_highlights(self: Any) -> None:
        """Drop the focus highlight and the selection (Esc)."""
        self._focus_target, self._focus = None, []
        self._options.selected_comment = None
        self.clear_selection()

    def _focus_on(self: Any, target: tuple[str, ...], scroll: bool = True) -> bool:
        """Highlight ``target``; ``scroll`` brings it into view (a click on it leaves the page still)."""
        spans = self._spans_of(target)
        if not spans and self._layout is not None and not self._layout.done:
            self.finish_layout()  # the target may lie beyond what is laid out yet
            spans = self._spans_of(target)
        self._focus_target, self._focus = (target, spans) if spans else (None, [])
        self._options.selected_comment = self._root_comment(target)
        self.viewport().update()
        return bool(spans) and (not scroll or self._scroll_to_span(spans[0]))

    def _root_comment(self: Any, target: tuple[str, ...]) -> str | None:
        if target[0] != "comment" or self._layout is None:
            return None
        thread = self._layout.thread(target[1])
        return thread[0].id if thread else None

    def _spans_of(self: Any, target: tuple[str, ...]) -> list[DocRange]:
        layout = self._layout
        if layout is None:
            return []
        kind = target[0]
        if kind == "change":
            return change_spans(layout, target[1])
        if kind == "comment":
            return comment_spans(layout, target[1])
        record = layout.by_id.get(target[1])
        if record is None:
            return []
        if kind == "block":
            return [record_span(record)]
        return [record_span(record, int(target[2]), int(target[3]))]

    def _refresh_highlights(self: Any) -> None:
        """Recompute the highlights after the layout changed (positions moved)."""
        self._selection = self._press = None
        self._focus = self._spans_of(self._focus_target) if self._focus_target else []
        self._locate_find_hits()

    def _scroll_to_span(self: Any, span: DocRange) -> bool:
        layout = self._layout
        doc_index, a, _b = span
        number = layout.first_page_of_doc(doc_index) + layout.page_of_position(doc_index, a)
        if not 0 <= number < len(self._tops):
            return False
        rects = range_rects(layout, self._pages()[number], span)
        offset = rects[0].y() if rects else 0.0
        self.verticalScrollBar().setValue(
            round(self._tops[number] + offset * self._scale - self.viewport().height() * _SHOW_AT)
        )
        self.viewport().update()
        return True

    def _paint_highlights(self: Any, painter: QPainter, page: Page) -> None:
        """Draw the highlights and the caret that fall on ``page`` (the painter is in page LU)."""
        layout = self._layout
        painter.setPen(Qt.PenStyle.NoPen)
        others = [span for first, last, span in self._find_all if first <= page.number <= last]
        for spans, fill in ((others, _OTHER_HITS_FILL), (self._find, _FIND_FILL), (self._focus, _FOCUS_FILL)):
            for span in spans:
                for rect in range_rects(layout, page, span):
                    painter.fillRect(rect, fill)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for spans, edge in ((self._find, _FIND_EDGE), (self._focus, _FOCUS_EDGE)):
            pen = QPen(edge)
            pen.setWidthF(8)
            painter.setPen(pen)
            for span in spans:
                for rect in range_rects(layout, page, span):
                    painter.drawRect(rect)
        if self._selection is not None:
            painter.setPen(Qt.PenStyle.NoPen)
            for rect in range_rects(layout, page, self._selection):
                painter.fillRect(rect, _SELECTION_FILL)
        self._paint_caret(painter, page)

    # ------------------------------------------------------------------ selection
    def selection_range(self: Any) -> tuple[str, int, int] | None:
        """(block id, start, end) in clean-text offsets of the selection's first block, or None.

        A selection over several paragraphs is cut at the end of the first: a comment or a
        range handle names one block.
        """
        if self._selection is None or self._layout is None:
            return None
        doc_index, a, b = self._selection
        record = self._layout.record_at(doc_index, a)
        if record is None or record.block_id is None:
            return None
        start, end = record.clean_offset(a), record.clean_offset(min(b, record.end))
        return (record.block_id, start, end) if end > start else None

    def selection_ends(self: Any) -> tuple[Caret, Caret] | None:
        """Where the selection starts and ends (block id and clean offset each), also in different
        paragraphs; None without a selection or when an end is not in a paragraph."""
        if self._selection is None or self._layout is None:
            return None
        doc_index, a, b = self._selection
        first, last = self._layout.record_at(doc_index, a), self._layout.record_at(doc_index, b)
        if first is None or last is None or first.block_id is None or last.block_id is None:
            return None
        return Caret(first.block_id, first.clean_offset(a)), Caret(last.block_id, last.clean_offset(b))

    def selection_text(self: Any) -> str:
        """The selected clean text (paragraphs joined by newlines; "" when nothing is selected)."""
        if self._selection is None or self._layout is None:
            return ""
        return clean_text(self._layout, self._selection)

    def set_selection(self: Any, block_id: str, start: int, end: int) -> bool:
        """Select clean-text offsets ``[start, end)`` of a block as if dragged over."""
        spans = self._spans_of(("range", block_id, str(start), str(end)))
        self._selection = spans[0] if spans and end > start else None
        self.viewport().update()
        self.selection_changed.emit()
        return self._selection is not None

    def _select(self: Any, span: DocRange | None) -> None:
        self._selection, self._press = span, None
        self.viewport().update()
        self.selection_changed.emit()

    def clear_selection(self: Any) -> None:
        had = self._selection is not None
        self._selection = self._press = None
        if had:  # nothing to paint again otherwise (a keystroke clears no selection most of the time)
            self.viewport().update()
            self.selection_changed.emit()

    # ------------------------------------------------------------------ mouse
    def _page_point(self: Any, point: QPointF) -> tuple[Page, QPointF] | None:
        """The page under a viewport point and the point in that page's LU."""
        if self._layout is None:
            return None
        for number in self.visible_pages():
            page = self._pages()[number]
            rect = self.page_rect(number)
            if rect.top() <= point.y() <= rect.bottom():
                scale = self._scale
                return page, QPointF((point.x() - rect.left()) / scale, (point.y() - rect.top()) / scale)
        return None

    def mousePressEvent(self: Any, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        hit = self._page_point(event.position())
        self.clear_selection()
        if hit is None:
            return
        page, point = hit
        for box, comment_id in self._painter.balloon_boxes.get(page.number, []) if self._painter else []:
            if box.contains(point):
                self.select_comment(comment_id)
                self.comment_clicked.emit(comment_id)
                return
        if self._third_click(event):
            self._select_paragraph(page, point)
            return
        if self._story_press(page, point):
            return
        position = position_at(self._layout, page, point, exact=False)
        if position is not None:
            self._press = (page.doc_index, position)
            self._place_caret(page.doc_index, position)
        character = character_at(self._layout, page, point)
        record = self._layout.record_at(page.doc_index, character) if character is not None else None
        if record is None:
            return
        change = record.change_at(character)
        comments = record.comments_at(character)
        if change:
            self._focus_on(("change", change), scroll=False)
            self.change_clicked.emit(change)
        elif comments:
            comment_id = min(comments, key=_numeric)
            self._focus_on(("comment", comment_id), scroll=False)
            self.comment_clicked.emit(comment_id)

    def mouseMoveEvent(self: Any, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if self._press is None or not event.buttons() & Qt.MouseButton.LeftButton:
            super().mouseMoveEvent(event)
            return
        hit = self._page_point(event.position())
        if hit is None or hit[0].doc_index != self._press[0]:
            return
        position = position_at(self._layout, hit[0], hit[1], exact=False)
        if position is None:
            return
        doc_index, anchor = self._press
        low, high = min(anchor, position), max(anchor, position)
        # as in Word the caret follows the pointer and the press stays the anchor, so Shift+arrows
        # go on from where the drag ended and typing lands there
        pressed = self._selection_anchor or self._caret
        self._place_caret(doc_index, position)
        self._selection_anchor = pressed
        self._selection = (doc_index, low, high) if high > low else None
        self.viewport().update()

    def mouseReleaseEvent(self: Any, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        self._press = None
        if self._selection is not None:
            self.selection_changed.emit()
        super().mouseReleaseEvent(event)


def _numeric(comment_id: str) -> tuple[int, str]:
    """Sort comment ids by number (the outermost of nested comments is usually the oldest)."""
    return (int(comment_id), comment_id) if comment_id.isdigit() else (1 << 62, comment_id)
