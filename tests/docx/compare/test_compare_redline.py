"""``generate_redline_docx``: the base with the revised version's differences as tracked changes.

The proof for every redline: accepting all of it (our engine) gives the revised version's text and
rejecting all of it gives the base's, story by story and block by block (non-blank blocks,
whitespace normalized, note markers left out: a reference is not text and the engine keeps the
base's); the saved package keeps every structural invariant of the edit engine and gains no
schema error. Revised versions are made from real documents with the engine in *direct* mode,
so they hold exactly the edits each case names and no tracked changes.
"""

from __future__ import annotations

import json
import re
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.blocks import Block
from reviewer_app.docx.compare import CompareOptionError, compare_docx_versions, generate_redline_docx
from reviewer_app.docx.compare.model import block_key
from reviewer_app.docx.compare.stories import StoryDocument, read_stories
from reviewer_app.docx.edit.engine import Applier
from reviewer_app.docx.hashing import normalize_text, text_hash
from reviewer_app.docx.stories import story_blocks, story_containers
from tests.compare_suite import revision_count
from tests.conftest import REPO_ROOT
from tests.docx_factory import make_docx, p
from tests.edit_invariants import assert_schema_no_new_errors, assert_structural

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MARKER = re.compile(r"\[\^e?\d*\]")


# ----------------------------------------------------------------------------- helpers (shared)
class Shown(tuple):  # (text, text without self-updating field results)
    """A block as the proofs compare it: whitespace normalized, note markers out; two readings.

    The shown results of self-updating fields (page numbers, dates) are layout, not text: Word
    recomputes them, so a different cached "Page 17" is no edit (the comparison key leaves them
    out too). But a paragraph the redline *inserts* carries the revised version's field results
    as plain text (the engine writes text, not fields). Two blocks match when either reading
    agrees.
    """

    def __eq__(self, other: object) -> bool:
        return isinstance(other, tuple) and bool(set(self) & set(other))

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__


def shown(block: Block) -> Shown | None:
    raw = normalize_text(_MARKER.sub("", block.text))
    keyed = normalize_text(_MARKER.sub("", block_key(block)))
    return Shown((raw, keyed)) if raw else None


def story_texts(data: bytes, resolve: str | None = None) -> dict[str, list[Shown]]:
    """Non-blank blocks per story (``{"type": "main"}`` first), after accept/reject-all."""
    reviewer = DocxReviewer.from_bytes(data)
    if resolve == "accept":
        reviewer.accept_all()
    elif resolve == "reject":
        reviewer.reject_all()
    reviewer = DocxReviewer.from_bytes(reviewer.to_bytes())
    out = {json.dumps({"type": "main"}): [t for b in reviewer.snapshot().blocks if (t := shown(b))]}
    body = reviewer.document.root
    order = {
        kind: [el.get(W + "id") for el in body.iter(W + f"{kind}Reference")]
        for kind in ("footnote", "endnote")
    }
    for handle, container in story_containers(reviewer.document):
        if handle["type"] in order:  # a note is known by where the body refers to it, not by its id
            refs = order[handle["type"]]
            if str(handle["noteId"]) not in refs:
                continue  # a note nobody refers to is not shown
            handle = {"type": handle["type"], "reference": refs.index(str(handle["noteId"])) + 1}
        out[json.dumps(handle)] = [t for b in story_blocks(reviewer.document, container) if (t := shown(b))]
    return out


def assert_round_trip(base: bytes, revised: bytes, out: bytes) -> None:
    """Our accept-all of ``out`` reads as ``revised``, our reject-all as ``base`` (each accepted)."""
    accepted, rejected = story_texts(out, "accept"), story_texts(out, "reject")
    want_b, want_a = story_texts(revised, "accept"), story_texts(base, "accept")
    for story, texts in want_b.items():
        if story in accepted:
            assert accepted[story] == texts, f"accept-all of {story} differs from the revised version"
    for story, texts in want_a.items():
        assert rejected.get(story) == texts, f"reject-all of {story} differs from the base version"


def count(data: bytes, tag: str, part: str = "word/document.xml") -> int:
    root = etree.fromstring(zipfile.ZipFile(BytesIO(data)).read(part))
    return len(root.findall(f".//{W}{tag}"))


