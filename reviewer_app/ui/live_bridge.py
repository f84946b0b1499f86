"""``LiveEditorBridge``: the agent's bridge in the desktop app (contract decision 9 and §9).

The agent session talks to this object; it talks to the :class:`DocumentController` (the one
place the document changes, so every act the agent takes is one undo step) and to the
:class:`PageView` (the layout the person sees, so ``read_page`` reads the page as laid out here).

``mode`` picks where the agent's edits go, and can change at any time (the chat's
Review/Direct switch):

``review``
    ``apply_document_operations`` goes to the controller's review queue: the batch is checked
    against the live document and held as proposals; the document does not change. Replies and
    resolves are queued the same way (:meth:`propose_comment_action`). After a
    batch that queued something, ``proposals_changed`` (an optional callback) is called, so the
    chat can redraw its proposal cards.
``direct``
    the batch lands at once through :meth:`DocumentController.apply_agent_batch`: tracked
    changes under the agent's name, one undo step, and ``document_changed`` for the views.

The controller replaces its :class:`DocxReviewer` on undo and redo, so nothing here keeps one:
every call looks the document up through the controller (its two bridges are stable and follow
the new reviewer). The replay ledger (§5.8) is kept for the review bridge, which lives as long
as the open document, so a resent operation is recognised across undo, redo and a mode switch.

Page numbers at this surface are 1-based, as the tools count them; the view counts from 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..agent.bridge import ReviewerReads
from ..docx import hashing
from ..docx.reviewer import DocxReviewer
from ..docx.snapshot import Snapshot
from .document_controller import AGENT_MODES, DocumentController, NoDocumentError
from .pageview import PageView
from .pageview.caret import Caret


class LiveEditorBridge:
    """Required and live optional bridge members over the open document and its page view."""

    #: every edit the agent makes is a tracked change, whether it waits for review or lands now
    document_operation_mode = "tracked-changes"

    def __init__(
        self,
        controller: DocumentController,
        view: PageView,
        mode: str = "review",
        proposals_changed: Callable[[], None] | None = None,
    ) -> None:
        self.controller = controller
        self.view = view
        self.mode = mode
        #: called after a Review-mode batch queued at least one proposal (the chat refreshes its cards)
        self.proposals_changed = proposals_changed

    @property
    def mode(self) -> str:
        """``review`` (proposals wait for a person) or ``direct`` (tracked changes at once)."""
        return self._mode

    @mode.setter
    def mode(self, value: str) -> None:
        if value not in AGENT_MODES:
            raise ValueError(f"Unknown agent mode {value!r}; expected one of {', '.join(AGENT_MODES)}.")
        self._mode = value

    def _reads(self) -> ReviewerReads:
        """The controller's bridge for the current mode (both read the same live document)."""
        bridge = self.controller.review_bridge if self._mode == "review" else self.controller.direct_bridge
        if bridge is None:
            raise NoDocumentError("No document is open.")
        return bridge

    @property
    def replay_session(self) -> object:
        """The object the replay ledger is kept for: stable for as long as the document is open."""
        return self.controller.review_bridge or self

    # ------------------------------------------------------------------ required members
    @property
    def reviewer(self) -> DocxReviewer | None:
        """The open document now (undo replaces it, so it is looked up on every use)."""
        return self.controller.reviewer

    def snapshot(self) -> Snapshot:
        return self.controller.snapshot()

    def apply_document_operations(self, batch: Mapping[str, Any]) -> dict[str, Any]:
        """Queue the batch as proposals (Review) or apply it as one undoable agent edit (Direct)."""
        if self._mode == "direct":
            return self.controller.apply_agent_batch(dict(batch))
        review = self.controller.review_bridge
        if review is None:
            raise NoDocumentError("No document is open.")
        result = review.apply_document_operations(batch)
        if result.get("queued") and self.proposals_changed is not None:
            self.proposals_changed()
        return result

    def get_comments(self) -> list[dict[str, Any]]:
        return self.controller.require().comments()

    def get_changes(self) -> list[dict[str, Any]]:
        return self.controller.require().changes()

    def reply_to_comment(self, comment_id: str, text: str) -> bool:
        """Reply under the agent's name, as one undo step (nothing happens for an unknown id)."""
        return self.controller.reply_to_comment(comment_id, text, as_agent=True)

    def resolve_comment(self, comment_id: str, resolved: bool) -> bool:
        """Resolve or reopen through the controller, so the person can undo it."""
        return self.controller.resolve_comment(comment_id, resolved)

    @property
    def queues_comment_actions(self) -> bool:
        """Review mode: the agent's replies and resolves wait as proposals, like its edits."""
        return self._mode == "review"

    def propose_comment_action(self, action: Mapping[str, Any]) -> dict[str, Any] | None:
        """Queue a reply or resolve in the review queue (None: no such comment); the chat redraws."""
        review = self.controller.review_bridge
        if review is None:
            raise NoDocumentError("No document is open.")
        proposal = review.propose_comment_action(action)
        if proposal is not None and self.proposals_changed is not None:
            self.proposals_changed()
        return proposal

    # ------------------------------------------------------------------ optional document members
    def get_document_version(self) -> str:
        return self._reads().get_document_version()

    def list_stories(self) -> list[dict[str, Any]]:
        return self._reads().list_stories()

    def read_story(self, handle: dict[str, Any]) -> dict[str, Any] | None:
        return self._reads().read_story(handle)

    def find_text(
        self, query: str, match_case: bool, whole_word: bool, scope: dict[str, Any] | None
    ) -> dict[str, Any]:
        return self._reads().find_text(query, match_case, whole_word, scope)

    # ------------------------------------------------------------------ live view members
    def get_page_count(self) -> int:
        """Pages as laid out here (the layout is finished first, so the count is final)."""
        self.view.finish_layout()
        return self.view.page_count()

    def get_page_text(self, page: int) -> str | None:
        """Clean text of 1-based ``page`` as laid out (None outside the document)."""
        count = self.get_page_count()
        if not 1 <= page <= count:
            return None
        return self.view.page_text(page - 1)

    def get_selection_text(self) -> str:
        """The text the person has selected in the page view, by mouse or keys ("" when nothing is).

        The contract's ``read_selection`` answers with the text alone (``{ text }``); the agent
        finds where it stands with ``find_text``.
        """
        return self.view.selection_text()

    def get_target_page(self, target: Mapping[str, Any] | None = None) -> int | None:
        """1-based page of a block or range target; the page in view when ``target`` is None."""
        if target is None:
            return self.view.current_page() + 1 if self.view.page_count() else None
        self.view.finish_layout()
        layout = self.view.paged_layout()
        block_id = target.get("blockId")
        if layout is None or not isinstance(block_id, str):
            return None
        if target.get("type") == "textRange":
            page = layout.index.page_of_range(block_id, int(target["startOffset"]), int(target["endOffset"]))
        else:
            page = layout.index.page_of_block(block_id)
        return None if page is None else page + 1

    def scroll_to_block(self, block_id: str) -> bool:
        return self.view.scroll_to_block(block_id)

    def show_in_document(self, target: Mapping[str, Any]) -> bool:
        """Scroll to and highlight a block or an exact range; False for a stale or missing target.

        A range is stale when the block's text at its offsets no longer hashes to the range's
        ``selectedTextHash`` (the text it was found on changed since). The caret goes there, as
        Word's Go To and Find leave it: a shown block gets it at its start; a shown range is
        selected with the caret at its end, so the person's next key types over it and
        Shift+arrows go on from it.
        """
        block_id = target.get("blockId")
        if not isinstance(block_id, str):
            return False
        if target.get("type") != "textRange":
            if not self.view.show_block(block_id):
                return False
            self.view.move_caret(Caret(block_id, 0))
            return True
        block = self.controller.snapshot().block(block_id)
        start, end = int(target["startOffset"]), int(target["endOffset"])
        if block is None or end > len(block.text):
            return False
        if hashing.text_hash(block.text[start:end]) != target.get("selectedTextHash"):
            return False
        if not self.view.show_range(block_id, start, end):
            return False
        self.view.move_caret(Caret(block_id, start))
        self.view.move_caret(Caret(block_id, end), extend=True)
        return True
