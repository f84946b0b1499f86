"""Every cell of a table row keeps the row's largest top and bottom cell margin, as in Word and
LibreOffice.

The Common Paper cover pages give their label cells 7.2 pt top and bottom margins (``w:tcMar``)
and the cells beside them none: Word and LibreOffice start the neighbour's text 7.2 pt below the
row's top too, and end the row 7.2 pt below its last line. Laid out with each cell's own margins,
the drafting notes touched the row's border and the rows came out shorter, so "Key Terms" moved up
to the first page. The PDF is read by poppler (``pdftotext -bbox``), as the corpus checker reads it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.render import render_pdf
from tests.docx_factory import make_docx, p

#: 20 pt above and below
MARGINS = '<w:tcMar><w:top w:w="400" w:type="dxa"/><w:bottom w:w="400" w:type="dxa"/></w:tcMar>'
_WORD = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>(\w+)</word>')


def _cell(content: str, margins: str = "") -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/>{margins}</w:tcPr>{content}</w:tc>'


def _table(rows: str) -> str:
    borders = '<w:tblBorders><w:insideH w:val="single" w:sz="4"/></w:tblBorders>'
    return (
        f'<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/>{borders}<w:tblLayout w:type="fixed"/></w:tblPr>'
        f'<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>{rows}</w:tbl>'
    )


def test_a_cell_without_margins_takes_its_rows_largest(qapp, tmp_path: Path) -> None:
    first = "<w:tr>" + _cell(p("Kilo"), MARGINS) + _cell(p("Lima") + p("Mike") + p("November")) + "</w:tr>"
    second = "<w:tr>" + _cell(p("Tango")) + _cell(p("Uniform")) + "</w:tr>"
    reviewer = DocxReviewer.from_bytes(make_docx(_table(first + second) + p("Below.")))
    pdf = tmp_path / "margins.pdf"
    render_pdf(reviewer, pdf)
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    tops = {word: float(top) for top, word in _WORD.findall(done.stdout)}
    assert abs(tops["Lima"] - tops["Kilo"]) < 0.1  # 20 pt below the row's top, beside "Kilo"
    pitch = tops["Mike"] - tops["Lima"]
    # the row ends 20 pt below its last line there, and the next row has no margins
    assert abs(tops["Tango"] - tops["November"] - (pitch + 20.0)) < 1.0
    assert abs(tops["Uniform"] - tops["Tango"]) < 0.1
