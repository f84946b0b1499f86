"""The redline carries the revised version's paragraph styles into the base (``compare/style_import.py``).

A lawyer comparing two drafts expects the redline to show the revised formatting, as Word's
Compare does: a style the base lacks is copied into it (with the styles it builds on, its linked
character style and its list), a style the base has under a localized id is found by name, and
accepting all of the redline gives the revised styles, rejecting all the base's. Each redline is
also proved like every other (round trip, structure, schema; ``test_compare_redline_props.py``).
"""

from __future__ import annotations

import json
import subprocess
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from reviewer_app.docx.compare import generate_redline_docx
from reviewer_app.docx.hashing import normalize_text
from tests.conftest import CHECKERS
from tests.docx.compare.test_compare_redline import count
from tests.docx.compare.test_compare_redline_props import _labels, _numbering, _properties, _redline
from tests.docx_factory import heading_styles, make_docx, p

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"

#: The revised version's own styles: a clause style based on another style the base lacks, with a
#: linked character style, a list, and a following style; and "heading 1" under a Dutch id.
REVISED_STYLES = (
    '<w:style w:type="character" w:default="1" w:styleId="DefaultParagraphFont">'
    '<w:name w:val="Default Paragraph Font"/></w:style>'
    '<w:style w:type="paragraph" w:styleId="ClauseBase"><w:name w:val="Clause Base"/>'
    '<w:basedOn w:val="Normal"/><w:pPr><w:ind w:left="360"/></w:pPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="ClauseBody"><w:name w:val="Clause Body"/>'
    '<w:basedOn w:val="ClauseBase"/><w:next w:val="ClauseBody"/><w:link w:val="ClauseBodyChar"/>'
    '<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="5"/></w:numPr>'
    '<w:spacing w:before="120" w:after="120"/></w:pPr><w:rPr><w:b/></w:rPr></w:style>'
    '<w:style w:type="character" w:styleId="ClauseBodyChar"><w:name w:val="Clause Body Char"/>'
    '<w:basedOn w:val="DefaultParagraphFont"/><w:link w:val="ClauseBody"/><w:rPr><w:b/></w:rPr></w:style>'
    '<w:style w:type="paragraph" w:styleId="Kop1"><w:name w:val="Heading 1"/>'
    '<w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>'
)
COPIED = ["ClauseBody", "ClauseBase", "ClauseBodyChar"]


def _styled(text: str, style_id: str) -> str:
    return p(text, ppr=f'<w:pStyle w:val="{style_id}"/>')


def _styles_part(data: bytes) -> etree._Element:
    return etree.fromstring(zipfile.ZipFile(BytesIO(data)).read("word/styles.xml"))


def _style_ids(data: bytes) -> list[str]:
    return [s.get(f"{W}styleId") for s in _styles_part(data).iter(f"{W}style")]


def _pair() -> tuple[bytes, bytes]:
    base = make_docx(
        p("Recitals come first.")
        + p("The supplier shall deliver the goods.")
        + p("The buyer shall pay on delivery.")
        + p("Signed by both parties."),
        styles=heading_styles(),
    )
    revised = make_docx(
        _styled("Recitals come first.", "Kop1")
        + _styled("The supplier shall deliver the goods.", "ClauseBody")
        + _styled("The supplier shall insure the goods in transit.", "ClauseBody")
        + p("The buyer shall pay on delivery.")
        + p("Signed by both parties."),
        styles=heading_styles() + REVISED_STYLES,
        numbering=_numbering((5, 2, "decimal")),
    )
    return base, revised


def _style_rows(data: bytes, how: str | None) -> list[tuple[str, str | None]]:
    return [(row[0], row[1]) for row in _properties(data, how)]


