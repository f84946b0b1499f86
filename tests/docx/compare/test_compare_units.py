"""Redlines of small generated pairs where equations, paragraphs and words change, both ways.

Each pair is redlined A→B and B→A; accepting all of the redline must read as the revised
version and rejecting all as the base (read by ``tests/compare_suite.py``, which sees an
equation as one unit with its text), and the revision count is the one WmlComparer would give.
"""

from __future__ import annotations

import zipfile
from io import BytesIO

import pytest
from lxml import etree

from reviewer_app.docx.compare import compare_docx_versions, generate_redline_docx
from reviewer_app.docx.worddiff import Hunk, word_diff
from tests.compare_suite import resolved, revision_count, story_differences
from tests.docx_factory import make_docx, p
from tests.edit_invariants import assert_schema_no_new_errors

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"


def _math(text: str) -> str:
    return f'<m:oMath xmlns:m="{M_NS}"><m:r><m:t>{text}</m:t></m:r></m:oMath>'


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _both_ways(a: bytes, b: bytes) -> list[tuple[bytes, bytes, dict]]:
    return [(x, y, generate_redline_docx(x, y)) for x, y in ((a, b), (b, a))]


def _round_trips(a: bytes, b: bytes, out: dict) -> None:
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    assert story_differences(resolved(out["buffer"], True), resolved(b, True)) == []
    assert story_differences(resolved(out["buffer"], False), resolved(a, True)) == []
    assert_schema_no_new_errors(out["buffer"], a)


def _body(data: bytes) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(BytesIO(data)).read("word/document.xml"))


def test_an_equation_changed_between_words_stays_between_them() -> None:
    a = make_docx(p(runs=_run("Area is ") + _math("πr²") + _run(" for a circle.")))
    b = make_docx(p(runs=_run("Area is ") + _math("2πr") + _run(" for a circle.")))
    for x, y, out in _both_ways(a, b):
        _round_trips(x, y, out)
        assert revision_count(out["buffer"]) == 2
        (para,) = _body(out["buffer"]).iter(W + "p")
        kinds = [etree.QName(child).localname for child in para]
        assert kinds == ["r", "del", "ins", "r"]


def test_an_equation_added_inside_a_sentence() -> None:
    a = make_docx(p("The sum is given below."))
    b = make_docx(p(runs=_run("The sum ") + _math("x+y") + _run(" is given below.")))
    for x, y, out in _both_ways(a, b):
        _round_trips(x, y, out)
        assert revision_count(out["buffer"]) == 1


def test_a_paragraph_holding_only_an_equation_added_and_removed() -> None:
    a = make_docx(p("Before.") + p("After."))
    b = make_docx(p("Before.") + p(runs=_math("E=mc²")) + p("After."))
    for x, y, out in _both_ways(a, b):
        _round_trips(x, y, out)
        assert revision_count(out["buffer"]) == 1


def test_a_rewritten_clause_is_one_replacement() -> None:
    """Only "the" kept between rewritten words is not a match a reader sees: one deletion and
    one insertion, as Word and WmlComparer mark it."""
    a = make_docx(p("Interest runs from the beginning of the fourth month of each year."))
    b = make_docx(p("Interest runs in accordance with the rules set by the governing body."))
    for x, y, out in _both_ways(a, b):
        _round_trips(x, y, out)
        assert revision_count(out["buffer"]) == 2


def test_a_paragraph_moved_into_a_new_table_is_deleted_and_the_table_inserted() -> None:
    a = make_docx(p("Video provides a way to prove your point.") + p())
    cell = '<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>{}</w:tc>'
    table = (
        '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="4000"/>'
        f"</w:tblGrid><w:tr>{cell.format(p('Video provides a way to prove your point.'))}</w:tr></w:tbl>"
    )
    b = make_docx(table + p())
    out = generate_redline_docx(a, b)
    _round_trips(a, b, out)
    assert revision_count(out["buffer"]) == 2


@pytest.mark.parametrize(
    ("old", "new", "hunk"),
    [("point. When", "point.   When", Hunk(7, 7, "  ")), ("point.   When", "point. When", Hunk(7, 9, ""))],
)
def test_a_longer_or_shorter_space_is_the_space_alone(old: str, new: str, hunk: Hunk) -> None:
    assert word_diff(old, new) == [hunk]


def test_a_line_break_added_inside_a_paragraph() -> None:
    """The comparison key reads a line break as a space; the redline still writes it."""
    a = make_docx(p("First line. Second line."))
    b = make_docx(p(runs="<w:r><w:t>First line.</w:t><w:br/><w:t>Second line.</w:t></w:r>"))
    for x, y, out in _both_ways(a, b):
        _round_trips(x, y, out)
        assert next(_body(out["buffer"]).iter(W + "br")) is not None


