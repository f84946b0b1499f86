"""``FindBar``: find text in the open document and step through the hits in the page view.

It searches with the engine's own index (``DocxReviewer.find_text``, the same literal,
case-folding and note-marker rules the agent's ``find_text`` follows), so a person and the agent
find the same things; each hit is a block id and clean-text offsets, which the page view turns
into a highlight on the laid-out lines: every hit lightly, the current one strongly. The search
runs again by itself when the document has changed since (an accepted change moves every offset
after it).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QCheckBox, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from .pageview import PageView


class FindBar(QWidget):
    """A one-line find bar over a :class:`PageView` (Enter: next hit, Shift+Enter: previous, Esc: close)."""

    #: The bar was closed (Esc or its close button): the host gives focus back to the pages.
    closed = Signal()

    def __init__(self, view: PageView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("findBar")
        self.view = view
        self.query_edit = QLineEdit(self)
        self.query_edit.setPlaceholderText(self.tr("Find in document"))
        self.query_edit.setAccessibleName(self.tr("Find text"))
        self.query_edit.setClearButtonEnabled(True)
        self.match_case = QCheckBox(self.tr("Match case"), self)
        self.previous_button = QToolButton(self)
        self.previous_button.setText(self.tr("Previous"))
        self.previous_button.setArrowType(Qt.ArrowType.UpArrow)
        self.previous_button.setToolTip(self.tr("Previous match (Shift+Enter)"))
        self.next_button = QToolButton(self)
        self.next_button.setText(self.tr("Next"))
        self.next_button.setArrowType(Qt.ArrowType.DownArrow)
        self.next_button.setToolTip(self.tr("Next match (Enter)"))
        self.count_label = QLabel(self)
        self.count_label.setMinimumWidth(90)
        self.close_button = QToolButton(self)
        self.close_button.setText(self.tr("Close"))
        self.close_button.setToolTip(self.tr("Close the find bar (Esc)"))
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 3, 6, 3)
        for widget in (self.query_edit, self.match_case, self.previous_button, self.next_button):
            row.addWidget(widget)
        row.addWidget(self.count_label)
        row.addStretch(0)
        row.addWidget(self.close_button)
        self._matches: list[dict[str, Any]] = []
        self._total = 0
        self._current = -1
        self._searched: tuple[Any, ...] | None = None  # (reviewer, version, query, match case)
        self.query_edit.textChanged.connect(lambda _text: self.search())
        self.query_edit.returnPressed.connect(self._return_pressed)
        self.match_case.toggled.connect(lambda _on: self.search())
        self.previous_button.clicked.connect(self.find_previous)
        self.next_button.clicked.connect(self.find_next)
        self.close_button.clicked.connect(self.close_bar)
        self._update_label()

    # ------------------------------------------------------------------ opening and closing
    def open_bar(self) -> None:
        """Show the bar with the query selected; the page view's selection becomes the query."""
        selected = self.view.selection_text()
        if selected and "\n" not in selected:
            self.query_edit.setText(selected)
        self.show()
        self.query_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.query_edit.selectAll()
        if self._matches:
            self._show_current()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt override
        """Esc closes the bar (the line edit passes keys it does not use up to here)."""
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            event.accept()
            return
        super().keyPressEvent(event)

    def close_bar(self) -> None:
        self.hide()
        self.view.clear_find_hit()
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)
        self.closed.emit()

    # ------------------------------------------------------------------ searching
    def search(self) -> None:
        """Search for the query from the top of the page in view; show the first hit there or after."""
        reviewer = self.view.document_reviewer()
        query = self.query_edit.text()
        self._matches, self._total, self._current = [], 0, -1
        self._searched = None
        if reviewer is None or not query.strip():
            self.view.clear_find_hit()
            self._update_label()
            return
        found = reviewer.find_text(query[:1000], self.match_case.isChecked())
        self._matches, self._total = found["matches"], found["totalMatches"]
        self._searched = self._key()
        if self._matches:
            self._current = self._first_from_view()
            self._show_current()
        else:
            self.view.clear_find_hit()
        self._update_label()

    def _key(self) -> tuple[Any, ...] | None:
        reviewer = self.view.document_reviewer()
        if reviewer is None:
            return None
        return (
            id(reviewer),
            reviewer.document_version(),
            self.query_edit.text(),
            self.match_case.isChecked(),
        )

    def _first_from_view(self) -> int:
        """The first hit on or after the page in view (a search starts where the person is reading)."""
        layout = self.view.paged_layout()
        if layout is None or not layout.done:
            return 0
        here = self.view.current_page()
        for i, match in enumerate(self._matches):
            page = layout.index.page_of_range(match["blockId"], *_offsets(match))
            if page is not None and page >= here:
                return i
        return 0

    def find_next(self) -> None:
        self._step(1)

    def find_previous(self) -> None:
        self._step(-1)

    def _step(self, delta: int) -> None:
        if self._searched != self._key():
            self.search()  # the document changed since: offsets moved
            if delta > 0:
                return
        if not self._matches:
            return
        self._current = (self._current + delta) % len(self._matches)
        self._show_current()
        self._update_label()

    def _return_pressed(self) -> None:
        shift = bool(QApplication.keyboardModifiers() & Qt.KeyboardModifier.ShiftModifier)
        self._step(-1 if shift else 1)

    def _show_current(self) -> None:
        hits = [(match["blockId"], *_offsets(match)) for match in self._matches]
        self.view.show_find_hits(hits, self._current)

    def current_match(self) -> dict[str, Any] | None:
        """The hit the bar is on (a ``find_text`` match: block id, range, context), if any."""
        return self._matches[self._current] if 0 <= self._current < len(self._matches) else None

    def _update_label(self) -> None:
        if not self.query_edit.text().strip():
            text = ""
        elif not self._matches:
            text = self.tr("No matches")
        elif self._total > len(self._matches):
            text = self.tr("{n} of {m} (first {shown})").format(
                n=self._current + 1, m=self._total, shown=len(self._matches)
            )
        else:
            text = self.tr("{n} of {m}").format(n=self._current + 1, m=self._total)
        self.count_label.setText(text)
        found = bool(self._matches)
        self.previous_button.setEnabled(found)
        self.next_button.setEnabled(found)


def _offsets(match: dict[str, Any]) -> tuple[int, int]:
    return match["range"]["startOffset"], match["range"]["endOffset"]
