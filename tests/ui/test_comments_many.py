"""A contract with 2,000 comment threads: one reply or resolve in the panel touches its own row only.

A lawyer answering the other side's comments on a heavily negotiated draft clicks Reply (or
Resolve) on one thread among thousands. The panel must show that thread's new state, leave every
other thread exactly as it was shown (not rebuilt, so the list neither jumps nor lags), and the
file saved afterwards must carry the reply where Word and LibreOffice expect it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from bench.comments_contract import write_commented_contract
from reviewer_app.docx import DocxReviewer
from reviewer_app.ui.comment_thread_model import ThreadRow
from reviewer_app.ui.comments_panel import CommentsPanel
from reviewer_app.ui.document_controller import DocumentController
from tests.checkers import schema_errors
from tests.docx.test_incremental_snapshot import assert_snapshot_fresh

THREADS = 2000
LIBREOFFICE_THREADS = 120
PERSON = "Alex Lawyer"
REPLY = "Agreed, subject to the cap per contract year."


@pytest.fixture(scope="module")
def contract(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_commented_contract(tmp_path_factory.mktemp("many") / "commented.docx", THREADS)


@pytest.fixture
def panel(qtbot, contract: Path, tmp_path: Path) -> CommentsPanel:
    controller = DocumentController(author=PERSON, store_directory=tmp_path / "queue")
    controller.open(contract)
    panel = CommentsPanel(controller)
    qtbot.addWidget(panel)
    panel.resize(380, 800)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


class ModelSignals:
    """What the panel's model told its view: the rows it changed, and any wholesale change."""

    def __init__(self, panel: CommentsPanel) -> None:
        self.changed: list[int] = []
        self.wholesale: list[str] = []
        model = panel.model
        model.dataChanged.connect(
            lambda first, last, _roles: self.changed.extend(range(first.row(), last.row() + 1))
        )
        model.modelReset.connect(lambda: self.wholesale.append("reset"))
        model.layoutChanged.connect(lambda: self.wholesale.append("layout"))
        model.rowsInserted.connect(lambda _parent, _first, _last: self.wholesale.append("inserted"))
        model.rowsRemoved.connect(lambda _parent, _first, _last: self.wholesale.append("removed"))


