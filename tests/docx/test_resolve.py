"""Accepting and rejecting tracked changes, and finalizing a document.

Unit tests state small documents in WordprocessingML and check the exact markup left behind for
each kind of change; corpus tests run accept-all and reject-all over every real file in place
and compare the result with LibreOffice's own Accept All / Reject All text, with the schema
validator and python-docx as further independent readers.
"""

from __future__ import annotations

import io
import re
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import docx
import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.edit.finalize import finalize
from reviewer_app.docx.edit.resolve import accept_all, accept_change, reject_all, reject_change
from reviewer_app.docx.revisions import list_changes
from reviewer_app.docx.vocabulary import REVISION_ELEMENTS
from tests.checkers import schema_report
from tests.conftest import corpus_files
from tests.docx.test_corpus_text_libreoffice import accepted_paragraphs, differences, libreoffice_paragraphs
from tests.docx_factory import heading_styles, make_docx
from tests.lo_known_differences import read_rows, today_formats

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = "{%s}" % W_NS
DATE = "2024-05-06T07:08:09Z"
#: Every element that is (or belongs to) a revision; none may survive accept-all or reject-all.
REVISION_TAGS = (*REVISION_ELEMENTS, W + "delText", W + "delInstrText")


# ----------------------------------------------------------------- builders
def stamp(rid: int, author: str = "Ann") -> str:
    return f'w:id="{rid}" w:author="{author}" w:date="{DATE}"'


def r(text: str, rpr: str = "") -> str:
    return f'<w:r>{f"<w:rPr>{rpr}</w:rPr>" if rpr else ""}<w:t xml:space="preserve">{text}</w:t></w:r>'


def dr(text: str) -> str:
    return f'<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r>'


def ins(rid: int, content: str, author: str = "Ann") -> str:
    return f"<w:ins {stamp(rid, author)}>{content}</w:ins>"


def dele(rid: int, content: str, author: str = "Ann") -> str:
    return f"<w:del {stamp(rid, author)}>{content}</w:del>"


def p(content: str = "", ppr: str = "") -> str:
    return f"<w:p>{f'<w:pPr>{ppr}</w:pPr>' if ppr else ''}{content}</w:p>"


def mark(tag: str, rid: int, author: str = "Ann") -> str:
    """A paragraph-mark revision (``w:pPr/w:rPr/w:ins|del|moveFrom|moveTo``)."""
    return f"<w:rPr><w:{tag} {stamp(rid, author)}/></w:rPr>"


def table(*rows: str, grid: str = '<w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>') -> str:
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>{grid}{"".join(rows)}</w:tbl>'


def row(*cells: str, trpr: str = "") -> str:
    props = f"<w:trPr>{trpr}</w:trPr>" if trpr else ""
    return (
        f"<w:tr>{props}{''.join(c if c.startswith('<w:tc>') else f'<w:tc>{c}</w:tc>' for c in cells)}</w:tr>"
    )


def build(body: str, **parts: str) -> DocxReviewer:
    return DocxReviewer.from_bytes(make_docx(body, **parts))


def xml(el: etree._Element) -> str:
    """Markup of ``el`` without namespace declarations, for exact comparisons."""
    return re.sub(r' xmlns:\w+="[^"]*"', "", etree.tostring(el, encoding="unicode"))


def body(reviewer: DocxReviewer) -> str:
    return xml(reviewer.document.body)[len("<w:body>") : -len("</w:body>")]


def texts(reviewer: DocxReviewer) -> list[str]:
    return [b.text for b in reviewer.snapshot().blocks if b.kind != "diagnostic"]


def changes(reviewer: DocxReviewer) -> list[tuple[str, str, str]]:
    return [(c["id"], c["type"], c["text"]) for c in list_changes(reviewer.document, reviewer.snapshot())]


def revision_elements(reviewer: DocxReviewer) -> dict[str, int]:
    """Revision elements left in any XML part of the saved package, per part."""
    found: dict[str, int] = {}
    with zipfile.ZipFile(io.BytesIO(reviewer.to_bytes())) as archive:
        for name in archive.namelist():
            if name.endswith(".xml") or name.endswith(".rels"):
                root = etree.fromstring(archive.read(name))
                count = sum(1 for _ in root.iter(*REVISION_TAGS))
                if count:
                    found[name] = count
    return found


REPLACEMENT = p(r("Pay within ") + dele(1, dr("30")) + ins(2, r("45")) + r(" days."))


# ----------------------------------------------------------------- text changes
def test_accept_all_and_reject_all_on_a_replacement() -> None:
    accepted, rejected = build(REPLACEMENT), build(REPLACEMENT)

    assert accept_all(accepted.document) == 2
    assert reject_all(rejected.document) == 2

    assert body(accepted) == (
        '<w:p><w:r><w:t xml:space="preserve">Pay within </w:t></w:r>'
        '<w:r><w:t xml:space="preserve">45</w:t></w:r><w:r><w:t xml:space="preserve"> days.</w:t></w:r></w:p>'
    )
    assert body(rejected) == (
        '<w:p><w:r><w:t xml:space="preserve">Pay within </w:t></w:r>'
        '<w:r><w:t xml:space="preserve">30</w:t></w:r><w:r><w:t xml:space="preserve"> days.</w:t></w:r></w:p>'
    )
    assert changes(accepted) == changes(rejected) == []


