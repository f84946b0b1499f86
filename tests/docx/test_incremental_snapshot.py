"""The snapshot kept current incrementally must equal a fresh walk after every act that keeps it.

Accepting or rejecting one change re-reads only the paragraphs it touched, and a dry run (a
Review-mode proposal) keeps the snapshot as it was; a wrong incremental snapshot would be a
silent data bug (the agent would read text the document no longer holds), so every change of
the sample contract and of corpus files with revisions is resolved one by one, each way, and the
result compared with a full walk of the same document.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reviewer_app.agent.proposal_store import ProposalStore
from reviewer_app.agent.review_queue import ReviewQueueBridge
from reviewer_app.docx.blocks import Block, BodyWalker
from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.docx.snapshot import build_anchors

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "samples" / "sample-msa.docx"
CORPUS = ROOT.parent / "shared" / "corpus" / "public"
#: corpus files whose changes cover insertions, deletions, moves, formatting, paragraph marks,
#: property changes and table structure
REVISED = [
    "pt_RA001-Tracked-Revisions-01.docx",
    "pt_RP018-MoveFrom-MoveTo-CC.docx",
    "pt_FA014-MovedParagraph.docx",
    "pt_FA017-NumberingChange.docx",
    "pt_FA018-ParagraphPropertiesChange.docx",
    "pt_FA019-RunPropertiesChange.docx",
    "pt_FA022-TablePropertiesChange.docx",
    "pt_RP034-Deleted-Cells.docx",
    "pt_RP038-Inserted-Paras-at-End.docx",
    "pt_RP043-MERGEFORMAT-Field-Code.docx",
    "pt_RevisionAccepter01-Source1.docx",
    "pandoc_paragraph_insertion_deletion.docx",
    "pandoc_track_changes_move.docx",
    "eigenpal_docx-editor-demo.docx",
    "pt_OpenXmlRegex01-TestDocument.docx",
    "pt_HC031-Complicated-Document.docx",
]
_COMPARED = [name for name in Block.__slots__ if name not in ("cached_hash", "cached_view")]  # type: ignore[attr-defined]


def _state(block: Block) -> tuple[object, ...]:
    return tuple(getattr(block, name) for name in _COMPARED)  # elements compare by identity


def assert_snapshot_fresh(reviewer: DocxReviewer) -> None:
    """The reviewer's (possibly incremental) snapshot equals a full walk of its document now."""
    doc = reviewer.document
    fresh = BodyWalker(doc.styles, doc.numbering).walk(doc.body)
    kept = reviewer.snapshot()
    assert [_state(b) for b in kept.blocks] == [_state(b) for b in fresh]
    assert kept.anchors == build_anchors(fresh)
    assert [b.text_hash for b in kept.blocks] == [b.text_hash for b in fresh]


def _resolve_every_change(path: Path, accept_first: bool) -> int:
    """Resolve the document's changes one at a time (alternating accept and reject), checking the
    snapshot after each; returns how many resolutions kept the snapshot incrementally."""
    reviewer = DocxReviewer.open(path)
    incremental = 0
    accept = accept_first
    for _ in range(400):
        assert reviewer.snapshot().anchors  # maintained anchors take the incremental path too
        changes = reviewer.changes()
        if not changes:
            break
        change = changes[len(changes) // 2]
        cache = reviewer.document._cache
        resolve = reviewer.accept_change if accept else reviewer.reject_change
        assert resolve(change["id"])
        incremental += cache._blocks is not None
        assert_snapshot_fresh(reviewer)
        accept = not accept
    return incremental


@pytest.mark.parametrize("accept_first", [True, False], ids=["accept-first", "reject-first"])
def test_sample_contract_resolved_one_by_one_keeps_a_true_snapshot(accept_first: bool) -> None:
    incremental = _resolve_every_change(SAMPLE, accept_first)
    assert incremental >= 5  # the common case really is incremental


@pytest.mark.parametrize("name", REVISED)
@pytest.mark.parametrize("accept_first", [True, False], ids=["accept-first", "reject-first"])
def test_corpus_changes_resolved_one_by_one_keep_a_true_snapshot(name: str, accept_first: bool) -> None:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"{name} is not in the corpus")
    _resolve_every_change(path, accept_first)


