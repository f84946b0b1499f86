"""The zoom percentage in the status bar: it follows the zoom keys, fit width and the window's
size, and a click on it offers sizes. Offscreen Qt, real keys and clicks on the window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMenu

from reviewer_app.ui.main_window import MainWindow
from tests.conftest import REPO_ROOT
from tests.window_fixtures import shown_main_window

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"


@pytest.fixture
def window(qtbot) -> MainWindow:
    if not SAMPLE.exists():
        pytest.skip("the sample contract is missing")
    win = shown_main_window(qtbot)
    assert win.open_path(SAMPLE)
    return win


def shown_percent(win: MainWindow) -> str:
    return f"{round(win.page_view.zoom() * 100)} %"


def test_status_bar_shows_the_zoom_and_follows_the_keys(
    window: MainWindow, qtbot, artifacts_dir: Path
) -> None:
    button = window.zoom_button
    assert button.isVisible() and window.statusBar().isAncestorOf(button)
    assert window.page_view.zoom_mode() == "fit-width"
    assert button.text() == shown_percent(window) and button.text() != "100 %"
    window.page_view.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert button.text() == "100 %"
    qtbot.wait(50)  # the status bar lays out its labels from the event loop
    assert window.statusBar().grab().save(str(artifacts_dir / "status-bar-zoom.png"))
    qtbot.keyClick(window, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert button.text() == "120 %"
    qtbot.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert button.text() == "100 %"
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # fit width again
    fit = button.text()
    assert fit == shown_percent(window)
    window.resize(1500, 860)  # in fit width the zoom follows the window
    qtbot.waitUntil(lambda: button.text() != fit)
    assert button.text() == shown_percent(window)


def test_a_click_on_the_zoom_offers_sizes(window: MainWindow, qtbot) -> None:
    button = window.zoom_button
    picked: list[str] = []

    def choose() -> None:
        menu = QApplication.activePopupWidget()
        assert isinstance(menu, QMenu)
        picked.extend(a.text() for a in menu.actions() if a.text())
        action = next(a for a in menu.actions() if a.text() == "150 %")
        qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())

    QTimer.singleShot(100, choose)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: button.text() == "150 %")
    assert picked == ["50 %", "75 %", "100 %", "125 %", "150 %", "200 %", "Fit Width", "Fit Page"]
    assert window.page_view.zoom_mode() == "percent" and round(window.page_view.zoom(), 2) == 1.5