def test_each_half_of_a_replacement_is_its_own_change() -> None:
    reviewer = build(REPLACEMENT)

    assert accept_change(reviewer.document, "2") is True  # the insertion only

    assert changes(reviewer) == [("1", "deletion", "30")]
    assert texts(reviewer) == ["Pay within 45 days."]
    assert reject_change(reviewer.document, "1") is True  # the deletion only
    assert changes(reviewer) == []
    assert texts(reviewer) == ["Pay within 3045 days."]
    assert accept_change(reviewer.document, "1") is False  # gone


def test_rejecting_only_the_deletion_keeps_the_insertion_pending() -> None:
    reviewer = build(REPLACEMENT)

    assert reject_change(reviewer.document, "1") is True

    assert changes(reviewer) == [("2", "insertion", "45")]
    assert texts(reviewer) == ["Pay within 3045 days."]
    assert "delText" not in body(reviewer)


def test_deletion_nested_in_another_authors_insertion() -> None:
    nested = p(r("A ") + ins(10, r("kept ") + dele(11, dr("dropped"), author="Bob")))

    accepted_deletion = build(nested)
    assert accept_change(accepted_deletion.document, "11")
    assert body(accepted_deletion) == p(r("A ") + ins(10, r("kept ")))

    rejected_insertion = build(nested)
    assert reject_change(rejected_insertion.document, "10")
    assert body(rejected_insertion) == p(r("A "))  # the nested deletion went with it
    assert changes(rejected_insertion) == []

    only_ann = build(nested)
    assert accept_all(only_ann.document, author="Ann") == 1
    assert body(only_ann) == p(r("A ") + r("kept ") + dele(11, dr("dropped"), author="Bob"))

    rejected_deletion = build(nested)
    assert reject_change(rejected_deletion.document, "11")
    assert body(rejected_deletion) == p(
        r("A ") + ins(10, r("kept ") + '<w:r><w:t xml:space="preserve">dropped</w:t></w:r>')
    )


def test_insertion_deleted_again_in_full_disappears_with_its_deletion() -> None:
    reviewer = build(p(r("A ") + ins(20, dele(21, dr("typo"), author="Bob"))))

    assert changes(reviewer) == [("21", "deletion", "typo")]
    assert accept_change(reviewer.document, "21")
    assert body(reviewer) == p(r("A "))  # the emptied insertion wrapper is removed too


def test_rejected_deletion_turns_field_code_back_into_instr_text() -> None:
    field = (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:delInstrText xml:space="preserve"> PAGE </w:delInstrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        + dr("7")
        + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    )
    reviewer = build(p(r("Page ") + dele(30, field)))

    assert reject_all(reviewer.document) == 1

    markup = body(reviewer)
    assert '<w:instrText xml:space="preserve"> PAGE </w:instrText>' in markup
    assert "delInstrText" not in markup and "delText" not in markup
    assert texts(reviewer) == ["Page 7"]


def test_deleted_comment_anchor_and_bookmark_survive_accepting_the_deletion() -> None:
    content = (
        '<w:commentRangeStart w:id="5"/>' + dr("gone") + '<w:commentRangeEnd w:id="5"/>'
        '<w:r><w:commentReference w:id="5"/></w:r><w:bookmarkStart w:id="9" w:name="b"/>'
    )
    reviewer = build(p(dele(40, content) + r("kept") + '<w:bookmarkEnd w:id="9"/>'))

    accept_all(reviewer.document)

    assert body(reviewer) == p(
        '<w:commentRangeStart w:id="5"/><w:commentRangeEnd w:id="5"/><w:r><w:commentReference w:id="5"/></w:r>'
        '<w:bookmarkStart w:id="9" w:name="b"/>' + r("kept") + '<w:bookmarkEnd w:id="9"/>'
    )


# ----------------------------------------------------------------- paragraph marks
HEADING = '<w:pStyle w:val="Heading1"/><w:jc w:val="center"/>'


def test_accepting_a_deleted_mark_joins_and_keeps_the_first_paragraphs_properties() -> None:
    # LibreOffice's Accept All gives the joined paragraph the first paragraph's properties
    # (checked with lo_accept_all.py); the mark that survives is the second paragraph's
    second_mark = "<w:rPr><w:b/></w:rPr>"
    reviewer = build(
        p(r("First "), HEADING + mark("del", 1)) + p(r("second."), '<w:jc w:val="right"/>' + second_mark),
        styles=heading_styles(),
    )

    assert accept_all(reviewer.document) == 1

    assert body(reviewer) == p(r("First ") + r("second."), HEADING + second_mark)


