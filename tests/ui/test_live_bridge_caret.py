"""The agent reads the person's selection and shows a passage by moving the caret, in the real window.

The scripted model on loopback (the real ``anthropic`` client, the real agent loop and tools)
talks to the main window as a person uses it: the person selects with Shift+arrows or a mouse
drag, types a question and clicks Send; the model calls ``read_selection`` and the test reads
the tool result the model was sent. Then the model calls ``show_in_document`` on a range: the
range is selected with the caret at its end, so after F6 (back to the document, as in Word)
the person's typing replaces it, and an arrow goes on from its end.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.docx.find import text_range
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview.caret import Caret
from tests import chat_fixtures
from tests.chat_fixtures import SAMPLE
from tests.fake_anthropic import FakeAnthropic, fast_settings, reply, result_text, tool, tool_results, unfence
from tests.ui.test_page_typing import CLAUSE_5_2, ME, gap_point, mine, text_of
from tests.window_fixtures import shown_main_window

loop, server = chat_fixtures.loop, chat_fixtures.server
LEFT = Qt.MouseButton.LeftButton
CLAUSE_12_4 = "47025053"  # "The Supplier shall not appoint any sub-processor …"


@pytest.fixture
def window(qtbot: Any, loop: Any, server: FakeAnthropic, tmp_path: Path) -> Iterator[MainWindow]:
    """The shown main window on a copy of the sample, its chat talking to the scripted model."""
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    win = shown_main_window(qtbot)
    win.chat.set_settings(fast_settings(server))
    assert win.open_path(copy)
    win.controller.author = ME
    win.page_view.finish_layout()
    yield win
    if win.chat.chat.session is not None:  # close the HTTP client on the loop it runs on
        with contextlib.suppress(Exception):
            loop.run_until_complete(win.chat.chat.session.aclose())


def ask(window: MainWindow, loop: Any, question: str) -> None:
    """Type the question into the chat, click Send and let the scripted turn run to its end."""
    QTest.keyClicks(window.chat.input, question)
    QTest.mouseClick(window.chat.send_button, LEFT)
    task = window.chat.chat.turn_task
    assert task is not None, "Send started no turn"
    loop.run_until_complete(task)


def results_of(server: FakeAnthropic, name: str) -> list[Any]:
    """What each call of tool ``name`` returned to the model, decoded, in the order of the calls."""
    called: dict[str, str] = {}
    found = []
    for request in server.requests:
        for message in request.body.get("messages", []):
            for block in message.get("content") if isinstance(message.get("content"), list) else []:
                if block.get("type") == "tool_use":
                    called[block["id"]] = block["name"]
        found += [
            unfence(result_text(b))
            for b in tool_results(request.body)
            if called.get(b["tool_use_id"]) == name
        ]
    return found


def test_the_agent_reads_a_shift_arrow_selection_and_typing_replaces_the_range_it_shows(
    window: MainWindow, qtbot: Any, loop: Any, server: FakeAnthropic, tmp_path: Path
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    start = original.index("monthly in arrears")
    assert view.scroll_to_block(CLAUSE_5_2)
    qtbot.mouseClick(view.viewport(), LEFT, pos=gap_point(view, CLAUSE_5_2, start))
    for _ in "monthly":
        QTest.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    shown = original.index("Each invoice")
    block = window.controller.snapshot().block(CLAUSE_5_2)
    target = text_range(block, shown, shown + len("Each"))
    server.add(
        reply(tool("read_selection")),
        reply("Let me show you where.", tool("show_in_document", {"range": target})),
        reply("The selected word sets the invoicing period; see the next sentence."),
    )
    ask(window, loop, "What does the selected word mean?")
    assert results_of(server, "read_selection") == [{"text": "monthly"}]
    assert results_of(server, "show_in_document") == [{"shown": True}]
    assert view.selection_ends() == (Caret(CLAUSE_5_2, shown), Caret(CLAUSE_5_2, shown + len("Each")))
    assert view.caret() == Caret(CLAUSE_5_2, shown + len("Each"))

    QTest.keyClick(window.chat.input, Qt.Key.Key_F6)  # back to the document, the selection kept
    assert window.focusWidget() is view
    QTest.keyClicks(view, "Every")
    intended = original[:shown] + "Every" + original[shown + len("Each") :]
    assert text_of(window, CLAUSE_5_2) == intended
    assert sorted((c["type"], c["text"]) for c in mine(window)) == [
        ("deletion", "Each"),
        ("insertion", "Every"),
    ]
    assert view.caret() == Caret(CLAUSE_5_2, shown + len("Every"))


def test_the_agent_reads_a_dragged_selection_and_the_caret_ends_where_the_drag_did(
    window: MainWindow, qtbot: Any, loop: Any, server: FakeAnthropic
) -> None:
    view = window.page_view
    text = text_of(window, CLAUSE_12_4)
    start = text.index("sub-processor")
    end = start + len("sub-processor")
    assert view.scroll_to_block(CLAUSE_12_4)
    press, release = gap_point(view, CLAUSE_12_4, start), gap_point(view, CLAUSE_12_4, end)
    QTest.mousePress(view.viewport(), LEFT, pos=press)
    QTest.mouseMove(view.viewport(), release)
    QTest.mouseRelease(view.viewport(), LEFT, pos=release)
    assert view.caret() == Caret(CLAUSE_12_4, end)  # the caret is where the pointer let go
    QTest.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)  # and Shift goes on from there
    assert view.selection_ends() == (Caret(CLAUSE_12_4, start), Caret(CLAUSE_12_4, end + 1))
    server.add(
        reply(tool("read_selection")), reply("A sub-processor is a subcontractor that processes data.")
    )
    ask(window, loop, "Explain this term.")
    assert results_of(server, "read_selection") == [{"text": text[start : end + 1]}]


def test_a_block_the_agent_shows_gets_the_caret_at_its_start(
    window: MainWindow, qtbot: Any, loop: Any, server: FakeAnthropic
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_12_4)
    server.add(reply(tool("show_in_document", {"blockId": CLAUSE_12_4})), reply("Here is clause 12.4."))
    ask(window, loop, "Where do we deal with sub-processors?")
    assert results_of(server, "show_in_document") == [{"shown": True}]
    assert view.caret() == Caret(CLAUSE_12_4, 0) and view.selection_ends() is None
    QTest.keyClick(window.chat.input, Qt.Key.Key_F6)
    QTest.keyClicks(view, "Subject to clause 12.5, ")
    assert text_of(window, CLAUSE_12_4) == "Subject to clause 12.5, " + original
