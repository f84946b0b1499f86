"""Agent ▸ Review Against Playbook… and File ▸ Export Issues List… in the real window.

The menus are clicked on the menu bar, the dialog's Import… and Start Review buttons with the
mouse; the model is the scripted Anthropic-compatible server on 127.0.0.1, which answers the
review's task with suggest_changes and record_finding calls as a model would. What a lawyer
relies on is checked: the rows appear with the recorded statuses, a finding's proposal links
to its card, the review is there again when the document is reopened, the issues list read back
with python-docx has the rows, and with no model configured the chat says what to set up.
"""

from __future__ import annotations

import asyncio
import csv
from pathlib import Path
from typing import Any

import docx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.agent.playbook.findings_store import FindingsStore
from reviewer_app.agent.playbook.model import Citation, PlaybookFinding, PlaybookReview
from reviewer_app.agent.playbook.record_finding import RECORD_FINDING
from reviewer_app.agent.playbook.yaml_format import dump_playbook
from reviewer_app.agent.transcript import document_identity
from reviewer_app.docx import DocxReviewer
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.playbook_dialog import PlaybookDialog
from reviewer_app.ui.playbook_panel import PlaybookPanel
from tests import chat_fixtures
from tests.dialog_driver import answer_message_box
from tests.fake_anthropic import FakeAnthropic, fast_settings, reply, tool
from tests.playbook_fixtures import LAW, LAW_TEXT, NDA, PLAYBOOK, PURPOSE_FALLBACK, TERM, USE, cite, finding
from tests.window_fixtures import click_menu_item, shown_main_window

loop, server = chat_fixtures.loop, chat_fixtures.server

LEFT = Qt.MouseButton.LeftButton
ARTIFACTS = Path(__file__).resolve().parents[1] / "_artifacts"
SCRIPT_FINDINGS = {
    "term": finding("term", "deviates", cite(TERM, "two (2) years after disclosure")),
    "purpose": finding(
        "purpose",
        "deviates",
        cite(USE, "for any purpose whatsoever"),
        proposalIds=["purpose-fallback"],
        comment="Ask the client whether any other use is planned.",
    ),
    "law": finding("law", "meets", cite(LAW, LAW_TEXT)),
}
SCRIPT = [
    reply(
        "I propose the playbook's wording for the use.",
        tool("suggest_changes", {"operations": [PURPOSE_FALLBACK]}),
    ),
    reply("Recording the three positions.", *(tool(RECORD_FINDING, f) for f in SCRIPT_FINDINGS.values())),
    reply("Two positions deviate; governing law meets the playbook."),
]


@pytest.fixture
def nda(tmp_path: Path) -> Path:
    path = tmp_path / "nda.docx"
    path.write_bytes(NDA)
    return path


@pytest.fixture
def playbook_file(tmp_path: Path) -> Path:
    """The firm's playbook as the YAML file a lawyer keeps (imported through the dialog)."""
    path = tmp_path / "firm-nda.yaml"
    path.write_text(dump_playbook(PLAYBOOK), encoding="utf-8")
    return path


@pytest.fixture
def open_window(qtbot: Any, loop: Any, nda: Path) -> Any:
    """``open_window(settings)``: the NDA open in the real window, the model set to ``settings``
    (None: no model configured, as on a first start)."""
    windows: list[MainWindow] = []

    def make(settings: Any) -> MainWindow:
        win = shown_main_window(qtbot)
        win.controller.author = "Alex Lawyer"
        if settings is not None:
            win.chat.set_settings(settings)
        with qtbot.waitSignal(win.page_view.layout_finished, timeout=30000):
            assert win.open_path(nda)
        windows.append(win)
        return win

    yield make
    for win in windows:
        if win.chat.chat.session is not None:  # close the HTTP client on the loop it runs on
            loop.run_until_complete(win.chat.chat.session.aclose())


@pytest.fixture
def window(open_window: Any, server: FakeAnthropic) -> MainWindow:
    """The NDA open in the real window, the model being the scripted server."""
    return open_window(fast_settings(server))