def test_a_wholly_deleted_paragraph_leaves_the_next_paragraphs_properties() -> None:
    gone = p(
        '<w:bookmarkStart w:id="3" w:name="x"/>' + dele(2, dr("Gone.")) + '<w:bookmarkEnd w:id="3"/>',
        '<w:jc w:val="center"/>' + mark("del", 1),
    )
    reviewer = build(gone + p(r("Stays."), '<w:jc w:val="right"/>'))

    accept_all(reviewer.document)

    assert body(reviewer) == p(
        '<w:bookmarkStart w:id="3" w:name="x"/><w:bookmarkEnd w:id="3"/>' + r("Stays."),
        '<w:jc w:val="right"/>',
    )


def test_rejecting_an_inserted_paragraph_removes_it_and_accepting_keeps_it() -> None:
    new = p(ins(2, r("New paragraph.")), mark("ins", 1))
    rejected, accepted = build(p(r("Before.")) + new + p(r("After."))), build(new + p(r("After.")))

    assert reject_all(rejected.document) == 2
    assert accept_all(accepted.document) == 2

    assert body(rejected) == p(r("Before.")) + p(r("After."))
    assert body(accepted) == p(r("New paragraph.")) + p(r("After."))


def test_rejecting_a_split_joins_the_halves_again() -> None:
    reviewer = build(p(r("First half, "), '<w:jc w:val="both"/>' + mark("ins", 1)) + p(r("second half.")))

    assert reject_change(reviewer.document, "1")

    assert body(reviewer) == p(r("First half, ") + r("second half."), '<w:jc w:val="both"/>')


def test_a_chain_of_deleted_marks_folds_into_one_paragraph() -> None:
    reviewer = build(
        p(r("a"), HEADING + mark("del", 1)) + p(r("b"), mark("del", 2)) + p(r("c"), '<w:jc w:val="right"/>'),
        styles=heading_styles(),
    )

    assert accept_all(reviewer.document) == 2

    assert body(reviewer) == p(r("a") + r("b") + r("c"), HEADING)


def test_a_mark_with_no_following_paragraph_is_only_dropped() -> None:
    # as in LibreOffice: a paragraph before a table, the last one of a cell and the last one of
    # the body cannot be joined with anything; the paragraph stays
    before_table = p(r("Before table"), mark("del", 1))
    in_cell = p(r("c1"), mark("del", 2)) + p(r("c2"), mark("del", 3))
    last = p(dele(5, dr("Gone last")), mark("del", 4))
    reviewer = build(before_table + table(row(in_cell)) + p(r("Prev")) + last)

    accept_all(reviewer.document)

    assert texts(reviewer) == ["Before table", "c1c2", "Prev", ""]
    assert revision_elements(reviewer) == {}


def test_rejecting_a_deleted_mark_and_accepting_an_inserted_one_only_drop_the_record() -> None:
    reviewer = build(
        p(r("One"), mark("del", 1)) + p(r("Two"), '<w:jc w:val="right"/>' + mark("ins", 2)) + p(r("Three"))
    )

    assert reject_change(reviewer.document, "1") and accept_change(reviewer.document, "2")

    assert body(reviewer) == p(r("One")) + p(r("Two"), '<w:jc w:val="right"/>') + p(r("Three"))


def test_joining_drops_the_first_paragraphs_section_break() -> None:
    # the section break lives in the deleted mark; the second paragraph's mark survives
    sect = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'
    reviewer = build(p(r("End of section one."), mark("del", 1) + sect) + p(r("Start of two.")))

    accept_all(reviewer.document)

    assert body(reviewer) == p(r("End of section one.") + r("Start of two."))


# ----------------------------------------------------------------- moves
def move_document() -> str:
    source = (
        f'<w:moveFromRangeStart {stamp(10)} w:name="move1"/>'
        f'<w:moveFrom {stamp(11)}>{r("Moved clause.")}</w:moveFrom><w:moveFromRangeEnd w:id="10"/>'
    )
    target = (
        f'<w:moveToRangeStart {stamp(12)} w:name="move1"/>'
        f'<w:moveTo {stamp(13)}>{r("Moved clause.")}</w:moveTo><w:moveToRangeEnd w:id="12"/>'
    )
    return p(r("Intro. ") + source) + p(r("Middle.")) + p(r("End. ") + target)


def test_a_move_is_accepted_and_rejected_as_a_whole() -> None:
    accepted, rejected = build(move_document()), build(move_document())

    assert accept_change(accepted.document, "11")  # the source half names the whole move
    assert reject_change(rejected.document, "13")  # so does the destination half

    assert body(accepted) == p(r("Intro. ")) + p(r("Middle.")) + p(r("End. ") + r("Moved clause."))
    assert body(rejected) == p(r("Intro. ") + r("Moved clause.")) + p(r("Middle.")) + p(r("End. "))
    assert changes(accepted) == changes(rejected) == []


