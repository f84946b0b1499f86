"""Fonts the pages are set in, and the exported PDF as a client reads it (searchable, with comments).

The stand-ins for Calibri, Cambria, Arial, Times New Roman and Courier New are Reviewer's own files
in ``resources/fonts``, read here with QRawFont, so these tests hold on a machine with no fonts
installed at all. The PDFs are read back with poppler's ``pdftotext``, as a client's PDF reader
or search would.
"""

from __future__ import annotations

import re
import shutil
from itertools import pairwise
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QRawFont

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.resources import resource_path
from reviewer_app.ui.pageview.fonts import families_for, register_bundled_fonts
from reviewer_app.ui.pageview.layout import PagedLayout
from reviewer_app.ui.pageview.render import render_pdf
from tests.bridge_conformance import fixture_docx
from tests.cli_runner import run_reviewer_without_display
from tests.conftest import REPO_ROOT
from tests.docx_factory import make_docx
from tests.pdf_text import pdf_text

OFFICE_FAMILIES = ("Calibri", "Cambria", "Arial", "Times New Roman", "Courier New")
#: words Carlito, Caladea and Liberation would draw with a ligature glyph ("ti", "ff", "ffi", "ft")
LIGATURE_WORDS = ("parties", "Oftentimes", "office", "affiliate", "effective", "first", "fluent")
SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
COMMENT_TEXT = "Is on time defined?"


def _bundled_faces() -> dict[str, set[tuple[bool, bool]]]:
    """Family -> {(bold, italic)} of the .ttf files shipped in resources/fonts."""
    faces: dict[str, set[tuple[bool, bool]]] = {}
    for path in sorted(resource_path("fonts").glob("*.ttf")):
        raw = QRawFont(str(path), 12)
        assert raw.isValid(), path
        bold = raw.weight() >= QFont.Weight.Bold.value
        italic = raw.style() != QFont.Style.StyleNormal
        faces.setdefault(raw.familyName(), set()).add((bold, italic))
    return faces


def test_every_office_font_has_a_bundled_stand_in_in_four_styles(qapp) -> None:
    faces = _bundled_faces()
    every_style = {(False, False), (True, False), (False, True), (True, True)}
    for family in OFFICE_FAMILIES:
        chain = families_for(family)
        assert chain[0] == family  # the real face first, where it is installed
        assert chain[1] in faces, family
        assert faces[chain[1]] == every_style, chain[1]
    assert set(register_bundled_fonts()) == set(faces)
    folder = resource_path("fonts")
    for licence in ("LICENSE-Carlito.txt", "LICENSE-Caladea.txt", "LICENSE-Liberation.txt"):
        assert "Open Font License" in (folder / licence).read_text(encoding="utf-8")


def test_a_missing_office_font_is_laid_out_in_its_bundled_stand_in(qapp) -> None:
    """A run in each Office font is set in that font where installed, else in the shipped stand-in."""
    runs = "".join(
        f'<w:p><w:r><w:rPr><w:rFonts w:ascii="{f}" w:hAnsi="{f}"/></w:rPr><w:t>{f} text</w:t></w:r></w:p>'
        for f in OFFICE_FAMILIES
    )
    layout = PagedLayout(DocxReviewer.from_bytes(make_docx(runs)), "all").build_all()
    document = layout.docs[0].document
    installed = set(QFontDatabase.families())
    seen = {}
    block = document.begin()
    while block.isValid():
        it = block.begin()
        if not it.atEnd() and block.text().endswith(" text"):
            seen[block.text()[: -len(" text")]] = QFontInfo(it.fragment().charFormat().font()).family()
        block = block.next()
    for family in OFFICE_FAMILIES:
        expected = family if family in installed else families_for(family)[1]
        assert seen[family] == expected


