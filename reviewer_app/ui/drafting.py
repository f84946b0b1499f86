"""A person's own drafting: rewrite, insert or delete a paragraph, always as a tracked change.

The edit goes through the same engine and contract as the agent's (``replaceBlock``,
``insertAfterBlock``, ``deleteBlock``), authored by the person through the
:class:`~reviewer_app.ui.document_controller.DocumentController`, so it is word-level redlined,
undoable, and indistinguishable in the file from an edit made in Word with Track Changes on.
The editor is a small panel laid over the page view where the paragraph sits, prefilled with
the paragraph's text as it would read with every change accepted.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QRect, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .document_controller import DocumentController

_ids = itertools.count(1)


def user_batch(operation: dict[str, Any]) -> dict[str, Any]:
    """A one-operation tracked batch of the person's own, with an id no other batch has used."""
    return {"version": 1, "mode": "tracked-changes", "operations": [dict(operation, id=f"user-{next(_ids)}")]}


def rewrite_batch(block_id: str, text: str) -> dict[str, Any]:
    """The batch that rewrites a paragraph (the engine redlines only the words that differ)."""
    return user_batch({"type": "replaceBlock", "blockId": block_id, "text": text})


def insert_after_batch(block_id: str, text: str) -> dict[str, Any]:
    """The batch that adds a paragraph after ``block_id`` (formatted like it)."""
    return user_batch({"type": "insertAfterBlock", "blockId": block_id, "text": text})


def delete_batch(block_id: str) -> dict[str, Any]:
    """The batch that deletes a paragraph as a tracked deletion."""
    return user_batch({"type": "deleteBlock", "blockId": block_id})


def refusal(result: dict[str, Any]) -> str | None:
    """Why the engine did not apply a one-operation batch, in its own words; None when it did."""
    if result.get("status") == "committed" and result.get("applied"):
        return None
    messages = [issue.get("message", "") for issue in result.get("issues", [])]
    skipped = [s.get("reason", "") for s in result.get("skipped", [])]
    return " ".join(m for m in messages + skipped if m) or "The edit changed nothing."


class ParagraphEditor(QFrame):
    """The in-place editor: the paragraph's text, Apply (Ctrl+Enter) and Cancel (Esc)."""

    committed = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QWidget, title: str, text: str) -> None:
        super().__init__(parent)
        self.setObjectName("paragraphEditor")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.title = QLabel(title, self)
        self.editor = QPlainTextEdit(self)
        self.editor.setObjectName("paragraphEditorText")
        self.editor.setAccessibleName(title)
        self.editor.setPlainText(text)
        self.editor.installEventFilter(self)
        self.error = QLabel(self)
        self.error.setObjectName("paragraphEditorError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #B3261E")
        self.error.hide()
        apply_button = QPushButton(self.tr("Apply as tracked change"), self)
        apply_button.setObjectName("paragraphEditorApply")
        apply_button.setDefault(True)
        apply_button.clicked.connect(self._commit)
        cancel_button = QPushButton(self.tr("Cancel"), self)
        cancel_button.clicked.connect(self.cancelled.emit)
        buttons = QHBoxLayout()
        hint = QLabel(self.tr("Ctrl+Enter applies · Esc cancels"), self)
        hint.setWordWrap(True)
        buttons.addWidget(hint, 1)
        buttons.addWidget(cancel_button)
        buttons.addWidget(apply_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.error)
        layout.addLayout(buttons)

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()

    def _commit(self) -> None:
        self.committed.emit(self.editor.toPlainText())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self.editor and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            key = event.key()
            if (
                key in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier
            ):
                self._commit()
                return True
            if key == Qt.Key.Key_Escape:
                self.cancelled.emit()
                return True
        return super().eventFilter(watched, event)


class Drafting(QObject):
    """Opens the editor over a paragraph and turns what the person typed into a tracked change.

    ``place(block_id)`` gives the editor's rectangle in the host widget's coordinates (the
    paragraph's place on screen), or None to use the top of the host.
    """

    #: the edit landed (the block id), for the status bar
    applied = Signal(str)

    def __init__(
        self,
        controller: DocumentController,
        host: QWidget,
        place: Callable[[str], QRect | None] = lambda _block: None,
    ) -> None:
        super().__init__(host)
        self._controller = controller
        self._host = host
        self._place = place
        self.editor: ParagraphEditor | None = None

    def block_text(self, block_id: str) -> str | None:
        block = self._controller.snapshot().block(block_id)
        return None if block is None else block.text

    def edit(self, block_id: str) -> ParagraphEditor | None:
        """Open the editor on ``block_id``'s text; applying rewrites the paragraph."""
        text = self.block_text(block_id)
        if text is None:
            return None
        return self._open(
            block_id,
            self.tr("Edit paragraph"),
            text,
            lambda t: rewrite_batch(block_id, t),
            self.tr("Edit paragraph"),
        )

    def insert_after(self, block_id: str) -> ParagraphEditor | None:
        """Open an empty editor; applying inserts a new paragraph after ``block_id``."""
        if self.block_text(block_id) is None:
            return None
        return self._open(
            block_id,
            self.tr("New paragraph after this one"),
            "",
            lambda t: insert_after_batch(block_id, t),
            self.tr("Insert paragraph"),
        )

    def delete(self, block_id: str) -> str | None:
        """Delete the paragraph as a tracked deletion; returns the refusal, None when done."""
        result = self._controller.apply_operations(self.tr("Delete paragraph"), delete_batch(block_id))
        why = refusal(result)
        if why is None:
            self.applied.emit(block_id)
        return why

    def cancel(self) -> None:
        if self.editor is not None:
            self.editor.deleteLater()
            self.editor = None

    def _open(
        self, block_id: str, title: str, text: str, make: Callable[[str], dict[str, Any]], label: str
    ) -> ParagraphEditor:
        self.cancel()
        editor = ParagraphEditor(self._host, title, text)
        rect = self._place(block_id)
        host = self._host.rect()
        height = max(160, min(320, host.height() // 3))
        if rect is None:
            rect = QRect(host.left() + 24, host.top() + 24, host.width() - 48, height)
        else:
            rect = QRect(rect.left(), rect.top(), max(rect.width(), 520), max(rect.height() + 90, height))
        editor.setGeometry(rect.intersected(host.adjusted(4, 4, -4, -4)))
        editor.committed.connect(lambda t: self._apply(make(t), label, block_id))
        editor.cancelled.connect(self.cancel)
        editor.show()
        editor.editor.setFocus()
        self.editor = editor
        return editor

    def _apply(self, batch: dict[str, Any], label: str, block_id: str) -> None:
        result = self._controller.apply_operations(label, batch)
        why = refusal(result)
        if why is not None:
            if self.editor is not None:
                self.editor.show_error(why)
            return
        self.cancel()
        self.applied.emit(block_id)