def test_moved_paragraph_marks_follow_their_move() -> None:
    source = (
        f'<w:moveFromRangeStart {stamp(10)} w:name="m"/>'
        + p(f"<w:moveFrom {stamp(11)}>{r('Moved.')}</w:moveFrom>", mark("moveFrom", 14))
        + '<w:moveFromRangeEnd w:id="10"/>'
    )
    target = (
        f'<w:moveToRangeStart {stamp(12)} w:name="m"/>'
        + p(f"<w:moveTo {stamp(13)}>{r('Moved.')}</w:moveTo>", mark("moveTo", 15))
        + '<w:moveToRangeEnd w:id="12"/>'
    )
    document = p(r("A")) + source + p(r("B")) + target + p(r("C"))
    accepted, rejected = build(document), build(document)

    assert accept_all(accepted.document) == 4
    assert reject_all(rejected.document) == 4

    assert texts(accepted) == ["A", "B", "Moved.", "C"]
    assert texts(rejected) == ["A", "Moved.", "B", "C"]
    assert revision_elements(accepted) == revision_elements(rejected) == {}


# ----------------------------------------------------------------- property changes
def test_run_formatting_change() -> None:
    run = r("bold now", f"<w:b/><w:rPrChange {stamp(1)}><w:rPr><w:i/></w:rPr></w:rPrChange>")
    accepted, rejected = build(p(run)), build(p(run))

    accept_all(accepted.document)
    reject_all(rejected.document)

    assert body(accepted) == p(r("bold now", "<w:b/>"))
    assert body(rejected) == p(r("bold now", "<w:i/>"))


def test_rejecting_mark_formatting_keeps_the_marks_own_revision() -> None:
    ppr = f'<w:rPr><w:ins {stamp(2)}/><w:b/><w:rPrChange {stamp(1)}><w:rPr><w:sz w:val="20"/></w:rPr></w:rPrChange></w:rPr>'
    reviewer = build(p(r("x"), ppr) + p(r("y")))

    assert reject_change(reviewer.document, "1")

    assert body(reviewer) == p(r("x"), f'<w:rPr><w:ins {stamp(2)}/><w:sz w:val="20"/></w:rPr>') + p(r("y"))


def test_rejecting_paragraph_properties_keeps_mark_formatting_and_section_break() -> None:
    # ooxml-rules 5.6: pPrChange never holds the mark's rPr or the sectPr; a naive swap drops them
    sect = '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'
    old = '<w:pPr><w:jc w:val="left"/><w:spacing w:after="0"/></w:pPr>'
    ppr = f'<w:jc w:val="center"/><w:rPr><w:b/></w:rPr>{sect}<w:pPrChange {stamp(1)}>{old}</w:pPrChange>'
    accepted, rejected = build(p(r("Body."), ppr)), build(p(r("Body."), ppr))

    accept_all(accepted.document)
    reject_all(rejected.document)

    assert body(accepted) == p(r("Body."), f'<w:jc w:val="center"/><w:rPr><w:b/></w:rPr>{sect}')
    assert body(rejected) == p(
        r("Body."), f'<w:jc w:val="left"/><w:spacing w:after="0"/><w:rPr><w:b/></w:rPr>{sect}'
    )


def test_rejecting_section_properties_keeps_header_references() -> None:
    refs = '<w:headerReference w:type="default" r:id="rId9"/>'
    sect = (
        f'<w:sectPr>{refs}<w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/>'
        f'<w:sectPrChange {stamp(1)}><w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:sectPrChange></w:sectPr>'
    )
    reviewer = build(p(r("x")) + sect)

    assert changes(reviewer) == [("1", "sectionPropertiesChanged", "")]
    assert reject_all(reviewer.document) == 1

    assert body(reviewer) == p(r("x")) + f'<w:sectPr>{refs}<w:pgSz w:w="12240" w:h="15840"/></w:sectPr>'


def test_table_row_and_cell_property_changes() -> None:
    tblpr = (
        f'<w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblPrChange {stamp(1)}>'
        '<w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr></w:tblPrChange></w:tblPr>'
    )
    grid = '<w:tblGrid><w:gridCol w:w="3000"/><w:tblGridChange w:id="2"><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid></w:tblGridChange></w:tblGrid>'
    trpr = f'<w:trPr><w:trHeight w:val="400"/><w:trPrChange {stamp(3)}><w:trPr><w:cantSplit/></w:trPr></w:trPrChange></w:trPr>'
    tcpr = f'<w:tcPr><w:tcW w:w="3000" w:type="dxa"/><w:tcPrChange {stamp(4)}><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr></w:tcPrChange></w:tcPr>'
    document = f"<w:tbl>{tblpr}{grid}<w:tr>{trpr}<w:tc>{tcpr}{p(r('cell'))}</w:tc></w:tr></w:tbl>" + p()
    accepted, rejected = build(document), build(document)

    assert accept_all(accepted.document) == 3  # the grid change folds into the table's change
    assert reject_all(rejected.document) == 3

    assert body(accepted) == (
        '<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid>'
        '<w:tr><w:trPr><w:trHeight w:val="400"/></w:trPr><w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>'
        f"{p(r('cell'))}</w:tc></w:tr></w:tbl><w:p/>"
    )
    assert body(rejected) == (
        '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>'
        '<w:tr><w:trPr><w:cantSplit/></w:trPr><w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>'
        f"{p(r('cell'))}</w:tc></w:tr></w:tbl><w:p/>"
    )


