"""A table row that states a height (``w:trHeight``) is at least that tall in the page view, as
in LibreOffice, and its cells' text sits where their vertical alignment puts it in that height.

Qt's table rows take no height of their own: a row was as tall as its text, so the 49 pt rows of
the Tubulars procedure's forms came out 14 pt tall and everything below them rose. The PDFs are
read by poppler (``pdftotext -bbox``), ours and LibreOffice's alike.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from reviewer_app.ui.pageview.render import render_pdf
from tests.docx_factory import make_docx, p
from tests.libreoffice_pdf import NEEDS_LIBREOFFICE, libreoffice_boxes

_WORD = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>(\w+)</word>')


def _cell(content: str, props: str = "") -> str:
    return f'<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/>{props}</w:tcPr>{content}</w:tc>'


def _row(height: str, *cells: str) -> str:
    return f"<w:tr><w:trPr>{height}</w:trPr>{''.join(cells)}</w:tr>"


def _table(rows: str) -> str:
    borders = (
        '<w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="12"/>'
        '<w:insideH w:val="single" w:sz="8"/></w:tblBorders>'
    )
    return (
        f'<w:tbl><w:tblPr><w:tblW w:w="6000" w:type="dxa"/>{borders}<w:tblLayout w:type="fixed"/></w:tblPr>'
        f'<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>{rows}</w:tbl>'
    )


def _tops(pdf_text: str) -> dict[str, float]:
    return {word: float(top) for top, word in _WORD.findall(pdf_text)}


@NEEDS_LIBREOFFICE
def test_rows_of_stated_height_are_as_tall_as_in_libreoffice(qapp, tmp_path: Path) -> None:
    """At-least and exact heights, taller than the text (top, centred and bottom-aligned cells,
    a row's second cell the taller) and shorter than it (the text's height wins)."""
    middle, bottom = '<w:vAlign w:val="center"/>', '<w:vAlign w:val="bottom"/>'
    rows = [
        _row('<w:trHeight w:val="1200"/>', _cell(p("Alpha")), _cell(p("Bravo"))),
        _row("", _cell(p("Charlie")), _cell(p("Delta"))),
        _row('<w:trHeight w:val="1000" w:hRule="exact"/>', _cell(p("Echo"), middle), _cell(p("Foxtrot"))),
        _row(
            '<w:trHeight w:val="900" w:hRule="atLeast"/>', _cell(p("Golf"), bottom), _cell(p("Hotel"), middle)
        ),
        _row('<w:trHeight w:val="1100"/>', _cell(p("India") + p("Kilo")), _cell(p("Lima"), bottom)),
        _row('<w:trHeight w:val="200"/>', _cell(p("Mike") + p("November") + p("Oscar")), _cell(p("Papa"))),
    ]
    source = tmp_path / "heights.docx"
    source.write_bytes(make_docx(p("Above") + _table("".join(rows)) + p("Below")))
    pdf = tmp_path / "ours.pdf"
    render_pdf(DocxReviewer.from_bytes(source.read_bytes()), pdf)
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    ours = _tops(done.stdout)
    theirs = _tops(libreoffice_boxes([source], tmp_path / "lo")[0])
    assert len(theirs) == 17
    # from the first line's top: poppler reads a word's top from the font's ascent, which is
    # not the same number in the two PDFs' embedded fonts
    shift = {w: round(ours[w] - ours["Above"] - (theirs[w] - theirs["Above"]), 2) for w in theirs}
    assert not {w: d for w, d in shift.items() if abs(d) > 1.0}


def _top_of(layout: PagedLayout, block_id: str) -> float:
    found = layout.block_rect(block_id)
    assert found is not None
    return found[1].top()


def test_a_row_of_stated_height_keeps_it_when_an_edit_in_it_drops_lines(qapp, tmp_path: Path) -> None:
    """Accepting a deletion that took a cell of a 1-inch row from six lines to one: the row is
    re-laid out in place and is again an inch tall, as a fresh layout of the saved file has it,
    so the paragraph below it stays where it was (the fit made for six lines gave no padding,
    and the one line left would have let the row shrink to a line's height)."""
    gone = " ".join(["words struck out of the clause"] * 8)
    runs = (
        '<w:r><w:t xml:space="preserve">Kept </w:t></w:r><w:del w:id="1" w:author="A" '
        f'w:date="2024-01-01T00:00:00Z"><w:r><w:delText xml:space="preserve">{gone}</w:delText></w:r></w:del>'
    )
    row = _row('<w:trHeight w:val="1440"/>', _cell(p(runs=runs)), _cell(p("Beside")))
    reviewer = DocxReviewer.from_bytes(make_docx(p("Above") + _table(row) + p("Below")))
    layout = PagedLayout(reviewer, "all").build_all()
    below = next(b.id for b in reviewer.snapshot().content_blocks() if b.text == "Below")
    change = reviewer.changes()[0]
    tall = _top_of(layout, below)
    assert reviewer.accept_change(change["id"])
    assert layout.rerender_block(change["blockId"], reviewer.snapshot())
    path = tmp_path / "accepted.docx"
    reviewer.save(path)
    fresh = PagedLayout(DocxReviewer.open(path), "all").build_all()
    assert _top_of(layout, below) == pytest.approx(_top_of(fresh, below), abs=0.5)
    assert _top_of(layout, below) < tall - 20  # the six lines were taller than the inch
