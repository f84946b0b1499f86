"""The document controller: every act is one undo step, saving keeps a backup, Save As moves on."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.document_controller import DocumentController, NoDocumentError

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"


@pytest.fixture
def controller(qapp, tmp_path: Path) -> DocumentController:
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    ctl = DocumentController(author="Alex Lawyer", store_directory=tmp_path / "queue")
    ctl.open(copy)
    return ctl


def _texts(reviewer: DocxReviewer) -> list[str]:
    return [b.text for b in reviewer.snapshot().content_blocks()]


def test_accept_is_one_undoable_step_and_redo_restores_it(controller: DocumentController) -> None:
    changes = controller.reviewer.changes()
    first = changes[0]["id"]
    touched: list[object] = []
    controller.document_changed.connect(touched.append)
    assert not controller.is_modified()
    assert controller.accept_changes([first]) == 1
    assert touched[-1] == frozenset({changes[0]["blockId"]})
    assert controller.is_modified()
    after = [c["id"] for c in controller.reviewer.changes()]
    assert first not in after and len(after) == len(changes) - 1
    controller.undo_stack.undo()
    assert [c["id"] for c in controller.reviewer.changes()] == [c["id"] for c in changes]
    assert not controller.is_modified()
    assert touched[-1] is None  # undo swaps the whole document: views re-lay it out
    controller.undo_stack.redo()
    assert [c["id"] for c in controller.reviewer.changes()] == after


def test_an_act_that_changes_nothing_leaves_no_undo_entry(controller: DocumentController) -> None:
    assert controller.accept_changes(["no-such-change"]) == 0
    assert controller.undo_stack.count() == 0
    assert not controller.is_modified()


def test_user_edits_carry_the_users_name_and_proposals_the_agents(controller: DocumentController) -> None:
    block = controller.reviewer.read_document()[5]
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
    result = controller.apply_operations("Edit paragraph", batch)
    assert result["status"] == "committed"
    authors = {c["author"] for c in controller.reviewer.changes()}
    assert "Alex Lawyer" in authors and "Reviewer AI" not in authors
    queue = controller.review_bridge
    other = controller.reviewer.read_document()[7]
    queued = queue.apply_document_operations(
        {
            "version": 1,
            "mode": "tracked-changes",
            "operations": [
                {
                    "id": "p1",
                    "type": "replaceInBlock",
                    "blockId": other["blockId"],
                    "find": other["text"][:5],
                    "replace": "Hello",
                }
            ],
        }
    )
    assert queued["queued"], queued
    proposal = queue.proposals()[0]["id"]
    outcome = controller.apply_proposals([proposal])
    assert outcome[0]["status"] == "applied"
    assert "Reviewer AI" in {c["author"] for c in controller.reviewer.changes()}
    assert controller.reviewer.author == "Alex Lawyer"
    assert controller.undo_stack.count() == 2


def test_first_save_keeps_a_backup_and_save_as_follows_the_new_name(
    controller: DocumentController, tmp_path: Path
) -> None:
    original = Path(controller.path).read_bytes()
    controller.accept_all()
    saved = controller.save()
    assert Path(saved + ".bak").read_bytes() == original
    assert DocxReviewer.open(saved).changes() == []
    assert not controller.is_modified()
    controller.reject_all()  # nothing left: no change, no entry
    other = tmp_path / "renamed.docx"
    controller.save(other)
    assert controller.path == str(other)
    assert not Path(str(other) + ".bak").exists()  # nothing was there before


def test_acts_need_a_document(qapp) -> None:
    with pytest.raises(NoDocumentError):
        DocumentController().accept_all()


def test_views_learn_from_the_engine_which_blocks_an_edit_touched(controller: DocumentController) -> None:
    """An edit inside a paragraph re-renders that paragraph; one that adds a block re-lays out."""
    seen: list[object] = []
    controller.document_changed.connect(seen.append)
    block = next(b for b in controller.reviewer.read_document() if " the " in b["text"])

    def batch(op: dict) -> dict:
        return {"version": 1, "mode": "tracked-changes", "operations": [dict(op, id=f"o{len(seen)}")]}

    controller.apply_operations(
        "Edit",
        batch({"type": "replaceInBlock", "blockId": block["blockId"], "find": "the", "replace": "THE"}),
    )
    assert seen[-1] == frozenset({block["blockId"]})
    controller.apply_operations(
        "Comment",
        batch({"type": "commentOnBlock", "blockId": block["blockId"], "comment": {"text": "Check."}}),
    )
    assert seen[-1] == frozenset({block["blockId"]})
    controller.apply_operations(
        "Insert", batch({"type": "insertAfterBlock", "blockId": block["blockId"], "text": "New."})
    )
    assert seen[-1] is None
