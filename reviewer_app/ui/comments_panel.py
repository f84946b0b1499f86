"""The comments panel: every comment thread of the open document, answered as the person.

Threads are listed in document order, each with its anchor quote, replies and resolved state.
Reply, Resolve, Reopen and New comment all go through the :class:`DocumentController`, so each is
one undo step authored by :attr:`DocumentController.author`.

Resolved threads stay in the list, collapsed and greyed, as Word shows them: a lawyer checking
what was settled with the other side needs them, and "Show resolved" hides them when only the
open points matter. The count line ("3 open · 2 resolved") says what is hidden.

New comment anchors on the text selected in the page view (``selection_provider``). With no
selection the button stays enabled and says what to do instead of guessing a passage: a comment
on the wrong clause is worse than one more click.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..docx.comments import comment_dates
from ..docx.edit.batch import ContractError
from ..docx.find import text_range
from .comment_thread_widget import CommentComposer, CommentThreadWidget, ElidedLabel
from .document_controller import DocumentController

log = logging.getLogger(__name__)

#: ``() -> (block id, start, end)`` of the page view's selection (clean-text offsets), or None
SelectionProvider = Callable[[], tuple[str, int, int] | None]
#: ``block id -> 0-based page`` as laid out (``PageIndex.page_of_block``), or None when unknown
PageOfBlock = Callable[[str], int | None]

_STYLE = """
QFrame#commentThread { border: 1px solid palette(mid); border-radius: 4px; background: palette(base); }
QFrame#commentThread[selected="true"] { border: 2px solid palette(highlight); }
QFrame#commentReply { border: none; border-left: 2px solid palette(midlight); }
QFrame#newCommentBox { border: 1px solid palette(highlight); border-radius: 4px; background: palette(base); }
"""


def _translate(text: str) -> str:
    return QCoreApplication.translate("CommentsPanel", text)


class CommentNotAddedError(Exception):
    """A new comment could not be anchored; the message tells the person what to do."""


def _skip_message(reason: str | None) -> str:
    if reason in ("staleRange", "splitsCharacter", "missingBlock", "changedBlock", "preconditionFailed"):
        return _translate("The selected text has changed. Select it again in the document, then send.")
    return _translate("The comment could not be added to this passage. Select the text again, then send.")


def add_comment_on_range(
    controller: DocumentController, block_id: str, start: int, end: int, text: str
) -> str:
    """Comment on ``[start, end)`` of block ``block_id`` (clean-text offsets) as the person, as one
    undo step; return the new comment's id.

    The comment goes through the engine's ``commentOnRange`` operation (contract §5.5) rather than
    a writer call of its own, so it is anchored, stamped and checked exactly like the agent's.
    Raises :class:`CommentNotAddedError` when the range no longer holds the selected text.
    """
    block = controller.snapshot().block(block_id)
    if block is None or not 0 <= start < end <= len(block.text):
        raise CommentNotAddedError(_skip_message("staleRange"))
    operation = {
        "id": "comment-1",
        "type": "commentOnRange",
        "range": text_range(block, start, end),
        "comment": {"text": text},
    }
    batch = {"version": 1, "mode": "tracked-changes", "operations": [operation]}
    try:
        result = controller.apply_operations(_translate("New comment"), batch)
    except ContractError as error:
        log.info("New comment refused by the contract: %s", error)
        raise CommentNotAddedError(_skip_message(None)) from error
    applied = result.get("applied") or []
    if result.get("status") == "committed" and applied and applied[0].get("commentId"):
        return str(applied[0]["commentId"])
    reason = next((s.get("reason") for s in result.get("skipped") or []), None)
    log.info("New comment skipped: %s", reason)
    raise CommentNotAddedError(_skip_message(reason))


class CommentsPanel(QWidget):
    """The list of comment threads with Reply, Resolve/Reopen, New comment and a resolved filter."""

    #: the person picked a thread: the page view shows its anchor (``PageView.select_comment``)
    comment_selected = Signal(str)

    def __init__(
        self,
        controller: DocumentController,
        parent: QWidget | None = None,
        *,
        selection_provider: SelectionProvider | None = None,
        page_of_block: PageOfBlock | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("commentsPanel")
        self.setStyleSheet(_STYLE)
        self.controller = controller
        #: where New comment finds the text to anchor on (settable once the page view exists)
        self.selection_provider = selection_provider
        #: page numbers for the thread headers (settable; call :meth:`refresh` when layout finishes)
        self.page_of_block = page_of_block
        self._threads: dict[str, CommentThreadWidget] = {}
        self._order: list[str] = []
        self._thread_of: dict[str, str] = {}  # comment or reply id -> its thread's id
        self._selected_id: str | None = None
        self._pending_range: tuple[str, int, int] | None = None
        self._stale = False
        self._build()
        controller.document_loaded.connect(self._document_loaded)
        controller.document_changed.connect(self._document_changed)
        self._document_loaded()

    def _build(self) -> None:
        self.new_button = QPushButton(self.tr("New comment"), self)
        self.new_button.setToolTip(self.tr("Comment on the text selected in the document"))
        self.show_resolved = QCheckBox(self.tr("Show resolved"), self)
        self.show_resolved.setChecked(True)
        self.count_label = QLabel(self)
        self.count_label.setObjectName("commentCounts")
        self.hint_label = QLabel(self)
        self.hint_label.setWordWrap(True)
        self.hint_label.hide()
        self.new_box = QFrame(self)
        self.new_box.setObjectName("newCommentBox")
        self.new_quote = ElidedLabel("", self.new_box)
        self.new_composer = CommentComposer(self.tr("Comment…"), self.tr("Comment"), self.new_box)
        box_layout = QVBoxLayout(self.new_box)
        box_layout.setContentsMargins(10, 8, 10, 6)
        box_layout.addWidget(self.new_quote)
        box_layout.addWidget(self.new_composer)
        self.new_box.hide()
        self.empty_label = QLabel(self)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setWordWrap(True)
        self.empty_label.setObjectName("commentsEmpty")
        self._list = QWidget()
        self._list.setObjectName("commentThreads")
        self._list_layout = QVBoxLayout(self._list)
        self._list_layout.setContentsMargins(6, 6, 6, 6)
        self._list_layout.setSpacing(8)
        self._list_layout.addWidget(self.empty_label)
        self._list_layout.addStretch(1)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(self._list)
        bar = QHBoxLayout()
        bar.addWidget(self.new_button)
        bar.addStretch(1)
        bar.addWidget(self.show_resolved)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.setSpacing(4)
        layout.addLayout(bar)
        layout.addWidget(self.count_label)
        layout.addWidget(self.hint_label)
        layout.addWidget(self.new_box)
        layout.addWidget(self.scroll_area, 1)
        self.new_button.clicked.connect(self.start_new_comment)
        self.show_resolved.toggled.connect(self._apply_filter)
        self.new_composer.submitted.connect(self._send_new_comment)
        self.new_composer.cancelled.connect(self._close_new_comment)

    # ------------------------------------------------------------------ public
    def thread_widget(self, comment_id: str) -> CommentThreadWidget | None:
        """The widget showing the thread that holds ``comment_id`` (a top-level comment or a reply)."""
        return self._threads.get(self._thread_of.get(comment_id, comment_id))

    def thread_ids(self) -> list[str]:
        """The listed threads' ids in document order (hidden resolved ones included)."""
        return list(self._order)

    def selected_comment(self) -> str | None:
        return self._selected_id

    def select_comment(self, comment_id: str) -> None:
        """Highlight the thread holding ``comment_id`` and scroll to it, without emitting
        :attr:`comment_selected` (the page view asked; telling it back would loop)."""
        if self._stale:
            self.refresh()
        thread_id = self._thread_of.get(comment_id)
        if thread_id is None:
            return
        self._set_selected(thread_id)
        widget = self._threads[thread_id]
        self._list_layout.activate()
        self.scroll_area.ensureWidgetVisible(widget, 0, 8)

    def refresh(self) -> None:
        """Re-read the comments and update the list in place (drafts and scroll position stay)."""
        self._stale = False
        reviewer = self.controller.reviewer
        threads = reviewer.comments() if reviewer is not None else []
        dates = comment_dates(reviewer.document) if reviewer is not None else {}
        scrolled = self.scroll_area.verticalScrollBar().value()
        order = [thread["id"] for thread in threads]
        self._thread_of = {}
        for thread in threads:
            widget = self._threads.get(thread["id"]) or self._new_thread_widget(thread["id"])
            widget.set_thread(thread, dates, self._page(thread.get("blockId")))
            self._thread_of[thread["id"]] = thread["id"]
            self._thread_of.update((reply["id"], thread["id"]) for reply in thread["replies"])
        for gone in set(self._threads) - set(order):
            widget = self._threads.pop(gone)
            self._list_layout.removeWidget(widget)
            widget.deleteLater()
            if gone == self._selected_id:
                self._selected_id = None
        if order != self._order:
            for widget in self._threads.values():
                self._list_layout.removeWidget(widget)
            for index, thread_id in enumerate(order):
                self._list_layout.insertWidget(index, self._threads[thread_id])
            self._order = order
        self._apply_filter()
        self._list_layout.activate()
        self.scroll_area.verticalScrollBar().setValue(scrolled)

    def start_new_comment(self) -> None:
        """Open the new-comment box on the page view's selection, or say how to make one."""
        selection = self.selection_provider() if self.selection_provider is not None else None
        block = None
        if selection is not None and self.controller.reviewer is not None:
            block = self.controller.snapshot().block(selection[0])
        if block is None or not 0 <= selection[1] < selection[2] <= len(block.text):
            self.hint_label.setText(
                self.tr("Select the text you want to comment on in the document, then press New comment.")
            )
            self.hint_label.show()
            return
        self.hint_label.hide()
        self._pending_range = selection
        quoted = "\u201c" + block.text[selection[1] : selection[2]] + "\u201d"
        self.new_quote.set_full_text(self.tr("Comment on {0}").format(quoted))
        self.new_composer.show_error("")
        self.new_box.show()
        self.new_composer.editor.setFocus()

    # ------------------------------------------------------------------ reactions
    def _document_loaded(self) -> None:
        """A different document: drop every thread (and draft) that belonged to the old one."""
        for widget in self._threads.values():
            self._list_layout.removeWidget(widget)
            widget.deleteLater()
        self._threads.clear()
        self._order = []
        self._selected_id = None
        self._close_new_comment()
        self.hint_label.hide()
        self.new_button.setEnabled(self.controller.reviewer is not None)
        self.refresh()

    def _document_changed(self, _touched: object) -> None:
        # any change may add or remove a comment (undo, the agent's add_comment), so every change
        # re-reads them; while the panel is hidden that waits until it is shown again
        if self.isVisible():
            self.refresh()
        else:
            self._stale = True

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def _new_thread_widget(self, thread_id: str) -> CommentThreadWidget:
        widget = CommentThreadWidget(thread_id, self._list)
        widget.activated.connect(self._thread_activated)
        widget.reply_submitted.connect(self._send_reply)
        widget.resolve_requested.connect(self._resolve)
        widget.delete_requested.connect(self.controller.delete_comment)
        self._threads[thread_id] = widget
        return widget

    def _thread_activated(self, thread_id: str) -> None:
        self._set_selected(thread_id)
        self.comment_selected.emit(thread_id)

    def _set_selected(self, thread_id: str | None) -> None:
        self._selected_id = thread_id
        for widget_id, widget in self._threads.items():
            widget.set_selected(widget_id == thread_id)
        self._apply_filter()

    def _send_reply(self, thread_id: str, text: str) -> None:
        widget = self._threads[thread_id]
        if self.controller.reply_to_comment(thread_id, text):
            widget = self._threads.get(thread_id, widget)
            widget.close_reply()
        else:
            widget.composer.show_error(self.tr("This comment is no longer in the document."))

    def _resolve(self, thread_id: str, resolved: bool) -> None:
        self.controller.resolve_comment(thread_id, resolved)

    def _send_new_comment(self, text: str) -> None:
        if self._pending_range is None or self.controller.reviewer is None:
            return
        try:
            comment_id = add_comment_on_range(self.controller, *self._pending_range, text)
        except CommentNotAddedError as error:
            self.new_composer.show_error(str(error))
            return
        self._close_new_comment()
        if self._stale:
            self.refresh()
        self.select_comment(comment_id)
        self.comment_selected.emit(comment_id)

    def _close_new_comment(self) -> None:
        self._pending_range = None
        self.new_composer.reset()
        self.new_box.hide()

    # ------------------------------------------------------------------ display
    def _page(self, block_id: str | None) -> int | None:
        if block_id is None or self.page_of_block is None:
            return None
        return self.page_of_block(block_id)

    def _apply_filter(self) -> None:
        """Show or hide resolved threads (a selected one always shows) and update the counts."""
        show_resolved = self.show_resolved.isChecked()
        resolved = sum(widget.resolved for widget in self._threads.values())
        open_count = len(self._threads) - resolved
        for thread_id, widget in self._threads.items():
            widget.setVisible(show_resolved or not widget.resolved or thread_id == self._selected_id)
        visible = sum(not widget.isHidden() for widget in self._threads.values())
        if self.controller.reviewer is None:
            self.empty_label.setText(self.tr("Open a document to see its comments."))
        elif not self._threads:
            self.empty_label.setText(self.tr("No comments"))
        else:
            self.empty_label.setText(self.tr("No open comments"))
        self.empty_label.setVisible(visible == 0)
        self.count_label.setVisible(bool(self._threads))
        counts = self.tr("%n open", "", open_count) + " \u00b7 " + self.tr("%n resolved", "", resolved)
        if resolved and not show_resolved:
            counts += " " + self.tr("(hidden)")
        self.count_label.setText(counts)