def _pick_playbook(window: MainWindow, qtbot: Any, playbook_file: Path) -> PlaybookDialog:
    """Agent ▸ Review Against Playbook…, then Import… the firm's YAML file (selected once added)."""
    click_menu_item(window, qtbot, "agent", window.actions.review_playbook)
    command = window.docks.playbook
    qtbot.waitUntil(lambda: command.dialog is not None and command.dialog.isVisible())
    dialog = command.dialog
    assert dialog is not None
    dialog.ask_import_path = lambda: str(playbook_file)
    QTest.mouseClick(dialog.import_button, LEFT)
    chosen = dialog.chosen()
    assert chosen is not None and chosen.positions == PLAYBOOK.positions
    assert Path(chosen.source).name == "firm-nda.yaml"  # kept in the user's playbook folder
    assert dialog.list.currentItem().text() == "Mutual NDA\nNDA · 3 positions · yours: firm-nda.yaml"
    return dialog


def _statuses(panel: PlaybookPanel) -> list[tuple[str, str]]:
    return [(r.position.id, r.status) for r in panel.rows()]


def test_review_against_playbook_from_the_menu_fills_the_panel(
    window: MainWindow, qtbot: Any, loop: Any, server: FakeAnthropic, nda: Path, playbook_file: Path
) -> None:
    server.add(*SCRIPT)
    dialog = _pick_playbook(window, qtbot, playbook_file)
    ARTIFACTS.mkdir(exist_ok=True)
    assert dialog.grab().save(str(ARTIFACTS / "playbook_dialog.png"))
    QTest.mouseClick(dialog.start_button, LEFT)
    task = window.chat.chat.turn_task
    assert task is not None, "Start Review started no turn"
    panel = window.docks.playbook.panel
    assert window.docks.playbook_dock.isVisible()
    assert _statuses(panel) == [("term", "unanswered"), ("purpose", "unanswered"), ("law", "unanswered")]
    loop.run_until_complete(task)

    assert _statuses(panel) == [("term", "deviates"), ("purpose", "deviates"), ("law", "meets")]
    offered = [t["name"] for t in server.bodies[0]["tools"]]
    assert RECORD_FINDING in offered
    assert RECORD_FINDING not in [t["name"] for t in _ordinary_turn_tools(window, loop, server)]
    assert "Playbook review: 3 of 3 positions answered, 0 unanswered" in window.statusBar().currentMessage()
    # the finding's proposal is listed under it and leads to its card in the chat
    row = next(i for i, r in enumerate(panel.rows()) if r.position.id == "purpose")
    qtbot.mouseClick(panel.list.viewport(), LEFT, pos=panel.list.visualRect(panel.model.index(row)).center())
    assert panel.explanation.text() == (
        "purpose: deviates.\nNote for you (never in the document): Ask the client whether any other use is planned."
    )
    texts = [panel.evidence.item(i).text() for i in range(panel.evidence.count())]
    assert texts[-1] == "Proposal: Replace text · Proposed"
    qtbot.wait(50)  # the panel lays out the finding's details
    assert window.docks.playbook_dock.grab().save(str(ARTIFACTS / "playbook_panel_after_run.png"))
    proposal = panel.evidence.item(len(texts) - 1)
    qtbot.mouseClick(panel.evidence.viewport(), LEFT, pos=panel.evidence.visualItemRect(proposal).center())
    assert window.chat_dock.isVisible()
    assert window.page_view._focus_target == ("block", USE)
    # applied from its card, the proposal says so under the finding
    card = next(w for b in window.chat.conversation.batches() for w in b.cards.values())
    assert card.card.proposal_id == "purpose-fallback"
    QTest.mouseClick(card.apply_button, LEFT)
    qtbot.waitUntil(lambda: panel.evidence.item(panel.evidence.count() - 1).text().endswith("Applied"))
    # saved beside the conversation: the same review is there when the document is opened again
    saved = FindingsStore(window.chat.chat.store).load(nda, document_identity(DocxReviewer.open(nda)))
    assert saved is not None and set(saved.findings) == {"term", "purpose", "law"}
    assert window.open_path(nda)  # reopened
    assert _statuses(panel) == [("term", "deviates"), ("purpose", "deviates"), ("law", "meets")]


def _ordinary_turn_tools(window: MainWindow, loop: Any, server: FakeAnthropic) -> list[dict[str, Any]]:
    """The tools offered to a plain chat message after the review: record_finding is gone."""
    server.add(reply("Clause 1 sets the term."))
    task = window.chat.send("What does clause 1 say?")
    assert task is not None
    loop.run_until_complete(task)
    return server.bodies[-1]["tools"]