def _click(qtbot, panel: CommentsPanel, thread_id: str, action: str) -> None:
    """Scroll the thread into view as the page view does, then click its painted button."""
    panel.select_comment(thread_id)
    rect = panel.action_rect(thread_id, action)
    assert rect is not None, f"{action} of {thread_id} is not shown"
    qtbot.mouseClick(panel.list_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def _open_thread(panel: CommentsPanel, position: int) -> str:
    """The id of the first open thread at or after ``position`` in the list."""
    ids = panel.thread_ids()
    return next(i for i in ids[position:] if not panel.thread_row(i).resolved)


def _others(panel: CommentsPanel, thread_id: str) -> dict[str, tuple[ThreadRow, Any]]:
    """Every other thread's row with the size the view lays it out at."""
    model = panel.model
    return {
        row.id: (row, model.index(at, 0).data(Qt.ItemDataRole.SizeHintRole))
        for at, row in enumerate(model.rows())
        if row.id != thread_id
    }


def test_a_reply_to_thread_1500_shows_under_it_and_leaves_the_others_as_they_were(
    qtbot, panel: CommentsPanel, tmp_path: Path
) -> None:
    thread_id = _open_thread(panel, 1500)
    before = _others(panel, thread_id)
    replies_before = len(panel.thread_row(thread_id).replies)
    _click(qtbot, panel, thread_id, "reply")
    composer = panel.reply_composer(thread_id)
    assert composer is not None
    qtbot.keyClicks(composer.editor, REPLY)
    signals = ModelSignals(panel)

    qtbot.keyClick(composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    row = panel.thread_row(thread_id)
    assert [(r.author, r.text) for r in row.replies][replies_before:] == [(PERSON, REPLY)]
    assert panel.thread_layout(thread_id).texts("replyText")[-1] == REPLY
    assert panel.reply_composer(thread_id) is None
    assert set(signals.changed) == {panel.model.row_index(thread_id)} and signals.wholesale == []
    after = _others(panel, thread_id)
    assert after.keys() == before.keys()
    assert all(after[i][0] is before[i][0] and after[i][1] == before[i][1] for i in before)

    saved = Path(panel.controller.save(tmp_path / "answered.docx"))
    assert schema_errors(saved) == 0
    assert DocxReviewer.open(saved).comments() == panel.controller.require().comments()


@pytest.mark.libreoffice
def test_libreoffice_reads_a_reply_sent_from_the_panel(qtbot, tmp_path: Path, lo_reading: Any) -> None:
    """The same reply on a smaller copy (LibreOffice needs minutes to open 2,000 threads): it is
    a reply by the person, anchored where its thread is."""
    contract = write_commented_contract(tmp_path / "commented.docx", LIBREOFFICE_THREADS)
    controller = DocumentController(author=PERSON, store_directory=tmp_path / "queue")
    controller.open(contract)
    panel = CommentsPanel(controller)
    qtbot.addWidget(panel)
    panel.resize(380, 800)
    panel.show()
    thread_id = _open_thread(panel, LIBREOFFICE_THREADS * 3 // 4)
    _click(qtbot, panel, thread_id, "reply")
    composer = panel.reply_composer(thread_id)
    assert composer is not None
    qtbot.keyClicks(composer.editor, REPLY)
    qtbot.keyClick(composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    saved = Path(controller.save(tmp_path / "answered.docx"))
    listed = controller.require().comments()
    lo = lo_reading(saved)
    assert lo["load_ok"] and lo["comment_count"] == sum(1 + len(t["replies"]) for t in listed)
    (shown,) = [c for c in lo["comments"] if c["text"] == REPLY]
    thread = next(t for t in listed if t["id"] == thread_id)
    parent = next(c for c in lo["comments"] if c["text"] == thread["text"])
    assert shown["author"] == PERSON and shown["anchor_text"] == parent["anchor_text"]


def test_resolving_thread_1500_updates_that_row_only(qtbot, panel: CommentsPanel) -> None:
    thread_id = _open_thread(panel, 1500)
    counts = panel.count_label.text()
    panel.select_comment(thread_id)
    before = _others(panel, thread_id)
    signals = ModelSignals(panel)

    _click(qtbot, panel, thread_id, "resolve")

    assert panel.thread_row(thread_id).resolved
    assert set(signals.changed) == {panel.model.row_index(thread_id)} and signals.wholesale == []
    after = _others(panel, thread_id)
    assert all(after[i][0] is before[i][0] and after[i][1] == before[i][1] for i in before)
    assert panel.count_label.text() != counts
    threads = {t["id"]: t for t in panel.controller.require().comments()}
    assert threads[thread_id]["resolved"]
    panel.select_comment(_open_thread(panel, 0))  # once deselected, a resolved thread is collapsed
    assert panel.thread_layout(thread_id).texts("resolvedMarker") == ["\u2713 Resolved"]


def test_delete_and_new_comment_among_2000_keep_the_list_in_document_order(
    qtbot, panel: CommentsPanel, tmp_path: Path
) -> None:
    """A deleted thread leaves, a new one lands where its passage is, and the list equals what a
    fresh reading of the saved file gives."""
    controller = panel.controller
    doomed = _open_thread(panel, 1500)
    _click(qtbot, panel, doomed, "delete")
    assert panel.thread_row(doomed) is None and doomed not in panel.thread_ids()

    block = next(b for b in controller.snapshot().content_blocks() if len(b.text) > 40)
    panel.selection_provider = lambda: (block.id, 4, 20)
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(panel.new_composer.editor, "Why these words?")
    qtbot.keyClick(panel.new_composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    added = panel.selected_comment()
    assert added is not None and panel.thread_row(added).text == "Why these words?"
    saved = Path(controller.save(tmp_path / "edited.docx"))
    listed = DocxReviewer.open(saved).comments()
    assert panel.thread_ids() == [t["id"] for t in listed]
    assert controller.require().comments() == listed
    assert next(t for t in listed if t["id"] == added)["quote"] == block.text[4:20]


def _send_new_comment(qtbot, panel: CommentsPanel, block_id: str, start: int, end: int, text: str) -> None:
    """Select ``[start, end)`` of the block, click New comment, type ``text`` and press Ctrl+Enter."""
    panel.selection_provider = lambda: (block_id, start, end)
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(panel.new_composer.editor, text)
    qtbot.keyClick(panel.new_composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)


def test_a_new_comment_among_2000_rereads_only_its_paragraph_and_equals_a_fresh_reading(
    qtbot, panel: CommentsPanel, tmp_path: Path
) -> None:
    """New comment on a selected passage: the thread is listed where its passage is, the document
    walks again only the commented paragraph (not the whole story), and both the comments listed
    and the snapshot equal what a fresh reading of the saved file gives. (The contract has no
    commentsExtensible.xml: the first new comment creates it, the second finds every part.)"""
    controller = panel.controller
    reviewer = controller.require()
    long_blocks = [b for b in reviewer.snapshot().content_blocks() if len(b.text) > 40]
    _send_new_comment(qtbot, panel, long_blocks[10].id, 0, 12, "First question.")
    before = reviewer.snapshot()
    block = before.block(long_blocks[-3].id)
    assert block is not None

    _send_new_comment(qtbot, panel, block.id, 5, 25, "Is this cap per year?")

    added = panel.selected_comment()
    assert added is not None and panel.thread_row(added).text == "Is this cap per year?"
    after = reviewer.snapshot()
    renewed = [b.id for b, old in zip(after.blocks, before.blocks, strict=True) if b is not old]
    assert renewed == [block.id]
    assert_snapshot_fresh(reviewer)
    saved = Path(controller.save(tmp_path / "commented-again.docx"))
    fresh = DocxReviewer.open(saved)
    listed = fresh.comments()
    assert reviewer.comments() == listed
    assert panel.thread_ids() == [t["id"] for t in listed]
    assert next(t for t in listed if t["id"] == added)["quote"] == block.text[5:25]
    assert [b.text_hash for b in after.blocks] == [b.text_hash for b in fresh.snapshot().blocks]
