"""Contract §3-§4 reads: outline and sections, stories, find_text, incremental snapshots."""

from __future__ import annotations

import pytest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.hashing import text_hash
from reviewer_app.docx.outline import ReadError
from tests.docx_factory import heading_styles, make_docx, p

H = '<w:pStyle w:val="Heading{}"/>'


def contract() -> DocxReviewer:
    body = (
        p("Agreement", para_id="00000001", ppr=H.format(1))
        + p("Intro text.")
        + p("Fees", para_id="00000002", ppr=H.format(2))
        + "".join(p(f"Fee clause {i}.") for i in range(5))
        + p("Late payment", para_id="00000003", ppr=H.format(3))
        + p("Interest accrues.")
        + p("Term", para_id="00000004", ppr=H.format(2))
        + p("Term clause.")
    )
    return DocxReviewer.from_bytes(make_docx(body, styles=heading_styles()))


def test_outline_depth_parents_and_truncation():
    outline = contract().get_outline(max_depth=2)
    assert [(s["text"], s["level"]) for s in outline["sections"]] == [
        ("Agreement", 1),
        ("Fees", 2),
        ("Term", 2),
    ]
    assert outline["totalSections"] == 4 and outline["truncated"] is True
    fees = outline["sections"][1]
    assert fees["parentHandle"] == outline["sections"][0]["handle"]
    assert fees["handle"] == {
        "type": "headingSection",
        "story": "main",
        "headingBlockId": "00000002",
        "headingTextHash": text_hash("Fees"),
        "headingLevel": 2,
    }
    assert "parentHandle" not in outline["sections"][0]


def test_read_section_spans_deeper_headings_and_pages_with_a_cursor():
    reviewer = contract()
    fees = reviewer.get_outline(3)["sections"][1]["handle"]
    first = reviewer.read_section(fees, max_blocks=3)
    assert [b["text"] for b in first["blocks"]] == ["Fees", "Fee clause 0.", "Fee clause 1."]
    assert first["totalBlocks"] == 8 and first["truncated"] is True
    assert first["heading"]["blockId"] == "00000002"
    rest = reviewer.read_section(fees, max_blocks=100, after_block_id=first["nextAfterBlockId"])
    assert [b["text"] for b in rest["blocks"]][-2:] == ["Late payment", "Interest accrues."]
    assert rest["truncated"] is False and "nextAfterBlockId" not in rest


def test_read_section_reports_stale_missing_and_foreign_cursor():
    reviewer = contract()
    handle = reviewer.get_outline(3)["sections"][1]["handle"]
    with pytest.raises(ReadError, match="^The section heading changed; run get_document_outline again"):
        reviewer.read_section({**handle, "headingTextHash": text_hash("Charges")})
    with pytest.raises(ReadError, match="^The section heading changed"):
        reviewer.read_section({**handle, "headingLevel": 1})
    with pytest.raises(ReadError, match="^The section no longer exists; run get_document_outline again.$"):
        reviewer.read_section({**handle, "headingBlockId": "7FFFFFFF"})
    with pytest.raises(ReadError, match="is not part of this section"):
        reviewer.read_section(handle, after_block_id="00000004")


def test_find_text_matching_rules():
    reviewer = DocxReviewer.from_bytes(
        make_docx(
            p("The Supplier and the supplier's supplier.")
            + p("Suppliers are not a supplier_x.")
            + p(
                runs='<w:r><w:t>Note</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r><w:r><w:t>1] end</w:t></w:r>'
            )
        )
    )
    found = reviewer.find_text("supplier")
    assert found["totalMatches"] == 5 and found["truncated"] is False
    first = found["matches"][:3]
    assert [m["occurrenceInBlock"] for m in first] == [0, 1, 2]
    assert first[0]["range"]["startOffset"] == 4 and first[0]["range"]["endOffset"] == 12
    assert first[0]["range"]["selectedTextHash"] == text_hash("Supplier")
    assert reviewer.find_text("supplier", match_case=True)["totalMatches"] == 3
    whole = reviewer.find_text("supplier", whole_word=True)
    assert whole["totalMatches"] == 3  # "Suppliers" and "supplier_x" are not whole words
    assert reviewer.find_text("[^1")["totalMatches"] == 0  # inside a note marker
    assert reviewer.find_text("1] end")["totalMatches"] == 1  # the literal text after the marker


def test_find_text_caps_matches_and_counts_all_and_gives_context():
    reviewer = DocxReviewer.from_bytes(make_docx("".join(p("fee " * 30) for _ in range(10))))
    found = reviewer.find_text("fee")
    assert found["totalMatches"] == 300 and len(found["matches"]) == 200 and found["truncated"] is True
    text = "fee " * 30
    assert found["matches"][5]["range"]["startOffset"] == 20
    assert found["matches"][5]["context"] == text[0:63]  # 40 before (clipped at 0), 40 after
    assert found["matches"][20]["context"] == text[40:123]


