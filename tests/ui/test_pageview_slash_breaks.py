"""A URL near the end of a line moves to the next line whole, as Word and LibreOffice lay it out;
so does a word with a closing brace inside it ("{IF x}Professional").

Qt's Unicode line breaking allows a break after a slash, so "https://" stayed at the end of one
line and the rest of the address went to the next (on 6 of the 18 corpus contracts). Word breaks
neither a URL nor "and/or" there. The page view moves the word down with a layout-only line
separator (see ``reviewer_app/ui/pageview/slash_breaks.py``); these tests read the laid-out lines
back. The fonts are the bundled Carlito (Calibri's stand-in), so the breaks do not depend on the
machine.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from PySide6.QtGui import QFontMetricsF, QTextBlock

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.caret import paragraph_text
from reviewer_app.ui.pageview.layout import PagedLayout
from reviewer_app.ui.pageview.render import render_pdf
from tests.cli_runner import run_reviewer
from tests.conftest import CORPUS
from tests.docx_factory import make_docx, p

#: no hyphen in it: Word and LibreOffice would break at one (as "pilot-" | "agreement/1.1")
URL = "https://commonpaper.com/standards/cloudservice/2.1"
#: opening words of growing length: one of them leaves just room for "https://" on the first line
OPENINGS = [f"The Standard Terms are posted at {'x' * n} " for n in range(0, 60, 3)]


#: a cover-table cell of the Common Paper cloud service agreement: 3420 twips, 115-twip margins
NARROW_CELL = (
    '<w:tbl><w:tblPr><w:tblW w:w="3420" w:type="dxa"/><w:tblLayout w:type="fixed"/></w:tblPr>'
    '<w:tblGrid><w:gridCol w:w="3420"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="3420" w:type="dxa"/>'
    '<w:tcMar><w:left w:w="115" w:type="dxa"/><w:right w:w="115" w:type="dxa"/></w:tcMar></w:tcPr>'
    "{}</w:tc></w:tr></w:tbl>"
)


def _layout(body: str) -> tuple[DocxReviewer, PagedLayout]:
    reviewer = DocxReviewer.from_bytes(make_docx(body))
    return reviewer, PagedLayout(reviewer, "all").build_all()


def _lines(block: QTextBlock) -> list[str]:
    layout = block.layout()
    text = block.text()
    return [
        text[line.textStart() : line.textStart() + line.textLength()]
        for line in (layout.lineAt(i) for i in range(layout.lineCount()))
    ]


def _blocks_with(layout: PagedLayout, needle: str) -> list[QTextBlock]:
    found = []
    for doc in layout.docs:
        block = doc.document.begin()
        while block.isValid():
            if needle in block.text():
                found.append(block)
            block = block.next()
    return found


def test_a_url_at_the_end_of_a_line_moves_to_the_next_line_whole(qapp) -> None:
    body = "".join(p(opening + URL + " governs this Order Form.") for opening in OPENINGS)
    reviewer, layout = _layout(body)
    blocks = _blocks_with(layout, "/standards/")
    assert len(blocks) == len(OPENINGS)
    moved = 0
    for block in blocks:
        lines = _lines(block)
        assert any(URL in line for line in lines), lines  # never "https://" | "commonpaper.com/..."
        moved += any(line.lstrip("\u2028").startswith(URL) for line in lines[1:])
    assert moved, "some opening must leave the URL too little room on the first line"
    # what the agent and the caret read is the paragraph as written, without the layout's mark,
    # also once a paragraph is laid out again after an edit
    for snapshot_block in reviewer.snapshot().blocks:
        assert layout.rerender_block(snapshot_block.id)
        record = layout.by_id[snapshot_block.id]
        assert paragraph_text(layout, record) == snapshot_block.text
    for block in _blocks_with(layout, "/standards/"):
        assert any(URL in line for line in _lines(block)), _lines(block)


def test_and_or_stays_whole_as_in_word(qapp) -> None:
    openings = [f"The Provider {'y' * n} may suspend " for n in range(40, 80, 2)]
    _reviewer, layout = _layout("".join(p(o + "and/or terminate the Services.") for o in openings))
    for block in _blocks_with(layout, "and/or"):
        assert any("and/or" in line for line in _lines(block)), _lines(block)


def test_the_line_before_a_moved_url_is_still_justified_in_a_table_cell(qapp) -> None:
    """In a justified paragraph the line the URL left is stretched to the cell's edge, as Word does."""
    cells = "".join(
        '<w:tr><w:tc><w:tcPr><w:tcW w:w="9360" w:type="dxa"/></w:tcPr>'
        + p(opening + URL + " governs.", ppr='<w:jc w:val="both"/>')
        + "</w:tc></w:tr>"
        for opening in OPENINGS
    )
    table = (
        '<w:tbl><w:tblPr><w:tblW w:w="9360" w:type="dxa"/><w:tblBorders>'
        '<w:left w:val="single" w:sz="4"/><w:right w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>'
        f'<w:tblGrid><w:gridCol w:w="9360"/></w:tblGrid>{cells}</w:tbl>'
    )
    _reviewer, layout = _layout(table + p("After the table."))
    stretched = 0
    for block in _blocks_with(layout, "/standards/"):
        lines = _lines(block)
        assert any(URL in line for line in lines), lines
        text_layout = block.layout()
        for index, line_text in enumerate(lines[:-1]):
            if lines[index + 1].lstrip("\u2028").startswith(URL):
                line = text_layout.lineAt(index)
                last = line.textStart() + len(line_text.rstrip(" \u2028"))
                # its last word ends within a point of the cell's right edge: not left ragged
                assert line.width() - (line.cursorToX(last)[0] - line.x()) < 10.0, line_text
                stretched += 1
    assert stretched