def direct(reviewer: DocxReviewer, ops: list[dict[str, Any]]) -> None:
    """Apply ``ops`` untracked (the revised version is a plain document)."""
    for index, op in enumerate(ops):
        op.setdefault("id", f"edit-{index}")
    result = reviewer.apply_operations({"version": 1, "mode": "direct", "operations": ops})
    assert result["skipped"] == [], result["skipped"]


def ids_by_text(reviewer: DocxReviewer) -> dict[str, Any]:
    return {b.text: b for b in reviewer.snapshot().blocks}


# ----------------------------------------------------------------------------- the sample contract
@pytest.fixture(scope="module")
def msa_pair(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The sample contract and a revision with one edit of every kind the redline writes."""
    reviewer = DocxReviewer.open(SAMPLE)
    blocks = {b.id: b for b in reviewer.snapshot().blocks}
    owns = blocks["64BF9FC8"].text.index("Customer")
    ops: list[dict[str, Any]] = [
        {
            "type": "replaceInBlock",
            "blockId": "0343936A",
            "find": "master services",
            "replace": "framework services",
        },
        {"type": "deleteBlock", "blockId": "7AB2984B"},
        {
            "type": "insertAfterBlock",
            "blockId": "005094C3",
            "text": "“Cloud Services” means hosted software made available over the internet.",
            "styleId": blocks["005094C3"].style_id,
        },
        {"type": "deleteBlock", "blockId": "3DE3A755"},  # moved unchanged ...
        {"type": "insertBeforeBlock", "blockId": "180C42BC", "text": blocks["3DE3A755"].text},
        # ... and moved with a small edit (its note reference left out: the engine would write the
        # marker as literal text, and a new paragraph cannot carry the old one's note anyway)
        {"type": "deleteBlock", "blockId": "4BEFEDCC"},
        {
            "type": "insertAfterBlock",
            "blockId": "55E74075",
            "text": _MARKER.sub("", blocks["4BEFEDCC"].text).replace("Financial", "UK Financial"),
        },
        {
            "type": "formatRange",
            "range": {
                "type": "textRange",
                "story": "main",
                "blockId": "64BF9FC8",
                "startOffset": owns,
                "endOffset": owns + 8,
                "selectedTextHash": text_hash("Customer"),
            },
            "formatting": {"bold": True},
        },
        {
            "type": "insertTableRow",
            "blockId": "56BE762C",
            "position": "after",
            "cellTexts": ["Report delivery", "5 Business Days", "Monthly", "1%"],
        },
        {"type": "deleteTableRow", "blockId": "256F7F86"},
        {"type": "insertAfterBlock", "blockId": "5BEC0035", "text": "loss of data;"},
        {"type": "splitBlock", "blockId": "0D31C506", "offset": 20},  # a paragraph added in a cell
    ]
    direct(reviewer, ops)
    stories = read_stories(reviewer.document)
    header = next(s for s in stories if s.handle["type"] == "header" and any(b.text for b in s.blocks))
    note = [s for s in stories if s.handle["type"] == "footnote"][1]
    for story, story_ops in (
        (
            header,
            [
                {
                    "type": "replaceBlock",
                    "blockId": next(b.id for b in header.blocks if b.text),
                    "text": "Framework Agreement",
                }
            ],
        ),
        (
            note,
            [{"type": "insertAfterBlock", "blockId": note.blocks[-1].id, "text": "A second note paragraph."}],
        ),
    ):
        applier = Applier(StoryDocument(reviewer.document, story.part, story.container), "Editor")
        for index, op in enumerate(story_ops):
            op["id"] = f"story-{index}"
        assert applier.apply({"version": 1, "mode": "direct", "operations": story_ops})["skipped"] == []
    folder = tmp_path_factory.mktemp("msa")
    revised = folder / "msa-revised.docx"
    reviewer.save(revised)
    result = generate_redline_docx(SAMPLE, revised, author="Compare Bot")
    out = folder / "msa-redline.docx"
    out.write_bytes(result["buffer"])
    return {"base": SAMPLE.read_bytes(), "revised": revised.read_bytes(), "out": out, "result": result}


def test_msa_redline_round_trips(msa_pair: dict[str, Any]) -> None:
    assert msa_pair["result"]["skipped"] == []
    assert msa_pair["result"]["unprocessedStories"] == []
    assert_round_trip(msa_pair["base"], msa_pair["revised"], msa_pair["out"].read_bytes())


def test_msa_redline_uses_the_engines_markup(msa_pair: dict[str, Any]) -> None:
    out = msa_pair["out"].read_bytes()
    assert count(out, "moveFrom") >= 2 and count(out, "moveTo") >= 2  # identical and 80 %-kept moves
    assert count(out, "moveFromRangeStart") == 2
    assert count(out, "rPrChange") == 1
    assert count(out, "ins", "word/header2.xml") >= 1
    assert count(out, "ins", "word/footnotes.xml") >= 1
    authors = {
        el.get(f"{W}author")
        for el in etree.fromstring(zipfile.ZipFile(BytesIO(out)).read("word/document.xml")).iter(f"{W}ins")
    }
    assert "Compare Bot" in authors


def test_msa_redline_is_structurally_sound(msa_pair: dict[str, Any]) -> None:
    out = msa_pair["out"].read_bytes()
    assert_structural(out, msa_pair["base"])
    assert_schema_no_new_errors(out, msa_pair["base"])


@pytest.mark.libreoffice
def test_msa_redline_in_libreoffice(msa_pair: dict[str, Any], lo_reading: Any, tmp_path: Path) -> None:
    revised = tmp_path / "revised.docx"
    revised.write_bytes(msa_pair["revised"])
    ours = lo_reading(msa_pair["out"], accept_reject=True)
    base = lo_reading(SAMPLE, accept_reject=True)
    theirs = lo_reading(revised, accept_reject=True)
    shown = lambda paragraphs: [t for t in map(normalize_text, paragraphs) if t]  # noqa: E731
    assert shown(ours["accept_all"]["paragraphs"]) == shown(theirs["accept_all"]["paragraphs"])
    assert shown(ours["reject_all"]["paragraphs"]) == shown(base["accept_all"]["paragraphs"])
    # what we wrote, as LibreOffice counts it (adjacent marks of one kind are one change there):
    # main story 10 insertions (moved-in paragraphs, words, 4 cells of the new row, a split) and 8
    # deletions, one bold; header 1 + 2; the footnote paragraph appended after the note's last one
    # hands its inserted mark to that paragraph, a tracked paragraph-properties change
    assert ours["tracked_change_counts"] == {"insert": 12, "delete": 10, "format": 1, "paragraph_format": 1}
    assert ours["accept_all"]["remaining_tracked_changes"] == 0


def test_compare_agrees_with_the_redline(msa_pair: dict[str, Any]) -> None:
    diff = compare_docx_versions(msa_pair["base"], msa_pair["revised"])
    counts = diff["summaryCounts"]
    assert counts["moved"] == 1  # identical text only; the edited move is a deletion + an addition
    assert counts["formatChanged"] == 1
    assert any(
        c["type"] == "modified" and c["baseHandle"]["story"]["type"] == "header" for c in diff["changes"]
    )


# ----------------------------------------------------------------------------- small cases
def _redline(base: bytes, revised: bytes, **options: Any) -> bytes:
    result = generate_redline_docx(base, revised, **options)
    assert result["skipped"] == [], result["skipped"]
    out = result["buffer"]
    assert_round_trip(base, revised, out)
    assert_structural(out, base)
    return out


def test_insertions_at_start_and_end_and_deletion_of_the_last_paragraph() -> None:
    base = make_docx(p("First clause stays.") + p("Second clause stays.") + p("Last clause goes."))
    revised = make_docx(
        p("A new opening line.")
        + p("First clause stays.")
        + p("Second clause stays.")
        + p("A new closing line.")
    )
    out = _redline(base, revised)
    assert count(out, "ins") >= 2 and count(out, "del") >= 1


def test_blank_paragraphs_and_whole_rewrite() -> None:
    base = make_docx(p("One.") + p() + p() + p("Two words here."))
    revised = make_docx(p("One.") + p() + p("Completely different sentence now."))
    _redline(base, revised)


def _table(rows: list[list[str]]) -> str:
    cells = "".join("<w:tr>" + "".join(f"<w:tc>{p(t)}</w:tc>" for t in row) + "</w:tr>" for row in rows)
    return f"<w:tbl><w:tblGrid>{'<w:gridCol/>' * len(rows[0])}</w:tblGrid>{cells}</w:tbl>"


def test_new_and_deleted_tables() -> None:
    base = make_docx(p("Intro.") + _table([["a", "b"], ["c", "d"]]) + p("Outro."))
    revised = make_docx(p("Intro.") + p("Outro.") + _table([["x", "y"], ["z", "w"]]) + p("End."))
    out = _redline(base, revised)
    assert count(out, "tbl") == 2


def test_rows_added_in_order_and_row_deleted() -> None:
    rows = [["h1", "h2"], ["a1", "a2"], ["c1", "c2"]]
    base = make_docx(p("Intro.") + _table(rows) + p("Middle.") + _table(rows) + p("End."))
    grown = [*rows, ["n1", "n2"], ["m1", "m2"]]  # two rows at the end, in this order
    shrunk = [rows[0], rows[2]]  # the middle row deleted
    revised = make_docx(p("Intro.") + _table(grown) + p("Middle.") + _table(shrunk) + p("End."))
    out = _redline(base, revised)
    assert count(out, "tr") == 8
    document = etree.fromstring(zipfile.ZipFile(BytesIO(out)).read("word/document.xml"))
    assert len(document.findall(f".//{W}trPr/{W}ins")) == 2
    assert len(document.findall(f".//{W}trPr/{W}del")) == 1


def _rows(data: bytes, resolve: str) -> list[list[str]]:
    """The first table's rows, each cell's text, after our accept-all or reject-all."""
    reviewer = DocxReviewer.from_bytes(data)
    reviewer.accept_all() if resolve == "accept" else reviewer.reject_all()
    table = etree.fromstring(zipfile.ZipFile(BytesIO(reviewer.to_bytes())).read("word/document.xml"))
    return [
        ["".join(t.text or "" for t in tc.iter(W + "t")) for tc in tr.iter(W + "tc")]
        for tr in table.iter(W + "tr")
    ]


@pytest.mark.parametrize("backwards", [False, True])
def test_a_row_removed_while_words_shift_between_rows(backwards: bool) -> None:
    """[1 2 3] [4 Lorem. 6] [7 8 9] → [1 2 3] [Lorem. 8 9]: "Lorem." and "8 9" recur in other rows
    and columns, so their paragraphs pair across rows. The redline goes row by row as WmlComparer
    does: the second row's cells rewritten, the third row deleted whole (or, the other way round,
    inserted whole), and accepting or rejecting gives each version's rows and cells."""
    long = [["1", "2", "3"], ["4", "Lorem.", "6"], ["7", "8", "9"]]
    short = [["1", "2", "3"], ["Lorem.", "8", "9"]]
    first, second = (short, long) if backwards else (long, short)
    base, revised = make_docx(_table(first) + p()), make_docx(_table(second) + p())
    out = _redline(base, revised)
    assert (_rows(out, "accept"), _rows(out, "reject")) == (second, first)
    row_mark = "ins" if backwards else "del"
    document = etree.fromstring(zipfile.ZipFile(BytesIO(out)).read("word/document.xml"))
    assert len(document.findall(f".//{W}trPr/{W}{row_mark}")) == 1
    assert_schema_no_new_errors(out, base)


