"""Backspace at the start of a lettered item takes its number away and the text stays where it stood.

As in Word: the item "(a)" of the sample contract has its number at 0.5 in and its text at 1 in;
after Backspace the paragraph starts where the number stood, rather than falling back to its
style's indent at the margin. Real clicks and keys on the page view of the main window; the saved
file read by LibreOffice rejects back to the original and the schema checker finds it clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview import PageView
from reviewer_app.ui.pageview.geometry import range_rects
from tests.ui.test_page_typing import (
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

ITEM_A = "2701E0D7"  # "(a) the clauses of this Agreement;"


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_copy(qtbot, SAMPLE, tmp_path, monkeypatch, ME)


def first_glyph_x(view: PageView, block_id: str) -> float:
    """Where the paragraph's first painted character (its number, when it has one) starts, in
    viewport pixels."""
    layout = view.paged_layout()
    record = layout.by_id[block_id]
    span = (record.doc_index, record.start, record.start + 1)
    for number in view.visible_pages():
        rects = range_rects(layout, layout.pages()[number], span)
        if rects:
            page = view.page_rect(number)
            return page.left() + rects[0].left() * page.width() / layout.pages()[number].width
    raise AssertionError(f"{block_id} is not on screen")


def test_backspace_takes_the_number_away_and_the_text_starts_where_the_number_stood(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    text = text_of(window, ITEM_A)
    click_at(view, qtbot, ITEM_A, 0)
    number_x, text_x = first_glyph_x(view, ITEM_A), gap_point(view, ITEM_A, 0).x()
    assert text_x - number_x > 20  # "(a)" and a tab before the text
    QTest.keyClick(view, Qt.Key.Key_Backspace)
    qtbot.waitUntil(view.is_laid_out, timeout=20000)
    assert view.scroll_to_block(ITEM_A)
    assert window.controller.snapshot().block(ITEM_A).display_label is None
    assert abs(gap_point(view, ITEM_A, 0).x() - number_x) <= 2  # where "(a)" stood, not at the margin
    assert [c["type"] for c in mine(window)] == ["paragraphPropertiesChanged"]
    path = saved(window, tmp_path, "unlettered.docx")
    check_in_libreoffice(lo_reading, path, text, text)
