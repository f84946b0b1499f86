"""Paragraph operations: insert, delete, split, merge, paragraph properties (contract §5.5).

Unit tests read the result back through a fresh reviewer (what the saved file says) and look at
the markup where ooxml-rules §5.4-§5.6 pin it down; the conformance tests let LibreOffice judge
three real documents: it must load them, see the intended changes, its accept-all must give the
intended text and its reject-all the original; the schema checker must find no new error.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit.ppr import PPR_BASE_ORDER
from reviewer_app.docx.edit.stamp import RevisionStamp
from reviewer_app.docx.xmlutil import W14, W
from tests.checkers import schema_report
from tests.docx_factory import heading_styles, make_docx, p

STAMP = RevisionStamp(date="2026-01-02T03:04:05Z", id_seed=100)
AUTHOR = "Reviewer AI"
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "public"
SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"
LISTS = CORPUS / "pt_DB012-Lists-With-Different-Numberings.docx"
NVCA = CORPUS / "dxo_NVCA-Model-COI.docx"

NUMBERING = (
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/>'
    '<w:lvlText w:val="(%2)"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
)
LIST_ITEM = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
END = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'


def table(*cells: str, para_ids: tuple[str, ...] = ()) -> str:
    """A one-row table; each cell's XML is given as-is."""
    tcs = "".join(f'<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>{c}</w:tc>' for c in cells)
    grid = "".join('<w:gridCol w:w="2000"/>' for _ in cells)
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid><w:tr>{tcs}</w:tr></w:tbl>'


def reviewer_with(body: str, styles: bool = True, numbering: bool = False) -> DocxReviewer:
    parts = {}
    if styles:
        parts["styles"] = heading_styles()
    if numbering:
        parts["numbering"] = NUMBERING
    reviewer = DocxReviewer.from_bytes(make_docx(body, **parts), author=AUTHOR)
    reviewer.revision_stamp = STAMP
    return reviewer


