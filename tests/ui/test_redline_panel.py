"""The redline panel: a lawyer goes through every tracked change and accepts or rejects it.

Real controller over a copy of the sample contract (14 changes by opposing counsel), Qt offscreen.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.comment_thread_widget import format_comment_date
from reviewer_app.ui.document_controller import DocumentController
from reviewer_app.ui.redline_panel import RedlinePanel
from tests.docx_factory import make_docx, p

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"
PRIYA = "Priya Shah (Harbour Bank counsel)"
USER = "Alex Lawyer"
SAMPLE_IDS = [
    "1001",
    "1002",
    "1003",
    "1004",
    "1006",
    "1009",
    "1010",
    "1011",
    "1012",
    "1014",
    "1015",
    "1016",
    "1017",
    "1018",
]
DELETIONS = ["1002", "1003", "1009", "1014", "1016"]


@pytest.fixture
def controller(qapp, tmp_path: Path) -> DocumentController:
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    ctl = DocumentController(author=USER, store_directory=tmp_path / "queue")
    ctl.open(copy)
    return ctl


@pytest.fixture
def panel(qtbot, controller: DocumentController) -> RedlinePanel:
    widget = RedlinePanel(controller)
    qtbot.addWidget(widget)
    widget.resize(420, 520)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _click_row(qtbot, panel: RedlinePanel, change_id: str) -> None:
    row = panel.model.row_of(change_id)
    assert row is not None
    rect = panel.view.visualRect(panel.model.index(row))
    qtbot.mouseClick(panel.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _add_user_change(controller: DocumentController) -> None:
    """The person's own replacement in a clause: one deletion and one insertion under their name."""
    block = next(b for b in controller.reviewer.read_document() if " the " in b["text"])
    batch = {
        "version": 1,
        "mode": "tracked-changes",
        "operations": [
            {
                "id": "u1",
                "type": "replaceInBlock",
                "blockId": block["blockId"],
                "find": "the",
                "replace": "THE",
            }
        ],
    }
    assert controller.apply_operations("Edit", batch)["status"] == "committed"


# ----------------------------------------------------------------- engine: change details
def test_change_details_add_dates_and_stories_while_changes_keep_the_contract_shape(tmp_path: Path) -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    assert all(set(c) == {"id", "type", "author", "text", "blockId"} for c in reviewer.changes())
    details = reviewer.change_details()
    assert [d["id"] for d in details] == [c["id"] for c in reviewer.changes()] == SAMPLE_IDS
    assert details[0]["date"] == "2025-03-14T09:07:00Z"
    assert all(d["story"] == {"type": "main"} and not d["moved"] for d in details)

    body = (
        p("Intro", "00000001")
        + '<w:p w14:paraId="00000002"><w:pPr><w:rPr><w:del w:id="5" w:author="A" w:date="2024-01-01T00:00:00Z"/>'
        '</w:rPr></w:pPr><w:del w:id="6" w:author="A"><w:r><w:delText>Gone clause</w:delText></w:r></w:del></w:p>'
        + p(
            "Kept",
            "00000003",
            runs='<w:r><w:t>Kept </w:t></w:r><w:moveTo w:id="7" w:author="B"><w:r><w:t>moved</w:t></w:r></w:moveTo>',
        )
    )
    header = '<w:p><w:ins w:id="9" w:author="B" w:date="2024-02-02T10:00:00Z"><w:r><w:t>DRAFT</w:t></w:r></w:ins></w:p>'
    details = DocxReviewer.from_bytes(make_docx(body, header=header)).change_details()
    by_id = {d["id"]: d for d in details}
    gone = by_id["6"]
    assert gone["date"] is None and gone["blockId"] is None and gone["locationBlockId"] == "00000002"
    assert by_id["7"]["moved"] and by_id["7"]["type"] == "insertion"
    assert (
        by_id["9"]["story"] == {"type": "header", "relationshipId": "rId1"} and by_id["9"]["text"] == "DRAFT"
    )
    assert [d["id"] for d in details][-1] == "9"  # main story first, then the other stories