def test_numbering_and_cell_merge_changes() -> None:
    numpr = f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/><w:ins {stamp(1)}/></w:numPr>'
    merge = f'<w:tcPr><w:cellMerge {stamp(2)} w:vMerge="cont" w:vMergeOrig="rest"/></w:tcPr>'
    document = p(r("item"), numpr) + table(row(f"<w:tc>{merge}{p(r('m'))}</w:tc>")) + p()
    accepted, rejected = build(document), build(document)

    accept_all(accepted.document)
    reject_all(rejected.document)

    assert '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>' in body(accepted)
    assert '<w:tcPr><w:vMerge w:val="continue"/></w:tcPr>' in body(accepted)
    assert "numPr" not in body(rejected)  # the numbering itself was the insertion
    assert '<w:tcPr><w:vMerge w:val="restart"/></w:tcPr>' in body(rejected)


# ----------------------------------------------------------------- table structure
def test_tracked_rows() -> None:
    kept = row(p(r("Kept")))
    new = row(p(ins(2, r("New"))), trpr=f"<w:ins {stamp(1)}/>")
    gone = row(p(dele(4, dr("Old"))), trpr=f'<w:trHeight w:val="300"/><w:del {stamp(3)}/>')
    document = table(kept, new, gone) + p()
    accepted, rejected = build(document), build(document)

    assert accept_all(accepted.document) == 2  # a row folds its own content marks
    assert reject_all(rejected.document) == 2

    assert texts(accepted) == ["Kept", "New", ""]
    assert texts(rejected) == ["Kept", "Old", ""]
    assert '<w:trPr><w:trHeight w:val="300"/></w:trPr>' in body(rejected)
    assert revision_elements(accepted) == revision_elements(rejected) == {}


def test_a_table_whose_rows_are_all_removed_goes_and_a_bare_cell_gets_a_paragraph() -> None:
    inner = table(row(p(dele(2, dr("inner"))), trpr=f"<w:del {stamp(1)}/>"))
    outer = table(row(f"<w:tc>{inner}</w:tc>"))  # the nested table is the cell's only content
    reviewer = build(
        p(r("Before")) + table(row(p(ins(4, r("x"))), trpr=f"<w:ins {stamp(3)}/>")) + outer + p()
    )

    reject_change(reviewer.document, "3")
    accept_change(reviewer.document, "1")

    assert body(reviewer) == p(r("Before")) + table(row("<w:tc><w:p/></w:tc>")) + "<w:p/>"


def test_tracked_cells() -> None:
    grid = '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>'
    cells = (
        p(r("a")),
        f"<w:tc><w:tcPr><w:cellIns {stamp(1)}/></w:tcPr>{p(r('inserted'))}</w:tc>",
        f'<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/><w:cellDel {stamp(2)}/></w:tcPr>{p(r("deleted"))}</w:tc>',
    )
    document = table(row(*cells), grid=grid) + p()
    accepted, rejected = build(document), build(document)

    assert accept_all(accepted.document) == 2
    assert reject_all(rejected.document) == 2

    assert texts(accepted) == ["a", "inserted", ""]
    assert texts(rejected) == ["a", "deleted", ""]
    # the deleted cell was its column's only cell: no row reaches that grid column, so it goes too
    assert grid.replace('<w:gridCol w:w="2000"/>', "", 1) in body(accepted)
    assert '<w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>' in body(rejected)


def test_a_cell_change_resolves_its_content_marks_and_the_grid_change_it_caused() -> None:
    grid_change = '<w:tblGridChange w:id="1"><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid></w:tblGridChange>'
    grid = f'<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="1000"/>{grid_change}</w:tblGrid>'
    new = f"<w:tc><w:tcPr><w:cellIns {stamp(2)}/></w:tcPr>{p(ins(4, r('new')), mark('ins', 3))}</w:tc>"
    document = table(row(p(r("kept")), new), grid=grid) + p()
    accepted, rejected = build(document), build(document)

    assert changes(accepted) == [("2", "cellInserted", "new")]  # one entry: cell, mark, text and grid
    assert accept_change(accepted.document, "2") and reject_change(rejected.document, "2")

    assert revision_elements(accepted) == revision_elements(rejected) == {}
    assert texts(accepted) == ["kept", "new", ""] and texts(rejected) == ["kept", ""]
    assert '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="1000"/></w:tblGrid>' in body(accepted)
    assert '<w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid>' in body(rejected)


