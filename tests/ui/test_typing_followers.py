"""What follows a person typing in the page, without making any keystroke wait for it.

The Changes list catches up with a burst of keys once typing pauses, and an act on the list in
the middle of a burst acts on the document as it is now. The recovery copy waits for a longer
pause after typing than after other acts, and what it then holds is what was typed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.autosave import Autosaver
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.recovery import RecoveryStore
from tests.ui.test_page_typing import CLAUSE_5_2, ME, SAMPLE, click_at, text_of
from tests.window_fixtures import window_on_copy


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_copy(qtbot, SAMPLE, tmp_path, monkeypatch, ME)


def _mine(window: MainWindow) -> list[str]:
    return [row.excerpt for row in window.docks.redline.model.all_rows if row.author == ME]


def test_typed_words_reach_the_changes_list_and_its_buttons_act_on_them(window: MainWindow, qtbot) -> None:
    panel, view = window.docks.redline, window.page_view
    window.docks.redline_dock.raise_()
    original = text_of(window, CLAUSE_5_2)
    click_at(view, qtbot, CLAUSE_5_2, 4)
    QTest.keyClicks(view, "net ")
    qtbot.waitUntil(lambda: _mine(window) == ["net"])

    row = panel.model.row_of(next(r.id for r in panel.model.all_rows if r.author == ME))
    qtbot.mouseClick(
        panel.view.viewport(),
        Qt.MouseButton.LeftButton,
        pos=panel.view.visualRect(panel.model.index(row)).center(),
    )
    view.setFocus()
    QTest.keyClicks(view, "work ")  # the same insertion grows; the list has not caught up yet
    qtbot.mouseClick(panel.reject_button, Qt.MouseButton.LeftButton)
    assert text_of(window, CLAUSE_5_2) == original  # the whole "net work " went, not only "net "
    assert _mine(window) == []


def test_the_recovery_copy_waits_for_a_pause_in_typing_and_holds_what_was_typed(
    window: MainWindow, qtbot
) -> None:
    store = RecoveryStore()
    saver = Autosaver(window.controller, store, interval_s=0, debounce_ms=50, typing_pause_ms=60_000)
    written: list[object] = []
    saver.written.connect(written.append)
    click_at(window.page_view, qtbot, CLAUSE_5_2, 4)
    QTest.keyClicks(window.page_view, "net ")
    qtbot.wait(300)  # six times the debounce of other acts: typing has not paused long enough
    assert written == []
    entry = saver.write_now()  # the pause, or the periodic write
    assert entry is not None and written == [entry]
    restored = DocxReviewer.from_bytes(entry.read_bytes())
    assert restored.snapshot().block(CLAUSE_5_2).text == text_of(window, CLAUSE_5_2)
    assert "net " in restored.snapshot().block(CLAUSE_5_2).text
