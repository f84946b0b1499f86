"""The chat dock's own controls used as a person uses them: Send, the error banner's Retry and
Settings…, the no-model message, New conversation.

Real parts as in ``test_chat_dock.py``: the fake Messages server on loopback with the real
``anthropic`` client, a DocumentController over a copy of the sample, a PageView, qasync; every
control is clicked with ``QTest.mouseClick`` and every message typed with ``QTest.keyClicks``.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QMessageBox, QPushButton, QToolButton, QWidget

from reviewer_app.agent.settings import AgentSettings
from reviewer_app.ui.chat import ChatDock
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.settings_dialog import SettingsDialog
from tests import chat_fixtures
from tests.chat_fixtures import three_edits_turn
from tests.conftest import ARTIFACTS
from tests.fake_anthropic import FakeAnthropic, Status, fast_settings, reply

loop, server, document, make_dock = (
    chat_fixtures.loop,
    chat_fixtures.server,
    chat_fixtures.document,
    chat_fixtures.make_dock,
)


def click(button: Any) -> None:
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def type_message(dock: ChatDock, text: str) -> None:
    QTest.keyClicks(dock.input, text)


def finish_turn(loop: asyncio.AbstractEventLoop, dock: ChatDock) -> None:
    """Run the loop until the turn the last click or key started has ended (or was stopped)."""
    task = dock.chat.turn_task
    assert task is not None, "no turn started"
    with contextlib.suppress(asyncio.CancelledError):  # Stop before the turn's first step
        loop.run_until_complete(task)


def test_the_send_button_sends_what_is_typed(loop: Any, make_dock: Any, server: FakeAnthropic) -> None:
    server.add(reply("Clause 9 caps liability at the Charges."))
    dock = make_dock()
    type_message(dock, "What does clause 9 say?")
    click(dock.send_button)
    assert dock.input.toPlainText() == ""
    finish_turn(loop, dock)
    assert dock.conversation.answers()[-1].markdown == "Clause 9 caps liability at the Charges."
    assert "What does clause 9 say?" in str(server.requests[-1].body["messages"][-1]["content"])
    assert dock.banner_texts() == []


def shown_texts(dock: ChatDock, words: str) -> list[str]:
    """Every label in the dock (banners and conversation) that shows ``words``."""
    labels = dock.findChildren(QLabel)
    return [label.text() for label in labels if words in label.text() and label.isVisibleTo(dock)]


def error_buttons(dock: ChatDock) -> dict[str, QPushButton]:
    """The buttons of the chat's error banner, by their text."""
    banner = dock.error_banner
    assert banner is not None and banner.isVisibleTo(dock)
    return {button.text(): button for button in banner.findChildren(QPushButton)}