@pytest.mark.parametrize("accept", [True, False], ids=["accept", "reject"])
def test_each_change_of_the_sample_alone_keeps_a_true_snapshot(accept: bool) -> None:
    data = SAMPLE.read_bytes()
    for change in DocxReviewer.from_bytes(data).changes():
        reviewer = DocxReviewer.from_bytes(data)
        assert reviewer.snapshot().anchors
        assert (reviewer.accept_change if accept else reviewer.reject_change)(change["id"])
        assert_snapshot_fresh(reviewer)


def test_a_resolved_change_is_what_the_next_snapshot_reads() -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    change = next(c for c in reviewer.changes() if c["type"] == "insertion")
    before = reviewer.snapshot().block(change["blockId"])
    assert before is not None and change["text"] in before.text
    reviewer.reject_change(change["id"])
    after = reviewer.snapshot().block(change["blockId"])
    assert after is not None and change["text"] not in after.text


def _queue(reviewer: DocxReviewer, tmp_path: Path) -> ReviewQueueBridge:
    return ReviewQueueBridge(reviewer, ProposalStore(None, tmp_path))


def test_dry_run_keeps_the_snapshot_and_it_stays_true(tmp_path: Path) -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    bridge = _queue(reviewer, tmp_path)
    block = next(b for b in reviewer.snapshot().content_blocks() if len(b.text) > 60 and b.table is None)
    word = block.text.split()[0]
    before = reviewer.snapshot()
    assert before.anchors
    bytes_before = reviewer.to_bytes()
    ops = [
        {"id": "a", "type": "replaceInBlock", "blockId": block.id, "find": word, "replace": "Zz"},
        {"id": "b", "type": "commentOnBlock", "blockId": block.id, "comment": {"text": "Why?"}},
        {"id": "c", "type": "insertAfterBlock", "blockId": block.id, "text": "A new clause."},
    ]
    result = bridge.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": ops})
    assert result["status"] == "queued" and {q["id"] for q in result["queued"]} == {"a", "b", "c"}
    assert reviewer.snapshot() is before  # nothing changed: the cached snapshot (and its memos) stays
    assert reviewer.to_bytes() == bytes_before
    assert_snapshot_fresh(reviewer)
    applied = bridge.apply_proposals()
    assert all(o["status"] == "applied" for o in applied)
    assert_snapshot_fresh(reviewer)


def test_dry_run_on_a_table_rebuilds_the_snapshot_when_it_replaced_paragraphs(tmp_path: Path) -> None:
    reviewer = DocxReviewer.open(SAMPLE)
    bridge = _queue(reviewer, tmp_path)
    cell = next(b for b in reviewer.snapshot().content_blocks() if b.table is not None)
    ops = [{"id": "row", "type": "insertTableRow", "blockId": cell.id}]
    bridge.apply_document_operations({"version": 1, "mode": "tracked-changes", "operations": ops})
    assert_snapshot_fresh(reviewer)
    for block in reviewer.snapshot().blocks:  # every block holds a live element of the document
        assert block.element is None or block.element.getroottree().getroot() is reviewer.document.root


def test_atomic_batch_refused_keeps_a_true_snapshot(tmp_path: Path) -> None:
    shutil.copy(SAMPLE, tmp_path / "s.docx")
    reviewer = DocxReviewer.open(tmp_path / "s.docx")
    block = next(b for b in reviewer.snapshot().content_blocks() if len(b.text) > 60 and b.table is None)
    word = block.text.split()[0]
    result = reviewer.apply_operations(
        {
            "version": 1,
            "mode": "tracked-changes",
            "atomic": True,
            "operations": [
                {"id": "ok", "type": "replaceInBlock", "blockId": block.id, "find": word, "replace": "Qq"},
                {"id": "bad", "type": "replaceInBlock", "blockId": block.id, "find": "no such text zz", "replace": "x"},
            ],
        }
    )  # fmt: skip
    assert result["status"] == "rejected"
    assert_snapshot_fresh(reviewer)
