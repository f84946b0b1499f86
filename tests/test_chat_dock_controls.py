"""The chat dock's own controls used as a person uses them: Send, the error banner's Retry and
Settings…, the no-model message, New conversation.

Real parts as in ``test_chat_dock.py``: the fake Messages server on loopback with the real
``anthropic`` client, a DocumentController over a copy of the sample, a PageView, qasync; every
control is clicked with ``QTest.mouseClick`` and every message typed with ``QTest.keyClicks``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from reviewer_app.ui.chat import ChatDock
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.settings_dialog import SettingsDialog
from tests import chat_fixtures
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
    """Run the loop until the turn the last click or key started has ended."""
    task = dock.chat.turn_task
    assert task is not None, "no turn started"
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
    win.close()
