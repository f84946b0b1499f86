"""A page started by a page break begins at the top margin, as in Word and LibreOffice.

Qt puts the larger of the previous block's spacing after and the block's own spacing before at the
top of a page a block's page break starts, so a contract's standard terms, after a cover page whose
last paragraph had 6 pt after it, began 6 pt low and lost a line at the foot of the page. Word keeps
a paragraph's spacing after on its page; the new page's paragraph gets only its own spacing before.
The PDF is read by poppler (``pdftotext -bbox``), as the corpus checker reads it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.render import render_pdf
from tests.docx_factory import make_docx, p

AFTER = '<w:spacing w:after="480"/>'
SECTION = (
    '<w:sectPr><w:type w:val="nextPage"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" '
    'w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>'
)
_WORD = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)"[^>]*>(\w+)</word>')


def _tops(reviewer: DocxReviewer, pdf: Path) -> dict[str, float]:
    """The top (pt) of each word of the exported PDF, as poppler reads it."""
    render_pdf(reviewer, pdf)
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    return {word: float(top) for top, word in _WORD.findall(done.stdout)}


def test_the_spacing_after_a_paragraph_stays_on_its_page(qapp, tmp_path: Path) -> None:
    body = (
        p("Alpha opens page one.", ppr=AFTER)
        + p("Bravo opens page two.", ppr="<w:pageBreakBefore/>" + AFTER)
        + p("Charlie ends a section.", ppr=AFTER + SECTION)
        + p("Delta opens page four.", ppr=AFTER)
        + p("Echo opens page five.", ppr='<w:pageBreakBefore/><w:spacing w:before="240"/>')
        + SECTION
    )
    tops = _tops(DocxReviewer.from_bytes(make_docx(body)), tmp_path / "breaks.pdf")
    top = tops["Alpha"]
    assert abs(tops["Bravo"] - top) < 0.1  # page break before: not 24 pt low
    assert abs(tops["Delta"] - top) < 0.1  # new section's page
    assert abs(tops["Echo"] - (top + 12.0)) < 0.1  # its own spacing before is kept, as Word does