def test_pdf_text_extracts_letter_for_letter(tmp_path: Path) -> None:
    """`reviewer pdf` of words set with ligature-prone letter pairs, in each stand-in: all extract whole."""
    sentence = " ".join(LIGATURE_WORDS)
    body = "".join(
        f'<w:p><w:r><w:rPr><w:rFonts w:ascii="{f}" w:hAnsi="{f}"/></w:rPr><w:t>{sentence}</w:t></w:r></w:p>'
        for f in OFFICE_FAMILIES
    )
    source = tmp_path / "words.docx"
    source.write_bytes(make_docx(body))
    out = tmp_path / "words.pdf"
    done = run_reviewer_without_display("pdf", str(source), "-o", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    text = pdf_text(out)
    for word in LIGATURE_WORDS:
        assert len(re.findall(rf"\b{word}\b", text)) == len(OFFICE_FAMILIES), (word, text)
    assert "par es" not in text and "O en mes" not in text


def test_pdf_has_the_comments_in_all_markup_and_not_without_markup(tmp_path: Path) -> None:
    source = tmp_path / "commented.docx"
    source.write_bytes(fixture_docx())
    shown, clean, narrow = tmp_path / "all.pdf", tmp_path / "none.pdf", tmp_path / "narrow.pdf"
    assert run_reviewer_without_display("pdf", str(source), "-o", str(shown), cwd=tmp_path).returncode == 0
    text = pdf_text(shown)
    assert COMMENT_TEXT in text and "Ann" in text  # the balloon: author and comment
    assert "The Supplier delivers the goods on time." in text
    done = run_reviewer_without_display(
        "pdf", str(source), "-o", str(clean), "--markup", "none", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert COMMENT_TEXT not in pdf_text(clean)  # No Markup shows no balloons, in the window either
    done = run_reviewer_without_display("pdf", str(source), "-o", str(narrow), "--no-comments", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert COMMENT_TEXT not in pdf_text(narrow)


def test_export_redline_pdf_from_the_file_menu_has_the_balloons(qtbot, tmp_path: Path, monkeypatch) -> None:
    """File ▸ Export Redline PDF… in All markup: the PDF has the comment threads the view shows."""
    from reviewer_app.ui.main_window import MainWindow

    if not SAMPLE.exists():
        pytest.skip("the sample contract is missing")
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    source = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, source)
    assert window.open_path(str(source))
    window.actions.markup_all.trigger()
    target = tmp_path / "redline.pdf"
    monkeypatch.setattr(window.files, "ask_save_path", lambda *args: str(target))
    file_menu = next(a.menu() for a in window.menuBar().actions() if a.menu() and "File" in a.text())
    assert window.actions.export_pdf in file_menu.actions()
    window.actions.export_pdf.trigger()
    text = " ".join(pdf_text(target).split())
    assert "Should Scottish bank holidays be excluded as well?" in text
    assert "Priya Shah" in text


def test_symbol_font_characters_show_as_their_unicode_look_alikes(qapp) -> None:
    """Wingdings and Symbol characters (w:sym, or runs in those fonts) are drawn as the glyph the font
    has there, which any machine can draw; the document's own text keeps what was written."""
    runs = (
        '<w:r><w:t xml:space="preserve">Agreed </w:t></w:r>'
        '<w:r><w:sym w:font="Wingdings" w:char="F0FC"/></w:r>'
        '<w:r><w:t xml:space="preserve"> Declined </w:t></w:r>'
        '<w:r><w:rPr><w:rFonts w:ascii="Wingdings" w:hAnsi="Wingdings"/></w:rPr><w:t>\uf0a8</w:t></w:r>'
        '<w:r><w:t xml:space="preserve"> term </w:t></w:r>'
        '<w:r><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr><w:t>\u00b3</w:t></w:r>'
        '<w:r><w:t xml:space="preserve"> 12 months</w:t></w:r>'
    )
    reviewer = DocxReviewer.from_bytes(make_docx(f"<w:p>{runs}</w:p>"))
    layout = PagedLayout(reviewer, "all").build_all()
    shown = layout.docs[0].document.toPlainText()
    assert "Agreed ✔ Declined ◻ term ≥ 12 months" in shown
    (block,) = reviewer.snapshot().content_blocks()
    assert block.text == "Agreed \uf0fc Declined \uf0a8 term \u00b3 12 months"
    record = layout.by_id[block.id]
    document = layout.docs[0].document
    position = record.position_of(block.text.index(" Declined"))  # clean offsets find their place
    assert "".join(document.characterAt(position + i) for i in range(9)) == " Declined"
    assert record.clean_offset(position) == block.text.index(" Declined")


def _many_comments_docx(count: int, words: int) -> bytes:
    """One short paragraph per comment, each comment ``words`` words long and ending in its number."""
    body, comments = [], []
    for i in range(1, count + 1):
        body.append(
            f'<w:p><w:commentRangeStart w:id="{i}"/><w:r><w:t>Clause {i} applies.</w:t></w:r>'
            f'<w:commentRangeEnd w:id="{i}"/><w:r><w:commentReference w:id="{i}"/></w:r></w:p>'
        )
        text = " ".join(["Please reconsider this wording"] * (words // 4)) + f" end-of-note-{i}"
        comments.append(
            f'<w:comment w:id="{i}" w:author="Ann" w:initials="A" w:date="2024-01-02T03:04:05Z">'
            f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:comment>"
        )
    return make_docx("".join(body), comments="".join(comments))


def test_a_page_with_more_comments_than_its_column_holds_keeps_them_all_on_the_page(
    qapp, tmp_path: Path
) -> None:
    """Twelve long comments on a one-page contract: every balloon lies on the page (none runs off its
    foot, where a PDF would lose it) and every comment's last word is in the PDF's text."""
    from reviewer_app.ui.pageview.paint import PagePainter
    from reviewer_app.ui.pageview.render import render_page_image

    reviewer = DocxReviewer.from_bytes(_many_comments_docx(12, 60))
    layout = PagedLayout(reviewer, "all").build_all()
    assert layout.page_count() == 1
    painter = PagePainter(layout, layout.headers)
    render_page_image(layout, 0, dpi=30, painter_impl=painter)
    boxes = painter.balloon_boxes[0]
    assert len(boxes) == 12
    page = layout.pages()[0]
    ordered = sorted((box for box, _id in boxes), key=lambda box: box.top())
    assert ordered[0].top() >= 0 and ordered[-1].bottom() <= page.height
    assert all(above.bottom() <= below.top() for above, below in pairwise(ordered))  # none hides another
    out = tmp_path / "comments.pdf"
    render_pdf(reviewer, out, layout=layout)
    text = " ".join(pdf_text(out).split())
    assert all(f"end-of-note-{i}" in text for i in range(1, 13))


def test_letter_pairs_are_kerned_only_where_the_run_asks_as_in_word(qapp) -> None:
    """Word kerns a run only with ``w:kern`` (from that size on); kerning every run made our lines
    narrower than Word's, so justified contracts broke their lines a word later than LibreOffice."""
    text = "AVA Tower, WAVY Yves: To LAVA"
    kern = {"plain": "", "kerned": '<w:kern w:val="2"/>', "below its size": '<w:kern w:val="48"/>'}
    runs = "".join(
        f'<w:p><w:r><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/>{k}</w:rPr><w:t>{text}</w:t></w:r></w:p>'
        for k in kern.values()
    )
    document = PagedLayout(DocxReviewer.from_bytes(make_docx(runs)), "all").build_all().docs[0].document
    widths = []
    block = document.begin()
    while block.isValid():
        if block.text() == text:
            widths.append(block.layout().lineAt(0).naturalTextWidth())
        block = block.next()
    plain, kerned, below = widths
    assert kerned < plain * 0.98
    assert below == plain


@pytest.mark.parametrize(
    ("family", "size", "em"),
    [
        # (ascender + descender + line gap) / units per em of the stand-in's hhea table, as LibreOffice reads it
        ("Arial", 11, (1854 + 434 + 67) / 2048),
        ("Arial", 8, (1854 + 434 + 67) / 2048),
        ("Times New Roman", 11, (1825 + 443 + 87) / 2048),
        ("Calibri", 11, (1536 + 512 + 452) / 2048),
    ],
)
def test_single_spaced_lines_are_as_tall_as_in_libreoffice(qapp, family: str, size: int, em: float) -> None:
    """A page of 8 pt Arial held two lines more than LibreOffice's: its stand-in's line gap counts."""
    words = " ".join(["clause"] * 80)
    rpr = f'<w:rPr><w:rFonts w:ascii="{family}" w:hAnsi="{family}"/><w:sz w:val="{size * 2}"/></w:rPr>'
    body = f"<w:p><w:pPr>{rpr}</w:pPr><w:r>{rpr}<w:t>{words}</w:t></w:r></w:p>"
    layout = PagedLayout(DocxReviewer.from_bytes(make_docx(body)), "all").build_all()
    lines = layout.docs[0].document.begin().layout()
    assert lines.lineCount() > 3
    pitch = lines.lineAt(2).y() - lines.lineAt(1).y()
    assert pitch == pytest.approx(size * 10 * em, abs=1.0)  # LU: 10 to the point
