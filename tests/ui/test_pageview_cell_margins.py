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
from tests.libreoffice_pdf import NEEDS_LIBREOFFICE, libreoffice_boxes

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


def _spaced(text: str) -> str:
    """A paragraph with 12 pt space before and 18 pt after."""
    return p(text, ppr='<w:spacing w:before="240" w:after="360"/>')


#: Word's automatic (HTML) spacing, 14 pt before and after: none at a cell's top and foot
_AUTO = '<w:spacing w:before="100" w:beforeAutospacing="1" w:after="100" w:afterAutospacing="1"/>'


def _tops(pdf_text: str) -> dict[str, float]:
    return {word: float(top) for top, word in _WORD.findall(pdf_text)}


@NEEDS_LIBREOFFICE
def test_a_cells_first_and_last_paragraph_keep_their_spacing_as_in_libreoffice(qapp, tmp_path: Path) -> None:
    """LibreOffice 7.4 starts a cell's first line its paragraph's space before below the cell's top
    margin and ends the row its last paragraph's space after below its last line; a centred or
    bottom-aligned cell places its spaced paragraphs as a whole; in a row of exact height too the
    first line starts below the space before. Automatic spacing is left out there. Between two
    paragraphs of a cell LibreOffice adds the first's space after to the second's space before. Qt drops the first block's top and the last block's
    bottom margin in a cell: the lines of these tables were up to 42 pt higher than LibreOffice's
    (data processing agreement: same-page share 0.995)."""

    def four(word: str) -> str:
        return "".join(p(f"{word}{n}") for n in range(4))

    tables = [
        "<w:tr>" + _cell(_spaced("Alpha")) + _cell(p("Xray")) + "</w:tr>",
        "<w:tr>" + _cell(p("Bravo")) + _cell(_spaced("Yankee") + _spaced("Zulu")) + "</w:tr>",
        "<w:tr>" + _cell(_spaced("Charlie"), MARGINS) + _cell(p("Kilo")) + "</w:tr>",
        "<w:tr>" + _cell(_spaced("Delta"), '<w:vAlign w:val="center"/>') + _cell(four("Oscar")) + "</w:tr>",
        "<w:tr>" + _cell(_spaced("Echo"), '<w:vAlign w:val="bottom"/>') + _cell(four("Papa")) + "</w:tr>",
        "<w:tr>" + _cell(p("Golf", ppr=_AUTO)) + _cell(p("Mike")) + "</w:tr>",
        '<w:tr><w:trPr><w:trHeight w:val="1200" w:hRule="exact"/></w:trPr>'
        + _cell(_spaced("Foxtrot"))
        + _cell(p("Lima"))
        + "</w:tr>",
    ]
    body = p("Above") + "".join(_table(row) + p(f"Gap{n}") for n, row in enumerate(tables))
    source = tmp_path / "spaced.docx"
    source.write_bytes(make_docx(body))
    pdf = tmp_path / "ours.pdf"
    render_pdf(DocxReviewer.from_bytes(source.read_bytes()), pdf)
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    ours = _tops(done.stdout)
    theirs = _tops(libreoffice_boxes([source], tmp_path / "lo")[0])
    words = list(theirs)
    assert len(words) == 29
    # from the first line's top: poppler reads a word's top from the font's ascent, which is
    # not the same number in the two PDFs' embedded fonts
    shift = {w: ours[w] - ours["Above"] - (theirs[w] - theirs["Above"]) for w in words}
    moved = {w: round(d, 2) for w, d in shift.items() if abs(d) > 0.3}
    assert not moved
