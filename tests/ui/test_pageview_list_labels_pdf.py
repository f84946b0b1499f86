"""A list label and its clause text share one baseline and size in the exported PDF.

The partnership agreement's "(c)" at the foot of page 4 was read by poppler as a line of its own.
Not a baseline offset: label and text had the same baseline and size. The page began 6 pt low (see
test_pageview_page_breaks.py), which left a one-line fragment of the item alone at the page's foot,
and poppler reads the labels of one-line items as a column of their own (it does so in LibreOffice's
PDF too); with the item's second line on the page, beginning under the label, it reads one line.
This holds what the layout controls: the label is drawn on its text's baseline, in its size.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.render import render_pdf
from tests.docx_factory import make_docx, p

NUMBERING = (
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="3"/><w:numFmt w:val="lowerLetter"/>'
    '<w:lvlText w:val="(%1)"/><w:lvlJc w:val="left"/><w:pPr><w:ind w:left="720" w:hanging="360"/></w:pPr>'
    '<w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="16"/></w:rPr>'
    '</w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
)
_WORD = re.compile(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>')


def test_a_list_label_shares_its_texts_baseline_in_the_pdf(qapp, tmp_path: Path) -> None:
    ppr = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
    runs = (
        '<w:r><w:rPr><w:rFonts w:ascii="Arial" w:hAnsi="Arial"/><w:sz w:val="16"/></w:rPr>'
        "<w:t>If a party terminates the Agreement, the paying party will pay.</w:t></w:r>"
    )
    reviewer = DocxReviewer.from_bytes(make_docx(p(ppr=ppr, runs=runs), numbering=NUMBERING))
    pdf = tmp_path / "label.pdf"
    render_pdf(reviewer, pdf)
    done = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    boxes = {word: (top, bottom) for top, bottom, word in _WORD.findall(done.stdout)}
    assert boxes["(c)"] == boxes["If"] == boxes["terminates"]
