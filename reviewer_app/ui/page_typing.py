"""Typing in the page as in Word with Track Changes on: every key a tracked change under the person's name.

:class:`PageTyping` watches the keys the page view receives (only while it has the keyboard, so
nothing typed into the chat or a panel ever lands in the document) and turns them into edit
engine operations applied through :meth:`DocumentController.apply_operations`, the path the
paragraph editor (F2) and the agent use: there is no second writer. Typed text is a ``typeText``
host operation, which the engine joins with the person's adjacent insertion, so a sentence typed
a key at a time is one change; Backspace and Delete mark original text deleted and take back the
person's own inserted letters; Enter splits the paragraph (``splitBlock``, or a blank paragraph
beside it at its ends), Backspace at a paragraph's start joins it to the one before
(``mergeBlockWithNext``); Ctrl+B/I/U on a selection is a tracked formatting change; Ctrl+X and
Ctrl+V cut and paste plain text.

Consecutive keys of one kind are one undo step, as in Word: a burst ends when the caret moves
by any other means (a click, an arrow), when something else changes the document, or after a
pause of :data:`BURST_PAUSE_S` seconds.
"""

from __future__ import annotations

import time
from typing import Any

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication, QKeyEvent, QKeySequence, QUndoCommand

from ..docx.edit.batch import parse_host_batch
from ..docx.find import text_range
from ..docx.xmlutil import W
from .document_controller import DocumentController
from .drafting import refusal, user_batch
from .pageview import PageView
from .pageview.caret import Caret

#: a pause this long between two keys starts a new undo step
BURST_PAUSE_S = 3.0
_COMMAND = (
    Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier
)
_FORMAT_KEYS = {Qt.Key.Key_B: "bold", Qt.Key.Key_I: "italic", Qt.Key.Key_U: "underline"}
_TABLE_CELL = W + "tc"