@pytest.mark.parametrize("backwards", [False, True])
def test_a_row_removed_before_an_edited_row_is_deleted_whole(backwards: bool) -> None:
    """The first row removed and "Second " typed at the start of the next one (WmlComparer's
    WC-1450 in small). The removed row shares most of its words with the edited row at its
    position (Dice 0.63, same cell count), but the row after it is a far closer match (0.97):
    the redline deletes the removed row whole and inserts the one word in the row that stayed,
    two revisions, instead of rewriting the removed row into the next and deleting that one, as
    WmlComparer does (see tests/data/compare_suite_mismatches.tsv). The other way round the row
    is inserted whole and the word deleted."""
    kept = [
        "Payment is due on delivery.",
        "The seller pays the costs of delivery.",
        "Notice is given in writing.",
    ]
    removed = [
        "Payment is due within thirty days of the invoice.",
        "The seller pays the costs of delivery and insurance.",
        "Notice is given by email.",
    ]
    last = ["Governing law.", "Courts of London.", "Term of five years."]
    long, short = [removed, kept, last], [["Second " + kept[0], *kept[1:]], last]
    first, second = (short, long) if backwards else (long, short)
    base, revised = make_docx(_table(first) + p()), make_docx(_table(second) + p())
    out = _redline(base, revised)
    assert (_rows(out, "accept"), _rows(out, "reject")) == (second, first)
    document = etree.fromstring(zipfile.ZipFile(BytesIO(out)).read("word/document.xml"))
    row_mark, word_mark = ("ins", "del") if backwards else ("del", "ins")
    rows = list(document.iter(W + "tr"))
    assert [tr.find(f"{W}trPr/{W}{row_mark}") is not None for tr in rows] == [True, False, False]
    word = "".join(t.text for el in rows[1].iter(W + word_mark) for t in el.iter(W + "t", W + "delText"))
    assert word == "Second "
    assert revision_count(out) == 2
    assert_schema_no_new_errors(out, base)


