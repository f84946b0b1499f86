"""Typing in the page as in Word with Track Changes on, driven as a person does it.

Real clicks at characters of the sample contract and real key events on the page view of the
main window (no internal slots): a sentence typed into clause 5.2 is one insertion under the
person's name, Backspace deletes a word as one tracked deletion, a selection typed over is
deleted and replaced, Enter splits a numbered clause, Ctrl+Z takes back a typing burst at once.
Each saved file is read by LibreOffice (accept-all gives the intended text, reject-all the
original, the changes carry the person's name) and the schema checker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFont
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview import PageView
from reviewer_app.ui.pageview.caret import Caret, caret_line
from reviewer_app.ui.pageview.page_index import PageIndex
from tests.checkers import schema_errors
from tests.conftest import REPO_ROOT
from tests.window_fixtures import char_point, window_on_copy

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
CLAUSE_5_2 = "26C40F6B"  # "The Supplier shall invoice the Customer monthly in arrears. …"
CLAUSE_12_4 = "47025053"  # "The Supplier shall not appoint any sub-processor …"
ME = "Alex Lawyer"


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_copy(qtbot, SAMPLE, tmp_path, monkeypatch, ME)


def gap_point(view: PageView, block_id: str, offset: int) -> QPoint:
    """The gap before a block's ``offset``-th character as painted now (where its caret would be)."""
    layout = view.paged_layout()
    record = layout.by_id[block_id]
    for number in view.visible_pages():
        line = caret_line(layout, layout.pages()[number], record, offset)
        if line is not None:
            page = view.page_rect(number)
            scale = page.width() / layout.pages()[number].width
            middle = line.center()
            return QPoint(round(page.left() + middle.x() * scale), round(page.top() + middle.y() * scale))
    raise AssertionError(f"character {offset} of {block_id} is not on screen")


def click_at(view: PageView, qtbot, block_id: str, offset: int) -> QPoint:
    """Scroll the block into view and click in the gap before its ``offset``-th character."""
    assert view.scroll_to_block(block_id)
    at = gap_point(view, block_id, offset)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert view.caret() is not None and view.caret().offset == offset
    return at


def text_of(win: MainWindow, block_id: str) -> str:
    return win.controller.snapshot().block(block_id).text


def mine(win: MainWindow) -> list[dict[str, Any]]:
    return [c for c in win.reviewer.changes() if c["author"] == ME]