def test_find_text_section_story_and_page_scopes():
    reviewer = contract()
    fees = reviewer.get_outline(3)["sections"][1]["handle"]
    scoped = reviewer.find_text("clause", scope={"type": "section", "handle": fees})
    assert scoped["totalMatches"] == 5
    with pytest.raises(ReadError, match="stale or missing"):
        reviewer.find_text("clause", scope={"type": "section", "handle": {**fees, "headingLevel": 3}})
    with pytest.raises(ReadError, match="cannot search by page"):
        reviewer.find_text("clause", scope={"type": "page", "page": 1})
    with pytest.raises(ReadError, match="^The scoped story was not found; run list_stories again.$"):
        reviewer.find_text("x", scope={"type": "story", "handle": {"type": "footnote", "noteId": 9}})


def test_stories_headers_and_notes_with_tracked_insertions():
    footnotes = (
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> See </w:t></w:r>'
        '<w:ins w:id="9" w:author="A"><w:r><w:t>Schedule 2</w:t></w:r></w:ins></w:p></w:footnote>'
    )
    header = p("Confidential")
    reviewer = DocxReviewer.from_bytes(
        make_docx(
            p(runs='<w:r><w:t>Fees</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>'),
            footnotes=footnotes,
            header=header,
        )
    )
    stories = reviewer.list_stories()
    assert [s["handle"] for s in stories] == [
        {"type": "main"},
        {"type": "header", "relationshipId": "rId2"},
        {"type": "footnote", "noteId": 1},
    ]
    assert stories[0]["text"].endswith("Fees[^1]")
    assert stories[1]["text"] == "Confidential"
    assert stories[2]["text"] == " See Schedule 2"
    assert reviewer.read_story({"type": "footnote", "noteId": 1}) == stories[2]
    assert reviewer.read_story({"type": "header", "relationshipId": "rId7"}) is None
    found = reviewer.find_text(
        "schedule", scope={"type": "story", "handle": {"type": "footnote", "noteId": 1}}
    )
    assert found["matches"] == [
        {
            "type": "story",
            "story": {"type": "footnote", "noteId": 1},
            "startOffset": 5,
            "endOffset": 13,
            "occurrenceInStory": 0,
            "context": " See Schedule 2",
        }
    ]


def test_main_story_text_format():
    reviewer = contract()
    text = reviewer.read_story({"type": "main"})["text"]
    assert text.splitlines()[:2] == ["[00000001] (h1) Agreement", "[seq-0002] Intro text."]


def test_incremental_snapshot_equals_a_full_rebuild(public_corpus_files):
    path = next(f for f in public_corpus_files if f.name == "dxo_NVCA-Model-COI.docx")
    reviewer = DocxReviewer.open(path)
    before = reviewer.snapshot()
    target = next(
        b
        for b in before.blocks
        if b.normalized and len(b.text) > 40 and not b.structural_boundaries and not b.has_field_chars
    )
    target.element.find(".//{*}t").text = "Rewritten clause text"
    reviewer.document.paragraphs_changed([target.element])
    incremental = reviewer.snapshot()
    reviewer.document.structure_changed()
    full = reviewer.snapshot()
    assert [b.to_dict() for b in incremental.blocks] == [b.to_dict() for b in full.blocks]
    assert {k: a.to_dict() for k, a in incremental.anchors.items()} == {
        k: a.to_dict() for k, a in full.anchors.items()
    }
    assert incremental.block(target.id).text.startswith("Rewritten clause text")
    assert before.block(target.id).text == target.text  # an earlier snapshot is not mutated


def test_capped_search_counts_exactly_like_an_exhaustive_search(public_corpus_files):
    """Past 200 matches the count is taken at C speed; it must equal the per-block count."""
    from reviewer_app.docx import find

    checked = 0
    for path in public_corpus_files[::3]:
        blocks = DocxReviewer.open(path).snapshot().blocks
        index = find.build_index(blocks)
        content = [b for b in blocks if b.normalized and b.kind != "diagnostic"]
        for query in ("e", "the", "1"):
            fast = find.find_in_index(index, query)
            slow = find._find_block_by_block(content, query, False, False)
            assert fast["totalMatches"] == slow["totalMatches"], (path.name, query)
            assert fast["matches"] == slow["matches"]
            checked += fast["totalMatches"] > find.MAX_MATCHES
    assert checked >= 5  # files whose count went through the fast path
