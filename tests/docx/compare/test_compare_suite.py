"""WmlComparer's own test pairs (``../shared/corpus/compare-suite``), both ways, measured and floored.

Each pair is redlined A→B and B→A. A direction *round trips* when our accept-all of the redline
reads as the revised version and our reject-all as the base, in every story (body, text boxes,
footnotes and endnotes; equations and pictures compared as units: see ``tests/compare_suite.py``,
which reads the XML itself, not through the compare engine's model). For A→B our redline's
revision count, counted as WmlComparer counts, is set against the suite's expected count.

The figures are printed as a table (``pytest -s``) and held as floors that may only rise. A
direction that does not round trip must say why in the redline's report: a silent miss is the
worst failure a compare tool can have.

| when | round trip (both ways) | A→B round trip | revision count equal | silent misses |
|---|---|---|---|---|
| before issue 16 | 64/106 | 34/53 | 28/53 | 28 |
| text boxes, units reported | 75/106 | 40/53 | 34/53 | 0 |
| notes added, removed, moved | 87/106 | 46/53 | 38/53 | 0 |
| equations, pictures, boxes as units; nbsp; word diff | 104/106 | 53/53 | 48/53 | 0 |
| tables whose pairs cross rows aligned row by row | 105/106 | 53/53 | 49/53 | 0 |
| SmartArt copied with its parts | 106/106 | 53/53 | 49/53 | 0 |
| the proof reads table cells; a unit in a row added whole stays in its cell | 106/106 | 53/53 | 49/53 | 0 |

Each direction that does not round trip and each pair whose count differs is listed, with its
cause, in ``tests/data/compare_suite_mismatches.tsv``: a pair fixed must leave the table, a new
mismatch must enter it.
"""

from __future__ import annotations

import csv
import posixpath
import zipfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.comment_writer import add_comment, reply
from reviewer_app.docx.comments import comment_records
from reviewer_app.docx.compare import generate_redline_docx
from reviewer_app.docx.edit.markup import _split_run
from tests.compare_suite import resolved, revision_count, story_differences
from tests.conftest import CORPUS
from tests.docx_factory import make_docx, p
from tests.edit_invariants import assert_schema_no_new_errors, assert_structural

SUITE = CORPUS / "compare-suite"
ROUND_TRIP_FLOOR = 106
COUNT_FLOOR = 49
MISMATCHES = Path(__file__).parents[2] / "data" / "compare_suite_mismatches.tsv"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"

pytestmark = pytest.mark.corpus


@dataclass(frozen=True)
class Outcome:
    """One direction of one pair, redlined and judged."""

    case: str
    direction: str
    accept_differs: list[str]
    reject_differs: list[str]
    count: int
    expected: int | None
    reasons: list[str]

    @property
    def round_trips(self) -> bool:
        return not self.accept_differs and not self.reject_differs