class PageTyping(QObject):
    """Keys on the page view become tracked edits (see the module docstring)."""

    #: a key could not be applied: why, in words for the status bar
    refused = Signal(str)

    def __init__(self, controller: DocumentController, view: PageView) -> None:
        super().__init__(view)
        self._controller = controller
        self._view = view
        self._burst = 0
        self._burst_kind = ""
        self._last_key = 0.0
        self._applying = False
        #: per undo step of the person's keys (its index on the stack): the caret before and after it,
        #: so Undo puts the caret back where the undone typing began and Redo where it ended
        self._steps: dict[int, tuple[QUndoCommand, Caret | None, Caret]] = {}
        self._step: tuple[int, Caret | None] | None = None  # the step the last applied key joined
        self._index = controller.undo_stack.index()
        view.installEventFilter(self)
        view.caret_changed.connect(self._caret_moved)
        controller.undo_stack.indexChanged.connect(self._history_moved)
        controller.document_loaded.connect(self._forget_steps)

    # ------------------------------------------------------------------ events
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        # only keys typed on the pages themselves: a key a child (the F2 editor) left unused
        # reaches the view too, and must not edit the document behind the person's back
        if (
            watched is self._view
            and event.type() == QEvent.Type.KeyPress
            and self._view.window().focusWidget() is self._view
        ):
            assert isinstance(event, QKeyEvent)
            return self._key(event)
        return super().eventFilter(watched, event)

    def _key(self, event: QKeyEvent) -> bool:
        """Handle ``event`` when it edits; False leaves it to the view (arrows, copy, scrolling)."""
        if self._view.caret() is None or self._controller.reviewer is None:
            return False
        key, modifiers = event.key(), event.modifiers()
        command = bool(modifiers & _COMMAND)
        if event.matches(QKeySequence.StandardKey.Paste):
            pasted = QGuiApplication.clipboard().text().replace("\r\n", "\n")
            return self._edit(lambda: self._type(pasted, self.tr("Paste"), None))
        if event.matches(QKeySequence.StandardKey.Cut):
            return self._edit(self._cut)
        style = _FORMAT_KEYS.get(key)
        if command and style is not None and not modifiers & Qt.KeyboardModifier.ShiftModifier:
            return self._edit(lambda: self._format(style))
        text = event.text()
        # Ctrl+Alt with a character is AltGr on Windows (a shortcut would have been taken before)
        alt_gr = (
            modifiers & Qt.KeyboardModifier.ControlModifier and modifiers & Qt.KeyboardModifier.AltModifier
        )
        if text and text.isprintable() and (not command or alt_gr):
            return self._edit(lambda: self._type(text, self.tr("Typing"), "typing"))
        if command:
            return False
        if key == Qt.Key.Key_Backspace:
            return self._edit(lambda: self._delete(forward=False))
        if key == Qt.Key.Key_Delete:
            return self._edit(lambda: self._delete(forward=True))
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            return self._edit(self._enter)
        return False

    def _edit(self, act: Any) -> bool:
        """Run an editing key's act unless the document must not change; the key is used either way."""
        if self._view.markup_mode() == "original":
            self.refused.emit(
                self.tr("The Original view shows the document as it was; switch to All Markup to edit it.")
            )
            return True
        act()
        return True

    def _caret_moved(self) -> None:
        if not self._applying:
            self._burst += 1

    def _forget_steps(self) -> None:
        """Another document: its undo history starts again, and so do the carets of its steps."""
        self._steps.clear()
        self._step = None
        self._index = self._controller.undo_stack.index()

    def _history_moved(self, index: int) -> None:
        last, self._index = self._index, index
        if self._applying:
            return
        self._burst += 1  # undo, redo or another act: the next key starts a new step
        stack = self._controller.undo_stack
        if not shiboken6.isValid(stack):
            return  # the window is closing and its history is being freed
        undone = index < last
        at = index if undone else index - 1
        step = self._steps.get(at)
        if step is None or stack.command(at) is not step[0]:
            return  # not a step of the person's keys (or one another act has since replaced)
        caret = step[1] if undone else step[2]
        if caret is not None:
            self._place(caret)

    # ------------------------------------------------------------------ applying
    def _join_key(self, kind: str) -> tuple[int, str]:
        now = time.monotonic()
        if kind != self._burst_kind or now - self._last_key > BURST_PAUSE_S:
            self._burst += 1
        self._burst_kind, self._last_key = kind, now
        return self._burst, kind

    def _apply(self, label: str, operation: dict[str, Any], kind: str | None = None) -> dict[str, Any] | None:
        """Apply one operation as the person; the result, or None after telling why it was refused."""
        batch = parse_host_batch(user_batch(operation))
        join = self._join_key(kind) if kind is not None else None
        stack = self._controller.undo_stack
        before, caret = stack.index(), self._view.caret()
        self._applying = True
        try:
            result = self._controller.apply_operations(label, batch, join=join)
        finally:
            self._applying = False
        why = refusal(result)
        if why is not None:
            self._burst += 1
            self.refused.emit(why)
            return None
        if kind is None:
            self._burst += 1
        step = stack.index() - 1
        joined = stack.index() == before and self._step is not None and self._step[0] == step
        self._step = (step, self._step[1] if joined and self._step is not None else caret)
        for later in [k for k in self._steps if k > step]:
            del self._steps[later]
        return result

    def _put_caret(self, block_id: str, offset: int) -> None:
        """Put the caret after an applied key, and note it as where the key's undo step ends."""
        caret = Caret(block_id, offset)
        stack = self._controller.undo_stack
        if self._step is not None and stack.index() == self._step[0] + 1:
            self._steps[self._step[0]] = (stack.command(self._step[0]), self._step[1], caret)
        self._place(caret)

    def _place(self, caret: Caret) -> None:
        self._applying = True
        try:
            self._view.clear_selection()
            self._view.set_caret(caret.block_id, caret.offset)
        finally:
            self._applying = False

    def _target(self) -> tuple[str, int, int] | None:
        """(block, start, end) the key acts on: the selection, else the caret (start == end).

        None, after saying so, for a selection over several paragraphs (not editable as one yet).
        """
        selected = self._view.selection_range()
        if selected is not None:
            if self._view.selection_text() != self._block_text(selected[0])[selected[1] : selected[2]]:
                self.refused.emit(self.tr("Select text within one paragraph to type over it or delete it."))
                return None
            return selected
        caret = self._view.caret()
        assert caret is not None
        offset = min(caret.offset, len(self._block_text(caret.block_id)))  # an undo may have shortened it
        return caret.block_id, offset, offset

    def _block_text(self, block_id: str) -> str:
        block = self._controller.snapshot().block(block_id)
        return block.text if block is not None else ""

    # ------------------------------------------------------------------ the keys
    def _type(self, text: str, label: str, kind: str | None) -> None:
        """Type ``text`` over the selection or at the caret; ``kind`` joins it to a burst (None: a
        step of its own, as a paste is)."""
        target = self._target()
        if target is None or not text:
            return
        block_id, start, end = target
        operation = {"type": "typeText", "blockId": block_id, "offset": start, "length": end - start}
        if self._apply(label, {**operation, "text": text}, kind) is not None:
            self._put_caret(block_id, start + len(text))

    def _delete(self, forward: bool) -> None:
        target = self._target()
        if target is None:
            return
        block_id, start, end = target
        if start == end:
            length = len(self._block_text(block_id))
            if forward and end >= length:
                self._join(block_id, caret=Caret(block_id, end))
                return
            if not forward and start == 0:
                previous = self._neighbour(block_id, -1)
                if previous is not None:
                    self._join(previous, caret=Caret(previous, len(self._block_text(previous))))
                return
            start, end = (start, start + 1) if forward else (start - 1, start)
        operation = {
            "type": "typeText",
            "blockId": block_id,
            "offset": start,
            "length": end - start,
            "text": "",
        }
        if self._apply(self.tr("Delete"), operation, "delete") is not None:
            self._put_caret(block_id, start)

    def _cut(self) -> None:
        text = self._view.selection_text()
        if text and self._view.selection_range() is not None:
            QGuiApplication.clipboard().setText(text)
            self._delete(forward=False)

    def _join(self, block_id: str, caret: Caret) -> None:
        """Join ``block_id`` with the paragraph after it (its mark deleted, tracked)."""
        if self._apply(self.tr("Join paragraphs"), {"type": "mergeBlockWithNext", "blockId": block_id}):
            self._put_caret(caret.block_id, caret.offset)

    def _neighbour(self, block_id: str, step: int) -> str | None:
        snapshot = self._controller.snapshot()
        index = snapshot.index_of(block_id)
        if index is None or not 0 <= index + step < len(snapshot.blocks):
            return None
        return snapshot.blocks[index + step].id

    def _enter(self) -> None:
        """Split the paragraph at the caret; at its end (start) add a blank one after (before) it."""
        target = self._target()
        if target is None:
            return
        block_id, start, end = target
        if end > start:
            self._delete(forward=False)
        length = len(self._block_text(block_id))
        if 0 < start < length:
            operation: dict[str, Any] = {"type": "splitBlock", "blockId": block_id, "offset": start}
        elif self._in_table(block_id):
            self.refused.emit(self.tr("Enter at the start or end of a table cell is not supported yet."))
            return
        else:
            where = "insertAfterBlock" if start >= length else "insertBeforeBlock"
            operation = {"type": where, "blockId": block_id, "text": ""}
        if self._apply(self.tr("New paragraph"), operation) is None:
            return
        if operation["type"] == "insertBeforeBlock":
            self._put_caret(block_id, 0)
            return
        following = self._neighbour(block_id, 1)
        if following is not None:
            self._put_caret(following, 0)

    def _in_table(self, block_id: str) -> bool:
        block = self._controller.snapshot().block(block_id)
        element = block.element if block is not None else None
        return element is not None and next(element.iterancestors(_TABLE_CELL), None) is not None

    def _format(self, name: str) -> None:
        """Bold, italic or underline the selection (off when its first character has it already)."""
        selected = self._view.selection_range()
        if selected is None:
            self.refused.emit(self.tr("Select the text to format first."))
            return
        block_id, start, end = selected
        block = self._controller.snapshot().block(block_id)
        if block is None:
            return
        on = not self._has_format(name)
        operation = {"type": "formatRange", "range": text_range(block, start, end), "formatting": {name: on}}
        if self._apply(self.tr("Format"), operation) is not None:
            self._view.set_selection(block_id, start, end)

    def _has_format(self, name: str) -> bool:
        """Whether the selection's first character shows ``name`` on the page now."""
        char = self._view.selection_format()
        if char is None:
            return False
        if name == "bold":
            return char.fontWeight() >= QFont.Weight.Bold
        if name == "italic":
            return char.fontItalic()
        return char.fontUnderline()