def test_accepting_a_deleted_column_removes_its_grid_column_and_width() -> None:
    grid = '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/><w:gridCol w:w="4000"/></w:tblGrid>'

    def gone(rid: int, text: str) -> str:
        return f"<w:tc><w:tcPr><w:cellDel {stamp(rid)}/></w:tcPr>{p(dele(rid + 1, dr(text)))}</w:tc>"

    rows = row(p(r("a1")), gone(1, "b1"), p(r("c1"))) + row(p(r("a2")), gone(3, "b2"), p(r("c2")))
    document = f'<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/></w:tblPr>{grid}{rows}</w:tbl>' + p()
    at_once, one_by_one, rejected = build(document), build(document), build(document)

    assert accept_all(at_once.document) == 2
    assert accept_change(one_by_one.document, "1")
    assert grid in body(one_by_one)  # the second row still reaches the column: it stays for now
    assert accept_change(one_by_one.document, "3")
    assert reject_all(rejected.document) == 2

    narrowed = (
        '<w:tblW w:w="6000" w:type="dxa"/></w:tblPr>'
        '<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="4000"/></w:tblGrid>'
    )
    for reviewer in (at_once, one_by_one):
        assert texts(reviewer) == ["a1", "c1", "a2", "c2", ""]
        assert narrowed in body(reviewer)
    assert texts(rejected) == ["a1", "b1", "c1", "a2", "b2", "c2", ""]
    assert f'<w:tblW w:w="9000" w:type="dxa"/></w:tblPr>{grid}' in body(rejected)


# ----------------------------------------------------------------- authors, stories, fallbacks
def test_author_filter() -> None:
    document = p(ins(1, r("Ann's ")) + ins(2, r("Bob's "), author="Bob") + dele(3, dr("Ann gone")))
    reviewer = build(document)

    assert accept_all(reviewer.document, author="Ann") == 2

    assert changes(reviewer) == [("2", "insertion", "Bob's ")]
    assert reject_all(reviewer.document, author="Nobody") == 0
    assert reject_all(reviewer.document, author="Bob") == 1
    assert texts(reviewer) == ["Ann's "]


def test_every_story_is_resolved() -> None:
    header = p(ins(1, r("Header text")))
    footnotes = (
        '<w:footnote w:type="separator" w:id="-1"><w:p/></w:footnote>'
        f'<w:footnote w:id="1">{p(dele(2, dr("Note text")) + r("kept"))}</w:footnote>'
    )
    comments = f'<w:comment w:id="0" w:author="Ann">{p(ins(3, r("Comment text")))}</w:comment>'
    reviewer = build(p(r("Body") + ins(4, r("!"))), header=header, footnotes=footnotes, comments=comments)

    assert accept_all(reviewer.document) == 4

    assert revision_elements(reviewer) == {}
    stories = {s["handle"]["type"]: s["text"] for s in reviewer.list_stories()}
    assert (stories["header"], stories["footnote"], texts(reviewer)) == ("Header text", "kept", ["Body!"])


def test_a_change_in_a_header_can_be_resolved_by_id() -> None:
    reviewer = build(p(r("Body")), header=p(r("Draft ") + ins(7, r("v2"))))

    assert reject_change(reviewer.document, "7") is True

    assert reviewer.list_stories()[1]["text"] == "Draft "


def test_text_box_fallback_copies_follow_their_change() -> None:
    def textbox(rid: int) -> str:
        return f"<w:txbxContent>{p(ins(rid, r('Box text')))}</w:txbxContent>"

    alternate = (
        '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
        f"{textbox(5)}</w:drawing></mc:Choice><mc:Fallback><w:pict>{textbox(5)}</w:pict></mc:Fallback>"
        "</mc:AlternateContent></w:r>"
    )
    reviewer = build(p(r("Anchor ") + alternate))

    assert reject_change(reviewer.document, "5")

    assert "Box text" not in body(reviewer)
    assert revision_elements(reviewer) == {}


def test_unknown_change_id() -> None:
    reviewer = build(REPLACEMENT)

    assert accept_change(reviewer.document, "999") is False
    assert reject_change(reviewer.document, "999") is False
    assert len(changes(reviewer)) == 2


def test_accept_all_of_a_thousand_changes_is_fast() -> None:
    paragraphs = "".join(
        p(r(f"Clause {i}: pay within ") + dele(2 * i + 1, dr("30")) + ins(2 * i + 2, r("45")) + r(" days."))
        for i in range(500)
    )
    reviewer = build(paragraphs)
    reviewer.snapshot()

    started = time.perf_counter()
    count = accept_all(reviewer.document)
    elapsed = time.perf_counter() - started

    assert count == 1000
    assert elapsed < 0.5, f"accept-all of 1,000 changes took {elapsed * 1000:.0f} ms"  # target: 200 ms


# ----------------------------------------------------------------- finalize
_PEOPLE = "http://schemas.microsoft.com/office/2011/relationships/people"


