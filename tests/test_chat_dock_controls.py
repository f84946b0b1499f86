"""The chat dock's own controls used as a person uses them: Send, the error banner's Retry and
Settings…, the no-model message, New conversation.

Real parts as in ``test_chat_dock.py``: the fake Messages server on loopback with the real
``anthropic`` client, a DocumentController over a copy of the sample, a PageView, qasync; every
control is clicked with ``QTest.mouseClick`` and every message typed with ``QTest.keyClicks``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.ui.chat import ChatDock
from tests import chat_fixtures
from tests.fake_anthropic import FakeAnthropic, reply

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