def test_a_style_the_base_lacks_is_copied_with_what_it_builds_on() -> None:
    base, revised = _pair()
    result = generate_redline_docx(base, revised)
    assert result["referenceWarnings"] == []
    out = _redline(base, revised)
    ids = _style_ids(out)
    assert sorted(ids) == sorted(_style_ids(base) + COPIED)  # each defined once
    styles = {s.get(f"{W}styleId"): s for s in _styles_part(out).iter(f"{W}style")}
    body = styles["ClauseBody"]
    assert [
        (ref.tag[len(W) :], ref.get(f"{W}val"))
        for ref in body
        if ref.tag in (f"{W}basedOn", f"{W}next", f"{W}link")
    ] == [
        ("basedOn", "ClauseBase"),
        ("next", "ClauseBody"),
        ("link", "ClauseBodyChar"),
    ]
    # the base has no default character style: the linked one builds on nothing rather than on a
    # copied "Default Paragraph Font" posing as the base's
    assert styles["ClauseBodyChar"].find(f"{W}basedOn") is None
    assert styles["ClauseBodyChar"].find(f"{W}link").get(f"{W}val") == "ClauseBody"
    assert all(s.get(f"{W}default") is None for s in styles.values() if s.get(f"{W}styleId") in COPIED)
    # the style's list is the base's copy of the revised list (the base had no numbering part)
    num_id = body.find(f"{W}pPr/{W}numPr/{W}numId").get(f"{W}val")
    nums = zipfile.ZipFile(BytesIO(out)).read("word/numbering.xml")
    assert f'w:numId="{num_id}"'.encode() in nums
    # the paired paragraph's change and the inserted paragraph both name the copied style
    document = etree.fromstring(zipfile.ZipFile(BytesIO(out)).read("word/document.xml"))
    changed = [el.getparent() for el in document.iter(f"{W}pPrChange")]
    assert sorted(ppr.find(f"{W}pStyle").get(f"{W}val") for ppr in changed) == ["ClauseBody", "Heading1"]
    inserted = [para for para in document.iter(f"{W}p") if "insure" in "".join(para.itertext())]
    assert [para.find(f"{W}pPr/{W}pStyle").get(f"{W}val") for para in inserted] == ["ClauseBody"]


def test_accept_all_gives_the_revised_styles_and_reject_all_the_base_ones() -> None:
    base, revised = _pair()
    out = _redline(base, revised)
    by_name = {"Kop1": "Heading1"}  # found by name in the base: the base's id stands for it
    wanted = [(text, by_name.get(style, style)) for text, style in _style_rows(revised, None)]
    assert _style_rows(out, "accept") == wanted
    assert _style_rows(out, "reject") == _style_rows(base, None)
    # the copied style brings its list: the clauses are numbered as in the revised version
    assert _labels(out, "accept") == _labels(revised)
    assert _labels(out, "reject") == _labels(base)


def test_a_style_the_base_has_under_another_id_is_found_by_name_and_nothing_is_copied() -> None:
    base = make_docx(p("Recitals come first.") + p("Terms follow."), styles=heading_styles())
    revised = make_docx(
        _styled("Recitals come first.", "Kop1") + _styled("A new heading.", "Kop1") + p("Terms follow."),
        styles=heading_styles() + REVISED_STYLES,
    )
    result = generate_redline_docx(base, revised)
    assert result["referenceWarnings"] == []
    out = _redline(base, revised)
    assert _style_ids(out) == _style_ids(base)
    assert _style_rows(out, "accept") == [
        ("Recitals come first.", "Heading1"),
        ("A new heading.", "Heading1"),
        ("Terms follow.", "Normal"),
    ]
    assert count(out, "pPrChange") == 1


def test_the_base_keeps_its_own_definition_of_a_style_both_define() -> None:
    base = make_docx(p("Plain words."), styles=heading_styles())
    different = heading_styles().replace('w:val="0"/>', 'w:val="0"/><w:jc w:val="center"/>', 1)
    revised = make_docx(_styled("Plain words.", "Heading1"), styles=different)
    out = _redline(base, revised)
    assert etree.tostring(_styles_part(out)) == etree.tostring(_styles_part(base))
    assert _style_rows(out, "accept") == [("Plain words.", "Heading1")]


def test_a_style_id_the_base_names_without_defining_is_copied_under_a_fresh_id() -> None:
    # the base's paragraph names "ClauseBody" but the base does not define it: it reads as Normal
    # there, and defining the id would restyle that paragraph without a tracked change
    base = make_docx(_styled("The supplier shall deliver the goods.", "ClauseBody"), styles=heading_styles())
    revised = make_docx(
        _styled("The supplier shall deliver the goods.", "ClauseBody"),
        styles=heading_styles() + REVISED_STYLES,
        numbering=_numbering((5, 2, "decimal")),
    )
    out = _redline(base, revised)
    assert sorted(_style_ids(out)) == sorted(
        _style_ids(base) + ["ClauseBody1", "ClauseBase", "ClauseBodyChar"]
    )
    assert _style_rows(out, "accept") == [("The supplier shall deliver the goods.", "ClauseBody1")]
    assert _style_rows(out, "reject") == [("The supplier shall deliver the goods.", "ClauseBody")]
    assert _labels(out, "accept") == _labels(revised)