def test_header_change_and_stories_only_one_version_has() -> None:
    header = "<w:p><w:r><w:t>Confidential draft</w:t></w:r></w:p>"
    base = make_docx(p("Body."), header=header)
    revised = make_docx(p("Body."), header=header.replace("draft", "final"))
    out = _redline(base, revised)
    assert count(out, "ins", "word/header1.xml") == 1
    # a header the revised version dropped: its text deleted (tests/docx/compare/test_compare_sections.py)
    result = generate_redline_docx(base, make_docx(p("Body.")))
    assert result["unprocessedStories"] == [] and result["skipped"] == []
    assert count(result["buffer"], "del", "word/header1.xml") == 2  # its words and its mark
    # a header only the revised version has, which no section refers to: no page shows it
    result = generate_redline_docx(make_docx(p("Body.")), base)
    assert result["unprocessedStories"] == [] and result["skipped"] == []


def test_inserted_paragraph_takes_the_revised_style_not_its_anchors() -> None:
    from tests.docx_factory import heading_styles

    styles = heading_styles()
    heading = '<w:pStyle w:val="Heading1"/>'
    base = make_docx(p("Body text one.") + p("Title", ppr=heading), styles=styles)
    revised = make_docx(
        p("Body text one.") + p("Inserted body text.") + p("Title", ppr=heading), styles=styles
    )
    out = _redline(base, revised)
    accepted = DocxReviewer.from_bytes(out)
    accepted.accept_all()
    kinds = {b.text: b.kind for b in accepted.snapshot().blocks}
    assert kinds["Inserted body text."] == "paragraph" and kinds["Title"] == "heading"


