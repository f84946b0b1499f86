"""The LLM pipeline's edit JSON (seed §4): operation inference, statuses, basis comments, indices.

The model answers with ``{blockIndex, originalContent, content, basis}`` and no operation names;
these tests pin which contract operation each shape becomes, what the caller is told when it
cannot be applied, and that ``blockIndex`` means what the Markdown view's ``b:N`` shows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.llm_view import to_markdown
from reviewer_app.docx.pipeline_edits import (
    PipelineEditError,
    apply_pipeline_edits,
    indexed_blocks,
    modifications_of,
    status_line,
    summary,
)
from tests.checkers import schema_errors
from tests.conftest import CORPUS, REPO_ROOT
from tests.docx_factory import make_docx, p

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
AUTHOR = "Pipeline AI"
TEXTS = (
    "The Supplier shall deliver ten units within thirty days.",
    "Payment is due on delivery.",
    "This clause is obsolete.",
    "Notices must be in writing and in English, and notices by email are notices in writing.",
    "Governing law is English law.",
)
_MARKER = re.compile(r"<!-- b:(\d+) id:(\S+) -->")


def small(*texts: str) -> DocxReviewer:
    """Paragraphs without paraIds: block ids are positional, so they shift when a block turns blank."""
    return DocxReviewer.from_bytes(make_docx("".join(p(t) for t in texts or TEXTS)), author=AUTHOR)


def mod(index: int, original: str = "", content: str = "", basis: str = "") -> dict:
    return {"blockIndex": index, "originalContent": original, "content": content, "basis": basis}


def run(reviewer: DocxReviewer, *mods: dict) -> list[dict]:
    return apply_pipeline_edits(reviewer, {"modifications": list(mods)})


def texts_of(reviewer: DocxReviewer) -> list[str]:
    """Clean text of every paragraph (blank ones included), as the saved document reads."""
    reread = DocxReviewer.from_bytes(reviewer.to_bytes())
    return [b.text for b in reread.snapshot().blocks]


def ours(reviewer: DocxReviewer) -> list[tuple[str, str]]:
    reread = DocxReviewer.from_bytes(reviewer.to_bytes())
    return [(c["type"], c["text"]) for c in reread.changes() if c["author"] == AUTHOR]


# ----------------------------------------------------------------------------- inference
def test_replace_inside_a_block_is_replace_in_block() -> None:
    reviewer = small()
    [record] = run(reviewer, mod(0, "ten units", "twelve units"))
    assert record["status"] == "applied" and record["operation"] == "replaceInBlock"
    assert record["revisionIds"]
    assert ("deletion", "ten") in ours(reviewer) and ("insertion", "twelve") in ours(reviewer)
    assert texts_of(reviewer)[0] == "The Supplier shall deliver twelve units within thirty days."


def test_whole_block_modulo_whitespace_is_replace_block() -> None:
    reviewer = small()
    [record] = run(reviewer, mod(1, "  Payment is due\non   delivery. ", "Payment is due within 30 days."))
    assert record["operation"] == "replaceBlock" and record["status"] == "applied"
    assert texts_of(reviewer)[1] == "Payment is due within 30 days."


def test_content_without_original_rewrites_the_block() -> None:
    reviewer = small()
    [record] = run(reviewer, mod(4, "", "Governing law is the law of England and Wales."))
    assert record["operation"] == "replaceBlock" and record["status"] == "applied"
    assert texts_of(reviewer)[4] == "Governing law is the law of England and Wales."


def test_deleting_part_of_a_block_is_an_empty_replacement() -> None:
    reviewer = small()
    [record] = run(reviewer, mod(0, " within thirty days", ""))
    assert record["operation"] == "replaceInBlock" and record["status"] == "applied"
    assert ours(reviewer) == [("deletion", " within thirty days")]
    assert texts_of(reviewer)[0] == "The Supplier shall deliver ten units."


def test_deleting_the_whole_block_is_delete_block() -> None:
    reviewer = small()
    [record] = run(reviewer, mod(2, "This clause is obsolete.", ""))
    assert record["operation"] == "deleteBlock" and record["status"] == "applied"
    kinds = [kind for kind, _text in ours(reviewer)]
    assert "deletion" in kinds and "paragraphMarkDeleted" in kinds
    assert "This clause is obsolete." not in texts_of(reviewer)


def test_basis_alone_is_a_comment_on_the_block() -> None:
    reviewer = small()
    [record] = run(reviewer, mod(3, basis="Should notices by email count?"))
    assert record["operation"] == "commentOnBlock" and record["status"] == "applied"
    [comment] = DocxReviewer.from_bytes(reviewer.to_bytes()).comments()
    assert comment["id"] == record["commentId"]
    assert comment["text"] == "Should notices by email count?" and comment["author"] == AUTHOR
    assert comment["quote"] == TEXTS[3]
    assert ours(reviewer) == []  # a comment is not a tracked change


def test_basis_with_each_edit_becomes_a_comment_on_the_change() -> None:
    reviewer = small()
    records = run(
        reviewer,
        mod(0, "ten units", "twelve units", "Volume agreed on the call."),
        mod(1, " on delivery", "", "No payment trigger."),
        mod(2, "This clause is obsolete.", "", "Deleted: superseded."),
        mod(4, "Governing law is English law.", "Governing law is Scots law.", "Client is in Edinburgh."),
    )
    assert [r["status"] for r in records] == ["applied"] * 4
    assert [r["operation"] for r in records] == [
        "replaceInBlock",
        "replaceInBlock",
        "deleteBlock",
        "replaceBlock",
    ]
    reread = DocxReviewer.from_bytes(reviewer.to_bytes())
    comments = {c["id"]: c for c in reread.comments()}
    by_text = {c["text"]: c for c in comments.values()}
    assert set(by_text) == {
        "Volume agreed on the call.",
        "No payment trigger.",
        "Deleted: superseded.",
        "Client is in Edinburgh.",
    }
    assert all(r["commentId"] in comments for r in records)
    assert all(c["author"] == AUTHOR for c in comments.values())
    # anchored on the change (by the engine), or on the new text or the whole block (second batch)
    new_texts = {b.id: b.text for b in reread.snapshot().blocks}
    for record in records:
        comment = comments[record["commentId"]]
        assert comment["quote"] in new_texts[comment["blockId"]]
    assert "twelve" in by_text["Volume agreed on the call."]["quote"]
    assert by_text["Client is in Edinburgh."]["quote"] in "Governing law is Scots law."
    assert by_text["No payment trigger."]["blockId"] == records[1]["blockId"]


# ----------------------------------------------------------------------------- statuses
def test_not_found_reports_the_current_text() -> None:
    reviewer = small()
    [record] = run(reviewer, mod(1, "on receipt", "on acceptance", "basis is dropped"))
    assert record["status"] == "not found"
    assert record["currentText"] == TEXTS[1]
    assert "commentId" not in record
    assert DocxReviewer.from_bytes(reviewer.to_bytes()).comments() == []
    assert ours(reviewer) == []


def test_ambiguous_reports_the_match_count() -> None:
    reviewer = small()
    [record] = run(reviewer, mod(3, "notices", "communications"))
    assert record["status"] == "ambiguous" and record["matches"] == 2
    assert "2 times" in record["message"]
    assert ours(reviewer) == []


def test_skipped_carries_the_contract_reason() -> None:
    reviewer = small()
    [record] = run(reviewer, mod(4, "English law", "English law"))
    assert record["status"] == "skipped" and record["code"] == "noopOperation"
    assert record["reason"].startswith("this operation would not change the document")


def test_index_out_of_range_and_invalid_entries() -> None:
    reviewer = small()
    records = run(
        reviewer,
        mod(99, "a", "b"),
        mod(-1, "a", "b"),
        "not an object",
        {"blockIndex": "two", "content": "x"},
        {"blockIndex": 1.5, "content": "x"},
        {"blockIndex": 0, "originalContent": 7},
        mod(0),
        {"blockIndex": "1", "originalContent": "Payment", "content": "Settlement"},
    )
    statuses = [(r["status"], r.get("code")) for r in records]
    assert statuses[:2] == [("not found", None), ("not found", None)]
    assert "there is no block 99" in records[0]["message"] and records[0]["currentText"] is None
    assert statuses[2:6] == [("skipped", "invalidModification")] * 4
    assert "blockIndex must be a whole number" in records[3]["message"]
    assert "originalContent must be a string" in records[5]["message"]
    assert statuses[6] == ("skipped", "emptyOperation")
    assert records[7]["status"] == "applied"  # a numeric string is read as the index
    assert [r["index"] for r in records] == list(range(8))


def test_modifications_of_one_block_apply_in_order() -> None:
    reviewer = small()
    records = run(
        reviewer,
        mod(0, "ten units", "twelve units"),
        mod(0, "thirty days", "sixty days"),
        mod(0, "ten units", "eleven units"),  # the first one rewrote it
    )
    assert [r["status"] for r in records] == ["applied", "applied", "not found"]
    expected = "The Supplier shall deliver twelve units within sixty days."
    assert texts_of(reviewer)[0] == expected
    assert records[2]["currentText"] == expected


def test_indices_name_the_blocks_as_read_even_after_a_deletion() -> None:
    """Deleting block 0 turns it blank; later rounds must still find blocks 1-4 as read."""
    reviewer = small()
    records = run(
        reviewer,
        mod(0, TEXTS[0], ""),
        mod(1, "on delivery", "on invoice"),
        mod(1, "Payment", "Settlement"),  # a second round, after the positional ids shifted
        mod(4, "English", "Welsh", "why"),
    )
    assert [r["status"] for r in records] == ["applied"] * 4
    assert records[0]["blockId"] != records[1]["blockId"]
    after = [t for t in texts_of(reviewer) if t]
    assert after == ["Settlement is due on invoice.", TEXTS[2], TEXTS[3], "Governing law is Welsh law."]


def test_the_markdown_view_markup_is_forgiven_and_noted() -> None:
    reviewer = DocxReviewer.open(SAMPLE, author=AUTHOR)
    blocks = indexed_blocks(reviewer)
    assert blocks[43].display_label == "(a)" and blocks[43].text == "the clauses of this Agreement;"
    records = run(
        reviewer,
        mod(43, "(a) the clauses of this Agreement;", "(a) the clauses and Schedules of this Agreement;"),
        mod(53, "co-operate  with\tthe Customer", "cooperate with the Customer"),
        mod(51, "## 3.1 Provision of the Services.", "## 3.1 Supply of the Services."),
    )
    assert [r["status"] for r in records] == ["applied"] * 3, records
    assert records[0]["operation"] == "replaceBlock"
    assert records[0]["notes"] == ["matched without the Markdown view's markup"]
    assert "different whitespace" in records[1]["notes"][0]
    reread = DocxReviewer.from_bytes(reviewer.to_bytes())
    texts = {b["blockId"]: b["text"] for b in reread.read_document()}
    assert texts[blocks[43].id] == "the clauses and Schedules of this Agreement;"  # no "(a)" written
    assert texts[blocks[53].id].startswith("cooperate with the Customer in all matters")
    assert texts[blocks[51].id].startswith("Supply of the Services. The Supplier shall")


def test_the_author_argument_names_the_changes() -> None:
    reviewer = DocxReviewer.from_bytes(make_docx(p(TEXTS[0])))
    before = reviewer.author
    run_records = apply_pipeline_edits(reviewer, [mod(0, "ten", "nine", "why")], author="Someone Else")
    assert run_records[0]["status"] == "applied"
    reread = DocxReviewer.from_bytes(reviewer.to_bytes())
    assert {c["author"] for c in reread.changes()} == {"Someone Else"}
    assert {c["author"] for c in reread.comments()} == {"Someone Else"}
    assert reviewer.author == before


def test_the_edit_json_must_hold_a_modifications_list() -> None:
    assert modifications_of([mod(0)]) == [mod(0)]
    assert modifications_of({"modifications": []}) == []
    for bad in ({}, {"modifications": {}}, "text", None, {"edits": []}):
        with pytest.raises(PipelineEditError):
            apply_pipeline_edits(small(), bad)


def test_status_lines_and_summary() -> None:
    reviewer = small()
    records = run(reviewer, mod(0, "ten", "nine", "basis"), mod(1, "nope", "x"), mod(3, "notices", "x"))
    lines = [status_line(r) for r in records]
    assert lines[0].startswith("[0] b:0 applied: replaceInBlock (comment ")
    assert lines[1] == f'[1] b:1 not found: originalContent is not in block 1; its current text: "{TEXTS[1]}"'
    assert lines[2].startswith("[2] b:3 ambiguous: originalContent occurs 2 times")
    assert summary(records) == "1 applied, 1 not found, 1 ambiguous"
    assert summary([]) == "no modifications"


def test_output_is_schema_valid(tmp_path: Path) -> None:
    reviewer = DocxReviewer.open(SAMPLE, author=AUTHOR)
    records = run(
        reviewer,
        mod(54, "best care", "reasonable care", "Best care is too onerous."),
        mod(44, "Schedule 2 (Charges);", "", "Covered elsewhere."),
        mod(46, basis="Check the precedence of SOWs."),
    )
    assert [r["status"] for r in records] == ["applied"] * 3
    out = tmp_path / "out.docx"
    reviewer.save(out)
    assert schema_errors(out) == schema_errors(SAMPLE) == 0


# ----------------------------------------------------------------------------- blockIndex = b:N
@pytest.mark.parametrize("name", ["pt_RA001-Tracked-Revisions-01.docx", "pt_WC043-Nested-Table.docx"])
def test_block_index_is_the_markdown_views_b_marker(name: str) -> None:
    """Index N names the block the view marks ``b:N``; a comment on it lands on that block id."""
    path = CORPUS / "public" / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    reviewer = DocxReviewer.open(path, author=AUTHOR)
    markers = [(int(i), block_id) for i, block_id in _MARKER.findall(to_markdown(reviewer))]
    assert markers, "the view shows indexed blocks"
    assert markers == [(i, b.id) for i, b in enumerate(indexed_blocks(reviewer))]
    picked = markers[:: max(1, len(markers) // 6)]
    records = apply_pipeline_edits(reviewer, [mod(i, basis=f"note on b:{i}") for i, _ in picked])
    assert [r["blockId"] for r in records] == [block_id for _, block_id in picked]
    assert all(r["status"] == "applied" for r in records), records
    comments = {c["text"]: c for c in DocxReviewer.from_bytes(reviewer.to_bytes()).comments()}
    for index, block_id in picked:
        assert comments[f"note on b:{index}"]["blockId"] == block_id


def test_a_diagnostic_block_is_skipped_as_unsupported() -> None:
    """Embedded content the engine cannot read has an index in the view but cannot be edited."""
    reviewer = DocxReviewer.from_bytes(make_docx(p("before") + '<w:altChunk r:id="rId9"/>' + p("after")))
    assert indexed_blocks(reviewer)[1].kind == "diagnostic"
    records = run(reviewer, mod(1, basis="what is this?"), mod(2, "after", "later"))
    assert (records[0]["status"], records[0]["code"]) == ("skipped", "unsupportedBlock")
    assert records[1]["status"] == "applied"


def test_basis_falls_back_to_a_second_batch_when_the_engine_adds_no_comment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An engine that ignores an edit's ``comment`` still gets the basis on the edited block."""
    reviewer = small()
    original = reviewer.apply_operations
    sent: list[list[str]] = []

    def without_edit_comments(batch: dict) -> dict:
        for op in batch["operations"]:
            if op["type"] != "commentOnBlock":
                op.pop("comment", None)
        sent.append([op["type"] for op in batch["operations"]])
        return original(batch)

    monkeypatch.setattr(reviewer, "apply_operations", without_edit_comments)
    records = run(
        reviewer,
        mod(0, "ten units", "twelve units", "Volume agreed."),
        mod(2, TEXTS[2], "", "Superseded."),
        mod(3, basis="Email?"),
    )
    assert sent == [["replaceInBlock", "deleteBlock"], ["commentOnBlock"] * 3]
    assert [r["status"] for r in records] == ["applied"] * 3
    comments = {c["text"]: c for c in DocxReviewer.from_bytes(reviewer.to_bytes()).comments()}
    assert comments["Volume agreed."]["quote"] == "twelve units"  # the new text, found once
    assert comments["Superseded."]["quote"] == ""  # a deleted block: the whole (now empty) paragraph
    assert comments["Email?"]["quote"] == TEXTS[3]
    assert {comments[t]["id"] for t in ("Volume agreed.", "Superseded.", "Email?")} == {
        r["commentId"] for r in records
    }
