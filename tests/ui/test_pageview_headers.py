"""Headers and footers on every page: a page number shows that page's number, a story without
fields is the same on every page (and is laid out once for all of them)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview import render_pdf
from reviewer_app.ui.pageview.layout import PagedLayout
from tests.conftest import REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler reads the PDF back")
def test_every_page_of_the_pdf_shows_its_own_number_under_the_same_header(qapp, tmp_path: Path) -> None:
    """The sample's footer says "Page N of 17" with PAGE and NUMPAGES fields and its header
    has no field: in the exported PDF each page after the cover (which has its own, empty,
    first-page stories) shows its own number and the same header line; the view lays that
    header out once and draws it on every page."""
    reviewer = DocxReviewer.open(SAMPLE)
    layout = PagedLayout(reviewer, "all").build_all()
    out = tmp_path / "sample.pdf"
    assert render_pdf(reviewer, out, markup_area=False, layout=layout) == 17
    text = subprocess.run(["pdftotext", str(out), "-"], check=True, capture_output=True, text=True).stdout
    pages = text.split("\f")[:17]
    assert "Page 1 of" not in pages[0] and "Confidential" not in pages[0]
    for number, page_text in enumerate(pages[1:], start=2):
        assert f"Page {number} of 17" in page_text, f"page {number}"
        assert "Master Services Agreement — Confidential" in page_text, f"page {number}"
    headers = {id(layout.headers.document(page, "header")) for page in layout.pages()[1:]}
    footers = {id(layout.headers.document(page, "footer")) for page in layout.pages()[1:]}
    assert len(headers) == 1 and len(footers) == 16
