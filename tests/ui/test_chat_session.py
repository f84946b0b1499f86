"""The chat dock across a turn's life and the document's: Stop, failures, no model, mode, reopening.

Real parts as in ``test_chat_dock.py``: the fake Messages server on loopback with the real
``anthropic`` client, a DocumentController over a copy of the sample, a PageView, qasync.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt

from reviewer_app.agent.settings import AgentSettings
from reviewer_app.agent.transcript import STOPPED_BY_USER
from reviewer_app.ui.chat import ChatDock
from tests import chat_fixtures
from tests.chat_fixtures import LAW, three_edits_turn
from tests.fake_anthropic import FakeAnthropic, Status, fast_settings, reply

loop, server, document, make_dock = (
    chat_fixtures.loop,
    chat_fixtures.server,
    chat_fixtures.document,
    chat_fixtures.make_dock,
)


def run_until(loop: asyncio.AbstractEventLoop, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Run the qasync loop until ``condition()`` holds (a turn in flight keeps streaming meanwhile)."""

    async def wait() -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError("the condition did not hold in time")
            await asyncio.sleep(0.01)

    loop.run_until_complete(wait())


def test_stop_during_a_stream_keeps_the_partial_answer(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    partial = "The liability cap in clause 9 is set at the Charges paid in the previous twelve months"
    server.add(reply(partial, chunk=6, stall_after=10, stall_s=20))
    dock = make_dock()
    task = dock.send("Explain the liability cap.")
    run_until(
        loop,
        lambda: (
            len(dock.conversation.answers()) == 1 and "liability" in dock.conversation.answers()[0].markdown
        ),
    )
    qtbot.mouseClick(dock.stop_button, Qt.MouseButton.LeftButton)
    loop.run_until_complete(task)

    assert dock.status.text() == "Stopped"
    shown = dock.conversation.answers()[0].markdown
    assert shown and partial.startswith(shown)
    assert dock.send_button.isEnabled() and not dock.stop_button.isEnabled()
    transcript = dock.chat.session.transcript
    assert any(e["kind"] == "stopped" and e["text"] == STOPPED_BY_USER for e in transcript.entries)

    server.add(reply("It is capped at 100% of the Charges."))
    loop.run_until_complete(dock.send("Shorter, please."))  # the next message is taken
    assert dock.conversation.answers()[-1].markdown == "It is capped at 100% of the Charges."


def test_a_broken_stream_is_shown_once(loop: Any, make_dock: Any, server: FakeAnthropic) -> None:
    server.add(reply("This answer will be cut short", drop_after=6, chunk=5), reply("Whole answer."))
    dock = make_dock()
    loop.run_until_complete(dock.send("Hello"))
    assert [a.markdown for a in dock.conversation.answers()] == ["Whole answer."]


def test_server_failure_shows_a_banner_naming_the_server(
    loop: Any, make_dock: Any, server: FakeAnthropic
) -> None:
    server.add(Status(529), Status(529), Status(529))
    dock = make_dock(settings=fast_settings(server, max_retries=1))
    loop.run_until_complete(dock.send("Hello"))
    (banner,) = dock.banner_texts()
    host = server.base_url.split("//")[1]
    assert host in banner and "did not answer" in banner
    assert dock.send_button.isEnabled()
    assert dock.chat.controller.undo_stack.count() == 0


def test_no_model_configured_offers_the_settings(
    loop: Any, make_dock: Any, server: FakeAnthropic, monkeypatch: pytest.MonkeyPatch, qtbot: Any
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    dock = make_dock(settings=AgentSettings(api_key=None, base_url=None))
    (banner,) = dock.banner_texts()
    assert banner.startswith("No model is configured.") and "ANTHROPIC_API_KEY" in banner
    asked: list[bool] = []
    dock.settings_requested.connect(lambda: asked.append(True))
    button = dock._config_banner.action_button
    assert button is not None and button.text() == "Open settings…"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert asked == [True]

    dock.input.setPlainText("Summarise clause 9.")
    qtbot.keyClick(dock.input, Qt.Key.Key_Return)
    assert dock.input.toPlainText() == "Summarise clause 9."  # kept for when a model is set up
    assert dock.chat.turn_task is None and server.requests == []
    assert dock.send_button.isEnabled()

    dock.set_settings(fast_settings(server))
    assert dock.banner_texts() == []
    server.add(reply("Clause 9 limits liability."))
    task = dock.send()
    assert task is not None and dock.input.toPlainText() == ""
    loop.run_until_complete(task)
    assert dock.conversation.answers()[-1].markdown == "Clause 9 limits liability."


def test_shift_enter_is_a_new_line(make_dock: Any, qtbot: Any) -> None:
    dock = make_dock()
    qtbot.keyClicks(dock.input, "first")
    qtbot.keyClick(dock.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(dock.input, "second")
    assert dock.input.toPlainText() == "first\nsecond"
    assert dock.chat.turn_task is None


def test_mode_switch_starts_a_new_session_on_the_same_conversation(
    loop: Any, make_dock: Any, server: FakeAnthropic
) -> None:
    server.add(reply("Noted."), reply("Still here."))
    dock = make_dock()
    loop.run_until_complete(dock.send("Remember: the client is the Customer."))
    first = dock.chat.session
    modes: list[str] = []
    dock.mode_changed.connect(modes.append)
    dock.set_mode("direct")
    assert modes == ["direct"] and dock.chat.bridge.mode == "direct"
    assert dock.chat.session is not first and dock.chat.session.transcript is first.transcript
    assert dock.chat.session.system_prompt != first.system_prompt
    loop.run_until_complete(dock.send("Who is the client?"))
    sent = server.requests[-1].body["messages"]
    assert "Remember: the client is the Customer." in str(sent[0]["content"])
    assert sent[-1]["role"] == "user" and "Who is the client?" in str(sent[-1]["content"])


def test_reopening_the_document_restores_the_conversation_and_cards(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    server.add(*three_edits_turn())
    first = make_dock()
    loop.run_until_complete(first.send("Tighten the definitions in clause 1.1."))
    (batch,) = first.conversation.batches()
    law = next(iter(batch.cards.values()))
    qtbot.mouseClick(law.apply_button, Qt.MouseButton.LeftButton)
    server.add(reply("Looking at clause 9 now and", chunk=4, stall_after=6, stall_s=20))
    task = first.send("Now clause 9.")
    run_until(loop, lambda: len(first.conversation.answers()) == 3)
    first.stop()
    loop.run_until_complete(task)
    first.chat.controller.save()

    again = make_dock()  # a new window part over the same file
    answers = [a.markdown for a in again.conversation.answers()]
    assert answers[0].startswith("I propose **three** changes")
    assert answers[1] == "Three proposals wait for your review in clause 1.1."
    assert answers[2].startswith("Looking")
    lines = [line.text() for line in again.conversation.tool_lines()]
    assert len(lines) == 1 and lines[0].startswith("✓ Suggested 3 changes · 3 queued")
    (restored,) = again.conversation.batches()
    cards = list(restored.cards.values())
    assert [c.status.text() for c in cards] == ["Applied", "Proposed", "Proposed"]
    assert "<s " in cards[0].redline.text() and "page 2" in cards[0].where.text()
    assert cards[1].apply_button.isVisibleTo(cards[1])

    qtbot.mouseClick(cards[1].apply_button, Qt.MouseButton.LeftButton)  # the persisted queue still works
    assert cards[1].status.text() == "Applied"
    assert "a day other than a Saturday or Sunday" in str(again.chat.controller.reviewer.read_document())
    assert sum(c["blockId"] == LAW for c in again.chat.controller.reviewer.changes()) == 2


def test_reopening_after_closing_without_saving_does_not_claim_the_edit_is_there(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    """The conversation is saved per turn, the document only when the person saves: a proposal
    applied and then thrown away with the unsaved document must not come back as "Applied"."""
    server.add(*three_edits_turn())
    first = make_dock()
    loop.run_until_complete(first.send("Tighten the definitions in clause 1.1."))
    law = next(iter(first.conversation.batches()[0].cards.values()))
    qtbot.mouseClick(law.apply_button, Qt.MouseButton.LeftButton)
    assert law.status.text() == "Applied"  # ... and the window closes without saving

    again = make_dock()
    cards = list(again.conversation.batches()[0].cards.values())
    assert [c.status.text() for c in cards] == ["Resolved in the document", "Proposed", "Proposed"]
    assert not cards[0].accept_button.isVisibleTo(cards[0])


def test_reopening_in_direct_mode_keeps_accept_and_reject(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    server.add(*three_edits_turn())
    first: ChatDock = make_dock(mode="direct")
    loop.run_until_complete(first.send("Tighten the definitions."))
    (batch,) = first.conversation.batches()
    qtbot.mouseClick(list(batch.cards.values())[1].accept_button, Qt.MouseButton.LeftButton)
    first.chat.controller.save()

    again = make_dock(mode="direct")
    cards = list(again.conversation.batches()[0].cards.values())
    assert [c.status.text() for c in cards] == ["Applied", "Accepted", "Applied"]
    qtbot.mouseClick(cards[0].reject_button, Qt.MouseButton.LeftButton)
    assert cards[0].status.text() == "Rejected"
    assert "laws, statutes, regulations and codes" in again.chat.controller.snapshot().block(LAW).text
