"""Deleting comments: the thread (or the one reply) leaves all five parts and its anchor; undo restores it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.comment_removal import delete_comment
from reviewer_app.ui.document_controller import DocumentController
from tests.checkers import schema_errors
from tests.conftest import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
#: the sample's threads: 1007 has Daniel Okafor's reply 1008
THREAD, REPLY = "1007", "1008"


def _all_ids(reviewer: DocxReviewer) -> set[str]:
    return {c["id"] for c in reviewer.comments()} | {
        r["id"] for c in reviewer.comments() for r in c["replies"]
    }


def _mentions(reviewer: DocxReviewer, comment_id: str) -> list[str]:
    """Every part that still names ``comment_id`` (as w:id of a comment or an anchor)."""
    package = reviewer.package
    found = []
    for name in package.part_names():
        if not name.endswith(".xml"):
            continue
        text = etree.tostring(package.xml(name)).decode()
        if f'w:id="{comment_id}"' in text and ("comment" in text):
            for tag in ("comment ", "commentRangeStart", "commentRangeEnd", "commentReference"):
                if f"<w:{tag}" in text and f'w:id="{comment_id}"' in text:
                    found.append(name)
                    break
    return found


def _para_ids_of(reviewer: DocxReviewer, comment_id: str) -> list[str]:
    root = reviewer.package.xml("word/comments.xml")
    ns = {"w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main"}
    comment = root.find(f"w:comment[@w:id='{comment_id}']", ns)
    w14 = "{http://schemas.microsoft.com/office/word/2010/wordml}paraId"
    return [p.get(w14) for p in comment.iter("{%s}p" % ns["w"])]


def test_deleting_a_thread_takes_its_replies_and_every_trace(tmp_path: Path, lo_reading) -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    para_ids = _para_ids_of(reviewer, THREAD) + _para_ids_of(reviewer, REPLY)
    before = _all_ids(reviewer)
    assert delete_comment(reviewer.document, THREAD) == [THREAD, REPLY]
    assert _all_ids(reviewer) == before - {THREAD, REPLY}
    assert _mentions(reviewer, THREAD) == [] and _mentions(reviewer, REPLY) == []
    for part in reviewer.package.part_names():
        if part.startswith("word/comments") and part.endswith(".xml"):
            text = etree.tostring(reviewer.package.xml(part)).decode()
            assert not any(f'"{p}"' in text for p in para_ids), part  # commentsExtended/Ids entries gone
    out = tmp_path / "deleted.docx"
    reviewer.save(out)
    assert schema_errors(out) <= schema_errors(SAMPLE)
    again = DocxReviewer.open(out)
    assert _all_ids(again) == before - {THREAD, REPLY}
    assert [b.text for b in again.snapshot().content_blocks()] == [
        b.text for b in DocxReviewer.open(SAMPLE).snapshot().content_blocks()
    ]  # the commented words stay
    reading = lo_reading(out)
    assert reading["load_ok"] and reading["comment_count"] == 3


def test_deleting_a_reply_keeps_its_thread() -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    assert delete_comment(reviewer.document, REPLY) == [REPLY]
    thread = next(c for c in reviewer.comments() if c["id"] == THREAD)
    assert thread["replies"] == [] and thread["text"]
    assert delete_comment(reviewer.document, "no-such-comment") == []


@pytest.mark.parametrize("comment_id", [THREAD, REPLY, "1000"])
def test_deleting_is_one_undo_step_that_restores_the_file_exactly(
    qapp, tmp_path: Path, comment_id: str
) -> None:
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    controller = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "queue")
    controller.open(copy)
    original = controller.current_bytes()
    assert comment_id in controller.delete_comment(comment_id)
    assert controller.undo_stack.count() == 1 and controller.is_modified()
    controller.undo_stack.undo()
    assert controller.current_bytes() == original
    controller.undo_stack.redo()
    assert comment_id not in _all_ids(controller.reviewer)
