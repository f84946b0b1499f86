"""The real main window on screen, and where its text is painted, for UI tests that click on the page.

UI tests drive a shown ``MainWindow`` with real mouse and key events; they need the same window
(a laptop-sized one that never blocks on "save changes?" when the test ends) and the same way of
finding the pixel a character is painted at, so a click lands where a person's would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QMessageBox

from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview import PageView
from reviewer_app.ui.pageview.geometry import range_rects


def shown_main_window(qtbot) -> MainWindow:
    """A new main window at 1280×860, shown and exposed, closed by ``qtbot`` when the test ends.

    Leaving unsaved changes is answered Discard so that closing the window at teardown never waits
    on a dialog nobody will answer.
    """
    win = MainWindow()
    win.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    qtbot.addWidget(win)
    win.resize(1280, 860)
    win.show()
    qtbot.waitExposed(win)
    return win


def click_menu_item(window: MainWindow, qtbot: Any, menu_name: str, action: QAction) -> None:
    """Click the menu's title on the menu bar, then the item in the menu that opens."""
    bar, menu = window.menuBar(), window.menus[menu_name]
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(menu.menuAction()).center())
    qtbot.waitUntil(menu.isVisible)
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())
    qtbot.waitUntil(lambda: not menu.isVisible())


def choose_in_combo(qtbot: Any, combo: QComboBox, label: str) -> None:
    """Click the combo box open and click the entry that reads ``label``."""
    QTest.mouseClick(combo, Qt.MouseButton.LeftButton)
    view = combo.view()
    qtbot.waitUntil(view.isVisible)
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # a popup ignores a release this soon after opening
    index = view.model().index(combo.findText(label), 0)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())
    qtbot.waitUntil(lambda: not view.isVisible())
    assert combo.currentText() == label


def window_on_copy(
    qtbot, source: Path, folder: Path, monkeypatch: pytest.MonkeyPatch, author: str
) -> MainWindow:
    """The shown main window on a copy of ``source`` in ``folder``, laid out, editing as ``author``.

    Any message box fails the test: what a person does here should never need one.
    """
    if not source.exists():
        pytest.skip(f"{source.name} is missing")
    return window_on_file(qtbot, folder / source.name, source.read_bytes(), monkeypatch, author)


def window_on_file(
    qtbot, path: Path, data: bytes, monkeypatch: pytest.MonkeyPatch, author: str
) -> MainWindow:
    """The shown main window on ``data`` written to ``path``, laid out, editing as ``author``; any
    message box fails the test."""
    monkeypatch.setattr(QMessageBox, "exec", lambda box: pytest.fail(f"unexpected message: {box.text()}"))
    path.write_bytes(data)
    win = shown_main_window(qtbot)
    assert win.open_path(path)
    win.controller.author = author
    win.page_view.finish_layout()
    return win


def char_point(view: PageView, block_id: str, offset: int) -> QPoint:
    """The middle of the character at clean ``offset`` of a block as painted now (viewport pixels)."""
    layout = view.paged_layout()
    record = layout.by_id[block_id]
    a = record.position_of(offset)
    for number in view.visible_pages():
        rects = range_rects(layout, layout.pages()[number], (record.doc_index, a, a + 1))
        if rects:
            page = view.page_rect(number)
            scale = page.width() / layout.pages()[number].width
            middle = rects[0].center()
            at = QPoint(round(page.left() + middle.x() * scale), round(page.top() + middle.y() * scale))
            if view.viewport().rect().contains(at):
                return at
    raise AssertionError(f"character {offset} of {block_id} is not on screen")
