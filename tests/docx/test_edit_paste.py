"""The ``pasteRuns`` host operation: text copied in Reviewer pasted with its formatting and paragraphs.

On the sample contract, whose definitions set their terms in bold: the runs a copy reads carry
the formatting set on them, a paste of them is one insertion under the person's name with that
formatting (no formatting change recorded on new text), a copy over a paragraph break splits the
paragraph it lands in, and the model can never send the operation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit.batch import ContractError, parse_batch, parse_host_batch
from reviewer_app.docx.edit.ops_paste import copied_paragraphs
from reviewer_app.docx.xmlutil import W
from tests.checkers import schema_errors
from tests.conftest import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
APPLICABLE_LAW = "7AB2984B"  # "“Applicable Law” means all laws, …"
CLAUSE_5_2 = "26C40F6B"  # "The Supplier shall invoice the Customer monthly in arrears. …"
ME = "Alex Lawyer"
PLAIN = {"bold": None, "italic": None, "underline": None, "strike": None}


@pytest.fixture
def reviewer() -> DocxReviewer:
    return DocxReviewer.from_bytes(SAMPLE.read_bytes(), author=ME)


def paste(reviewer: DocxReviewer, block_id: str, offset: int, paragraphs: list[Any]) -> dict[str, Any]:
    operation = {"id": "paste-1", "type": "pasteRuns", "blockId": block_id, "offset": offset}
    batch = {"version": 1, "mode": "tracked-changes", "operations": [{**operation, "paragraphs": paragraphs}]}
    return reviewer.apply_operations(parse_host_batch(batch))


def test_a_copy_reads_each_run_with_the_formatting_set_on_it(reviewer: DocxReviewer) -> None:
    block = reviewer.snapshot().block(APPLICABLE_LAW)
    assert copied_paragraphs([(block, 0, len("“Applicable Law” means"))]) == [
        [
            {"text": "“", "formatting": PLAIN, "rPr": _rpr("")},
            {"text": "Applicable Law", "formatting": {**PLAIN, "bold": True}, "rPr": _rpr("<w:b/><w:bCs/>")},
            {"text": "” means", "formatting": PLAIN, "rPr": _rpr("")},
        ]
    ]


def _rpr(children: str) -> str:
    """A copied run's properties as the clipboard carries them."""
    declared = f'<w:rPr xmlns:w="{W[1:-1]}"'
    return f"{declared}>{children}</w:rPr>" if children else f"{declared}/>"


def test_a_paste_is_one_insertion_by_the_person_keeping_the_bold(
    reviewer: DocxReviewer, tmp_path: Path
) -> None:
    source = reviewer.snapshot().block(APPLICABLE_LAW)
    runs = copied_paragraphs([(source, 0, len("“Applicable Law”"))])
    text = reviewer.snapshot().block(CLAUSE_5_2).text
    at = text.index("Each invoice")
    assert paste(reviewer, CLAUSE_5_2, at, runs)["status"] == "committed"
    assert reviewer.snapshot().block(CLAUSE_5_2).text == text[:at] + "“Applicable Law”" + text[at:]
    assert [(c["type"], c["text"], c["author"]) for c in reviewer.changes() if c["author"] == ME] == [
        ("insertion", "“Applicable Law”", ME)
    ]
    p = reviewer.snapshot().block(CLAUSE_5_2).element
    [inserted] = p.findall(f"{W}ins")
    bold = [r for r in inserted.iter(W + "r") if r.find(f"{W}rPr/{W}b") is not None]
    assert ["".join(t.text for t in r.iter(W + "t")) for r in bold] == ["Applicable Law"]
    assert not p.findall(f".//{W}rPrChange")
    path = tmp_path / "pasted.docx"
    reviewer.save(path)
    assert schema_errors(path) == 0


def test_a_paste_keeps_the_copied_run_properties_but_not_their_history_or_an_unknown_style(
    reviewer: DocxReviewer, tmp_path: Path
) -> None:
    history = '<w:rPrChange w:id="90" w:author="Priya Shah"><w:rPr><w:i/></w:rPr></w:rPrChange>'
    foreign = '<w14:glow xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" w14:rad="1"/>'
    copied = _rpr(f'<w:rStyle w:val="NoSuchStyle"/><w:i/><w:color w:val="1F4E79"/>{foreign}{history}')
    runs = [[{"text": "Net ", "formatting": PLAIN, "rPr": copied}]]
    at = reviewer.snapshot().block(CLAUSE_5_2).text.index("Each invoice")
    assert paste(reviewer, CLAUSE_5_2, at, runs)["status"] == "committed"
    [inserted] = reviewer.snapshot().block(CLAUSE_5_2).element.findall(f"{W}ins")
    [run] = inserted.iter(W + "r")
    assert [child.tag[len(W) :] for child in run.find(W + "rPr")] == ["i", "color"]
    path = tmp_path / "pasted.docx"
    reviewer.save(path)
    assert schema_errors(path) == 0


