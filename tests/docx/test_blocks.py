"""Contract §2 rules for the block model: text, ids, kinds, labels, tables, hidden content."""

from __future__ import annotations

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.hashing import block_text_hash
from tests.docx_factory import heading_styles, make_docx, p


def blocks_of(body: str, **parts: str):
    return DocxReviewer.from_bytes(make_docx(body, **parts)).snapshot().blocks


def test_clean_text_keeps_insertions_drops_deletions_and_hidden_text():
    runs = (
        '<w:r><w:t xml:space="preserve">Pay </w:t></w:r>'
        '<w:del w:id="1" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:delText>30</w:delText></w:r></w:del>'
        '<w:ins w:id="2" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r><w:t>60</w:t></w:r></w:ins>'
        "<w:r><w:rPr><w:vanish/></w:rPr><w:t>SECRET</w:t></w:r>"
        '<w:r><w:t xml:space="preserve"> days</w:t></w:r>'
    )
    (block,) = blocks_of(p(runs=runs))
    assert block.text == "Pay 60 days"


def test_field_result_reads_as_text_and_instruction_does_not():
    runs = (
        '<w:r><w:t xml:space="preserve">Page </w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>7</w:t></w:r>'
        '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
        '<w:fldSimple w:instr=" NUMPAGES "><w:r><w:t>9</w:t></w:r></w:fldSimple>'
    )
    (block,) = blocks_of(p(runs=runs))
    assert block.text == "Page 79"


def test_note_references_are_markers_numbered_in_reading_order_and_published_as_boundaries():
    ref = '<w:r><w:footnoteReference w:id="{}"/></w:r>'
    body = p(runs="<w:r><w:t>A</w:t></w:r>" + ref.format(5)) + p(
        runs="<w:r><w:t>B</w:t></w:r>" + ref.format(2) + '<w:r><w:endnoteReference w:id="1"/></w:r>'
    )
    first, second = blocks_of(body)
    assert first.text == "A[^1]" and second.text == "B[^2][^e1]"
    assert second.structural_boundaries == [
        {"type": "noteReference", "noteType": "footnote", "offset": 1, "length": 4},
        {"type": "noteReference", "noteType": "endnote", "offset": 5, "length": 5},
    ]


def test_page_break_is_a_boundary_not_text():
    (block,) = blocks_of(p(runs='<w:r><w:t>A</w:t><w:br w:type="page"/><w:t>B</w:t></w:r>'))
    assert block.text == "AB"
    assert block.structural_boundaries == [{"type": "pageBreak", "offset": 1}]


def test_ids_paraid_then_seq_and_blank_sequences_are_separate():
    body = (
        p("One", para_id="1A2B3C4D")
        + p("Two")
        + p("")
        + p("Three", para_id="1A2B3C4D")  # duplicate paraId: positional
        + p("")
        + p("Four", para_id="seq-0009")  # reserved-looking paraId is not used
    )
    ids = [b.id for b in blocks_of(body)]
    assert ids == ["1A2B3C4D", "seq-0002", "blank-0001", "seq-0003", "blank-0002", "seq-0004"]


def test_paraid_above_31_bits_is_folded_into_range():
    (block,) = blocks_of(p("x", para_id="8000000A"))
    assert block.id == "0000000A"


