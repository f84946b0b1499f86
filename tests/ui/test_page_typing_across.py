"""Selections across paragraphs, edited as in Word with Track Changes on, driven as a person does it.

A selection made with Shift+Ctrl+Down and Shift+Right, or dragged with the mouse, over clauses
5.2 to 5.4 of the sample contract: Delete marks each clause's part deleted and the paragraph
marks between them (accepting joins what is left into one clause, rejecting gives the original
clauses back), typing over it is that deletion plus one insertion, and Ctrl+B formats each part.
LibreOffice reads every saved file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.docx.xmlutil import W
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview.caret import Caret
from tests.ui.test_page_typing import (
    CLAUSE_5_2,
    ME,
    SAMPLE,
    check_in_libreoffice,
    click_at,
    gap_point,
    mine,
    saved,
    text_of,
)
from tests.window_fixtures import window_on_copy

CLAUSE_5_3, CLAUSE_5_4 = "0D6B3E1B", "7B486AD4"
SHIFT, CTRL = Qt.KeyboardModifier.ShiftModifier, Qt.KeyboardModifier.ControlModifier


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_copy(qtbot, SAMPLE, tmp_path, monkeypatch, ME)


def _mark_deleted(window: MainWindow, block_id: str) -> bool:
    element = window.controller.snapshot().block(block_id).element
    mark = element.find(f"{W}pPr/{W}rPr/{W}del")
    return mark is not None and mark.get(W + "author") == ME


def _pieces(window: MainWindow, kind: str) -> dict[str | None, str]:
    """The person's changes of one kind, their pieces joined per paragraph in document order."""
    joined: dict[str | None, str] = {}
    for change in mine(window):
        if change["type"] == kind:
            joined[change["blockId"]] = joined.get(change["blockId"], "") + change["text"]
    return joined


def _clauses(window: MainWindow) -> list[str]:
    """The texts of clauses 5.2, 5.3 and 5.4 now."""
    return [text_of(window, b) for b in (CLAUSE_5_2, CLAUSE_5_3, CLAUSE_5_4)]


def _select_5_2_to_5_4(window: MainWindow, qtbot, before: str) -> tuple[list[str], int]:
    """Click in 5.2 before ``before``, then Shift+Ctrl+Down twice (to 5.4's start) and Shift+Right
    past "All "; the three clauses' texts and where in 5.2 the selection starts."""
    view = window.page_view
    texts = _clauses(window)
    at = texts[0].index(before)
    click_at(view, qtbot, CLAUSE_5_2, at)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL | SHIFT)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL | SHIFT)
    for _ in "All ":
        QTest.keyClick(view, Qt.Key.Key_Right, SHIFT)
    assert view.selection_ends() == (Caret(CLAUSE_5_2, at), Caret(CLAUSE_5_4, len("All ")))
    return texts, at


def test_delete_over_three_clauses_marks_each_part_and_the_paragraph_marks_deleted(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    texts, at = _select_5_2_to_5_4(window, qtbot, " Each invoice")
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert _clauses(window) == [
        texts[0][:at],
        "",
        texts[2][len("All ") :],
    ]
    assert view.caret() == Caret(CLAUSE_5_2, at)
    assert [_mark_deleted(window, b) for b in (CLAUSE_5_2, CLAUSE_5_3, CLAUSE_5_4)] == [True, True, False]
    deleted = _pieces(window, "deletion")
    assert (deleted[CLAUSE_5_2], deleted[CLAUSE_5_4]) == (texts[0][at:], "All ")
    assert texts[1] in deleted.values()  # 5.3 deleted whole, its mark with it
    path = saved(window, tmp_path, "across.docx")
    joined = texts[0][:at] + texts[2][len("All ") :]
    check_in_libreoffice(lo_reading, path, joined, texts[0])  # accepted: one clause; rejected: all three
    QTest.keyClick(view, Qt.Key.Key_Z, CTRL)  # one undo step gives the three clauses back
    assert _clauses(window) == texts
    assert mine(window) == []


def test_typing_over_a_dragged_selection_across_clauses_is_a_deletion_and_one_insertion(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    first, second = text_of(window, CLAUSE_5_2), text_of(window, CLAUSE_5_3)
    at, end = first.index("Each invoice"), len("Payment. ")
    assert view.scroll_to_block(CLAUSE_5_2)
    press, release = gap_point(view, CLAUSE_5_2, at), gap_point(view, CLAUSE_5_3, end)
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=press)
    QTest.mouseMove(view.viewport(), release)
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=release)
    assert view.selection_ends() == (Caret(CLAUSE_5_2, at), Caret(CLAUSE_5_3, end))
    QTest.keyClicks(view, "Then ")
    assert text_of(window, CLAUSE_5_2) == first[:at] + "Then "
    assert text_of(window, CLAUSE_5_3) == second[end:]
    assert view.caret() == Caret(CLAUSE_5_2, at + len("Then "))
    assert [c["text"] for c in mine(window) if c["type"] == "insertion"] == ["Then "]
    path = saved(window, tmp_path, "typed-across.docx")
    changes = check_in_libreoffice(lo_reading, path, first[:at] + "Then " + second[end:], first)
    assert ("insert", "Then ") in [(c["type"], c["text"]) for c in changes]


def test_ctrl_b_on_a_selection_across_clauses_formats_each_part(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    texts, at = _select_5_2_to_5_4(window, qtbot, "Each invoice")
    QTest.keyClick(view, Qt.Key.Key_B, CTRL)
    assert _clauses(window) == texts  # no text changed
    formatted = _pieces(window, "formatting")  # "Payment." was bold already: no change there
    assert formatted == {
        CLAUSE_5_2: texts[0][at:],
        CLAUSE_5_3: texts[1][len("Payment.") :],
        CLAUSE_5_4: "All ",
    }
    assert view.selection_ends() == (Caret(CLAUSE_5_2, at), Caret(CLAUSE_5_4, len("All ")))  # still selected
    path = saved(window, tmp_path, "bold-across.docx")
    changes = check_in_libreoffice(lo_reading, path, texts[0], texts[0])
    assert {c["type"] for c in changes} == {"format"}
