"""Typing in the page as in Word with Track Changes on: every key a tracked change under the person's name.

:class:`PageTyping` watches the keys the page view receives (only while it has the keyboard, so
nothing typed into the chat or a panel ever lands in the document) and turns them into edit
engine operations applied through :meth:`DocumentController.apply_operations`, the path the
paragraph editor (F2) and the agent use: there is no second writer. Typed text is a ``typeText``
host operation, which the engine joins with the person's adjacent insertion, so a sentence typed
a key at a time is one change; Backspace and Delete mark original text deleted and take back the
person's own inserted letters; Enter splits the paragraph (``splitBlock``, or a blank paragraph
beside it at its ends), Backspace at a paragraph's start joins it to the one before (its
mark deleted by ``typeText``), except that at the start of a numbered paragraph it first takes the
number away; Tab and Shift+Tab there change its list level (``setListLevel``, a tracked
paragraph property change), elsewhere Tab types a tab; Ctrl+B/I/U on a selection is a tracked
formatting change; Ctrl+X and Ctrl+V cut and paste (what Reviewer copied keeps its bold, italic
and underline and its paragraphs, see :mod:`.pageview.clipboard`; anything else is plain text).
A selection may cross paragraphs: typing over it or deleting it deletes each paragraph's part and
the paragraph marks between them (one ``typeText``), and Ctrl+B formats each part (one batch, all
or nothing). A click in a footnote's text, or a double click in the header or footer as in Word,
puts the caret in that story (:mod:`.pageview.caret_stories`): typing, Backspace and Delete work
there within the paragraph, written into the story's part; Enter there is refused for now.

Consecutive keys of one kind are one undo step, as in Word: a burst ends when the caret moves
by any other means (a click, an arrow), when something else changes the document, or after a
pause of :data:`BURST_PAUSE_S` seconds.
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFont, QGuiApplication, QKeyEvent, QKeySequence, QUndoCommand

from ..docx.edit.batch import parse_host_batch
from ..docx.find import text_range
from ..docx.sections import ends_section
from ..docx.stories import find_story_block
from ..docx.xmlutil import W
from .document_controller import DocumentController
from .drafting import refusal, user_batch
from .pageview import PageView
from .pageview.caret import Caret
from .pageview.caret_stories import story_of
from .pageview.clipboard import copy_selection, pasted_paragraphs

#: a pause this long between two keys starts a new undo step
BURST_PAUSE_S = 3.0
_COMMAND = (
    Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier
)
_FORMAT_KEYS = {Qt.Key.Key_B: "bold", Qt.Key.Key_I: "italic", Qt.Key.Key_U: "underline"}
_TABLE_CELL = W + "tc"


class _Span(NamedTuple):
    """What a key acts on: from ``start`` of one paragraph to ``end`` of the same or a later one."""

    block_id: str
    start: int
    end_block_id: str
    end: int

    @property
    def across(self) -> bool:
        """True for a selection over several paragraphs."""
        return self.end_block_id != self.block_id

    def typed(self, text: str) -> dict[str, Any]:
        """The ``typeText`` operation that puts ``text`` in place of the span."""
        operation = {"type": "typeText", "blockId": self.block_id, "offset": self.start, "text": text}
        if self.across:
            return {**operation, "endBlockId": self.end_block_id, "endOffset": self.end}
        return {**operation, "length": self.end - self.start}


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
            return self._edit(self._paste)
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
        if key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            return self._edit(lambda: self._tab(outdent=key == Qt.Key.Key_Backtab))
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

    def _apply(
        self, label: str, operation: dict[str, Any], *more: dict[str, Any], kind: str | None = None
    ) -> dict[str, Any] | None:
        """Apply operations as the person, all or none (one undo step); the result, or None after
        telling why it was refused."""
        envelope = user_batch(operation)
        if more:
            envelope["operations"] += [user_batch(op)["operations"][0] for op in more]
            envelope["atomic"] = True
        batch = parse_host_batch(envelope)
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

    def _target(self) -> _Span | None:
        """What the key acts on: the selection (perhaps across paragraphs), else the caret (an empty
        span). None, after saying why, for a selection the engine cannot edit as one (into a table)."""
        ends = self._view.selection_ends()
        if ends is not None:
            first, last = ends
            if first.block_id != last.block_id and self._ends_section(first.block_id, last.block_id):
                self._refuse_section_break()
                return None
            if first.block_id != last.block_id and not self._plain_paragraphs(first.block_id, last.block_id):
                self.refused.emit(
                    self.tr(
                        "Select text within one table cell, or paragraphs outside tables, to type over it "
                        "or delete it."
                    )
                )
                return None
            return _Span(first.block_id, first.offset, last.block_id, last.offset)
        caret = self._view.caret()
        assert caret is not None
        offset = min(caret.offset, len(self._block_text(caret.block_id)))  # an undo may have shortened it
        return _Span(caret.block_id, offset, caret.block_id, offset)

    def _ends_section(self, first: str, last: str) -> bool:
        """Whether a paragraph from ``first`` up to ``last`` (not included) ends a section."""
        snapshot = self._controller.snapshot()
        start, end = snapshot.index_of(first), snapshot.index_of(last)
        if start is None or end is None:
            return False
        return any(b.element is not None and ends_section(b.element) for b in snapshot.blocks[start:end])

    def _refuse_section_break(self) -> None:
        """Say why a key that would delete a section break does nothing. Deleting the break (the
        mark of a section's last paragraph) would, once accepted, give the pages before it the
        layout of the section after it, as in Word; Reviewer does not write that as a tracked change."""
        self.refused.emit(
            self.tr(
                "This would delete a section break, which Reviewer does not do as a tracked change "
                "(the pages before it would take the next section's layout). Select or delete the text "
                "on each side of the break separately."
            )
        )

    def _plain_paragraphs(self, first: str, last: str) -> bool:
        """Whether the paragraphs from ``first`` to ``last`` follow one another outside any table."""
        snapshot = self._controller.snapshot()
        start, end = snapshot.index_of(first), snapshot.index_of(last)
        if start is None or end is None or end <= start:
            return False
        blocks = snapshot.blocks[start : end + 1]
        parent = blocks[0].element.getparent() if blocks[0].element is not None else None
        return all(
            b.element is not None and b.element.getparent() is parent and not self._in_table(b.id)
            for b in blocks
        )

    def _block_text(self, block_id: str) -> str:
        block = self._controller.snapshot().block(block_id)
        if block is None and story_of(block_id) is not None:
            reviewer = self._controller.reviewer
            found = find_story_block(reviewer.document, block_id) if reviewer is not None else None
            block = found[2] if found is not None else None
        return block.text if block is not None else ""

    # ------------------------------------------------------------------ the keys
    def _type(self, text: str, label: str, kind: str | None) -> None:
        """Type ``text`` over the selection or at the caret; ``kind`` joins it to a burst (None: a
        step of its own, as a paste is)."""
        target = self._target()
        if target is None or not text:
            return
        if self._apply(label, target.typed(text), kind=kind) is not None:
            self._put_caret(target.block_id, target.start + len(text))

    def _delete(self, forward: bool) -> None:
        target = self._target()
        if target is None:
            return
        block_id, start, end = target.block_id, target.start, target.end
        if target.across:
            if self._apply(self.tr("Delete"), target.typed(""), kind="delete") is not None:
                self._put_caret(block_id, start)
            return
        if start == end:
            length = len(self._block_text(block_id))
            if forward and end >= length:
                self._join(block_id, caret=Caret(block_id, end))
                return
            if not forward and start == 0 and self._list_level(block_id) is not None:
                self._renumber(block_id, None)  # as in Word: the number goes first, a second key joins
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
        if self._apply(self.tr("Delete"), operation, kind="delete") is not None:
            self._put_caret(block_id, start)

    def _cut(self) -> None:
        if self._view.selection_ends() is not None and copy_selection(self._view):
            self._delete(forward=False)

    def _paste(self) -> None:
        """Paste what Reviewer copied with its runs' formatting and paragraphs (one tracked
        insertion, see :mod:`..docx.edit.ops_paste`), also over a selection across paragraphs;
        anything else as plain text."""
        mime = QGuiApplication.clipboard().mimeData()
        paragraphs = pasted_paragraphs(mime)
        if paragraphs is None:
            self._type(mime.text().replace("\r\n", "\n"), self.tr("Paste"), None)
            return
        target = self._target()
        if target is None:
            return
        operation: dict[str, Any] = {
            "type": "pasteRuns",
            "blockId": target.block_id,
            "offset": target.start,
            "paragraphs": paragraphs,
        }
        if target.across:
            operation.update(endBlockId=target.end_block_id, endOffset=target.end)
        else:
            operation["length"] = target.end - target.start
        if self._apply(self.tr("Paste"), operation) is None:
            return
        block_id: str | None = target.block_id
        for _ in paragraphs[1:]:  # the caret ends after the last pasted paragraph's text
            block_id = self._neighbour(block_id, 1) if block_id is not None else None
        last = sum(len(run["text"]) for run in paragraphs[-1])
        if block_id is not None:
            self._put_caret(block_id, last + (target.start if len(paragraphs) == 1 else 0))

    def _join(self, block_id: str, caret: Caret) -> None:
        """Join ``block_id`` with the paragraph after it: its mark deleted (tracked), as a selection
        of nothing but that mark would be, so a change of the person's own to the properties of
        the paragraph after it (a number taken away) is gone on from rather than refused."""
        following = self._neighbour(block_id, 1)
        if following is None:
            return
        if self._ends_section(block_id, following):
            self._refuse_section_break()
            return
        mark = _Span(block_id, len(self._block_text(block_id)), following, 0)
        if self._apply(self.tr("Join paragraphs"), mark.typed("")):
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
        block_id, start = target.block_id, target.start
        if story_of(block_id) is not None:
            self.refused.emit(self.tr("Enter in a footnote, header or footer is not supported yet."))
            return
        if target.across or target.end > start:
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

    def _tab(self, outdent: bool) -> None:
        """At the start of a numbered paragraph, one list level down (Shift+Tab: up); elsewhere a tab."""
        target = self._target()
        if target is None:
            return
        level = self._list_level(target.block_id)
        if target.across or target.end > target.start or target.start > 0 or level is None:
            if not outdent:
                self._type("\t", self.tr("Typing"), "typing")
            return
        self._renumber(target.block_id, max(0, min(8, level + (-1 if outdent else 1))))

    def _list_level(self, block_id: str) -> int | None:
        """The list level of a numbered paragraph (None when it has no number)."""
        block = self._controller.snapshot().block(block_id)
        reference = block.list_reference if block is not None else None
        return None if reference is None else int(reference["level"])

    def _renumber(self, block_id: str, level: int | None) -> None:
        """Put the paragraph at list ``level`` (None: take its number away); the caret stays at its start."""
        operation = {"type": "setListLevel", "blockId": block_id, "level": level}
        if self._apply(self.tr("List level") if level is not None else self.tr("Remove number"), operation):
            self._put_caret(block_id, 0)

    def _in_table(self, block_id: str) -> bool:
        block = self._controller.snapshot().block(block_id)
        element = block.element if block is not None else None
        return element is not None and next(element.iterancestors(_TABLE_CELL), None) is not None

    def _format(self, name: str) -> None:
        """Bold, italic or underline the selection, each paragraph's part of it (off when its first
        character has it already)."""
        ends = self._view.selection_ends()
        if ends is None:
            self.refused.emit(self.tr("Select the text to format first."))
            return
        first, last = ends
        snapshot = self._controller.snapshot()
        start, end = snapshot.index_of(first.block_id), snapshot.index_of(last.block_id)
        if start is None or end is None:
            return
        on = not self._has_format(name)
        operations = []
        for block in snapshot.blocks[start : end + 1]:
            a = first.offset if block.id == first.block_id else 0
            z = last.offset if block.id == last.block_id else len(block.text)
            if z > a:
                operations.append(
                    {"type": "formatRange", "range": text_range(block, a, z), "formatting": {name: on}}
                )
        if operations and self._apply(self.tr("Format"), *operations) is not None:
            self._view.select_between(first, last)

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