def test_kinds_heading_levels_and_labels():
    numbering = (
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
        '<w:lvlText w:val="%1."/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/>'
        '<w:lvlText w:val="(%2)"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    )
    num = '<w:numPr><w:ilvl w:val="{}"/><w:numId w:val="{}"/></w:numPr>'
    body = (
        p("Definitions", ppr='<w:pStyle w:val="Heading1"/>' + num.format(0, 1))
        + p("Scope", ppr='<w:pStyle w:val="Heading2"/>')
        + p("first item", ppr=num.format(1, 1))
        + p("cancelled", ppr=num.format(0, 0))
        + p("outline para", ppr='<w:outlineLvl w:val="3"/>')
        + p("body text heading style", ppr='<w:pStyle w:val="Heading1"/><w:outlineLvl w:val="9"/>')
        + p("Plain")
    )
    blocks = blocks_of(body, styles=heading_styles(), numbering=numbering)
    summary = [(b.kind, b.heading_level, b.display_label) for b in blocks]
    assert summary == [
        ("heading", 1, "1."),
        ("heading", 2, "Heading2"),  # an unnumbered heading shows its style id
        ("listItem", None, "(a)"),
        ("paragraph", None, None),
        ("heading", 4, "Normal"),
        ("paragraph", None, None),
        ("paragraph", None, None),
    ]
    assert blocks[2].stated_numbering == {"kind": "reference", "numId": 1, "ilvl": 1}
    assert blocks[2].list_reference == {"numId": 1, "level": 1}
    assert blocks[3].stated_numbering == {"kind": "none"}
    assert blocks[6].stated_numbering == {"kind": "inherit"}


def test_table_location_merged_cells_and_hidden_rows():
    cell = "<w:tc>{}{}</w:tc>"
    body = (
        "<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>"
        "<w:tr>"
        + cell.format('<w:tcPr><w:gridSpan w:val="2"/></w:tcPr>', p("A"))
        + cell.format('<w:tcPr><w:vMerge w:val="restart"/></w:tcPr>', p("B") + p("B2"))
        + "</w:tr>"
        "<w:tr>"
        + cell.format("", p("C"))
        + cell.format("", p("D"))
        + cell.format("<w:tcPr><w:vMerge/></w:tcPr>", p(""))
        + "</w:tr>"
        "<w:tr><w:trPr><w:hidden/></w:trPr>" + cell.format("", p("INJECTED INSTRUCTIONS")) + "</w:tr>"
        "</w:tbl>" + p("after")
    )
    blocks = blocks_of(body)
    assert "INJECTED INSTRUCTIONS" not in [b.text for b in blocks]
    by_text = {b.text: b.table for b in blocks if b.text}
    assert by_text["A"] == {
        "outerTableIndex": 0,
        "tableIndex": 0,
        "rowIndex": 0,
        "cellIndex": 0,
        "gridColumnIndex": 0,
        "columnSpan": 2,
        "rowSpan": 1,
        "paragraphIndex": 0,
    }
    assert by_text["B2"]["gridColumnIndex"] == 2 and by_text["B2"]["rowSpan"] == 2
    assert by_text["B2"]["paragraphIndex"] == 1
    assert by_text["D"]["rowIndex"] == 1 and by_text["D"]["cellIndex"] == 1
    assert by_text["after"] is None


def test_alt_chunk_is_a_read_only_diagnostic_block():
    blocks = blocks_of(p("before") + '<w:altChunk r:id="rId9"/>' + p("after"))
    diagnostic = blocks[1]
    assert diagnostic.kind == "diagnostic"
    assert diagnostic.id.startswith("opaque-")
    assert diagnostic.text == "[Unsupported w:altChunk content]"
    assert diagnostic.diagnostic == {"type": "opaqueCarrier", "carrier": "altChunk"}
    assert (
        diagnostic.id
        not in DocxReviewer.from_bytes(make_docx(p("x") + '<w:altChunk r:id="rId9"/>')).snapshot().anchors
    )


def test_anchors_count_hash_occurrences_and_echo_the_contract_hash():
    body = p("Same text.") + p("Other") + p("Same   text.")
    snapshot = DocxReviewer.from_bytes(make_docx(body)).snapshot()
    first, _, third = snapshot.blocks
    assert snapshot.anchors[first.id].hash_occurrence_count == 2
    assert snapshot.anchors[third.id].normalized_text == "Same text."
    assert first.text_hash == third.text_hash


def test_direct_formatting_fields():
    ppr = (
        '<w:jc w:val="both"/><w:spacing w:before="120" w:after="240" w:line="360" w:lineRule="auto"/>'
        '<w:ind w:left="720" w:hanging="360"/>'
    )
    (block,) = blocks_of(p("x", ppr=ppr))
    assert block.direct_alignment == "both"
    assert block.direct_spacing == {
        "spaceBefore": 120,
        "spaceAfter": 240,
        "lineSpacing": 360,
        "lineSpacingRule": "auto",
    }
    assert block.direct_indentation == {"indentLeft": 720, "indentFirstLine": -360, "hangingIndent": True}


def test_read_document_returns_content_blocks_in_the_agent_shape():
    reviewer = DocxReviewer.from_bytes(make_docx(p("Hello", para_id="00AB12CD") + p("")))
    assert reviewer.read_document() == [
        {
            "blockId": "00AB12CD",
            "kind": "paragraph",
            "text": "Hello",
            "blockTextHash": block_text_hash("Hello"),
            "statedNumbering": {"kind": "inherit"},
        }
    ]


@pytest.mark.parametrize("text", ["Heading", "Emoji 😀 ok"])
def test_block_hash_matches_contract_vectors(text):
    expected = {"Heading": "h7zrslk", "Emoji 😀 ok": "ha9cay5"}[text]
    (block,) = blocks_of(p(text))
    assert block.text_hash == expected


def test_fast_path_reads_plain_paragraphs_exactly_like_the_full_walker(public_corpus_files):
    """The plain-paragraph fast path is an optimisation only: it must never change a text."""
    from reviewer_app.docx.text import complex_paragraphs, paragraph_text, plain_paragraph
    from reviewer_app.docx.xmlutil import W

    compared = 0
    for path in public_corpus_files:
        body = DocxReviewer.open(path).document.body
        hard = complex_paragraphs(body)
        for para in body.iter(W + "p"):
            if para in hard:
                continue
            fast = plain_paragraph(para)[1]
            if fast is None:
                continue
            assert fast == paragraph_text(para).text, (path.name, fast[:60])
            compared += 1
    assert compared > 15_000  # 17,535 plain paragraphs in the corpus


def test_plain_paragraph_reads_runs_in_hyperlinks_and_insertions_in_reading_order():
    """The one-pass reader finds runs where they sit and inside run containers, in order, and
    gives the paragraph's properties with them: the text the full walker gives."""
    from reviewer_app.docx.text import paragraph_text, plain_paragraph
    from reviewer_app.docx.xmlutil import W

    runs = (
        "<w:bookmarkStart w:id='0' w:name='x'/><w:r><w:t xml:space='preserve'>See </w:t></w:r>"
        "<w:hyperlink w:anchor='x'><w:r><w:t>clause</w:t><w:tab/><w:t>4</w:t></w:r></w:hyperlink>"
        "<w:ins w:id='1' w:author='A' w:date='2024-01-01T00:00:00Z'><w:r><w:br/><w:t>new</w:t></w:r></w:ins>"
        "<w:bookmarkEnd w:id='0'/><w:r><w:cr/><w:t>end</w:t></w:r>"
    )
    body = DocxReviewer.from_bytes(make_docx(p(runs=runs, ppr="<w:pStyle w:val='Title'/>"))).document.body
    para = body.find(W + "p")
    ppr, text = plain_paragraph(para)
    assert text == "See clause\t4\nnew\nend" == paragraph_text(para).text
    assert ppr is not None and ppr.tag == W + "pPr"
    (block,) = blocks_of(p(runs=runs, ppr="<w:pStyle w:val='Title'/>"))
    assert (block.text, block.style_id) == (text, "Title")


def test_plain_paragraph_leaves_a_page_break_to_the_full_walker():
    """A typed break is a structural boundary the fast path cannot publish: it answers None."""
    from reviewer_app.docx.text import plain_paragraph
    from reviewer_app.docx.xmlutil import W

    runs = "<w:r><w:t>one</w:t><w:br w:type='page'/><w:t>two</w:t></w:r>"
    body = DocxReviewer.from_bytes(make_docx(p(runs=runs))).document.body
    assert plain_paragraph(body.find(W + "p"))[1] is None
    (block,) = blocks_of(p(runs=runs))
    assert block.text == "onetwo"
    assert block.structural_boundaries == [{"type": "pageBreak", "offset": 3}]
