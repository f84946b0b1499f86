"""The ``typeText`` host operation: a person's keystrokes, written as Word writes them with Track Changes.

Typed letters inside a word stay letters (no word diff), keystrokes next to each other are one
``w:ins`` (or one ``w:del`` for Backspace) under the person's name, the person's own inserted
letters are taken back without a trace, and the operation is the host's alone: a batch the model
sends with it is refused by the contract parser.
"""

from __future__ import annotations

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit.batch import ContractError, parse_batch, parse_host_batch
from reviewer_app.docx.xmlutil import W
from tests.docx_factory import make_docx, p

PID = "00A1B2C3"
ME = "Alex Lawyer"


def reviewer_with(text: str) -> DocxReviewer:
    return DocxReviewer.from_bytes(make_docx(p(text, para_id=PID)), author=ME)


def keystroke(reviewer: DocxReviewer, offset: int, text: str, length: int = 0) -> dict:
    op = {"id": f"k{offset}-{len(text)}-{length}", "type": "typeText", "blockId": PID, "offset": offset}
    batch = {"version": 1, "mode": "tracked-changes", "operations": [{**op, "text": text, "length": length}]}
    return reviewer.apply_operations(parse_host_batch(batch))


def paragraph(reviewer: DocxReviewer):
    return reviewer.snapshot().block(PID).element


def test_letters_typed_one_by_one_inside_a_word_are_one_insertion_of_those_letters() -> None:
    reviewer = reviewer_with("The contract ends.")
    at = len("The contr")
    for i, ch in enumerate("xyz"):
        assert keystroke(reviewer, at + i, ch)["status"] == "committed"
    assert reviewer.snapshot().block(PID).text == "The contrxyzact ends."
    insertions = paragraph(reviewer).findall(W + "ins")
    assert len(insertions) == 1 and insertions[0].get(W + "author") == ME
    assert "".join(insertions[0].itertext()) == "xyz"  # one run of the three letters, not "contract"
    assert paragraph(reviewer).find(W + "del") is None


def test_backspace_joins_deletions_and_takes_back_own_letters() -> None:
    reviewer = reviewer_with("Pay within thirty days.")
    end = len("Pay within thirty")
    for i in range(len(" thirty")):
        keystroke(reviewer, end - 1 - i, "", 1)
    deletions = paragraph(reviewer).findall(W + "del")
    assert len(deletions) == 1 and "".join(deletions[0].itertext()) == " thirty"
    keystroke(reviewer, len("Pay within"), " ten")
    keystroke(reviewer, len("Pay within ten") - 1, "", 1)  # Backspace on the person's own "n"
    assert reviewer.snapshot().block(PID).text == "Pay within te days."
    assert ["".join(i.itertext()) for i in paragraph(reviewer).findall(W + "ins")] == [" te"]
    assert len(paragraph(reviewer).findall(W + "del")) == 1  # the own letter left no deletion


def test_the_model_cannot_send_the_host_operation() -> None:
    batch = {
        "version": 1,
        "operations": [{"id": "a", "type": "typeText", "blockId": PID, "offset": 0, "text": "x"}],
    }
    with pytest.raises(ContractError):
        parse_batch(batch)
    assert parse_host_batch(batch).operations[0].type == "typeText"


def test_offsets_outside_the_text_are_refused_and_change_nothing() -> None:
    reviewer = reviewer_with("Short.")
    result = keystroke(reviewer, 7, "x")
    assert result["status"] != "committed" or not result["applied"]
    assert reviewer.snapshot().block(PID).text == "Short."


def test_typing_over_a_selection_across_paragraphs_deletes_each_part_and_the_marks_between() -> None:
    ids = ("00A1B2D1", "00A1B2D2", "00A1B2D3")
    texts = ("First clause text.", "Whole middle clause.", "Last clause text.")
    body = "".join(p(t, para_id=i) for i, t in zip(ids, texts, strict=True))
    reviewer = DocxReviewer.from_bytes(make_docx(body), author=ME)
    op = {"id": "x1", "type": "typeText", "blockId": ids[0], "offset": len("First "), "text": "new "}
    batch = {
        "version": 1,
        "mode": "tracked-changes",
        "operations": [{**op, "endBlockId": ids[2], "endOffset": 5}],
    }
    assert reviewer.apply_operations(parse_host_batch(batch))["status"] == "committed"
    snapshot = reviewer.snapshot()
    assert [snapshot.block(i).text for i in ids] == ["First new ", "", "clause text."]
    ours = [(c["type"], c["text"]) for c in reviewer.changes() if c["author"] == ME]
    assert ("insertion", "new ") in ours
    assert {"clause text.", "Whole middle clause.", "Last "} <= {
        text for kind, text in ours if kind == "deletion"
    }
    marks = [snapshot.block(i).element.find(f"{W}pPr/{W}rPr/{W}del") for i in ids]
    assert [m is not None for m in marks] == [True, True, False]  # the last paragraph keeps its mark
    assert {m.get(W + "author") for m in marks[:2]} == {ME}


def test_a_selection_across_a_table_is_refused_and_changes_nothing() -> None:
    ids = ("00A1B2E1", "00A1B2E2")
    table = "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    body = p("Before.", para_id=ids[0]) + table + p("After.", para_id=ids[1])
    reviewer = DocxReviewer.from_bytes(make_docx(body), author=ME)
    op = {"id": "x2", "type": "typeText", "blockId": ids[0], "offset": 2, "text": "", "endBlockId": ids[1]}
    batch = {"version": 1, "mode": "tracked-changes", "operations": [{**op, "endOffset": 2}]}
    result = reviewer.apply_operations(parse_host_batch(batch))
    assert not result["applied"] and "crosses a table" in result["skipped"][0]["reason"]
    assert [reviewer.snapshot().block(i).text for i in ids] == ["Before.", "After."]
    assert not reviewer.changes()
