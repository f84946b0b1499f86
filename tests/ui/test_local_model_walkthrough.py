"""A lawyer points Reviewer at a laptop's model, clicking through the real window.

Each test opens the sample contract in the real main window, opens Edit ▸ Settings… from the
menu bar, clicks Local server, types a scripted local server's URL (a llama.cpp-style Messages
server with an 8,192-token window it reports on ``/props``, or an OpenAI-only server), picks the
API and the tool profile, clicks OK, types a request into the chat and clicks Send. The turn
ends with a proposal card on the contract, and the server checks every request it received
fits the 8k window (it would refuse one that did not, with llama.cpp's error). A model that
never calls tools gets the same card through the edit-JSON pipeline; one whose server refuses
tools is switched to it mid-turn, and the conversation says so.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel, QLineEdit

from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.settings_dialog import SettingsDialog
from tests import chat_fixtures
from tests.chat_fixtures import LAW, SAMPLE
from tests.fake_anthropic import FakeAnthropic, Status, reply, tool
from tests.fake_openai import FakeOpenAI, OAReply
from tests.window_fixtures import choose_in_combo, shown_main_window

loop = chat_fixtures.loop

LEFT = Qt.MouseButton.LeftButton
WINDOW = 8192
#: the words clause 1.1's "Applicable Law" definition has, and what the scripted model proposes
OLD, NEW = "laws, statutes, regulations and codes", "laws, statutes, regulations, codes"
REQUEST = "In 1.1, drop the stray 'and' from Applicable Law."
SWITCH_NOTE = "Reviewer switched to plain edit JSON"


# ----------------------------------------------------------------------------- clicking
def settle(qtbot: Any, ms: int = 30) -> None:
    qtbot.wait(ms)


def open_settings_from_the_menu(window: MainWindow, qtbot: Any) -> SettingsDialog:
    """Click Edit on the menu bar, then Settings… in the menu; the dialog that opens (window-modal)."""
    bar = window.menuBar()
    edit = window.menus["edit"]
    QTest.mouseClick(bar, LEFT, pos=bar.actionGeometry(edit.menuAction()).center())
    qtbot.waitUntil(edit.isVisible)
    QTest.mouseClick(edit, LEFT, pos=edit.actionGeometry(window.actions.settings).center())
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), SettingsDialog))
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, SettingsDialog)
    return dialog


def retype(edit: QLineEdit, text: str) -> None:
    QTest.mouseClick(edit, LEFT)
    QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(edit, Qt.Key.Key_Delete)
    QTest.keyClicks(edit, text)


def configure_local_model(
    window: MainWindow, qtbot: Any, url: str, api: str, tools: str, context: str = ""
) -> None:
    """Edit ▸ Settings…, Local server, the URL, API, window and tools as a person types them, OK."""
    dialog = open_settings_from_the_menu(window, qtbot)
    QTest.mouseClick(dialog.local_radio, LEFT)
    retype(dialog.base_url_edit, url)
    retype(dialog.model_edit, "qwen2.5-7b-instruct-q4")
    choose_in_combo(qtbot, dialog.api_combo, api)
    retype(dialog.context_edit, context)
    choose_in_combo(qtbot, dialog.profile_combo, tools)
    QTest.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), LEFT)
    qtbot.waitUntil(lambda: not dialog.isVisible())


def send(window: MainWindow, loop: asyncio.AbstractEventLoop, text: str) -> None:
    """Type ``text`` into the chat, click Send, and run the turn to its end."""
    QTest.keyClicks(window.chat.input, text)
    QTest.mouseClick(window.chat.send_button, LEFT)
    task = window.chat.chat.turn_task
    assert task is not None, "Send started no turn"
    try:
        loop.run_until_complete(task)
    finally:
        if window.chat.chat.session is not None:  # close the HTTP client on the loop it runs on
            loop.run_until_complete(window.chat.chat.session.aclose())


def open_sample(qtbot: Any, tmp_path: Path) -> MainWindow:
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    window = shown_main_window(qtbot)
    assert window.open_path(copy)
    window.page_view.finish_layout()
    return window


# ----------------------------------------------------------------------------- what the user sees
def the_proposal_card(window: MainWindow, before: bytes) -> None:
    """One card, Proposed, on Applicable Law; the Review queue holds it; the contract is untouched."""
    (batch,) = window.chat.conversation.batches()
    (card,) = batch.cards.values()
    assert (card.title.text(), card.status.text()) == ("Replace text", "Proposed")
    assert card.apply_button.isVisible()
    (proposal,) = window.controller.review_bridge.proposals()
    assert proposal["operation"]["blockId"] == LAW and proposal["operation"]["replace"] == NEW
    assert window.reviewer.to_bytes() == before


def notes_shown(window: MainWindow, words: str) -> list[str]:
    labels = window.chat.conversation.findChildren(QLabel)
    return [label.text() for label in labels if words in label.text() and label.isVisibleTo(window.chat)]


def everything_fit(sizes: list[int], bodies: list[dict[str, Any]]) -> None:
    assert sizes and len(sizes) == len(bodies)
    for size, body in zip(sizes, bodies, strict=True):
        assert size + body["max_tokens"] <= WINDOW, (size, body["max_tokens"])


# ----------------------------------------------------------------------------- scripted models
def tool_flow() -> list[Any]:
    """Find the words, then propose the change in the block find_text named; then a summary."""

    def propose(request: dict[str, Any]) -> Any:
        assert LAW in json.dumps(request["messages"][-1]), "find_text did not name the block"
        op = {"type": "replaceInBlock", "blockId": LAW, "find": OLD, "replace": NEW}
        return reply(tool("suggest_changes", {"operations": [op]}))

    return [
        reply(tool("find_text", {"query": OLD})),
        propose,
        reply("One proposal waits for you in clause 1.1."),
    ]


def edit_json_answer(body: dict[str, Any]) -> Any:
    """A model without tools: it reads the marked-up document and answers with edit JSON in prose."""
    sent = json.dumps(body["messages"])
    (index,) = re.findall(rf"<!-- b:(\d+) id:{LAW} -->", sent)
    edits = {"modifications": [{"blockIndex": int(index), "originalContent": OLD, "content": NEW}]}
    return reply("Here is the change:\n```json\n" + json.dumps(edits) + "\n```\n")


# ----------------------------------------------------------------------------- the walkthroughs
def test_a_llama_cpp_server_with_an_8k_window_and_the_compact_tools(
    qtbot: Any, loop: Any, tmp_path: Path, artifacts_dir: Path
) -> None:
    window = open_sample(qtbot, tmp_path)
    before = window.reviewer.to_bytes()
    with FakeAnthropic(tool_flow(), context_tokens=WINDOW) as server:
        configure_local_model(window, qtbot, server.base_url, "Anthropic Messages", "Compact (small models)")
        send(window, loop, REQUEST)
    window.chat.grab().save(str(artifacts_dir / "local_model_walkthrough_chat.png"))
    session = window.chat.chat.session
    assert session is not None
    assert (session.context_window, session.profile) == (WINDOW, "compact")  # learned from /props
    assert server.requests[0].body["model"] == "qwen2.5-7b-instruct-q4"
    assert len(server.requests[0].body["tools"]) == 6
    everything_fit(server.sizes, server.bodies)
    assert window.chat.banner_texts() == []
    the_proposal_card(window, before)
    assert window.chat.conversation.answers()[-1].markdown == "One proposal waits for you in clause 1.1."


def test_an_openai_only_server_with_the_window_typed_in(qtbot: Any, loop: Any, tmp_path: Path) -> None:
    window = open_sample(qtbot, tmp_path)
    before = window.reviewer.to_bytes()

    def propose(body: dict[str, Any]) -> OAReply:
        assert LAW in json.dumps(body["messages"][-1]), "find_text did not name the block"
        op = {"type": "replaceInBlock", "blockId": LAW, "find": OLD, "replace": NEW}
        return OAReply(calls=[("suggest_changes", {"operations": [op]})])

    script = [OAReply(calls=[("find_text", {"query": OLD})]), propose, OAReply("One proposal waits for you.")]
    with FakeOpenAI(script, context_tokens=WINDOW) as server:
        configure_local_model(
            window, qtbot, server.base_url, "OpenAI chat completions", "Compact (small models)", str(WINDOW)
        )
        send(window, loop, REQUEST)
    assert len(server.requests) == 3
    assert [t["function"]["name"] for t in server.requests[0]["tools"]][-1] == "suggest_changes"
    everything_fit(server.sizes, server.requests)
    assert window.chat.banner_texts() == []
    the_proposal_card(window, before)


def test_a_model_that_never_calls_tools_gets_the_pipeline(qtbot: Any, loop: Any, tmp_path: Path) -> None:
    window = open_sample(qtbot, tmp_path)
    before = window.reviewer.to_bytes()
    with FakeAnthropic([edit_json_answer], context_tokens=WINDOW) as server:
        configure_local_model(window, qtbot, server.base_url, "Anthropic Messages", "Pipeline (no tools)")
        send(window, loop, REQUEST)
    assert "tools" not in server.requests[0].body
    everything_fit(server.sizes, server.bodies)
    the_proposal_card(window, before)
    assert notes_shown(window, SWITCH_NOTE) == []  # chosen, not switched to


@pytest.mark.parametrize("tools", ["Automatic (from the context window)", "Compact (small models)"])
def test_a_server_that_refuses_tools_switches_to_the_pipeline_and_says_so(
    qtbot: Any, loop: Any, tmp_path: Path, artifacts_dir: Path, tools: str
) -> None:
    window = open_sample(qtbot, tmp_path)
    before = window.reviewer.to_bytes()
    refusal = Status(400, message="registry.ollama.ai/library/gemma2:2b does not support tools")
    with FakeAnthropic([refusal, edit_json_answer], context_tokens=WINDOW) as server:
        configure_local_model(window, qtbot, server.base_url, "Anthropic Messages", tools)
        send(window, loop, REQUEST)
    window.chat.grab().save(str(artifacts_dir / "local_model_switched_to_pipeline.png"))
    assert "tools" in server.requests[0].body and "tools" not in server.requests[1].body
    everything_fit(server.sizes, server.bodies)
    (note,) = notes_shown(window, SWITCH_NOTE)
    assert note.startswith("This model does not call tools")
    assert window.chat.banner_texts() == []  # the refusal is no error: the turn went on
    the_proposal_card(window, before)
