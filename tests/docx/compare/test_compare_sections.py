"""Headers, footers and page setup in a redline: what only one version has is tracked or named.

A header (or footer) only the revised version has is copied into the redline with its text
inserted, referenced from the same section; one only the base has gets its text deleted. A
section whose page setup changed carries the revised settings with the base's in a
``w:sectPrChange``. A section break added is a paragraph whose mark is inserted and which
carries the new section's settings, as Word writes it; one removed has its mark deleted.
Each case is checked by our own accept/reject, by LibreOffice's, and by the schema checker.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from io import BytesIO
from pathlib import Path

import pytest
from lxml import etree

from reviewer_app.docx.compare import compare_docx_versions, generate_redline_docx
from tests.checkers import lo_resolve_all
from tests.compare_suite import resolved
from tests.docx_factory import make_docx, p
from tests.edit_invariants import assert_schema_no_new_errors, assert_structural
from tests.lo_known_differences import read_rows

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
BODY = p("First clause.") + p("Second clause.")
PORTRAIT = '<w:pgSz w:w="11906" w:h="16838"/>'
LANDSCAPE = '<w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/>'
MARGINS = '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/>'


def _sect(refs: str = "", size: str = PORTRAIT) -> str:
    return f"<w:sectPr>{refs}{size}{MARGINS}</w:sectPr>"


def _with(kind: str, text: str) -> bytes:
    """The body with a ``kind`` (header or footer) reading ``text`` on every page."""
    ref = f'<w:{kind}Reference w:type="default" r:id="rId1"/>'
    return make_docx(BODY + _sect(ref), **{kind: p(text)})


def _part_text(data: bytes, kind: str) -> str | None:
    """The visible text of the package's ``kind`` part (deleted text left out); None: no such part."""
    package = zipfile.ZipFile(BytesIO(data))
    names = [n for n in package.namelist() if n.startswith(f"word/{kind}") and n.endswith(".xml")]
    if not names:
        return None
    root = etree.fromstring(package.read(names[0]))
    return "".join(t.text or "" for t in root.iter(W + "t"))


def _sect_of(data: bytes) -> etree._Element:
    root = etree.fromstring(zipfile.ZipFile(BytesIO(data)).read("word/document.xml"))
    return root.find(f"{W}body/{W}sectPr")


@pytest.mark.parametrize("kind", ["header", "footer"])
def test_a_header_only_the_revised_version_has_is_inserted_with_its_reference(kind: str) -> None:
    """B adds a footer "ACME confidential": the redline has the footer part, referenced from the
    section, its text inserted; accepting shows it, rejecting leaves it empty."""
    base, revised = make_docx(BODY + _sect()), _with(kind, "ACME confidential")
    out = generate_redline_docx(base, revised)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    redline = out["buffer"]
    (ref,) = _sect_of(redline).findall(f"{W}{kind}Reference")
    assert ref.get(W + "type") == "default"
    package = zipfile.ZipFile(BytesIO(redline))
    part = etree.fromstring(package.read(f"word/{kind}1.xml"))
    inserted = "".join(t.text for ins in part.iter(W + "ins") for t in ins.iter(W + "t"))
    assert inserted == "ACME confidential"
    assert _part_text(resolved(redline, True), kind) == "ACME confidential"
    assert _part_text(resolved(redline, False), kind) == ""
    assert_structural(redline, base)
    assert_schema_no_new_errors(redline, base)


@pytest.mark.parametrize("kind", ["header", "footer"])
def test_a_header_only_the_base_has_has_its_text_deleted(kind: str) -> None:
    base, revised = _with(kind, "Draft for discussion"), make_docx(BODY + _sect())
    out = generate_redline_docx(base, revised)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    part = etree.fromstring(zipfile.ZipFile(BytesIO(out["buffer"])).read(f"word/{kind}1.xml"))
    deleted = "".join(t.text for d in part.iter(W + "del") for t in d.iter(W + "delText"))
    assert deleted == "Draft for discussion"
    assert _part_text(resolved(out["buffer"], True), kind) == ""
    assert _part_text(resolved(out["buffer"], False), kind) == "Draft for discussion"
    assert_schema_no_new_errors(out["buffer"], base)


def test_compare_lists_the_text_of_a_header_only_one_version_has() -> None:
    diff = compare_docx_versions(make_docx(BODY + _sect()), _with("header", "ACME confidential"))
    added = [c for c in diff["changes"] if c["type"] == "added"]
    assert [c["text"] for c in added] == ["ACME confidential"]