# ----------------------------------------------------------------- listing
def test_lists_every_change_with_type_author_date_and_section(panel: RedlinePanel) -> None:
    model = panel.model
    assert model.shown_ids() == SAMPLE_IDS
    assert model.authors() == [PRIYA]
    first = model.change_at(0)
    assert (first.type_text, first.author) == ("Inserted", PRIYA)
    assert first.date_text == format_comment_date("2025-03-14T09:07:00Z") != ""
    assert first.excerpt.startswith(", and are without prejudice")
    assert first.section == "3.3 Service Levels."
    assert first.section_path == "3. Supply of services › 3.3 Service Levels."
    rows = {row.id: row for row in model.all_rows}
    assert rows["1002"].type_text == "Deleted" and rows["1002"].text_effect == "deleted"
    assert rows["1006"].type_text == "Formatted"
    assert rows["1011"].type_text == "New paragraph" and rows["1011"].excerpt == ""
    assert rows["1018"].section == "Schedule 2"
    assert rows["1014"].section.startswith("12.3 ")
    assert panel.count_label.text() == "14 changes · 1 author"
    assert panel.stack.currentWidget() is panel.view
    assert panel.objectName() == "redlinePanel" and panel.view.accessibleName()
    assert "Priya Shah" in model.index(0).data(Qt.ItemDataRole.AccessibleTextRole)


def test_filter_by_type_author_and_text(panel: RedlinePanel, controller: DocumentController) -> None:
    panel.filters.set_category("deletion")
    assert panel.model.shown_ids() == DELETIONS
    assert panel.count_label.text() == "Showing 5 of 14 changes · 1 author"
    panel.filters.set_category(None)
    panel.filters.text_field.setText("forty-five")
    assert panel.model.shown_ids() == ["1004"]
    panel.filters.text_field.clear()

    _add_user_change(controller)
    assert set(panel.model.authors()) == {PRIYA, USER}
    panel.filters.set_author(USER)
    assert {panel.model.change_at(r).author for r in range(panel.model.rowCount())} == {USER}
    assert panel.count_label.text() == "Showing 2 of 16 changes · 2 authors"
    panel.filters.set_category("table")  # no such change: the category is not offered, "All" stays
    assert panel.filters.category() is None


# ----------------------------------------------------------------- acts
def test_accept_selected_is_one_undo_step_and_lands_on_the_next_change(
    qtbot, panel: RedlinePanel, controller: DocumentController
) -> None:
    _click_row(qtbot, panel, "1003")
    assert panel.selected_ids() == ["1003"]
    with qtbot.waitSignal(panel.change_selected) as shown:
        qtbot.keyClick(panel.view, Qt.Key.Key_A)
    assert shown.args == ["1004"]  # the page view follows the lawyer to the next change
    assert panel.model.rowCount() == 13 and "1003" not in panel.model.shown_ids()
    assert panel.selected_ids() == ["1004"] and panel.current_id() == "1004"
    assert controller.undo_stack.count() == 1
    assert panel.count_label.text() == "13 changes · 1 author"
    controller.undo_stack.undo()
    assert panel.model.shown_ids() == SAMPLE_IDS
    assert panel.selected_ids() == ["1004"]  # the selection survives a refresh when its change does


def test_reject_several_selected_rows_at_once(
    qtbot, panel: RedlinePanel, controller: DocumentController
) -> None:
    _click_row(qtbot, panel, "1009")
    row = panel.model.row_of("1010")
    rect = panel.view.visualRect(panel.model.index(row))
    qtbot.mouseClick(
        panel.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, rect.center()
    )
    assert panel.selected_ids() == ["1009", "1010"]
    assert panel.reject_selected() == 2
    assert controller.undo_stack.count() == 1
    assert panel.selected_ids() == ["1011"]
    text = " ".join(b["text"] for b in controller.reviewer.read_document())
    assert "aggregate liability" in text


def test_reject_all_by_author_from_the_menu(panel: RedlinePanel, controller: DocumentController) -> None:
    _add_user_change(controller)
    assert panel.model.rowCount() == 16
    menu = panel.reject_all_button.menu()
    menu.aboutToShow.emit()
    texts = [a.text() for a in menu.actions()]
    assert texts[0] == "Reject all 16 changes in the document"
    by_user = next(a for a in menu.actions() if a.text() == f"Reject all by {USER} (2)")
    before = controller.undo_stack.count()
    by_user.trigger()
    assert panel.model.shown_ids() == SAMPLE_IDS and panel.model.authors() == [PRIYA]
    assert controller.undo_stack.count() == before + 1