def test_views_resolve_pending_changes_first() -> None:
    base = make_docx(p("Payment is due."))
    pending = DocxReviewer.from_bytes(base, author="Someone")
    block = pending.snapshot().blocks[0]
    op = {"id": "x", "type": "replaceInBlock", "blockId": block.id, "find": "due.", "replace": "due now."}
    pending.apply_operations({"version": 1, "operations": [op]})
    revised = pending.to_bytes()
    final = generate_redline_docx(base, revised)
    assert count(final["buffer"], "ins") == 1
    original = generate_redline_docx(base, revised, revised_view="original")
    assert original["applied"] == []
    both = generate_redline_docx(revised, revised, base_view="original")
    assert count(both["buffer"], "ins") == 1  # the base's own change rejected, B's written back


def test_privacy_transforms_on_the_redline() -> None:
    from tests.docx.compare.test_compare import with_core

    base = with_core(
        make_docx(p("Old words here.")), creator="Alice", title="Deal", modified="2024-01-01T00:00:00Z"
    )
    revised = make_docx(p("New words here."))
    result = generate_redline_docx(
        base, revised, author="Bob", privacy={"transforms": ["remove-attribution", "remove-timestamps"]}
    )
    assert result["privacyReport"] == {
        "appliedTransforms": ["remove-attribution", "remove-timestamps"],
        "removedMetadataProperties": ["creator", "modified"],
    }
    out = result["buffer"]
    document = etree.fromstring(zipfile.ZipFile(BytesIO(out)).read("word/document.xml"))
    marks = [el for el in document.iter(f"{W}ins", f"{W}del")]
    assert marks and all(el.get(f"{W}author") == "Author" and el.get(f"{W}date") is None for el in marks)
    core = zipfile.ZipFile(BytesIO(out)).read("docProps/core.xml")
    assert b"Alice" not in core and b"Deal" in core
    assert b"Alice" in zipfile.ZipFile(BytesIO(base)).read("docProps/core.xml")  # input unchanged


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"base_view": "accepted"}, "baseView"),
        ({"revised_view": None}, "revisedView"),
        ({"author": " "}, "author"),
        ({"privacy": {"transforms": ["remove-names"]}}, "privacy.transforms"),
    ],
)
def test_bad_redline_options(options: dict[str, Any], option: str) -> None:
    doc = make_docx(p("Text."))
    with pytest.raises(CompareOptionError) as err:
        generate_redline_docx(doc, doc, **options)
    assert err.value.option == option