def test_with_no_model_the_chat_says_what_to_configure(
    open_window: Any, qtbot: Any, playbook_file: Path, server: FakeAnthropic
) -> None:
    window = open_window(None)
    assert window.chat.chat.configuration_problem() is not None
    dialog = _pick_playbook(window, qtbot, playbook_file)
    QTest.mouseClick(dialog.start_button, LEFT)
    assert window.chat.chat.turn_task is None
    assert any(text.startswith("No model is configured.") for text in window.chat.banner_texts())
    assert window.chat_dock.isVisible()
    assert server.bodies == []
    # the review is set up, waiting to be run: every position is listed as unanswered
    assert [r.status for r in window.docks.playbook.panel.rows()] == ["unanswered"] * 3


def test_a_file_that_is_not_a_playbook_says_where_it_is_wrong(
    window: MainWindow, qtbot: Any, tmp_path: Path
) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(
        "name: Broken\ncontract_type: NDA\npositions:\n  - id: term\n    title: Term\n", encoding="utf-8"
    )
    click_menu_item(window, qtbot, "agent", window.actions.review_playbook)
    dialog = window.docks.playbook.dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    names = dialog.playbook_names()
    dialog.ask_import_path = lambda: str(bad)
    QTest.mouseClick(dialog.import_button, LEFT)
    assert dialog.problem.isVisible()
    assert dialog.problem.text().startswith("Not imported: broken.yaml, line 4")
    assert dialog.playbook_names() == names  # nothing was added
    QTest.mouseClick(dialog.buttons.button(dialog.buttons.StandardButton.Cancel), LEFT)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert window.chat.chat.turn_task is None


@pytest.mark.parametrize("suffix", [".docx", ".csv"])
def test_export_issues_list_writes_the_rows(
    window: MainWindow,
    qtbot: Any,
    loop: Any,
    server: FakeAnthropic,
    tmp_path: Path,
    playbook_file: Path,
    suffix: str,
) -> None:
    server.add(*SCRIPT)
    QTest.mouseClick(_pick_playbook(window, qtbot, playbook_file).start_button, LEFT)
    loop.run_until_complete(window.chat.chat.turn_task)
    target = tmp_path / f"issues{suffix}"
    asked: list[str] = []

    def answer(title: str, suggestion: str, file_filter: str = "") -> str:
        asked.append(f"{title}|{Path(suggestion).name}|{file_filter}")
        return str(target)

    window.files.ask_save_path = answer
    click_menu_item(window, qtbot, "file", window.actions.export_issues)
    assert asked == ["Export issues list|nda issues list.docx|Word documents (*.docx);;CSV files (*.csv)"]
    if suffix == ".docx":
        table = docx.Document(str(target)).tables[0]
        rows = [[cell.text for cell in row.cells] for row in table.rows]
        assert rows[0][:3] == ["Position", "Status", "Clause"]
        assert [[r[0].splitlines()[0], r[1]] for r in rows[1:]] == [
            ["Term of confidentiality", "Deviates"],
            ["Limited use", "Deviates"],
            ["Governing law", "Meets"],
        ]
        assert "solely for the Purpose" in rows[2][4]  # the proposal's wording
        assert "Ask the client" in rows[2][6]  # the internal comment, here and never in the contract
    else:
        with target.open(encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.reader(handle))
        assert [r[0] for r in rows[1:]] == ["term", "purpose", "law"]
    assert f"Exported the issues list to issues{suffix}" in window.statusBar().currentMessage()


def test_export_without_a_review_says_how_to_make_one(window: MainWindow, qtbot: Any) -> None:
    window.files.ask_save_path = lambda *_a: pytest.fail("no file is asked for without a review")
    seen = answer_message_box(qtbot, "noPlaybookReviewBox", "OK")
    click_menu_item(window, qtbot, "file", window.actions.export_issues)
    qtbot.waitUntil(lambda: seen.shown)
    assert "Agent ▸ Review Against Playbook…" in seen.text


async def _until(condition: Any) -> None:
    """Let the turn run until ``condition()`` holds (the window's loop is asyncio on Qt's)."""
    while not condition():
        await asyncio.sleep(0.02)


