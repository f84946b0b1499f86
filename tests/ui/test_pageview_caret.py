"""The caret and the paragraph commands, driven as a person does: click in a clause, press F2.

A click puts the caret where it lands; Edit (F2), Insert and Delete Paragraph act on that
paragraph (never "the first one on the page"), and Delete shows an off-screen paragraph before
it deletes anything. Double and triple clicks select a word and a paragraph. Offscreen Qt with
real mouse and key events on the window, on a copy of the sample contract.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview import PageView
from tests.conftest import REPO_ROOT
from tests.window_fixtures import char_point, window_on_copy

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
CLAUSE_3_5 = "0F3F0C7F"  # "Statements of Work. Either party may propose …"
CLAUSE_11_2 = "41A8933E"  # "If any IPR Claim is made, …"
CLAUSE_12_4 = "47025053"  # "The Supplier shall not appoint any sub-processor …"
ME = "Alex Lawyer"


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_copy(qtbot, SAMPLE, tmp_path, monkeypatch, ME)


def click_in(view: PageView, qtbot, block_id: str, offset: int) -> QPoint:
    """Scroll the clause into view as a reader would, then click on its ``offset``-th character."""
    assert view.scroll_to_block(block_id)
    at = char_point(view, block_id, offset)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    return at


def scroll_away(view: PageView, qtbot, screens: int) -> None:
    """Scroll down ``screens`` screens by clicking the scroll bar's groove below its handle (Page
    Down would take the caret along, as in Word)."""
    bar = view.verticalScrollBar()
    for _ in range(screens):
        before = bar.value()
        qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=QPoint(bar.width() // 2, bar.height() - 24))
        assert bar.value() > before


def my_changes(win: MainWindow) -> list[dict]:
    return [c for c in win.reviewer.changes() if c["author"] == ME]


def dark_pixels_in_column(image: QImage, x: int, top: int, bottom: int) -> int:
    return sum(1 for y in range(top, bottom) if image.pixelColor(x, y).lightness() < 80)


def test_click_places_a_caret_and_f2_edits_that_clause(
    window: MainWindow, qtbot, artifacts_dir: Path
) -> None:
    view = window.page_view
    text = window.snapshot.block(CLAUSE_12_4).text
    offset = text.index("sub-processor")
    at = click_in(view, qtbot, CLAUSE_12_4, offset)
    caret = view.caret()
    assert caret is not None and caret.block_id == CLAUSE_12_4
    assert abs(caret.offset - offset) <= 1  # the gap before or after the clicked character
    image = view.viewport().grab().toImage()
    assert image.save(str(artifacts_dir / "pageview-caret.png"))
    line = view.caret_viewport_line()
    assert line is not None
    assert abs(line.x1() - at.x()) <= 12 and line.y1() <= at.y() <= line.y2()
    # the caret is a dark vertical line there; a step to its side is the paper between letters or ink
    assert dark_pixels_in_column(image, round(line.x1()), round(line.y1()) + 2, round(line.y2()) - 2) >= (
        line.y2() - line.y1() - 6
    )
    qtbot.keyClick(window, Qt.Key.Key_F2)
    editor = window.drafting.editor
    assert editor is not None and editor.isVisible()
    assert editor.editor.toPlainText() == text


def test_f2_edits_the_clause_with_the_caret_even_after_scrolling_away(window: MainWindow, qtbot) -> None:
    view = window.page_view
    click_in(view, qtbot, CLAUSE_11_2, 5)
    scroll_away(view, qtbot, 4)
    assert not view.block_on_screen(CLAUSE_11_2)
    qtbot.keyClick(window, Qt.Key.Key_F2)
    editor = window.drafting.editor
    assert editor is not None and editor.editor.toPlainText() == window.snapshot.block(CLAUSE_11_2).text
    assert view.block_on_screen(CLAUSE_11_2), "the editor opens over its paragraph, in view"
    qtbot.keyClick(editor.editor, Qt.Key.Key_Escape)
    assert window.drafting.editor is None


def test_delete_paragraph_shows_an_off_screen_paragraph_before_deleting_it(window: MainWindow, qtbot) -> None:
    view = window.page_view
    text = window.snapshot.block(CLAUSE_3_5).text
    click_in(view, qtbot, CLAUSE_3_5, 3)
    scroll_away(view, qtbot, 5)
    assert not view.block_on_screen(CLAUSE_3_5)
    shortcut = (Qt.Key.Key_Backspace, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(window, *shortcut)
    assert my_changes(window) == [], "nothing is deleted out of sight"
    assert view.block_on_screen(CLAUSE_3_5)
    assert "Delete Paragraph again" in window.statusBar().currentMessage()
    qtbot.keyClick(window, *shortcut)
    deleted = [c for c in my_changes(window) if c["type"] == "deletion"]
    assert [c["text"] for c in deleted] == [text]


def test_without_a_caret_the_paragraph_commands_say_what_to_do(window: MainWindow, qtbot) -> None:
    view = window.page_view
    assert view.caret() is None and view.selection_range() is None
    view.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_F2)
    assert window.drafting.editor is None
    assert window.statusBar().currentMessage().startswith("Click in a paragraph first")
    shortcut = (Qt.Key.Key_Backspace, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(window, *shortcut)
    assert my_changes(window) == []


def test_insert_paragraph_goes_after_the_clause_with_the_caret(window: MainWindow, qtbot) -> None:
    view = window.page_view
    click_in(view, qtbot, CLAUSE_11_2, 10)
    keys = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window, Qt.Key.Key_Return, keys)
    editor = window.drafting.editor
    assert editor is not None and editor.editor.toPlainText() == ""
    qtbot.keyClicks(editor.editor, "The Supplier shall keep the Customer informed.")
    qtbot.keyClick(editor.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    blocks = [b.id for b in window.snapshot.content_blocks()]
    new = window.snapshot.block(blocks[blocks.index(CLAUSE_11_2) + 1])
    assert new.text == "The Supplier shall keep the Customer informed."


def test_double_click_selects_a_word_and_a_third_click_the_paragraph(window: MainWindow, qtbot) -> None:
    view = window.page_view
    text = window.snapshot.block(CLAUSE_12_4).text
    offset = text.index("sub-processor") + 4
    assert view.scroll_to_block(CLAUSE_12_4)
    at = char_point(view, CLAUSE_12_4, offset)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    start = text.index("sub-processor")
    assert view.selection_range() == (CLAUSE_12_4, start, start + len("sub-processor"))
    assert view.selection_text() == "sub-processor"
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert view.selection_range() == (CLAUSE_12_4, 0, len(text))
    # a later single click is a click again: the caret, no selection
    qtbot.wait(QApplication.doubleClickInterval() + 50)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert view.selection_range() is None and view.caret().block_id == CLAUSE_12_4