def _marked(data: bytes) -> list[tuple[str, str]]:
    """The redline's deletions and insertions in document order, adjacent pieces of one kind joined."""
    found: list[tuple[str, str]] = []
    for wrapper in _body(data).iter(W + "del", W + "ins"):
        if wrapper.getparent().tag == W + "rPr":
            continue  # a paragraph mark
        kind = "del" if wrapper.tag == W + "del" else "ins"
        text = "".join(t.text or "" for t in wrapper.iter(W + "t", W + "delText"))
        if (
            found
            and found[-1][0] == kind
            and wrapper.getprevious() is not None
            and wrapper.getprevious().tag == wrapper.tag
        ):
            found[-1] = (kind, found[-1][1] + text)
        else:
            found.append((kind, text))
    return found


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The supplier shall deliver the goods within thirty days of the order",
            "The supplier must deliver all goods within sixty days of the order",
        ),
        ("Lorem ipsum dolor sit amet consectetuer", "Lorem ipsum sit amet consectetuer"),
        ("alpha bravo charlie and delta echo foxtrot", "golf hotel india and juliet kilo lima"),
    ],
)
def test_the_compare_report_and_the_redline_mark_the_same_words(old: str, new: str) -> None:
    """One word diff (docx/worddiff.py) serves the edit engine, which writes the redline, and the
    compare report: on words with no punctuation stuck to them both mark the same stretches."""
    base, revised = make_docx(p(old)), make_docx(p(new))
    (change,) = compare_docx_versions(base, revised)["changes"]
    reported = [(s["type"], s["text"]) for s in change["segments"] if s["type"] != "equal"]
    assert reported == _marked(generate_redline_docx(base, revised)["buffer"])


def _cells_table(rows: list[list[str]]) -> str:
    """A table whose cells are given as their paragraphs' XML."""
    cells = "".join("<w:tr>" + "".join(f"<w:tc>{c}</w:tc>" for c in row) + "</w:tr>" for row in rows)
    return f"<w:tbl><w:tblGrid>{'<w:gridCol/>' * len(rows[0])}</w:tblGrid>{cells}</w:tbl>"


def _table(rows: list[list[str]]) -> str:
    return _cells_table([[p(t) for t in row] for row in rows])


def _cell_texts(data: bytes) -> list[list[list[str]]]:
    """Each row's cells, each cell's paragraphs as their text (an equation as its own text)."""

    def read(q: etree._Element) -> str:
        return "".join(t.text or "" for t in q.iter(W + "t", f"{{{M_NS}}}t"))

    rows = _body(data).iter(W + "tr")
    return [[[read(q) for q in tc.findall(W + "p")] for tc in tr.findall(W + "tc")] for tr in rows]


def test_words_typed_into_an_empty_cell_are_inserted_there() -> None:
    """A cell the base left empty and the revised version filled (WC-1470's B→A is not this: its
    cells are not empty, see tests/data/compare_suite_mismatches.tsv)."""
    a = make_docx(p("Intro.") + _table([["Name", ""], ["Fee", "100"]]) + p("End."))
    b = make_docx(p("Intro.") + _table([["Name", "ACME Ltd"], ["Fee", "100"]]) + p("End."))
    for x, y, out in _both_ways(a, b):
        _round_trips(x, y, out)
        assert revision_count(out["buffer"]) == 1


def test_an_equation_in_a_row_added_whole_stays_in_its_cell() -> None:
    """A row added whole whose first cell ends with a blank line and whose second cell holds only
    an equation: the equation is copied into the second cell, not into the first blank paragraph
    of the row (both read as blank: the write's new paragraphs are matched by their place in the
    row too). The other way round the row and its equation are deleted."""
    kept = [p("Term."), p("Five years.")]
    added = [p("Price.") + p(), p(runs=_math("x+y"))]
    a, b = make_docx(_cells_table([kept]) + p()), make_docx(_cells_table([added, kept]) + p())
    for x, y, out in _both_ways(a, b):
        _round_trips(x, y, out)
        assert revision_count(out["buffer"]) == 1
        assert _cell_texts(resolved(out["buffer"], True)) == _cell_texts(y)
        assert _cell_texts(resolved(out["buffer"], False)) == _cell_texts(x)


def test_a_paragraph_added_after_a_blank_line_of_a_cell() -> None:
    """A cell ending in a blank line gains a paragraph after it. A paragraph can only be split
    strictly inside its text, so the blank line cannot be cut in front of the new words: the
    line before it ends in a new blank line and the old blank one takes the words. Accepting
    gives the revised cell, blank line included, and rejecting the base; nothing is skipped."""
    kept = [p("Term.") + p(), p("Five years.")]
    grown = [p("Term.") + p() + p("Renewable once."), p("Five years.")]
    a, b = make_docx(_cells_table([kept]) + p()), make_docx(_cells_table([grown]) + p())
    for x, y, out in _both_ways(a, b):
        _round_trips(x, y, out)
        assert _cell_texts(resolved(out["buffer"], True)) == _cell_texts(y)
        assert _cell_texts(resolved(out["buffer"], False)) == _cell_texts(x)
