"""The main window's chrome a reviewer reads at a glance: the change count in the status bar
agrees with the Changes panel, and a long Undo label does not push the toolbar's commands away.

Offscreen, on the real window; documents are built from exact WordprocessingML.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from reviewer_app.ui.main_window import MainWindow
from tests.docx_factory import make_docx, p


def _ins(change_id: int, text: str, author: str = "Priya") -> str:
    return (
        f'<w:ins w:id="{change_id}" w:author="{author}" w:date="2024-02-02T10:00:00Z">'
        f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:ins>'
    )


def header_and_note_changes() -> bytes:
    """Two changes in the body, two in the header every page shows (one a lone tab), one in a footnote."""
    header = (
        f"<w:p><w:r><w:t>Page </w:t></w:r>{_ins(21, 'DRAFT')}</w:p>"
        '<w:p><w:ins w:id="22" w:author="Priya" w:date="2024-02-02T10:00:00Z"><w:r><w:tab/></w:r></w:ins></w:p>'
    )
    footnotes = (
        f'<w:footnote w:id="1"><w:p><w:r><w:t>See </w:t></w:r>{_ins(31, "Schedule 2")}</w:p></w:footnote>'
    )
    body = (
        p("Payment", "00000001", runs=f"<w:r><w:t>Pay within </w:t></w:r>{_ins(11, '30 days')}")
        + p(
            "Term",
            "00000002",
            runs=f"<w:r><w:t>Term</w:t></w:r>{_ins(12, ' of two years')}"
            '<w:r><w:footnoteReference w:id="1"/></w:r>',
        )
        + '<w:sectPr><w:headerReference w:type="default" r:id="rId1"/></w:sectPr>'
    )
    return make_docx(body, header=header, footnotes=footnotes)


@pytest.fixture
def window(qtbot) -> MainWindow:
    win = MainWindow()
    win.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard  # closing at teardown asks nothing
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    return win


def _status_count(win: MainWindow) -> int:
    return int(win.changes_label.text().split()[0])


def test_status_bar_counts_the_changes_the_panel_lists_header_and_notes_included(
    qtbot, window: MainWindow, tmp_path: Path
) -> None:
    path = tmp_path / "header.docx"
    path.write_bytes(header_and_note_changes())
    assert window.open_path(path)
    panel = window.docks.redline
    assert _status_count(window) == len(panel.model.all_rows) == 5
    assert panel.count_label.text().startswith("5 changes")
    rows = {row.id: row for row in panel.model.all_rows}
    # a header change has no page of its own: the row says where the header shows, and its text
    assert (rows["21"].section, rows["21"].excerpt) == ("Header (every page)", "DRAFT")
    assert rows["22"].excerpt == "(tab)" and "(no text)" not in panel.model.index(2).data()
    assert (rows["31"].section, rows["31"].excerpt) == ("Footnote", "Schedule 2")

    # reject the header change from the panel: both counts follow
    rect = panel.view.visualRect(panel.model.index(panel.model.row_of("21")))
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseClick(panel.reject_button, Qt.MouseButton.LeftButton)
    assert _status_count(window) == len(panel.model.all_rows) == 4
    assert panel.count_label.text().startswith("4 changes")


SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"
PRIYA = "Priya Shah (Harbour Bank counsel)"


def _on_the_bar(win: MainWindow, action) -> bool:
    """True when the action's button is shown on the toolbar itself (not moved to the » menu)."""
    button = win.toolbar.widgetForAction(action)
    return button is not None and button.isVisible() and win.toolbar.rect().contains(button.geometry())


def test_a_long_undo_label_is_elided_and_keeps_the_markup_buttons_on_the_toolbar(
    qtbot, window: MainWindow, tmp_path: Path, artifacts_dir: Path
) -> None:
    path = tmp_path / "contract.docx"
    path.write_bytes(SAMPLE.read_bytes())
    assert window.open_path(path)
    a = window.actions
    assert window.controller.accept_all(PRIYA) > 0
    full = f"Undo Accept all by {PRIYA}"
    assert a.undo.text().replace("&", "") == full  # the Edit menu says it all
    undo_button = window.toolbar.widgetForAction(a.undo)
    shown = undo_button.text()
    assert shown != full and shown.endswith("…") and shown.startswith("Undo Accept")
    assert undo_button.toolTip().startswith(full)  # hovering tells the whole step
    qtbot.waitUntil(lambda: undo_button.width() >= undo_button.sizeHint().width())  # the bar laid out again
    for action in (a.find, a.markup_all, a.markup_none, a.markup_original, a.agent_stop):
        assert _on_the_bar(window, action), action.objectName()
    window.toolbar.grab().save(str(artifacts_dir / "toolbar-long-undo.png"))

    # undone, the label is short again and shown whole
    qtbot.mouseClick(undo_button, Qt.MouseButton.LeftButton)
    assert not a.undo.isEnabled()
    redo_button = window.toolbar.widgetForAction(a.redo)
    assert redo_button.text().startswith("Redo Accept") and redo_button.toolTip().startswith(
        f"Redo Accept all by {PRIYA}"
    )
