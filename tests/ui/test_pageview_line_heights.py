"""A single-spaced line is as tall as in LibreOffice, to the twip, so long pages end on the same line.

Calibri's (Carlito's) 11 pt line is 13.43 pt by the font's metrics; LibreOffice keeps it in whole
twips, 13.45 pt. Qt rounded it up to a whole layout unit, 13.5 pt: 2 pt lower after 40 lines,
and a long table row's page held a line less than LibreOffice's. The PDF is read by poppler
(``pdftotext -bbox``), as the corpus checker reads it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.render import render_pdf
from tests.docx_factory import make_docx, p

_WORD = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>(Line\d+)</word>')
CALIBRI = (
    '<w:r><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/></w:rPr><w:t>{}</w:t></w:r>'
)


def test_a_page_of_calibri_lines_is_as_tall_as_in_libreoffice(qapp, tmp_path: Path) -> None:
    body = "".join(p(runs=CALIBRI.format(f"Line{n:02d} of the page")) for n in range(41))
    pdf = tmp_path / "lines.pdf"
    render_pdf(DocxReviewer.from_bytes(make_docx(body)), pdf)
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    tops = {word: float(top) for top, word in _WORD.findall(done.stdout)}
    assert abs(tops["Line40"] - tops["Line00"] - 40 * 13.45) < 0.1  # LibreOffice: 538.0 pt


ARIAL8 = '<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="16"/></w:rPr>'
CALIBRI12 = (
    '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/>'
    '<w:sz w:val="24"/></w:rPr></w:rPrDefault></w:docDefaults>'
)
_CLAUSE = " ".join(f"word{n}" for n in range(45))


def _tops(qapp, tmp_path: Path, body: str, styles: str) -> list[float]:
    """The top (pt) of each line's first word in the PDF, as poppler reads it."""
    pdf = tmp_path / "lines.pdf"
    render_pdf(DocxReviewer.from_bytes(make_docx(body, styles=styles)), pdf)
    done = subprocess.run(["pdftotext", "-bbox-layout", str(pdf), "-"], capture_output=True, text=True)
    return [
        float(top) for top in re.findall(r'<line [^>]*>\s*<word xMin="[\d.]+" yMin="([\d.]+)"', done.stdout)
    ]


def test_a_clause_has_its_texts_line_height_whatever_its_paragraph_marks_font(qapp, tmp_path: Path) -> None:
    """8 pt Arial clauses under 12 pt Calibri paragraph marks (the data processing agreement):
    LibreOffice 7.4 gives every line, the last one too, Arial's 9.2 pt, as under an Arial mark;
    the mark's font sets the height of an empty paragraph only (Calibri 12: 14.65 pt)."""
    clause = f"<w:p><w:r>{ARIAL8}<w:t>{_CLAUSE}</w:t></w:r></w:p>"
    after = f"<w:p><w:r>{ARIAL8}<w:t>after</w:t></w:r></w:p>"
    tops = _tops(qapp, tmp_path, clause + after + "<w:p/>" + after, CALIBRI12)
    assert len(tops) == 5  # three lines, "after", the empty paragraph has none, "after"
    assert [round(b - a, 1) for a, b in zip(tops, tops[1:3], strict=False)] == [9.2, 9.2]
    assert abs(tops[3] - tops[2] - 9.2) < 0.1  # LibreOffice: 108.7 - 99.5
    assert abs(tops[4] - tops[3] - (9.2 + 14.65)) < 0.1  # LibreOffice: 23.9


def test_a_run_of_spaces_in_a_taller_font_leaves_its_line_as_high(qapp, tmp_path: Path) -> None:
    """Two spaces in the style's 10 pt Times New Roman after an 8 pt Arial clause title
    ("Reservation of Rights.  Provider...", software licence agreement): LibreOffice keeps the
    first line 9.2 pt high, where Qt made it 9.7 pt and set the clause 1.7 pt lower on its line; a
    full stop in that font does raise it (LibreOffice: 9.7 pt)."""
    times10 = (
        '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman"/>'
        '<w:sz w:val="20"/></w:rPr></w:rPrDefault></w:docDefaults>'
    )

    def clause(title: str, between: str) -> str:
        return (
            f'<w:p><w:r>{ARIAL8}<w:t>{title}</w:t></w:r><w:r><w:t xml:space="preserve">{between}</w:t></w:r>'
            f'<w:r>{ARIAL8}<w:t xml:space="preserve">{_CLAUSE}</w:t></w:r></w:p>'
        )

    tops = _tops(qapp, tmp_path, clause("Spaces", "  ") + clause("Stop", ". "), times10)
    assert len(tops) == 6
    assert [round(b - a, 1) for a, b in zip(tops[:2], tops[1:3], strict=True)] == [9.2, 9.2]
    # the full stop's taller ascent sets "Stop" 1.7 pt lower on its line (LibreOffice: 158.9 - 147.9)
    assert abs(tops[3] - tops[2] - 11.0) < 0.15
    assert abs(tops[4] - tops[3] - 9.7) < 0.15  # LibreOffice: 168.6 - 158.9
