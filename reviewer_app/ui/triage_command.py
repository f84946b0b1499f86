"""Agent ▸ Triage Their Changes: the agent's accept / reject / counter for each of the other side's changes.

The open document's :class:`~reviewer_app.agent.triage.Triage` lives here: loaded from the
:class:`~reviewer_app.agent.triage.TriageStore` (beside the document's conversation) when the
document opens, saved after every recommendation, and shown on the changes in the Changes panel,
whose "Accept recommended" and "Reject recommended" act on it.

A triage runs as one turn of the chat: the conversation shows a one-line request, the model is
sent :func:`~reviewer_app.agent.triage.triage_task` (their changes fenced as untrusted text) and
is offered ``recommend_change`` for that turn only. Stop keeps what was recommended; a counter
becomes a proposal card in the chat like any edit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from ..agent.recommend_change import RECOMMEND_CHANGE, recommend_change_tool
from ..agent.session import AgentSession
from ..agent.triage import Recommendation, Triage, TriageStore, triage_task
from ..docx.weak_links import BackReference, weak_method
from .plurals import count_text
from .window_actions import connect

if TYPE_CHECKING:
    from .window_host import WindowHost

#: how long the status bar's summary of a triage stays (ms)
_MESSAGE_MS = 10000


class TriageCommand(QObject):
    """The open document's triage, its turn, and the Changes panel's view of it."""

    window: BackReference[WindowHost] = BackReference()

    def __init__(self, window: WindowHost) -> None:
        super().__init__(window)
        self.window = window
        self.store = TriageStore(window.chat.chat.store)
        controller = window.controller
        self.triage = self._load()
        #: the tool, put in the chat's session for a triage turn only
        self.tool = recommend_change_tool(weak_method(self._current_triage))
        #: a triage turn was started and has not finished yet
        self.running = False
        panel = window.docks.redline
        panel.recommend = weak_method(self._recommendations)
        connect(window.actions.triage_changes, self.start)
        controller.document_loaded.connect(self._document_loaded)
        window.chat.chat.turn_finished.connect(self._turn_finished)

    def _load(self) -> Triage:
        controller = self.window.controller
        our_side = lambda: {controller.author, controller.agent_author}  # noqa: E731 - read at each call
        reviewer = controller.reviewer
        triage = self.store.triage_for(reviewer, our_side) if reviewer is not None else Triage(our_side)
        triage.on_change.append(weak_method(self._recommended))
        return triage

    def _current_triage(self) -> Triage:
        return self.triage

    def _recommendations(self, changes: list[dict[str, Any]]) -> dict[str, Recommendation]:
        return self.triage.current(changes)

    def _document_loaded(self) -> None:
        self.triage = self._load()
        self.window.docks.redline.refresh()

    def _recommended(self, _recommendation: Recommendation) -> None:
        self.window.docks.redline.refresh()

    # ------------------------------------------------------------------ the turn
    def start(self) -> bool:
        """Ask the agent for a recommendation on each of the other side's changes."""
        window, chat = self.window, self.window.chat.chat
        reviewer = window.controller.reviewer
        if reviewer is None:
            return False
        if chat.busy:
            window.statusBar().showMessage(
                self.tr("The agent is still working: wait for it, or press Stop, then start the triage."),
                _MESSAGE_MS,
            )
            return False
        theirs = self.triage.theirs(reviewer.change_details())
        if not theirs:
            window.statusBar().showMessage(
                self.tr("There are no tracked changes by the other side to triage."), _MESSAGE_MS
            )
            return False
        authors = ", ".join(dict.fromkeys(str(c["author"]) for c in theirs))
        label = self.tr("Triage the other side's changes: {0} by {1}").format(
            count_text(len(theirs), "{n} change", "{n} changes"), authors
        )
        triage, tool = self.triage, self.tool

        async def events(session: AgentSession) -> AsyncIterator[Any]:
            session.host_tools[RECOMMEND_CHANGE] = tool
            triage.active = True
            try:
                async for event in session.send(triage_task(theirs, session.nonce)):
                    yield event
            finally:
                triage.active = False
                session.host_tools.pop(RECOMMEND_CHANGE, None)

        self._show_panels()
        self.running = chat.send(label, events=events) is not None
        return self.running

    def _turn_finished(self, _stop_reason: str) -> None:
        """The chat's turn ended: when it was a triage, close it and say how far it got."""
        if not self.running:
            return
        self.running = False
        triage = self.triage
        reviewer = self.window.controller.reviewer
        if reviewer is None:
            return
        changes = reviewer.change_details()
        total = len(triage.theirs(changes))
        left = len(triage.unanswered(changes))
        self.window.statusBar().showMessage(
            self.tr("Triage: {0} of {1} changes have a recommendation, {2} unanswered").format(
                total - left, total, left
            ),
            _MESSAGE_MS,
        )

    def _show_panels(self) -> None:
        """The conversation and the Changes panel, where the triage's results appear."""
        for dock in (self.window.chat_dock, self.window.docks.redline_dock):
            dock.show()
            dock.raise_()