def test_a_page_setup_changed_is_tracked_as_a_section_change() -> None:
    """Portrait → landscape: the section gets the revised page size with the base's kept in a
    w:sectPrChange; accepting gives landscape, rejecting portrait; the header reference the
    base had stays outside the change."""
    ref = '<w:headerReference w:type="default" r:id="rId1"/>'
    base = make_docx(BODY + _sect(ref), header=p("ACME"))
    revised = make_docx(BODY + _sect(ref, LANDSCAPE), header=p("ACME"))
    out = generate_redline_docx(base, revised)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    sect = _sect_of(out["buffer"])
    assert [etree.QName(c).localname for c in sect] == [
        "headerReference",
        "pgSz",
        "pgMar",
        "sectPrChange",
    ]
    assert sect.find(f"{W}sectPrChange/{W}sectPr/{W}pgSz").get(W + "w") == "11906"
    accepted, rejected = _sect_of(resolved(out["buffer"], True)), _sect_of(resolved(out["buffer"], False))
    assert accepted.find(W + "pgSz").get(W + "orient") == "landscape"
    assert (
        rejected.find(W + "pgSz").get(W + "w") == "11906"
        and rejected.find(W + "pgSz").get(W + "orient") is None
    )
    assert rejected.find(W + "headerReference") is not None
    assert_structural(out["buffer"], base)
    assert_schema_no_new_errors(out["buffer"], base)


def test_the_same_page_setup_is_left_alone() -> None:
    base = make_docx(BODY + _sect())
    out = generate_redline_docx(base, make_docx(p("First clause.") + p("Second clause, amended.") + _sect()))
    assert _sect_of(out["buffer"]).find(W + "sectPrChange") is None


def _sections(data: bytes) -> str:
    """The body as sections: each one's non-blank paragraphs and its orientation, e.g.
    ``First clause. [landscape] / Second clause. [portrait]``."""
    body = etree.fromstring(zipfile.ZipFile(BytesIO(data)).read("word/document.xml")).find(W + "body")
    shown, texts = [], []

    def close(sect: etree._Element | None) -> None:
        size = sect.find(W + "pgSz") if sect is not None else None
        orient = (size.get(W + "orient") if size is not None else None) or "portrait"
        shown.append(f"{' + '.join(texts)} [{orient}]")
        texts.clear()

    for para in body.iter(W + "p"):
        text = "".join(t.text or "" for t in para.iter(W + "t"))
        if text.strip():
            texts.append(text)
        sect = para.find(f"{W}pPr/{W}sectPr")
        if sect is not None:
            close(sect)
    close(body.find(W + "sectPr"))
    return " / ".join(shown)


def _break(where: str) -> bytes:
    """B: a landscape section ends after the first clause (on its paragraph, on an empty paragraph
    of its own, or on a new clause), a header of its own on that section."""
    ref = '<w:headerReference w:type="default" r:id="rId1"/>'
    ending = {
        "on the clause": p(ppr=_sect(ref, LANDSCAPE), runs="<w:r><w:t>First clause.</w:t></w:r>"),
        "on its own line": p("First clause.") + p(ppr=_sect(ref, LANDSCAPE)),
        "on a new clause": p("First clause.")
        + p(ppr=_sect(ref, LANDSCAPE), runs="<w:r><w:t>A new clause.</w:t></w:r>"),
    }[where]
    return make_docx(ending + p("Second clause.") + _sect(), header=p("Schedule"))


BREAKS = ["on the clause", "on its own line", "on a new clause"]


@pytest.mark.parametrize("where", BREAKS)
def test_a_section_break_added_is_tracked_as_word_does(where: str) -> None:
    """A section break the revised version added is a paragraph whose mark is inserted and which
    carries the new section's settings; its new header is referenced from it. Accepting gives the
    revised sections, rejecting the base's single portrait one."""
    base, revised = make_docx(BODY + _sect()), _break(where)
    out = generate_redline_docx(base, revised)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    body = etree.fromstring(zipfile.ZipFile(BytesIO(out["buffer"])).read("word/document.xml")).find(
        W + "body"
    )
    (carrier,) = [q for q in body.iter(W + "p") if q.find(f"{W}pPr/{W}sectPr") is not None]
    assert carrier.find(f"{W}pPr/{W}rPr/{W}ins") is not None
    assert carrier.find(f"{W}pPr/{W}sectPr/{W}headerReference") is not None
    assert _sections(resolved(out["buffer"], True)) == _sections(revised)
    assert (
        _sections(resolved(out["buffer"], False))
        == _sections(base)
        == "First clause. + Second clause. [portrait]"
    )
    assert_structural(out["buffer"], base)
    assert_schema_no_new_errors(out["buffer"], base)


