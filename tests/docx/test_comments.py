"""Comments reader (contract §8): threads, resolved state, anchors and quotes.

Unit tests build small real packages (python-docx for the package, lxml for the markup python-docx
cannot write, such as ``commentsExtended.xml``); corpus tests compare with the corpus manifest and
with what LibreOffice reads from the same files.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import docx
import pytest
from lxml import etree

from reviewer_app.docx.comments import comment_records, list_comments
from reviewer_app.docx.reviewer import DocxReviewer
from tests.conftest import corpus_files
from tests.corpus_manifest import PUBLIC, files_counting, lo_plain_readings, manifest, open_or_skip
from tests.docx_factory import template_parts, zip_parts

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NSDECL = (
    f'xmlns:w="{W_NS}" '
    'xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" '
    'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" mc:Ignorable="w14 w15"'
)
PR_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
REL_COMMENTS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments"
REL_EXTENDED = "http://schemas.microsoft.com/office/2011/relationships/commentsExtended"
REL_HEADER = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/header"
CT_COMMENTS = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"
CT_EXTENDED = "application/vnd.openxmlformats-officedocument.wordprocessingml.commentsExtended+xml"
CT_HEADER = "application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"


# ----------------------------------------------------------------- builders
def p(content: str, para_id: str | None = None) -> str:
    attr = f' w14:paraId="{para_id}"' if para_id else ""
    return f"<w:p{attr}>{content}</w:p>"


def r(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def start(cid: int) -> str:
    return f'<w:commentRangeStart w:id="{cid}"/>'


def end(cid: int) -> str:
    return f'<w:commentRangeEnd w:id="{cid}"/>'


def ref(cid: int) -> str:
    return f'<w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="{cid}"/></w:r>'


def comment(
    cid: int, author: str, *paragraphs: tuple[str, str | None], date: str = "2024-01-02T03:04:05Z"
) -> str:
    """A ``w:comment`` whose paragraphs are (text, paraId) pairs, each opening with an annotationRef."""
    body = "".join(p("<w:r><w:annotationRef/></w:r>" + r(text), para_id) for text, para_id in paragraphs)
    attrs = f'w:id="{cid}" w:author="{author}" w:initials="{author[:1]}" w:date="{date}"'
    return f"<w:comment {attrs}>{body}</w:comment>"


def comment_ex(para_id: str, parent: str | None = None, done: bool = False) -> str:
    parent_attr = f' w15:paraIdParent="{parent}"' if parent else ""
    return f'<w15:commentEx w15:paraId="{para_id}"{parent_attr} w15:done="{int(done)}"/>'


def build(
    body: str,
    comments: str | None = None,
    extended: str | None = None,
    comments_name: str = "word/comments.xml",
    header: str | None = None,
) -> DocxReviewer:
    """A real package: python-docx's default template with our body and comment parts.

    Parts are added with relationships from the main part, as Word does; ``comments_name`` lets a
    test put the comments part where no fixed path would find it.
    """
    members = template_parts()
    members["word/document.xml"] = (
        f"<w:document {NSDECL}><w:body>{body}<w:sectPr/></w:body></w:document>".encode()
    )
    rels = etree.fromstring(members["word/_rels/document.xml.rels"])
    types = etree.fromstring(members["[Content_Types].xml"])

    def add(name: str, xml: str, rel_type: str, content_type: str) -> None:
        members[name] = xml.encode()
        target = name.removeprefix("word/")
        etree.SubElement(
            rels, f"{{{PR_NS}}}Relationship", Id=f"rIdT{len(rels)}", Type=rel_type, Target=target
        )
        etree.SubElement(types, f"{{{CT_NS}}}Override", PartName="/" + name, ContentType=content_type)

    if comments is not None:
        add(comments_name, f"<w:comments {NSDECL}>{comments}</w:comments>", REL_COMMENTS, CT_COMMENTS)
    if extended is not None:
        add(
            "word/commentsExtended.xml",
            f"<w15:commentsEx {NSDECL}>{extended}</w15:commentsEx>",
            REL_EXTENDED,
            CT_EXTENDED,
        )
    if header is not None:
        add("word/header1.xml", f"<w:hdr {NSDECL}>{header}</w:hdr>", REL_HEADER, CT_HEADER)
    members["word/_rels/document.xml.rels"] = etree.tostring(rels, xml_declaration=True, encoding="UTF-8")
    members["[Content_Types].xml"] = etree.tostring(types, xml_declaration=True, encoding="UTF-8")
    return DocxReviewer.from_bytes(zip_parts(members))


def read(reviewer: DocxReviewer) -> list[dict[str, Any]]:
    return list_comments(reviewer.document, reviewer.snapshot())


def block_ids(reviewer: DocxReviewer) -> list[str]:
    return [b.id for b in reviewer.snapshot().blocks]


# ----------------------------------------------------------------- unit tests
def test_python_docx_comment_reads_as_contract_dict(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("Preamble.")
    para = document.add_paragraph("The supplier delivers the goods on time.")
    document.add_comment(para.runs, text="Is 'on time' defined?", author="Ann Lawyer", initials="AL")
    path = tmp_path / "commented.docx"
    document.save(path)
    reviewer = DocxReviewer.open(path)

    comments = read(reviewer)

    assert comments == [
        {
            "id": "0",
            "author": "Ann Lawyer",
            "text": "Is 'on time' defined?",
            "resolved": False,
            "blockId": block_ids(reviewer)[1],
            "quote": "The supplier delivers the goods on time.",
            "replies": [],
        }
    ]


def test_replies_thread_flat_under_root_and_resolved_comes_from_done() -> None:
    body = p(r("Intro ") + start(1) + r("the cap") + end(1) + ref(1) + r(" applies."))
    body += p(start(2) + r("Second clause") + end(2) + ref(2))
    comments = (
        comment(1, "Ann", ("Why this cap?", "00000001"))
        + comment(3, "Bob", ("Market standard.", "00000003"))
        + comment(4, "Cy", ("Agree with Bob.", "00000004"))
        + comment(2, "Dee", ("No entry in commentsExtended.", "00000002"))
    )
    extended = (
        comment_ex("00000001", done=True)
        + comment_ex("00000003", parent="00000001")
        + comment_ex("00000004", parent="00000003")  # a reply to a reply
    )
    reviewer = build(body, comments, extended)

    result = read(reviewer)

    assert [c["id"] for c in result] == ["1", "2"]
    first, second = result
    assert first["resolved"] is True
    assert first["quote"] == "the cap"
    assert first["replies"] == [
        {"id": "3", "author": "Bob", "text": "Market standard."},
        {"id": "4", "author": "Cy", "text": "Agree with Bob."},
    ]
    assert second["resolved"] is False and second["replies"] == []
    records = {rec.id: rec for rec in comment_records(reviewer.document)}
    assert records["4"].parent_id == "3" and records["4"].thread_id == "1"
    assert records["3"].parent_id == "1" and records["1"].parent_id is None
    assert records["1"].date == "2024-01-02T03:04:05Z" and records["1"].initials == "A"
    assert records["1"].extended is not None and records["2"].extended is None


def test_threading_keys_on_the_last_paragraph_of_a_comment() -> None:
    body = p(start(7) + r("Text") + end(7) + ref(7)) + p(start(8) + r("More") + end(8) + ref(8))
    comments = comment(7, "Ann", ("First paragraph.", "0000AA01"), ("Second paragraph.", "0000AA02"))
    comments += comment(8, "Bob", ("Reply.", "0000BB01"))
    # the entry for comment 7 names its last paragraph; the reply points at that paraId too
    extended = comment_ex("0000AA02", done=True) + comment_ex("0000BB01", parent="0000aa02")
    reviewer = build(body, comments, extended)

    [only] = read(reviewer)

    assert only["text"] == "First paragraph.\nSecond paragraph."
    assert only["resolved"] is True
    assert only["replies"] == [{"id": "8", "author": "Bob", "text": "Reply."}]
    record = comment_records(reviewer.document)[0]
    assert record.para_ids == ("0000AA01", "0000AA02") and record.para_id == "0000AA02"


def test_quote_spans_paragraphs_and_is_clean_text() -> None:
    deleted = '<w:del w:id="90" w:author="X"><w:r><w:delText>old </w:delText></w:r></w:del>'
    inserted = '<w:ins w:id="91" w:author="X"><w:r><w:t>new </w:t></w:r></w:ins>'
    body = p(r("Keep ") + start(1) + r("tail of one ") + deleted + inserted + r("end."))
    body += p(r("Head of two") + end(1) + ref(1) + r(" rest."))
    reviewer = build(body, comment(1, "Ann", ("Spans two.", None)))

    [only] = read(reviewer)

    assert only["quote"] == "tail of one new end.\nHead of two"
    assert only["blockId"] == block_ids(reviewer)[0]


def test_reference_only_and_unanchored_comments() -> None:
    body = p(r("First.")) + p(r("Point comment here.") + ref(5))
    comments = comment(9, "Ann", ("Nowhere.", None)) + comment(5, "Bob", ("Point.", None))
    reviewer = build(body, comments)

    point, nowhere = read(reviewer)

    assert point["id"] == "5" and point["blockId"] == block_ids(reviewer)[1] and point["quote"] == ""
    assert nowhere["id"] == "9" and nowhere["blockId"] is None and nowhere["quote"] == ""


def test_order_is_document_order_of_anchors_then_id() -> None:
    body = p(start(20) + r("Alpha") + end(20) + ref(20)) + p(start(3) + r("Beta") + end(3) + ref(3))
    comments = "".join(comment(i, "Ann", (f"c{i}", None)) for i in (3, 20, 11, 4))
    reviewer = build(body, comments)

    assert [c["id"] for c in read(reviewer)] == ["20", "3", "4", "11"]


def test_range_opening_between_paragraphs_belongs_to_the_next_block() -> None:
    body = p(r("Before.")) + start(1) + p(r("Whole paragraph.")) + end(1) + p(ref(1))
    reviewer = build(body, comment(1, "Ann", ("Body-level markers.", None)))

    [only] = read(reviewer)

    assert only["blockId"] == block_ids(reviewer)[1]
    assert only["quote"] == "Whole paragraph."


def test_comment_in_hidden_row_reveals_no_text() -> None:
    hidden_row = (
        "<w:tr><w:trPr><w:hidden/></w:trPr><w:tc>"
        + p(start(1) + r("Secret instructions") + end(1) + ref(1))
        + "</w:tc></w:tr>"
    )
    visible_row = "<w:tr><w:tc>" + p(r("Visible cell")) + "</w:tc></w:tr>"
    body = "<w:tbl>" + hidden_row + visible_row + "</w:tbl>"
    reviewer = build(body, comment(1, "Ann", ("On a hidden row.", None)))

    [only] = read(reviewer)

    assert only["blockId"] is None
    assert only["quote"] == ""


def test_comment_in_table_cell() -> None:
    body = "<w:tbl><w:tr><w:tc>" + p(start(2) + r("R1C1") + end(2) + ref(2)) + "</w:tc></w:tr></w:tbl>"
    reviewer = build(body, comment(2, "Ann", ("Cell.", None)))

    [only] = read(reviewer)

    assert only["quote"] == "R1C1" and only["blockId"] == block_ids(reviewer)[0]


def test_parts_are_found_through_relationships_not_paths() -> None:
    body = p(start(1) + r("Anchored") + end(1) + ref(1))
    reviewer = build(
        body, comment(1, "Ann", ("Odd part name.", None)), comments_name="word/remarks/notes1.xml"
    )

    assert [c["text"] for c in read(reviewer)] == ["Odd part name."]


def test_document_without_comments_part_lists_nothing() -> None:
    reviewer = build(p(r("No comments.")))

    assert read(reviewer) == []
    assert comment_records(reviewer.document) == []


def test_malformed_threads_never_lose_a_comment() -> None:
    body = "".join(p(start(i) + r(f"t{i}") + end(i) + ref(i)) for i in (1, 2, 3))
    comments = comment(1, "A", ("one", "00000011")) + comment(2, "B", ("two", "00000012"))
    comments += comment(3, "C", ("three", "00000013")) + comment(3, "Dup", ("duplicate id", "00000014"))
    extended = (
        comment_ex("00000011", parent="00000012")  # 1 -> 2 -> 1: a cycle
        + comment_ex("00000012", parent="00000011")
        + comment_ex("00000013", parent="0BADBAD0")  # parent that does not exist
    )
    reviewer = build(body, comments, extended)

    result = read(reviewer)

    assert [(c["id"], c["author"]) for c in result] == [("1", "A"), ("2", "B"), ("3", "C")]
    assert all(c["replies"] == [] for c in result)


def test_comment_anchored_in_a_header_has_no_block() -> None:
    header = p(start(4) + r("Header text") + end(4) + ref(4))
    reviewer = build(p(r("Body.")), comment(4, "Ann", ("In the header.", None)), header=header)

    [only] = read(reviewer)
    record = comment_records(reviewer.document)[0]

    assert only["blockId"] is None and only["quote"] == ""
    assert record.anchor_part == "word/header1.xml" and record.range_start is not None


def test_quote_follows_field_state_carried_from_an_earlier_paragraph() -> None:
    """A field instruction running into the next paragraph hides that paragraph's leading text."""
    begin = '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>REF x</w:instrText></w:r>'
    first = p(start(1) + r("Lead ") + begin)
    second = p(
        r("still instruction ")
        + '<w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        + r("Result")
        + end(1)
        + '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
        + ref(1)
        + r(" tail")
    )
    reviewer = build(first + second, comment(1, "Ann", ("On a field result.", None)))

    [only] = read(reviewer)

    assert reviewer.snapshot().blocks[1].text == "Result tail"
    assert only["quote"] == "Lead \nResult" and only["blockId"] == block_ids(reviewer)[0]


