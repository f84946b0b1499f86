"""One reply or resolve on a heavily commented contract re-reads what it touched, not every comment.

The panel, the page view and the agent list the comments after every edit; on a 2,000-comment
contract reading every comment's text and every quote again made one reply cost about half a
second. What is kept must never show an old state: after a reply, a resolve, an undo and a
redo the list equals what a fresh reading of the saved file gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from bench.comments_contract import write_commented_contract
from reviewer_app.docx import DocxReviewer, comment_index, comment_writer
from reviewer_app.docx import comments as comments_module
from reviewer_app.docx.comment_anchors import Locator
from reviewer_app.docx.comments import comment_dates
from reviewer_app.docx.edit import stamp
from reviewer_app.docx.edit.comment_parts import W16CID
from reviewer_app.docx.xmlutil import W14, W
from reviewer_app.ui.comment_thread_model import ThreadRow
from reviewer_app.ui.comments_panel import CommentsPanel, add_comment_on_range
from reviewer_app.ui.document_controller import DocumentController

THREADS = 60


class Reads:
    """Counts the engine's reads of a comment's text and of a quote (the real functions run)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.texts = 0
        self.quotes = 0
        read_text, read_quote = comments_module.comment_text, Locator.quote

        def counted_text(comment):  # type: ignore[no-untyped-def]
            self.texts += 1
            return read_text(comment)

        def counted_quote(locator, start, end):  # type: ignore[no-untyped-def]
            self.quotes += 1
            return read_quote(locator, start, end)

        # the full reading and the index's re-reading each read a comment's text
        monkeypatch.setattr(comments_module, "comment_text", counted_text)
        monkeypatch.setattr(comment_index, "comment_text", counted_text)
        monkeypatch.setattr(Locator, "quote", counted_quote)

    def reset(self) -> None:
        self.texts = self.quotes = 0


@pytest.fixture
def controller(qtbot, tmp_path: Path) -> DocumentController:
    path = write_commented_contract(tmp_path / "commented.docx", THREADS)
    controller = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "queue")
    controller.open(path)
    return controller


def fresh_reading(controller: DocumentController, tmp_path: Path) -> tuple[list, dict]:
    copy = tmp_path / "fresh.docx"
    copy.write_bytes(controller.current_bytes())
    reviewer = DocxReviewer.open(copy)
    return reviewer.comments(), comment_dates(reviewer.document)


def shown(controller: DocumentController) -> tuple[list, dict]:
    reviewer = controller.require()
    return reviewer.comments(), comment_dates(reviewer.document)