def _with_extra_parts(data: bytes) -> bytes:
    """Add commentsExtended, people and docProps parts (with their wiring) to a factory package."""
    extended = (
        '<w15:commentsEx xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml" '
        'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w15">'
        '<w15:commentEx w15:paraId="00000001" w15:done="0"/></w15:commentsEx>'
    )
    people = (
        '<w15:people xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml">'
        '<w15:person w15:author="Ann"><w15:presenceInfo w15:providerId="None" w15:userId="Ann"/></w15:person></w15:people>'
    )
    core = (
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>Contract</dc:title><dc:creator>Ann Author</dc:creator>'
        "<cp:lastModifiedBy>Bob Editor</cp:lastModifiedBy>"
        '<dcterms:created xsi:type="dcterms:W3CDTF">2024-01-01T00:00:00Z</dcterms:created>'
        '<dcterms:modified xsi:type="dcterms:W3CDTF">2024-02-01T00:00:00Z</dcterms:modified></cp:coreProperties>'
    )
    app = (
        '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
        "<Company>Firm LLP</Company><Manager>Partner</Manager></Properties>"
    )
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in source.namelist():
            content = source.read(name).decode()
            if name == "[Content_Types].xml":
                content = content.replace(
                    "</Types>",
                    '<Override PartName="/word/commentsExtended.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml"/>'
                    '<Override PartName="/word/people.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.people+xml"/>'
                    '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
                    '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>'
                    "</Types>",
                )
            elif name == "word/_rels/document.xml.rels":
                content = content.replace(
                    "</Relationships>",
                    '<Relationship Id="rId90" Type="http://schemas.microsoft.com/office/2011/relationships/commentsExtended" Target="commentsExtended.xml"/>'
                    f'<Relationship Id="rId91" Type="{_PEOPLE}" Target="people.xml"/></Relationships>',
                )
            elif name == "_rels/.rels":
                content = content.replace(
                    "</Relationships>",
                    '<Relationship Id="rId8" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>'
                    '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>'
                    "</Relationships>",
                )
            archive.writestr(name, content)
        archive.writestr("word/commentsExtended.xml", extended)
        archive.writestr("word/people.xml", people)
        archive.writestr("docProps/core.xml", core)
        archive.writestr("docProps/app.xml", app)
    return out.getvalue()


def test_finalize_accepts_everything_and_removes_every_comment(tmp_path: Path) -> None:
    anchored = (
        '<w:commentRangeStart w:id="0"/>'
        + r("Pay within ")
        + dele(1, dr("30"))
        + ins(2, r("45"))
        + '<w:commentRangeEnd w:id="0"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="0"/></w:r>'
        + r(" days.")
    )
    comments = f'<w:comment w:id="0" w:author="Ann" w:date="{DATE}">{p(r("Why 45?"))}</w:comment>'
    header = p('<w:commentRangeStart w:id="0"/>' + r("Header") + '<w:commentRangeEnd w:id="0"/>')
    data = _with_extra_parts(make_docx(p(anchored), comments=comments, header=header))
    reviewer = DocxReviewer.from_bytes(data)

    result = finalize(reviewer.document, strip_metadata=True)

    assert result["changesAccepted"] == 2 and result["commentsRemoved"] == 1
    assert sorted(result["metadataCleared"]) == [
        "Company",
        "Manager",
        "created",
        "creator",
        "lastModifiedBy",
        "modified",
    ]
    assert body(reviewer) == p(r("Pay within ") + r("45") + r(" days."))
    out = tmp_path / "final.docx"
    reviewer.save(out)
    with zipfile.ZipFile(out) as archive:
        names = set(archive.namelist())
        assert not names & {"word/comments.xml", "word/commentsExtended.xml", "word/people.xml"}
        wiring = (
            archive.read("word/_rels/document.xml.rels").decode()
            + archive.read("[Content_Types].xml").decode()
        )
        assert "comments" not in wiring and "people" not in wiring
        assert "comment" not in archive.read("word/header1.xml").decode()
        core = archive.read("docProps/core.xml").decode()
        assert "Ann" not in core and "Bob" not in core and "2024" not in core and "Contract" in core
        assert "Firm" not in archive.read("docProps/app.xml").decode()
    assert DocxReviewer.open(out).comments() == []
    assert schema_report(out)["errors_total"] == 0 and schema_report(out)["package_errors"] == []


# ----------------------------------------------------------------- corpus
CORPUS_FILES = corpus_files("public")


def _known_resolve_differences() -> dict[tuple[str, str], set[tuple[str, str]]]:
    table_: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for name, mode, ours, theirs, _why in _RESOLVE_ROWS:
        table_.setdefault((name, mode), set()).add((ours, theirs))
    return table_


_RESOLVE_ROWS = read_rows("lo_resolve_differences.tsv")


def _has_revisions(path: Path) -> bool:
    with zipfile.ZipFile(path) as archive:
        return any(
            re.search(
                rb"<w:(ins|del|moveFrom|moveTo|rPrChange|pPrChange|sectPrChange|tblPrChange|trPrChange|tcPrChange|cellIns|cellDel|cellMerge|numberingChange|tblGridChange|tblPrExChange)\b",
                archive.read(n),
            )
            for n in archive.namelist()
            if n.endswith(".xml")
        )


REVISED = [f for f in CORPUS_FILES if _has_revisions(f)]


def _errors(report: dict) -> set[tuple[str, str]]:
    found = {(part["part"], e["message"]) for part in report["parts"] for e in part["errors"]}
    return found | {("package", str(e)) for e in report.get("package_errors", [])}


def _resolved(path: Path, accept: bool) -> DocxReviewer:
    reviewer = DocxReviewer.open(path)
    (accept_all if accept else reject_all)(reviewer.document)
    return reviewer