def test_hidden_and_deleted_text_is_left_out_of_comment_text() -> None:
    hidden = "<w:r><w:rPr><w:vanish/></w:rPr><w:t>invisible</w:t></w:r>"
    struck = '<w:del w:id="50" w:author="X"><w:r><w:delText>gone</w:delText></w:r></w:del>'
    comments = (
        f'<w:comment w:id="1" w:author="Ann">{p(r("Shown ") + hidden + struck + r("text."))}</w:comment>'
    )
    reviewer = build(p(start(1) + r("x") + end(1) + ref(1)), comments)

    assert read(reviewer)[0]["text"] == "Shown text."


# ----------------------------------------------------------------- corpus
@pytest.mark.corpus
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_corpus_comments_read_in_contract_shape(path: Path) -> None:
    reviewer = open_or_skip(path)
    ids = {b.id for b in reviewer.snapshot().blocks}

    comments = read(reviewer)

    for c in comments:
        assert list(c) == ["id", "author", "text", "resolved", "blockId", "quote", "replies"]
        assert c["id"].isdigit() and isinstance(c["resolved"], bool)
        assert c["blockId"] is None or c["blockId"] in ids
        assert isinstance(c["quote"], str) and isinstance(c["text"], str)
        for reply in c["replies"]:
            assert list(reply) == ["id", "author", "text"]


