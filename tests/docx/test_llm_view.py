"""The LLM view (``reviewer read``): Markdown and JSON renderings of the main story with changes and comments.

Small documents are built with python-docx plus hand-written revision/comment markup, so each test
states exactly the OOXML it reads; the corpus test checks the view's one hard promise on real files:
a block's text and insert segments join to its clean text, with the same block ids and indexes.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path

import docx
import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.llm_view import to_json, to_markdown
from tests.conftest import CORPUS, corpus_files

CORPUS_FILES = corpus_files("public")
LARGE = CORPUS / "public" / "eigenpal_issue-68-large.docx"

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W14_NS = "http://schemas.microsoft.com/office/word/2010/wordml"
W15_NS = "http://schemas.microsoft.com/office/word/2012/wordml"
INS = (
    '<w:ins w:id="{id}" w:author="Ann" w:date="2024-01-02T00:00:00Z">'
    '<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:ins>'
)
DEL = (
    '<w:del w:id="{id}" w:author="Bob" w:date="2024-01-03T00:00:00Z">'
    '<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r></w:del>'
)


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _add_p(document: docx.document.Document, inner: str, ppr: str = "") -> None:
    """Append a raw ``w:p`` (before the section properties) so tests control the exact markup."""
    p = parse_xml(f"<w:p {nsdecls('w')}>{ppr}{inner}</w:p>")
    document.element.body.sectPr.addprevious(p)


def _open(document: docx.document.Document, tmp_path: Path, name: str = "t.docx") -> DocxReviewer:
    path = tmp_path / name
    document.save(str(path))
    return DocxReviewer.open(path)


def _thread_package(data: bytes, threads: dict[str, str | None], done: set[str]) -> bytes:
    """Add ``commentsExtended.xml`` to a python-docx package: reply links and resolved flags.

    ``threads`` maps comment id to its parent id (None for a root); Word keys both on the
    ``w14:paraId`` of each comment's last paragraph, which this also allocates.
    """
    from lxml import etree

    src = zipfile.ZipFile(io.BytesIO(data))
    comments = etree.fromstring(src.read("word/comments.xml"))
    para_of: dict[str, str] = {}
    for n, comment in enumerate(comments.iter(f"{{{W_NS}}}comment")):
        cid = comment.get(f"{{{W_NS}}}id")
        para_of[cid] = f"{0x10000000 + n:08X}"
        comment.findall(f"{{{W_NS}}}p")[-1].set(f"{{{W14_NS}}}paraId", para_of[cid])
    entries = []
    for cid, parent in threads.items():
        attrs = f'w15:paraId="{para_of[cid]}" w15:done="{1 if cid in done else 0}"'
        if parent is not None:
            attrs += f' w15:paraIdParent="{para_of[parent]}"'
        entries.append(f"<w15:commentEx {attrs}/>")
    extended = f'<w15:commentsEx xmlns:w15="{W15_NS}">{"".join(entries)}</w15:commentsEx>'
    rels = (
        src.read("word/_rels/document.xml.rels")
        .decode()
        .replace(
            "</Relationships>",
            '<Relationship Id="rIdX1" Type="http://schemas.microsoft.com/office/2011/relationships/'
            'commentsExtended" Target="commentsExtended.xml"/></Relationships>',
        )
    )
    types = (
        src.read("[Content_Types].xml")
        .decode()
        .replace(
            "</Types>",
            '<Override PartName="/word/commentsExtended.xml" ContentType="application/vnd.openxmlformats-'
            'officedocument.wordprocessingml.commentsExtended+xml"/></Types>',
        )
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename == "word/comments.xml":
                body = etree.tostring(comments, xml_declaration=True, encoding="UTF-8", standalone=True)
            elif info.filename == "word/_rels/document.xml.rels":
                body = rels.encode()
            elif info.filename == "[Content_Types].xml":
                body = types.encode()
            dst.writestr(info, body)
        dst.writestr("word/commentsExtended.xml", extended)
    return out.getvalue()


@pytest.fixture()
def contract(tmp_path: Path) -> DocxReviewer:
    """A small contract: heading, numbered clauses, a redline, a comment thread, a blank line, a table."""
    d = docx.Document()
    d.add_heading("Definitions", 1)
    d.add_paragraph("The Supplier shall deliver the goods.", style="List Number")
    _add_p(
        d,
        _run("Payment within ") + DEL.format(id=1, text="30") + INS.format(id=2, text="60") + _run(" days."),
    )
    d.add_paragraph("")
    clause = d.add_paragraph("Notices in writing.", style="List Number")
    d.add_comment(clause.runs[0], text="Email too?", author="Ann", initials="A")
    d.add_comment(clause.runs[0], text="Agreed.\n\nAdd it.", author="Bob", initials="B")
    table = d.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "Party A"
    table.cell(0, 1).text = "Party B | Ltd"
    table.cell(1, 1).text = "Company B"
    buffer = io.BytesIO()
    d.save(buffer)
    data = _thread_package(buffer.getvalue(), {"0": None, "1": "0"}, done={"0"})
    path = tmp_path / "contract.docx"
    path.write_bytes(data)
    return DocxReviewer.open(path)


EXPECTED_MARKDOWN = (
    "<!-- b:0 id:seq-0001 --># Definitions\n"
    "<!-- b:1 id:seq-0002 -->1. The Supplier shall deliver the goods.\n"
    "<!-- b:2 id:seq-0003 -->Payment within {-30-}{+60+} days.\n"
    "<!-- b:3 id:seq-0004 -->2. Notices in writing."
    " [comment #0 (Ann, resolved): Email too? — reply #1 (Bob): Agreed. / Add it.]\n"
    "| <!-- b:4 id:seq-0005 -->Party A | <!-- b:5 id:seq-0006 -->Party B \\| Ltd |\n"
    "|  | <!-- b:6 id:seq-0007 -->Company B |\n"
)


def test_markdown_of_small_contract_is_exact(contract: DocxReviewer) -> None:
    assert to_markdown(contract) == EXPECTED_MARKDOWN


def test_markers_match_read_document_blocks(contract: DocxReviewer) -> None:
    """b:N counts content blocks only, so index and id name the block read_document shows."""
    content = contract.snapshot().content_blocks()
    body = to_json(contract)["body"]
    assert [(b["blockIndex"], b["blockId"]) for b in body] == [(i, b.id) for i, b in enumerate(content)]
    assert all(b.normalized for b in content)


def test_json_shape(contract: DocxReviewer) -> None:
    result = to_json(contract)
    assert set(result) == {"path", "body", "comments"}
    assert result["path"].endswith("contract.docx")
    json.dumps(result)  # plain JSON types only
    heading, item, redline = result["body"][:3]
    assert heading == {
        "type": "heading",
        "blockIndex": 0,
        "blockId": "seq-0001",
        "level": 1,
        "segments": [{"type": "text", "value": "Definitions"}],
    }
    assert item["type"] == "listItem" and item["label"] == "1."
    assert redline["segments"] == [
        {"type": "text", "value": "Payment within "},
        {"type": "delete", "text": "30", "author": "Bob", "date": "2024-01-03T00:00:00Z"},
        {"type": "insert", "text": "60", "author": "Ann", "date": "2024-01-02T00:00:00Z"},
        {"type": "text", "value": " days."},
    ]
    clause = result["body"][3]
    assert clause["segments"][-1] == {"type": "comment", "id": "0"}
    assert [s for s in clause["segments"] if s["type"] == "comment"] == [{"type": "comment", "id": "0"}]
    cell = result["body"][5]
    assert cell["type"] == "paragraph"
    assert cell["table"] == {
        "outerTableIndex": 0,
        "tableIndex": 0,
        "rowIndex": 0,
        "cellIndex": 1,
        "gridColumnIndex": 1,
        "columnSpan": 1,
        "rowSpan": 1,
        "paragraphIndex": 0,
    }
    assert cell["segments"] == [{"type": "text", "value": "Party B | Ltd"}]  # escaping is Markdown-only
    (thread,) = result["comments"]
    assert thread == {
        "id": "0",
        "author": "Ann",
        "date": thread["date"],
        "text": "Email too?",
        "resolved": True,
        "parentId": None,
        "blockId": "seq-0004",
        "blockIndex": 3,
        "replies": [
            {
                "id": "1",
                "author": "Bob",
                "date": thread["replies"][0]["date"],
                "text": "Agreed.\n\nAdd it.",
                "resolved": False,
                "parentId": "0",
            }
        ],
    }


def test_accepts_a_word_document(contract: DocxReviewer) -> None:
    assert to_markdown(contract.document) == to_markdown(contract)


def test_deleted_paragraph_is_shown_without_an_index(tmp_path: Path) -> None:
    """A wholly deleted paragraph is no content block (no b:N) but the reviewer still sees the deletion."""
    d = docx.Document()
    d.add_paragraph("Kept.")
    undated = '<w:del w:id="5" w:author="Bob"><w:r><w:delText>Removed clause.</w:delText></w:r></w:del>'
    _add_p(d, undated, ppr='<w:pPr><w:rPr><w:del w:id="6" w:author="Bob"/></w:rPr></w:pPr>')
    d.add_paragraph("")
    d.add_paragraph("After.")
    reviewer = _open(d, tmp_path)
    assert to_markdown(reviewer) == (
        "<!-- b:0 id:seq-0001 -->Kept.\n"
        "<!-- id:blank-0001 -->{-Removed clause.-}\n"
        "<!-- b:1 id:seq-0002 -->After.\n"
    )
    deleted = to_json(reviewer)["body"][1]
    assert deleted["blockIndex"] is None and deleted["paragraphMark"] == "deleted"
    assert deleted["segments"] == [
        {"type": "delete", "text": "Removed clause.", "author": "Bob", "date": None}
    ]


def test_heading_levels_cap_at_six_and_numbered_headings_show_their_number(tmp_path: Path) -> None:
    d = docx.Document()
    _add_p(d, _run("Deep"), ppr='<w:pPr><w:outlineLvl w:val="7"/></w:pPr>')
    d.add_heading("Plain heading", 2)
    reviewer = _open(d, tmp_path)
    lines = to_markdown(reviewer).splitlines()
    assert lines[0].endswith("-->###### Deep")
    assert lines[1].endswith("-->## Plain heading")  # its displayLabel (style id) is not a number
    assert to_json(reviewer)["body"][0]["level"] == 8


def test_moves_hidden_text_fields_and_notes(tmp_path: Path) -> None:
    d = docx.Document()
    move_to = (
        '<w:moveTo w:id="1" w:author="Ann" w:date="2024-01-01T00:00:00Z">' + _run("moved") + "</w:moveTo>"
    )
    _add_p(d, _run("A ") + move_to + _run(" here."))
    hidden = "<w:r><w:rPr><w:vanish/></w:rPr><w:t>secret</w:t></w:r>"
    deleted_hidden = (
        '<w:del w:id="3" w:author="Bob"><w:r><w:rPr><w:vanish/></w:rPr><w:delText>x</w:delText></w:r></w:del>'
    )
    field = (
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
    )
    note = '<w:r><w:footnoteReference w:id="2"/></w:r>'
    _add_p(d, _run("Page ") + field + hidden + deleted_hidden + _run(" end") + note)
    move_from = '<w:moveFrom w:id="4" w:author="Ann"><w:r><w:t>moved</w:t></w:r></w:moveFrom>'
    _add_p(d, move_from)
    reviewer = _open(d, tmp_path)
    assert to_markdown(reviewer) == (
        "<!-- b:0 id:seq-0001 -->A {+moved+} here.\n"
        "<!-- b:1 id:seq-0002 -->Page 7 end[^1]\n"
        "<!-- id:blank-0001 -->{-moved-}\n"
    )
    body = to_json(reviewer)["body"]
    assert body[0]["segments"][1] == {
        "type": "insert",
        "text": "moved",
        "author": "Ann",
        "date": "2024-01-01T00:00:00Z",
        "move": True,
    }
    assert body[2]["segments"][0]["move"] is True


def test_cell_line_breaks_and_several_paragraphs(tmp_path: Path) -> None:
    d = docx.Document()
    table = d.add_table(rows=1, cols=1)
    cell = table.cell(0, 0)
    cell.paragraphs[0].add_run("one").add_break()
    cell.paragraphs[0].add_run("two")
    cell.add_paragraph("")
    cell.add_paragraph("three")
    d.add_table(rows=1, cols=1)  # an all-blank table renders nothing
    d.add_paragraph("after")
    reviewer = _open(d, tmp_path)
    assert to_markdown(reviewer) == (
        "| <!-- b:0 id:seq-0001 -->one<br>two<br><!-- b:1 id:seq-0002 -->three |\n"
        "<!-- b:2 id:seq-0003 -->after\n"
    )


def test_comment_inside_a_deletion_and_a_reply_anchored_alone(tmp_path: Path) -> None:
    d = docx.Document()
    first = d.add_paragraph("Root anchor.")
    d.add_comment(first.runs[0], text="Root", author="Ann")
    second = d.add_paragraph("Only the reply is here.")
    d.add_comment(second.runs[0], text="Reply", author="Bob")
    # the root's markers are removed from the body: only its reply stays anchored
    body = d.element.body
    for tag in ("commentRangeStart", "commentRangeEnd"):
        body.find(f".//{{{W_NS}}}{tag}[@{{{W_NS}}}id='0']").getparent().remove(
            body.find(f".//{{{W_NS}}}{tag}[@{{{W_NS}}}id='0']")
        )
    ref = body.find(f".//{{{W_NS}}}commentReference[@{{{W_NS}}}id='0']").getparent()
    ref.getparent().remove(ref)
    _add_p(
        d,
        _run("Cut ") + '<w:del w:id="9" w:author="Bob"><w:r><w:delText>this</w:delText></w:r>'
        '<w:commentRangeEnd w:id="7"/></w:del>',
    )
    buffer = io.BytesIO()
    d.save(buffer)
    path = tmp_path / "c.docx"
    path.write_bytes(_thread_package(buffer.getvalue(), {"0": None, "1": "0"}, done=set()))
    reviewer = DocxReviewer.open(path)
    markdown = to_markdown(reviewer)
    assert "<!-- b:0 id:seq-0001 -->Root anchor.\n" in markdown
    assert "Only the reply is here. [comment #0 (Ann): Root — reply #1 (Bob): Reply]" in markdown
    assert "<!-- b:2 id:seq-0003 -->Cut {-this-}\n" in markdown  # id 7 has no w:comment: dropped
    (thread,) = to_json(reviewer)["comments"]
    assert thread["blockIndex"] == 1 and [r["id"] for r in thread["replies"]] == ["1"]


def test_empty_document() -> None:
    d = docx.Document()
    buffer = io.BytesIO()
    d.save(buffer)
    reviewer = DocxReviewer.from_bytes(buffer.getvalue())
    assert to_markdown(reviewer) == ""
    assert to_json(reviewer) == {"path": None, "body": [], "comments": []}


@pytest.mark.corpus
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_accepted_view_equals_clean_text(path: Path) -> None:
    """Text + insert segments of every content block join to its clean text; markers cover every block."""
    reviewer = DocxReviewer.open(path)
    content = reviewer.snapshot().content_blocks()
    result = to_json(reviewer)
    json.dumps(result)
    indexed = [b for b in result["body"] if b["blockIndex"] is not None]
    assert [b["blockId"] for b in indexed] == [b.id for b in content]
    for rendered, block in zip(indexed, content, strict=True):
        accepted = "".join(
            s["value"] if s["type"] == "text" else s["text"]
            for s in rendered["segments"]
            if s["type"] in ("text", "insert")
        )
        assert accepted == block.text, block.id
    markdown = to_markdown(reviewer)
    for index, block in enumerate(content):
        assert f"<!-- b:{index} id:{block.id} -->" in markdown
    known = {c["id"] for c in result["comments"]}
    assert {s["id"] for b in result["body"] for s in b["segments"] if s["type"] == "comment"} <= known


@pytest.mark.corpus
@pytest.mark.skipif(not LARGE.is_file(), reason="corpus not available")
def test_markdown_of_a_337_page_document_is_fast() -> None:
    reviewer = DocxReviewer.open(LARGE)
    started = time.perf_counter()
    markdown = to_markdown(reviewer)  # includes building the snapshot
    elapsed = time.perf_counter() - started
    assert markdown.count("<!-- b:") == len(reviewer.snapshot().content_blocks())
    assert elapsed < 2.0, f"to_markdown took {elapsed:.2f} s"


def test_comment_ending_inside_a_deletion_and_a_flat_thread(tmp_path: Path) -> None:
    """A range that ends inside deleted text still shows; a reply to a reply sits under the root."""
    d = docx.Document()
    p = d.add_paragraph("Keep ")
    cut = p.add_run("gone")
    for text, author in (("Why cut?", "Ann"), ("Too long.", "Bob"), ("Fine.", "Ann")):
        d.add_comment(cut, text=text, author=author)
    deletion = parse_xml(f'<w:del {nsdecls("w")} w:id="50" w:author="Bob"/>')
    cut._r.addprevious(deletion)
    deletion.append(cut._r)
    cut._r.find(f"{{{W_NS}}}t").tag = f"{{{W_NS}}}delText"
    for end in p._p.findall(f"{{{W_NS}}}commentRangeEnd"):
        deletion.append(end)
    p.add_run(" end.")
    buffer = io.BytesIO()
    d.save(buffer)
    path = tmp_path / "thread.docx"
    path.write_bytes(_thread_package(buffer.getvalue(), {"0": None, "1": "0", "2": "1"}, done=set()))
    reviewer = DocxReviewer.open(path)
    assert to_markdown(reviewer) == (
        "<!-- b:0 id:seq-0001 -->Keep {-gone-} [comment #0 (Ann): Why cut?"
        " — reply #1 (Bob): Too long. — reply #2 (Ann): Fine.] end.\n"
    )
    result = to_json(reviewer)
    assert [s["type"] for s in result["body"][0]["segments"]] == ["text", "delete", "comment", "text"]
    (thread,) = result["comments"]
    assert [(r["id"], r["parentId"]) for r in thread["replies"]] == [("1", "0"), ("2", "1")]
