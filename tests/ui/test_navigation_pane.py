"""The navigation pane and Go To (Ctrl+G), driven as a person does in the real window.

View ▸ Navigation Pane is clicked in the menu, clauses are clicked in the tree, the page is
scrolled with Page Down, Ctrl+G is pressed on the page and the clause typed into the dialog.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer_app.ui.clause_outline import find_clause, normalize_number, outline, page_request
from reviewer_app.ui.go_to_dialog import GoToDialog
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.navigation_pane import NavigationPane
from tests.agent_fixtures import SAMPLE
from tests.window_fixtures import click_menu_item, shown_main_window

LEFT = Qt.MouseButton.LeftButton
#: clause 3.2(e)(ii) of the sample: "the Customer's acceptable use policy for systems and networks; and"
CLAUSE_3_2_E_II = "4972C0D5"
#: clause 10.5 of the sample exists only as Priya Shah's tracked insertion
INSERTED_CLAUSE = "10.5"


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> MainWindow:
    win = shown_main_window(qtbot)
    assert win.open_path(shutil.copy(SAMPLE, tmp_path / "contract.docx"))
    win.page_view.finish_layout()
    return win


def open_pane(window: MainWindow, qtbot: Any) -> NavigationPane:
    click_menu_item(window, qtbot, "view", window.actions.navigation_pane)
    pane = window.docks.navigation
    # the dock opens at its width once the window has laid its docks out again
    qtbot.waitUntil(lambda: pane.tree.topLevelItemCount() > 0 and pane.tree.viewport().width() > 200)
    assert window.actions.navigation_pane.isChecked()
    return pane


def click_clause(pane: NavigationPane, block_id: str) -> None:
    item = pane.item_of(block_id)
    assert item is not None
    pane.tree.scrollToItem(item)
    assert pane.tree.viewport().rect().contains(pane.tree.visualItemRect(item).center())
    QTest.mouseClick(pane.tree.viewport(), LEFT, pos=pane.tree.visualItemRect(item).center())


def captions(pane: NavigationPane, parent_number: str) -> list[str]:
    entry = next(e for e in pane.entries() if e.number == parent_number)
    item = pane.item_of(entry.block_id)
    return [item.child(i).text(0) for i in range(item.childCount())]


def on_screen(window: MainWindow, block_id: str) -> bool:
    """The clause's first line is in the upper part of the page view (where a shown clause lands)."""
    offset = window.page_view.block_offset(block_id)
    return offset is not None and 0 <= offset <= window.page_view.viewport().height() / 2


# ----------------------------------------------------------------------------- the outline itself
def test_full_numbers_compose_sub_clauses_under_their_clause() -> None:
    from reviewer_app.docx.reviewer import DocxReviewer

    entries = outline(DocxReviewer.open(SAMPLE).snapshot())
    numbers = [e.number for e in entries]
    assert numbers[:5] == ["(1)", "(2)", "(A)", "(B)", "(C)"]  # the parties and the recitals
    assert numbers[5:8] == ["1", "1.1", "1.2"]
    assert numbers[numbers.index("3.2") + 1 : numbers.index("3.2") + 6] == [
        "3.2(a)",
        "3.2(b)",
        "3.2(c)",
        "3.2(d)",
        "3.2(e)",
    ]
    assert find_clause(entries, "Clause 3.2 (e)(ii)").block_id == CLAUSE_3_2_E_II
    assert find_clause(entries, "5.").label == "5."
    assert find_clause(entries, "99.1") is None
    assert normalize_number("Section 14.3(B).") == "14.3(b)"
    assert [page_request(t) for t in ("p 12", "p. 3", "page 7", "Page12", "12", "p")] == [
        12,
        3,
        7,
        12,
        None,
        None,
    ]