def test_input_reviewer_is_never_changed() -> None:
    base = DocxReviewer.from_bytes(make_docx(p("Old words here.")))
    before = base.to_bytes()
    generate_redline_docx(base, make_docx(p("New words here.")))
    assert base.to_bytes() == before


def _with_note(before: str, after: str) -> bytes:
    runs = (
        f'<w:r><w:t xml:space="preserve">{before}</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>'
        f'<w:r><w:t xml:space="preserve">{after}</w:t></w:r>'
    )
    notes = '<w:footnote w:id="1"><w:p><w:r><w:t>A note.</w:t></w:r></w:p></w:footnote>'
    return make_docx(p(runs=runs), footnotes=notes)


def test_a_change_spanning_a_note_reference_is_written_around_it() -> None:
    base = _with_note("alpha bravo charlie delta ", " echo foxtrot golf hotel")
    revised = _with_note("ALPHA bravo CHARLIE delta ", " ECHO foxtrot GOLF hotel")
    result = generate_redline_docx(base, revised)
    assert result["skipped"] == [] and len(result["applied"]) == 2  # one replacement per side of it
    assert_round_trip(base, revised, result["buffer"])
    reviewer = DocxReviewer.from_bytes(result["buffer"])
    reviewer.accept_all()
    assert reviewer.snapshot().blocks[0].text == "ALPHA bravo CHARLIE delta [^1] ECHO foxtrot GOLF hotel"


def test_a_new_paragraphs_note_reference_is_not_written_as_text() -> None:
    base = _with_note("alpha bravo ", " charlie delta")
    notes = '<w:footnote w:id="1"><w:p><w:r><w:t>A note.</w:t></w:r></w:p></w:footnote>'
    extra = p(
        runs='<w:r><w:t xml:space="preserve">Added words </w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>'
    )
    revised = make_docx(
        extra
        + p(
            runs='<w:r><w:t xml:space="preserve">alpha bravo </w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>'
            '<w:r><w:t xml:space="preserve"> charlie delta</w:t></w:r>'
        ),
        footnotes=notes,
    )
    result = generate_redline_docx(base, revised)
    assert result["skipped"] == []
    assert b"[^" not in zipfile.ZipFile(BytesIO(result["buffer"])).read("word/document.xml")
    reviewer = DocxReviewer.from_bytes(result["buffer"])
    reviewer.accept_all()
    assert [b.text for b in reviewer.snapshot().blocks] == ["Added words ", "alpha bravo [^1] charlie delta"]


@pytest.mark.parametrize("final_blank", [True, False])
def test_tables_and_paragraphs_added_at_the_end_keep_their_order(final_blank: bool) -> None:
    base = make_docx(p("Kept first.") + p("Kept last."))
    added = _table([["t1"]]) + p("Between tables.") + _table([["t2", "t3"]]) + p("After both.")
    revised = make_docx(p("Kept first.") + p("Kept last.") + added + (p() if final_blank else ""))
    out = _redline(base, revised)
    assert count(out, "tbl") == 2


def test_two_unrelated_documents_round_trip() -> None:
    base = make_docx(p("Alpha clause one.") + _table([["a", "b"]]) + p("Alpha clause two."))
    revised = make_docx(
        p("Omega heading.")
        + _table([["x"], ["y"]])
        + p("Omega text.")
        + _table([["z", "w"], ["u", "v"]])
        + p()
    )
    _redline(base, revised)
