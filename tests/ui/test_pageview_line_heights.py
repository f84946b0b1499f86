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