@pytest.mark.parametrize("centred", [False, True])
def test_a_section_break_on_a_clause_both_have_adds_no_paragraph(centred: bool) -> None:
    """On a clause both versions have, the clause's mark becomes the inserted one and its own
    mark moves to an empty paragraph marked deleted: neither side gains a paragraph. When the
    clause is also centred, that tracked change goes with each mark under an id of its own."""
    jc = '<w:jc w:val="center"/>' if centred else ""
    revised = make_docx(
        p(ppr=jc + _sect(size=LANDSCAPE), runs="<w:r><w:t>First clause.</w:t></w:r>")
        + p("Second clause.")
        + _sect()
    )
    base = make_docx(BODY + _sect())
    out = generate_redline_docx(base, revised)["buffer"]
    for accept in (True, False):
        body = etree.fromstring(zipfile.ZipFile(BytesIO(resolved(out, accept))).read("word/document.xml"))
        paragraphs = list(body.iter(W + "p"))
        assert len(paragraphs) == 2
        assert (paragraphs[0].find(f"{W}pPr/{W}jc") is not None) == (centred and accept)
    assert _sections(resolved(out, True)) == _sections(revised)
    assert_structural(out, base)
    assert_schema_no_new_errors(out, base)


@pytest.mark.parametrize("where", BREAKS)
def test_a_section_break_removed_is_tracked_as_word_does(where: str) -> None:
    """The other way round: the break's mark is deleted (a clause the revised version keeps hands
    its mark to an empty inserted paragraph), the removed section's header text is deleted, and
    the section left takes the revised page setup. Accepting gives one landscape section,
    rejecting the base's two."""
    base, revised = _break(where), make_docx(BODY + _sect(size=LANDSCAPE))
    out = generate_redline_docx(base, revised)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    assert (
        _sections(resolved(out["buffer"], True))
        == _sections(revised)
        == "First clause. + Second clause. [landscape]"
    )
    assert _sections(resolved(out["buffer"], False)) == _sections(base)
    assert _part_text(out["buffer"], "header") == ""  # "Schedule" is deleted text
    assert_structural(out["buffer"], base)
    assert_schema_no_new_errors(out["buffer"], base)


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


_LO_DIFFERENCES = {(case, mode): shown for case, mode, shown, _why in read_rows("lo_compare_differences.tsv")}


@pytest.mark.libreoffice
@pytest.mark.parametrize("removed", [False, True])
@pytest.mark.parametrize("where", BREAKS)
def test_libreoffice_accepts_and_rejects_a_section_break(tmp_path: Path, where: str, removed: bool) -> None:
    """LibreOffice's Accept All and Reject All give the revised and the base's sections but, where
    ``tests/data/lo_compare_differences.tsv`` says why, not their page setup."""
    base, revised = make_docx(BODY + _sect()), _break(where)
    if removed:
        base, revised = revised, base
    out = _write(tmp_path, "out.docx", generate_redline_docx(base, revised)["buffer"])
    case = f"{where}, removed" if removed else where
    for mode, expected in (("accept_all", revised), ("reject_all", base)):
        result = tmp_path / f"{mode}.docx"
        lo_resolve_all(out, result, accept=mode == "accept_all")
        assert _sections(result.read_bytes()) == _LO_DIFFERENCES.get((case, mode), _sections(expected))


@pytest.mark.libreoffice
@pytest.mark.parametrize("dropped", [False, True])
def test_libreoffice_accepts_and_rejects_a_footer_added_or_dropped(tmp_path: Path, dropped: bool) -> None:
    """LibreOffice sees the footer's text as one tracked change; its Accept All gives the revised
    footer (the text, or an empty footer), its Reject All the base's."""
    without, with_footer = make_docx(BODY + _sect()), _with("footer", "ACME confidential")
    base, revised = (with_footer, without) if dropped else (without, with_footer)
    out = _write(tmp_path, "out.docx", generate_redline_docx(base, revised)["buffer"])
    accepted = lo_resolve_all(out, tmp_path / "accepted.docx", accept=True)
    rejected = lo_resolve_all(out, tmp_path / "rejected.docx", accept=False)
    assert accepted["tracked_changes_before"] == 1
    assert accepted["reloaded_tracked_changes"] == rejected["reloaded_tracked_changes"] == 0
    shown = {
        name: _part_text((tmp_path / f"{name}.docx").read_bytes(), "footer") or ""
        for name in ("accepted", "rejected")
    }
    text = "ACME confidential"
    assert shown == ({"accepted": "", "rejected": text} if dropped else {"accepted": text, "rejected": ""})


