"""The comments panel over a real controller and the sample contract (5 comments in 4 threads).

The sample holds: 1000 (resolved), 1005, 1007 with reply 1008 (another author), 1013. Every act
in the panel must land in the document as the person, as one undo step, and survive saving.
Threads are painted: tests read what is painted from the thread's layout (the pieces the delegate
draws) and click the painted buttons with real mouse clicks on the list's viewport.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from reviewer_app.ui.comments_panel import CommentNotAddedError, CommentsPanel, add_comment_on_range
from reviewer_app.ui.document_controller import DocumentController

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"
PERSON = "Alex Lawyer"


@pytest.fixture
def controller(qapp, tmp_path: Path) -> DocumentController:
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    ctl = DocumentController(author=PERSON, store_directory=tmp_path / "queue")
    ctl.open(copy)
    return ctl


def _panel(qtbot, controller: DocumentController, **options) -> CommentsPanel:
    panel = CommentsPanel(controller, **options)
    qtbot.addWidget(panel)
    panel.resize(360, 700)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def _thread(controller: DocumentController, comment_id: str) -> dict:
    return next(c for c in controller.reviewer.comments() if c["id"] == comment_id)


def _click(qtbot, panel: CommentsPanel, thread_id: str, action: str) -> None:
    """A real mouse click on the painted button of a thread."""
    rect = panel.action_rect(thread_id, action)
    assert rect is not None, f"{action} of {thread_id} is not shown"
    qtbot.mouseClick(panel.list_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _click_thread(qtbot, panel: CommentsPanel, thread_id: str) -> None:
    """A real mouse click on a thread's header line (not on a button)."""
    rect = panel.thread_rect(thread_id)
    assert rect is not None
    qtbot.mouseClick(
        panel.list_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.topLeft() + QPoint(30, 14)
    )


def _reply_ids(panel: CommentsPanel, thread_id: str) -> list[str]:
    layout = panel.thread_layout(thread_id)
    return [piece.comment_id for piece in layout.pieces if piece.kind == "replyText"]


def _free_range(controller: DocumentController, word: str) -> tuple[str, int, int]:
    """A block without comments that holds ``word``, and the word's clean-text offsets."""
    commented = {c["blockId"] for c in controller.reviewer.comments()}
    for block in controller.snapshot().content_blocks():
        start = block.text.find(word)
        if start >= 0 and block.id not in commented:
            return block.id, start, start + len(word)
    raise AssertionError(f"no uncommented block holds {word!r}")


def test_lists_threads_in_document_order_with_replies_dates_and_resolved_state(qtbot, controller) -> None:
    panel = _panel(qtbot, controller, page_of_block=lambda block_id: 3)
    assert panel.objectName() == "commentsPanel"
    assert panel.thread_ids() == ["1000", "1005", "1007", "1013"]
    assert panel.count_label.text() == "3 open · 1 resolved"

    assert panel.thread_row("1008") is panel.thread_row("1007")  # a reply belongs to its thread
    cap = panel.thread_layout("1007")
    assert _reply_ids(panel, "1007") == ["1008"]
    assert cap.texts("replyText")[0].startswith("Northwind can consider a separate cap")
    assert cap.texts("replyAuthor") == ["Daniel Okafor (Northwind)"]
    author = next(piece for piece in cap.pieces if piece.kind == "author")
    assert author.text == "Priya Shah (Harbour Bank counsel)" and author.font == "bold"
    assert cap.texts("date")[0].startswith("14 Mar 2025")
    assert cap.texts("page") == ["p. 4"]
    assert cap.texts("quote")[0].startswith("\u201c150 per cent")
    assert [label for _rect, label in cap.buttons.values()] == ["Reply", "Resolve", "Delete"]

    settled = panel.thread_layout("1000")
    assert panel.thread_row("1000").resolved and settled.texts("resolvedMarker") == ["\u2713 Resolved"]
    assert "reply" not in settled.buttons and settled.buttons["resolve"][1] == "Reopen"
    assert not any(piece.wrap for piece in settled.pieces)  # collapsed to one line until selected

    panel.show_resolved.setChecked(False)
    assert not panel.is_thread_shown("1000") and panel.is_thread_shown("1007")
    assert panel.thread_rect("1000") is None
    panel.select_comment("1000")  # the page view shows a resolved comment: it appears, opened up
    assert panel.is_thread_shown("1000")
    assert any(piece.kind == "text" and piece.wrap for piece in panel.thread_layout("1000").pieces)


def test_no_document_and_no_comments_say_so(qtbot, controller, tmp_path: Path) -> None:
    panel = _panel(qtbot, controller)
    controller.close()
    assert panel.thread_ids() == [] and not panel.new_button.isEnabled()
    assert panel.empty_label.isVisible()
    controller.open(SAMPLE)
    for comment_id in panel.thread_ids():
        controller.resolve_comment(comment_id, True)
    panel.show_resolved.setChecked(False)
    assert panel.empty_label.isVisible() and panel.empty_label.text() == "No open comments"
    assert panel.count_label.text() == "0 open · 4 resolved (hidden)"