def apply(reviewer: DocxReviewer, *operations: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return reviewer.apply_operations({"version": 1, "operations": list(operations), **extra})


def reread(reviewer: DocxReviewer) -> DocxReviewer:
    return DocxReviewer.from_bytes(reviewer.to_bytes())


def blocks(reviewer: DocxReviewer) -> list[Any]:
    return reread(reviewer).snapshot().blocks


def texts(reviewer: DocxReviewer) -> list[str]:
    return [b.text for b in blocks(reviewer)]


def change_types(reviewer: DocxReviewer) -> list[str]:
    return [c["type"] for c in reread(reviewer).changes()]


def codes(result: dict[str, Any]) -> dict[str, str]:
    return {issue["operationId"]: issue["code"] for issue in result["issues"]}


def messages(result: dict[str, Any]) -> dict[str, str]:
    return {issue["operationId"]: issue.get("message", "") for issue in result["issues"]}


def body_of(reviewer: DocxReviewer) -> etree._Element:
    return reread(reviewer).document.body


def paragraph(reviewer: DocxReviewer, para_id: str) -> etree._Element:
    return next(el for el in body_of(reviewer).iter(W + "p") if el.get(W14 + "paraId") == para_id)


THREE = p("One.", para_id="00000001") + p("Two.", para_id="00000002") + p("Three.", para_id="00000003") + END


# ------------------------------------------------------------------------------------- inserts
def test_insert_after_is_a_wholly_inserted_paragraph():
    reviewer = reviewer_with(THREE)
    result = apply(reviewer, {"id": "ins", "type": "insertAfterBlock", "blockId": "00000001", "text": "New."})
    assert result["receipts"][0]["affected"] == [
        {
            "type": "insertion",
            "story": "main",
            "anchorBlockId": "00000001",
            "position": "after",
            "content": "block",
        }
    ]
    assert result["applied"][0]["revisionIds"] == ["101", "102"]
    after = blocks(reviewer)
    assert [b.text for b in after] == ["One.", "New.", "Two.", "Three."]
    assert after[1].id_stability == "stable" and after[1].mark_inserted
    assert change_types(reviewer) == ["paragraphMarkInserted", "insertion"]
    new = body_of(reviewer)[1]
    mark = new.find(f"{W}pPr/{W}rPr")[0]
    assert mark.tag == W + "ins" and mark.get(W + "author") == AUTHOR and mark.get(W + "date") == STAMP.date
    assert new.find(f"{W}ins/{W}r/{W}t").text == "New."


def test_insert_before_and_successive_inserts_keep_operation_order():
    reviewer = reviewer_with(THREE)
    result = apply(
        reviewer,
        {"id": "a", "type": "insertAfterBlock", "blockId": "00000002", "text": "A"},
        {"id": "b", "type": "insertAfterBlock", "blockId": "00000002", "text": "B"},
        {"id": "c", "type": "insertBeforeBlock", "blockId": "00000002", "text": "C"},
        {"id": "d", "type": "insertBeforeBlock", "blockId": "00000002", "text": "D"},
    )
    assert [a["id"] for a in result["applied"]] == ["a", "b", "c", "d"]
    assert result["receipts"][2]["affected"][0]["position"] == "before"
    assert texts(reviewer) == ["One.", "C", "D", "Two.", "A", "B", "Three."]


def test_multiline_text_becomes_one_paragraph_per_non_blank_line():
    reviewer = reviewer_with(THREE)
    result = apply(
        reviewer,
        {
            "id": "m",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "First\n\n  \r\nSecond\rThird",
        },
        {"id": "e", "type": "insertAfterBlock", "blockId": "00000003", "text": "\n\n"},
    )
    assert result["normalizations"] == [
        {
            "path": "operations[id=m].text",
            "message": "`text` contained line breaks; split into 3 consecutive paragraphs (one per non-blank line)",
        }
    ]
    assert codes(result) == {"e": "emptyOperation"}
    assert texts(reviewer) == ["One.", "First", "Second", "Third", "Two.", "Three."]


def test_inline_line_break_mode_keeps_breaks_and_tabs_in_one_paragraph():
    reviewer = reviewer_with(THREE)
    result = apply(
        reviewer,
        {
            "id": "i",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "a\tb\r\nc",
            "lineBreakMode": "inline",
        },
    )
    assert result["normalizations"] == []
    assert texts(reviewer) == ["One.", "a\tb\nc", "Two.", "Three."]
    run = body_of(reviewer)[1].find(f"{W}ins/{W}r")
    assert [etree.QName(c).localname for c in run] == ["t", "tab", "t", "br", "t"]


def test_empty_text_inserts_a_blank_paragraph():
    reviewer = reviewer_with(THREE)
    result = apply(reviewer, {"id": "b", "type": "insertBeforeBlock", "blockId": "00000002", "text": ""})
    assert result["applied"] == [{"id": "b", "revisionId": "101"}]
    after = blocks(reviewer)
    assert [b.text for b in after] == ["One.", "", "Two.", "Three."]
    assert after[1].mark_inserted and change_types(reviewer) == ["paragraphMarkInserted"]


def test_formatting_scope_first_paragraph_or_all_and_new_lists():
    reviewer = reviewer_with(THREE)
    bullets = {"kind": "newList", "format": "bullet"}
    apply(
        reviewer,
        {
            "id": "f",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "H\nbody",
            "styleId": "Heading2",
        },
        {
            "id": "all",
            "type": "insertAfterBlock",
            "blockId": "00000002",
            "text": "x\ny",
            "numbering": bullets,
            "formattingScope": "allParagraphs",
        },
        {"id": "other", "type": "insertAfterBlock", "blockId": "00000003", "text": "z", "numbering": bullets},
    )
    after = {b.text: b for b in blocks(reviewer)}
    assert after["H"].style_id == "Heading2" and after["H"].kind == "heading"
    assert after["body"].style_id == "Normal" and after["body"].kind == "paragraph"
    assert after["x"].display_label == after["y"].display_label == after["z"].display_label == "•"
    assert after["x"].list_reference == after["y"].list_reference != after["z"].list_reference
    assert after["x"].stated_numbering["kind"] == "reference"


def test_new_list_creates_the_numbering_part_when_there_is_none(tmp_path: Path):
    reviewer = reviewer_with(THREE)
    assert reviewer.document.part_name("numbering") is None
    apply(
        reviewer,
        {
            "id": "n",
            "type": "insertAfterBlock",
            "blockId": "00000003",
            "text": "first\nsecond",
            "numbering": {"kind": "newList", "format": "numbered", "level": 1},
            "formattingScope": "allParagraphs",
        },
    )
    after = blocks(reviewer)
    assert [(b.text, b.display_label) for b in after[3:]] == [("first", "a."), ("second", "b.")]
    assert after[3].list_reference == {"numId": 1, "level": 1}
    saved = reread(reviewer)
    name = saved.document.part_name("numbering")
    assert name == "word/numbering.xml"
    assert saved.package.content_type(name).endswith("numbering+xml")
    out = tmp_path / "lists.docx"
    reviewer.save(out)
    assert schema_report(out)["errors_total"] == 0


def test_a_refused_batch_leaves_no_numbering_part_behind():
    reviewer = reviewer_with(THREE)
    before = reviewer.to_bytes()
    result = apply(
        reviewer,
        {
            "id": "n",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "x",
            "numbering": {"kind": "newList", "format": "bullet"},
        },
        {"id": "bad", "type": "deleteBlock", "blockId": "7FFFFFFE"},
        atomic=True,
    )
    assert result["status"] == "rejected"
    assert reviewer.document.part_name("numbering") is None
    assert not reviewer.package.has_part("word/numbering.xml")
    assert reread(reviewer).snapshot().blocks[1].text == "Two."
    old, new = zipfile.ZipFile(io.BytesIO(before)), zipfile.ZipFile(io.BytesIO(reviewer.to_bytes()))
    assert old.namelist() == new.namelist()
    for name in old.namelist():  # re-serialized parts say the same thing
        assert etree.tostring(etree.fromstring(old.read(name)), method="c14n") == etree.tostring(
            etree.fromstring(new.read(name)), method="c14n"
        )


def test_numbering_states_on_inserts():
    body = p("Item.", para_id="00000001", ppr=LIST_ITEM) + p("Plain.", para_id="00000002") + END
    reviewer = reviewer_with(body, numbering=True)
    result = apply(
        reviewer,
        {"id": "copy", "type": "insertAfterBlock", "blockId": "00000001", "text": "copied"},
        {
            "id": "none",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "none",
            "numbering": {"kind": "none"},
        },
        {
            "id": "inh",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "inh",
            "numbering": {"kind": "inherit"},
        },
        {
            "id": "lvl",
            "type": "insertAfterBlock",
            "blockId": "00000002",
            "text": "lvl",
            "numbering": {"kind": "levelOnly", "ilvl": 1},
        },
        {
            "id": "ref",
            "type": "insertAfterBlock",
            "blockId": "00000002",
            "text": "ref",
            "numbering": {"kind": "reference", "numId": 1, "ilvl": 1},
        },
        {
            "id": "missing",
            "type": "insertAfterBlock",
            "blockId": "00000002",
            "text": "x",
            "numbering": {"kind": "reference", "numId": 7},
        },
    )
    assert codes(result) == {"missing": "missingNumbering"}
    assert "numId 7" in messages(result)["missing"]
    stated = {b.text: (b.stated_numbering, b.display_label) for b in blocks(reviewer)}
    assert stated["copied"] == ({"kind": "reference", "numId": 1, "ilvl": 0}, "2.")
    assert stated["none"] == ({"kind": "none"}, None)
    assert stated["inh"] == ({"kind": "inherit"}, None)
    assert stated["lvl"] == ({"kind": "levelOnly", "ilvl": 1}, None)
    assert stated["ref"][0] == {"kind": "reference", "numId": 1, "ilvl": 1}


def test_missing_or_non_paragraph_style_is_refused_with_the_offered_styles():
    reviewer = reviewer_with(THREE)
    result = apply(
        reviewer,
        {"id": "a", "type": "insertAfterBlock", "blockId": "00000001", "text": "x", "styleId": "NoSuchStyle"},
        {"id": "b", "type": "insertAfterBlock", "blockId": "00000001", "text": "x", "styleId": "TableGrid"},
        {"id": "c", "type": "insertAfterBlock", "blockId": "00000001", "text": "plain", "styleId": None},
    )
    assert codes(result) == {"a": "missingStyle", "b": "missingStyle"}
    message = messages(result)["a"]
    assert '"NoSuchStyle" is not a paragraph style here' in message and "Heading2" in message
    assert "offered: Normal, Heading1, Heading2, Heading3" in message
    assert "table style" in messages(result)["b"]
    skipped = {s["id"]: s["reason"] for s in result["skipped"]}
    assert skipped["a"].startswith("`styleId` names no paragraph style") and "(" in skipped["a"]
    assert texts(reviewer) == ["One.", "plain", "Two.", "Three."]


def test_inherit_formatting_copies_paragraph_and_run_formatting_but_no_revisions():
    ppr = (
        '<w:pStyle w:val="Heading1"/><w:jc w:val="center"/>'
        '<w:rPr><w:ins w:id="5" w:author="Other" w:date="2020-01-01T00:00:00Z"/><w:b/></w:rPr>'
        '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'
        '<w:pPrChange w:id="6" w:author="Other" w:date="2020-01-01T00:00:00Z"><w:pPr/></w:pPrChange>'
    )
    runs = "<w:r><w:rPr><w:i/></w:rPr><w:t>Styled</w:t></w:r>"
    reviewer = reviewer_with(p(para_id="00000001", ppr=ppr, runs=runs) + THREE)
    apply(
        reviewer,
        {
            "id": "i",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "Copy",
            "inheritFormatting": True,
        },
        {"id": "j", "type": "insertAfterBlock", "blockId": "00000001", "text": "Plain"},
    )
    copy_p, plain_p = body_of(reviewer)[1], body_of(reviewer)[2]
    ppr_el = copy_p.find(W + "pPr")
    assert [etree.QName(c).localname for c in ppr_el] == ["pStyle", "jc", "rPr"]
    assert [etree.QName(c).localname for c in ppr_el.find(W + "rPr")] == ["ins", "b"]
    assert ppr_el.find(f"{W}rPr/{W}ins").get(W + "author") == AUTHOR
    assert copy_p.find(f"{W}ins/{W}r/{W}rPr/{W}i") is not None
    assert plain_p.find(f"{W}pPr/{W}pStyle") is None and plain_p.find(f".//{W}rPr/{W}i") is None


def test_anchor_in_a_table_inserts_beside_the_outermost_table():
    inner = table(p("Inner", para_id="00000011"))
    body = p("Before.", para_id="00000001") + table(p("Cell", para_id="00000010") + inner + p("")) + THREE
    reviewer = reviewer_with(body)
    apply(
        reviewer,
        {"id": "a", "type": "insertAfterBlock", "blockId": "00000011", "text": "After table"},
        {"id": "b", "type": "insertBeforeBlock", "blockId": "00000010", "text": "Before table"},
    )
    tags = [(etree.QName(el).localname, "".join(el.itertext())[:12]) for el in body_of(reviewer)]
    assert tags[:4] == [("p", "Before."), ("p", "Before table"), ("tbl", "CellInner"), ("p", "After table")]
    after = {b.text: b for b in blocks(reviewer)}
    assert after["After table"].table is None and after["Before table"].table is None


def test_page_breaks():
    reviewer = reviewer_with(THREE)
    apply(
        reviewer,
        {
            "id": "pb",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "Top",
            "pageBreakBefore": True,
        },
        {
            "id": "hard",
            "type": "insertAfterBlock",
            "blockId": "00000002",
            "text": "",
            "hardPageBreak": {"clear": "all"},
        },
    )
    after = blocks(reviewer)
    assert body_of(reviewer)[1].find(f"{W}pPr/{W}pageBreakBefore") is not None
    assert after[3].text == "" and after[3].structural_boundaries == [
        {"type": "pageBreak", "offset": 0, "clear": "all"}
    ]
    brk = body_of(reviewer)[3].find(f"{W}ins/{W}r/{W}br")
    assert brk.get(W + "type") == "page"


def test_appending_after_the_last_paragraph_moves_the_inserted_mark_to_it():
    body = p("One.", para_id="00000001") + p("Last.", para_id="00000002", ppr='<w:jc w:val="right"/>') + END
    reviewer = reviewer_with(body)
    apply(reviewer, {"id": "a", "type": "insertAfterBlock", "blockId": "00000002", "text": "Appended"})
    last, new = body_of(reviewer)[1], body_of(reviewer)[2]
    assert last.find(f"{W}pPr/{W}rPr/{W}ins") is not None  # the old last paragraph ends with the new mark
    assert new.find(f"{W}pPr/{W}rPr/{W}ins") is None  # the original final mark closes the new one
    change = new.find(f"{W}pPr/{W}pPrChange")
    assert change is not None and change.find(f"{W}pPr/{W}jc").get(W + "val") == "right"
    assert texts(reviewer) == ["One.", "Last.", "Appended"]


def test_direct_mode_inserts_without_revision_marks():
    reviewer = reviewer_with(THREE)
    result = apply(
        reviewer, {"id": "d", "type": "insertAfterBlock", "blockId": "00000003", "text": "x"}, mode="direct"
    )
    assert result["applied"] == [{"id": "d"}]
    assert texts(reviewer) == ["One.", "Two.", "Three.", "x"]
    assert change_types(reviewer) == []


def test_insert_with_a_comment_attaches_it_to_the_new_paragraph():
    reviewer = reviewer_with(THREE)
    result = apply(
        reviewer,
        {
            "id": "c",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "New.",
            "comment": {"text": "why"},
        },
    )
    comment_id = result["applied"][0]["commentId"]
    assert result["receipts"][0]["affected"][1] == {"type": "comment", "commentId": comment_id}
    comments = reread(reviewer).comments()
    assert [(c["text"], c["quote"]) for c in comments] == [("why", "New.")]


# ------------------------------------------------------------------------------------- deleteBlock
def test_delete_block_deletes_runs_and_mark():
    runs = '<w:r><w:t xml:space="preserve">Two </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>words.</w:t></w:r>'
    body = (
        p("One.", para_id="00000001") + p(para_id="00000002", runs=runs, ppr="<w:rPr><w:b/></w:rPr>") + THREE
    )
    reviewer = reviewer_with(body)
    result = apply(reviewer, {"id": "d", "type": "deleteBlock", "blockId": "00000002"})
    assert result["receipts"][0]["affected"] == [
        {"type": "block", "story": "main", "blockId": "00000002", "effect": "deleted"}
    ]
    target = paragraph(reviewer, "00000002")
    mark = target.find(f"{W}pPr/{W}rPr")
    assert [etree.QName(c).localname for c in mark] == ["del", "b"]
    assert target.find(f".//{W}t") is None and len(target.findall(f".//{W}delText")) == 2
    assert set(change_types(reviewer)) == {"deletion", "paragraphMarkDeleted"}
    assert blocks(reviewer)[1].mark_deleted and blocks(reviewer)[1].text == ""


def test_blank_block_loses_its_mark():
    reviewer = reviewer_with(p("One.", para_id="00000001") + p("", para_id="00000002") + THREE)
    apply(reviewer, {"id": "d", "type": "deleteBlock", "blockId": "00000002"})
    assert change_types(reviewer) == ["paragraphMarkDeleted"]


def test_last_paragraph_of_a_container_deletes_the_previous_mark_or_keeps_its_place():
    cell_two = p("Cell one", para_id="00000011") + p(
        "Cell two", para_id="00000012", ppr='<w:jc w:val="right"/>'
    )
    alone = p("Alone", para_id="00000021")
    blank = p("", para_id="00000031")
    body = (
        p("One.", para_id="00000001") + table(cell_two, alone, blank) + p("Last.", para_id="00000002") + END
    )
    reviewer = reviewer_with(body)
    result = apply(
        reviewer,
        {"id": "two", "type": "deleteBlock", "blockId": "00000012"},
        {"id": "alone", "type": "deleteBlock", "blockId": "00000021"},
        {"id": "blank", "type": "deleteBlock", "blockId": "00000031"},
        {"id": "last", "type": "deleteBlock", "blockId": "00000002"},
    )
    assert codes(result) == {"blank": "noopOperation"}
    assert "keeps its place" in messages(result)["blank"]
    # cell two: the previous paragraph's mark goes, cell two's mark takes its properties
    assert paragraph(reviewer, "00000011").find(f"{W}pPr/{W}rPr/{W}del") is not None
    kept = paragraph(reviewer, "00000012").find(W + "pPr")
    assert kept.find(f"{W}rPr/{W}del") is None and kept.find(W + "jc") is None
    assert kept.find(f"{W}pPrChange/{W}pPr/{W}jc").get(W + "val") == "right"
    # alone in its cell: loses its words, keeps its mark
    alone_p = paragraph(reviewer, "00000021")
    assert alone_p.find(f"{W}pPr/{W}rPr/{W}del") is None and alone_p.find(f".//{W}delText") is not None
    # the body's last paragraph: the table before it has no mark to give, so it keeps its place
    last = paragraph(reviewer, "00000002")
    assert last.find(f"{W}pPr/{W}rPr/{W}del") is None and last.find(f".//{W}delText").text == "Last."


def test_a_later_operation_on_the_joined_previous_paragraph_overlaps():
    reviewer = reviewer_with(p("One.", para_id="00000001") + p("Last.", para_id="00000002") + END)
    result = apply(
        reviewer,
        {"id": "del", "type": "deleteBlock", "blockId": "00000002"},
        {"id": "ins", "type": "insertAfterBlock", "blockId": "00000001", "text": "x"},
    )
    assert codes(result) == {"ins": "overlappingOperation"}
    assert '"del"' in messages(result)["ins"]
    result = apply(
        reviewer,
        {"id": "first", "type": "insertBeforeBlock", "blockId": "00000001", "text": "x"},
        {"id": "between", "type": "insertBeforeBlock", "blockId": "00000002", "text": "y"},
    )
    assert codes(result) == {"between": "pendingParagraphMarkDeletion"}  # only between the joined two


def test_direct_delete_removes_the_paragraph_and_keeps_its_markers():
    runs = (
        '<w:bookmarkStart w:id="0" w:name="keep"/><w:r><w:t>Two.</w:t></w:r>'
        '<w:commentRangeStart w:id="3"/><w:bookmarkEnd w:id="0"/>'
    )
    body = (
        p("One.", para_id="00000001")
        + p(para_id="00000002", runs=runs)
        + p("Three.", para_id="00000003")
        + END
    )
    reviewer = reviewer_with(body)
    apply(reviewer, {"id": "d", "type": "deleteBlock", "blockId": "00000002"}, mode="direct")
    assert texts(reviewer) == ["One.", "Three."]
    third = body_of(reviewer)[1]
    names = [etree.QName(c).localname for c in third]
    assert names[:3] == ["bookmarkStart", "commentRangeStart", "bookmarkEnd"]


def test_delete_then_insert_with_a_move_id_is_a_move():
    reviewer = reviewer_with(THREE)
    result = apply(
        reviewer,
        {"id": "from", "type": "deleteBlock", "blockId": "00000001", "moveId": "m"},
        {"id": "to", "type": "insertAfterBlock", "blockId": "00000002", "text": "One.", "moveId": "m"},
    )
    assert result["normalizations"] == []
    body = body_of(reviewer)
    source, target = body[0], body[2]
    assert source.find(f"{W}moveFrom/{W}r/{W}delText").text == "One."
    assert source.find(f"{W}pPr/{W}rPr/{W}moveFrom") is not None
    assert target.find(f"{W}moveTo/{W}r/{W}t").text == "One."
    assert target.find(f"{W}pPr/{W}rPr/{W}moveTo") is not None
    from_start, to_start = source.find(W + "moveFromRangeStart"), target.find(W + "moveToRangeStart")
    assert from_start.get(W + "name") == to_start.get(W + "name")
    assert source.find(W + "moveFromRangeEnd").get(W + "id") == from_start.get(W + "id")
    assert target.find(W + "moveToRangeEnd").get(W + "id") == to_start.get(W + "id")
    ids = [el.get(W + "id") for el in body.iter() if el.get(W + "id") and not el.tag.endswith("RangeEnd")]
    assert len(ids) == len(set(ids))
    assert texts(reviewer) == ["", "Two.", "One.", "Three."]


def test_unpaired_move_ids_apply_plainly_with_a_normalization():
    reviewer = reviewer_with(THREE)
    result = apply(
        reviewer,
        {"id": "a", "type": "deleteBlock", "blockId": "00000001", "moveId": "m"},
        {"id": "b", "type": "deleteBlock", "blockId": "00000002", "moveId": "m"},
        {"id": "c", "type": "insertAfterBlock", "blockId": "00000003", "text": "x", "moveId": "m"},
    )
    assert [n["path"] for n in result["normalizations"]] == [
        "operations[id=a].moveId",
        "operations[id=b].moveId",
        "operations[id=c].moveId",
    ]
    assert "2 deletion(s), 1 insertion(s)" in result["normalizations"][0]["message"]
    assert (
        body_of(reviewer).find(f".//{W}moveFrom") is None and body_of(reviewer).find(f".//{W}ins") is not None
    )


# ------------------------------------------------------------------------------------- splitBlock
SPLIT_RUNS = (
    '<w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve">Alpha beta </w:t></w:r>'
    '<w:hyperlink w:anchor="x"><w:r><w:rPr><w:b/></w:rPr><w:t>gamma delta</w:t></w:r></w:hyperlink>'
)


def test_split_inserts_a_mark_on_the_first_half_and_keeps_formatting():
    body = p(para_id="00000001", runs=SPLIT_RUNS, ppr='<w:jc w:val="center"/>') + THREE
    reviewer = reviewer_with(body)
    result = apply(reviewer, {"id": "s", "type": "splitBlock", "blockId": "00000001", "offset": 6})
    assert result["receipts"][0]["affected"] == [
        {"type": "block", "story": "main", "blockId": "00000001", "effect": "updated"}
    ]
    after = blocks(reviewer)
    assert [b.text for b in after[:2]] == ["Alpha ", "beta gamma delta"]
    assert after[0].id == "00000001" and after[0].mark_inserted and not after[1].mark_inserted
    assert after[0].direct_alignment == after[1].direct_alignment == "center"
    assert change_types(reviewer) == ["paragraphMarkInserted"]
    second = body_of(reviewer)[1]
    assert (
        second.find(f"{W}r/{W}rPr/{W}i") is not None
        and second.find(f"{W}hyperlink/{W}r/{W}rPr/{W}b") is not None
    )


def test_split_inside_a_hyperlink_cuts_it_in_two_with_a_separator_deleted():
    body = p(para_id="00000001", runs=SPLIT_RUNS) + THREE
    reviewer = reviewer_with(body)
    apply(reviewer, {"id": "s", "type": "splitBlock", "blockId": "00000001", "offset": 16, "separator": " "})
    first, second = body_of(reviewer)[0], body_of(reviewer)[1]
    assert first.find(f"{W}hyperlink/{W}del/{W}r/{W}delText").text == " "
    assert second.find(f"{W}hyperlink").get(W + "anchor") == "x"
    assert texts(reviewer)[:2] == ["Alpha beta gamma", "delta"]


def test_split_moves_the_original_mark_and_section_break_to_the_second_half():
    ppr = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'
    reviewer = reviewer_with(p("Ends a section.", para_id="00000001", ppr=ppr) + THREE)
    result = apply(
        reviewer, {"id": "s", "type": "splitBlock", "blockId": "00000001", "offset": 4, "separator": " "}
    )
    assert result["applied"]
    first, second = body_of(reviewer)[0], body_of(reviewer)[1]
    assert first.find(f"{W}pPr/{W}sectPr") is None and second.find(f"{W}pPr/{W}sectPr") is not None


def test_split_refusals():
    body = (
        p("Café", para_id="00000001")
        + p("", para_id="00000002")
        + p("Ame\u0301lie", para_id="00000003")
        + END
    )
    reviewer = reviewer_with(body)
    result = apply(
        reviewer,
        {"id": "zero", "type": "splitBlock", "blockId": "00000001", "offset": 0},
        {"id": "end", "type": "splitBlock", "blockId": "00000001", "offset": 4},
        {"id": "blank", "type": "splitBlock", "blockId": "00000002", "offset": 0},
        {"id": "mark", "type": "splitBlock", "blockId": "00000003", "offset": 3},
        {"id": "sep", "type": "splitBlock", "blockId": "00000003", "offset": 2, "separator": "x"},
    )
    assert codes(result) == {
        "zero": "noopOperation",
        "end": "noopOperation",
        "blank": "emptyOperation",
        "mark": "splitsCharacter",
        "sep": "missingFind",
    }
    assert "strictly inside" in messages(result)["end"]


def test_split_paragraph_properties():
    reviewer = reviewer_with(p("Heading and body", para_id="00000001") + THREE)
    apply(
        reviewer,
        {
            "id": "s",
            "type": "splitBlock",
            "blockId": "00000001",
            "offset": 7,
            "separator": " ",
            "firstParagraphProperties": {"styleId": "Heading1"},
            "secondParagraphProperties": {"alignment": "both"},
        },
    )
    after = blocks(reviewer)
    assert (after[0].text, after[0].style_id, after[0].kind) == ("Heading", "Heading1", "heading")
    assert (after[1].text, after[1].direct_alignment) == ("and body", "both")
    second = body_of(reviewer)[1]
    assert second.find(f"{W}pPr/{W}pPrChange") is not None
    assert change_types(reviewer) == ["paragraphMarkInserted", "deletion", "paragraphPropertiesChanged"]


def test_split_of_a_block_pending_deletion_is_refused():
    ppr = '<w:rPr><w:del w:id="1" w:author="Other" w:date="2020-01-01T00:00:00Z"/></w:rPr>'
    runs = '<w:del w:id="2" w:author="Other" w:date="2020-01-01T00:00:00Z"><w:r><w:delText>Gone</w:delText></w:r></w:del>'
    reviewer = reviewer_with(p(para_id="00000001", ppr=ppr, runs=runs) + THREE)
    result = apply(
        reviewer,
        {"id": "s", "type": "splitBlock", "blockId": blocks(reviewer)[0].id, "offset": 1},
        {"id": "m", "type": "mergeBlockWithNext", "blockId": blocks(reviewer)[0].id},
        {
            "id": "p",
            "type": "setBlockParagraphProperties",
            "blockId": blocks(reviewer)[0].id,
            "properties": {"alignment": "left"},
        },
    )
    assert codes(result) == {"s": "pendingDeletion", "m": "pendingDeletion", "p": "pendingDeletion"}


# ------------------------------------------------------------------------------------- mergeBlockWithNext
def test_merge_deletes_the_mark_and_inserts_the_separator():
    body = p("One", para_id="00000001", ppr='<w:jc w:val="center"/>') + p("two.", para_id="00000002") + END
    reviewer = reviewer_with(body)
    result = apply(
        reviewer, {"id": "m", "type": "mergeBlockWithNext", "blockId": "00000001", "separator": " "}
    )
    assert result["receipts"][0]["affected"][0]["effect"] == "updated"
    first, second = body_of(reviewer)[0], body_of(reviewer)[1]
    assert first.find(f"{W}pPr/{W}rPr/{W}del") is not None
    assert first.find(f"{W}ins/{W}r/{W}t").text == " "
    # the surviving (second) mark takes the first paragraph's properties, tracked
    assert second.find(f"{W}pPr/{W}jc").get(W + "val") == "center"
    assert second.find(f"{W}pPr/{W}pPrChange/{W}pPr") is not None
    assert sorted(change_types(reviewer)) == [
        "insertion",
        "paragraphMarkDeleted",
        "paragraphPropertiesChanged",
    ]


def test_merge_refusals():
    cell = p("Cell", para_id="00000011")
    body = p("Before table", para_id="00000001") + table(cell) + p("Last", para_id="00000002") + END
    deleted = '<w:rPr><w:del w:id="1" w:author="Other" w:date="2020-01-01T00:00:00Z"/></w:rPr>'
    body += ""
    reviewer = reviewer_with(
        p("Pending", para_id="00000003", ppr=deleted) + p("Next", para_id="00000004") + body
    )
    result = apply(
        reviewer,
        {"id": "table", "type": "mergeBlockWithNext", "blockId": "00000001"},
        {"id": "cell", "type": "mergeBlockWithNext", "blockId": "00000011"},
        {"id": "last", "type": "mergeBlockWithNext", "blockId": "00000002"},
        {"id": "pending", "type": "mergeBlockWithNext", "blockId": "00000003"},
    )
    assert codes(result) == {
        "table": "unsupportedBlock",
        "cell": "unsupportedBlock",
        "last": "unsupportedBlock",
        "pending": "pendingParagraphMarkDeletion",
    }
    result = apply(
        reviewer,
        {
            "id": "props",
            "type": "mergeBlockWithNext",
            "blockId": "00000003",
            "mergedParagraphProperties": {"alignment": "right"},
        },
    )
    assert (
        result["applied"] and paragraph(reviewer, "00000004").find(f"{W}pPr/{W}jc").get(W + "val") == "right"
    )


def test_direct_merge_joins_the_paragraphs():
    reviewer = reviewer_with(THREE)
    apply(
        reviewer,
        {"id": "m", "type": "mergeBlockWithNext", "blockId": "00000001", "separator": " "},
        mode="direct",
    )
    assert texts(reviewer) == ["One. Two.", "Three."]
    assert blocks(reviewer)[0].id == "00000001"


# ------------------------------------------------------------------------------------- properties
def test_set_paragraph_properties_is_one_schema_ordered_ppr_change():
    ppr = '<w:jc w:val="left"/><w:pStyle w:val="Heading1"/><w:rPr><w:b/></w:rPr>'
    reviewer = reviewer_with(p("Clause", para_id="00000001", ppr=ppr) + THREE, numbering=True)
    result = apply(
        reviewer,
        {
            "id": "p",
            "type": "setBlockParagraphProperties",
            "blockId": "00000001",
            "properties": {
                "styleId": "Heading2",
                "outlineLevel": {"kind": "bodyText"},
                "numbering": {"kind": "reference", "numId": 1, "ilvl": 1},
                "alignment": "both",
                "spacing": {"spaceBefore": 120, "lineSpacing": 360, "lineSpacingRule": "auto"},
                "indentation": {"indentLeft": 720, "indentFirstLine": -360},
            },
        },
    )
    assert result["applied"] == [{"id": "p", "revisionId": "101"}]
    ppr_el = paragraph(reviewer, "00000001").find(W + "pPr")
    names = [etree.QName(c).localname for c in ppr_el]
    assert names == ["pStyle", "numPr", "spacing", "ind", "jc", "outlineLvl", "rPr", "pPrChange"]
    ranks = [PPR_BASE_ORDER.index(n) for n in names[:6]]
    assert ranks == sorted(ranks)
    old = ppr_el.find(f"{W}pPrChange/{W}pPr")
    assert [etree.QName(c).localname for c in old] == ["pStyle", "jc"]  # the file had them out of order
    block = blocks(reviewer)[0]
    assert block.style_id == "Heading2" and block.kind == "listItem" and block.display_label == "(a)"
    assert block.direct_outline_level == {"kind": "bodyText"}
    assert block.direct_spacing == {"spaceBefore": 120, "lineSpacing": 360, "lineSpacingRule": "auto"}
    assert block.direct_indentation == {"indentLeft": 720, "indentFirstLine": -360, "hangingIndent": True}
    assert change_types(reviewer) == ["paragraphPropertiesChanged"]


def test_set_paragraph_properties_refusals_and_clearing():
    ppr = '<w:jc w:val="center"/><w:outlineLvl w:val="1"/>'
    deleted = '<w:rPr><w:del w:id="1" w:author="Other" w:date="2020-01-01T00:00:00Z"/></w:rPr>'
    body = p("A", para_id="00000001", ppr=ppr) + p("B", para_id="00000002", ppr=deleted) + THREE
    reviewer = reviewer_with(body)
    result = apply(
        reviewer,
        {
            "id": "noop",
            "type": "setBlockParagraphProperties",
            "blockId": "00000001",
            "properties": {"alignment": "center"},
        },
        {
            "id": "clear",
            "type": "setBlockParagraphProperties",
            "blockId": "00000001",
            "properties": {"alignment": None},
        },
        {
            "id": "pending",
            "type": "setBlockParagraphProperties",
            "blockId": "00000002",
            "properties": {"alignment": "left"},
        },
        {
            "id": "style",
            "type": "setBlockParagraphProperties",
            "blockId": "00000003",
            "properties": {"styleId": "Nope"},
        },
    )
    assert codes(result) == {
        "noop": "noopOperation",
        "pending": "pendingParagraphMarkDeletion",
        "style": "missingStyle",
    }
    block = blocks(reviewer)[0]
    assert block.direct_alignment is None and block.heading_level == 2
    again = apply(
        reviewer,
        {
            "id": "second",
            "type": "setBlockParagraphProperties",
            "blockId": "00000001",
            "properties": {"outlineLevel": {"kind": "heading", "level": 0}},
        },
    )
    assert codes(again) == {"second": "pendingParagraphPropertyChange"}
    direct = apply(
        reviewer,
        {
            "id": "direct",
            "type": "setBlockParagraphProperties",
            "blockId": "00000001",
            "properties": {"outlineLevel": None},
        },
        mode="direct",
    )
    assert direct["applied"] and blocks(reviewer)[0].heading_level is None


def test_replace_block_with_a_style_records_a_property_change():
    reviewer = reviewer_with(THREE)
    result = apply(
        reviewer,
        {"id": "r", "type": "replaceBlock", "blockId": "00000001", "text": "One.", "styleId": "Heading1"},
        {"id": "bad", "type": "replaceBlock", "blockId": "00000002", "text": "Two!", "styleId": "Missing"},
    )
    assert codes(result) == {"bad": "missingStyle"}
    assert blocks(reviewer)[0].style_id == "Heading1"
    assert change_types(reviewer) == ["paragraphPropertiesChanged"]
    assert texts(reviewer)[1] == "Two."


def test_undo_and_dry_run_leave_the_document_as_it_was():
    reviewer = reviewer_with(THREE)
    ops = (
        {
            "id": "n",
            "type": "insertAfterBlock",
            "blockId": "00000001",
            "text": "x",
            "numbering": {"kind": "newList", "format": "bullet"},
        },
        {"id": "s", "type": "splitBlock", "blockId": "00000002", "offset": 2},
        {"id": "m", "type": "mergeBlockWithNext", "blockId": "00000001"},
        {"id": "d", "type": "deleteBlock", "blockId": "00000003"},
    )
    preview = apply(reviewer, *ops, dryRun=True)
    assert preview["status"] == "previewed" and len(preview["receipts"]) == 4
    assert texts(reviewer) == ["One.", "Two.", "Three."] and change_types(reviewer) == []
    done = apply(reviewer, *ops)
    assert len(done["applied"]) == 4 and reviewer.document.part_name("numbering") is not None
    assert reviewer.undo_operations(done["undoHandle"])["status"] == "undone"
    assert texts(reviewer) == ["One.", "Two.", "Three."] and change_types(reviewer) == []
    assert reviewer.document.part_name("numbering") is None


def test_direct_mode_batch_is_schema_valid(tmp_path: Path):
    cell = p("Cell one", para_id="00000011") + p("Cell two", para_id="00000012")
    body = THREE.replace(END, "") + table(cell) + p("Tail words here", para_id="00000004") + END
    reviewer = reviewer_with(body)
    result = apply(
        reviewer,
        {"id": "s", "type": "splitBlock", "blockId": "00000004", "offset": 4, "separator": " "},
        {"id": "m", "type": "mergeBlockWithNext", "blockId": "00000001", "separator": " "},
        {"id": "d", "type": "deleteBlock", "blockId": "00000012"},
        {
            "id": "p",
            "type": "setBlockParagraphProperties",
            "blockId": "00000003",
            "properties": {"alignment": "right"},
        },
        {
            "id": "i",
            "type": "insertBeforeBlock",
            "blockId": "00000011",
            "text": "Above the table",
            "styleId": "Heading1",
        },
        mode="direct",
    )
    assert len(result["applied"]) == 5, result["skipped"]
    assert texts(reviewer) == ["One. Two.", "Three.", "Above the table", "Cell one", "Tail", "words here"]
    assert change_types(reviewer) == []
    out = tmp_path / "direct.docx"
    reviewer.save(out)
    assert schema_report(out)["errors_total"] == 0


# ------------------------------------------------------------------------------------- LibreOffice
def _shown(text: str) -> str:
    """A block's text as LibreOffice reports it: note markers are plain numbers there."""
    return re.sub(r"\[\^(\d+)\]", r"\1", text)


def _expected(paragraphs: list[str], edits: list[tuple[Any, ...]]) -> list[str]:
    """``paragraphs`` after ``edits``, each naming its paragraph by its (unique) text."""
    out = list(paragraphs)

    def at(text: str) -> int:
        hits = [i for i, t in enumerate(out) if t == _shown(text)]
        assert len(hits) == 1, (text, hits)
        return hits[0]

    for kind, anchor, *rest in edits:
        if kind == "end":
            out.extend(rest[0])
            continue
        i = at(anchor)
        if kind == "after":
            out[i + 1 : i + 1] = rest[0]
        elif kind == "before":
            out[i:i] = rest[0]
        elif kind == "delete":
            del out[i]
        elif kind == "split":
            out[i : i + 1] = [_shown(t) for t in rest[0]]
        elif kind == "merge":
            out[i : i + 2] = [_shown(rest[0])]
    return out


def _conformance(
    tmp_path: Path, lo_reading: Any, source: Path, ops: list[dict], edits: list[tuple], types: dict[str, int]
) -> dict[str, Any]:
    """Apply ``ops`` to ``source`` and let LibreOffice and the schema checker judge the result."""
    reviewer = DocxReviewer.open(source, author=AUTHOR)
    result = reviewer.apply_operations({"version": 1, "operations": ops})
    assert not result["skipped"], result["skipped"]
    out = tmp_path / f"edited-{source.name}"
    reviewer.save(out)
    before = lo_reading(source, accept_reject=True)
    after = lo_reading(out, accept_reject=True)
    assert after["load_ok"], after.get("error")
    ours = [c["type"] for c in after["tracked_changes"] if c["author"] == AUTHOR]
    assert {t: ours.count(t) for t in set(ours)} == types
    assert after["accept_all"]["paragraphs"] == _expected(before["accept_all"]["paragraphs"], edits)
    assert after["accept_all"]["remaining_tracked_changes"] == 0
    assert after["reject_all"]["paragraphs"] == before["reject_all"]["paragraphs"]
    assert schema_report(out)["errors_total"] == schema_report(source)["errors_total"]
    return after


def _texts_by_id(path: Path) -> dict[str, str]:
    return {b.id: b.text for b in DocxReviewer.open(path).snapshot().blocks}


@pytest.mark.libreoffice
def test_libreoffice_judges_list_edits(tmp_path: Path, lo_reading):
    if not LISTS.exists():
        pytest.skip("the shared corpus is not available")
    ops = [
        {"id": "ins", "type": "insertAfterBlock", "blockId": "seq-0002", "text": "b2"},
        {"id": "del", "type": "deleteBlock", "blockId": "seq-0005"},
        {"id": "merge", "type": "mergeBlockWithNext", "blockId": "seq-0008", "separator": " "},
        {
            "id": "props",
            "type": "setBlockParagraphProperties",
            "blockId": "seq-0004",
            "properties": {"alignment": "center", "numbering": {"kind": "newList", "format": "numbered"}},
        },
        {
            "id": "top",
            "type": "insertBeforeBlock",
            "blockId": "seq-0001",
            "text": "Intro\nMore",
            "numbering": {"kind": "none"},
        },
        {"id": "from", "type": "deleteBlock", "blockId": "seq-0003", "moveId": "m"},
        {"id": "to", "type": "insertAfterBlock", "blockId": "seq-0007", "text": "c", "moveId": "m"},
        {"id": "end", "type": "insertAfterBlock", "blockId": "blank-0003", "text": "Appended"},
    ]
    edits = [
        ("after", "b", ["b2"]),
        ("delete", "e"),
        ("merge", "h", "h j"),
        ("before", "a", ["Intro", "More"]),
        ("delete", "c"),
        ("after", "g", ["c"]),
        ("end", None, ["Appended"]),
    ]
    after = _conformance(
        tmp_path, lo_reading, LISTS, ops, edits, {"insert": 5, "delete": 3, "paragraph_format": 1}
    )
    labels = dict(zip(after["paragraphs"], after["list_labels"], strict=True))
    assert labels["Intro"] == "" and labels["b2"] == "3." and labels["d"] == "1."


@pytest.mark.libreoffice
def test_libreoffice_judges_edits_on_the_nvca_charter(tmp_path: Path, lo_reading):
    if not NVCA.exists():
        pytest.skip("the shared corpus is not available")
    text = _texts_by_id(NVCA)
    resolved = text["779D5964"]
    cut = resolved.index(" ", 40)
    ops = [
        {
            "id": "ins",
            "type": "insertAfterBlock",
            "blockId": "6EB3F140",
            "text": "Conversion. A new numbered clause.",
            "inheritFormatting": True,
        },
        {"id": "del", "type": "deleteBlock", "blockId": "3DAE4058"},
        {"id": "split", "type": "splitBlock", "blockId": "779D5964", "offset": cut, "separator": " "},
        {"id": "merge", "type": "mergeBlockWithNext", "blockId": "3CB692E5", "separator": " "},
        {
            "id": "props",
            "type": "setBlockParagraphProperties",
            "blockId": "487AA670",
            "properties": {"alignment": "center"},
        },
        {
            "id": "list",
            "type": "insertBeforeBlock",
            "blockId": "487AA670",
            "text": "first point\nsecond point",
            "numbering": {"kind": "newList", "format": "bullet"},
            "formattingScope": "allParagraphs",
        },
    ]
    edits = [
        ("after", text["6EB3F140"], ["Conversion. A new numbered clause."]),
        ("delete", text["3DAE4058"]),
        ("split", resolved, [resolved[:cut], resolved[cut + 1 :]]),
        ("merge", text["3CB692E5"], text["3CB692E5"] + " " + text["432E1E41"]),
        ("before", text["487AA670"], ["first point", "second point"]),
    ]
    after = _conformance(
        tmp_path, lo_reading, NVCA, ops, edits, {"insert": 4, "delete": 3, "paragraph_format": 2}
    )
    labels = dict(zip(after["paragraphs"], after["list_labels"], strict=True))
    assert labels["Conversion. A new numbered clause."] == "3."


@pytest.mark.libreoffice
def test_libreoffice_judges_edits_on_the_sample_contract(tmp_path: Path, lo_reading):
    text = _texts_by_id(SAMPLE)
    blocks_ = DocxReviewer.open(SAMPLE).snapshot().blocks
    role_cell = next(b for b in blocks_ if b.table and b.text == "Role")
    recital = text["2EC45B39"]
    cut = recital.index(" ", 30)
    ops = [
        {
            "id": "ins",
            "type": "insertAfterBlock",
            "blockId": "5557A0FD",
            "text": "The parties wish to record their agreement.",
            "inheritFormatting": True,
        },
        {"id": "del", "type": "deleteBlock", "blockId": "0343936A"},
        {"id": "split", "type": "splitBlock", "blockId": "2EC45B39", "offset": cut, "separator": " "},
        {"id": "merge", "type": "mergeBlockWithNext", "blockId": "2701E0D7", "separator": " "},
        {
            "id": "props",
            "type": "setBlockParagraphProperties",
            "blockId": "7482FF60",
            "properties": {"numbering": {"kind": "levelOnly", "ilvl": 3}},
        },
        {"id": "table", "type": "insertBeforeBlock", "blockId": role_cell.id, "text": "Key personnel:"},
        {
            "id": "list",
            "type": "insertAfterBlock",
            "blockId": "3DE3A755",
            "text": "first\nsecond",
            "numbering": {"kind": "newList", "format": "numbered"},
            "formattingScope": "allParagraphs",
        },
    ]
    edits = [
        ("after", text["5557A0FD"], ["The parties wish to record their agreement."]),
        ("delete", text["0343936A"]),
        ("split", recital, [recital[:cut], recital[cut + 1 :]]),
        ("merge", text["2701E0D7"], text["2701E0D7"] + " " + text["1BEA2D16"]),
        ("before", "Role", ["Key personnel:"]),
        ("after", text["3DE3A755"], ["first", "second"]),
    ]
    after = _conformance(
        tmp_path, lo_reading, SAMPLE, ops, edits, {"insert": 5, "delete": 3, "paragraph_format": 2}
    )
    labels = dict(zip(after["paragraphs"], after["list_labels"], strict=True))
    assert labels["first"] == "1." and labels["second"] == "2."


@pytest.mark.libreoffice
def test_libreoffice_judges_edits_at_container_edges(tmp_path: Path, lo_reading):
    """Marks next to tables and at the end of cells and the body, where a naive mark would stick."""
    cell = p("Cell one", para_id="00000011") + p("Cell two", para_id="00000012")
    body = (
        p("Intro.", para_id="00000001")
        + p("Before the table.", para_id="00000002")
        + table(cell, p("Alone", para_id="00000021"))
        + p("After the table.", para_id="00000003")
        + p("Closing.", para_id="00000004", ppr='<w:jc w:val="right"/>')
        + END
    )
    source = tmp_path / "edges.docx"
    source.write_bytes(make_docx(body, styles=heading_styles()))
    ops = [
        {"id": "del-before-table", "type": "deleteBlock", "blockId": "00000002"},
        {"id": "del-cell-end", "type": "deleteBlock", "blockId": "00000012"},
        {
            "id": "ins-cell",
            "type": "insertAfterBlock",
            "blockId": "00000021",
            "text": "After the whole table",
        },
        {"id": "append", "type": "insertAfterBlock", "blockId": "00000004", "text": "Signature block"},
        {"id": "del-last", "type": "deleteBlock", "blockId": "00000003"},
        {
            "id": "list",
            "type": "insertBeforeBlock",
            "blockId": "00000001",
            "text": "Numbered",
            "numbering": {"kind": "newList", "format": "numbered"},
        },
    ]
    edits = [
        ("delete", "Before the table."),
        ("delete", "Cell two"),
        ("before", "After the table.", ["After the whole table"]),
        ("delete", "After the table."),
        ("end", None, ["Signature block"]),
        ("before", "Intro.", ["Numbered"]),
    ]
    after = _conformance(
        tmp_path, lo_reading, source, ops, edits, {"insert": 3, "delete": 3, "paragraph_format": 1}
    )
    assert after["reject_all"]["paragraphs"][-1] == "Closing."
    labels = dict(zip(after["paragraphs"], after["list_labels"], strict=True))
    assert labels["Numbered"] == "1."  # a list in a numbering part this batch created


def test_inserted_text_that_spells_a_note_reference_is_refused():
    """``[^1]`` in new text would read as a footnote reference to the model and be plain text in Word."""
    from reviewer_app.docx import DocxReviewer
    from tests.docx_factory import make_docx, p

    reviewer = DocxReviewer.from_bytes(make_docx(p("First clause.", para_id="00000001")))
    before = reviewer.to_bytes()
    for op in (
        {"id": "a", "type": "insertAfterBlock", "blockId": "00000001", "text": "New clause [^1] here."},
        {"id": "b", "type": "insertBeforeBlock", "blockId": "00000001", "text": "Endnote [^e2]."},
        {"id": "c", "type": "insertTable", "blockId": "00000001", "rows": [["Cell [^3]"]]},
    ):
        result = reviewer.apply_operations({"version": 1, "mode": "tracked-changes", "operations": [op]})
        assert [i["code"] for i in result["issues"]] == ["protectedReference"], result
    assert reviewer.to_bytes() == before
    ok = reviewer.apply_operations(
        {
            "version": 1,
            "mode": "tracked-changes",
            "operations": [
                {
                    "id": "d",
                    "type": "insertAfterBlock",
                    "blockId": "00000001",
                    "text": "A [bracketed] note, not a marker.",
                }
            ],
        }
    )
    assert ok["status"] == "committed" and ok["applied"]


def test_deleting_a_paragraph_with_a_text_box_deletes_the_box_as_one_object():
    """The box's own paragraphs are not inside our w:del: their text must stay w:t (ooxml-rules §5.3),
    and rejecting the deletion gives the file back as it was."""
    from lxml import etree

    from reviewer_app.docx import DocxReviewer
    from tests.docx_factory import make_docx, p

    box = "<w:txbxContent><w:p><w:r><w:t>Box text</w:t></w:r></w:p></w:txbxContent>"
    drawing = (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
        f"{box}</w:drawing></mc:Choice><mc:Fallback><w:pict>{box}</w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r>"
    )
    body = (
        '<w:p w14:paraId="00000001"><w:r><w:t xml:space="preserve">Anchor </w:t></w:r>'
        + drawing
        + "</w:p>"
        + p("Next.", para_id="00000002")
    )
    reviewer = DocxReviewer.from_bytes(make_docx(body))
    original = [b.text for b in reviewer.snapshot().content_blocks()]
    result = reviewer.apply_operations(
        {
            "version": 1,
            "mode": "tracked-changes",
            "operations": [{"id": "d", "type": "deleteBlock", "blockId": "00000001"}],
        }
    )
    assert result["status"] == "committed" and not result["issues"]
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    boxes = list(reviewer.document.body.iter(w + "txbxContent"))
    assert len(boxes) == 2
    for tb in boxes:
        assert [t.text for t in tb.iter(w + "t")] == ["Box text"] and not list(tb.iter(w + "delText"))
    drawing_run = boxes[0].xpath("ancestor::w:r[1]", namespaces={"w": w[1:-1]})[0]
    assert drawing_run.getparent().tag == w + "del"  # the box goes as one object
    reviewer.reject_all()
    assert [b.text for b in reviewer.snapshot().content_blocks()] == original
    assert etree.tostring(boxes[0]).count(b"Box text") == 1