def test_stop_keeps_what_was_recorded_and_the_same_playbook_continues(
    window: MainWindow, qtbot: Any, loop: Any, server: FakeAnthropic, nda: Path, playbook_file: Path
) -> None:
    server.add(
        reply("Recording the term.", tool(RECORD_FINDING, SCRIPT_FINDINGS["term"])),
        reply("Still reading the use clause…", delay_s=20),
    )
    QTest.mouseClick(_pick_playbook(window, qtbot, playbook_file).start_button, LEFT)
    task = window.chat.chat.turn_task
    panel = window.docks.playbook.panel
    loop.run_until_complete(_until(lambda: panel.rows()[0].status == "deviates"))
    QTest.mouseClick(window.chat.stop_button, LEFT)
    loop.run_until_complete(_until(task.done))
    assert _statuses(panel) == [("term", "deviates"), ("purpose", "unanswered"), ("law", "unanswered")]
    saved = FindingsStore(window.chat.chat.store).load(nda, document_identity(DocxReviewer.open(nda)))
    assert saved is not None and list(saved.findings) == ["term"]

    # the same playbook again: picked at once, and the agent is asked only about the rest
    server.add(
        reply(
            "Recording the rest.",
            tool(RECORD_FINDING, {**SCRIPT_FINDINGS["purpose"], "proposalIds": []}),
            tool(RECORD_FINDING, SCRIPT_FINDINGS["law"]),
        ),
        reply("Done."),
    )
    click_menu_item(window, qtbot, "agent", window.actions.review_playbook)
    dialog = window.docks.playbook.dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    assert dialog.list.currentItem().text().endswith("yours: firm-nda.yaml")
    QTest.mouseClick(dialog.start_button, LEFT)
    loop.run_until_complete(window.chat.chat.turn_task)
    assert _statuses(panel) == [("term", "deviates"), ("purpose", "deviates"), ("law", "meets")]
    task_text = server.bodies[-2]["messages"][-1]["content"]
    task_text = task_text if isinstance(task_text, str) else task_text[-1]["text"]
    assert '"id":"purpose"' in task_text and '"id":"term"' not in task_text


def test_another_playbook_replaces_the_review_only_when_the_lawyer_agrees(
    window: MainWindow, qtbot: Any, loop: Any, server: FakeAnthropic, playbook_file: Path
) -> None:
    server.add(*SCRIPT)
    QTest.mouseClick(_pick_playbook(window, qtbot, playbook_file).start_button, LEFT)
    loop.run_until_complete(window.chat.chat.turn_task)
    requests = len(server.bodies)
    click_menu_item(window, qtbot, "agent", window.actions.review_playbook)
    dialog = window.docks.playbook.dialog
    assert dialog is not None
    qtbot.waitUntil(dialog.isVisible)
    other = dialog.playbook_names().index("SaaS / cloud services (customer)")
    qtbot.mouseClick(
        dialog.list.viewport(), LEFT, pos=dialog.list.visualItemRect(dialog.list.item(other)).center()
    )
    asked = answer_message_box(qtbot, "replacePlaybookReviewBox", "Cancel")
    QTest.mouseClick(dialog.start_button, LEFT)
    assert asked.shown and "“Mutual NDA” (3 findings" in asked.text
    assert window.chat.chat.turn_task is None and len(server.bodies) == requests
    panel = window.docks.playbook.panel
    assert panel.heading.text() == "Mutual NDA"
    assert _statuses(panel) == [("term", "deviates"), ("purpose", "deviates"), ("law", "meets")]


def test_a_position_answered_again_keeps_the_lawyers_status_and_note(
    open_window: Any, qtbot: Any, loop: Any, server: FakeAnthropic, nda: Path, playbook_file: Path
) -> None:
    earlier = PlaybookReview(PLAYBOOK)
    earlier.record(
        PlaybookFinding(
            "term", "deviates", "Too short.", citations=(Citation(TERM, "two (2) years"),)
        ).overridden("meets", "Two years is fine for this client.")
    )
    FindingsStore().save(earlier, nda, document_identity(DocxReviewer.open(nda)))
    window = open_window(fast_settings(server))
    server.add(
        reply(
            "Recording.", *(tool(RECORD_FINDING, {**f, "proposalIds": []}) for f in SCRIPT_FINDINGS.values())
        ),
        reply("Done."),
    )
    QTest.mouseClick(_pick_playbook(window, qtbot, playbook_file).start_button, LEFT)
    loop.run_until_complete(window.chat.chat.turn_task)
    term = window.docks.playbook.review.findings["term"]
    assert (term.status, term.override_status, term.note) == (
        "deviates",
        "meets",
        "Two years is fine for this client.",
    )
    assert term.explanation == "term: deviates."  # the agent's new answer, beside the lawyer's verdict
    assert window.docks.playbook.panel.rows()[0].details().startswith("Meets (overridden)")