def test_a_word_with_a_closing_brace_is_not_split_after_it(qapp) -> None:
    """Qt may break after "}" before a letter or digit; Word and LibreOffice break only at spaces
    and hyphens there, so "{abc}Professional" goes to the next line whole. Before "(" they break
    after the brace too, and so does the page view."""
    openings = [f"Words words words {'w' * n} " for n in range(0, 14)]
    words = ("{abc}Professional", "{abc}1234567890")
    body = "".join(NARROW_CELL.format(p(o + w + " and more")) for o in openings for w in words)
    _reviewer, layout = _layout(body + p("After."))
    moved = 0
    for word in words:
        blocks = _blocks_with(layout, word)
        assert len(blocks) == len(openings)
        for block in blocks:
            lines = _lines(block)
            assert any(word in line for line in lines), lines
            moved += any(line.startswith(word) for line in lines[1:])
    assert moved >= 2, "some openings must leave the word too little room on the first line"
    _reviewer, layout = _layout(NARROW_CELL.format(p("Words words words words w {abc}(Professional")))
    assert _lines(_blocks_with(layout, "{abc}")[0])[1] == "(Professional"


def test_a_word_longer_than_the_cell_is_cut_where_it_overflows(qapp, tmp_path: Path) -> None:
    """A word too long for its cell goes to a line of its own and is cut after its last character
    that fits, as in Word (and LibreOffice), not after the brace inside it where Qt would; the
    agent reads the paragraph as written and the PDF's text has no mark in it."""
    text = "{IF has_professional_services}Professional Services"
    reviewer, layout = _layout(NARROW_CELL.format(p(text)) + p("After."))
    block = _blocks_with(layout, "has_professional")[0]
    lines = [line.rstrip("\u2028") for line in _lines(block)]
    assert lines[0].strip() == "{IF"
    assert lines[1].startswith("has_professional_services}Prof"), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    line = block.layout().lineAt(1)
    assert line.naturalTextWidth() <= line.width()
    assert text in [paragraph_text(layout, record) for record in layout.by_id.values()]
    pdf = tmp_path / "cell.pdf"
    render_pdf(reviewer, pdf, layout=layout)
    extracted = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    pdf_lines = extracted.stdout.split()
    assert pdf_lines[:2] == ["{IF", lines[1]], pdf_lines
    assert not {"\u2028", "\u200b"} & set(extracted.stdout)


def test_a_url_qt_will_not_cut_where_we_measured_still_lays_out(tmp_path: Path) -> None:
    """docx4j's Getting Started guide has a GitHub address after a line break, longer than its
    line: where our measure of what fits and Qt's differ, Qt keeps its own break before the mark
    we set, and setting the mark again and again hung ``reviewer pdf`` for ever. The address is
    laid out (in its own process, so a hang fails the test instead of the suite) and reads whole."""
    source = CORPUS / "public" / "docx4j_Docx4j_GettingStarted.docx"
    out = tmp_path / "guide.pdf"
    done = run_reviewer("pdf", source, "-o", out, timeout=240)
    assert done.returncode == 0, done.stderr
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "main/java/org/docx4j/sample" in text.replace("\n", "")


def test_an_address_longer_than_its_cell_fills_the_line_it_is_cut_on(qapp) -> None:
    """Cut where Qt's own line overflows: measured apart from Qt, the cut fell a fraction past what
    Qt fits in cells 2059, 3398 and 3450 twips wide, Qt kept its own break after an earlier slash
    and the line ended short (docx4j's Getting Started guide: 35 pt short of the margin)."""
    address = (
        "https://github.com/plutext/docx4j/tree/master/docx4j-samples-conversion-via-microsoft-graph"
        "/src/main/java/org/docx4j/samples/graph_convert"
    )
    runs = f'<w:r><w:t xml:space="preserve">and </w:t></w:r><w:r><w:br/></w:r><w:r><w:t>{address}</w:t></w:r>'
    for width in (2059, 2600, 3398, 3450):
        margins = '<w:tcMar><w:left w:w="115" w:type="dxa"/><w:right w:w="115" w:type="dxa"/></w:tcMar>'
        cell = NARROW_CELL.replace('w:w="3420"', f'w:w="{width}"').replace(margins, "")
        _reviewer, layout = _layout(cell.format(p(runs=runs)))
        block = _blocks_with(layout, "github")[0]
        index = next(i for i, text in enumerate(_lines(block)) if text.startswith("https"))
        line = block.layout().lineAt(index)
        end = line.textStart() + line.textLength()
        following = block.text()[end:].lstrip("\u2028")[:1]
        ranges = block.textFormats()
        font = next(r.format.font() for r in ranges if r.start <= end < r.start + r.length)
        room = line.width() - line.naturalTextWidth()
        # the next character does not fit (Qt's fit allows for its glyph's bearing: 1 LU of slack)
        assert 0 <= room < QFontMetricsF(font).horizontalAdvance(following) + 1.0, (width, _lines(block))
