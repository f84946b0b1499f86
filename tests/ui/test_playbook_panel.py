"""The Playbook panel in the real window: a recorded review's statuses, a click on a position
shows the clause it cites on the page, the lawyer's own status and note are kept (and are there
again when the document is reopened), and the status filter narrows the list.

The review a test starts from is one saved for the document beside its conversation, as the app
leaves it after a run; the window restores it when the document opens.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from reviewer_app.agent.playbook.findings_store import FindingsStore
from reviewer_app.agent.playbook.model import Citation, PlaybookFinding, PlaybookReview
from reviewer_app.agent.transcript import document_identity
from reviewer_app.docx import DocxReviewer
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.playbook_model import STATUS_COLOURS, traffic_light
from reviewer_app.ui.playbook_panel import PlaybookPanel
from tests.docx_factory import make_docx, p
from tests.playbook_fixtures import NDA, PLAYBOOK, TERM, USE
from tests.window_fixtures import choose_in_combo, shown_main_window

LEFT = Qt.MouseButton.LeftButton
ARTIFACTS = Path(__file__).resolve().parents[1] / "_artifacts"
TERM_QUOTE = "two (2) years after disclosure"
USE_QUOTE = "for any purpose whatsoever"


def recorded_review() -> PlaybookReview:
    """The term deviates, the limit on use is missing, governing law is not answered yet."""
    review = PlaybookReview(PLAYBOOK)
    review.record(
        PlaybookFinding(
            "term",
            "deviates",
            "Two years is shorter than the three the firm requires.",
            citations=(Citation(TERM, TERM_QUOTE),),
            severity="high",
        )
    )
    review.record(
        PlaybookFinding(
            "purpose",
            "missing",
            "Nothing limits the use to the purpose.",
            citations=(Citation(USE, USE_QUOTE),),
        )
    )
    return review


@pytest.fixture
def nda(tmp_path: Path) -> Path:
    path = tmp_path / "nda.docx"
    path.write_bytes(NDA)
    return path


def _store(window: MainWindow) -> FindingsStore:
    return FindingsStore(window.chat.chat.store)


def _save_for(window: MainWindow, path: Path, review: PlaybookReview) -> None:
    """Leave ``review`` saved for the document at ``path``, as a finished run does."""
    _store(window).save(review, path, document_identity(DocxReviewer.open(path)))


def _load_for(window: MainWindow, path: Path) -> PlaybookReview | None:
    return _store(window).load(path, document_identity(DocxReviewer.open(path)))


def _open(window: MainWindow, qtbot: Any, path: Path) -> PlaybookPanel:
    with qtbot.waitSignal(window.page_view.layout_finished, timeout=30000):
        assert window.open_path(path)
    dock = window.docks.playbook_dock
    dock.show()
    dock.raise_()
    qtbot.waitUntil(dock.isVisible)
    return window.docks.playbook.panel


def _click_row(panel: PlaybookPanel, qtbot: Any, title: str) -> None:
    row = next(i for i, r in enumerate(panel.rows()) if r.position.title == title)
    rect = panel.list.visualRect(panel.model.index(row))
    qtbot.mouseClick(panel.list.viewport(), LEFT, pos=rect.center())


def _lines(panel: PlaybookPanel) -> list[str]:
    return [panel.model.index(i).data().replace("\n", " | ") for i in range(panel.model.rowCount())]


@pytest.fixture
def window(qtbot: Any) -> MainWindow:
    return shown_main_window(qtbot)


def test_the_panel_shows_the_recorded_statuses_and_a_click_shows_the_cited_clause(
    window: MainWindow, qtbot: Any, nda: Path
) -> None:
    _save_for(window, nda, recorded_review())
    panel = _open(window, qtbot, nda)
    assert panel.heading.text() == "Mutual NDA"
    assert _lines(panel) == [
        "Term of confidentiality | Deviates · High · “The obligations of confidentiality continue for…”",
        "Limited use | Missing · Medium · “The Recipient may use Confidential Information …”",
        "Governing law | Unanswered · Low",
    ]
    assert panel.counts.text() == "3 positions: Deviates 1 · Missing 1 · Unanswered 1"
    # the traffic light: red filled, amber filled, a hollow ring for the unanswered position
    middle = traffic_light("deviates").pixmap(14, 14).toImage().pixelColor(7, 7)
    assert middle.name() == STATUS_COLOURS["deviates"]
    assert traffic_light("unanswered").pixmap(14, 14).toImage().pixelColor(7, 7).alpha() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    window.resizeDocks([window.docks.playbook_dock], [380], Qt.Orientation.Horizontal)

    _click_row(panel, qtbot, "Limited use")
    assert panel.detail.isVisible()
    assert panel.explanation.text() == "Nothing limits the use to the purpose."
    focus = window.page_view._focus
    start = DocxReviewer.open(nda).snapshot().block(USE).text.index(USE_QUOTE)
    assert focus and focus[0][2] - focus[0][1] == len(USE_QUOTE)
    assert window.page_view._focus_target == ("range", USE, str(start), str(start + len(USE_QUOTE)))
    qtbot.wait(50)  # the dock lays its panel out again at its new width
    assert window.docks.playbook_dock.grab().save(str(ARTIFACTS / "playbook_panel.png"))


def test_the_lawyers_status_and_note_are_kept_and_restored_on_reopening(
    window: MainWindow, qtbot: Any, nda: Path, tmp_path: Path
) -> None:
    _save_for(window, nda, recorded_review())
    panel = _open(window, qtbot, nda)
    _click_row(panel, qtbot, "Term of confidentiality")
    assert panel.status_box.currentText() == "Deviates (the agent's answer)"
    choose_in_combo(qtbot, panel.status_box, "Meets")
    assert panel.rows()[0].details().startswith("Meets (overridden) · High")
    QTest.keyClicks(panel.note, "Client accepts two years for this deal.")
    qtbot.waitUntil(lambda: (_load_for(window, nda) or recorded_review()).findings["term"].note != "")
    saved = _load_for(window, nda)
    assert saved is not None
    term = saved.findings["term"]
    assert (term.status, term.override_status, term.note) == (
        "deviates",
        "meets",
        "Client accepts two years for this deal.",
    )
    other = tmp_path / "other.docx"
    other.write_bytes(make_docx(p("Another contract.")))
    _open(window, qtbot, other)
    assert panel.heading.text() == "No playbook review yet" and panel.rows() == []
    _open(window, qtbot, nda)
    assert panel.rows()[0].details().startswith("Meets (overridden) · High")
    assert panel.model.index(0).data(Qt.ItemDataRole.ToolTipRole).split("\n") == [
        "How long do the confidentiality obligations last?",
        "Our position: At least three years from disclosure.",
        "The agent said: Deviates",
        "Your note: Client accepts two years for this deal.",
    ]
    _click_row(panel, qtbot, "Term of confidentiality")
    assert panel.note.toPlainText() == "Client accepts two years for this deal."
    assert panel.status_box.currentText() == "Meets"
    assert DocxReviewer.open(nda).changes() == []  # the verdict is kept in Reviewer, not in the contract


def test_the_context_menu_marks_a_status_and_goes_back_to_the_agents(
    window: MainWindow, qtbot: Any, nda: Path
) -> None:
    _save_for(window, nda, recorded_review())
    panel = _open(window, qtbot, nda)
    rect = panel.list.visualRect(panel.model.index(1))

    def choose(text: str) -> None:
        # a right click: the press, then the context-menu event the platform sends with it
        viewport = panel.list.viewport()
        QTest.mouseClick(viewport, Qt.MouseButton.RightButton, pos=rect.center())
        global_pos = viewport.mapToGlobal(rect.center())
        QApplication.sendEvent(
            viewport, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, rect.center(), global_pos)
        )
        qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
        menu = QApplication.activePopupWidget()
        action = next(a for a in menu.actions() if a.text() == text)
        QTest.mouseClick(menu, LEFT, pos=menu.actionGeometry(action).center())
        qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)

    choose("Mark as Not applicable")
    assert panel.rows()[1].details() == "Not applicable (overridden) · Medium · " + panel.rows()[1].clause
    choose("Use the Agent's Answer")
    assert panel.rows()[1].status == "missing" and not panel.rows()[1].overridden
    assert _load_for(window, nda).findings["purpose"].override_status is None  # type: ignore[union-attr]


def test_the_filter_shows_only_the_positions_with_that_status(
    window: MainWindow, qtbot: Any, nda: Path
) -> None:
    _save_for(window, nda, recorded_review())
    panel = _open(window, qtbot, nda)
    assert [panel.status_filter.itemText(i) for i in range(panel.status_filter.count())] == [
        "All positions",
        "Deviates (1)",
        "Missing (1)",
        "Meets (0)",
        "Not applicable (0)",
        "Unanswered (1)",
    ]
    choose_in_combo(qtbot, panel.status_filter, "Unanswered (1)")
    assert [r.position.id for r in panel.rows()] == ["law"]
    _click_row(panel, qtbot, "Governing law")
    assert panel.explanation.text() == "The agent has not answered this position yet."
    assert not panel.status_box.isEnabled() and not panel.note.isEnabled()
    choose_in_combo(qtbot, panel.status_filter, "All positions")
    assert len(panel.rows()) == 3


def test_the_review_goes_with_the_document_saved_under_a_new_name(
    window: MainWindow, qtbot: Any, nda: Path, tmp_path: Path
) -> None:
    _save_for(window, nda, recorded_review())
    panel = _open(window, qtbot, nda)
    _click_row(panel, qtbot, "Limited use")
    QTest.keyClicks(panel.note, "Raise with the client.")
    renamed = tmp_path / "nda-v2.docx"
    window.files.ask_save_path = lambda *_args: str(renamed)
    QTest.keyClick(
        window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    qtbot.waitUntil(renamed.exists)
    saved = _load_for(window, renamed)
    assert saved is not None and saved.findings["purpose"].note == "Raise with the client."
    other = tmp_path / "other.docx"
    other.write_bytes(make_docx(p("Another contract.")))
    _open(window, qtbot, other)
    _open(window, qtbot, renamed)
    assert [r.status for r in panel.rows()] == ["deviates", "missing", "unanswered"]
