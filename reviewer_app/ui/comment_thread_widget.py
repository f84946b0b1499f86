"""One comment thread of the comments panel, and the inline box a person writes a comment in.

A thread widget lives as long as its thread: the panel updates it in place when the document
changes, so a reply being typed in its :class:`CommentComposer` survives every refresh (an
accept elsewhere, an undo, the agent commenting) and is lost only if the thread itself goes.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QDateTime, QLocale, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from .plurals import count_text

#: Left indent of replies under the comment they answer, in pixels.
REPLY_INDENT = 14
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


def _muted(label: QLabel) -> QLabel:
    """Draw ``label`` in the theme's secondary text colour (works in light and dark themes)."""
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label


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


class CommentThreadWidget(QFrame):
    """A top-level comment with its replies, its state and its Reply / Resolve / Reopen buttons.

    A resolved thread is drawn collapsed and greyed (its first line and a "Resolved" marker) until
    it is selected, as Word does, so open points stand out without hiding what was settled.
    """

    #: the person clicked the thread: the panel selects it and the page view shows its anchor
    activated = Signal(str)
    #: (thread id, text): the person sent a reply
    reply_submitted = Signal(str, str)
    #: (thread id, resolved): the person resolved or reopened the thread
    resolve_requested = Signal(str, bool)
    #: the person deleted the thread (its replies go with it, as in Word)
    delete_requested = Signal(str)

    def __init__(self, thread_id: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("commentThread")
        self.setProperty("selected", False)
        self.thread_id = thread_id
        self.resolved = False
        self._selected = False
        self._thread: dict[str, Any] = {}
        self._dates: dict[str, str | None] = {}
        self._page: int | None = None
        self._content = QWidget(self)
        self.reply_button = QPushButton(self.tr("Reply"), self)
        self.resolve_button = QPushButton(self)
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.delete_button.setToolTip(self.tr("Delete this comment and its replies (Undo brings them back)"))
        for button in (self.reply_button, self.resolve_button, self.delete_button):
            button.setFlat(True)
            button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.composer = CommentComposer(self.tr("Reply…"), self.tr("Send"), self)
        self.composer.hide()
        actions = QHBoxLayout()
        actions.setContentsMargins(0, 0, 0, 0)
        actions.addWidget(self.reply_button)
        actions.addWidget(self.resolve_button)
        actions.addStretch(1)
        actions.addWidget(self.delete_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 4)
        layout.setSpacing(4)
        layout.addWidget(self._content)
        layout.addLayout(actions)
        layout.addWidget(self.composer)
        self.reply_button.clicked.connect(self.open_reply)
        self.resolve_button.clicked.connect(
            lambda: self.resolve_requested.emit(self.thread_id, not self.resolved)
        )
        self.delete_button.clicked.connect(lambda: self.delete_requested.emit(self.thread_id))
        self.composer.submitted.connect(lambda text: self.reply_submitted.emit(self.thread_id, text))
        self.composer.cancelled.connect(self.close_reply)

    # ------------------------------------------------------------------ state
    def set_thread(self, thread: dict[str, Any], dates: dict[str, str | None], page: int | None) -> None:
        """Show ``thread`` (a ``DocxReviewer.comments()`` entry); nothing is rebuilt when it is unchanged."""
        wanted = {r["id"]: dates.get(r["id"]) for r in (thread, *thread["replies"])}
        if thread == self._thread and wanted == self._dates and page == self._page:
            return
        self._thread, self._dates, self._page = thread, wanted, page
        self.resolved = bool(thread["resolved"])
        self._rebuild()

    def is_selected(self) -> bool:
        return self._selected

    def set_selected(self, selected: bool) -> None:
        """Mark the thread as the one shown in the document (a resolved one opens up)."""
        if selected == self._selected:
            return
        self._selected = selected
        self.setProperty("selected", selected)
        self.style().unpolish(self)
        self.style().polish(self)
        if self.resolved and self._thread:
            self._rebuild()

    def reply_draft(self) -> str:
        """What the person has typed in the reply box and not sent yet."""
        return self.composer.text()

    def open_reply(self) -> None:
        self.composer.show()
        self.composer.editor.setFocus()

    def close_reply(self) -> None:
        self.composer.reset()
        self.composer.hide()

    # ------------------------------------------------------------------ drawing
    def _rebuild(self) -> None:
        thread, dates = self._thread, self._dates
        old = self._content
        self._content = QWidget(self)
        column = QVBoxLayout(self._content)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(3)
        column.addLayout(self._header(thread["author"], dates.get(thread["id"]), self._page, True))
        if thread["quote"]:
            quote = _muted(ElidedLabel("\u201c" + thread["quote"] + "\u201d"))
            quote.setObjectName("commentQuote")
            font = quote.font()
            font.setItalic(True)
            quote.setFont(font)
            column.addWidget(quote)
        replies = thread["replies"]
        if self.resolved and not self._selected:
            column.addWidget(_muted(ElidedLabel(thread["text"])))
            if replies:
                column.addWidget(_muted(QLabel(count_text(len(replies), "{n} reply", "{n} replies"))))
        else:
            body = _wrapping(thread["text"])
            body.setObjectName("commentText")
            column.addWidget(_muted(body) if self.resolved else body)
            for reply in replies:
                column.addWidget(
                    self._reply(reply["id"], reply["author"], reply["text"], dates.get(reply["id"]))
                )
        self.layout().replaceWidget(old, self._content)
        old.setParent(None)  # gone from findChildren now, not at the next event loop pass
        old.deleteLater()
        self.reply_button.setVisible(not self.resolved)
        self.resolve_button.setText(self.tr("Reopen") if self.resolved else self.tr("Resolve"))
        self.resolve_button.setToolTip(
            self.tr("Reopen this comment") if self.resolved else self.tr("Mark this comment as resolved")
        )
        if self.resolved and not self.composer.text():
            self.close_reply()

    def _header(self, author: str, date: str | None, page: int | None, top_level: bool) -> QVBoxLayout:
        """Author (bold) with the Resolved marker and page on one line, the date under it."""
        row = QHBoxLayout()
        row.setSpacing(6)
        name = ElidedLabel(author or self.tr("Unknown author"))
        name.setObjectName("commentAuthor")
        font = name.font()
        font.setBold(True)
        name.setFont(font)
        row.addWidget(_muted(name) if self.resolved else name, 1)
        if top_level and self.resolved:
            marker = _muted(QLabel("\u2713 " + self.tr("Resolved")))
            marker.setObjectName("resolvedMarker")
            row.addWidget(marker)
        if page is not None:
            row.addWidget(_muted(QLabel(self.tr("p. {0}").format(page + 1))))
        header = QVBoxLayout()
        header.setSpacing(0)
        header.addLayout(row)
        when = format_comment_date(date)
        if when:
            stamp = _muted(QLabel(when))
            stamp.setObjectName("commentDate")
            header.addWidget(stamp)
        return header

    def _reply(self, reply_id: str, author: str, text: str, date: str | None) -> QWidget:
        box = QFrame()
        box.setObjectName("commentReply")
        box.setProperty("commentId", reply_id)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(REPLY_INDENT, 2, 0, 2)
        layout.setSpacing(1)
        layout.addLayout(self._header(author, date, None, False))
        body = _wrapping(text)
        layout.addWidget(_muted(body) if self.resolved else body)
        return box

    # ------------------------------------------------------------------ input
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.activated.emit(self.thread_id)
        super().mousePressEvent(event)