def saved(win: MainWindow, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    win.controller.save(path)
    assert schema_errors(path) == 0
    return path


def check_in_libreoffice(lo_reading, path: Path, accepted: str, original: str) -> list[dict[str, Any]]:
    """LibreOffice's reading: accept-all has ``accepted``, reject-all ``original``; our changes."""
    reading = lo_reading(path, accept_reject=True)
    assert reading["load_ok"]
    assert accepted in reading["accept_all"]["paragraphs"]
    assert original in reading["reject_all"]["paragraphs"]
    before = lo_reading(SAMPLE, accept_reject=True)
    assert reading["reject_all"]["paragraphs"] == before["reject_all"]["paragraphs"]
    return [c for c in reading["tracked_changes"] if c["author"] == ME]


def test_a_sentence_typed_into_clause_5_2_is_one_insertion_by_the_person(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading, artifacts_dir: Path
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    at = original.index(" Each invoice")
    click_at(view, qtbot, CLAUSE_5_2, at)
    assert view.caret().offset == at
    typed = " Invoices are payable in pounds sterling."
    QTest.keyClicks(view, typed)
    intended = original[:at] + typed + original[at:]
    assert text_of(window, CLAUSE_5_2) == intended
    assert view.caret().offset == at + len(typed)  # the caret follows the typed text
    ours = mine(window)
    assert [(c["type"], c["text"]) for c in ours] == [("insertion", typed)]
    line = view.caret_viewport_line()
    assert line is not None  # drawn where the next character goes: after the typed full stop
    stop = char_point(view, CLAUSE_5_2, at + len(typed) - 1)
    assert 0 <= line.x1() - stop.x() <= 12 and line.y1() <= stop.y() <= line.y2()
    assert view.grab().save(str(artifacts_dir / "typing-clause-5-2.png"))
    path = saved(window, tmp_path, "typed.docx")
    changes = check_in_libreoffice(lo_reading, path, intended, original)
    assert [(c["type"], c["text"]) for c in changes] == [("insert", typed)]


def test_backspace_deletes_a_word_as_one_tracked_deletion(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    word = "monthly "
    start = original.index(word)
    click_at(view, qtbot, CLAUSE_5_2, start + len(word))  # before "in arrears"
    for _ in word:
        QTest.keyClick(view, Qt.Key.Key_Backspace)
    intended = original[:start] + original[start + len(word) :]
    assert text_of(window, CLAUSE_5_2) == intended
    assert view.caret().offset == start
    assert [(c["type"], c["text"]) for c in mine(window)] == [("deletion", word)]
    path = saved(window, tmp_path, "deleted.docx")
    changes = check_in_libreoffice(lo_reading, path, intended, original)
    assert [(c["type"], c["text"]) for c in changes] == [("delete", word)]


def test_backspace_takes_back_the_persons_own_typing_without_a_trace(window: MainWindow, qtbot) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    at = original.index(" in arrears")
    click_at(view, qtbot, CLAUSE_5_2, at)
    QTest.keyClicks(view, " or quarterly")
    for _ in " or quarterly":
        QTest.keyClick(view, Qt.Key.Key_Backspace)
    assert text_of(window, CLAUSE_5_2) == original
    assert mine(window) == []  # no insertion, and no deletion of the person's own letters


def test_a_selected_word_typed_over_is_deleted_and_replaced(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    start = original.index("arrears")
    at = char_point(view, CLAUSE_5_2, start + 2) if view.scroll_to_block(CLAUSE_5_2) else None
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)
    assert view.selection_range() == (CLAUSE_5_2, start, start + len("arrears"))
    QTest.keyClicks(view, "advance")
    intended = original.replace("arrears", "advance", 1)
    assert text_of(window, CLAUSE_5_2) == intended
    assert sorted((c["type"], c["text"]) for c in mine(window)) == [
        ("deletion", "arrears"),
        ("insertion", "advance"),
    ]
    path = saved(window, tmp_path, "replaced.docx")
    changes = check_in_libreoffice(lo_reading, path, intended, original)
    assert sorted((c["type"], c["text"]) for c in changes) == [("delete", "arrears"), ("insert", "advance")]


def test_shift_arrows_select_and_delete_removes_the_selection_tracked(window: MainWindow, qtbot) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    start = original.index("monthly")
    click_at(view, qtbot, CLAUSE_5_2, start)
    for _ in "monthly":
        QTest.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert view.selection_range() == (CLAUSE_5_2, start, start + len("monthly"))
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert text_of(window, CLAUSE_5_2) == original.replace("monthly", "", 1)
    assert [(c["type"], c["text"]) for c in mine(window)] == [("deletion", "monthly")]


def test_enter_in_a_numbered_clause_splits_it_into_two_numbered_clauses(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    at = original.index("Each invoice")
    click_at(view, qtbot, CLAUSE_5_2, at)
    QTest.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(view.is_laid_out, timeout=20000)  # a new paragraph: the pages are laid out again
    blocks = window.controller.snapshot().agent_blocks()
    index = next(i for i, b in enumerate(blocks) if b["blockId"] == CLAUSE_5_2)
    first, second = blocks[index], blocks[index + 1]
    assert (first["text"], second["text"]) == (original[:at], original[at:])
    assert (first.get("displayLabel"), second.get("displayLabel")) == ("5.2", "5.3")
    assert second.get("listReference") == first.get("listReference")  # same list, same level
    caret = view.caret()
    assert (caret.block_id, caret.offset) == (second["blockId"], 0)  # typing goes on in the new clause
    QTest.keyClicks(view, "Further, ")
    assert text_of(window, second["blockId"]) == "Further, " + original[at:]
    path = saved(window, tmp_path, "split.docx")
    changes = check_in_libreoffice(lo_reading, path, "Further, " + original[at:], original)
    assert {c["type"] for c in changes} >= {"insert"}


def test_ctrl_z_undoes_a_typing_burst_at_once_and_a_caret_move_ends_the_burst(
    window: MainWindow, qtbot
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_12_4)
    at = original.index(" any sub-processor")
    click_at(view, qtbot, CLAUSE_12_4, at)
    QTest.keyClicks(view, " (directly or indirectly)")
    QTest.keyClick(view, Qt.Key.Key_Left)
    QTest.keyClick(view, Qt.Key.Key_Right)  # the caret moved: the next key starts a new step
    QTest.keyClicks(view, " at all")
    both = original[:at] + " (directly or indirectly) at all" + original[at:]
    assert text_of(window, CLAUSE_12_4) == both
    QTest.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    first = original[:at] + " (directly or indirectly)" + original[at:]
    assert text_of(window, CLAUSE_12_4) == first
    assert view.caret() == Caret(CLAUSE_12_4, at + len(" (directly or indirectly)"))  # where " at all" began
    QTest.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert text_of(window, CLAUSE_12_4) == original
    assert view.caret() == Caret(CLAUSE_12_4, at)
    assert mine(window) == []
    window.actions.redo.trigger()
    assert text_of(window, CLAUSE_12_4) == first
    assert view.caret() == Caret(CLAUSE_12_4, at + len(" (directly or indirectly)"))  # where it ended


def test_keys_typed_in_the_chat_never_reach_the_document(window: MainWindow, qtbot) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    click_at(view, qtbot, CLAUSE_5_2, 4)
    chat_input = window.chat.input
    chat_input.setFocus()
    QTest.keyClicks(chat_input, "hello")
    QTest.keyClick(chat_input, Qt.Key.Key_Backspace)
    assert text_of(window, CLAUSE_5_2) == original
    assert mine(window) == []


def test_nothing_is_written_in_the_original_view(window: MainWindow, qtbot) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    click_at(view, qtbot, CLAUSE_5_2, 4)
    window.actions.markup_original.trigger()
    view.finish_layout()
    click_at(view, qtbot, CLAUSE_5_2, 4)
    QTest.keyClicks(view, "xyz")
    assert text_of(window, CLAUSE_5_2) == original
    assert "Original view" in window.statusBar().currentMessage()


def test_ctrl_b_on_a_defined_term_is_a_tracked_formatting_change(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    start = original.index("Charges")
    assert view.scroll_to_block(CLAUSE_5_2)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=char_point(view, CLAUSE_5_2, start + 2))
    assert view.selection_range() == (CLAUSE_5_2, start, start + len("Charges"))
    QTest.keyClick(view, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)
    assert text_of(window, CLAUSE_5_2) == original
    assert [(c["type"], c["text"]) for c in mine(window)] == [("formatting", "Charges")]
    assert view.selection_range() == (CLAUSE_5_2, start, start + len("Charges"))  # still selected
    assert view.selection_format().fontWeight() >= QFont.Weight.Bold
    path = saved(window, tmp_path, "bold.docx")
    changes = check_in_libreoffice(lo_reading, path, original, original)
    assert [(c["type"], c["text"]) for c in changes] == [("format", "Charges")]


def test_paste_inserts_the_clipboard_text_as_one_tracked_insertion_and_cut_deletes(
    window: MainWindow, qtbot
) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    start = original.index("monthly ")
    click_at(view, qtbot, CLAUSE_5_2, start)
    for _ in "monthly ":
        QTest.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClick(view, Qt.Key.Key_X, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == "monthly "
    assert text_of(window, CLAUSE_5_2) == original.replace("monthly ", "", 1)
    end = original.index(" Each invoice") - len("monthly ")
    click_at(view, qtbot, CLAUSE_5_2, end - 1)  # before the full stop of "in arrears."
    QApplication.clipboard().setText(", payable within 30 days")
    QTest.keyClick(view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert "in arrears, payable within 30 days. Each invoice" in text_of(window, CLAUSE_5_2)
    assert sorted((c["type"], c["text"]) for c in mine(window)) == [
        ("deletion", "monthly "),
        ("insertion", ", payable within 30 days"),
    ]


def test_the_page_index_follows_typing_as_a_fresh_index_reads_the_pages(window: MainWindow, qtbot) -> None:
    """Typing updates the page index in place (a keystroke must not re-index a long contract);
    what it reports stays what indexing the pages afresh reports, also when a line wraps."""
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    at = original.index(" Each invoice")
    click_at(view, qtbot, CLAUSE_5_2, at)
    layout = view.paged_layout()
    blocks = [b.id for b in window.controller.snapshot().blocks]
    for typed in (" Net", " of any set-off, counterclaim or deduction whatsoever, as the parties agree."):
        QTest.keyClicks(view, typed)
        for i in range(3):
            QTest.keyClick(view, Qt.Key.Key_Backspace if i % 2 else Qt.Key.Key_Right)
        fresh = PageIndex(layout.paging, layout.by_id, layout.notes.settled)
        fresh.invalidate()
        pages = range(layout.page_count())
        assert [layout.index.page_pieces(n) for n in pages] == [fresh.page_pieces(n) for n in pages]
        assert [layout.index.page_of_block(b) for b in blocks] == [fresh.page_of_block(b) for b in blocks]


def test_keys_the_f2_editor_leaves_unused_do_not_edit_the_page(window: MainWindow, qtbot) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    start = original.index("Charges")
    assert view.scroll_to_block(CLAUSE_5_2)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=char_point(view, CLAUSE_5_2, start + 2))
    QTest.keyClick(view, Qt.Key.Key_F2)
    editor = window.drafting.editor
    assert editor is not None and editor.editor.hasFocus()
    QTest.keyClick(editor.editor, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier)  # unused by the box
    assert mine(window) == []
