"""Keys that would delete a section break are refused in words, and the document stays as it was.

A section break is the mark of a section's last paragraph (``w:pPr/w:sectPr``). Deleting it, as
Word does when the break is accepted away, gives the pages before it the layout of the section
after it; Reviewer does not write that as a tracked change. So Delete or typing over a selection
from one section into the next, Delete at the end of a section's last paragraph and Backspace
at the start of the next section's first one each leave the document unchanged and say why in
the status bar, while a selection within a section is deleted as usual. Two sections of one page
size (a continuous break) share the page, so a person can select across the break with Shift+Down.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview.caret import Caret
from tests.docx_factory import make_docx, p
from tests.ui.test_page_typing import ME, click_at, mine, text_of
from tests.window_fixtures import window_on_copy

FIRST, LAST_OF_ONE, FIRST_OF_TWO = "0A000001", "0A000002", "0A000003"
PAGE = '<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/>'


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    body = (
        p("The first section opens here.", FIRST)
        + p(
            "The first section ends here.",
            LAST_OF_ONE,
            ppr=f'<w:sectPr><w:type w:val="continuous"/>{PAGE}</w:sectPr>',
        )
        + p("The second section starts here.", FIRST_OF_TWO)
        + f"<w:sectPr>{PAGE}</w:sectPr>"
    )
    source = tmp_path / "source" / "sections.docx"
    source.parent.mkdir()
    source.write_bytes(make_docx(body))
    return window_on_copy(qtbot, source, tmp_path, monkeypatch, ME)


def texts(window: MainWindow) -> list[str]:
    return [text_of(window, block_id) for block_id in (FIRST, LAST_OF_ONE, FIRST_OF_TWO)]


def assert_refused(window: MainWindow, before: list[str]) -> None:
    assert texts(window) == before and mine(window) == []
    assert "section break" in window.statusBar().currentMessage()
    window.statusBar().clearMessage()


def test_keys_that_would_delete_a_section_break_are_refused_and_say_why(window: MainWindow, qtbot) -> None:
    view = window.page_view
    before = texts(window)
    click_at(view, qtbot, LAST_OF_ONE, 4)
    QTest.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)  # into the next section
    ends = view.selection_ends()
    assert ends is not None and ends[0] == Caret(LAST_OF_ONE, 4) and ends[1].block_id == FIRST_OF_TWO
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert_refused(window, before)
    QTest.keyClicks(view, "x")  # typing over the selection: the same
    assert_refused(window, before)

    click_at(view, qtbot, LAST_OF_ONE, len(before[1]))
    QTest.keyClick(view, Qt.Key.Key_Delete)  # at the end of the section's last paragraph
    assert_refused(window, before)
    click_at(view, qtbot, FIRST_OF_TWO, 0)
    QTest.keyClick(view, Qt.Key.Key_Backspace)  # at the start of the next section
    assert_refused(window, before)

    click_at(view, qtbot, FIRST, 4)  # within the first section a selection over two paragraphs goes
    QTest.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert [c["type"] for c in mine(window)].count("paragraphMarkDeleted") == 1
    assert text_of(window, FIRST_OF_TWO) == before[2]


LANDSCAPE = '<w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/>' + PAGE[PAGE.index("<w:pgMar") :]


def test_shift_down_stops_at_the_end_of_a_section_laid_out_on_pages_of_another_size(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A schedule in landscape after a page break is laid out apart from the pages before it, and a
    selection cannot reach into it yet: Shift+Down on the last line before it leaves the caret and
    the selection as they were, so Delete never acts on a selection the caret has left behind."""
    body = (
        p("The portrait part ends here.", LAST_OF_ONE, ppr=f"<w:sectPr>{PAGE}</w:sectPr>")
        + p("The landscape schedule starts here.", FIRST_OF_TWO)
        + f"<w:sectPr>{LANDSCAPE}</w:sectPr>"
    )
    source = tmp_path / "source" / "landscape.docx"
    source.parent.mkdir()
    source.write_bytes(make_docx(body))
    window = window_on_copy(qtbot, source, tmp_path, monkeypatch, ME)
    view = window.page_view
    click_at(view, qtbot, LAST_OF_ONE, 4)
    QTest.keyClick(view, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)  # into the landscape pages
    assert view.caret() == Caret(LAST_OF_ONE, 5)
    assert view.selection_ends() == (Caret(LAST_OF_ONE, 4), Caret(LAST_OF_ONE, 5))
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert text_of(window, LAST_OF_ONE) == "The ortrait part ends here."
    assert text_of(window, FIRST_OF_TWO) == "The landscape schedule starts here."
    QTest.keyClick(view, Qt.Key.Key_Down)  # without Shift the caret goes on into the landscape pages
    assert view.caret() is not None and view.caret().block_id == FIRST_OF_TWO
