"""Moving around the pages: keys, page steps, and keeping the reader's place across re-layouts.

:class:`PageNavigation` is mixed into :class:`~.view.PageView`. Keys scroll (PageUp/PageDown a
screen; until a click puts the caret in the text, the arrows a line and Home/End and
Ctrl+Home/End the start and end of the document, after it they and PageUp/PageDown move the caret;
Ctrl+C copies the selection, Esc drops the highlights). :meth:`PageNavigation.refresh` answers
the controller's ``document_changed``: re-render the touched paragraphs when it can, else lay
the document out again and put the paragraph that was at the top of the viewport back where it
was, so accepting all changes does not throw the reader back to page 1.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSlider

from ...docx.reviewer import DocxReviewer
from .clipboard import copy_selection


class PageNavigation:
    """Keys, page steps and place keeping of the page view (see the module docstring)."""

    # ------------------------------------------------------------------ after an edit
    def refresh(self: Any, reviewer: DocxReviewer | None, block_ids: frozenset[str] | None = None) -> None:
        """Show ``reviewer``'s document after a change (answer to ``document_changed``).

        When the same document changed only in ``block_ids``, those paragraphs are re-rendered in
        place; otherwise (``None``: anything may have changed, or undo replaced the reviewer) the
        document is laid out again and the paragraph at the top of the viewport stays there.
        """
        if reviewer is None:
            self.clear_document()
            return
        layout = self._layout
        if layout is not None and layout.done and reviewer is self._reviewer and block_ids is not None:
            # what painting only the edited pages would leave stale: a new scale or page count, or
            # a selection (dropped below) that may sit on another page
            shape = (self._scale, len(self._tops), self._selection is None)
            commented = any(r is not None and r.comments for r in map(layout.by_id.get, block_ids))
            kept = True  # every paragraph kept its lines: only their pages need painting again
            for block_id in block_ids:
                if not layout.rerender_block(block_id):
                    break
                kept = kept and layout.kept_lines
            else:
                commented = commented or any(layout.by_id[b].comments for b in block_ids)
                if commented:
                    # a reply, a resolution or a new comment shows in the balloons: re-read them
                    # (only then: reading every comment costs about 45 ms on a 300-page contract)
                    layout.reread_comments()
                self._refresh_highlights()
                self._update_geometry()
                if (
                    not kept
                    or (self._scale, len(self._tops), True) != shape
                    or not self._repaint_pages_of(block_ids)
                ):
                    self.viewport().update()
                return
        anchor = self._anchor()
        self._reviewer = reviewer
        self._start_layout()
        self._pending_anchor = anchor
        if self._layout is not None and self._layout.done:
            self._after_slice()

    def _repaint_pages_of(self: Any, block_ids: frozenset[str]) -> bool:
        """Repaint only what ``block_ids``, which kept their lines, change on the visible pages: a
        paragraph on one page, its lines across the page and the margin column beside the whole
        page (a new change's balloon may push the others down); a paragraph over a page break, its
        pages. A keystroke changes a band of its page, not the two or three pages on screen.
        False when a block's pages are unknown."""
        visible = set(self.visible_pages())
        width = self.viewport().width()
        for block_id in block_ids:
            pages = self._layout.index.pages_of_block(block_id)
            if pages is None:
                return False
            band = self._band_of(block_id) if pages[0] == pages[1] else None
            for number in range(pages[0], pages[1] + 1):
                if number in visible:
                    rect = self.page_rect(number)
                    if band is None:
                        self.viewport().update(0, int(rect.top()) - 1, width, int(rect.height()) + 8)
                        continue
                    self.viewport().update(0, int(band[0]) - 2, width, int(band[1] - band[0]) + 5)
                    right = math.ceil(rect.right())  # not a sliver of the paper: its whole height
                    self.viewport().update(right, int(rect.top()) - 1, width - right, int(rect.height()) + 8)
        return True

    def _band_of(self: Any, block_id: str) -> tuple[float, float] | None:
        """(top, bottom) of a block's lines in viewport pixels."""
        y = self._block_y(block_id)
        found = self._layout.block_rect(block_id)
        if y is None or found is None:
            return None
        top = y - self.verticalScrollBar().value()
        return top, top + found[1].height() * self._scale

    def _anchor(self: Any) -> tuple[str, float] | None:
        """The paragraph at the viewport's top and how far below the top its first line sits."""
        layout = self._layout
        visible = self.visible_pages()
        if layout is None or not visible:
            return None
        top = self.verticalScrollBar().value()
        best: tuple[str, float] | None = None
        for block_id in layout.index.blocks_on_page(visible[0]):
            y = self._block_y(block_id)
            if y is None:
                continue
            if best is None or y <= top + 1:
                best = (block_id, y - top)
            if y > top + 1:
                break
        return best

    def _restore_anchor(self: Any) -> None:
        """Put the anchored paragraph back in place once laid out (again when the layout ends,
        unless the person scrolled meanwhile)."""
        if self._pending_anchor is None or self._layout is None:
            return
        block_id, offset = self._pending_anchor
        if block_id not in self._layout.by_id and not self._layout.done:
            return
        if self._anchor_value is not None and self.verticalScrollBar().value() != self._anchor_value:
            self._pending_anchor = self._anchor_value = None  # the person moved on
            return
        y = self._block_y(block_id)
        if y is not None:
            self.verticalScrollBar().setValue(round(y - offset))
            self._anchor_value = self.verticalScrollBar().value()
        if self._layout.done:
            self._pending_anchor = self._anchor_value = None

    # ------------------------------------------------------------------ keys and pages
    def keyPressEvent(self: Any, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        vbar, hbar = self.verticalScrollBar(), self.horizontalScrollBar()
        key = event.key()
        actions = {
            Qt.Key.Key_PageDown: (vbar, QAbstractSlider.SliderAction.SliderPageStepAdd),
            Qt.Key.Key_PageUp: (vbar, QAbstractSlider.SliderAction.SliderPageStepSub),
            Qt.Key.Key_Down: (vbar, QAbstractSlider.SliderAction.SliderSingleStepAdd),
            Qt.Key.Key_Up: (vbar, QAbstractSlider.SliderAction.SliderSingleStepSub),
            Qt.Key.Key_Right: (hbar, QAbstractSlider.SliderAction.SliderSingleStepAdd),
            Qt.Key.Key_Left: (hbar, QAbstractSlider.SliderAction.SliderSingleStepSub),
            Qt.Key.Key_Home: (vbar, QAbstractSlider.SliderAction.SliderToMinimum),
            Qt.Key.Key_End: (vbar, QAbstractSlider.SliderAction.SliderToMaximum),
        }
        if self._caret_key(event):
            event.accept()
            return
        if event.matches(QKeySequence.StandardKey.Copy):
            copy_selection(self)
        elif key == Qt.Key.Key_Escape:
            self.clear_highlights()
        elif key in actions:
            bar, action = actions[key]
            bar.triggerAction(action)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def go_to_page(self: Any, number: int) -> bool:
        """Scroll so page ``number`` (0-based) starts at the top of the viewport."""
        if not 0 <= number < len(self._tops):
            return False
        # ceil: the page at the viewport's top must be this one, not the end of the one above
        self.verticalScrollBar().setValue(math.ceil(self._tops[number]))
        self.viewport().update()
        return True

    def next_page(self: Any) -> bool:
        """Show the page after the one at the top of the viewport."""
        return self.go_to_page(self._position()[0] + 1)

    def previous_page(self: Any) -> bool:
        """Show the page before the one at the top (the top of this page when it is partly scrolled)."""
        page, fraction = self._position()
        return self.go_to_page(page if fraction > 0.02 else page - 1)