@pytest.mark.corpus
@pytest.mark.parametrize("name", files_counting("comments"))
def test_corpus_comment_counts_match_manifest(name: str) -> None:
    row = manifest()[name]
    reviewer = open_or_skip(PUBLIC / name)

    records = comment_records(reviewer.document)
    listed = read(reviewer)

    assert len(records) == int(row["comments"])
    assert sum(1 for rec in records if rec.parent_id is not None) == int(row["comment_replies"])
    assert sum(1 for rec in records if rec.done) == int(row["comments_resolved"])
    assert len(listed) + sum(len(c["replies"]) for c in listed) == len(records)


# ----------------------------------------------------------------- LibreOffice
#: Where LibreOffice 7.4 reads a file differently and LibreOffice is the one that is wrong.
LO_TEXT_DIVERGENCES = {
    # comment 1's range opens at body level before a content control (w:displacedByCustomXml):
    # LibreOffice drops the comment's text and anchor; Word shows both
    "docx4j_databinding-invoice.docx",
}


@pytest.fixture(scope="session")
def lo_comment_readings() -> dict[str, dict[str, Any] | None]:
    """LibreOffice's reading of every commented corpus file, two soffice processes at a time."""
    return lo_plain_readings(files_counting("comments"))


def _lo_comments(reading: dict[str, Any]) -> list[dict[str, Any]]:
    """LibreOffice's comments, with its duplicate reports of point (range-less) comments removed."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for c in reading["comments"]:
        key = (c["author"], c["text"], c["resolved"], c["anchor_text"])
        if c["anchor_text"] == "" and key in seen:
            continue
        seen.add(key)
        out.append(c)
    return out


@pytest.mark.libreoffice
@pytest.mark.corpus
@pytest.mark.parametrize("name", files_counting("comments"))
def test_corpus_comments_agree_with_libreoffice(name: str, lo_comment_readings: dict[str, Any]) -> None:
    reading = lo_comment_readings[name]
    if reading is None or not reading.get("load_ok"):
        pytest.skip(f"LibreOffice could not load {name}")
    reviewer = open_or_skip(PUBLIC / name)
    ours = read(reviewer)
    flat = [(c["author"], c["text"], c["resolved"]) for c in ours]
    flat += [(rep["author"], rep["text"]) for c in ours for rep in c["replies"]]  # type: ignore[misc]
    theirs = _lo_comments(reading)

    # LibreOffice does not expose threads: replies come back as comments of their own
    assert len(flat) == len(theirs)
    assert Counter(f[0] for f in flat) == Counter(c["author"] for c in theirs)
    if name in LO_TEXT_DIVERGENCES:
        return
    assert Counter((f[0], f[1]) for f in flat) == Counter((c["author"], c["text"]) for c in theirs)
    lo_resolved = {(c["author"], c["text"]): c["resolved"] for c in theirs}
    for c in ours:
        assert c["resolved"] == lo_resolved[(c["author"], c["text"])]
    anchors: dict[tuple[str, str], set[str]] = {}
    for c in theirs:
        anchors.setdefault((c["author"], c["text"]), set()).add(c["anchor_text"])
    for c in ours:
        lo_quotes = anchors[(c["author"], c["text"])] - {""}
        if lo_quotes:
            assert c["quote"] in lo_quotes