def test_a_paste_of_a_damaged_run_format_keeps_its_on_off_formatting(reviewer: DocxReviewer) -> None:
    runs = [[{"text": "Net ", "formatting": {**PLAIN, "bold": True}, "rPr": "<w:rPr>not closed"}]]
    at = reviewer.snapshot().block(CLAUSE_5_2).text.index("Each invoice")
    assert paste(reviewer, CLAUSE_5_2, at, runs)["status"] == "committed"
    [inserted] = reviewer.snapshot().block(CLAUSE_5_2).element.findall(f"{W}ins")
    assert inserted.find(f"{W}r/{W}rPr/{W}b") is not None


def test_a_paragraph_break_in_the_copy_splits_the_paragraph_it_lands_in(reviewer: DocxReviewer) -> None:
    text = reviewer.snapshot().block(CLAUSE_5_2).text
    at = text.index("Each invoice")
    paragraphs = [
        [{"text": "End.", "formatting": PLAIN}],
        [{"text": "Start ", "formatting": {"italic": True}}],
    ]
    assert paste(reviewer, CLAUSE_5_2, at, paragraphs)["status"] == "committed"
    snapshot = reviewer.snapshot()
    index = snapshot.index_of(CLAUSE_5_2)
    assert [b.text for b in snapshot.blocks[index : index + 2]] == [text[:at] + "End.", "Start " + text[at:]]
    mine = sorted(c["type"] for c in reviewer.changes() if c["author"] == ME)
    assert mine == ["insertion", "insertion", "paragraphMarkInserted"]


def test_the_model_cannot_send_a_paste() -> None:
    operation = {"id": "p", "type": "pasteRuns", "blockId": CLAUSE_5_2, "offset": 0, "paragraphs": [[]]}
    with pytest.raises(ContractError):
        parse_batch({"version": 1, "mode": "tracked-changes", "operations": [operation]})


def test_a_copy_ending_with_a_paragraph_break_pasted_at_a_paragraph_end_adds_an_empty_paragraph(
    reviewer: DocxReviewer,
) -> None:
    text = reviewer.snapshot().block(CLAUSE_5_2).text
    assert paste(reviewer, CLAUSE_5_2, len(text), [[{"text": " Net.", "formatting": PLAIN}], []])[
        "status"
    ] == ("committed")
    snapshot = reviewer.snapshot()
    index = snapshot.index_of(CLAUSE_5_2)
    assert [b.text for b in snapshot.blocks[index : index + 2]] == [text + " Net.", ""]


def test_a_copy_starting_with_a_paragraph_break_is_refused_at_a_paragraph_start(
    reviewer: DocxReviewer,
) -> None:
    text = reviewer.snapshot().block(CLAUSE_5_2).text
    result = paste(reviewer, CLAUSE_5_2, 0, [[], [{"text": "Net ", "formatting": PLAIN}]])
    assert not result["applied"] and "paragraph's start" in result["skipped"][0]["reason"]
    assert reviewer.snapshot().block(CLAUSE_5_2).text == text and reviewer.changes() == [
        c for c in reviewer.changes() if c["author"] != ME
    ]


def test_a_line_break_inside_a_copied_run_is_pasted_as_a_line_break(reviewer: DocxReviewer) -> None:
    text = reviewer.snapshot().block(CLAUSE_5_2).text
    at = text.index("Each invoice")
    runs = [[{"text": "Attn: Finance\nLondon ", "formatting": PLAIN}]]
    assert paste(reviewer, CLAUSE_5_2, at, runs)["status"] == "committed"
    [inserted] = reviewer.snapshot().block(CLAUSE_5_2).element.findall(f"{W}ins")
    assert len(inserted.findall(f".//{W}br")) == 1
    assert reviewer.snapshot().block(CLAUSE_5_2).text == text[:at] + "Attn: Finance\nLondon " + text[at:]
