"""The redline's paragraph-level differences: paragraph properties, new lists, cells added to rows.

Each case is proved like every redline (``test_compare_redline.py``): accepting all of it (our
engine) reads as the revised version, rejecting all reads as the base, the package keeps the
engine's structural invariants and gains no schema error; here also the paragraph properties
themselves (style, numbering, alignment, indentation) and the list labels a reader sees, and,
where LibreOffice can show the change, what LibreOffice reads.
"""

from __future__ import annotations

import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.compare import generate_redline_docx
from reviewer_app.docx.hashing import normalize_text
from tests.docx.compare.test_compare_redline import assert_round_trip, count
from tests.docx_factory import heading_styles, make_docx, p
from tests.edit_invariants import assert_schema_no_new_errors, assert_structural

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _redline(base: bytes, revised: bytes) -> bytes:
    result = generate_redline_docx(base, revised)
    assert result["skipped"] == [], result["skipped"]
    out = result["buffer"]
    assert_round_trip(base, revised, out)
    assert_structural(out, base)
    assert_schema_no_new_errors(out, base)
    return out


def _resolved(data: bytes, how: str | None) -> DocxReviewer:
    reviewer = DocxReviewer.from_bytes(data)
    if how == "accept":
        reviewer.accept_all()
    elif how == "reject":
        reviewer.reject_all()
    return DocxReviewer.from_bytes(reviewer.to_bytes())


def _properties(data: bytes, how: str | None = None) -> list[tuple[Any, ...]]:
    """Per non-blank block: text, style, alignment, stated numbering, indentation, visible label."""
    return [
        (
            b.text,
            b.style_id,
            b.direct_alignment,
            dict(b.stated_numbering or {"kind": "inherit"}),
            b.direct_indentation,
            b.display_label if b.kind == "listItem" else None,
        )
        for b in _resolved(data, how).snapshot().blocks
        if b.text
    ]


def _labels(data: bytes, how: str | None = None) -> list[tuple[str, str | None]]:
    """(text, list label) per non-blank block: what a reader sees of the numbering."""
    return [(t[0], t[5]) for t in _properties(data, how)]


def _level(ilvl: int, fmt: str, text: str) -> str:
    return (
        f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
        f'<w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/>'
        f'<w:pPr><w:ind w:left="{720 * (ilvl + 1)}" w:hanging="360"/></w:pPr></w:lvl>'
    )


def _numbering(*lists: tuple[int, int, str]) -> str:
    """numbering.xml content: (numId, abstractNumId, "decimal"|"upperRoman"|"bullet") per list."""
    abstracts, nums = [], []
    for num_id, abstract_id, fmt in lists:
        first = "\u2022" if fmt == "bullet" else "%1."
        levels = _level(0, fmt, first) + _level(1, "lowerLetter", "(%2)")
        abstracts.append(
            f'<w:abstractNum w:abstractNumId="{abstract_id}"><w:nsid w:val="1A2B3C4D"/>'
            f'<w:multiLevelType w:val="hybridMultilevel"/>{levels}</w:abstractNum>'
        )
        nums.append(f'<w:num w:numId="{num_id}"><w:abstractNumId w:val="{abstract_id}"/></w:num>')
    return "".join(abstracts) + "".join(nums)


def _numbered(text: str, num_id: int, ilvl: int = 0) -> str:
    return p(text, ppr=f'<w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>')


# ----------------------------------------------------------------------------- (a) paragraph properties
def _property_pair() -> tuple[bytes, bytes]:
    styles = heading_styles()
    numbering = _numbering((1, 0, "decimal"))
    base = make_docx(
        p("Alpha clause stays put.")
        + p("Beta clause is centred.", ppr='<w:jc w:val="center"/>')
        + p("Gamma is a heading.", ppr='<w:pStyle w:val="Heading1"/>')
        + _numbered("Delta is item one.", 1)
        + _numbered("Epsilon is item two.", 1)
        + p("Zeta is indented a little.", ppr='<w:ind w:left="720"/>')
        + p("Eta clause unchanged."),
        styles=styles,
        numbering=numbering,
    )
    revised = make_docx(
        p("Alpha clause stays put.", ppr='<w:jc w:val="right"/>')
        + p("Beta clause is centred.")
        + p("Gamma is a heading.")
        + _numbered("Delta is item one.", 1)
        + _numbered("Epsilon is item two.", 1, ilvl=1)
        + p("Zeta is indented further now.", ppr='<w:ind w:left="1440"/>')
        + p("Eta clause unchanged."),
        styles=styles,
        numbering=numbering,
    )
    return base, revised


