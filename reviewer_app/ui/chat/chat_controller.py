"""``ChatController``: the chat's turn runner and the bookkeeping behind its edit cards.

It owns the :class:`AgentSession` of the open document (its transcript kept per document by
the :class:`TranscriptStore`) and the ``asyncio`` Task of the running turn. The Task runs on
the qasync loop, i.e. on Qt's thread: the tools the model calls touch the live document, so
they must run there (``tools_in_thread`` is forced off). Stop cancels the Task; the session then
records "stopped by the user" and the effects of calls that already ran stay.

Everything the widgets show arrives as Qt signals, so the dock is a view of this object and a
test can watch a turn without looking at pixels. Card actions go through the
:class:`DocumentController` (one undo entry per act) and their outcomes are logged into the
transcript (:mod:`.card_state`) so a reopened document shows the cards as they were left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from ...agent.events import (
    EditBatch,
    ErrorEvent,
    ProfileChanged,
    Retry,
    TextDelta,
    ToolCall,
    ToolResult,
    TurnDone,
)
from ...agent.host_tools import HostTool
from ...agent.session import AgentSession
from ...agent.settings import AgentNotConfiguredError, AgentSettings
from ...agent.transcript import Transcript, TranscriptStore
from ...agent.turn_tools import EDIT_TOOLS
from ...docx.checks import Finding, checker_for
from ...docx.checks.delta import batch_effect
from ...docx.snapshot import Snapshot
from ..document_controller import AGENT_MODES, DocumentController
from ..live_bridge import LiveEditorBridge
from ..pageview import PageView
from . import card_state, describe
from .card_state import CardState
from .conversation_items import ToolLineData, conversation_items
from .sdk_loading import client_library_ready, start_loading_client_library

log = logging.getLogger(__name__)
#: a task of the app's own run as one turn: given the session, it yields the agent's events
EventSource = Callable[[AgentSession], AsyncIterator[Any]]


class ChatController(QObject):
    """One document's conversation with the agent: turns, events, cards (see the module docstring)."""

    #: the open document's saved conversation was rebuilt (a list of :class:`Item`)
    conversation_reset = Signal(object)
    turn_started = Signal(str)
    text_delta = Signal(str)
    #: a broken reply will be streamed again: drop this much of the text shown
    text_retracted = Signal(str)
    #: a tool call started / finished (:class:`ToolLineData`, the same object both times)
    tool_started = Signal(object)
    tool_finished = Signal(object)
    #: an edit batch's cards (a list of :class:`CardState`)
    cards_added = Signal(object)
    card_changed = Signal(object)
    #: message, host ("" when unknown)
    error_raised = Signal(str, str)
    note_raised = Signal(str)
    #: the model was given other tools mid-turn (it cannot call tools): a note line says so
    profile_switched = Signal(str)
    #: the turn is over: its stop reason ("cancelled" when the person stopped it)
    turn_finished = Signal(str)
    busy_changed = Signal(bool)
    #: no model is configured: the message that says how to configure one
    not_configured = Signal(str)
    mode_changed = Signal(str)

    def __init__(
        self,
        controller: DocumentController,
        view: PageView,
        settings: AgentSettings | None = None,
        *,
        mode: str = "review",
        store: TranscriptStore | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.bridge = LiveEditorBridge(controller, view, mode)
        self.store = store or TranscriptStore()
        self._settings = (settings or AgentSettings.from_environment()).replace(tools_in_thread=False)
        self.session: AgentSession | None = None
        #: host-side tools offered to the model next to the 16 (compare_with_version)
        self.host_tools: tuple[HostTool, ...] = ()
        self.cards: dict[str, CardState] = {}
        self._task: asyncio.Task[None] | None = None
        self._stop_requested = False
        self._pending_mode: str | None = None
        #: the last message sent (Retry sends it again) and why the last finished turn failed
        self.last_request: str | None = None
        self.last_error: str | None = None
        self._turn_error: str | None = None
        #: per running tool call: its line and its start
        self._running: dict[str, tuple[ToolLineData, float]] = {}
        #: the document before the running edit call, for its cards' replaced text
        self._before: Snapshot | None = None
        #: the contract checks' findings before a Direct-mode batch, to tell what it changed
        self._checks_before: list[Finding] | None = None
        self._settle_timer = QTimer(self, singleShot=True, interval=0)
        self._settle_timer.timeout.connect(self._settle_cards)
        controller.document_loaded.connect(self.attach)
        controller.document_changed.connect(self._document_changed)

    # ------------------------------------------------------------------ state
    @property
    def mode(self) -> str:
        return self.bridge.mode

    @property
    def settings(self) -> AgentSettings:
        return self._settings

    @property
    def busy(self) -> bool:
        return self._task is not None

    @property
    def turn_task(self) -> asyncio.Task[None] | None:
        """The running turn's Task (tests and the app await it; Stop cancels it)."""
        return self._task

    def configuration_problem(self) -> str | None:
        """Why no turn can start (no key and no local server), or None."""
        try:
            self._settings.check()
        except AgentNotConfiguredError as error:
            return str(error)
        return None

    # ------------------------------------------------------------------ document and session
    def attach(self) -> None:
        """The controller opened another document (or closed it): load that document's conversation."""
        self.stop()
        self._retire(self.session)
        self.session = None
        self.cards = {}
        self.last_request = self.last_error = None
        reviewer = self.controller.reviewer
        if reviewer is None:
            self.conversation_reset.emit([])
            return
        transcript = self.store.for_reviewer(reviewer)
        self.session = self._new_session(transcript)
        queue = {p["id"]: p for p in self._proposals()}
        pending = {c["id"] for c in reviewer.changes()}
        items = conversation_items(transcript.entries, queue, pending)
        for item in items:
            self.cards.update((card.key, card) for card in item.cards)
        self.conversation_reset.emit(items)
        problem = self.configuration_problem()
        if problem is not None:
            self.not_configured.emit(problem)
        else:
            start_loading_client_library()

    def waiting_proposals(self) -> int:
        """How many of the conversation's proposals still wait in the review queue."""
        queued = {p["id"] for p in self._proposals()}
        return sum(1 for card in self.cards.values() if card.proposal_id in queued)

    def has_conversation(self) -> bool:
        """Whether the open document's conversation holds anything (a new one would clear it)."""
        return self.session is not None and bool(self.session.transcript.entries)

    def new_conversation(self) -> bool:
        """Start the document's conversation afresh (on screen and in the saved transcript); the
        proposals still waiting keep their cards. False during a turn or without a document."""
        if self.busy or self.session is None:
            return False
        old = self.session.transcript
        fresh = Transcript(document_path=old.document_path, identity=old.identity)
        fresh.entries = card_state.waiting_batches(old.entries, {p["id"] for p in self._proposals()})
        self._retire(self.session)
        self.session = self._new_session(fresh)
        self.session.save()
        self.cards = {}
        self.last_request = self.last_error = None
        self.redraw()
        return True

    def redraw(self) -> None:
        """Show the conversation again from its transcript (after a theme change, whose colours
        the existing messages and cards were drawn with); nothing happens during a turn."""
        reviewer = self.controller.reviewer
        if reviewer is None or self.session is None or self.busy:
            return
        queue = {p["id"]: p for p in self._proposals()}
        pending = {c["id"] for c in reviewer.changes()}
        items = conversation_items(self.session.transcript.entries, queue, pending)
        for item in items:
            self.cards.update((card.key, card) for card in item.cards)
        self.conversation_reset.emit(items)

    def _new_session(self, transcript: Any) -> AgentSession:
        path = self.controller.path
        return AgentSession(
            self.bridge,
            self._settings,
            review_mode=self.mode == "review",
            document_name=Path(path).name if path else None,
            transcript=transcript,
            store=self.store,
            host_tools=self.host_tools,
        )

    def _restart_session(self) -> None:
        """A new session over the same transcript (the system prompt depends on mode and settings)."""
        old = self.session
        if old is None:
            return
        self.session = self._new_session(old.transcript)
        self._retire(old)

    @staticmethod
    def _retire(session: AgentSession | None) -> None:
        """Close the HTTP client a replaced session made, on the loop, without waiting for it."""
        if session is None:
            return
        loop = _event_loop()
        if loop is not None and not loop.is_closed():
            asyncio.ensure_future(session.aclose(), loop=loop)

    def set_mode(self, mode: str) -> None:
        """Review (proposals wait) or Direct (tracked changes at once); after the running turn ends."""
        if mode not in AGENT_MODES:
            raise ValueError(f"Unknown agent mode {mode!r}")
        if self.busy:
            self._pending_mode = mode
            return
        if mode == self.mode:
            return
        self.bridge.mode = mode
        self._restart_session()
        self.mode_changed.emit(mode)

    def set_settings(self, settings: AgentSettings) -> None:
        """New model settings (the settings dialog): the next turn uses them."""
        self._settings = settings.replace(tools_in_thread=False)
        self._restart_session()

    # ------------------------------------------------------------------ turns
    def send(self, text: str, events: EventSource | None = None) -> asyncio.Task[None] | None:
        """Start a turn for ``text`` on the running loop; None when one cannot start now.

        ``events`` runs a task of the app's own instead of one message (a playbook review's
        turns, :mod:`...agent.playbook.playbook_turn`): it is given the session and its events
        are shown like a turn's; ``text`` is then what the conversation shows the person asked,
        and Retry does not send it as a message."""
        text = text.strip()
        if not text or self.busy or self.session is None:
            return None
        problem = self.configuration_problem()
        if problem is not None:
            self.not_configured.emit(problem)
            return None
        self._stop_requested = False
        self.last_request, self._turn_error = (text if events is None else None), None
        self.turn_started.emit(text)
        source = events(self.session) if events is not None else self.session.send(text)
        task = asyncio.ensure_future(self._run_turn(source), loop=_event_loop())
        self._task = task
        # also when the Task is cancelled before its first step (its body, and finally, never run)
        task.add_done_callback(lambda _done: self._turn_ended(task, "cancelled"))
        self.busy_changed.emit(True)
        return task

    def retry(self) -> asyncio.Task[None] | None:
        """Send the last message again (after a failed turn); None when there is none or one runs."""
        return self.send(self.last_request) if self.last_request else None

    def shutdown(self) -> None:
        """The window closes: stop the turn and close the session's HTTP client on the loop."""
        self.stop()
        session, self.session = self.session, None
        self._retire(session)

    def stop(self) -> bool:
        """Cancel the running turn (what already ran stays); False when none runs."""
        if self._task is None or self._task.done():
            return False
        self._stop_requested = True
        self._task.cancel()
        return True

    async def _run_turn(self, source: AsyncIterator[Any]) -> None:
        stop_reason = "error"
        try:
            await client_library_ready()
            async for event in source:
                if isinstance(event, TurnDone):
                    stop_reason = event.stop_reason
                self._dispatch(event)
        except asyncio.CancelledError:
            stop_reason = "cancelled"
            if not self._stop_requested:
                raise
        except Exception as error:  # a bug must not leave the chat stuck in "busy"
            log.exception("the chat turn failed")
            self._raise_error(self.tr("The agent stopped unexpectedly: {0}").format(error), "")
        finally:
            self._turn_ended(asyncio.current_task(), stop_reason)

    def _turn_ended(self, task: asyncio.Task[Any] | None, stop_reason: str) -> None:
        """The turn's Task is over: the chat takes the next message (once per Task)."""
        if task is None or self._task is not task:
            return
        self._running.clear()
        self._task = None
        if stop_reason != "cancelled":  # a stopped turn says nothing about the model
            self.last_error = self._turn_error
        self.busy_changed.emit(False)
        self.turn_finished.emit(stop_reason)
        if self._pending_mode is not None:
            mode, self._pending_mode = self._pending_mode, None
            self.set_mode(mode)

    def _dispatch(self, event: Any) -> None:
        if isinstance(event, TextDelta):
            self.text_delta.emit(event.text)
        elif isinstance(event, Retry):
            self.text_retracted.emit(event.discarded)
        elif isinstance(event, ToolCall):
            line = ToolLineData(event.name, event.input)
            self._running[event.id] = (line, time.perf_counter())
            if event.name in EDIT_TOOLS:
                self._before = self.controller.snapshot()
                self._checks_before = self._checks() if self.mode == "direct" else None
            self.tool_started.emit(line)
        elif isinstance(event, ToolResult):
            line, started = self._running.pop(event.id, (ToolLineData(event.name, None), time.perf_counter()))
            line.ok, line.summary, line.error, line.result = (
                event.ok,
                event.summary,
                event.error,
                event.result,
            )
            line.ms = (time.perf_counter() - started) * 1000
            self.tool_finished.emit(line)
        elif isinstance(event, EditBatch):
            self._add_batch(event)
        elif isinstance(event, ErrorEvent):
            self._raise_error(event.message, event.host or "")
        elif isinstance(event, ProfileChanged):
            self.profile_switched.emit(describe.profile_note(event.message))
        elif isinstance(event, TurnDone) and event.note and event.stop_reason != "cancelled":
            self.note_raised.emit(event.note)

    def _raise_error(self, message: str, host: str) -> None:
        self._turn_error = message
        self.error_raised.emit(message, host)

    def _add_batch(self, event: EditBatch) -> None:
        """Cards for a batch: its rows name each queued operation's proposal and each applied one's
        changes; the replaced text is read from the document as it was before the call."""
        rows = self._logged_rows(event)
        card_state.annotate_batch(rows, before=self._before)
        self._before = None
        entry = self._logged_entry(event)
        if self._checks_before is not None:
            effect = batch_effect(self._checks_before, self._checks() or [])
            self._checks_before = None
            if effect and entry is not None:
                entry["checks"] = effect  # kept in the transcript: a restored card says it again
        checks = entry.get("checks") if entry is not None else None
        cards = card_state.cards_from_entry({**event.to_dict(), "operations": rows, "checks": checks})
        self.cards.update((card.key, card) for card in cards)
        self.cards_added.emit(cards)

    def _logged_rows(self, event: EditBatch) -> list[dict[str, Any]]:
        """The batch's rows as the transcript holds them (annotations must reach the saved file)."""
        entry = self._logged_entry(event)
        return entry["operations"] if entry is not None else event.operations

    def _logged_entry(self, event: EditBatch) -> dict[str, Any] | None:
        if self.session is not None:
            for entry in reversed(self.session.transcript.entries):
                if entry.get("kind") == "edit_batch" and entry.get("id") == event.id:
                    return entry
        return None

    def _checks(self) -> list[Finding] | None:
        """The open document's findings now (the shared checker re-reads only edited blocks)."""
        reviewer = self.controller.reviewer
        if reviewer is None:
            return None
        return checker_for(reviewer).check(reviewer.snapshot(), reviewer.document.body)

    # ------------------------------------------------------------------ card actions
    def apply_cards(self, keys: list[str]) -> list[CardState]:
        """Apply the proposals behind these cards as one undo step; each card shows its outcome."""
        cards = [c for c in self._cards(keys) if c.can_apply]
        if not cards:
            return []
        before = self._checks()
        outcomes = self.controller.apply_proposals([c.proposal_id for c in cards if c.proposal_id])
        effect = batch_effect(before, self._checks() or []) if before is not None else {}
        by_id = {o["id"]: o for o in outcomes}
        for card in cards:
            outcome = by_id.get(card.proposal_id or "", {"status": "missing"})
            card.status = str(outcome["status"])
            card.revision_ids = [str(i) for i in outcome.get("revisionIds") or []]
            card.reason = outcome.get("reason") or (
                describe.stale_reason() if card.status == "stale" else None
            )
            if card.status == "applied" and effect:
                card.checks = effect
        return self._decided(cards, "applied")

    def discard_cards(self, keys: list[str]) -> list[CardState]:
        """Drop the proposals behind these cards (the document does not change)."""
        cards = [c for c in self._cards(keys) if c.mode == "review" and c.proposal_id]
        cards = [c for c in cards if c.status in ("queued", "stale", "failed")]
        for card in cards:
            self.controller.discard_proposal(card.proposal_id or "")
            card.status, card.reason = "discarded", None
        return self._decided(cards, "discarded")

    def accept_cards(self, keys: list[str]) -> list[CardState]:
        """Accept the tracked changes these Direct-mode cards made, as one undo step."""
        return self._decide(keys, accept=True)

    def reject_cards(self, keys: list[str]) -> list[CardState]:
        """Reject (undo in the document, tracked) the changes these Direct-mode cards made."""
        return self._decide(keys, accept=False)

    def _decide(self, keys: list[str], *, accept: bool) -> list[CardState]:
        cards = [c for c in self._cards(keys) if c.can_decide]
        ids = [i for c in cards for i in c.revision_ids]
        if not ids:
            return []
        status = "accepted" if accept else "declined"
        for card in cards:  # set first: the controller's document_changed settles against it
            card.outcome = status
        (self.controller.accept_changes if accept else self.controller.reject_changes)(ids)
        for card in cards:
            card.status = status
        return self._decided(cards, status)

    def _decided(self, cards: list[CardState], outcome: str) -> list[CardState]:
        """Log what the person did (so a reopened chat shows it) and tell the cards."""
        for card in cards:
            if card.status == outcome:
                card.outcome = outcome
            if self.session is not None:
                self.session.transcript.log(card_state.CARD_STATUS, **card_state.outcome_entry(card))
            self.card_changed.emit(card)
        if self.session is not None and not self.session.busy:
            self.session.save()
        return cards

    def _cards(self, keys: list[str]) -> list[CardState]:
        return [self.cards[k] for k in keys if k in self.cards]

    def _proposals(self) -> list[dict[str, Any]]:
        queue = self.controller.review_bridge
        return queue.proposals() if queue is not None else []

    # ------------------------------------------------------------------ the document moved on
    def _document_changed(self, _touched: object) -> None:
        if any(c.revision_ids for c in self.cards.values()):
            self._settle_timer.start()  # coalesce a burst of changes into one look at the document

    def _settle_cards(self) -> None:
        """Cards whose edit landed follow their changes (accepted or rejected elsewhere, undone,
        redone) and their proposals (back in the queue when an Apply was undone)."""
        reviewer = self.controller.reviewer
        if reviewer is None:
            return
        pending = {c["id"] for c in reviewer.changes()}
        queued = {p["id"] for p in self._proposals() if p.get("status") == "queued"}
        for card in self.cards.values():
            if card_state.settle(card, pending, queued):
                self.card_changed.emit(card)


def _event_loop() -> asyncio.AbstractEventLoop | None:
    """The running loop (qasync's in the app), else the thread's current one (tests)."""
    with contextlib.suppress(RuntimeError):
        return asyncio.get_running_loop()
    with contextlib.suppress(RuntimeError):
        return asyncio.get_event_loop_policy().get_event_loop()
    return None
