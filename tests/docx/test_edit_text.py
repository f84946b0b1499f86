"""Text operations as tracked changes: replaceInBlock, replaceRange, replaceBlock, formatRange.

Each test reads the result back through a fresh reviewer (what a saved file says), and the
conformance test lets LibreOffice judge the markup: it must see the intended changes, its
accept-all must give the intended text and its reject-all the original.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit.stamp import RevisionStamp
from reviewer_app.docx.xmlutil import W
from tests.checkers import schema_errors
from tests.docx_factory import make_docx, p

STAMP = RevisionStamp(date="2026-01-02T03:04:05Z", id_seed=100)
CLAUSE = "Payment is due within 30 days of invoice."


def reviewer_with(body: str, author: str = "Reviewer AI", **parts: str) -> DocxReviewer:
    reviewer = DocxReviewer.from_bytes(make_docx(body, **parts), author=author)
    reviewer.revision_stamp = STAMP
    return reviewer


def batch(*operations: dict, **extra) -> dict:
    return {"version": 1, "operations": list(operations), **extra}


def reread(reviewer: DocxReviewer) -> DocxReviewer:
    return DocxReviewer.from_bytes(reviewer.to_bytes())


def test_replace_in_block_is_a_word_level_redline():
    reviewer = reviewer_with(p(CLAUSE, para_id="00000001"))
    result = reviewer.apply_operations(
        batch(
            {
                "id": "op1",
                "type": "replaceInBlock",
                "blockId": "00000001",
                "find": "30 days of invoice",
                "replace": "60 days of receipt of invoice",
            }
        )
    )
    assert result["status"] == "committed" and result["applied"][0]["id"] == "op1"
    assert result["receipts"] == [
        {
            "operationId": "op1",
            "operationIndex": 0,
            "affected": [{"type": "block", "story": "main", "blockId": "00000001", "effect": "updated"}],
        }
    ]
    after = reread(reviewer)
    assert after.read_document()[0]["text"] == "Payment is due within 60 days of receipt of invoice."
    changes = after.changes()
    assert [(c["type"], c["text"]) for c in changes] == [
        ("deletion", "30"),
        ("insertion", "60"),
        ("insertion", "receipt of "),
    ]
    assert len({c["id"] for c in changes}) == 3
    assert all(c["author"] == "Reviewer AI" for c in changes)


def test_inserted_text_keeps_the_formatting_it_replaces():
    runs = (
        '<w:r><w:t xml:space="preserve">The fee is </w:t></w:r>'
        "<w:r><w:rPr><w:b/></w:rPr><w:t>EUR 100</w:t></w:r><w:r><w:t>.</w:t></w:r>"
    )
    reviewer = reviewer_with(p(runs=runs, para_id="00000001"))
    reviewer.apply_operations(
        batch(
            {
                "id": "a",
                "type": "replaceInBlock",
                "blockId": "00000001",
                "find": "EUR 100",
                "replace": "EUR 150",
            }
        )
    )
    paragraph = reviewer.document.body[0]
    inserted = paragraph.find(f".//{W}ins//{W}r")
    assert inserted.find(f"{W}rPr/{W}b") is not None
    assert "".join(inserted.itertext()) == "150"


def test_skips_explain_themselves():
    reviewer = reviewer_with(p("the fee and the fee", para_id="00000001"))
    result = reviewer.apply_operations(
        batch(
            {"id": "a", "type": "replaceInBlock", "blockId": "00000001", "find": "the fee", "replace": "x"},
            {"id": "b", "type": "replaceInBlock", "blockId": "00000001", "find": "absent", "replace": "x"},
            {"id": "c", "type": "replaceInBlock", "blockId": "7FFFFFFE", "find": "fee", "replace": "x"},
            {"id": "d", "type": "replaceInBlock", "blockId": "00000001", "find": "", "replace": "x"},
            {
                "id": "e",
                "type": "replaceInBlock",
                "blockId": "00000001",
                "find": "fee and",
                "replace": "fee and",
            },
            {
                "id": "f",
                "type": "replaceInBlock",
                "blockId": "00000001",
                "find": "and",
                "replace": "or",
                "precondition": {"blockTextHash": "h45h"},
            },
        )
    )
    codes = {i["operationId"]: i["code"] for i in result["issues"]}
    assert codes == {
        "a": "ambiguousFind",
        "b": "missingFind",
        "c": "missingBlock",
        "d": "emptyOperation",
        "e": "noopOperation",
        "f": "preconditionFailed",
    }
    reasons = {s["id"]: s["reason"] for s in result["skipped"]}
    assert reasons["c"].startswith("blockId not found; re-read the document")
    assert result["applied"] == [] and reviewer.changes() == []


def test_overlapping_operation_names_the_earlier_operation():
    reviewer = reviewer_with(p(CLAUSE, para_id="00000001") + p("Next.", para_id="00000002"))
    result = reviewer.apply_operations(
        batch(
            {"id": "replace", "type": "replaceInBlock", "blockId": "00000001", "find": "30", "replace": "45"},
            {
                "id": "again",
                "type": "replaceInBlock",
                "blockId": "00000001",
                "find": "45 days",
                "replace": "9",
            },
            {
                "id": "later",
                "type": "replaceInBlock",
                "blockId": "00000001",
                "find": "invoice",
                "replace": "bill",
            },
        )
    )
    assert [a["id"] for a in result["applied"]] == ["replace", "later"]
    (issue,) = result["issues"]
    assert issue["code"] == "overlappingOperation" and '"replace"' in issue["message"]
    assert reread(reviewer).read_document()[0]["text"] == "Payment is due within 45 days of bill."


def test_replace_range_uses_find_text_handles_and_detects_stale_ranges():
    reviewer = reviewer_with(p(CLAUSE, para_id="00000001"))
    match = reviewer.find_text("30 days")["matches"][0]
    stale = {**match["range"], "selectedTextHash": "h1"}
    result = reviewer.apply_operations(
        batch(
            {"id": "r", "type": "replaceRange", "range": match["range"], "replace": "thirty (30) days"},
            {"id": "s", "type": "replaceRange", "range": stale, "replace": "x"},
        )
    )
    assert [a["id"] for a in result["applied"]] == ["r"]
    assert result["issues"][0]["code"] == "staleRange"
    assert reread(reviewer).read_document()[0]["text"] == "Payment is due within thirty (30) days of invoice."


def test_atomic_batch_applies_nothing_when_one_operation_fails_and_dry_run_changes_nothing():
    reviewer = reviewer_with(p(CLAUSE, para_id="00000001"))
    before = reviewer.to_bytes()
    result = reviewer.apply_operations(
        batch(
            {"id": "ok", "type": "replaceInBlock", "blockId": "00000001", "find": "30", "replace": "60"},
            {"id": "bad", "type": "replaceInBlock", "blockId": "00000001", "find": "absent", "replace": "x"},
            atomic=True,
        )
    )
    assert result["status"] == "rejected" and result["applied"] == []
    assert [i["code"] for i in result["issues"]] == ["atomicBatchRejected", "missingFind"]
    assert reviewer.read_document()[0]["text"] == CLAUSE and reviewer.changes() == []
    preview = reviewer.apply_operations(
        batch(
            {"id": "ok", "type": "replaceInBlock", "blockId": "00000001", "find": "30", "replace": "60"},
            dryRun=True,
        )
    )
    assert preview["status"] == "previewed" and preview["receipts"]
    assert reviewer.read_document()[0]["text"] == CLAUSE
    assert reviewer.to_bytes() == before


def test_undo_restores_the_latest_batch():
    reviewer = reviewer_with(p(CLAUSE, para_id="00000001"))
    result = reviewer.apply_operations(
        batch({"id": "a", "type": "replaceInBlock", "blockId": "00000001", "find": "30", "replace": "60"})
    )
    assert (
        reviewer.undo_operations({"type": "documentOperationUndo", "id": "nope"})["reason"] == "unknownHandle"
    )
    assert reviewer.undo_operations(result["undoHandle"])["status"] == "undone"
    assert reviewer.read_document()[0]["text"] == CLAUSE and reviewer.changes() == []


def test_document_version_pin():
    reviewer = reviewer_with(p(CLAUSE, para_id="00000001"))
    result = reviewer.apply_operations(
        batch(
            {"id": "a", "type": "replaceInBlock", "blockId": "00000001", "find": "30", "replace": "60"},
            precondition={"documentVersion": "stale"},
        )
    )
    assert [i["code"] for i in result["issues"]] == ["documentVersionMismatch"]
    current = reviewer.document_version()
    result = reviewer.apply_operations(
        batch(
            {"id": "a", "type": "replaceInBlock", "blockId": "00000001", "find": "30", "replace": "60"},
            precondition={"documentVersion": current},
        )
    )
    assert result["applied"] == [{"id": "a", "revisionIds": result["applied"][0]["revisionIds"]}]
    assert reviewer.document_version() != current


def test_deleting_another_authors_insertion_nests_inside_it():
    runs = (
        '<w:r><w:t xml:space="preserve">Fees are </w:t></w:r>'
        '<w:ins w:id="5" w:author="Opposing Counsel" w:date="2026-01-01T00:00:00Z">'
        '<w:r><w:t xml:space="preserve">not </w:t></w:r></w:ins><w:r><w:t>refundable.</w:t></w:r>'
    )
    reviewer = reviewer_with(p(runs=runs, para_id="00000001"))
    result = reviewer.apply_operations(
        batch({"id": "a", "type": "replaceInBlock", "blockId": "00000001", "find": "not ", "replace": ""})
    )
    assert result["applied"]
    theirs = reviewer.document.body[0].find(f"{W}ins")
    assert theirs.get(W + "author") == "Opposing Counsel"
    ours = theirs.find(f"{W}del")
    assert ours is not None and ours.get(W + "author") == "Reviewer AI"
    assert ours.find(f".//{W}delText").text == "not "
    assert reread(reviewer).read_document()[0]["text"] == "Fees are refundable."


def test_note_markers_are_protected():
    runs = '<w:r><w:t>Fees</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:t> apply.</w:t></w:r>'
    reviewer = reviewer_with(p(runs=runs, para_id="00000001"))
    result = reviewer.apply_operations(
        batch(
            {
                "id": "a",
                "type": "replaceInBlock",
                "blockId": "00000001",
                "find": "Fees[^1] apply",
                "replace": "Costs apply",
            },
            {
                "id": "b",
                "type": "replaceInBlock",
                "blockId": "00000001",
                "find": "Fees[^1]",
                "replace": "Costs[^1]",
            },
        )
    )
    assert result["issues"][0]["code"] == "protectedReference"
    assert reread(reviewer).read_document()[0]["text"] == "Costs[^1] apply."


def test_format_range_records_the_old_properties():
    reviewer = reviewer_with(p(CLAUSE, para_id="00000001"))
    match = reviewer.find_text("30 days")["matches"][0]
    result = reviewer.apply_operations(
        batch({"id": "f", "type": "formatRange", "range": match["range"], "formatting": {"bold": True}})
    )
    assert result["receipts"][0]["affected"][0]["effect"] == "formatted"
    rpr = reviewer.document.body[0].find(f".//{W}b/..")
    assert rpr[-1].tag == W + "rPrChange" and rpr[-1].find(f"{W}rPr/{W}b") is None
    assert [c["type"] for c in reread(reviewer).changes()] == ["formatting"]


def test_direct_mode_writes_no_revision_marks():
    reviewer = reviewer_with(p(CLAUSE, para_id="00000001"))
    reviewer.apply_operations(
        batch(
            {"id": "a", "type": "replaceInBlock", "blockId": "00000001", "find": "30", "replace": "60"},
            mode="direct",
        )
    )
    assert reviewer.changes() == []
    assert reviewer.read_document()[0]["text"] == CLAUSE.replace("30", "60")


@pytest.mark.libreoffice
def test_libreoffice_sees_the_intended_redline_on_the_sample_contract(tmp_path: Path, lo_reading):
    source = Path(__file__).parents[2] / "resources" / "samples" / "sample-msa.docx"
    reviewer = DocxReviewer.open(source, author="Reviewer AI")
    blocks = [b for b in reviewer.read_document() if len(b["text"]) > 80 and "[^" not in b["text"]][:3]
    original = {b["blockId"]: b["text"] for b in reviewer.read_document()}
    ops = []
    for i, block in enumerate(blocks):
        words = block["text"].split()
        ops.append(
            {
                "id": f"op{i}",
                "type": "replaceInBlock",
                "blockId": block["blockId"],
                "find": " ".join(words[2:5]),
                "replace": " ".join(words[2:5]).upper() + " (amended)",
            }
        )
    result = reviewer.apply_operations(batch(*ops))
    assert len(result["applied"]) == 3, result["skipped"]
    out = tmp_path / "redlined.docx"
    reviewer.save(out)
    before = lo_reading(source, accept_reject=True)
    after = lo_reading(out, accept_reject=True)
    assert after["load_ok"]
    ours = [c for c in after["tracked_changes"] if c["author"] == "Reviewer AI"]
    assert {c["type"] for c in ours} == {"insert", "delete"}
    expected = dict(original)
    for op in ops:
        expected[op["blockId"]] = expected[op["blockId"]].replace(op["find"], op["replace"])
    accepted = " ".join(after["accept_all"]["paragraphs"])
    for block_id, text in expected.items():
        if block_id in {o["blockId"] for o in ops}:
            assert text in accepted
    assert after["reject_all"]["paragraphs"] == before["reject_all"]["paragraphs"]
    assert after["comment_count"] == before["comment_count"]
    assert schema_errors(out) == schema_errors(source) == 0


def test_an_edits_comment_is_anchored_on_the_changed_words():
    reviewer = reviewer_with(p(CLAUSE, para_id="00000001"))
    result = reviewer.apply_operations(
        batch(
            {
                "id": "a",
                "type": "replaceInBlock",
                "blockId": "00000001",
                "find": "30 days",
                "replace": "60 days",
                "comment": {"text": "Market standard is 60 days."},
            }
        )
    )
    (applied,) = result["applied"]
    assert result["receipts"][0]["affected"][-1] == {"type": "comment", "commentId": applied["commentId"]}
    (comment,) = reread(reviewer).comments()
    assert comment["text"] == "Market standard is 60 days." and comment["author"] == "Reviewer AI"
    assert comment["quote"] == "60"  # the accepted view of the changed stretch (30 deleted, 60 inserted)
    assert comment["blockId"] == "00000001"


def test_format_range_that_changes_nothing_is_a_noop():
    """Bold on text already bold writes no empty formatting change (contract §6 noopOperation)."""
    run = "<w:r><w:rPr><w:b/></w:rPr><w:t>Already bold text</w:t></w:r>"
    reviewer = reviewer_with(f'<w:p w14:paraId="00000001">{run}</w:p>')
    before = reviewer.to_bytes()
    match = reviewer.find_text("Already")["matches"][0]
    result = reviewer.apply_operations(
        batch({"id": "f1", "type": "formatRange", "range": match["range"], "formatting": {"bold": True}})
    )
    assert [s["id"] for s in result["skipped"]] == ["f1"]
    assert result["issues"][0]["code"] == "noopOperation"
    assert reviewer.changes() == []
    assert reviewer.to_bytes() == before
    # italic on the same words does change them: one tracked formatting change
    result = reviewer.apply_operations(
        batch({"id": "f2", "type": "formatRange", "range": match["range"], "formatting": {"italic": True}})
    )
    assert [a["id"] for a in result["applied"]] == ["f2"]
    assert [c["type"] for c in reviewer.changes()] == ["formatting"]
