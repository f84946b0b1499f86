"""What the other views show while a person types in the page: as fresh as a new reading.

A keystroke re-lays out its own paragraph and the page index, the comments panel and the
recovery copy follow it without reading the whole document again. These tests type and paste
with real key events on the page view of the main window and check each view against what a
fresh reading gives: the page of every paragraph and comment after a paste pushed the text
below it onto later pages, a comment's quote the moment a key lands inside it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview.page_index import PageIndex
from tests.conftest import REPO_ROOT
from tests.ui.test_page_typing import click_at
from tests.window_fixtures import window_on_copy

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
CLAUSE_5_2 = "26C40F6B"  # five paragraphs above the comment on clause 5.7 (indexation)
INDEXATION = "4E7D4AEB"  # "Indexation. The Supplier may increase the Charges once in each contract year, …"
INDEXATION_COMMENT = "1005"
ME = "Alex Lawyer"
#: more text than a page holds: every paragraph below it moves to a later page
LONG_PASTE = " The parties agree that this clause survives termination of this Agreement." * 70


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    win = window_on_copy(qtbot, SAMPLE, tmp_path, monkeypatch, ME)
    win.docks.comments_dock.show()
    win.docks.comments_dock.raise_()
    qtbot.waitUntil(win.docks.comments.isVisible)
    return win


def shown_pages(win: MainWindow) -> dict[str, int | None]:
    panel = win.docks.comments
    return {thread_id: panel.thread_row(thread_id).page for thread_id in panel.thread_ids()}


def fresh_index(win: MainWindow) -> PageIndex:
    layout = win.page_view.paged_layout()
    index = PageIndex(layout.paging, layout.by_id, layout.notes.settled)
    index.invalidate()
    return index


def test_after_a_paste_moves_the_text_below_pages_and_comment_pages_read_as_afresh(
    window: MainWindow, qtbot
) -> None:
    view, panel = window.page_view, window.docks.comments
    layout = view.paged_layout()
    blocks = [b.id for b in window.controller.snapshot().blocks]
    before = {b: layout.index.page_of_block(b) for b in blocks}
    pages_before = shown_pages(window)
    threads_before = panel.thread_ids()
    click_at(view, qtbot, CLAUSE_5_2, len(window.controller.snapshot().block(CLAUSE_5_2).text))
    QApplication.clipboard().setText(LONG_PASTE)
    QTest.keyClick(view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(view, " Net")  # typing after it: the panel's pages follow once typing pauses
    fresh = fresh_index(window)
    # the page index reads again from the layout only as far as asked: the last paragraph first
    # (the ones before it are read on the way), then every paragraph, then every page
    assert layout.index.page_of_block(blocks[-1]) == fresh.page_of_block(blocks[-1])
    assert [layout.index.page_of_block(b) for b in blocks] == [fresh.page_of_block(b) for b in blocks]
    pages = range(layout.page_count())
    assert [layout.index.page_pieces(n) for n in pages] == [fresh.page_pieces(n) for n in pages]
    moved = [b for b in blocks[blocks.index(INDEXATION) :] if fresh.page_of_block(b) != before[b]]
    assert INDEXATION in moved
    expected = {row["id"]: fresh.page_of_block(row["blockId"]) for row in window.reviewer.comment_threads()}
    qtbot.waitUntil(lambda: shown_pages(window) == expected)
    assert expected[INDEXATION_COMMENT] != pages_before[INDEXATION_COMMENT]
    assert panel.thread_ids() == threads_before
    assert [panel.thread_row(t).quote for t in threads_before] == [
        row["quote"] for row in window.reviewer.comment_threads()
    ]


def test_a_key_typed_inside_a_commented_passage_shows_in_its_quote_at_once(window: MainWindow, qtbot) -> None:
    view, panel = window.page_view, window.docks.comments
    quote = panel.thread_row(INDEXATION_COMMENT).quote
    text = window.controller.snapshot().block(INDEXATION).text
    click_at(view, qtbot, INDEXATION, text.index(quote) + len("once in each"))
    QTest.keyClicks(view, " single")
    assert panel.thread_row(INDEXATION_COMMENT).quote == quote.replace("once in each", "once in each single")
    QTest.keyClick(view, Qt.Key.Key_Backspace)
    assert panel.thread_row(INDEXATION_COMMENT).quote == quote.replace("once in each", "once in each singl")


def test_the_page_painted_key_by_key_is_the_page_painted_afresh(window: MainWindow, qtbot) -> None:
    """A key that keeps its paragraph's lines repaints only that paragraph's band and the margin
    column; what the window shows then (its backing store, as the paints left it) is, pixel for
    pixel, what painting the whole view again gives (balloon edges included)."""
    view = window.page_view
    click_at(view, qtbot, CLAUSE_5_2, 10)
    for key in (Qt.Key.Key_Delete, "n", "e", Qt.Key.Key_Backspace):  # each painted before the next
        if isinstance(key, str):
            QTest.keyClicks(view, key)
        else:
            QTest.keyClick(view, key)
        QApplication.processEvents()
        assert view.paged_layout().kept_lines
    qtbot.wait(200)  # every paint the keys asked for is done
    on_screen = shown(window)
    view.viewport().repaint()
    afresh = shown(window)
    assert on_screen.size() == afresh.size()
    assert shade_difference(on_screen, afresh) == 0


def shown(window: MainWindow) -> QImage:
    """What the window shows now: its backing store, as the last paints left it."""
    image = window.backingStore().paintDevice()
    assert isinstance(image, QImage)
    return image.copy()


def shade_difference(a: QImage, b: QImage) -> int:
    """The largest difference of one colour channel at one pixel between two pictures of a size."""
    first = bytes(a.convertToFormat(QImage.Format.Format_RGB32).constBits())
    second = bytes(b.convertToFormat(QImage.Format.Format_RGB32).constBits())
    return max((abs(x - y) for x, y in zip(first, second, strict=True) if x != y), default=0)