def test_accept_all_means_the_whole_document_whatever_the_filter(
    panel: RedlinePanel, controller: DocumentController
) -> None:
    panel.filters.set_category("deletion")
    assert panel.accept_all() == 14
    assert controller.reviewer.change_details() == []
    assert panel.stack.currentWidget() is panel.empty_label
    assert panel.empty_label.text() == "No tracked changes"
    assert not panel.accept_all_button.isEnabled() and not panel.accept_button.isEnabled()
    assert panel.filters.category() is None  # no deletions left: the filter falls back to "All types"
    controller.undo_stack.undo()
    assert panel.model.rowCount() == 14
    assert panel.stack.currentWidget() is panel.view


# ----------------------------------------------------------------- selection sync and navigation
def test_select_change_from_the_page_view_does_not_echo(qtbot, panel: RedlinePanel) -> None:
    with qtbot.assertNotEmitted(panel.change_selected):
        assert panel.select_change("1012")
    assert panel.selected_ids() == ["1012"] and panel.current_id() == "1012"
    assert not panel.select_change("no-such-change")
    panel.filters.set_category("deletion")  # 1010 is an insertion: hidden by the filter
    with qtbot.assertNotEmitted(panel.change_selected):
        assert panel.select_change("1010")
    assert panel.filters.category() is None and panel.current_id() == "1010"


def test_clicking_a_row_and_enter_show_it_in_the_document(qtbot, panel: RedlinePanel) -> None:
    with qtbot.waitSignal(panel.change_selected) as shown:
        _click_row(qtbot, panel, "1006")
    assert shown.args == ["1006"]
    with qtbot.waitSignal(panel.change_selected) as again:
        qtbot.keyClick(panel.view, Qt.Key.Key_Return)
    assert again.args == ["1006"]


def test_next_and_previous_change_select_and_emit(qtbot, panel: RedlinePanel) -> None:
    with qtbot.waitSignal(panel.change_selected) as shown:
        assert panel.next_change() == "1001"
    assert shown.args == ["1001"]
    assert panel.next_change() == "1002" and panel.current_id() == "1002"
    assert panel.previous_change() == "1001"
    assert panel.previous_change() is None and panel.current_id() == "1001"
    panel.select_change("1018")
    assert panel.next_change() is None


# ----------------------------------------------------------------- pages
def test_page_column_fills_from_the_page_index_once_laid_out(
    qtbot, panel: RedlinePanel, controller: DocumentController
) -> None:
    pages = {"54BE98D7": 3, "0D6B3E1B": 4}  # 0-based, as PageIndex.page_of_block answers
    panel.set_page_lookup(pages.get)
    rows = {row.id: row for row in panel.model.all_rows}
    assert (rows["1001"].page, rows["1003"].page, rows["1018"].page) == (4, 5, None)
    assert "page 4" in panel.model.index(0).data()
    controller.accept_changes(["1002"])
    assert panel.model.change_at(0).page == 4  # kept across a refresh
    controller.open(controller.path)  # another document: pages wait for its layout
    assert all(row.page is None for row in panel.model.all_rows)
    panel.refresh_pages()  # the page view's layout_finished
    assert panel.model.change_at(0).page == 4


def test_header_changes_are_listed_by_story_and_resolve_from_the_panel(qtbot, tmp_path: Path) -> None:
    header = '<w:p><w:ins w:id="9" w:author="B" w:date="2024-02-02T10:00:00Z"><w:r><w:t>DRAFT</w:t></w:r></w:ins></w:p>'
    body = p("Body", "00000001", runs='<w:ins w:id="3" w:author="A"><w:r><w:t>Body</w:t></w:r></w:ins>')
    path = tmp_path / "header.docx"
    path.write_bytes(make_docx(body, header=header))
    ctl = DocumentController(author=USER, store_directory=tmp_path / "queue")
    ctl.open(path)
    panel = RedlinePanel(ctl)
    qtbot.addWidget(panel)
    rows = {row.id: row for row in panel.model.all_rows}
    assert (rows["9"].section, rows["9"].excerpt, rows["9"].block_id) == ("Header", "DRAFT", None)
    assert rows["3"].date_text == "" and rows["3"].section == ""  # no date, no headings
    assert panel.select_change("9") and panel.reject_selected() == 1
    assert panel.model.shown_ids() == ["3"] and panel.selected_ids() == ["3"]
    ctl.close()
    assert panel.empty_label.text() == "No document is open" and panel.count_label.text() == ""