def grab(widget: QWidget, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    widget.grab().save(str(ARTIFACTS / f"{name}.png"))


def test_a_failed_turn_shows_one_sentence_with_retry_and_settings(
    loop: Any, make_dock: Any, server: FakeAnthropic
) -> None:
    server.add(Status(529), Status(529))  # the request and the client's one retry
    dock = make_dock()
    type_message(dock, "Summarise clause 9.")
    click(dock.send_button)
    finish_turn(loop, dock)

    host = server.base_url.split("//")[1]
    (text,) = dock.banner_texts()
    assert text.startswith(f"The model server at {host} did not answer") and text.endswith(".")
    assert len(shown_texts(dock, "did not answer")) == 1  # in the banner, not again in the conversation
    buttons = error_buttons(dock)
    assert set(buttons) == {"Retry", "Settings…"}
    grab(dock, "chat_error_banner")
    asked: list[bool] = []
    dock.settings_requested.connect(lambda: asked.append(True))
    click(buttons["Settings…"])
    assert asked == [True]

    server.add(Status(529), Status(529))  # failing again replaces the banner: still one message
    click(buttons["Retry"])
    finish_turn(loop, dock)
    assert len(dock.banner_texts()) == 1 and len(shown_texts(dock, "did not answer")) == 1

    server.add(reply("Clause 9 caps liability at the Charges."))
    retry = error_buttons(dock)["Retry"]
    click(retry)
    assert not retry.isEnabled()  # one retry at a time
    finish_turn(loop, dock)
    assert dock.banner_texts() == [] and shown_texts(dock, "did not answer") == []
    assert dock.conversation.answers()[-1].markdown == "Clause 9 caps liability at the Charges."
    assert "Summarise clause 9." in str(server.requests[-1].body["messages"][-1]["content"])


def test_the_window_says_the_last_request_failed_and_opens_its_settings(
    loop: Any, server: FakeAnthropic, document: Path, qtbot: Any
) -> None:
    """In the real window: the status bar follows the error (not "ready"), the banner's
    Settings… opens the window's settings dialog, and a successful Retry puts "ready" back."""
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    assert win.open_path(document)
    win.chat.set_settings(fast_settings(server))
    server.add(Status(529), Status(529))
    type_message(win.chat, "Summarise clause 9.")
    click(win.chat.send_button)
    finish_turn(loop, win.chat)
    assert win.model_label.text() == "claude-fake-1 · last request failed"
    assert win.model_label.toolTip().startswith("The model server at ")

    click(error_buttons(win.chat)["Settings…"])
    (dialog,) = [d for d in win.findChildren(SettingsDialog) if d.isVisible()]
    dialog.reject()

    server.add(reply("Clause 9 caps liability."))
    click(error_buttons(win.chat)["Retry"])
    assert win.model_label.text() == "claude-fake-1 · working…"
    finish_turn(loop, win.chat)
    assert win.model_label.text() == "claude-fake-1 · ready" and win.model_label.toolTip() == ""
    assert win.chat.banner_texts() == []

    server.add(Status(529), Status(529))  # a new conversation leaves the failure behind too
    type_message(win.chat, "And clause 10?")
    click(win.chat.send_button)
    finish_turn(loop, win.chat)
    assert win.model_label.text() == "claude-fake-1 · last request failed"
    answer(win.chat, new_conversation_box(win.chat, qtbot), "Start new conversation", qtbot)
    assert win.model_label.text() == "claude-fake-1 · ready" and win.chat.banner_texts() == []
    win.close()


def test_with_no_model_enter_says_so_and_keeps_the_message(
    loop: Any, make_dock: Any, server: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    dock = make_dock(settings=AgentSettings(api_key=None, base_url=None))
    (banner,) = dock.banner_texts()
    assert banner.startswith("No model is configured.")
    narrowest = dock.minimumSizeHint().width()
    close = next(b for b in dock.findChildren(QToolButton) if b.toolTip() == "Dismiss")
    click(close)  # the person closed the banner before reading it
    assert dock.banner_texts() == []

    type_message(dock, "Summarise clause 9.")
    QTest.keyClick(dock.input, Qt.Key.Key_Return)
    assert dock.input.toPlainText() == "Summarise clause 9."
    assert dock.status.text().startswith("Not sent: no model is set up yet.")
    assert dock.minimumSizeHint().width() <= narrowest  # the sentence wraps; the dock keeps its width
    (banner,) = dock.banner_texts()  # back, with the way to set one up
    assert banner.startswith("No model is configured.")
    grab(dock, "chat_no_model")
    asked: list[bool] = []
    dock.settings_requested.connect(lambda: asked.append(True))
    click(next(b for b in dock.findChildren(QPushButton) if b.text() == "Open settings…"))
    assert asked == [True] and dock.chat.turn_task is None and server.requests == []

    dock.set_settings(fast_settings(server))  # what saving the settings dialog does
    assert dock.banner_texts() == [] and dock.status.text() == ""
    server.add(reply("Clause 9 caps liability."))
    click(dock.send_button)
    finish_turn(loop, dock)
    assert dock.input.toPlainText() == ""
    assert dock.conversation.answers()[-1].markdown == "Clause 9 caps liability."


def test_with_no_document_enter_says_to_open_one(loop: Any, qtbot: Any) -> None:
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    type_message(win.chat, "Summarise clause 9.")
    QTest.keyClick(win.chat.input, Qt.Key.Key_Return)
    assert win.chat.status.text().startswith("Not sent: open a document first")
    assert win.chat.input.toPlainText() == "Summarise clause 9."
    win.close()


def new_conversation_box(dock: ChatDock, qtbot: Any) -> QMessageBox:
    click(dock.new_button)
    box = dock.findChild(QMessageBox, "newConversationBox")
    assert box is not None
    qtbot.waitUntil(box.isVisible, timeout=2000)
    return box


def answer(dock: ChatDock, box: QMessageBox, text: str, qtbot: Any) -> None:
    """Click the question's button ``text``; the question then goes away."""
    click(next(b for b in box.buttons() if b.text() == text))
    qtbot.waitUntil(lambda: dock.findChild(QMessageBox, "newConversationBox") is None, timeout=2000)


def test_new_conversation_asks_then_clears_it_and_keeps_the_waiting_proposals(
    loop: Any, make_dock: Any, server: FakeAnthropic, qtbot: Any
) -> None:
    server.add(*three_edits_turn(), reply("Clause 9 caps liability."))
    dock = make_dock()
    type_message(dock, "Tighten the definitions in clause 1.1.")
    click(dock.send_button)
    finish_turn(loop, dock)
    law, business, inserted = dock.conversation.batches()[0].cards.values()
    click(law.apply_button)  # decided: its tracked change is in the document now
    type_message(dock, "And clause 9?")
    click(dock.send_button)
    finish_turn(loop, dock)

    box = new_conversation_box(dock, qtbot)
    assert "will be cleared" in box.text()
    assert "The 2 proposals still waiting for you stay, with their cards." in box.text()
    grab(box, "chat_new_conversation_question")
    answer(dock, box, "Cancel", qtbot)
    assert len(dock.conversation.answers()) == 3  # nothing was cleared

    box = new_conversation_box(dock, qtbot)
    answer(dock, box, "Start new conversation", qtbot)
    assert dock.conversation.answers() == [] and dock.conversation.tool_lines() == []
    (batch,) = dock.conversation.batches()
    kept = list(batch.cards.values())
    assert [c.status.text() for c in kept] == ["Proposed", "Proposed"]
    grab(dock, "chat_new_conversation")

    again = make_dock()  # the saved conversation was cleared too: a reopened document shows the same
    assert again.conversation.answers() == []
    assert [c.status.text() for c in again.conversation.batches()[0].cards.values()] == ["Proposed"] * 2
    click(kept[0].apply_button)  # a kept card still works
    assert kept[0].status.text() == "Applied"

    server.add(reply("Hello again."))
    type_message(dock, "Start over: what is this contract?")
    click(dock.send_button)
    finish_turn(loop, dock)
    (only,) = server.requests[-1].body["messages"]  # the model no longer sees the old turns
    assert "Start over" in str(only["content"]) and "clause 1.1" not in str(only["content"])


def test_new_conversation_is_not_offered_during_a_turn(
    loop: Any, make_dock: Any, server: FakeAnthropic
) -> None:
    server.add(reply("Looking at clause 9 now and", chunk=4, stall_after=6, stall_s=20))
    dock = make_dock()
    assert dock.new_button.isEnabled()
    type_message(dock, "Explain clause 9.")
    click(dock.send_button)
    assert not dock.new_button.isEnabled()
    click(dock.new_button)
    assert dock.findChild(QMessageBox, "newConversationBox") is None
    click(dock.stop_button)
    finish_turn(loop, dock)
    assert dock.new_button.isEnabled()