# ----------------------------------------------------------------------------- the pane
def test_the_pane_lists_the_sample_clauses_nested_with_their_labels(window: MainWindow, qtbot: Any) -> None:
    assert not window.docks.navigation_dock.isVisible()  # hidden until asked for, as in Word
    pane = open_pane(window, qtbot)
    top = [pane.tree.topLevelItem(i).text(0) for i in range(pane.tree.topLevelItemCount())]
    assert "1.  Definitions and interpretation" in top
    assert "5.  Charges and payment" in top
    assert top.index("1.  Definitions and interpretation") < top.index("5.  Charges and payment")
    assert [c.split("  ")[0] for c in captions(pane, "3.2")] == [
        "(a)",
        "(b)",
        "(c)",
        "(d)",
        "(e)",
        "(f)",
        "(g)",
    ]
    assert captions(pane, "3.2(e)") == [
        "(i)  the Customer’s information security policy;",
        "(ii)  the Customer’s acceptable use policy for systems and networks; and",
        "(iii)  the Customer’s supplier code of conduct;",
    ]
    click_menu_item(window, qtbot, "view", window.actions.navigation_pane)
    qtbot.waitUntil(lambda: not window.docks.navigation_dock.isVisible())


def test_clicking_a_clause_scrolls_the_page_to_it(window: MainWindow, qtbot: Any) -> None:
    pane = open_pane(window, qtbot)
    assert not on_screen(window, CLAUSE_3_2_E_II)
    click_clause(pane, CLAUSE_3_2_E_II)
    qtbot.waitUntil(lambda: on_screen(window, CLAUSE_3_2_E_II))
    page = window.page_view.paged_layout().index.page_of_block(CLAUSE_3_2_E_II)
    assert page in window.page_view.visible_pages()
    qtbot.wait(100)  # the pane follows the scroll that the click caused: the clicked clause stays current
    assert pane.current_block() == CLAUSE_3_2_E_II


def test_the_clause_being_read_is_current_while_scrolling(window: MainWindow, qtbot: Any) -> None:
    pane = open_pane(window, qtbot)
    view = window.page_view

    def being_read() -> str | None:
        """The last clause whose first line is above a third of the view (where a shown clause lands)."""
        line = view.viewport().height() / 3 + 2
        above = [e.block_id for e in pane.entries() if (view.block_offset(e.block_id) or 1e9) <= line]
        return above[-1] if above else None

    seen: list[str] = []
    for _ in range(16):
        QTest.keyClick(view, Qt.Key.Key_PageDown)
        expected = being_read()
        qtbot.waitUntil(lambda expected=expected: pane.current_block() == expected)
        if expected is not None and expected not in seen:
            seen.append(expected)
            item = pane.item_of(expected)
            assert pane.tree.viewport().rect().intersects(pane.tree.visualItemRect(item))  # kept in sight
    ids = [e.block_id for e in pane.entries()]
    assert len(seen) >= 4
    assert [ids.index(b) for b in seen] == sorted(ids.index(b) for b in seen)  # down the document


def test_the_outline_follows_edits(window: MainWindow, qtbot: Any) -> None:
    pane = open_pane(window, qtbot)
    assert find_clause(pane.entries(), INSERTED_CLAUSE) is not None
    click_menu_item(window, qtbot, "review", window.actions.reject_all)
    qtbot.waitUntil(lambda: find_clause(pane.entries(), INSERTED_CLAUSE) is None)
    numbers = [pane.item_of(e.block_id).text(0).split("  ")[0] for e in pane.entries()]
    assert "10.4" in numbers and "10.5" not in numbers
    click_menu_item(window, qtbot, "edit", window.actions.undo)
    qtbot.waitUntil(lambda: find_clause(pane.entries(), INSERTED_CLAUSE) is not None)
    assert pane.item_of(find_clause(pane.entries(), INSERTED_CLAUSE).block_id) is not None


# ----------------------------------------------------------------------------- Go To
def press_ctrl_g(window: MainWindow, qtbot: Any) -> GoToDialog:
    window.page_view.setFocus()
    QTest.keyClick(window.page_view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), GoToDialog))
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, GoToDialog)
    return dialog