def test_paragraph_property_changes_are_tracked_and_reversible() -> None:
    base, revised = _property_pair()
    out = _redline(base, revised)
    # alignment added, alignment removed, style cleared, list level, indentation (with a text edit)
    assert count(out, "pPrChange") == 5
    assert _properties(out, "accept") == _properties(revised)
    assert _properties(out, "reject") == _properties(base)
    assert _labels(out, "accept")[3:5] == [("Delta is item one.", "1."), ("Epsilon is item two.", "(a)")]


def test_unchanged_properties_write_no_property_change() -> None:
    base, _revised = _property_pair()
    assert count(generate_redline_docx(base, base)["buffer"], "pPrChange") == 0


def test_a_style_neither_version_defines_is_reported_and_the_rest_applies() -> None:
    # a style the base lacks is copied into it (test_compare_styles.py); one the revised version
    # names without defining shows as its default style there, and nothing can carry it
    base = make_docx(p("Some words here."), styles=heading_styles())
    revised = make_docx(
        p("Some words here.", ppr='<w:pStyle w:val="Quote"/><w:jc w:val="both"/>'), styles=heading_styles()
    )
    result = generate_redline_docx(base, revised)
    assert result["skipped"] == []
    assert result["referenceWarnings"] == [
        {
            "code": "missingStyle",
            "styleId": "Quote",
            "paragraphs": 1,
            "message": 'paragraph style "Quote" of the revised version is not a paragraph style either '
            "version defines; 1 paragraph(s) are written without it",
        }
    ]
    accepted = _resolved(result["buffer"], "accept").snapshot().blocks[0]
    assert accepted.direct_alignment == "both" and accepted.style_id == "Normal"


@pytest.mark.libreoffice
def test_paragraph_property_changes_in_libreoffice(lo_reading: Any, tmp_path: Path) -> None:
    base, revised = _property_pair()
    files = {}
    for name, data in (("base", base), ("revised", revised), ("out", _redline(base, revised))):
        files[name] = tmp_path / f"{name}.docx"
        files[name].write_bytes(data)
    ours = lo_reading(files["out"], accept_reject=True)
    shown = lambda paragraphs: [t for t in map(normalize_text, paragraphs) if t]  # noqa: E731
    theirs = lo_reading(files["revised"], accept_reject=True)
    original = lo_reading(files["base"], accept_reject=True)
    assert shown(ours["accept_all"]["paragraphs"]) == shown(theirs["accept_all"]["paragraphs"])
    assert shown(ours["reject_all"]["paragraphs"]) == shown(original["accept_all"]["paragraphs"])
    # five pPrChange; LibreOffice 7.4 counts the one on the paragraph whose words also changed
    # twice (alone, a property change with a word change reads as 2 there, one without as 1)
    assert ours["tracked_change_counts"] == {"paragraph_format": 6, "delete": 1, "insert": 1}
    assert ours["accept_all"]["remaining_tracked_changes"] == 0


# ----------------------------------------------------------------------------- (c) lists copied from B
def _numbering_part(data: bytes) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(BytesIO(data)).read("word/numbering.xml"))


def test_a_list_the_base_lacks_is_copied_with_its_part_rel_and_content_type() -> None:
    base = make_docx(p("Opening words.") + p("Closing words."), styles=heading_styles())
    revised = make_docx(
        p("Opening words.")
        + _numbered("First new item.", 7)
        + _numbered("Second new item.", 7)
        + _numbered("A sub-item.", 7, ilvl=1)
        + p("Closing words."),
        styles=heading_styles(),
        numbering=_numbering((7, 3, "upperRoman")),
    )
    out = _redline(base, revised)
    package = zipfile.ZipFile(BytesIO(out))
    assert "word/numbering.xml" in package.namelist()
    assert b"numbering+xml" in package.read("[Content_Types].xml")
    assert b"numbering.xml" in package.read("word/_rels/document.xml.rels")
    nums = _numbering_part(out).findall(f"{W}num")
    assert [n.get(f"{W}numId") for n in nums] == ["1"]  # a fresh id, not the revised version's 7
    assert _labels(out, "accept") == _labels(revised)
    assert _labels(out, "accept")[1:4] == [
        ("First new item.", "I."),
        ("Second new item.", "II."),
        ("A sub-item.", "(a)"),
    ]
    assert _labels(out, "reject") == _labels(base)