def test_a_base_without_a_styles_part_gets_one_with_its_relationship_and_content_type() -> None:
    base = make_docx(p("Opening words.") + p("Closing words."))
    revised = make_docx(
        p("Opening words.") + _styled("A clause added.", "ClauseBody") + p("Closing words."),
        styles=heading_styles() + REVISED_STYLES,
        numbering=_numbering((5, 2, "decimal")),
    )
    out = _redline(base, revised)
    package = zipfile.ZipFile(BytesIO(out))
    assert b"styles+xml" in package.read("[Content_Types].xml")
    assert b"styles.xml" in package.read("word/_rels/document.xml.rels")
    # only the copies, none a default, and B's "Normal" (its default) is not among them
    assert sorted(_style_ids(out)) == sorted(COPIED)
    assert _style_rows(out, "accept")[1] == ("A clause added.", "ClauseBody")
    assert _labels(out, "accept") == _labels(revised)


@pytest.mark.libreoffice
def test_libreoffice_reads_the_copied_styles(lo_reading: Any, tmp_path: Path) -> None:
    base, revised = _pair()
    files = {}
    for name, data in (("base", base), ("revised", revised), ("out", _redline(base, revised))):
        files[name] = tmp_path / f"{name}.docx"
        files[name].write_bytes(data)
    ours = lo_reading(files["out"], accept_reject=True)
    assert ours["load_ok"]
    shown = lambda paragraphs: [t for t in map(normalize_text, paragraphs) if t]  # noqa: E731
    theirs = lo_reading(files["revised"], accept_reject=True)
    original = lo_reading(files["base"], accept_reject=True)
    assert shown(ours["accept_all"]["paragraphs"]) == shown(theirs["accept_all"]["paragraphs"])
    assert shown(ours["reject_all"]["paragraphs"]) == shown(original["accept_all"]["paragraphs"])
    assert ours["tracked_change_counts"]["paragraph_format"] >= 2
    # LibreOffice's own accept-all and reject-all, saved: each paragraph has the style (by name)
    # LibreOffice gives it in the revised version, and in the base
    accepted = _libreoffice_styles(files["out"], "accept", tmp_path)
    assert accepted == _libreoffice_styles(files["revised"], "accept", tmp_path)
    assert accepted["The supplier shall insure the goods in transit."] == "clause body"
    assert _libreoffice_styles(files["out"], "reject", tmp_path) == _libreoffice_styles(
        files["base"], "accept", tmp_path
    )


def _libreoffice_styles(path: Path, action: str, folder: Path) -> dict[str, str | None]:
    """Paragraph text → lower-case style name, in the file LibreOffice saves after Accept/Reject All."""
    saved = folder / f"{path.stem}-{action}.docx"
    checker = CHECKERS / f"lo_{action}_all.py"
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else "python3"
    proc = subprocess.run(
        [python, str(checker), str(path), str(saved), "--compact"],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    if proc.returncode == 3:
        pytest.skip(f"LibreOffice/UNO is not usable here: {proc.stderr.strip()[-300:]}")
    assert json.loads(proc.stdout)["reloaded_text_equal"], proc.stderr[-500:]
    package = zipfile.ZipFile(saved)
    names = {
        s.get(f"{W}styleId"): (s.find(f"{W}name").get(f"{W}val") or "").lower()
        for s in etree.fromstring(package.read("word/styles.xml")).iter(f"{W}style")
        if s.find(f"{W}name") is not None
    }
    document = etree.fromstring(package.read("word/document.xml"))
    out: dict[str, str | None] = {}
    for para in document.iter(f"{W}p"):
        style = para.find(f"{W}pPr/{W}pStyle")
        out[normalize_text("".join(para.itertext()))] = (
            names.get(style.get(f"{W}val")) if style is not None else None
        )
    return out