def test_reply_lands_under_its_parent_as_the_person_in_one_undo_step(qtbot, controller) -> None:
    panel = _panel(qtbot, controller)
    _click(qtbot, panel, "1005", "reply")
    composer = panel.reply_composer("1005")
    assert composer is not None and composer.isVisible() and not composer.send_button.isEnabled()
    layout = panel.thread_layout("1005")
    assert composer.geometry() == layout.composer.translated(panel.thread_rect("1005").topLeft())
    qtbot.keyClicks(composer.editor, "The Bank's cap of 3 per cent is agreed.")
    qtbot.keyClick(composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    replies = _thread(controller, "1005")["replies"]
    assert [(r["author"], r["text"]) for r in replies] == [
        (PERSON, "The Bank's cap of 3 per cent is agreed.")
    ]
    assert controller.undo_stack.count() == 1
    assert panel.reply_composer("1005") is None and not composer.isVisible()
    assert _reply_ids(panel, "1005") == [replies[0]["id"]]
    assert panel.thread_layout("1005").texts("replyAuthor") == [PERSON]

    controller.undo_stack.undo()
    assert _thread(controller, "1005")["replies"] == []
    assert _reply_ids(panel, "1005") == []


def test_resolve_and_reopen_round_trip(qtbot, controller) -> None:
    panel = _panel(qtbot, controller)
    _click(qtbot, panel, "1013", "resolve")
    assert _thread(controller, "1013")["resolved"] is True
    assert panel.thread_row("1013").resolved
    assert panel.thread_layout("1013").buttons["resolve"][1] == "Reopen"
    assert panel.count_label.text() == "2 open · 2 resolved"
    _click(qtbot, panel, "1013", "resolve")
    assert _thread(controller, "1013")["resolved"] is False and not panel.thread_row("1013").resolved
    assert controller.undo_stack.count() == 2
    controller.undo_stack.undo()
    assert _thread(controller, "1013")["resolved"] is True
    controller.undo_stack.undo()
    assert _thread(controller, "1013")["resolved"] is False
    assert not controller.is_modified()


def test_a_press_on_a_collapsed_threads_button_does_not_open_it_under_the_pointer(qtbot, controller) -> None:
    panel = _panel(qtbot, controller)
    picked: list[str] = []
    panel.comment_selected.connect(picked.append)
    _click(qtbot, panel, "1000", "resolve")  # Reopen on the collapsed resolved thread
    assert _thread(controller, "1000")["resolved"] is False
    assert picked == [] and panel.selected_comment() is None


def test_new_comment_anchors_on_the_selection(qtbot, controller) -> None:
    selection = _free_range(controller, "Services")
    panel = _panel(qtbot, controller, selection_provider=lambda: selection)
    picked: list[str] = []
    panel.comment_selected.connect(picked.append)
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    assert panel.new_box.isVisible() and panel.new_quote.full_text() == "Comment on \u201cServices\u201d"
    qtbot.keyClicks(panel.new_composer.editor, "Is this the defined term?")
    qtbot.keyClick(panel.new_composer.editor, Qt.Key.Key_Enter, Qt.KeyboardModifier.ControlModifier)

    added = [c for c in controller.reviewer.comments() if c["text"] == "Is this the defined term?"]
    assert len(added) == 1
    assert (added[0]["author"], added[0]["blockId"], added[0]["quote"]) == (PERSON, selection[0], "Services")
    assert controller.undo_stack.count() == 1
    assert not panel.new_box.isVisible()
    assert picked == [added[0]["id"]] and panel.selected_comment() == added[0]["id"]
    assert added[0]["id"] in panel.thread_ids()
    controller.undo_stack.undo()
    assert added[0]["id"] not in panel.thread_ids()


def test_new_comment_without_a_selection_says_what_to_do(qtbot, controller) -> None:
    panel = _panel(qtbot, controller, selection_provider=lambda: None)
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    assert panel.hint_label.isVisible() and "Select the text" in panel.hint_label.text()
    assert not panel.new_box.isVisible() and controller.undo_stack.count() == 0


def test_a_stale_range_is_refused_with_a_message_and_no_undo_entry(controller) -> None:
    block_id, start, end = _free_range(controller, "Services")
    with pytest.raises(CommentNotAddedError, match="Select it again"):
        add_comment_on_range(controller, block_id, start, end + 10_000, "Too far")
    changed = controller.snapshot().block(block_id).text
    assert changed[start:end] == "Services"
    controller.apply_operations(
        "edit",
        {
            "version": 1,
            "operations": [{"id": "e", "type": "replaceBlock", "blockId": block_id, "text": "Other words."}],
        },
    )
    entries = controller.undo_stack.count()
    with pytest.raises(CommentNotAddedError):
        add_comment_on_range(controller, block_id, start, end, "On text that moved")
    assert controller.undo_stack.count() == entries


def test_a_half_typed_reply_and_the_scroll_position_survive_refreshes(qtbot, controller) -> None:
    panel = _panel(qtbot, controller)
    panel.resize(300, 260)  # short enough to scroll
    qtbot.wait(10)
    panel.open_reply("1007")
    composer = panel.reply_composer("1007")
    qtbot.keyClicks(composer.editor, "We can accept £2.5m if")
    bar = panel.list_view.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(bar.maximum() // 2)
    kept = bar.value()

    first_change = controller.reviewer.changes()[0]["id"]
    assert controller.accept_changes([first_change]) == 1  # document_changed with the touched block
    controller.undo_stack.undo()  # document_changed(None): a whole new reader
    controller.resolve_comment("1005", True)
    assert panel.reply_composer("1007") is composer
    assert composer.isVisible() and composer.text() == "We can accept £2.5m if"
    assert composer.geometry() == panel.thread_layout("1007").composer.translated(
        panel.thread_rect("1007").topLeft()
    )
    assert bar.value() == kept


def test_a_hidden_panel_catches_up_when_shown(qtbot, controller) -> None:
    panel = _panel(qtbot, controller)
    panel.hide()  # its dock is closed: changes are not re-read until it shows again
    controller.resolve_comment("1013", True)
    assert not panel.thread_row("1013").resolved
    panel.show()
    assert panel.thread_row("1013").resolved and panel.count_label.text() == "2 open · 2 resolved"


def test_selection_sync_emits_on_click_only(qtbot, controller) -> None:
    panel = _panel(qtbot, controller)
    picked: list[str] = []
    panel.comment_selected.connect(picked.append)
    panel.resize(300, 300)
    qtbot.wait(10)
    panel.select_comment("1013")  # scrolled into view
    top = panel.thread_rect("1013").top()
    assert 0 <= top < panel.list_view.viewport().height()
    panel.select_comment("1008")  # the page view selected the reply: its thread is highlighted
    assert panel.selected_comment() == "1007"
    assert picked == []
    _click_thread(qtbot, panel, "1007")  # the selected thread again: its anchor is shown again
    assert picked == ["1007"]
    panel.list_view.scrollToBottom()
    _click_thread(qtbot, panel, "1013")
    assert picked == ["1007", "1013"] and panel.selected_comment() == "1013"


def test_reply_and_resolution_persist_after_save_and_reopen(qtbot, controller, tmp_path: Path) -> None:
    panel = _panel(qtbot, controller)
    _click(qtbot, panel, "1007", "reply")
    composer = panel.reply_composer("1007")
    qtbot.keyClicks(composer.editor, "Agreed subject to insurer sign-off.")
    qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    _click(qtbot, panel, "1005", "resolve")
    saved = controller.save(tmp_path / "answered.docx")

    reopened = DocumentController(author="Someone Else", store_directory=tmp_path / "queue2")
    reopened.open(saved)
    again = _panel(qtbot, reopened)
    replies = _thread(reopened, "1007")["replies"]
    assert [(r["author"], r["text"]) for r in replies][-1] == (PERSON, "Agreed subject to insurer sign-off.")
    assert _thread(reopened, "1005")["resolved"] is True
    assert again.thread_row("1005").resolved
    assert len(_reply_ids(again, "1007")) == 2


def test_delete_removes_the_thread_with_its_replies_and_undo_brings_it_back(qtbot, controller) -> None:
    panel = _panel(qtbot, controller)
    _click(qtbot, panel, "1007", "delete")
    assert "1007" not in panel.thread_ids() and panel.thread_row("1008") is None
    assert "1007" not in {c["id"] for c in controller.reviewer.comments()}
    controller.undo_stack.undo()
    assert "1007" in panel.thread_ids() and panel.thread_row("1008") is panel.thread_row("1007")


def test_a_grab_shows_threads_replies_a_resolved_one_and_the_selected_threads_reply_box(
    qtbot, controller
) -> None:
    panel = _panel(qtbot, controller, page_of_block=lambda block_id: 3)
    panel.resize(360, 900)
    panel.select_comment("1007")
    _click(qtbot, panel, "1007", "reply")
    qtbot.keyClicks(panel.reply_composer("1007").editor, "Subject to insurer sign-off.")
    image = panel.grab().toImage()
    artifacts = Path(__file__).resolve().parents[1] / "_artifacts"
    artifacts.mkdir(exist_ok=True)
    image.save(str(artifacts / "comments_panel.png"))

    viewport = panel.list_view.viewport()
    offset = viewport.mapTo(panel, viewport.rect().topLeft())
    selected = panel.thread_layout("1007").card.translated(panel.thread_rect("1007").topLeft() + offset)
    highlight = panel.palette().color(panel.palette().ColorRole.Highlight)
    edge = image.pixelColor(selected.center().x(), selected.top())
    assert edge == highlight  # the selected thread's border
    other = panel.thread_layout("1005").card.translated(panel.thread_rect("1005").topLeft() + offset)
    assert image.pixelColor(other.center().x(), other.top()) != highlight
    box = panel.reply_composer("1007")
    assert box.isVisible() and selected.contains(box.geometry().translated(offset))