def _cases() -> list[dict[str, str]]:
    if not (SUITE / "cases.tsv").exists():
        pytest.skip("the compare suite is not available (../shared/corpus/compare-suite)")
    with (SUITE / "cases.tsv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _judge(case: dict[str, str], direction: str) -> Outcome:
    a, b = (SUITE / case["a"]).read_bytes(), (SUITE / case["b"]).read_bytes()
    if direction == "B→A":
        a, b = b, a
    result = generate_redline_docx(a, b)
    out = result["buffer"]
    reasons = [str(s["reason"]) for s in result["skipped"]]
    reasons += [f"{u['reason']}: {u['baseStory'] or u['revisedStory']}" for u in result["unprocessedStories"]]
    return Outcome(
        case["id"],
        direction,
        story_differences(resolved(out, True), resolved(b, True)),
        story_differences(resolved(out, False), resolved(a, True)),
        revision_count(out),
        int(case["expected_revisions"]) if direction == "A→B" else None,
        reasons,
    )


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    return [_judge(case, direction) for case in _cases() for direction in ("A→B", "B→A")]


def _table(outcomes: list[Outcome]) -> str:
    lines = ["| pair | way | round trip | revisions (expected) | not shown |", "|---|---|---|---|---|"]
    for o in outcomes:
        trip = (
            "yes" if o.round_trips else "no: " + ", ".join(sorted(set(o.accept_differs + o.reject_differs)))
        )
        count = f"{o.count} ({o.expected})" if o.expected is not None else str(o.count)
        lines.append(f"| {o.case} | {o.direction} | {trip} | {count} | {'; '.join(o.reasons)[:120]} |")
    return "\n".join(lines)


def test_figures_only_rise(outcomes: list[Outcome]) -> None:
    print("\n" + _table(outcomes))
    trips = sum(o.round_trips for o in outcomes)
    equal = sum(o.count == o.expected for o in outcomes if o.expected is not None)
    print(f"round trip {trips}/{len(outcomes)}, revision count equal {equal}/{len(outcomes) // 2}")
    assert trips >= ROUND_TRIP_FLOOR
    assert equal >= COUNT_FLOOR


def test_reject_all_always_gives_the_base(outcomes: list[Outcome]) -> None:
    assert [(o.case, o.direction, o.reject_differs) for o in outcomes if o.reject_differs] == []


def test_no_difference_is_left_out_silently(outcomes: list[Outcome]) -> None:
    silent = [
        (o.case, o.direction, o.accept_differs) for o in outcomes if not o.round_trips and not o.reasons
    ]
    assert silent == []


def _pair(name: str) -> tuple[bytes, bytes]:
    case = next((c for c in _cases() if c["b"].endswith(name)), None)
    assert case is not None, name
    return (SUITE / case["a"]).read_bytes(), (SUITE / case["b"]).read_bytes()


def test_text_box_change_is_tracked_in_the_box_and_its_fallback() -> None:
    """ "Textbox." → "Textbox2." inside a drawn text box: the word replaced in the box, the same in
    its VML fallback copy, so Word (which reads the box) and older readers see the change."""
    a, b = _pair("WC045-Text-Box-Mod.docx")
    out = generate_redline_docx(a, b)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    root = etree.fromstring(zipfile.ZipFile(BytesIO(out["buffer"])).read("word/document.xml"))
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    boxes = list(root.iter(w + "txbxContent"))
    assert len(boxes) == 2  # the DrawingML box and its fallback
    for box in boxes:
        inserted = "".join(t.text for ins in box.iter(w + "ins") for t in ins.iter(w + "t"))
        deleted = "".join(t.text for d in box.iter(w + "del") for t in d.iter(w + "delText"))
        assert (deleted, inserted) == ("Textbox", "Textbox2")  # the word, as the engine marks words
    assert revision_count(out["buffer"]) == 2
    assert_structural(out["buffer"], a)
    assert_schema_no_new_errors(out["buffer"], a)


def _note_parts(data: bytes) -> tuple[etree._Element, etree._Element | None]:
    package = zipfile.ZipFile(BytesIO(data))
    notes = "word/footnotes.xml" if "word/footnotes.xml" in package.namelist() else None
    return etree.fromstring(package.read("word/document.xml")), (
        etree.fromstring(package.read(notes)) if notes else None
    )


def test_a_footnote_added_is_tracked_with_its_reference() -> None:
    """B adds a footnote to a document that has none: the redline gains a footnotes part, the
    reference is an insertion in the body and the note's text is inserted."""
    b, a = _pair("WC035-Footnote-Before.docx")  # the suite pairs it the other way round
    out = generate_redline_docx(a, b)
    assert out["unprocessedStories"] == [] and out["skipped"] == []
    body, notes = _note_parts(out["buffer"])
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    refs = list(body.iter(w + "footnoteReference"))
    assert len(refs) == 1 and refs[0].getparent().getparent().tag == w + "ins"
    assert notes is not None
    note = next(n for n in notes.iter(w + "footnote") if n.get(w + "id") == refs[0].get(w + "id"))
    assert (
        "".join(t.text for ins in note.iter(w + "ins") for t in ins.iter(w + "t")).strip()
        == "This is a test."
    )
    assert revision_count(out["buffer"]) == 2
    assert_structural(out["buffer"], a)
    assert_schema_no_new_errors(out["buffer"], a)


def test_a_footnote_removed_is_tracked_as_deleted() -> None:
    a, b = _pair("WC035-Footnote-Before.docx")
    out = generate_redline_docx(a, b)
    assert out["unprocessedStories"] == [] and out["skipped"] == []
    body, _notes = _note_parts(out["buffer"])
    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    (ref,) = body.iter(w + "footnoteReference")
    assert ref.getparent().getparent().tag == w + "del"
    assert story_differences(resolved(out["buffer"], True), resolved(b, True)) == []
    assert_schema_no_new_errors(out["buffer"], a)


def test_an_endnote_reference_moved_with_two_notes_removed() -> None:
    """A has three endnotes; B keeps one, whose reference sits elsewhere: the kept note's
    reference moves (deleted and inserted, one note), the two others are deleted."""
    a, b = _pair("WC034-Endnotes-Before.docx")
    out = generate_redline_docx(a, b)
    assert out["unprocessedStories"] == [] and out["skipped"] == []
    assert story_differences(resolved(out["buffer"], True), resolved(b, True)) == []
    assert story_differences(resolved(out["buffer"], False), resolved(a, True)) == []
    assert_schema_no_new_errors(out["buffer"], a)


def test_every_mismatch_is_listed_with_its_cause(outcomes: list[Outcome]) -> None:
    """The table under tests/data is the list of what is still wrong, each with why."""
    found = {
        (o.case, o.direction, "count", str(o.count)) for o in outcomes if o.expected not in (None, o.count)
    }
    found |= {
        (o.case, o.direction, "round trip", ",".join(sorted(set(o.accept_differs + o.reject_differs))))
        for o in outcomes
        if not o.round_trips
    }
    with MISMATCHES.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert {(r["id"], r["direction"], r["what"], r["ours"]) for r in rows} == found
    assert all(r["cause"].strip() for r in rows)


def _redline(name: str, backwards: bool = False) -> tuple[bytes, bytes, dict[str, Any]]:
    """The pair whose revised file is ``name`` (or the other way round) and its redline."""
    a, b = _pair(name)
    if backwards:
        a, b = b, a
    return a, b, generate_redline_docx(a, b)


def _body(data: bytes) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(BytesIO(data)).read("word/document.xml"))