@pytest.mark.corpus
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda f: f.name)
def test_corpus_accept_all_and_reject_all_leave_no_revision(path: Path) -> None:
    for accept in (True, False):
        reviewer = _resolved(path, accept)
        assert list_changes(reviewer.document, reviewer.snapshot()) == []
        assert revision_elements(reviewer) == {}
        docx.Document(io.BytesIO(reviewer.to_bytes()))  # python-docx still opens it


@pytest.mark.corpus
@pytest.mark.parametrize("path", REVISED, ids=lambda f: f.name)
def test_corpus_resolved_files_stay_schema_valid(path: Path, tmp_path: Path) -> None:
    before = _errors(schema_report(path))
    for accept in (True, False):
        out = tmp_path / f"{'accepted' if accept else 'rejected'}.docx"
        _resolved(path, accept).save(out)
        assert _errors(schema_report(out)) <= before, (
            f"new schema errors after {'accept' if accept else 'reject'}-all"
        )


@pytest.mark.corpus
@pytest.mark.libreoffice
def test_corpus_resolution_reads_like_libreoffice(lo_reading) -> None:
    known = _known_resolve_differences()
    with ThreadPoolExecutor(max_workers=2) as pool:
        readings = dict(
            zip(REVISED, pool.map(lambda f: lo_reading(f, accept_reject=True), REVISED), strict=True)
        )
    mismatched: dict[tuple[str, str], set[tuple[str, str]]] = {}
    agreeing = compared = 0
    for path, reading in readings.items():
        if not reading.get("load_ok"):
            continue
        for accept, mode in ((True, "accept_all"), (False, "reject_all")):
            ours = accepted_paragraphs(_resolved(path, accept))
            theirs = libreoffice_paragraphs(reading[mode]["paragraphs"], today_formats(_RESOLVE_ROWS))
            found = differences(ours, theirs)
            expected = known.get((path.name, mode), set())
            compared += 1
            if ("*", "*") in expected:
                assert found, f"{path.name} {mode} is listed as differing but now agrees: update the table"
                continue
            agreeing += not found
            if found != expected:
                mismatched[(path.name, mode)] = found ^ expected
    assert not mismatched, (
        f"accept/reject-all text differs from LibreOffice beyond the known table: {mismatched}"
    )
    assert compared >= 2 * 19 and agreeing >= 30


@pytest.mark.corpus
@pytest.mark.libreoffice
def test_finalized_corpus_files_have_no_comments_or_changes_for_libreoffice(
    lo_reading, tmp_path: Path
) -> None:
    names = ("eigenpal_docx-editor-demo.docx", "d2p_comments.docx", "pt_HC031-Complicated-Document.docx")
    paths = [p_ for p_ in CORPUS_FILES if p_.name in names]
    outputs = []
    for path in paths:
        reviewer = DocxReviewer.open(path)
        finalize(reviewer.document, strip_metadata=True)
        out = tmp_path / path.name
        reviewer.save(out)
        outputs.append(out)
        assert _errors(schema_report(out)) <= _errors(schema_report(path))
        assert revision_elements(reviewer) == {}
    assert len(outputs) == len(names)
    with ThreadPoolExecutor(max_workers=2) as pool:
        readings = list(pool.map(lo_reading, outputs))
    for out, reading in zip(outputs, readings, strict=True):
        assert reading["load_ok"], out.name
        assert reading["comment_count"] == 0, out.name
        assert reading["tracked_change_total"] == 0, out.name


def test_finalize_after_our_own_edits_and_comments(tmp_path: Path) -> None:
    from reviewer_app.docx.comment_writer import reply

    reviewer = DocxReviewer.from_bytes(make_docx(p(r("Pay within 30 days of invoice.")) + p(r("Second."))))
    first = reviewer.snapshot().blocks[0].id
    result = reviewer.apply_operations(
        {
            "version": 1,
            "operations": [
                {"id": "a", "type": "replaceInBlock", "blockId": first, "find": "30", "replace": "45"},
                {"id": "b", "type": "commentOnBlock", "blockId": first, "comment": {"text": "Why 45?"}},
            ],
        }
    )
    assert len(result["applied"]) == 2
    comment_id = reviewer.comments()[0]["id"]
    assert reply(reviewer.document, comment_id, "Market rate.", "Bob")
    before = set(reviewer.package.part_names())

    finalize(reviewer.document)

    out = tmp_path / "final.docx"
    reviewer.save(out)
    gone = before - set(DocxReviewer.open(out).package.part_names())
    assert {name.rsplit("/", 1)[-1] for name in gone} >= {
        "comments.xml",
        "commentsExtended.xml",
        "commentsIds.xml",
        "commentsExtensible.xml",
        "people.xml",
    }
    reopened = DocxReviewer.open(out)
    assert texts(reopened) == ["Pay within 45 days of invoice.", "Second."]
    assert reopened.comments() == [] and reopened.changes() == []
    assert revision_elements(reopened) == {}
    assert schema_report(out)["errors_total"] == 0 and schema_report(out)["package_errors"] == []
