"""The comments panel: every comment thread of the open document, answered as the person.

Threads are listed in document order, each with its anchor quote, replies and resolved state.
They are rows of a model/view list (:mod:`.comment_thread_model`, :mod:`.comment_thread_delegate`,
:mod:`.comment_thread_view`): a change to the document updates the rows that differ, so opening a
contract with 2,000 comments and answering one of them stay quick.
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

import functools
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QItemSelectionModel, QModelIndex, QRect, Qt, QTimer, Signal
from PySide6.QtGui import QPalette, QShowEvent
from PySide6.QtWidgets import QCheckBox, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..docx.comment_coverage import commented_blocks, leaves_comments
from ..docx.comments import comment_dates
from ..docx.edit.batch import ContractError
from ..docx.find import text_range
from ..docx.weak_links import weak_method
from .comment_thread_delegate import CommentThreadDelegate, ThreadLayout
from .comment_thread_model import CommentThreadModel, ThreadRow
from .comment_thread_view import CommentThreadView
from .comment_thread_widget import CommentComposer, ElidedLabel
from .document_controller import DocumentController

log = logging.getLogger(__name__)

#: ``() -> (block id, start, end)`` of the page view's selection (clean-text offsets), or None
SelectionProvider = Callable[[], tuple[str, int, int] | None]
#: ``block id -> 0-based page`` as laid out (``PageIndex.page_of_block``), or None when unknown
PageOfBlock = Callable[[str], int | None]

#: how long typing pauses before the thread headers' page numbers follow the lines it moved
TYPING_PAUSE_MS = 400

_STYLE = """
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


