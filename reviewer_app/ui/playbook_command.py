"""Agent ▸ Review Against Playbook… and File ▸ Export Issues List…: a playbook review in the window.

The open document's :class:`PlaybookReview` lives here: restored from the
:class:`~reviewer_app.agent.playbook.findings_store.FindingsStore` (beside the document's
conversation) when the document opens, shown in the Playbook panel, and saved again after every
turn of a run and whenever the lawyer overrides a status or edits a note.

A review runs as one turn of the chat (the conversation shows it, Stop stops it and keeps what
was recorded) whose events come from a
:class:`~reviewer_app.agent.playbook.playbook_turn.PlaybookRun`: as many turns of the model as the
playbook needs, with ``record_finding`` offered only while it runs. With no model configured the
chat says what to set up, as it does for a message. Running the same playbook again continues
its review (the lawyer's statuses and notes stay; the agent answers what is unanswered);
another playbook, or the same one answered in full, starts a new review once the person agreed
to replace the old one.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QMessageBox

from ..agent.playbook.findings_store import FindingsStore
from ..agent.playbook.issues_list import write_issues_csv, write_issues_docx
from ..agent.playbook.model import Playbook, PlaybookFinding, PlaybookReview
from ..agent.playbook.playbook_turn import PlaybookRun
from ..agent.session import AgentSession
from ..agent.transcript import document_identity
from ..docx.snapshot import Snapshot
from ..docx.weak_links import BackReference, weak_method
from .chat.describe import operation_title, status_title
from .playbook_dialog import PlaybookDialog, same_playbook
from .playbook_panel import PlaybookPanel
from .plurals import count_text
from .window_actions import connect

if TYPE_CHECKING:
    from .window_host import WindowHost

log = logging.getLogger(__name__)

ISSUES_FILTER = "Word documents (*.docx);;CSV files (*.csv)"
#: a note is saved this long after the last key press (and at once when the document closes)
SAVE_DELAY_MS = 400


class PlaybookCommand(QObject):
    """The open document's playbook review, its runs, its saving and its export."""

    window: BackReference[WindowHost] = BackReference()

    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self.window = window
        self.panel = panel = PlaybookPanel(weak_method(self._snapshot))
        self.review: PlaybookReview | None = None
        #: the run in progress (None between runs)
        self.run: PlaybookRun | None = None
        self.dialog: PlaybookDialog | None = None
        self.store = FindingsStore(window.chat.chat.store)
        #: the lawyer's status and note per position, kept when the agent answers it again
        self._verdicts: dict[str, tuple[str | None, str]] = {}
        #: where the shown review is saved: (document path, identity); None for an unsaved document
        self._target: tuple[str, str] | None = None
        self._save_timer = QTimer(self, singleShot=True, interval=SAVE_DELAY_MS)
        self._save_timer.timeout.connect(self.save)
        panel.review_edited.connect(self._save_timer.start)
        panel.review_edited.connect(self._remember_verdicts)
        panel.describe_proposal = weak_method(self.describe_proposal)
        panel.citation_shown.connect(window.page_view.show_range)
        panel.block_shown.connect(window.page_view.show_block)
        panel.proposal_shown.connect(self.show_proposal)
        connect(window.actions.review_playbook, self.ask)
        connect(window.actions.export_issues, self.export)
        window.controller.document_loaded.connect(self._document_loaded)
        window.controller.saved.connect(self._document_saved)
        # clause numbers and the linked proposals' states follow the document (coalesced)
        self._refresh_timer = QTimer(self, singleShot=True, interval=0)
        self._refresh_timer.timeout.connect(panel.refresh_when_shown)
        window.controller.document_changed.connect(lambda _blocks: self._refresh_timer.start())
        window.chat.chat.card_changed.connect(lambda _card: self._refresh_timer.start())
        window.chat.chat.turn_finished.connect(self._run_finished)
        window.installEventFilter(self)  # a note typed just before the window closes is saved too

    # ------------------------------------------------------------------ the document's review
    def _snapshot(self) -> Snapshot | None:
        reviewer = self.window.controller.reviewer
        return reviewer.snapshot() if reviewer is not None else None

    def _document_loaded(self) -> None:
        self.flush()
        self.run = None
        reviewer = self.window.controller.reviewer
        path = getattr(reviewer, "path", None)
        self._target = (str(path), document_identity(reviewer)) if path else None
        self.review = self.store.load(*self._target) if self._target is not None else None
        self._remember_verdicts()
        self.panel.set_review(self.review)

    def _document_saved(self, path: str) -> None:
        """Saved under a new name (or first saved): the review goes with the document."""
        target = (str(path), document_identity(self.window.controller.reviewer))
        if target != self._target:
            self._target = target
            self.save()

    def save(self) -> None:
        """Write the shown review where it belongs (nothing for a document never saved)."""
        self._save_timer.stop()
        self._save_to(self.review, self._target)

    def _save_to(self, review: PlaybookReview | None, target: tuple[str, str] | None) -> None:
        """Write ``review`` for the document ``target`` names (a run keeps the one it started on)."""
        if review is None or target is None:
            return
        try:
            self.store.save(review, *target)
        except OSError as error:
            log.warning("the playbook review could not be saved: %s", error)
            self.window.statusBar().showMessage(
                self.tr("The playbook review could not be saved: {0}").format(error.strerror or error), 8000
            )

    def flush(self) -> None:
        """Save now what waits to be saved (a note just typed)."""
        if self._save_timer.isActive():
            self.save()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is self.window and event.type() == QEvent.Type.Close:
            self.flush()
        return False

    # ------------------------------------------------------------------ Review Against Playbook…
    def ask(self) -> PlaybookDialog | None:
        """Open the playbook picker (window-modal); Start Review starts the run."""
        if self.window.controller.reviewer is None:
            return None
        if self.window.chat.chat.busy:
            self.window.statusBar().showMessage(
                self.tr("The agent is still working: wait for it, or press Stop, then start the review."),
                8000,
            )
            return None
        dialog = PlaybookDialog(self.review.playbook if self.review is not None else None, self.window)
        dialog.accepted.connect(lambda: self._chosen(dialog))
        dialog.finished.connect(lambda _result: dialog.deleteLater())
        self.dialog = dialog
        dialog.open()
        return dialog

    def _chosen(self, dialog: PlaybookDialog) -> None:
        playbook = dialog.chosen()
        if playbook is not None:
            self.start(playbook)

    def start(self, playbook: Playbook) -> bool:
        """Run the review of the open document against ``playbook`` through the chat.

        The same playbook with positions still unanswered continues its review; anything else
        replaces the review, once the person agreed to lose its findings, statuses and notes."""
        old = self.review
        if old is None or not same_playbook(old.playbook, playbook) or not old.unanswered():
            if old is not None and old.findings and not self._replace_agreed(old):
                return False
            self.review = PlaybookReview(playbook)
        review = self.review
        assert review is not None
        self._remember_verdicts()
        self.panel.set_review(review)
        self.save()
        self._show_dock()
        label = self.tr("Review against the playbook “{0}” ({1} positions)").format(
            playbook.name, len(playbook.positions)
        )
        chat = self.window.chat
        chat.parentWidget().show()
        chat.parentWidget().raise_()
        started_on = self._target

        def save(done: PlaybookReview) -> None:
            """Where the run's document is now (saved under a new name, or no longer open)."""
            self._save_to(done, self._target if done is self.review else started_on)

        def events(session: AgentSession) -> AsyncIterator[Any]:
            self.run = PlaybookRun(session, review, save=save, on_record=self._recorded)
            return self.run.events()

        return chat.chat.send(label, events=events) is not None

    def _replace_agreed(self, old: PlaybookReview) -> bool:
        """Ask before a new review replaces this document's review (and the lawyer's notes)."""
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Review against playbook"),
            self.tr(
                "This document's review against “{0}” ({1}, with your statuses and notes) "
                "will be replaced by the new review."
            ).format(old.playbook.name, count_text(len(old.findings), "{n} finding", "{n} findings")),
            QMessageBox.StandardButton.Cancel,
            self.window,
        )
        box.setObjectName("replacePlaybookReviewBox")
        start = box.addButton(self.tr("Start New Review"), QMessageBox.ButtonRole.AcceptRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is start

    def _remember_verdicts(self) -> None:
        findings = self.review.findings.values() if self.review is not None else ()
        self._verdicts = {
            f.position_id: (f.override_status, f.note) for f in findings if f.override_status or f.note
        }

    def _recorded(self, finding: PlaybookFinding) -> None:
        """A finding was kept: shown at once; answered again, a position keeps the lawyer's verdict."""
        verdict = self._verdicts.get(finding.position_id)
        run = self.run
        if verdict is not None and run is not None and (finding.override_status, finding.note) == (None, ""):
            run.review.record(finding.overridden(*verdict))
        self.panel.refresh()

    def _run_finished(self, _stop_reason: str) -> None:
        """The chat's turn ended: when it was a run, say how far the review got."""
        run, self.run = self.run, None
        if run is None:
            return
        self.panel.refresh()
        left = len(run.review.unanswered())
        total = len(run.review.playbook.positions)
        self.window.statusBar().showMessage(
            self.tr("Playbook review: {0} of {1} positions answered, {2} unanswered").format(
                total - left, total, left
            ),
            10000,
        )

    def _show_dock(self) -> None:
        dock = self.panel.parentWidget()
        if dock is not None:
            dock.show()
            dock.raise_()

    # ------------------------------------------------------------------ proposals of a finding
    def describe_proposal(self, proposal_id: str) -> str | None:
        """How a proposal a finding links reads ("Replace text · Proposed"), from its chat card."""
        card = self._card(proposal_id)
        if card is None:
            return None
        return f"{operation_title(str(card.operation.get('type') or ''))} · {status_title(card.status)}"

    def show_proposal(self, proposal_id: str) -> None:
        """Bring the proposal's card into view in the chat and show its place on the page."""
        card = self._card(proposal_id)
        if card is None:
            return
        chat_dock = self.window.chat.parentWidget()
        chat_dock.show()
        chat_dock.raise_()
        conversation = self.window.chat.conversation
        for batch in conversation.batches():
            widget = batch.cards.get(card.key)
            if widget is not None:
                conversation.ensureWidgetVisible(widget)
        if card.block_id:
            self.window.page_view.show_block(card.block_id)

    def _card(self, proposal_id: str) -> Any:
        cards = self.window.chat.chat.cards.values()
        return next((c for c in cards if proposal_id in (c.proposal_id, c.operation_id)), None)

    # ------------------------------------------------------------------ Export Issues List…
    def export(self) -> str | None:
        """Ask where, then write the issues list (.docx table or .csv); the path written or None."""
        window = self.window
        review = self.review
        if window.controller.reviewer is None:
            return None
        if review is None or not review.findings:
            box = QMessageBox(
                QMessageBox.Icon.Information,
                self.tr("Export issues list"),
                self.tr(
                    "There is no playbook review of this document yet: "
                    "choose Agent ▸ Review Against Playbook… first."
                ),
                QMessageBox.StandardButton.Ok,
                window,
            )
            box.setObjectName("noPlaybookReviewBox")
            box.exec()
            return None
        stem = Path(window.document_name()).stem
        suggestion = str(Path(window.files.folder()) / self.tr("{0} issues list.docx").format(stem))
        path = window.files.ask_save_path(self.tr("Export issues list"), suggestion, ISSUES_FILTER)
        if not path:
            return None
        if not path.lower().endswith((".docx", ".csv")):
            path += ".docx"
        snapshot = window.controller.snapshot()
        queue = window.controller.review_bridge
        proposals = queue.proposals() if queue is not None else []
        try:
            if path.lower().endswith(".csv"):
                write_issues_csv(review, snapshot, path, proposals=proposals)
            else:
                write_issues_docx(
                    review, snapshot, path, proposals=proposals, document_name=window.document_name()
                )
        except OSError as error:
            window.show_error(self.tr("Cannot export issues list"), error.strerror or str(error))
            return None
        window.statusBar().showMessage(
            self.tr("Exported the issues list to {0}").format(Path(path).name), 6000
        )
        return path
