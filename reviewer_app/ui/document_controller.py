"""``DocumentController``: the one open document, every change to it, its undo history and saving.

Every window part that changes the document (the chat's cards, the redline panel, the comments
panel, drafting, the agent in Direct mode) goes through :meth:`DocumentController.perform`, so
each act is one entry on the :class:`QUndoStack` and one ``document_changed`` signal that the
views answer by re-rendering only what was touched.

Undo keeps, per act, an :class:`~reviewer_app.docx.journal.UndoEntry`: the engine's journal of
the top-level blocks and the parts the act touched, as they were before and after it. Capturing
it costs what the act touched (a paragraph's copy for one accepted change), not a serialization
of the whole package (80-190 ms on a 300-page contract); undo and redo swap the two states in
place, exact to the byte, and re-read only the paragraphs whose text they changed.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..agent.bridge import ReviewerBridge, create_reviewer_bridge
from ..agent.proposal_store import ProposalStore, save_with_proposals
from ..agent.review_queue import ReviewQueueBridge
from ..docx import comment_writer
from ..docx.atomic_write import copy_atomically
from ..docx.comment_removal import delete_comment
from ..docx.edit.engine import target_block_id
from ..docx.file_stamp import FileStamp
from ..docx.journal import UndoEntry
from ..docx.protection import TRACKED_ONLY_MESSAGE
from ..docx.reviewer import DocxReviewer
from ..docx.snapshot import Snapshot
from .pageview.pages import collect_frozen
from .plurals import count_text

log = logging.getLogger(__name__)

T = TypeVar("T")

#: the agent's two ways of working (agent-loop.md): proposals to review, or tracked changes at once
AGENT_MODES = ("review", "direct")

BACKUP_SUFFIX = ".bak"


class NoDocumentError(RuntimeError):
    """An act needs an open document and there is none."""


class QueueStep:
    """What an Apply did to the review queue, so undo puts its proposals back and redo takes them out."""

    def __init__(self, queue: ReviewQueueBridge, proposals: list[dict[str, Any]]) -> None:
        self._queue = queue
        self._proposals = proposals

    def undo(self) -> None:
        self._queue.requeue(self._proposals)

    def redo(self) -> None:
        self._queue.dequeue(p["id"] for p in self._proposals)


#: the QUndoCommand id of acts that may join the one before them (a burst of typing)
_JOINABLE = 1


class _ActCommand(QUndoCommand):
    """One act on the document: undo puts back what it touched as it was, redo as it became.

    Acts pushed with the same ``join`` key one after the other are one step (Word's typing burst):
    the step keeps each act's entry, undoes them newest first and redoes them in order.
    """

    def __init__(
        self,
        controller: DocumentController,
        label: str,
        entry: UndoEntry | None,
        touched: frozenset[str] | None,
        queue_step: QueueStep | None = None,
        join: object | None = None,
    ):
        super().__init__(label)
        self._controller = controller
        self._entries = [entry] if entry is not None else []  # none: the act touched nothing
        self._touched = touched
        self._queue_step = queue_step
        self._join = join
        self._done = True  # pushed after the act ran: the first redo() has nothing to do

    def id(self) -> int:
        return _JOINABLE if self._join is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt override
        if not isinstance(other, _ActCommand) or other._join is None or other._join != self._join:
            return False
        self._entries.extend(other._entries)
        return True

    def redo(self) -> None:
        if self._done:
            return
        for entry in self._entries:
            entry.redo()
        if self._queue_step is not None:
            self._queue_step.redo()
        self._controller._restored()
        self._done = True

    def undo(self) -> None:
        for entry in reversed(self._entries):
            entry.undo()
        if self._queue_step is not None:  # before the views hear of it: the cards read the queue
            self._queue_step.undo()
        self._controller._restored()
        self._done = False


#: the agent's author name until Settings ▸ Agent names it otherwise
DEFAULT_AGENT_NAME = "Reviewer AI"


class DocumentController(QObject):
    """Holds the open :class:`DocxReviewer`, its two agent bridges and its undo history."""

    #: a different document (or none) is now open: views rebuild from scratch
    document_loaded = Signal()
    #: the open document changed: a frozenset of the block ids touched, or None for "anything"
    document_changed = Signal(object)
    #: unsaved changes appeared or were saved/undone away
    modified_changed = Signal(bool)
    #: the document was saved to this path
    saved = Signal(str)
    #: an accept or reject was refused, with why: the file is protected for tracked changes
    refused = Signal(str)

    def __init__(
        self,
        parent: QObject | None = None,
        *,
        author: str = "Reviewer user",
        agent_author: str = DEFAULT_AGENT_NAME,
        store_directory: Path | None = None,
    ) -> None:
        super().__init__(parent)
        self._author = author
        self._initials = ""
        #: the author of the agent's tracked changes, so a person tells them from their own
        self.agent_author = agent_author
        self._store_directory = store_directory
        self._reviewer: DocxReviewer | None = None
        #: the open document's review queue: the agent adds to it, the person's saves move it along
        self._proposals: ProposalStore | None = None
        self._review_bridge: ReviewQueueBridge | None = None
        self._direct_bridge: ReviewerBridge | None = None
        self._backed_up: set[str] = set()
        self._never_saved_change = False
        #: the document's file as it was opened or last saved here (None: no file, or unreadable)
        self._disk_stamp: FileStamp | None = None
        #: the name shown for a document that has no file yet (a redline made by Compare with…)
        self.untitled_name = "Untitled.docx"
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        #: the act ``document_changed`` announces is part of a burst of typing (it has a ``join``
        #: key): views too costly to update on every key (the Changes list) may wait for a pause
        self.typing = False

    def __del__(self) -> None:
        """Delete the undo history while every part of it is still whole.

        The stack owns its commands in C++ while their Python halves belong to Python. When a
        controller dies as cyclic garbage, the collector frees those halves first, and the
        controller's C++ destructor then deleted commands whose Python side was gone: a crash.
        Finalizers run before the collector frees anything, so clearing here is always in order.
        """
        with contextlib.suppress(RuntimeError):  # the C++ side already went with a parent window
            self.undo_stack.clear()

    # ------------------------------------------------------------------ state
    @property
    def reviewer(self) -> DocxReviewer | None:
        return self._reviewer

    @property
    def path(self) -> str | None:
        return self._reviewer.path if self._reviewer is not None else None

    @property
    def author(self) -> str:
        """The name a person's own changes, replies and comments carry (Settings ▸ user name)."""
        return self._author

    @author.setter
    def author(self, name: str) -> None:
        self._author = name
        if self._reviewer is not None:
            self._reviewer.author = name
            self._reviewer.set_initials(name, self._initials)

    @property
    def initials(self) -> str:
        """The initials on the person's comments (Settings ▸ initials); empty: from the name."""
        return self._initials

    @initials.setter
    def initials(self, initials: str) -> None:
        self._initials = initials
        if self._reviewer is not None:
            self._reviewer.set_initials(self._author, initials)

    @property
    def review_bridge(self) -> ReviewQueueBridge | None:
        """The Review-mode agent bridge (proposals wait for a person)."""
        return self._review_bridge

    @property
    def direct_bridge(self) -> ReviewerBridge | None:
        """The Direct-mode agent bridge (tracked changes at once); use :meth:`perform` around it."""
        return self._direct_bridge

    def require(self) -> DocxReviewer:
        if self._reviewer is None:
            raise NoDocumentError("No document is open.")
        return self._reviewer

    def snapshot(self) -> Snapshot:
        return self.require().snapshot()

    def is_modified(self) -> bool:
        """True when the document has changes that are not saved."""
        return self._reviewer is not None and (not self.undo_stack.isClean() or self._never_saved_change)

    def changed_on_disk(self) -> bool:
        """True when another program wrote the document's file since it was opened or saved here."""
        path = self.path
        return self._disk_stamp is not None and path is not None and self._disk_stamp.changed(path)

    def current_bytes(self) -> bytes:
        return self.require().to_bytes()

    # ------------------------------------------------------------------ opening
    def open(self, path: str | os.PathLike[str]) -> DocxReviewer:
        """Open ``path`` (raises :class:`~reviewer_app.docx.errors.DocxOpenError` and keeps the
        current document when the file is refused)."""
        reviewer = DocxReviewer.open(path, author=self._author)
        reviewer.snapshot()  # a file that opens but cannot be read fails here, before anything changes
        self._install(reviewer)
        self._disk_stamp = FileStamp.of(path)
        return reviewer

    def open_bytes(self, data: bytes, path: str | None) -> DocxReviewer:
        """Open a document held in memory (a recovered copy) that will be saved to ``path``."""
        reviewer = DocxReviewer.from_bytes(data, author=self._author, path=path)
        reviewer.snapshot()
        self._install(reviewer)
        self._disk_stamp = FileStamp.of(path) if path else None
        self._never_saved_change = True  # recovered work is not on disk yet
        self._emit_modified()
        return reviewer

    def close(self) -> None:
        """Forget the document (the caller asked about unsaved changes first)."""
        self._reviewer = None
        self._proposals = None
        self._review_bridge = None
        self._direct_bridge = None
        self._never_saved_change = False
        self._disk_stamp = None
        self.undo_stack.clear()
        self.document_loaded.emit()
        collect_frozen()  # the document and its pages, shown until now, are let go
        self._emit_modified()

    def _install(self, reviewer: DocxReviewer) -> None:
        self._reviewer = reviewer
        reviewer.set_initials(self._author, self._initials)
        comment_writer.keep_comment_ids(reviewer.document, self._author)
        self._proposals = ProposalStore(reviewer.path, self._store_directory)
        self._review_bridge = ReviewQueueBridge(reviewer, self._proposals)
        self._direct_bridge = create_reviewer_bridge(reviewer)
        self._never_saved_change = False
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self.document_loaded.emit()
        collect_frozen()  # the last document and its pages, shown until now, are let go
        self._emit_modified()

    # ------------------------------------------------------------------ acts
    def perform(
        self,
        label: str,
        act: Callable[[DocxReviewer], T],
        touched: Iterable[str] | Callable[[T], Iterable[str] | None] | None = None,
        changed: Callable[[T], bool] = bool,
        queue_step: Callable[[T], QueueStep] | None = None,
        join: object | None = None,
    ) -> T:
        """Run ``act`` on the document as one undoable step named ``label``.

        ``touched``: the block ids the act changes (None: it may change anything), or a function
        reading them from the act's result, so the views re-render only those. ``changed(result)``
        says whether the act did anything; an act that changed nothing leaves no undo entry.
        ``queue_step(result)``: what the act did to the review queue, undone and redone with it.
        ``join``: a key; an act with the same key as the step before it joins that step (typing).
        """
        reviewer = self.require()
        journal = reviewer.begin_changes()
        try:
            result = act(reviewer)
        finally:
            entry = journal.finish()
        if not changed(result):
            return result
        if callable(touched):
            touched = touched(result)
        blocks = frozenset(touched) if touched is not None else None
        step = queue_step(result) if queue_step is not None else None
        self.undo_stack.push(_ActCommand(self, label, entry, blocks, step, join))
        self.typing = join is not None
        try:
            self.document_changed.emit(blocks)
        finally:
            self.typing = False
        self._emit_modified()
        return result

    def _restored(self) -> None:
        """Undo or redo changed the document in place: views re-lay out (the same reviewer and
        bridges stay, so nothing needs rebinding)."""
        self.document_changed.emit(None)

    # accept / reject ------------------------------------------------------------
    def _resolving_refused(self) -> bool:
        """Accepting or rejecting would write untracked content into a file protected for tracked
        changes (the engine would raise): say why through ``refused`` and do nothing."""
        if not self.require().tracked_changes_only:
            return False
        self.refused.emit(TRACKED_ONLY_MESSAGE)
        return True

    def _change_blocks(self, change_ids: Iterable[str]) -> list[str]:
        wanted = set(change_ids)
        return [c["blockId"] for c in self.require().changes() if c["id"] in wanted and c.get("blockId")]

    def accept_changes(self, change_ids: list[str]) -> int:
        """Accept the listed changes as one undo step; returns how many were accepted."""
        if self._resolving_refused():
            return 0
        label = count_text(len(change_ids), "Accept {n} change", "Accept {n} changes")
        blocks = self._change_blocks(change_ids)
        return self.perform(label, lambda r: sum(r.accept_change(i) for i in change_ids), blocks)

    def reject_changes(self, change_ids: list[str]) -> int:
        """Reject the listed changes as one undo step; returns how many were rejected."""
        if self._resolving_refused():
            return 0
        label = count_text(len(change_ids), "Reject {n} change", "Reject {n} changes")
        blocks = self._change_blocks(change_ids)
        return self.perform(label, lambda r: sum(r.reject_change(i) for i in change_ids), blocks)

    def accept_all(self, author: str | None = None) -> int:
        if self._resolving_refused():
            return 0
        label = (
            self.tr("Accept all changes") if author is None else self.tr("Accept all by {0}").format(author)
        )
        return self.perform(label, lambda r: r.accept_all(author))

    def reject_all(self, author: str | None = None) -> int:
        if self._resolving_refused():
            return 0
        label = (
            self.tr("Reject all changes") if author is None else self.tr("Reject all by {0}").format(author)
        )
        return self.perform(label, lambda r: r.reject_all(author))

    # operations (drafting, proposals, Direct-mode agent) --------------------------
    def apply_operations(self, label: str, batch: Any, join: object | None = None) -> dict[str, Any]:
        """Apply a contract batch as the user (tracked changes under :attr:`author`); ``join`` as in
        :meth:`perform` (a typing burst is one undo step)."""
        touched = _receipt_blocks if not _reshapes(batch) else None
        return self.perform(label, lambda r: r.apply_operations(batch), touched, _committed, join=join)

    def apply_proposals(self, proposal_ids: list[str] | None = None) -> list[dict[str, Any]]:
        """Apply queued agent proposals (all when None) as tracked changes under the agent's name.

        Undo takes the tracked changes out and puts the proposals back in the queue, to apply again.
        """
        bridge = self._require_queue()
        held = {p["id"]: p for p in bridge.proposals()}
        label = (
            count_text(len(proposal_ids), "Apply {n} proposal", "Apply {n} proposals")
            if proposal_ids is not None
            else self.tr("Apply all proposals")
        )
        return self.perform(
            label,
            lambda r: self._as_agent(r, lambda: bridge.apply_proposals(proposal_ids)),
            None,
            lambda outcomes: any(o["status"] == "applied" for o in outcomes),
            lambda outcomes: QueueStep(
                bridge, [held[o["id"]] for o in outcomes if o["status"] == "applied" and o["id"] in held]
            ),
        )

    def apply_agent_batch(self, batch: dict[str, Any]) -> dict[str, Any]:
        """Apply the agent's batch at once (Direct mode), under the agent's name, as one undo step."""
        bridge = self.direct_bridge
        self.require()
        assert bridge is not None
        return self.perform(
            self.tr("Agent edit"),
            lambda r: self._as_agent(r, lambda: bridge.apply_document_operations(batch)),
            _receipt_blocks,
            _committed,
        )

    def _as_agent(self, reviewer: DocxReviewer, act: Callable[[], T]) -> T:
        """Run ``act`` with the agent as the author of what it writes, then the person again."""
        reviewer.author = self.agent_author
        try:
            return act()
        finally:
            reviewer.author = self._author

    def discard_proposal(self, proposal_id: str) -> bool:
        """Drop a proposal (the document does not change, so there is no undo entry)."""
        return self._require_queue().discard_proposal(proposal_id)

    def _require_queue(self) -> ReviewQueueBridge:
        self.require()
        assert self._review_bridge is not None
        return self._review_bridge

    # comments ------------------------------------------------------------------------
    def reply_to_comment(self, comment_id: str, text: str, *, as_agent: bool = False) -> bool:
        """Reply under the person's name (or the agent's, for the chat) as one undo step."""

        def reply(reviewer: DocxReviewer) -> bool:
            return comment_writer.reply(reviewer.document, comment_id, text, reviewer.author) is not None

        label = self.tr("Agent reply to comment") if as_agent else self.tr("Reply to comment")
        act = (lambda r: self._as_agent(r, lambda: reply(r))) if as_agent else reply
        return self.perform(label, act, self._comment_blocks(comment_id))

    def resolve_comment(self, comment_id: str, resolved: bool) -> bool:
        label = self.tr("Resolve comment") if resolved else self.tr("Reopen comment")
        return self.perform(
            label,
            lambda r: comment_writer.resolve(r.document, comment_id, resolved),
            self._comment_blocks(comment_id),
        )

    def delete_comment(self, comment_id: str) -> list[str]:
        """Delete a comment (a thread's first comment takes its replies along) as one undo step."""
        blocks = self._comment_blocks(comment_id)
        return self.perform(
            self.tr("Delete comment"), lambda r: delete_comment(r.document, comment_id), blocks
        )

    def _comment_blocks(self, comment_id: str) -> list[str]:
        threads = self.require().comment_threads()  # only read: no copy of 2,000 threads
        return [c["blockId"] for c in threads if c["id"] == comment_id and c.get("blockId")]

    # ------------------------------------------------------------------ saving
    def save(self, path: str | os.PathLike[str] | None = None, *, keep_backup: bool = True) -> str:
        """Save atomically to ``path`` (the document's own path when None); returns the path.

        The first save over an existing file in this session keeps that file as ``NAME.docx.bak``
        (``keep_backup``), so the version the person opened is never lost to a bad save.
        """
        reviewer = self.require()
        target = os.fspath(path) if path is not None else reviewer.path
        if not target:
            raise ValueError("This document has no file name yet: use Save As.")
        target = os.path.abspath(target)
        if keep_backup and target not in self._backed_up and os.path.exists(target):
            copy_atomically(target, target + BACKUP_SUFFIX)  # never through a link planted as the .bak
        self._backed_up.add(target)
        assert self._proposals is not None
        save_with_proposals(reviewer, self._proposals, target)  # atomically; the queue follows the name
        reviewer.package.path = target  # Save As: later saves and the window title follow the new name
        self._disk_stamp = FileStamp.of(target)
        self._never_saved_change = False
        self.undo_stack.setClean()
        self._emit_modified()
        self.saved.emit(target)
        return target

    def _clean_changed(self, _clean: bool) -> None:
        self._emit_modified()

    def _emit_modified(self) -> None:
        self.modified_changed.emit(self.is_modified())


def _committed(result: dict[str, Any]) -> bool:
    return result.get("status") == "committed" and bool(result.get("applied"))


#: operations whose receipt names the one block they cut, joined or renumbered, though a paragraph
#: comes or goes or the numbers after it change
_RESHAPING = frozenset(("splitBlock", "mergeBlockWithNext", "setListLevel"))


def _reshapes(batch: Any) -> bool:
    """Whether a batch (a dict or a parsed Batch) splits or joins paragraphs or renumbers the ones
    after it: the views lay the document out again, as its receipts alone would have them
    re-render one paragraph."""
    operations = batch.operations if hasattr(batch, "operations") else batch.get("operations") or ()
    # a typed key over a selection across paragraphs (endBlockId) joins them too
    return any(op.get("type") in _RESHAPING or op.get("endBlockId") for op in operations)


#: receipt effects that change a block where it stands (its id stays; no block moves)
_IN_PLACE_EFFECTS = frozenset(("updated", "formatted", "commented"))


def _receipt_blocks(result: dict[str, Any]) -> list[str] | None:
    """The blocks the engine's receipts say it changed in place; None when it inserted, deleted or
    restructured anything (the layout moves, so the views lay the document out again)."""
    blocks: list[str] = []
    for receipt in result.get("receipts") or []:
        for affected in receipt.get("affected") or []:
            if affected.get("type") == "comment":
                continue  # the comment itself lives in its own part; its anchor block is listed too
            if affected.get("effect") not in _IN_PLACE_EFFECTS or affected.get("story", "main") != "main":
                return None
            block = target_block_id(affected)
            if not block:
                return None
            blocks.append(block)
    return blocks