def test_a_reply_rereads_only_what_it_touched(
    controller: DocumentController, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, _ = shown(controller)
    threads = len(before)
    comments = threads + sum(len(t["replies"]) for t in before)
    reads = Reads(monkeypatch)
    parent = before[threads // 2]["id"]

    assert controller.reply_to_comment(parent, "Agreed, subject to the cap per contract year.")
    after, dates = shown(controller)

    # the new reply's text is read, the others' are kept; only the quotes of the threads in the
    # paragraph that received the reply's markers are read again
    assert reads.texts <= 2, f"{reads.texts} comment texts read again of {comments}"
    assert reads.quotes <= threads // 10, f"{reads.quotes} quotes read again of {threads}"
    thread = next(t for t in after if t["id"] == parent)
    assert thread["replies"][-1]["text"] == "Agreed, subject to the cap per contract year."
    assert (after, dates) == fresh_reading(controller, tmp_path)


def test_kept_comments_follow_resolve_undo_and_redo(controller: DocumentController, tmp_path: Path) -> None:
    first, _ = shown(controller)
    target = next(t for t in first if not t["resolved"])["id"]

    assert controller.resolve_comment(target, True)
    resolved, _ = shown(controller)
    assert next(t for t in resolved if t["id"] == target)["resolved"]
    assert shown(controller) == fresh_reading(controller, tmp_path)

    assert controller.reply_to_comment(target, "Closed after the call.")
    assert shown(controller) == fresh_reading(controller, tmp_path)

    controller.undo_stack.undo()
    controller.undo_stack.undo()
    assert shown(controller)[0] == first
    assert shown(controller) == fresh_reading(controller, tmp_path)

    controller.undo_stack.redo()
    assert shown(controller)[0] == resolved
    assert shown(controller) == fresh_reading(controller, tmp_path)


def test_the_listed_comments_are_the_callers_own(controller: DocumentController) -> None:
    """Changing the list one caller got leaves what the next caller gets as it was."""
    reviewer = controller.require()
    got = reviewer.comments()
    got[0]["text"] = "changed by a caller"
    got[0]["replies"].append({"id": "x", "author": "y", "text": "z"})
    again = reviewer.comments()
    assert again[0]["text"] != "changed by a caller"
    assert all(r["id"] != "x" for r in again[0]["replies"])


def test_a_reply_in_the_panel_makes_a_row_only_for_its_thread(
    qtbot, controller: DocumentController, monkeypatch: pytest.MonkeyPatch
) -> None:
    panel = CommentsPanel(controller)
    qtbot.addWidget(panel)
    panel.resize(360, 700)
    panel.show()
    qtbot.waitExposed(panel)
    thread_id = panel.thread_ids()[len(panel.thread_ids()) // 2]
    panel.select_comment(thread_id)
    rect = panel.action_rect(thread_id, "reply")
    assert rect is not None
    qtbot.mouseClick(panel.list_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    composer = panel.reply_composer(thread_id)
    assert composer is not None
    qtbot.keyClicks(composer.editor, "Agreed.")
    rows_before = {row.id: row for row in panel.model.rows()}
    made: list[str] = []
    make_row = ThreadRow.of

    def counted(thread, dates, page):  # type: ignore[no-untyped-def]
        made.append(thread["id"])
        return make_row(thread, dates, page)

    monkeypatch.setattr(ThreadRow, "of", counted)

    qtbot.keyClick(composer.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    assert made == [thread_id]
    row = panel.thread_row(thread_id)
    assert row is not None and [r.text for r in row.replies][-1] == "Agreed."
    unchanged = [r for r in panel.model.rows() if r.id != thread_id]
    assert all(r is rows_before[r.id] for r in unchanged)


def test_a_reply_rereads_only_the_paragraph_that_got_its_markers(controller: DocumentController) -> None:
    """The document walks again only the paragraph holding the reply's range, not the whole story."""
    reviewer = controller.require()
    before = reviewer.snapshot()
    thread = next(t for t in reviewer.comments() if t["blockId"] and not t["resolved"])

    assert controller.reply_to_comment(thread["id"], "Noted.")

    after = reviewer.snapshot()
    assert after is not before
    renewed = [b.id for b, old in zip(after.blocks, before.blocks, strict=True) if b is not old]
    assert renewed == [thread["blockId"]]
    assert [b.text for b in after.blocks] == [b.text for b in before.blocks]


def test_an_edit_elsewhere_leaves_the_panel_as_laid_out(
    qtbot, controller: DocumentController, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Accepting a tracked change no comment is on changes no row: nothing is made or laid out."""
    panel = CommentsPanel(controller)
    qtbot.addWidget(panel)
    panel.resize(360, 700)
    panel.show()
    qtbot.waitExposed(panel)
    rows = panel.model.rows()
    layouts: list[int] = []
    lay_out = panel.list_view.doItemsLayout
    monkeypatch.setattr(panel.list_view, "doItemsLayout", lambda: layouts.append(1) or lay_out())
    change = controller.require().changes()[0]["id"]

    assert controller.accept_changes([change]) == 1

    assert layouts == []
    assert all(new is old for new, old in zip(panel.model.rows(), rows, strict=True))


def test_kept_comments_follow_deletes_new_comments_and_their_undo(
    qtbot, controller: DocumentController, tmp_path: Path
) -> None:
    """Deleting a thread with its replies, deleting one reply, a new comment and undoing them all
    each leave the list equal to a fresh reading of the saved file."""
    first = shown(controller)
    threads = first[0]
    with_replies = next(t for t in threads if len(t["replies"]) == 2)
    other = next(t for t in threads if len(t["replies"]) == 1 and t is not with_replies)

    assert controller.delete_comment(with_replies["id"])
    assert with_replies["id"] not in {t["id"] for t in shown(controller)[0]}
    assert shown(controller) == fresh_reading(controller, tmp_path)

    assert controller.delete_comment(other["replies"][0]["id"])
    assert next(t for t in shown(controller)[0] if t["id"] == other["id"])["replies"] == []
    assert shown(controller) == fresh_reading(controller, tmp_path)

    assert controller.reply_to_comment(other["id"], "Back to you.")
    block = next(b for b in controller.snapshot().content_blocks() if len(b.text) > 30)
    added = add_comment_on_range(controller, block.id, 0, 12, "New point.")
    listed = shown(controller)
    assert next(t for t in listed[0] if t["id"] == added)["quote"] == block.text[:12]
    assert listed == fresh_reading(controller, tmp_path)

    for _ in range(4):
        controller.undo_stack.undo()
    assert shown(controller) == first
    assert shown(controller) == fresh_reading(controller, tmp_path)


def test_new_comments_one_after_another_take_their_place_in_document_order(
    qtbot, controller: DocumentController, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each new comment is placed among the kept threads by where its anchor is (the threads'
    order is kept sorted from one comment act to the next): after a delete and new comments at
    the end, the start, twice in one paragraph and in between, the list equals a fresh reading."""
    threads = shown(controller)[0]
    assert controller.delete_comment(threads[len(threads) // 2]["id"])
    blocks = [b for b in controller.snapshot().content_blocks() if len(b.text) > 30]
    shown(controller)
    reads = Reads(monkeypatch)
    for n, block in enumerate((blocks[-1], blocks[0], blocks[0], blocks[len(blocks) // 2], blocks[5])):
        reads.reset()
        added = add_comment_on_range(controller, block.id, 0, 12, f"New point {n}.")
        listed = shown(controller)
        assert reads.texts == 1, "the new comment alone is read, the others kept"
        assert listed == fresh_reading(controller, tmp_path)
        assert next(t for t in listed[0] if t["id"] == added)["blockId"] == block.id


def test_comment_acts_in_a_row_mint_from_the_ids_kept(
    qtbot, controller: DocumentController, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seeding fresh ids scans every part for those in use (~40 ms with 2,000 comments): after
    the first reply, replies, resolves, deletes and a new comment made with the panel's batch
    mint from the ids kept, and every comment, paragraph and durable id in the saved file,
    a reply made after the batch included, is still unique."""
    threads = shown(controller)[0]
    assert controller.reply_to_comment(threads[0]["id"], "First.")
    scans = counted_scans(monkeypatch)

    assert controller.reply_to_comment(threads[1]["id"], "Second.")
    assert controller.resolve_comment(threads[2]["id"], True)
    assert controller.delete_comment(threads[3]["id"])
    block = next(b for b in controller.snapshot().content_blocks() if len(b.text) > 30)
    add_comment_on_range(controller, block.id, 0, 12, "New point.")
    assert scans == []
    assert controller.reply_to_comment(threads[4]["id"], "Third.")

    comment_ids = assert_saved_ids_unique(controller, tmp_path)
    before = len(threads) + sum(len(t["replies"]) for t in threads)
    # three replies and a new comment added, one thread without replies deleted
    assert not threads[3]["replies"] and len(comment_ids) == before + 4 - 1


def test_the_first_reply_after_opening_mints_from_ids_read_while_opening(
    controller: DocumentController, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ids in use are read while the document opens: the first reply and the first new
    comment a person makes scan no part (~57 ms with 2,000 comments), and their ids are unique."""
    threads = shown(controller)[0]
    scans = counted_scans(monkeypatch)

    assert controller.reply_to_comment(threads[0]["id"], "First.")
    assert scans == []
    comment_ids = assert_saved_ids_unique(controller, tmp_path)
    assert len(comment_ids) == len(threads) + sum(len(t["replies"]) for t in threads) + 1


def test_a_reply_right_after_a_new_comment_mints_from_the_ids_kept(
    qtbot, controller: DocumentController, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The edit engine's batch that adds a comment keeps its stamper and the ids in use for the
    next act: the reply made right after it scans no part, and no id in the saved file repeats."""
    threads = shown(controller)[0]
    assert controller.reply_to_comment(threads[0]["id"], "First.")
    scans = counted_scans(monkeypatch)
    block = next(b for b in controller.snapshot().content_blocks() if len(b.text) > 30)

    add_comment_on_range(controller, block.id, 0, 12, "New point.")
    assert controller.reply_to_comment(threads[1]["id"], "Right after.")
    added = next(t for t in shown(controller)[0] if t["text"] == "New point.")
    assert controller.reply_to_comment(added["id"], "On the new one.")
    assert scans == []
    comment_ids = assert_saved_ids_unique(controller, tmp_path)
    assert len(comment_ids) == len(threads) + sum(len(t["replies"]) for t in threads) + 4


def counted_scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A list that gains an entry whenever ids are sought in every part (the real scan still runs)."""
    scans: list[str] = []
    story_roots, note_ids = stamp._story_roots, comment_writer._note_ids
    monkeypatch.setattr(stamp, "_story_roots", lambda doc: scans.append("parts") or story_roots(doc))
    monkeypatch.setattr(comment_writer, "_note_ids", lambda doc: scans.append("notes") or note_ids(doc))
    return scans


def assert_saved_ids_unique(controller: DocumentController, tmp_path: Path) -> list[str]:
    """Check that no comment, paragraph or durable id repeats in the saved file; its comment ids."""
    copy = tmp_path / "saved.docx"
    copy.write_bytes(controller.current_bytes())
    saved = DocxReviewer.open(copy).document.package
    comment_ids = [c.get(W + "id") for c in saved.xml("word/comments.xml").iter(W + "comment")]
    para_ids = [
        p.get(W14 + "paraId")
        for name in saved.part_names()
        if name.endswith(".xml") and name.startswith("word/")
        for p in saved.xml(name).iter(W + "p", W + "tr")
        if p.get(W14 + "paraId")
    ]
    durable = [e.get(W16CID + "durableId") for e in saved.xml("word/commentsIds.xml")]
    for ids in (comment_ids, para_ids, durable):
        assert len(ids) == len(set(ids))
    return comment_ids
