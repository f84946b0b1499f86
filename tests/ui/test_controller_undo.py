"""Undo and redo through the controller are exact to the byte, for every kind of act.

The controller no longer keeps the whole package before each act: it keeps the engine's journal
of what the act touched. An incomplete journal would undo only part of an act, silently, so each
kind of act is run on the sample contract and on corpus files with revisions, and the package
after undo must serialize to the bytes before the act, after redo to the bytes after it, and
the snapshot must equal a fresh walk each time.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.docx.xmlutil import REL_COMMENTS_EXTENDED
from reviewer_app.ui.document_controller import DocumentController
from tests.docx.test_incremental_snapshot import CORPUS, SAMPLE, assert_snapshot_fresh

CORPUS_FILES = [
    "pt_RA001-Tracked-Revisions-01.docx",
    "pt_RP034-Deleted-Cells.docx",
    "pt_FA014-MovedParagraph.docx",
    "pt_FA017-NumberingChange.docx",
    "pt_FA022-TablePropertiesChange.docx",
    "pt_RP038-Inserted-Paras-at-End.docx",
]


@pytest.fixture(autouse=True)
def _journal_complete(caplog):
    """The journal logs an error when an act changed top-level content it did not report."""
    yield
    assert not [r for r in caplog.records if r.name == "reviewer_app.docx.journal"]


@pytest.fixture
def controller(qapp, tmp_path: Path) -> DocumentController:
    made = DocumentController(store_directory=tmp_path / "queue", author="Dana Lee")
    yield made
    made.close()


def _open(controller: DocumentController, source: Path, tmp_path: Path) -> None:
    target = tmp_path / source.name
    shutil.copy(source, target)
    controller.open(target)


def assert_exact_undo_redo(controller: DocumentController, act: Callable[[], Any]) -> None:
    """Run ``act`` (one controller act) and check undo, redo and undo again against the bytes."""
    reviewer = controller.require()
    assert reviewer.snapshot().anchors  # the incremental paths keep maintained anchors current too
    before = controller.current_bytes()
    depth = controller.undo_stack.index()
    act()
    assert controller.undo_stack.index() == depth + 1, "the act is one undo step"
    after = controller.current_bytes()
    assert_snapshot_fresh(reviewer)
    controller.undo_stack.undo()
    assert controller.current_bytes() == before
    assert_snapshot_fresh(reviewer)
    controller.undo_stack.redo()
    assert controller.current_bytes() == after
    assert_snapshot_fresh(reviewer)
    controller.undo_stack.undo()
    assert controller.current_bytes() == before
    assert_snapshot_fresh(reviewer)
    assert controller.reviewer is reviewer  # restored in place: bridges keep their reviewer


def _every_change_each_way(controller: DocumentController, source: Path, tmp_path: Path) -> None:
    _open(controller, source, tmp_path)
    for change in controller.require().changes():
        for resolve in (controller.accept_changes, controller.reject_changes):
            assert_exact_undo_redo(controller, lambda resolve=resolve, change=change: resolve([change["id"]]))


def test_every_change_of_the_sample_accepted_and_rejected_undoes_exactly(controller, tmp_path) -> None:
    _every_change_each_way(controller, SAMPLE, tmp_path)


@pytest.mark.parametrize("name", CORPUS_FILES)
def test_every_corpus_change_accepted_and_rejected_undoes_exactly(controller, tmp_path, name: str) -> None:
    if not (CORPUS / name).exists():
        pytest.skip(f"{name} is not in the corpus")
    _every_change_each_way(controller, CORPUS / name, tmp_path)


@pytest.mark.parametrize(
    "source", [SAMPLE, CORPUS / "pt_RA001-Tracked-Revisions-01.docx"], ids=["sample", "RA001"]
)
@pytest.mark.parametrize("accept", [True, False], ids=["accept-all", "reject-all"])
def test_accept_and_reject_all_undo_exactly(controller, tmp_path, source: Path, accept: bool) -> None:
    if not source.exists():
        pytest.skip("not in the corpus")
    _open(controller, source, tmp_path)
    assert_exact_undo_redo(controller, controller.accept_all if accept else controller.reject_all)


def _body_blocks(controller: DocumentController) -> list[Any]:
    return [b for b in controller.snapshot().content_blocks() if len(b.text) > 60 and b.table is None]


def _operations(controller: DocumentController) -> dict[str, list[dict[str, Any]]]:
    first, second, third, fourth = _body_blocks(controller)[3:7]
    cell = next(b for b in controller.snapshot().content_blocks() if b.table is not None)
    word = first.text.split()[0]
    return {
        "replace": [{"id": "r", "type": "replaceInBlock", "blockId": first.id, "find": word, "replace": "Zz"}],
        "comment": [{"id": "c", "type": "commentOnBlock", "blockId": second.id, "comment": {"text": "Why?"}}],
        "insert": [{"id": "i", "type": "insertAfterBlock", "blockId": second.id, "text": "A new clause."}],
        "delete": [{"id": "d", "type": "deleteBlock", "blockId": third.id}],
        "edit-with-comment": [
            {"id": "e", "type": "replaceInBlock", "blockId": fourth.id, "find": fourth.text.split()[0],
             "replace": "Yy", "comment": {"text": "Clearer."}}
        ],
        "table-row": [{"id": "t", "type": "insertTableRow", "blockId": cell.id}],
        "mixed": [
            {"id": "m1", "type": "replaceInBlock", "blockId": first.id, "find": word, "replace": "Ww"},
            {"id": "m2", "type": "insertAfterBlock", "blockId": third.id, "text": "Another clause."},
            {"id": "m3", "type": "replaceInBlock", "blockId": second.id, "find": "no such text qq", "replace": "x"},
        ],
    }  # fmt: skip


@pytest.mark.parametrize(
    "kind", ["replace", "comment", "insert", "delete", "edit-with-comment", "table-row", "mixed"]
)
def test_operations_as_the_person_undo_exactly(controller, tmp_path, kind: str) -> None:
    _open(controller, SAMPLE, tmp_path)
    ops = _operations(controller)[kind]
    batch = {"version": 1, "mode": "tracked-changes", "operations": ops}
    assert_exact_undo_redo(controller, lambda: controller.apply_operations("Edit", batch))


def test_agent_batch_and_proposals_undo_exactly(controller, tmp_path) -> None:
    _open(controller, SAMPLE, tmp_path)
    ops = _operations(controller)
    assert_exact_undo_redo(
        controller,
        lambda: controller.apply_agent_batch(
            {"version": 1, "mode": "tracked-changes", "operations": ops["replace"]}
        ),
    )
    queue = controller.review_bridge
    assert queue is not None
    queue.apply_document_operations(
        {"version": 1, "mode": "tracked-changes", "operations": ops["insert"] + ops["comment"]}
    )
    waiting = queue.proposals()
    assert_exact_undo_redo(controller, lambda: controller.apply_proposals(None))
    # the last undo put the proposals back in the queue, as they were and on disk, to apply again
    assert queue.proposals() == waiting
    queue.store.load()
    assert queue.proposals() == waiting
    controller.undo_stack.redo()
    assert queue.proposals() == []


def test_replies_and_resolutions_undo_exactly(controller, tmp_path) -> None:
    _open(controller, SAMPLE, tmp_path)
    comments = controller.require().comments()
    assert comments
    for comment in comments[:3]:
        assert_exact_undo_redo(controller, lambda c=comment: controller.reply_to_comment(c["id"], "Agreed."))
        assert_exact_undo_redo(
            controller, lambda c=comment: controller.reply_to_comment(c["id"], "Noted.", as_agent=True)
        )
        assert_exact_undo_redo(controller, lambda c=comment: controller.resolve_comment(c["id"], True))


def test_comment_acts_in_a_row_record_only_the_parts_they_change(controller, tmp_path, monkeypatch) -> None:
    """After a reply every comment part waits to be saved; a resolve then changes one of them and
    its undo record serializes that part alone (all of them, on a 2,000-comment contract, cost
    ~10 ms an act), yet every state of the row of acts comes back exactly."""
    _open(controller, SAMPLE, tmp_path)
    first, second = [c for c in controller.require().comments() if not c["resolved"]][:2]
    package = controller.require().document.package
    serialized: list[str] = []
    read_bytes = package.read_bytes

    def counted(name: str) -> bytes:
        if package.is_dirty(name):
            serialized.append(name)
        return read_bytes(name)

    monkeypatch.setattr(package, "read_bytes", counted)
    states = [controller.current_bytes()]
    acts = [
        lambda: controller.reply_to_comment(first["id"], "Agreed."),
        lambda: controller.resolve_comment(first["id"], True),
        lambda: controller.reply_to_comment(second["id"], "Noted."),
        lambda: controller.resolve_comment(second["id"], True),
    ]
    recorded = []
    for act in acts:
        serialized.clear()
        assert act()
        recorded.append(set(serialized))
        states.append(controller.current_bytes())
    extended = controller.require().document.part_name(REL_COMMENTS_EXTENDED)
    assert recorded[1] == recorded[3] == {extended}
    for expected in reversed(states[:-1]):
        controller.undo_stack.undo()
        assert controller.current_bytes() == expected
    for expected in states[1:]:
        controller.undo_stack.redo()
        assert controller.current_bytes() == expected


def test_a_chain_of_acts_undoes_and_redoes_to_every_state(controller, tmp_path) -> None:
    _open(controller, SAMPLE, tmp_path)
    states = [controller.current_bytes()]
    changes = controller.require().changes()
    ops = _operations(controller)
    controller.accept_changes([changes[0]["id"]])
    states.append(controller.current_bytes())
    controller.apply_operations(
        "Edit", {"version": 1, "mode": "tracked-changes", "operations": ops["insert"]}
    )
    states.append(controller.current_bytes())
    controller.reject_changes([changes[3]["id"]])
    states.append(controller.current_bytes())
    controller.reply_to_comment(controller.require().comments()[0]["id"], "Fine.")
    states.append(controller.current_bytes())
    for expected in reversed(states[:-1]):
        controller.undo_stack.undo()
        assert controller.current_bytes() == expected
        assert_snapshot_fresh(controller.require())
    assert not controller.is_modified()
    for expected in states[1:]:
        controller.undo_stack.redo()
        assert controller.current_bytes() == expected
        assert_snapshot_fresh(controller.require())


def test_undo_is_proportional_to_the_act(controller, tmp_path) -> None:
    """Accepting one change keeps a copy of its paragraph, never the whole document."""
    _open(controller, SAMPLE, tmp_path)
    reviewer = controller.require()
    change = reviewer.changes()[0]
    journal = reviewer.begin_changes()
    reviewer.accept_change(change["id"])
    entry = journal.finish()
    assert entry is not None
    assert len(entry._in_place or ()) == 1  # one top-level paragraph, swapped in place


_FREED_AS_GARBAGE = textwrap.dedent(
    """
    import gc, sys
    from pathlib import Path
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from reviewer_app.ui.autosave import Autosaver
    from reviewer_app.ui.document_controller import DocumentController
    from reviewer_app.ui.recovery import RecoveryStore
    gc.disable()
    controller = DocumentController(store_directory=Path(sys.argv[2]))
    saver = Autosaver(controller, RecoveryStore())  # holds the controller: a reference cycle
    controller.open(sys.argv[1])
    controller.accept_changes([controller.require().changes()[0]["id"]])
    saver.write_now()
    del controller, saver
    gc.collect()
    print("collected")
    """
)


def test_a_controller_with_undo_history_freed_as_cyclic_garbage_does_not_crash(tmp_path: Path) -> None:
    """The undo stack owns Python-made commands in C++: collected in the wrong order they crashed
    the process (SIGSEGV in QUndoStack::clear), so this runs in a child process."""
    target = tmp_path / SAMPLE.name
    shutil.copy(SAMPLE, target)
    proc = subprocess.run(
        [sys.executable, "-c", _FREED_AS_GARBAGE, str(target), str(tmp_path / "queue")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "collected", proc.stderr[-2000:]