def test_same_numid_with_another_definition_is_copied_and_an_equal_one_reused() -> None:
    base_lists = _numbering((1, 0, "bullet"), (2, 1, "decimal"))
    revised_lists = _numbering((1, 0, "upperRoman"), (2, 1, "decimal"))
    base = make_docx(
        _numbered("Bullet point kept.", 1) + _numbered("Numbered kept.", 2) + p("End of text."),
        numbering=base_lists,
    )
    revised = make_docx(
        _numbered("Bullet point kept.", 1)
        + _numbered("Numbered kept.", 2)
        + _numbered("Numbered added.", 2)
        + p("End of text.")
        + _numbered("Roman item added.", 1),
        numbering=revised_lists,
    )
    out = _redline(base, revised)
    nums = {n.get(f"{W}numId") for n in _numbering_part(out).findall(f"{W}num")}
    assert nums == {"1", "2", "3"}  # the revised list 1 differs from the base's: copied as 3
    accepted = _properties(out, "accept")
    by_text = {row[0]: row for row in accepted}
    assert by_text["Numbered added."][3] == {"kind": "reference", "numId": 2, "ilvl": 0}
    assert by_text["Roman item added."][3] == {"kind": "reference", "numId": 3, "ilvl": 0}
    assert _labels(out, "accept") == _labels(revised)
    assert _labels(out, "reject") == _labels(base)


def test_a_paired_paragraph_moved_to_a_new_list_gets_the_copied_list() -> None:
    base = make_docx(p("Plain clause becomes a list item."), styles=heading_styles())
    revised = make_docx(
        _numbered("Plain clause becomes a list item.", 4),
        styles=heading_styles(),
        numbering=_numbering((4, 9, "decimal")),
    )
    out = _redline(base, revised)
    assert count(out, "pPrChange") == 1
    assert _labels(out, "accept") == [("Plain clause becomes a list item.", "1.")]
    assert _labels(out, "reject") == [("Plain clause becomes a list item.", None)]


# ----------------------------------------------------------------------------- (b) cells added to rows
def _grid_table(rows: list[list[str]]) -> str:
    cells = "".join(
        "<w:tr>"
        + "".join(f'<w:tc><w:tcPr><w:tcW w:w="1500" w:type="dxa"/></w:tcPr>{p(t)}</w:tc>' for t in row)
        + "</w:tr>"
        for row in rows
    )
    grid = '<w:gridCol w:w="1500"/>' * len(rows[0])
    return f'<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>{grid}</w:tblGrid>{cells}</w:tbl>'


def test_a_column_added_to_every_row_is_a_tracked_cell_insertion() -> None:
    base = make_docx(p("Fees.") + _grid_table([["Service", "Fee"], ["Hosting", "100"]]) + p("End."))
    revised = make_docx(
        p("Fees.") + _grid_table([["Service", "Term", "Fee"], ["Hosting", "12 months", "100"]]) + p("End.")
    )
    out = _redline(base, revised)
    assert count(out, "cellIns") == 2 and count(out, "tblGridChange") == 1
    texts = lambda data, how: [t[0] for t in _properties(data, how)]  # noqa: E731
    assert texts(out, "accept") == ["Fees.", "Service", "Term", "Fee", "Hosting", "12 months", "100", "End."]
    assert texts(out, "reject") == ["Fees.", "Service", "Fee", "Hosting", "100", "End."]
    rejected = etree.fromstring(
        zipfile.ZipFile(BytesIO(_resolved(out, "reject").to_bytes())).read("word/document.xml")
    )
    assert [len(tr.findall(f"{W}tc")) for tr in rejected.iter(f"{W}tr")] == [2, 2]


def test_a_cell_added_to_one_row_only_is_reported_not_written() -> None:
    base = make_docx(p("Fees.") + _grid_table([["Service", "Fee"], ["Hosting", "100"]]))
    revised = make_docx(p("Fees.") + _grid_table([["Service", "Fee"], ["Hosting", "100", "Extra note"]]))
    result = generate_redline_docx(base, revised)
    assert [s["reason"] for s in result["skipped"]] == [
        'a paragraph added inside an existing table cell ("Extra note") has no paragraph of its own cell to '
        "attach to"
    ]
    assert count(result["buffer"], "cellIns") == 0
