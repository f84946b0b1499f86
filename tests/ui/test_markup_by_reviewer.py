"""Show Markup ▸ by reviewer, Simple Markup and Accept All Changes Shown, in the real window.

The contract has two reviewers' changes: Priya Shah's (the sample's own) and Alex Lawyer's in
clause 5.2, with a comment of his there. Menus are opened with a click on the menu bar and items
clicked in them; what the page shows is judged by the pixels painted over each clause (the
authors' change colours) and by the comment balloons the painter placed; the file saved after
Accept All Changes Shown is read back by LibreOffice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDockWidget, QMenu

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.main_window import MainWindow
from tests.agent_fixtures import SAMPLE
from tests.checkers import schema_errors
from tests.pdf_text import pdf_text
from tests.window_fixtures import click_menu_item, shown_main_window

LEFT = Qt.MouseButton.LeftButton
ALEX, PRIYA = "Alex Lawyer", "Priya Shah (Harbour Bank counsel)"
CLAUSE_5_2 = "26C40F6B"  # "The Supplier shall invoice the Customer monthly in arrears. …"
CLAUSE_5_3 = "0D6B3E1B"  # Priya's "thirty (30)" → "forty-five (45)"
ALEX_COMMENT = "Quarterly suits our treasury."
ACCEPTED_5_2 = "The Supplier shall invoice the Customer quarterly in advance."


def two_reviewers(folder: Path) -> Path:
    """The sample contract with Alex Lawyer's changes and comment added to Priya Shah's."""
    reviewer = DocxReviewer.open(SAMPLE, author=ALEX)
    result = reviewer.apply_operations(
        {
            "version": 1,
            "operations": [
                {
                    "id": "a",
                    "type": "replaceInBlock",
                    "blockId": CLAUSE_5_2,
                    "find": "monthly in arrears",
                    "replace": "quarterly in advance",
                },
                {
                    "id": "c",
                    "type": "commentOnBlock",
                    "blockId": CLAUSE_5_2,
                    "comment": {"text": ALEX_COMMENT},
                },
            ],
        }
    )
    assert result["status"] == "committed"
    path = folder / "two-reviewers.docx"
    reviewer.save(path)
    return path


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> MainWindow:
    win = shown_main_window(qtbot)
    assert win.open_path(two_reviewers(tmp_path))
    # the pages alone at 100 %: the clauses large enough to count their pixels
    for dock in (win.chat_dock, *(d for d in win.findChildren(QDockWidget) if d.isVisible())):
        dock.hide()
    win.page_view.set_zoom(1.0)
    win.page_view.finish_layout()
    return win


# ----------------------------------------------------------------------------- clicking menus
def open_menu(window: MainWindow, qtbot: Any, name: str) -> QMenu:
    bar, menu = window.menuBar(), window.menus[name]
    QTest.mouseClick(bar, LEFT, pos=bar.actionGeometry(menu.menuAction()).center())
    qtbot.waitUntil(menu.isVisible)
    return menu


def show_markup_item(window: MainWindow, qtbot: Any, text: str) -> None:
    """Review ▸ Show Markup ▸ ``text`` (a reviewer's name, or All Reviewers)."""
    review = open_menu(window, qtbot, "review")
    submenu = window.markup.menu
    QTest.mouseClick(review, LEFT, pos=review.actionGeometry(submenu.menuAction()).center())
    qtbot.waitUntil(submenu.isVisible)
    item = next(a for a in submenu.actions() if a.text().replace("&", "") == text)
    QTest.mouseClick(submenu, LEFT, pos=submenu.actionGeometry(item).center())
    qtbot.waitUntil(lambda: not review.isVisible())


# ----------------------------------------------------------------------------- reading the page
def look_at(
    window: MainWindow, qtbot: Any, artifacts_dir: Path, name: str, block_id: str
) -> tuple[QImage, QRect]:
    """The page view as painted with the clause in view (saved as a PNG), and where the clause is."""
    view = window.page_view
    view.finish_layout()
    view.scroll_to_block(block_id)
    qtbot.wait(50)
    rect = view.block_viewport_rect(block_id)
    assert rect is not None and view.viewport().rect().contains(rect), block_id
    pixmap = view.viewport().grab()
    pixmap.save(str(artifacts_dir / f"markup-{name}-{block_id}.png"))
    return pixmap.toImage(), rect


def markup_pixels(image: QImage, rect: QRect) -> int:
    """Pixels in ``rect`` drawn in a reviewer's colour: saturated, and not the comments' yellow."""
    count = 0
    for y in range(rect.top(), rect.bottom(), 2):
        for x in range(rect.left(), rect.right(), 2):
            color = QColor(image.pixel(x, y))
            if color.hsvSaturation() > 90 and color.value() > 60 and not 35 <= color.hsvHue() <= 70:
                count += 1
    return count


def bar_pixels(image: QImage, rect: QRect, window: MainWindow) -> int:
    """Red change-bar pixels in the margin left of ``rect``."""
    count = 0
    for y in range(rect.top(), rect.bottom()):
        for x in range(max(0, rect.left() - 150), rect.left()):
            color = QColor(image.pixel(x, y))
            if color.red() > 180 and color.green() < 90 and color.blue() < 90:
                count += 1
    return count


def balloon_comments(window: MainWindow) -> set[str]:
    """The text of the comments whose balloons the painter drew on the pages in view."""
    view = window.page_view
    layout = view.paged_layout()
    boxes = view._painter.balloon_boxes  # what was painted, as a click on a balloon reads it
    ids = {cid for number in view.visible_pages() for _box, cid in boxes.get(number, [])}
    return {layout.comments[cid].text for cid in ids}


# ----------------------------------------------------------------------------- tests
def test_hiding_a_reviewer_hides_their_changes_and_comments_on_the_page(
    window: MainWindow, qtbot: Any, artifacts_dir: Path
) -> None:
    def markup_in(name: str, block_id: str) -> int:
        return markup_pixels(*look_at(window, qtbot, artifacts_dir, name, block_id))

    total = len(window.controller.reviewer.change_details())
    assert markup_in("everyone", CLAUSE_5_2) > 50
    assert ALEX_COMMENT in balloon_comments(window)
    assert markup_in("everyone", CLAUSE_5_3) > 50

    show_markup_item(window, qtbot, ALEX)
    qtbot.waitUntil(lambda: window.page_view.markup_filter().hidden_authors == {ALEX})
    assert markup_in("without-alex", CLAUSE_5_2) == 0  # his words read as accepted
    assert ALEX_COMMENT not in balloon_comments(window)
    assert markup_in("without-alex", CLAUSE_5_3) > 50  # Priya's still show
    text = window.page_view.page_text(window.page_view.paged_layout().index.page_of_block(CLAUSE_5_2))
    assert ACCEPTED_5_2 in " ".join(text.split())
    assert len(window.controller.reviewer.change_details()) == total  # the document is untouched

    show_markup_item(window, qtbot, PRIYA)
    assert markup_in("nobody", CLAUSE_5_3) == 0

    show_markup_item(window, qtbot, "All Reviewers")
    qtbot.waitUntil(lambda: not window.page_view.markup_filter().hidden_authors)
    assert markup_in("everyone-again", CLAUSE_5_2) > 50
    assert ALEX_COMMENT in balloon_comments(window)


def test_the_show_markup_menu_lists_every_reviewer_with_a_check_mark(window: MainWindow, qtbot: Any) -> None:
    show_markup_item(window, qtbot, ALEX)
    review = open_menu(window, qtbot, "review")
    submenu = window.markup.menu
    QTest.mouseClick(review, LEFT, pos=review.actionGeometry(submenu.menuAction()).center())
    qtbot.waitUntil(submenu.isVisible)
    marks = {a.text(): a.isChecked() for a in submenu.actions() if not a.isSeparator()}
    # the comment-only reviewer is listed too: hiding him hides his comments
    assert marks == {"&All Reviewers": False, ALEX: False, "Daniel Okafor (Northwind)": True, PRIYA: True}
    QTest.keyClick(submenu, Qt.Key.Key_Escape)
    QTest.keyClick(review, Qt.Key.Key_Escape)


def test_simple_markup_shows_the_text_as_accepted_with_a_red_bar(
    window: MainWindow, qtbot: Any, artifacts_dir: Path
) -> None:
    image, rect = look_at(window, qtbot, artifacts_dir, "all", CLAUSE_5_2)
    assert bar_pixels(image, rect, window) == 0  # All Markup's bar is grey
    click_menu_item(window, qtbot, "view", window.actions.markup_simple)
    assert window.actions.markup_simple.isChecked() and not window.actions.markup_all.isChecked()
    qtbot.waitUntil(lambda: window.page_view.markup_filter().simple)
    for clause in (CLAUSE_5_2, CLAUSE_5_3):
        image, rect = look_at(window, qtbot, artifacts_dir, "simple", clause)
        assert markup_pixels(image, rect) == 0
        assert bar_pixels(image, rect, window) > 10
    text = window.page_view.page_text(window.page_view.paged_layout().index.page_of_block(CLAUSE_5_2))
    assert ACCEPTED_5_2 in " ".join(text.split())
    click_menu_item(window, qtbot, "view", window.actions.markup_all)
    qtbot.waitUntil(lambda: not window.page_view.markup_filter().simple)
    assert markup_pixels(*look_at(window, qtbot, artifacts_dir, "all-again", CLAUSE_5_2)) > 50


def test_accept_all_changes_shown_accepts_only_the_shown_reviewers_changes(
    window: MainWindow, qtbot: Any, tmp_path: Path, lo_reading: Any
) -> None:
    source = tmp_path / "two-reviewers.docx"
    authors = [c["author"] for c in window.controller.reviewer.change_details()]
    alex, priya = authors.count(ALEX), authors.count(PRIYA)
    assert alex > 1 and priya > 1 and alex + priya == len(authors)
    show_markup_item(window, qtbot, PRIYA)
    click_menu_item(window, qtbot, "review", window.actions.accept_shown)
    qtbot.waitUntil(lambda: all(c["author"] == PRIYA for c in window.controller.reviewer.change_details()))
    assert (
        window.statusBar().currentMessage() == f"Accepted {alex} changes shown; {priya} hidden changes kept"
    )
    saved = tmp_path / "accepted-shown.docx"
    window.controller.save(saved)
    assert schema_errors(saved) == 0
    reading = lo_reading(saved, accept_reject=True)
    before = lo_reading(source, accept_reject=True)
    assert reading["load_ok"]
    assert {c["author"] for c in reading["tracked_changes"]} == {PRIYA}
    assert len(reading["tracked_changes"]) == len(
        [c for c in before["tracked_changes"] if c["author"] == PRIYA]
    )
    assert any(
        p.startswith(ACCEPTED_5_2) for p in reading["reject_all"]["paragraphs"]
    )  # Alex's are in for good
    assert reading["accept_all"]["paragraphs"] == before["accept_all"]["paragraphs"]
    click_menu_item(window, qtbot, "edit", window.actions.undo)  # one step
    qtbot.waitUntil(lambda: len(window.controller.reviewer.change_details()) == len(authors))


def test_the_redline_pdf_shows_what_the_pages_show(
    window: MainWindow, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """File ▸ Export Redline PDF with Alex Lawyer hidden: his words read as accepted, no balloon of his."""
    show_markup_item(window, qtbot, ALEX)
    target = tmp_path / "without-alex.pdf"
    monkeypatch.setattr(window.files, "ask_save_path", lambda *args: str(target))  # the save dialog's answer
    click_menu_item(window, qtbot, "file", window.actions.export_pdf)
    qtbot.waitUntil(target.exists)
    text = " ".join(pdf_text(target).split())
    assert "Uncapped CPI indexation is not acceptable" in text  # Priya's comment is there
    assert ALEX_COMMENT not in text
    assert ACCEPTED_5_2 in text
