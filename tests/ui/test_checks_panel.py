"""The Checks panel in the real window: Review ▸ Check Document's shortcut shows it with the
findings, a click on a finding highlights its range on the page, Fix makes a tracked change under
the person's name as one Undo step and the list re-checks, Ignore is remembered for the document
when it is opened again, and the kind filter narrows the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from reviewer_app.docx import DocxReviewer
from reviewer_app.ui.checks_panel import ChecksPanel
from reviewer_app.ui.help_dialogs import ShortcutsDialog
from reviewer_app.ui.main_window import MainWindow
from tests.docx_factory import make_docx, p

PARAGRAPHS = [
    "“Confidential Information” means information marked as confidential.",
    "“Affiliate” means any entity controlling a party.",
    "“Services” means the services in the order.",
    "The Affiliate keeps the Services and the Confidential information safe.",
    "Payment is due within thirty (45) days.",
    "The Customer name is [●].",
    "Confidential Information stays with each Affiliate using the Services.",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "_artifacts"


@pytest.fixture
def draft(tmp_path: Path) -> Path:
    path = tmp_path / "draft.docx"
    xml = "".join(p(text, para_id=f"{i + 1:08X}") for i, text in enumerate(PARAGRAPHS))
    path.write_bytes(make_docx(xml))
    return path


@pytest.fixture
def window(qtbot, draft: Path) -> MainWindow:
    win = MainWindow()
    win.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.resize(1280, 860)
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitSignal(win.page_view.layout_finished, timeout=30000):
        assert win.open_path(draft)
    return win


def _open_checks(window: MainWindow, qtbot) -> ChecksPanel:
    QTest.keyClick(
        window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
    )
    panel = window.docks.checks
    qtbot.waitUntil(lambda: window.docks.checks_dock.isVisible() and panel.list.count() > 0, timeout=5000)
    return panel


def _click_row(panel: ChecksPanel, qtbot, row: int) -> None:
    rect = panel.list.visualRect(panel.list.model().index(row, 0))
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _codes(panel: ChecksPanel) -> list[str]:
    return [f.code for f in panel.findings()]


def test_the_shortcut_shows_the_checks_and_a_click_shows_the_finding_on_the_page(window, qtbot) -> None:
    assert window.docks.check_document.shortcut().toString() == "Ctrl+Alt+K"
    assert window.docks.checks_dock.toggleViewAction() in window.menus["view"].actions()
    QTest.keyClick(window, Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier)  # Keyboard Shortcuts
    dialog = next(
        w for w in QApplication.topLevelWidgets() if isinstance(w, ShortcutsDialog) and w.isVisible()
    )
    assert ("Check Document", "Ctrl+Alt+K", "Review") in dialog.rows()
    dialog.close()
    panel = _open_checks(window, qtbot)
    assert _codes(panel) == ["termCapitalisation", "wordsFiguresMismatch", "placeholder"]
    assert panel.count_label.text() == "3 findings"
    assert panel.list.item(1).text() == ("The words say 30 but the figure says 45: “thirty (45)”.\nPage 1")
    ARTIFACTS.mkdir(exist_ok=True)
    assert window.docks.checks_dock.grab().save(str(ARTIFACTS / "checks_panel.png"))
    _click_row(panel, qtbot, 1)
    assert panel.current_finding().evidence == "thirty (45)"
    focus = window.page_view._focus
    assert focus and focus[0][2] - focus[0][1] == len("thirty (45)")
    assert not panel.fix_button.isEnabled()  # which of the two is right cannot be known


def test_fix_makes_one_tracked_change_by_the_user_and_the_list_re_checks(window, qtbot, draft) -> None:
    panel = _open_checks(window, qtbot)
    _click_row(panel, qtbot, 0)
    assert panel.fix_button.isEnabled()
    steps = window.controller.undo_stack.count()
    qtbot.mouseClick(panel.fix_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _codes(panel) == ["wordsFiguresMismatch", "placeholder"], timeout=5000)
    assert window.controller.undo_stack.count() == steps + 1
    reviewer = window.controller.require()
    assert "Confidential Information safe" in reviewer.snapshot().block("00000004").text
    assert {c["author"] for c in reviewer.changes()} == {window.controller.author}
    window.controller.undo_stack.undo()
    qtbot.waitUntil(lambda: _codes(panel)[0] == "termCapitalisation", timeout=5000)


def test_ignore_is_remembered_when_the_document_is_opened_again(window, qtbot, draft, tmp_path) -> None:
    panel = _open_checks(window, qtbot)
    _click_row(panel, qtbot, 2)
    assert panel.current_finding().code == "placeholder"
    qtbot.mouseClick(panel.ignore_button, Qt.MouseButton.LeftButton)
    assert _codes(panel) == ["termCapitalisation", "wordsFiguresMismatch"]
    assert panel.count_label.text() == "2 findings (1 ignored)"
    other = tmp_path / "other.docx"
    other.write_bytes(make_docx(p("The Customer name is [●].")))
    assert window.open_path(other)
    qtbot.waitUntil(lambda: _codes(panel) == ["placeholder"], timeout=5000)  # another document
    assert window.open_path(draft)
    qtbot.waitUntil(lambda: _codes(panel) == ["termCapitalisation", "wordsFiguresMismatch"], timeout=5000)
    assert DocxReviewer.open(draft).changes() == []  # ignoring writes nothing into the document


def test_the_kind_filter_narrows_the_list(window, qtbot) -> None:
    panel = _open_checks(window, qtbot)
    panel.kind_filter.setFocus()
    QTest.keyClick(panel.kind_filter, Qt.Key.Key_Down)  # All kinds → Defined terms
    assert _codes(panel) == ["termCapitalisation"]
    assert panel.count_label.text() == "1 of 3 findings"
    for _ in range(2):  # → Cross-references → Numbers
        QTest.keyClick(panel.kind_filter, Qt.Key.Key_Down)
    assert _codes(panel) == ["wordsFiguresMismatch"]
