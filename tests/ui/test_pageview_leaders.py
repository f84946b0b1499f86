"""Tab leaders on the page: a table of contents' dots are set edge to edge, as Word prints them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from reviewer_app.ui.pageview.render import render_page_image, render_pdf
from tests.conftest import ARTIFACTS
from tests.docx_factory import make_docx, p

DPI = 144
#: "Definitions ........ 7": 12 pt Liberation Serif, a right tab with a dot leader at 6 inches
ENTRY = p(
    ppr='<w:tabs><w:tab w:val="right" w:leader="dot" w:pos="8640"/></w:tabs>',
    runs='<w:r><w:rPr><w:rFonts w:ascii="Liberation Serif" w:hAnsi="Liberation Serif"/><w:sz w:val="24"/>'
    '</w:rPr><w:t xml:space="preserve">A</w:t><w:tab/><w:t>9</w:t></w:r>',
)


def _dark_runs(image: QImage, rows: range) -> list[tuple[int, int]]:
    """Stretches of columns with ink in ``rows``, left to right, as (first, last) pixel columns."""
    inked = [any(image.pixelColor(x, y).lightness() < 128 for y in rows) for x in range(image.width())]
    runs: list[tuple[int, int]] = []
    for x, ink in enumerate(inked):
        if ink and (not runs or runs[-1][1] != x - 1):
            runs.append((x, x))
        elif ink:
            runs[-1] = (runs[-1][0], x)
    return runs


def test_dot_leader_dots_are_set_edge_to_edge(qapp, tmp_path: Path) -> None:
    """Word prints "A ........ 9", not "A . . . . 9": the dots' pitch is one period's advance."""
    path = tmp_path / "toc.docx"
    path.write_bytes(make_docx(ENTRY))
    layout = PagedLayout(DocxReviewer.open(path), "all").build_all()
    image = render_page_image(layout, 0, dpi=DPI, markup_area=False)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    image.save(str(ARTIFACTS / "dot-leader.png"))
    top_band = range(2 * DPI)  # the entry is the page's first line, one inch down
    ink_rows = [
        y for y in top_band if any(image.pixelColor(x, y).lightness() < 128 for x in range(DPI, 7 * DPI))
    ]
    assert ink_rows, "the entry is drawn"
    line = range(ink_rows[0], ink_rows[0] + round(DPI * 14 / 72))  # the first line: 14 pt from its top
    runs = _dark_runs(image, line)
    dots = runs[1:-1]  # between "A" and "9"
    assert len(dots) > 20, "a leader fills the tab's gap"
    pitch_pt = (dots[-1][0] - dots[0][0]) / (len(dots) - 1) * 72 / DPI
    # a period of 12 pt Liberation Serif advances 3 pt; ". " would advance 6 pt
    assert 2.5 < pitch_pt < 3.6


def _words(pdf: Path) -> list[tuple[float, float, str]]:
    """(left, right, text) of each word poppler reads on the PDF's first page, in reading order."""
    boxes = subprocess.run(
        ["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [
        (float(left), float(right), text)
        for left, right, text in re.findall(
            r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"[^>]*>([^<]*)</word>', boxes
        )
    ]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler reads the PDF back")
def test_dot_leader_starts_right_after_the_entry_text(qapp, tmp_path: Path) -> None:
    """In Word and LibreOffice the dots run from the end of the entry's text to its page
    number ("A........9"); a gap after the text ("A   .....9") looked broken."""
    path = tmp_path / "toc.docx"
    path.write_bytes(make_docx(ENTRY))
    pdf = tmp_path / "toc.pdf"
    render_pdf(DocxReviewer.open(path), pdf, markup_area=False)
    (entry, entry_end, _a), (dots_start, dots_end, dots), (number, _end, nine) = _words(pdf)[:3]
    assert (_a, set(dots), nine) == ("A", {"."}, "9")
    assert dots_start - entry_end < 0.1, "the first dot follows the text"
    # what is left over, less than one period's advance (3 pt at 12 pt), is before the number
    assert 0 <= number - dots_end < 3.0
    assert entry < dots_start < number