def _round_trips(out: bytes, a: bytes, b: bytes) -> None:
    assert story_differences(resolved(out, True), resolved(b, True)) == []
    assert story_differences(resolved(out, False), resolved(a, True)) == []
    assert_schema_no_new_errors(out, a)


@pytest.mark.parametrize("backwards", [False, True])
def test_an_equation_changed_is_deleted_and_inserted_whole(backwards: bool) -> None:
    """ "A=πr²" → "A=2πr²": the old equation deleted and the new one inserted, each whole (one
    revision each, as WmlComparer counts an equation); Word's own tracked edit inside the
    revised equation is not carried into the copy."""
    a, b, out = _redline("WC012-Math-After.docx", backwards)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    body = _body(out["buffer"])
    maths = list(body.iter(M + "oMathPara"))
    assert [m.getparent().tag for m in maths] == [W + "del", W + "ins"]
    assert [next(m.iter(W + "ins", W + "del"), None) for m in maths] == [None, None]
    assert revision_count(out["buffer"]) == 2
    _round_trips(out["buffer"], a, b)


@pytest.mark.parametrize("backwards", [False, True])
def test_a_picture_added_beside_words_is_tracked_with_its_image(backwards: bool) -> None:
    """ "Two" → "Two ⟨picture⟩": the space and the picture inserted as one change (or deleted),
    the image copied into the redline's package."""
    a, b, out = _redline("RC002-Image-After1.docx", backwards)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    body = _body(out["buffer"])
    (drawing,) = body.iter(W + "drawing")
    kind = W + "del" if backwards else W + "ins"
    assert drawing.getparent().getparent().tag == kind
    para = next(drawing.iterancestors(W + "p"))
    assert "".join(t.text or "" for w in para.iter(kind) for t in w.iter(W + "t", W + "delText")) == " "
    assert revision_count(out["buffer"]) == 1
    _round_trips(out["buffer"], a, b)
    package = zipfile.ZipFile(BytesIO(out["buffer"]))
    images = [n for n in package.namelist() if n.startswith("word/media/")]
    source = zipfile.ZipFile(BytesIO(b if not backwards else a))
    assert [package.read(n) for n in images] == [source.read(n) for n in source.namelist() if "media/" in n]


def test_a_text_box_added_is_inserted_with_its_drawing() -> None:
    """A text box the revised version drew: its drawing inserted whole, box text included, not
    reported as a story only one version has."""
    a, b, out = _redline("WC066-Textbox-Before-Ins-Mod.docx")
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    body = _body(out["buffer"])
    boxes = list(body.iter(W + "txbxContent"))
    assert boxes and all(next(box.iterancestors(W + "ins"), None) is not None for box in boxes)
    assert revision_count(out["buffer"]) == 1
    _round_trips(out["buffer"], a, b)


def test_a_non_breaking_space_is_tracked() -> None:
    """French punctuation: a space made non-breaking is a word change like any other."""
    a, b, out = _redline("WC055-French-Mod.docx")
    assert out["skipped"] == []
    assert revision_count(out["buffer"]) == 2
    inserted = "".join(
        t.text or "" for ins in _body(out["buffer"]).iter(W + "ins") for t in ins.iter(W + "t")
    )
    assert "\u00a0" in inserted
    _round_trips(out["buffer"], a, b)


