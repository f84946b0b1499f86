"""Numbered clauses under Tab, Shift+Tab and Backspace in the page, as in Word with Track Changes on.

Real clicks at the start of a clause of the sample contract and real keys on the page view:
Tab moves "(a)" one level down to "(i)" and Shift+Tab back (no change left), Tab elsewhere
types a tab, Backspace at the start of clause 5.2 first takes its number away (the clauses after
it are renumbered) and a second Backspace joins it to 5.1. LibreOffice reads the saved files.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview.caret import Caret
from tests.ui.test_page_typing import (
    CLAUSE_5_2,
    ME,
    SAMPLE,
    check_in_libreoffice,
    click_at,
    mine,
    saved,
    text_of,
)
from tests.window_fixtures import window_on_copy

ITEM_A = "2701E0D7"  # "(a) the clauses of this Agreement;"
CLAUSE_5_1, CLAUSE_5_3 = "367C51A3", "0D6B3E1B"


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_copy(qtbot, SAMPLE, tmp_path, monkeypatch, ME)


def label(window: MainWindow, block_id: str) -> str | None:
    return window.controller.snapshot().block(block_id).display_label


def test_tab_and_shift_tab_at_a_clause_start_change_its_level_and_elsewhere_tab_types_a_tab(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    text = text_of(window, ITEM_A)
    click_at(view, qtbot, ITEM_A, 0)
    QTest.keyClick(view, Qt.Key.Key_Tab)
    qtbot.waitUntil(view.is_laid_out, timeout=20000)  # the clauses after it are numbered again
    assert label(window, ITEM_A) == "(i)" and text_of(window, ITEM_A) == text
    assert view.hasFocus() and view.caret() == Caret(ITEM_A, 0)  # Tab kept the keyboard on the page
    assert [c["type"] for c in mine(window)] == ["paragraphPropertiesChanged"]
    QTest.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(view.is_laid_out, timeout=20000)
    assert label(window, ITEM_A) == "(a)"
    assert mine(window) == []  # back where it was: nothing to accept or reject
    QTest.keyClick(view, Qt.Key.Key_Tab)
    qtbot.waitUntil(view.is_laid_out, timeout=20000)
    path = saved(window, tmp_path, "demoted.docx")
    changes = check_in_libreoffice(lo_reading, path, text, text)
    assert changes and {c["type"] for c in changes} <= {"format", "paragraph_format", "attributes"}
    QTest.keyClick(view, Qt.Key.Key_Right)
    QTest.keyClick(view, Qt.Key.Key_Tab)  # not at the start: a tab character, tracked
    assert text_of(window, ITEM_A) == text[:1] + "\t" + text[1:]
    assert label(window, ITEM_A) == "(i)"


def test_backspace_at_a_numbered_clause_start_takes_the_number_away_then_joins(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    first, second = text_of(window, CLAUSE_5_1), text_of(window, CLAUSE_5_2)
    click_at(view, qtbot, CLAUSE_5_2, 0)
    QTest.keyClick(view, Qt.Key.Key_Backspace)
    qtbot.waitUntil(view.is_laid_out, timeout=20000)
    assert window.controller.snapshot().block(CLAUSE_5_2).list_reference is None  # no number
    assert text_of(window, CLAUSE_5_2) == second
    assert label(window, CLAUSE_5_3) == "5.2"  # the clauses after it move up
    assert view.caret() == Caret(CLAUSE_5_2, 0)
    assert [c["type"] for c in mine(window)] == ["paragraphPropertiesChanged"]
    path = saved(window, tmp_path, "unnumbered.docx")
    check_in_libreoffice(lo_reading, path, second, second)
    QTest.keyClick(view, Qt.Key.Key_Backspace)  # now an unnumbered paragraph: it joins 5.1
    qtbot.waitUntil(view.is_laid_out, timeout=20000)
    assert view.caret() == Caret(CLAUSE_5_1, len(first))
    assert "paragraphMarkDeleted" in [c["type"] for c in mine(window)]
    path = saved(window, tmp_path, "joined.docx")
    check_in_libreoffice(lo_reading, path, first + second, second)