@pytest.mark.libreoffice
def test_libreoffice_opens_a_page_setup_change_in_the_revised_setup(tmp_path: Path) -> None:
    """LibreOffice 7.4 does not read ``w:sectPrChange`` as a tracked change (it lists none, and
    its Reject All keeps the page setup the section has): it opens the redline in the revised
    page setup, as a reader that accepts it would, and its Accept All keeps it. Rejecting the
    change is ours and Word's to do (the test above)."""
    base = make_docx(BODY + _sect())
    redline = generate_redline_docx(base, make_docx(BODY + _sect(size=LANDSCAPE)))["buffer"]
    accepted = lo_resolve_all(_write(tmp_path, "out.docx", redline), tmp_path / "accepted.docx", accept=True)
    assert accepted["tracked_changes_before"] == 0
    size = _sect_of((tmp_path / "accepted.docx").read_bytes()).find(W + "pgSz")
    assert (size.get(W + "w"), size.get(W + "orient")) == ("16838", "landscape")


def _png() -> bytes:
    """A 1×1 white PNG."""
    raw = b"\x00\xff\xff\xff"

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def _with_logo(data: bytes) -> bytes:
    """``data`` (whose header shows a picture by ``rId1``) with the header's picture part added."""
    source = zipfile.ZipFile(BytesIO(data))
    out = BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            content = source.read(name)
            if name == "[Content_Types].xml":
                content = content.replace(
                    b"<Default ", b'<Default Extension="png" ContentType="image/png"/><Default ', 1
                )
            target.writestr(name, content)
        target.writestr(
            "word/_rels/header1.xml.rels",
            '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image"'
            ' Target="media/logo.png"/></Relationships>',
        )
        target.writestr("word/media/logo.png", _png())
    return out.getvalue()


def test_a_new_header_brings_its_picture() -> None:
    """A header with a logo only the revised version has: the picture part is copied with it and the
    header's picture points at the copy; the base's own picture of the same name is kept."""
    logo = (
        '<w:r><w:pict xmlns:v="urn:schemas-microsoft-com:vml"><v:shape style="width:20pt;height:20pt">'
        '<v:imagedata r:id="rId1"/></v:shape></w:pict></w:r><w:r><w:t xml:space="preserve"> ACME</w:t></w:r>'
    )
    ref = '<w:headerReference w:type="default" r:id="rId1"/>'
    revised = _with_logo(make_docx(BODY + _sect(ref), header=p(runs=logo)))
    base = make_docx(BODY + _sect())
    out = generate_redline_docx(base, revised)
    assert out["skipped"] == [] and out["unprocessedStories"] == []
    package = zipfile.ZipFile(BytesIO(out["buffer"]))
    rels = etree.fromstring(package.read("word/_rels/header1.xml.rels"))
    (rel,) = rels
    assert package.read("word/" + rel.get("Target")) == _png()
    header = etree.fromstring(package.read("word/header1.xml"))
    (image,) = header.iter("{urn:schemas-microsoft-com:vml}imagedata")
    assert image.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id") == rel.get(
        "Id"
    )
    assert _part_text(resolved(out["buffer"], True), "header") == " ACME"
    assert_structural(out["buffer"], base)
    assert_schema_no_new_errors(out["buffer"], base)


def test_a_section_break_put_on_another_paragraph_is_named() -> None:
    """Both versions have two sections, but the revised one ends the first a clause later: as
    many sections, settings alike, and still a difference the report must name."""

    def ends_after(index: int) -> bytes:
        texts = ["First clause.", "Second clause.", "Third clause."]
        paras = [
            p(ppr=_sect(), runs=f"<w:r><w:t>{t}</w:t></w:r>") if i == index else p(t)
            for i, t in enumerate(texts)
        ]
        return make_docx("".join(paras) + _sect())

    out = generate_redline_docx(ends_after(0), ends_after(1))
    assert [s["reason"] for s in out["skipped"]] == [
        'the section break after "Second clause." is not where the base has it and is not marked'
    ]
    assert generate_redline_docx(ends_after(0), ends_after(0))["skipped"] == []