def test_a_note_left_with_no_paragraph_gets_the_revised_text() -> None:
    """The base's footnote has no paragraph at all: the revised note's paragraph is inserted."""
    a, b, out = _redline("WC063-Footnote-Mod.docx", backwards=True)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    _round_trips(out["buffer"], a, b)


_SMARTART = "WC014-SmartArt-With-Image-Deleted-After.docx"
_DIAGRAMS = ("diagramData", "diagramLayout", "diagramQuickStyle", "diagramColors", "diagramDrawing")


def _related(package: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """``part``'s relationships: id → (type's last word, target part)."""
    folder, name = part.rsplit("/", 1)
    rels = f"{folder}/_rels/{name}.rels"
    if rels not in package.namelist():
        return {}
    return {
        rel.get("Id"): (
            rel.get("Type").rsplit("/", 1)[-1],
            posixpath.normpath(f"{folder}/{rel.get('Target')}"),
        )
        for rel in etree.fromstring(package.read(rels))
    }


@pytest.mark.parametrize("backwards", [False, True])
def test_smartart_holding_a_picture_is_deleted_or_inserted_whole(backwards: bool) -> None:
    """SmartArt removed, or (the other way round) added in a paragraph of its own: the drawing is
    one unit. Added, it is copied with its diagram parts, the parts those relate to (the picture)
    and its drawn shapes, which the data part names by a relationship of the document part."""
    a, b, out = _redline(_SMARTART, backwards)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    (drawing,) = _body(out["buffer"]).iter(W + "drawing")
    assert drawing.getparent().getparent().tag == (W + "ins" if backwards else W + "del")
    _round_trips(out["buffer"], a, b)
    package = zipfile.ZipFile(BytesIO(out["buffer"]))
    related = _related(package, "word/document.xml")
    diagrams = {kind: target for kind, target in related.values() if kind in _DIAGRAMS}
    assert sorted(diagrams) == sorted(_DIAGRAMS)
    data = etree.fromstring(package.read(diagrams["diagramData"]))
    (shapes,) = data.iter("{http://schemas.microsoft.com/office/drawing/2008/diagram}dataModelExt")
    assert related[shapes.get("relId")] == ("diagramDrawing", diagrams["diagramDrawing"])
    source = zipfile.ZipFile(BytesIO(b if backwards else a))  # the version with the SmartArt
    picture = source.read("word/media/image1.jpeg")
    for part in ("diagramData", "diagramDrawing"):
        (image,) = _related(package, diagrams[part]).values()
        assert package.read(image[1]) == picture
    types = package.read("[Content_Types].xml").decode()
    assert all(
        f'PartName="/{target}" ContentType="{source_type}"' in types
        for target, source_type in (
            (
                diagrams["diagramData"],
                "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml",
            ),
            (diagrams["diagramDrawing"], "application/vnd.ms-office.drawingml.diagramDrawing+xml"),
        )
    )


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.libreoffice
def test_libreoffice_accepts_an_added_footnote(tmp_path: Path, lo_reading: Any) -> None:
    b, a = _pair("WC035-Footnote-Before.docx")
    out = _write(tmp_path, "out.docx", generate_redline_docx(a, b)["buffer"])
    ours = lo_reading(out, accept_reject=True)
    revised = lo_reading(_write(tmp_path, "b.docx", b), accept_reject=True)
    assert ours["load_ok"]
    assert ours["accept_all"]["paragraphs"] == revised["accept_all"]["paragraphs"]
    assert ours["tracked_change_total"] > 0


@pytest.mark.libreoffice
def test_libreoffice_reads_the_text_box_redline(tmp_path: Path, lo_reading: Any) -> None:
    a, b = _pair("WC045-Text-Box-Mod.docx")
    out = _write(tmp_path, "out.docx", generate_redline_docx(a, b)["buffer"])
    ours = lo_reading(out, accept_reject=True)
    assert ours["load_ok"]
    assert ours["tracked_change_total"] > 0


@pytest.mark.libreoffice
@pytest.mark.parametrize(
    ("name", "backwards"),
    [("RC002-Image-After1.docx", False), ("WC030-Image-Math-After.docx", False), (_SMARTART, True)],
)
def test_libreoffice_accepts_and_rejects_a_picture_change(
    tmp_path: Path, lo_reading: Any, name: str, backwards: bool
) -> None:
    """A picture added beside words, a picture replaced by an equation, and SmartArt holding a
    picture added (copied with its parts): LibreOffice's accept and reject give the revised and
    the original paragraphs."""
    a, b, out = _redline(name, backwards)
    ours = lo_reading(_write(tmp_path, "out.docx", out["buffer"]), accept_reject=True)
    assert ours["load_ok"] and ours["tracked_change_total"] > 0
    revised = lo_reading(_write(tmp_path, "b.docx", b), accept_reject=True)
    original = lo_reading(_write(tmp_path, "a.docx", a), accept_reject=True)
    assert ours["accept_all"]["paragraphs"] == revised["accept_all"]["paragraphs"]
    assert ours["reject_all"]["paragraphs"] == original["accept_all"]["paragraphs"]


def _commented_pair() -> tuple[bytes, bytes]:
    """A base and a revised version in which Bob commented on "capped" and Carol replied."""
    base = make_docx(p("First clause.") + p("Liability is capped at the fees paid."))
    other = DocxReviewer.from_bytes(
        make_docx(p("First clause.") + p("Liability is capped at twice the fees paid."))
    )
    doc = other.document
    para = list(doc.body.iter(W + "p"))[1]
    run = para.find(W + "r")
    word = _split_run(run, run.find(W + "t"), len("Liability is "))
    _split_run(word, word.find(W + "t"), len("capped"))
    first = add_comment(
        doc, para, "Please check the cap.", "Bob", "2026-01-02T03:04:05Z", first=word, last=word
    )
    assert reply(doc, first, "Agreed, twice is too much.", "Carol", "2026-01-03T03:04:05Z") is not None
    return base, other.to_bytes()


def test_a_comment_and_its_reply_only_in_the_revised_version_are_carried_over() -> None:
    """The other side commented on "capped" and a colleague replied: the redline has both, by
    their authors and with their dates, the comment on the same word of the paragraph whose text
    the redline changed; nothing is left to report."""
    base, revised = _commented_pair()
    out = generate_redline_docx(base, revised)
    assert out["skipped"] == []
    redline = DocxReviewer.from_bytes(out["buffer"]).document
    comment, answer = comment_records(redline)
    assert (comment.author, comment.text, comment.date) == (
        "Bob",
        "Please check the cap.",
        "2026-01-02T03:04:05Z",
    )
    assert (answer.author, answer.text, answer.parent_id) == (
        "Carol",
        "Agreed, twice is too much.",
        comment.id,
    )
    between = []
    for sibling in comment.range_start.itersiblings():
        if sibling is comment.range_end:
            break
        between.extend(t.text or "" for t in sibling.iter(W + "t"))
    assert "".join(between) == "capped"
    assert_schema_no_new_errors(out["buffer"], base)


@pytest.mark.libreoffice
def test_libreoffice_shows_the_carried_comment_and_reply(tmp_path: Path, lo_reading: Any) -> None:
    base, revised = _commented_pair()
    out = lo_reading(_write(tmp_path, "out.docx", generate_redline_docx(base, revised)["buffer"]))
    assert out["load_ok"]
    shown = sorted((c["author"], c["text"], c["anchor_text"]) for c in out["comments"])
    assert shown == [
        ("Bob", "Please check the cap.", "capped"),
        ("Carol", "Agreed, twice is too much.", "capped"),
    ]


def test_a_comment_inside_a_note_is_named_not_carried() -> None:
    """A comment anchored in a footnote is not carried yet: the report names its author, words
    and the note's paragraph; a comment both versions have is not named."""
    old = '<w:comment w:id="0" w:author="Ann"><w:p><w:r><w:t>Old remark.</w:t></w:r></w:p></w:comment>'
    new = '<w:comment w:id="1" w:author="Bob"><w:p><w:r><w:t>Please check the cap.</w:t></w:r></w:p></w:comment>'
    body = p(
        runs='<w:commentRangeStart w:id="0"/><w:r><w:t>Liability is capped.</w:t></w:r><w:commentRangeEnd w:id="0"/>'
        '<w:r><w:commentReference w:id="0"/></w:r><w:r><w:footnoteReference w:id="1"/></w:r>'
    )

    def note(text: str) -> str:
        return f'<w:footnote w:id="1"><w:p>{text}</w:p></w:footnote>'

    plain = note("<w:r><w:t>The cap is the fees.</w:t></w:r>")
    commented = note(
        '<w:commentRangeStart w:id="1"/><w:r><w:t>The cap is the fees.</w:t></w:r><w:commentRangeEnd w:id="1"/>'
        '<w:r><w:commentReference w:id="1"/></w:r>'
    )
    base = make_docx(body, footnotes=plain, comments=old)
    revised = make_docx(body, footnotes=commented, comments=old + new)
    out = generate_redline_docx(base, revised)
    assert [s["reason"] for s in out["skipped"]] == [
        'a comment by Bob ("Please check the cap.") on "The cap is the fees." is only in the revised '
        "version and is not carried over"
    ]
