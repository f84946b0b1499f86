"""The caret under a person's hands: a click places it, a double click takes a word, a third the paragraph.

:class:`CaretInteraction` is mixed into :class:`~.view.PageView` beside
:class:`~.interaction.PageInteraction` (whose mouse handlers call :meth:`_place_caret`,
:meth:`_third_click` and :meth:`_select_paragraph`). The caret itself is a
:class:`~.caret.Caret`, a block id and a clean-text offset, drawn as a thin line that blinks
while the pages have the keyboard; the arrows, Home, End, Page Up and Page Down move it, with
Ctrl by words and paragraphs or to the document's ends (with Shift they extend a selection from
where it stood, see :mod:`.caret_moves`); the paragraph commands (Edit, Insert, Delete
Paragraph) ask :meth:`CaretInteraction.target_block` which paragraph they act on, and
:meth:`CaretInteraction.block_on_screen` whether the person can see it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QLineF, QPointF, Qt, QTimer
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPen,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import QApplication

from . import caret_moves
from .caret import Caret, caret_line, caret_position, clean_length, paragraph_text, word_bounds
from .caret_stories import (
    HEADER_STORIES,
    StoryFrame,
    header_frames,
    note_frames,
    story_caret_at,
    story_caret_line,
    story_line_end,
    story_of,
    story_step,
)
from .geometry import character_at, position_at, range_rects, record_span
from .layout import Page
from .records import RenderedBlock

_CARET = QColor(20, 20, 20)
_CARET_PX = 2
_SHIFT = Qt.KeyboardModifier.ShiftModifier
_CTRL = Qt.KeyboardModifier.ControlModifier
_ARROWS = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1}
#: the keys that move the caret in a footnote, header or footer paragraph (within it)
_STORY_KEYS = (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End)


class CaretInteraction:
    """The caret, double and triple clicks, and the paragraph a command acts on (see the module docstring)."""

    def _init_caret(self) -> None:
        self._caret: Caret | None = None
        #: the page whose header or footer the caret was put in (the same one shows on many pages)
        self._story_page: int | None = None
        self._double_click: tuple[int, QPointF] | None = None  # (timestamp, point) of the last one
        #: where a Shift+arrow selection started (None: no keyboard selection)
        self._selection_anchor: Caret | None = None
        #: (caret a Page Up/Down left, viewport point it aimed at): the next page key aims at the same
        #: point, as in Word, so Page Down then Page Up comes back where it started, however the
        #: lines of the two screens fall
        self._page_goal: tuple[Caret, QPointF] | None = None
        self._caret_shown = True
        self._blink = QTimer(self)
        self._blink.setInterval(max(100, QApplication.cursorFlashTime() // 2 or 530))
        self._blink.timeout.connect(self._toggle_caret)

    def _toggle_caret(self: Any) -> None:
        self._caret_shown = not self._caret_shown
        self._update_caret()

    def _update_caret(self: Any) -> None:
        """Repaint the strip the caret is drawn in (not the pages: a blink costs next to nothing)."""
        line = self.caret_viewport_line()
        if line is not None:
            self.viewport().update(
                round(line.x1()) - 3, round(min(line.y1(), line.y2())) - 2, 6, round(abs(line.dy())) + 4
            )

    def _restart_blink(self: Any) -> None:
        """Show the caret steadily from now (a key or a click), blinking while the pages have focus."""
        self._caret_shown = True
        if self.hasFocus() and self._caret is not None:
            self._blink.start()
        else:
            self._blink.stop()

    def focusInEvent(self: Any, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        super().focusInEvent(event)
        self._restart_blink()

    def focusOutEvent(self: Any, event: QFocusEvent) -> None:  # noqa: N802 - Qt override
        super().focusOutEvent(event)
        self._blink.stop()
        self._caret_shown = True

    def _paint_caret(self: Any, painter: QPainter, page: Page) -> None:
        if self._selection is not None or not self._caret_shown:
            return
        line = self._caret_line_on(page)
        if line is None:
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
        the block is not laid out and will not be (a block the layout has not reached yet takes the
        caret, drawn once it is laid out: Enter makes a paragraph and re-lays the document out)."""
        record = self._layout.by_id.get(block_id) if self._layout is not None else None
        if record is None and self._layout is not None and story_of(block_id) is not None:
            self._set_caret(Caret(block_id, max(0, offset)))  # drawn once its story is laid out
            return True
        if record is None:
            if self._layout is None or self._layout.done:
                return False
            self._set_caret(Caret(block_id, max(0, offset)))
            return True
        self._set_caret(Caret(block_id, max(0, min(offset, clean_length(record)))))
        return True

    def selection_format(self: Any) -> QTextCharFormat | None:
        """How the selection's first character is drawn (None without a selection): what Ctrl+B
        toggles from."""
        if self._selection is None or self._layout is None:
            return None
        doc_index, a, _b = self._selection
        cursor = QTextCursor(self._layout.docs[doc_index].document)
        cursor.setPosition(a + 1)  # the format of the character before the cursor
        return cursor.charFormat()

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
        for number in self.visible_pages():
            line = self._caret_line_on(self._pages()[number])
            if line is not None:
                page = self.page_rect(number)
                return QLineF(
                    page.topLeft() + line.p1() * self._scale, page.topLeft() + line.p2() * self._scale
                )
        return None

    def _caret_line_on(self: Any, page: Page) -> QLineF | None:
        """The caret's line on ``page`` (page LU), in the body or in a footnote; None when not there."""
        if self._caret is None or self._layout is None:
            return None
        story = story_of(self._caret.block_id)
        if story is not None:
            return story_caret_line(self._story_frames(page, story in HEADER_STORIES), self._caret)
        record = self._caret_record()
        return caret_line(self._layout, page, record, self._caret.offset) if record is not None else None

    def _caret_record(self: Any) -> RenderedBlock | None:
        if self._caret is None or self._layout is None:
            return None
        return self._layout.by_id.get(self._caret.block_id)

    def _set_caret(self: Any, caret: Caret | None) -> None:
        self._restart_blink()
        if caret != self._caret:
            self._update_caret()  # the strip it leaves and the one it goes to, not the pages
            self._caret = caret
            self._update_caret()
            self.caret_changed.emit()

    # ------------------------------------------------------------------ keys
    def _caret_key(self: Any, event: QKeyEvent) -> bool:
        """Move the caret for an arrow, Home, End, Page Up or Page Down, with Ctrl by words and
        paragraphs or to the document's ends (Shift: extend the selection; a plain arrow leaves a
        selection at its ends, see :meth:`_collapsed`); False for other keys or without a caret (the
        keys then scroll, as before anything was clicked)."""
        key, modifiers = event.key(), event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if self._caret is not None and not modifiers and key in _STORY_KEYS:
            story = story_of(self._caret.block_id)
            if story is not None:
                return self._story_key(story in HEADER_STORIES, key)
        if self._caret_record() is None or modifiers & ~_SHIFT & ~_CTRL:
            return False
        collapsed = self._collapsed(key) if not modifiers else None
        moved = self._moved(key, bool(modifiers & _CTRL)) if collapsed is None else collapsed
        if moved is False:
            return False
        if moved is not None:
            self.move_caret(moved, extend=bool(modifiers & _SHIFT))
            self._reveal_caret()
        return True

    def _collapsed(self: Any, key: int) -> Caret | None:
        """Where a plain arrow takes the caret out of a selection, as in Word: Left to the
        selection's start and Right to its end, no further; Up a line from its start and Down a line
        from its end. None without a selection or for another key."""
        ends = self.selection_ends() if key in _ARROWS else None
        if ends is None:
            return None
        end = ends[0] if _ARROWS[key] < 0 else ends[1]
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            return end
        return caret_moves.vertical(self._layout, end, _ARROWS[key]) or end

    def _moved(self: Any, key: int, ctrl: bool) -> Caret | None | bool:
        """Where ``key`` (with Ctrl when ``ctrl``) takes the caret; None: nowhere; False: not a move."""
        layout, caret = self._layout, self._caret
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            return (caret_moves.word if ctrl else caret_moves.horizontal)(layout, caret, _ARROWS[key])
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            return (caret_moves.paragraph if ctrl else caret_moves.vertical)(layout, caret, _ARROWS[key])
        if key in (Qt.Key.Key_Home, Qt.Key.Key_End):
            if not ctrl:
                return caret_moves.line_end(layout, caret, key == Qt.Key.Key_End)
            if key == Qt.Key.Key_End:
                self.finish_layout()  # the document's end may not be laid out yet
            return caret_moves.document_end(self._layout, key == Qt.Key.Key_End)
        if key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown) and not ctrl:
            return self._page_step(1 if key == Qt.Key.Key_PageDown else -1)
        return False

    def _page_step(self: Any, step: int) -> Caret | None:
        """Page Down (``step`` +1) or Up (-1) as in Word: the pages scroll a screen and the caret keeps
        its place on the screen; where they cannot scroll further it goes the rest of the way."""
        viewport = self.viewport()
        line = self.caret_viewport_line()
        point = line.center() if line is not None else QPointF(viewport.width() / 2, 0)
        if self._page_goal is not None and self._page_goal[0] == self._caret:
            point = QPointF(self._page_goal[1])  # where the first page key of this run aimed
        goal = QPointF(point)
        bar = self.verticalScrollBar()
        before = bar.value()
        bar.setValue(before + step * bar.pageStep())
        rest = step * bar.pageStep() - (bar.value() - before)
        point.setY(max(0.0, min(point.y() + rest, viewport.height() - 1.0)))
        moved = self._caret_at(point)
        self._page_goal = None if moved is None else (moved, goal)
        return moved

    def _caret_at(self: Any, point: QPointF) -> Caret | None:
        """The caret gap nearest a viewport point (on the nearest page when it falls between pages)."""
        numbers = self.visible_pages()
        if not numbers:
            return None

        def distance(number: int) -> float:
            rect = self.page_rect(number)
            return max(rect.top() - point.y(), point.y() - rect.bottom(), 0.0)

        number = min(numbers, key=distance)
        rect, page = self.page_rect(number), self._pages()[number]
        inside = QPointF(
            min(max(point.x(), rect.left()), rect.right()), min(max(point.y(), rect.top()), rect.bottom())
        )
        local = (inside - rect.topLeft()) / self._scale
        position = position_at(self._layout, page, local, exact=False)
        record = self._layout.record_at(page.doc_index, position) if position is not None else None
        if record is None or record.block_id is None:
            return None
        return Caret(record.block_id, min(record.clean_offset(position), clean_length(record)))

    def _reveal_caret(self: Any) -> None:
        """Scroll the caret's line into view when a key took it off the screen (as Word does)."""
        line = self.caret_viewport_line()
        if (
            line is not None
            and min(line.y1(), line.y2()) >= 0
            and max(line.y1(), line.y2()) <= (self.viewport().height())
        ):
            return
        record = self._caret_record()
        if record is not None:
            position = caret_position(record, self._caret.offset)
            self._scroll_to_span((record.doc_index, position, position))

    def move_caret(self: Any, caret: Caret, extend: bool = False) -> None:
        """Put the caret at ``caret``; ``extend`` selects from where a Shift-selection began (or from
        the caret's old place) to there, otherwise the selection goes."""
        if not extend:
            self._selection_anchor = None
            self.clear_selection()
            self._set_caret(caret)
            return
        if self._selection_anchor is None:
            self._selection_anchor = self._caret
        if self._across_documents(self._selection_anchor, caret):
            return  # the caret stays with the selection it extends (see _across_documents)
        self._set_caret(caret)
        self.select_between(self._selection_anchor, caret)

    def _across_documents(self: Any, anchor: Caret, caret: Caret) -> bool:
        """Whether two body places lie in sections laid out apart (pages of another size or
        margins after a page break): a selection cannot span them yet, so a Shift+key stops at the
        section's end rather than leave the caret beyond a selection it no longer matches."""
        layout = self._layout
        first, second = layout.by_id.get(anchor.block_id), layout.by_id.get(caret.block_id)
        return first is not None and second is not None and first.doc_index != second.doc_index

    def select_between(self: Any, anchor: Caret, caret: Caret) -> None:
        """Select from ``anchor`` to ``caret`` (in either order, across paragraphs of one section)."""
        layout = self._layout
        first, second = layout.by_id.get(anchor.block_id), layout.by_id.get(caret.block_id)
        if first is None or second is None or first.doc_index != second.doc_index:
            return
        a, b = caret_position(first, anchor.offset), caret_position(second, caret.offset)
        self._selection = (first.doc_index, min(a, b), max(a, b)) if a != b else None
        self.viewport().update()
        self.selection_changed.emit()

    # ------------------------------------------------------------------ clicks
    def _story_frames(self: Any, page: Page, headers: bool) -> list[StoryFrame]:
        """Where ``page`` draws its footnotes, or (``headers``) the header and footer the caret was
        put in: on the page it was put in only, as the same header shows on many pages."""
        if not headers:
            return note_frames(self._layout, page)
        return header_frames(self._layout, page) if page.number == self._story_page else []

    def _story_key(self: Any, headers: bool, key: int) -> bool:
        """Left or Right a character, Home or End to its line's ends, in the footnote or header
        paragraph the caret is in, within that paragraph."""
        for number in self.visible_pages():
            frames = self._story_frames(self._pages()[number], headers)
            if key in (Qt.Key.Key_Home, Qt.Key.Key_End):
                moved = story_line_end(frames, self._caret, key == Qt.Key.Key_End)
            else:
                moved = story_step(frames, self._caret, _ARROWS[key])
            if moved is not None:
                self._set_caret(moved)
                return True
        return True  # not on screen: the key does nothing rather than scroll the body

    def _story_press(self: Any, page: Page, point: QPointF) -> bool:
        """A press on a footnote's text puts the caret there, as does one in the header or footer
        the caret is in already (True); False elsewhere (the body takes the press)."""
        frames = note_frames(self._layout, page)
        if self._caret is not None and story_of(self._caret.block_id) in HEADER_STORIES:
            frames += header_frames(self._layout, page)
        return self._enter_story(page, story_caret_at(frames, point))

    def _enter_story(self: Any, page: Page, caret: Caret | None) -> bool:
        if caret is None:
            return False
        self._selection_anchor = None
        self._story_page = page.number
        self._set_caret(caret)
        return True

    def _place_caret(self: Any, doc_index: int, position: int) -> None:
        record = self._layout.record_at(doc_index, position)
        self._selection_anchor = None
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
        # as in Word, a double click in the header or footer goes in to edit it
        if self._enter_story(page, story_caret_at(header_frames(self._layout, page), point)):
            return
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