def type_and_go(dialog: GoToDialog, text: str) -> None:
    QTest.keyClick(dialog.input, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(dialog.input, text)
    QTest.keyClick(dialog.input, Qt.Key.Key_Return)


def test_ctrl_g_goes_to_a_clause_number(window: MainWindow, qtbot: Any) -> None:
    dialog = press_ctrl_g(window, qtbot)
    assert dialog.windowTitle() == "Go To"
    type_and_go(dialog, "3.2(e)(ii)")
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert on_screen(window, CLAUSE_3_2_E_II)


def test_ctrl_g_goes_to_a_page(window: MainWindow, qtbot: Any) -> None:
    dialog = press_ctrl_g(window, qtbot)
    type_and_go(dialog, "p 12")
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert window.page_view.visible_pages()[0] == 11
    assert window.page_label.text().startswith("Page 12 of ")
    dialog = press_ctrl_g(window, qtbot)
    type_and_go(dialog, "page 3")
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert window.page_view.visible_pages()[0] == 2


def test_go_to_says_what_it_cannot_find_and_stays_open(window: MainWindow, qtbot: Any) -> None:
    dialog = press_ctrl_g(window, qtbot)
    before = window.page_view.verticalScrollBar().value()
    type_and_go(dialog, "14.3(b)")
    qtbot.waitUntil(dialog.message.isVisible)
    assert dialog.message.text() == "There is no clause 14.3(b) in this document."
    assert dialog.isVisible() and dialog.input.selectedText() == "14.3(b)"
    type_and_go(dialog, "p 400")
    pages = window.page_view.page_count()
    qtbot.waitUntil(lambda: "page 400" in dialog.message.text())
    assert dialog.message.text() == f"There is no page 400: the document has {pages} pages."
    type_and_go(dialog, "40")
    qtbot.waitUntil(lambda: "40 " in dialog.message.text())
    assert dialog.message.text() == "There is no clause 40 in this document. For a page, type p 40."
    assert window.page_view.verticalScrollBar().value() == before  # nothing moved
    close = next(b for b in dialog.findChildren(type(dialog.go_button)) if b.text() == "Close")
    QTest.mouseClick(close, LEFT)
    qtbot.waitUntil(lambda: not dialog.isVisible())


# ----------------------------------------------------------------------------- against LibreOffice
def lo_label_of(reading: dict[str, Any], title: str, start: int) -> tuple[str, int]:
    """LibreOffice's list label of the first numbered paragraph from ``start`` on that begins with
    ``title`` (a cover page or a table may hold the same words unnumbered)."""
    words = " ".join(title.rstrip("…").split())
    for index in range(start, len(reading["paragraphs"])):
        label = reading["list_labels"][index]
        if label and " ".join(reading["paragraphs"][index].split()).startswith(words):
            return label, index
    raise AssertionError(f"LibreOffice has no numbered paragraph starting {words!r}")


@pytest.mark.parametrize(
    "name",
    [
        "oa_common-paper-cloud-service-agreement.docx",  # an empty numbered paragraph before clause 1
        "oa_common-paper-partnership-agreement.docx",
        "oa_common-paper-data-processing-agreement.docx",
    ],
)
def test_the_outline_numbers_clauses_as_libreoffice_does(
    corpus_dir: Path, lo_reading: Any, name: str
) -> None:
    from reviewer_app.docx.reviewer import DocxReviewer

    path = corpus_dir / "contracts" / name
    entries = [e for e in outline(DocxReviewer.open(path).snapshot()) if e.label]
    reading = lo_reading(path)
    assert len(entries) > 15
    at = 0
    for entry in entries:
        label, at = lo_label_of(reading, entry.title, at)
        assert entry.label == label, (entry.number, entry.title)
        at += 1
