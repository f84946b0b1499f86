"""Agent ▸ Triage Their Changes in the real window, clicked as a person would.

The real main window opens a contract the other side sent back with tracked changes; the menu
item is clicked on the menu bar, the scripted model (a real HTTP server on 127.0.0.1) recommends
through ``recommend_change``, and the Changes panel shows each recommendation on its change.
"Accept recommended" and "Reject recommended" are clicked with the mouse: each accepts (rejects)
exactly the changes recommended so as one Undo step, and the saved file, read by LibreOffice,
holds exactly the changes left.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.agent.recommend_change import RECOMMEND_CHANGE
from reviewer_app.ui.chat.message_view import ToolLine
from reviewer_app.ui.main_window import MainWindow
from tests import chat_fixtures
from tests.conftest import REPO_ROOT
from tests.fake_anthropic import FakeAnthropic, fast_settings, reply, result_text, tool, tool_results
from tests.triage_fixtures import (
    LAW_INSERTED,
    NINETY_INSERTED,
    NOT_DELETED,
    OUR_INSERTION,
    THEM,
    THIRTY_DELETED,
    their_redline,
)
from tests.window_fixtures import click_menu_item, shown_main_window

loop, server = chat_fixtures.loop, chat_fixtures.server
ME = "Alex Lawyer"
LEFT = Qt.MouseButton.LeftButton
ARTIFACTS = REPO_ROOT / "tests" / "_artifacts"


def _recommend(change_id: str, verdict: str, reason: str, **extra: Any) -> Any:
    return tool(RECOMMEND_CHANGE, {"changeId": change_id, "verdict": verdict, "reason": reason, **extra})


@pytest.fixture
def window(
    qtbot: Any, loop: asyncio.AbstractEventLoop, server: FakeAnthropic, tmp_path: Path
) -> Iterator[MainWindow]:
    path = tmp_path / "returned.docx"
    path.write_bytes(their_redline(ours=ME))
    win = shown_main_window(qtbot)
    win.chat.set_settings(fast_settings(server))
    win.controller.author = ME
    assert win.open_path(path)
    win.page_view.finish_layout()
    yield win
    if win.chat.chat.session is not None:  # close the HTTP client on the loop it runs on
        loop.run_until_complete(win.chat.chat.session.aclose())


def _triage(window: MainWindow, qtbot: Any, loop: asyncio.AbstractEventLoop) -> None:
    click_menu_item(window, qtbot, "agent", window.actions.triage_changes)
    task = window.chat.chat.turn_task
    assert task is not None, "Triage Their Changes started no turn"
    loop.run_until_complete(task)


def _verdicts(window: MainWindow) -> dict[str, str | None]:
    return {row.id: row.verdict for row in window.docks.redline.model.all_rows}


def _pending(window: MainWindow) -> list[str]:
    return [c["id"] for c in window.controller.reviewer.changes()]


def _click(button: Any) -> None:
    assert button.isVisible() and button.isEnabled(), button.text()
    QTest.mouseClick(button, LEFT)


def _toolbar_click(window: MainWindow, action: Any) -> None:
    _click(window.toolbar.widgetForAction(action))


def test_recommendations_land_on_their_changes_and_accept_recommended_accepts_exactly_those(
    window: MainWindow,
    qtbot: Any,
    loop: asyncio.AbstractEventLoop,
    server: FakeAnthropic,
    lo_inspect: Callable[..., dict[str, Any]],
    tmp_path: Path,
) -> None:
    panel = window.docks.redline
    assert not panel.recommended_row.isVisible()  # nothing recommended yet: no bulk buttons
    server.add(
        reply(
            _recommend(NINETY_INSERTED, "counter", "Ninety days strains cash flow.", counterText="sixty"),
            _recommend(NOT_DELETED, "reject", "Would uncap our liability for indirect loss."),
            _recommend(LAW_INSERTED, "accept", "New York courts are acceptable to us."),
            _recommend(OUR_INSERTION, "accept", "Ours."),  # refused: our own change
        ),
        reply("Counter the payment term, reject the liability change, accept the courts."),
    )
    _triage(window, qtbot, loop)

    sent = server.requests[0].body
    assert RECOMMEND_CHANGE in [t["name"] for t in sent["tools"]]
    refused = [result_text(r) for r in tool_results(server.requests[1].body) if r.get("is_error")]
    assert len(refused) == 1 and f'change {OUR_INSERTION} is by "{ME}", our own side' in refused[0]
    assert window.chat.conversation.answers()[-1].markdown.startswith("Counter the payment term")
    assert _verdicts(window) == {
        THIRTY_DELETED: None,  # unanswered: shown without a badge
        NINETY_INSERTED: "counter",
        NOT_DELETED: "reject",
        LAW_INSERTED: "accept",
        OUR_INSERTION: None,
    }
    row = panel.model.row_of(NOT_DELETED)
    tip = panel.model.data(panel.model.index(row), Qt.ItemDataRole.ToolTipRole)
    assert tip.endswith("Recommended: Reject. Would uncap our liability for indirect loss.")
    assert panel.accept_recommended_button.text() == "Accept recommended (1)"
    assert panel.reject_recommended_button.text() == "Reject recommended (1)"
    lines = [line.phrase for line in window.chat.findChildren(ToolLine)]
    assert lines == [
        f"Recommended counter for change {NINETY_INSERTED}",
        f"Recommended reject for change {NOT_DELETED}",
        f"Recommended accept for change {LAW_INSERTED}",
        f"Recommended accept for change {OUR_INSERTION}",
    ]
    # the counter is a proposal card in the chat, waiting like any agent edit
    assert [c.status for c in window.chat.chat.cards.values()] == ["queued"]
    ARTIFACTS.mkdir(exist_ok=True)
    window.docks.redline_dock.grab().save(str(ARTIFACTS / "triage_changes_panel.png"))
    window.chat_dock.grab().save(str(ARTIFACTS / "triage_chat.png"))

    _click(panel.accept_recommended_button)
    assert _pending(window) == [THIRTY_DELETED, NINETY_INSERTED, NOT_DELETED, OUR_INSERTION]
    _toolbar_click(window, window.actions.undo)  # one Undo brings it back
    assert _pending(window) == [THIRTY_DELETED, NINETY_INSERTED, NOT_DELETED, LAW_INSERTED, OUR_INSERTION]
    _toolbar_click(window, window.actions.redo)

    _click(panel.reject_recommended_button)
    assert _pending(window) == [THIRTY_DELETED, NINETY_INSERTED, OUR_INSERTION]
    text = window.controller.reviewer.snapshot().blocks[1].text
    assert text == "The Supplier shall not be liable for indirect loss."  # their strike is undone
    assert not panel.reject_recommended_button.isEnabled()  # nothing left to reject

    saved = tmp_path / "after-triage.docx"
    window.controller.save(saved)
    lo = lo_inspect(saved)
    assert [(c["type"], c["author"], c["text"]) for c in lo["tracked_changes"]] == [
        ("delete", THEM, "thirty"),
        ("insert", THEM, "ninety"),
        ("insert", ME, "written "),
    ]


def test_recommendations_survive_reopening_the_document(
    window: MainWindow, qtbot: Any, loop: asyncio.AbstractEventLoop, server: FakeAnthropic
) -> None:
    server.add(
        reply(_recommend(NOT_DELETED, "reject", "Uncaps liability.")), reply("Reject the liability change.")
    )
    _triage(window, qtbot, loop)
    path = window.controller.path
    assert path is not None and window.open_path(path)
    window.page_view.finish_layout()
    assert _verdicts(window)[NOT_DELETED] == "reject"
    assert window.docks.redline.recommended_row.isVisible()


def test_without_their_changes_no_turn_starts_and_the_status_bar_says_why(
    window: MainWindow, qtbot: Any, tmp_path: Path
) -> None:
    window.controller.accept_all(THEM)
    click_menu_item(window, qtbot, "agent", window.actions.triage_changes)
    assert window.chat.chat.turn_task is None
    assert window.statusBar().currentMessage() == "There are no tracked changes by the other side to triage."


def test_stop_keeps_what_was_recommended_and_the_tool_leaves_the_conversation(
    window: MainWindow, qtbot: Any, loop: asyncio.AbstractEventLoop, server: FakeAnthropic
) -> None:
    server.add(
        reply(_recommend(NOT_DELETED, "reject", "Uncaps liability.")),
        reply("Still reading the payment clause.", delay_s=30),
    )
    click_menu_item(window, qtbot, "agent", window.actions.triage_changes)
    task = window.chat.chat.turn_task
    assert task is not None

    async def recommended() -> None:  # the turn runs on the loop: let it run until the first recommendation
        while _verdicts(window)[NOT_DELETED] != "reject":
            await asyncio.sleep(0.01)

    loop.run_until_complete(asyncio.wait_for(recommended(), 60))
    _toolbar_click(window, window.actions.agent_stop)
    loop.run_until_complete(asyncio.wait([task]))
    assert _verdicts(window)[NOT_DELETED] == "reject"
    assert window.statusBar().currentMessage() == "Triage: 1 of 4 changes have a recommendation, 3 unanswered"
    session = window.chat.chat.session
    assert session is not None and RECOMMEND_CHANGE not in session.host_tools
    assert not window.triage.triage.active
