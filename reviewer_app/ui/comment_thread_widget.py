"""The widgets of the comments panel that are real widgets: the box a person writes a comment or
a reply in, and the one-line elided label; plus the date format threads show.

Threads themselves are painted (:mod:`.comment_thread_delegate`). A reply box lives as long as
its thread: the panel keeps it when the document changes, so a reply being typed survives every
refresh (an accept elsewhere, an undo, the agent commenting) and is lost only if the thread goes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QDateTime, QLocale, Qt, Signal
from PySide6.QtGui import QKeyEvent, QPainter
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

#: Lines of text a composer shows before it scrolls.
COMPOSER_LINES = 4


def format_comment_date(written: str | None) -> str:
    """A comment's ``w:date`` in the person's locale ("14 Mar 2025, 09:15"); "" when absent or unreadable.

    Word writes local time without a zone and newer writers UTC with ``Z``; Qt reads both (a time
    without a zone counts as local, which is what Word meant).
    """
    if not written:
        return ""
    moment = QDateTime.fromString(written, Qt.DateFormat.ISODateWithMs)
    if not moment.isValid():
        return ""
    moment = moment.toLocalTime()
    locale = QLocale()
    day = locale.toString(moment.date(), "d MMM yyyy")
    return f"{day}, {locale.toString(moment.time(), QLocale.FormatType.ShortFormat)}"


def _wrapping(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


class ElidedLabel(QLabel):
    """One line of plain text cut with "…" to the width it gets; the whole text is its tooltip.

    The anchor quote of a comment can be a paragraph long; one line says which passage it is
    without pushing the comment itself out of view.
    """

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.set_full_text(text)

    def set_full_text(self, text: str) -> None:
        self._full_text = " ".join(text.split())
        self.setToolTip(text)
        self.setText(self._full_text)

    def full_text(self) -> str:
        return self._full_text

    def paintEvent(self, _event: Any) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        shown = self.fontMetrics().elidedText(self._full_text, Qt.TextElideMode.ElideRight, self.width())
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)


class _ComposerEdit(QPlainTextEdit):
    """The text box of a composer: Ctrl+Enter (Cmd+Enter on macOS) sends, Enter starts a new line."""

    send_requested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.send_requested.emit()
            return
        super().keyPressEvent(event)


class CommentComposer(QWidget):
    """A text box with Send and Cancel, for a reply or a new comment."""

    submitted = Signal(str)
    cancelled = Signal()

    def __init__(self, placeholder: str, send_label: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("commentComposer")
        self.editor = _ComposerEdit(self)
        self.editor.setPlaceholderText(placeholder)
        self.editor.setTabChangesFocus(True)
        lines = self.editor.fontMetrics().lineSpacing() * COMPOSER_LINES
        self.editor.setFixedHeight(lines + 2 * self.editor.frameWidth() + 8)
        self.send_button = QPushButton(send_label, self)
        self.send_button.setToolTip(self.tr("Send (Ctrl+Enter)"))
        self.send_button.setEnabled(False)
        cancel = QPushButton(self.tr("Cancel"), self)
        self.error_label = _wrapping("")
        self.error_label.hide()
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.send_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.editor)
        layout.addWidget(self.error_label)
        layout.addLayout(buttons)
        self.editor.textChanged.connect(self._text_changed)
        self.editor.send_requested.connect(self._send)
        self.send_button.clicked.connect(self._send)
        cancel.clicked.connect(self.cancelled)

    def text(self) -> str:
        return self.editor.toPlainText()

    def reset(self) -> None:
        """Empty the box and forget any error, ready for the next comment."""
        self.editor.clear()
        self.show_error("")

    def show_error(self, message: str) -> None:
        """Say why the text was not added (the text stays, so nothing typed is lost)."""
        self.error_label.setText(message)
        self.error_label.setVisible(bool(message))

    def _text_changed(self) -> None:
        self.send_button.setEnabled(bool(self.text().strip()))

    def _send(self) -> None:
        if self.text().strip():
            self.submitted.emit(self.text().strip())
