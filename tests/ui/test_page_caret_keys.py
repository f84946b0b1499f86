"""The caret keys of the page view as in Word: Ctrl+arrows by words and paragraphs, Page Up/Down a
screen, Ctrl+Home/End to the document's ends, and Shift with any of them extending a selection.

Real clicks and real key events on the page view of the main window showing the sample contract.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview.caret import Caret
from reviewer_app.ui.pageview.caret_moves import word_start
from tests.checkers import schema_errors
from tests.ui.test_page_typing import CLAUSE_5_2, ME, SAMPLE, check_in_libreoffice, click_at, mine, text_of
from tests.window_fixtures import window_on_copy

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_copy(qtbot, SAMPLE, tmp_path, monkeypatch, ME)


@pytest.mark.parametrize(
    ("text", "offset", "step", "expected"),
    [
        ("The Supplier shall", 0, 1, 4),  # from a word's start to the next word's
        ("The Supplier shall", 6, 1, 13),  # from inside a word
        ("The Supplier shall", 13, 1, 18),  # after the last word: the paragraph's end (its mark)
        ("in arrears. Each", 3, 1, 10),  # the full stop is a word of its own
        ("in arrears. Each", 10, 1, 12),
        ("the sub-processor's duty", 4, 1, 20),  # inner hyphens and apostrophes stay in the word
        ("The Supplier shall", 13, -1, 4),  # from a word's start to the previous word's
        ("The Supplier shall", 16, -1, 13),  # from inside a word to its start
        ("The Supplier shall", 4, -1, 0),
        ("a   b", 2, 1, 4),  # from among spaces to the next word
        ("", 0, 1, 0),
    ],
)
def test_ctrl_arrows_go_to_the_start_of_a_word_as_word_does(
    text: str, offset: int, step: int, expected: int
) -> None:
    assert word_start(text, offset, step) == expected


def _neighbours(window: MainWindow, block_id: str) -> tuple[str, str]:
    blocks = window.controller.snapshot().blocks
    index = next(i for i, b in enumerate(blocks) if b.id == block_id)
    return blocks[index - 1].id, blocks[index + 1].id


def test_ctrl_arrows_move_by_words_and_paragraphs_and_shift_selects_words_to_delete(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    assert original.startswith("The Supplier shall invoice")
    before, after = _neighbours(window, CLAUSE_5_2)
    click_at(view, qtbot, CLAUSE_5_2, 6)
    QTest.keyClick(view, Qt.Key.Key_Right, CTRL)
    assert view.caret() == Caret(CLAUSE_5_2, len("The Supplier "))
    QTest.keyClick(view, Qt.Key.Key_Left, CTRL)
    assert view.caret() == Caret(CLAUSE_5_2, len("The "))
    QTest.keyClick(view, Qt.Key.Key_Left, CTRL)
    assert view.caret() == Caret(CLAUSE_5_2, 0)
    QTest.keyClick(view, Qt.Key.Key_Left, CTRL)  # from the paragraph's start to the end of the one before
    assert view.caret() == Caret(before, len(text_of(window, before)))
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)
    assert view.caret() == Caret(CLAUSE_5_2, 0)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL)
    assert view.caret() == Caret(after, 0)
    QTest.keyClick(view, Qt.Key.Key_Right, CTRL)
    QTest.keyClick(view, Qt.Key.Key_Up, CTRL)  # inside a paragraph: to its start
    assert view.caret() == Caret(after, 0)
    QTest.keyClick(view, Qt.Key.Key_Up, CTRL)  # at its start: to the start of the one before
    assert view.caret() == Caret(CLAUSE_5_2, 0)
    QTest.keyClick(view, Qt.Key.Key_Right, CTRL | SHIFT)
    QTest.keyClick(view, Qt.Key.Key_Right, CTRL | SHIFT)
    assert view.selection_range() == (CLAUSE_5_2, 0, len("The Supplier "))
    QTest.keyClick(view, Qt.Key.Key_Delete)
    intended = original[len("The Supplier ") :]
    assert text_of(window, CLAUSE_5_2) == intended
    assert [(c["type"], c["text"]) for c in mine(window)] == [("deletion", "The Supplier ")]
    path = tmp_path / "words.docx"
    window.controller.save(path)
    assert schema_errors(path) == 0
    changes = check_in_libreoffice(lo_reading, path, intended, original)
    assert [(c["type"], c["text"]) for c in changes] == [("delete", "The Supplier ")]


def test_ctrl_home_and_end_go_to_the_document_ends_and_show_them(window: MainWindow, qtbot) -> None:
    view = window.page_view
    blocks = [b for b in window.controller.snapshot().blocks if view.paged_layout().by_id.get(b.id)]
    click_at(view, qtbot, CLAUSE_5_2, 4)
    QTest.keyClick(view, Qt.Key.Key_Home, CTRL | SHIFT)
    assert view.caret() == Caret(blocks[0].id, 0)
    assert view.verticalScrollBar().value() < view.viewport().height()  # back at the top
    selected = view.selection_text()  # from the document's start to where the caret stood
    assert selected.startswith(blocks[0].text) and selected.endswith("\nThe ")
    QTest.keyClick(view, Qt.Key.Key_End, CTRL)
    last = window.controller.snapshot().blocks[-1]
    assert view.caret() == Caret(last.id, len(last.text))
    assert view.selection_text() == ""
    assert view.current_page() >= view.page_count() - 2  # scrolled to the end
    assert view.caret_viewport_line() is not None  # the caret is on screen


def test_page_down_and_up_move_the_caret_a_screen_where_it_stood_on_screen(window: MainWindow, qtbot) -> None:
    view = window.page_view
    click_at(view, qtbot, CLAUSE_5_2, 4)
    bar = view.verticalScrollBar()
    top, line = bar.value(), view.caret_viewport_line()
    QTest.keyClick(view, Qt.Key.Key_PageDown)
    moved = view.caret_viewport_line()
    assert bar.value() == top + bar.pageStep()  # a screen further
    near = view.viewport().height() / 10  # the nearest line there (it may fall between pages)
    assert moved is not None and abs(moved.y1() - line.y1()) < near  # the caret kept its height on screen
    assert view.caret().block_id != CLAUSE_5_2
    down = view.caret()
    QTest.keyClick(view, Qt.Key.Key_PageUp)
    assert bar.value() == top
    assert view.caret() == Caret(CLAUSE_5_2, 4)  # back where it started, however the lines fall
    back = view.caret_viewport_line()
    assert back is not None and abs(back.y1() - moved.y1()) < near  # again where it stood on screen
    QTest.keyClick(view, Qt.Key.Key_PageDown, SHIFT)
    assert view.caret() == down
    selected = view.selection_text()
    block_id, start, _end = view.selection_range()  # from where the caret stood
    assert selected.startswith(text_of(window, block_id)[start:])
    assert selected.count("\n") >= 3  # a screen of paragraphs


def _select(view, qtbot, block_id: str, start: int, end: int) -> None:
    """Click at ``start`` and Shift+arrow to ``end`` (either way round), as a person selects."""
    click_at(view, qtbot, block_id, start)
    key = Qt.Key.Key_Right if end > start else Qt.Key.Key_Left
    for _ in range(abs(end - start)):
        QTest.keyClick(view, key, SHIFT)
    assert view.selection_range() == (block_id, min(start, end), max(start, end))


def _line_step(view, qtbot, block_id: str, offset: int, key: Qt.Key) -> Caret:
    """Where Up or Down takes a caret clicked at ``offset`` with nothing selected."""
    click_at(view, qtbot, block_id, offset)
    QTest.keyClick(view, key)
    return view.caret()


def test_arrows_leave_a_selection_at_its_ends_as_word_does(window: MainWindow, qtbot) -> None:
    view = window.page_view
    start, end = 4, 12  # "Supplier" in "The Supplier shall invoice"
    below = _line_step(view, qtbot, CLAUSE_5_2, end, Qt.Key.Key_Down)
    above = _line_step(view, qtbot, CLAUSE_5_2, start, Qt.Key.Key_Up)
    assert below != Caret(CLAUSE_5_2, end) and above != Caret(CLAUSE_5_2, start)
    _select(view, qtbot, CLAUSE_5_2, start, end)  # the caret at the selection's end
    QTest.keyClick(view, Qt.Key.Key_Left)
    assert view.caret() == Caret(CLAUSE_5_2, start)  # to the start, not a character back from the caret
    assert view.selection_text() == ""
    _select(view, qtbot, CLAUSE_5_2, end, start)  # the caret at the selection's start
    QTest.keyClick(view, Qt.Key.Key_Right)
    assert view.caret() == Caret(CLAUSE_5_2, end)
    assert view.selection_text() == ""
    _select(view, qtbot, CLAUSE_5_2, end, start)
    QTest.keyClick(view, Qt.Key.Key_Down)  # a line down from the selection's end, not from the caret
    assert view.caret() == below and view.selection_text() == ""
    _select(view, qtbot, CLAUSE_5_2, start, end)
    QTest.keyClick(view, Qt.Key.Key_Up)  # a line up from the selection's start
    assert view.caret() == above and view.selection_text() == ""
    _select(view, qtbot, CLAUSE_5_2, start, end)
    QTest.keyClick(view, Qt.Key.Key_Left, SHIFT)  # Shift still shrinks the selection from the caret
    assert view.selection_range() == (CLAUSE_5_2, start, end - 1)