def _unknown() -> frozenset[str] | None:
    """The blocks covered when no comments were read: unknown, so any change re-reads them."""
    return None


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
        self._hidden: set[str] = set()  # threads the resolved filter hides
        self._composers: dict[str, CommentComposer] = {}  # open reply boxes by thread id
        #: each shown row with what it was made from (the engine's thread, the very dict, and its
        #: page), so a refresh makes rows only for the threads that changed
        self._sources: dict[str, tuple[dict[str, Any], int | None, ThreadRow]] = {}
        self._syncing = False  # the selection is being set for the page view: do not tell it back
        self._pending_range: tuple[str, int, int] | None = None
        self._stale = False
        #: the threads last read, their comments' dates, and the blocks their anchors cover
        #: (None: unknown), so a change elsewhere keeps them without reading every comment again;
        #: dates and blocks are worked out when first asked for (a comment act never needs them)
        self._threads: list[dict[str, Any]] = []
        self._dates: Callable[[], dict[str, str | None]] = dict
        self._covered: Callable[[], frozenset[str] | None] = _unknown
        #: the page numbers waiting for the person to stop typing (see :meth:`_document_changed`)
        self._after_typing = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._after_typing.timeout.connect(self._update_pages)
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
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.empty_label.setWordWrap(True)
        self.empty_label.setObjectName("commentsEmpty")
        self.model = CommentThreadModel(self)
        self.delegate = CommentThreadDelegate(self.model, self)
        self.model.size_of = weak_method(self.delegate.size_of)  # held strongly: a cycle with the delegate
        self.delegate.sizes_changed.connect(self.model.refresh_sizes)
        self.list_view = CommentThreadView(self.model, self.delegate, self)
        self.list_view.overlays = self._composers  # type: ignore[assignment]
        self.delegate.set_font(self.list_view.font())
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
        layout.addWidget(self.empty_label, 1)
        layout.addWidget(self.list_view, 1)
        self.new_button.clicked.connect(self.start_new_comment)
        self.show_resolved.toggled.connect(self._apply_filter)
        self.new_composer.submitted.connect(self._send_new_comment)
        self.new_composer.cancelled.connect(self._close_new_comment)
        self.list_view.action_clicked.connect(self._action_clicked)
        self.list_view.selectionModel().currentChanged.connect(self._current_changed)
        self.list_view.pressed.connect(self._pressed)

    # ------------------------------------------------------------------ public
    def thread_ids(self) -> list[str]:
        """The listed threads' ids in document order (hidden resolved ones included)."""
        return [row.id for row in self.model.rows()]

    def thread_row(self, comment_id: str) -> ThreadRow | None:
        """What is shown of the thread holding ``comment_id`` (a top-level comment or a reply)."""
        thread_id = self.model.thread_of(comment_id)
        return None if thread_id is None else self.model.row(thread_id)

    def thread_layout(self, comment_id: str) -> ThreadLayout | None:
        """The pieces painted for the thread holding ``comment_id``, as the view lays it out now."""
        row = self.thread_row(comment_id)
        return None if row is None else self.delegate.layout_of(row)

    def thread_rect(self, comment_id: str) -> QRect | None:
        """Where the thread holding ``comment_id`` is drawn, in the list's viewport coordinates."""
        row = self.thread_row(comment_id)
        at = None if row is None else self.model.row_index(row.id)
        if at is None or self.list_view.isRowHidden(at):
            return None
        return self.list_view.visualRect(self.model.index(at, 0))

    def action_rect(self, thread_id: str, action: str) -> QRect | None:
        """Where the thread's "reply", "resolve" or "delete" button is drawn (viewport coordinates)."""
        return self.list_view.action_rect(thread_id, action)

    def is_thread_shown(self, thread_id: str) -> bool:
        """False when the resolved filter hides the thread."""
        return self.model.row(thread_id) is not None and thread_id not in self._hidden

    def reply_composer(self, thread_id: str) -> CommentComposer | None:
        """The thread's open reply box, None when none is open."""
        return self._composers.get(thread_id)

    def selected_comment(self) -> str | None:
        return self.delegate.selected_id

    def select_comment(self, comment_id: str) -> None:
        """Highlight the thread holding ``comment_id`` and scroll to it, without emitting
        :attr:`comment_selected` (the page view asked; telling it back would loop)."""
        if self._stale:
            self.refresh()
        thread_id = self.model.thread_of(comment_id)
        if thread_id is None:
            return
        self._syncing = True
        try:
            self._set_selected(thread_id)
        finally:
            self._syncing = False
        at = self.model.row_index(thread_id)
        if at is not None:
            self.list_view.scrollTo(self.model.index(at, 0))

    def refresh(self) -> None:
        """Re-read the comments and update the rows that changed (drafts and scroll position stay)."""
        self._stale = False
        self._after_typing.stop()
        reviewer = self.controller.reviewer
        if reviewer is None:
            self._threads, self._covered, self._dates = [], _unknown, dict  # the closed document is freed
            self._show_rows([])
            return
        threads = reviewer.comment_threads()

        @functools.cache
        def dates() -> dict[str, str | None]:
            # read once per document state, like the comments themselves, and only if a row is made
            return reviewer.snapshot().memo(
                "commentDates", lambda _snapshot: comment_dates(reviewer.document)
            )

        snapshot = reviewer.snapshot()
        self._threads, self._dates = threads, dates
        # following every range costs ~20 ms on 2,000 threads: pay it on the first key typed after
        # this reading, not on every reply, resolve or new comment, which re-read anyway
        self._covered = functools.cache(lambda: commented_blocks(snapshot, threads))
        self._show_rows(self._rows_of(threads, dates))

    def _update_pages(self) -> None:
        """Show the threads as last read on the pages where the layout has them now."""
        self._show_rows(self._rows_of(self._threads, self._dates))

    def _rows_of(
        self, threads: list[dict[str, Any]], dates: Callable[[], dict[str, str | None]]
    ) -> list[ThreadRow]:
        """The rows for ``threads``; a thread the engine kept (the same dict) on the same page
        keeps its old row (and so the delegate's cached layout of it)."""
        known, self._sources = self._sources, {}
        page_of = self.page_of_block
        rows = []
        for thread in threads:
            thread_id, block_id = thread["id"], thread["blockId"]
            page = None if block_id is None or page_of is None else page_of(block_id)
            last = known.get(thread_id)
            if last is not None and last[0] is thread and last[1] == page:
                row = last[2]
            else:
                row = ThreadRow.of(thread, dates(), page)
                if last is not None and last[2] == row:
                    row = last[2]
            self._sources[thread_id] = (thread, page, row)
            rows.append(row)
        return rows

    def _show_rows(self, rows: list[ThreadRow]) -> None:
        """Hand ``rows`` to the model (it signals only what differs) and lay the list out."""
        shown = self.model.rows()
        if rows and len(rows) == len(shown) and all(new is old for new, old in zip(rows, shown, strict=True)):
            return  # an edit elsewhere in the document: every row is the one shown, laid out as it is
        if rows and self.list_view.isHidden() and self.isVisible():
            # the rows' sizes follow the view's width: give it its place before they are measured,
            # or showing it afterwards would lay every row out a second time
            self.list_view.show()
            self.layout().activate()
        if self.model.set_rows(rows):
            self._hidden.clear()  # a reset forgets which rows the view hid
        listed = {row.id for row in rows}
        self.delegate.forget(listed)
        for thread_id in [t for t in self._composers if t not in listed]:
            self._drop_composer(thread_id)
        for row in rows:
            composer = self._composers.get(row.id)
            if row.resolved and composer is not None and not composer.text():
                self._drop_composer(row.id)
        if self.delegate.selected_id is not None and self.delegate.selected_id not in listed:
            self.delegate.selected_id = None
        self._restore_current()
        self._apply_filter()
        self.list_view.doItemsLayout()

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

    def open_reply(self, thread_id: str) -> None:
        """Open (or focus) the reply box under the thread; what is typed in it survives refreshes."""
        row = self.model.row(thread_id)
        if row is None or row.resolved:
            return
        composer = self._composers.get(thread_id)
        if composer is None:
            composer = CommentComposer(self.tr("Reply…"), self.tr("Send"), self.list_view.viewport())
            composer.setAutoFillBackground(True)
            composer.setBackgroundRole(QPalette.ColorRole.Base)  # the card's own background
            composer.submitted.connect(lambda text: self._send_reply(thread_id, text))
            composer.cancelled.connect(lambda: self.close_reply(thread_id))
            self._composers[thread_id] = composer
            self._fit_composer(thread_id)
        composer.show()
        composer.editor.setFocus()

    def close_reply(self, thread_id: str) -> None:
        """Close the thread's reply box, dropping what was typed in it."""
        if self._drop_composer(thread_id):
            self._relayout()

    # ------------------------------------------------------------------ reactions
    def _document_loaded(self) -> None:
        """A different document: drop every thread (and draft) that belonged to the old one."""
        for thread_id in list(self._composers):
            self._drop_composer(thread_id)
        self.model.set_rows([])
        self.delegate.selected_id = None
        self._hidden.clear()
        self._close_new_comment()
        self.hint_label.hide()
        self.new_button.setEnabled(self.controller.reviewer is not None)
        self.refresh()

    def _document_changed(self, touched: frozenset[str] | None) -> None:
        # a change may add or remove a comment (undo, the agent's add_comment), so it re-reads
        # them, unless it named paragraphs no comment is anchored on (typing elsewhere): then only
        # the page numbers may have moved, shown once typing pauses; while the panel is hidden
        # all of it waits until it is shown again
        if not self.isVisible():
            self._stale = True
        elif self._stale or not leaves_comments(self.controller.snapshot(), touched, self._covered):
            self.refresh()
        elif self.controller.typing:
            self._after_typing.start()
        else:
            self._update_pages()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def _action_clicked(self, thread_id: str, action: str) -> None:
        row = self.model.row(thread_id)
        if row is None:
            return
        if action == "reply":
            self.open_reply(thread_id)
        elif action == "resolve":
            self.controller.resolve_comment(thread_id, not row.resolved)
        elif action == "delete":
            self.controller.delete_comment(thread_id)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        """The person moved to a thread with the keys: select it and show its anchor (a click
        does the same through :meth:`_pressed`)."""
        if self._syncing or self.list_view.pressing or not current.isValid():
            return
        self._activate(self.model.row_at(current.row()).id)

    def _pressed(self, index: QModelIndex) -> None:
        """A click on a thread selects it and shows its anchor, again if it was already selected
        (the page may have scrolled away from it)."""
        if index.isValid():
            self._activate(self.model.row_at(index.row()).id)

    def _activate(self, thread_id: str) -> None:
        self._set_selected(thread_id)
        self.comment_selected.emit(thread_id)

    def _set_selected(self, thread_id: str | None) -> None:
        """Mark ``thread_id`` selected: its border, and a resolved one opens up (and shows though
        the filter hides resolved threads)."""
        before, self.delegate.selected_id = self.delegate.selected_id, thread_id
        self._restore_current()
        if before != thread_id:
            self._apply_filter()
            self._relayout()

    def _restore_current(self) -> None:
        """Keep the view's current row on the selected thread (its keyboard focus and highlight)."""
        at = None if self.delegate.selected_id is None else self.model.row_index(self.delegate.selected_id)
        selection = self.list_view.selectionModel()
        syncing, self._syncing = self._syncing, True
        try:
            if at is None:
                selection.clear()
            elif selection.currentIndex().row() != at:
                flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
                selection.setCurrentIndex(self.model.index(at, 0), flags)
        finally:
            self._syncing = syncing

    def _send_reply(self, thread_id: str, text: str) -> None:
        composer = self._composers.get(thread_id)
        if composer is None:
            return
        # the refresh the reply causes lays the thread out without its box, so it is laid out once
        self.delegate.set_composer_height(thread_id, None)
        try:
            sent = self.controller.reply_to_comment(thread_id, text)
        except BaseException:
            self._fit_composer(thread_id)
            raise
        if sent:
            self._drop_composer(thread_id)
        else:
            composer.show_error(self.tr("This comment is no longer in the document."))
            self._fit_composer(thread_id)

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
    def _fit_composer(self, thread_id: str) -> None:
        """Leave room in the thread for its reply box as tall as the box wants, and place it."""
        composer = self._composers.get(thread_id)
        if composer is not None:
            self.delegate.set_composer_height(thread_id, composer.sizeHint().height())
            self._relayout()

    def _drop_composer(self, thread_id: str) -> bool:
        composer = self._composers.pop(thread_id, None)
        self.delegate.set_composer_height(thread_id, None)
        if composer is None:
            return False
        composer.hide()
        composer.deleteLater()
        return True

    def _relayout(self) -> None:
        """Heights changed (a reply box, a thread opened up): lay the rows out again now."""
        self.list_view.doItemsLayout()
        self.list_view.viewport().update()

    def _apply_filter(self) -> None:
        """Show or hide resolved threads (a selected one always shows) and update the counts."""
        show_resolved = self.show_resolved.isChecked()
        rows = self.model.rows()
        resolved = sum(row.resolved for row in rows)
        hidden = {
            row.id
            for row in rows
            if row.resolved and not show_resolved and row.id != self.delegate.selected_id
        }
        for thread_id in hidden ^ self._hidden:
            at = self.model.row_index(thread_id)
            if at is not None:
                self.list_view.setRowHidden(at, thread_id in hidden)
        self._hidden = hidden
        visible = len(rows) - len(hidden)
        if self.controller.reviewer is None:
            self.empty_label.setText(self.tr("Open a document to see its comments."))
        elif not rows:
            self.empty_label.setText(self.tr("No comments"))
        else:
            self.empty_label.setText(self.tr("No open comments"))
        self.empty_label.setVisible(visible == 0)
        self.list_view.setVisible(visible > 0)
        self.count_label.setVisible(bool(rows))
        counts = (
            self.tr("%n open", "", len(rows) - resolved) + " \u00b7 " + self.tr("%n resolved", "", resolved)
        )
        if resolved and not show_resolved:
            counts += " " + self.tr("(hidden)")
        self.count_label.setText(counts)
