"""A tall first-page header (``w:titlePg``) pushes down the body of the first page only.

Word and LibreOffice start each page's body below that page's own header: on the first page of a
title-page section below the first-page header, on the others below the default one. Laying the
whole section out below the taller of the two put every page's text lower than LibreOffice's
and made documents such as the NVCA certificate (a long disclaimer on the cover) longer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from reviewer_app.ui.pageview.paint import page_records
from reviewer_app.ui.pageview.qformats import LU_PER_INCH
from tests.docx_factory import make_docx, p
from tests.libreoffice_pdf import NEEDS_LIBREOFFICE, libreoffice_tops

_LU_PER_PT = LU_PER_INCH / 72
_SECTION = (
    "<w:sectPr>"
    '<w:headerReference w:type="first" r:id="rId1"/>'
    '<w:headerReference w:type="default" r:id="rId2"/>'
    '<w:pgSz w:w="12240" w:h="15840"/>'
    '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>'
    "<w:titlePg/>"
    "</w:sectPr>"
)


def _document(tmp_path: Path) -> Path:
    """Two-and-a-bit pages of numbered body lines under an eight-line cover header and a one-line header."""
    body = "".join(p(f"Body{n} text") for n in range(120)) + _SECTION
    path = tmp_path / "title-page.docx"
    path.write_bytes(
        make_docx(
            body,
            header="".join(p(f"Cover{n} notice") for n in range(8)),
            header2=p("Running head"),
        )
    )
    return path


def _our_body_tops(path: Path) -> list[float]:
    """Per page, the top (pt from the paper's top) of its first body line in our layout."""
    layout = PagedLayout(DocxReviewer.open(path), "all").build_all()
    tops = []
    for page in layout.pages():
        lines = [line for _record, record_lines in page_records(layout, page) for line in record_lines]
        tops.append(min(top for top, _bottom in lines) / _LU_PER_PT)
    return tops


@NEEDS_LIBREOFFICE
def test_body_starts_below_each_pages_own_header_as_in_libreoffice(qapp, tmp_path: Path) -> None:
    path = _document(tmp_path)
    ours = _our_body_tops(path)
    theirs = libreoffice_tops(path, tmp_path, "Body")
    assert len(ours) == len(theirs) == 3
    # the cover header's eight lines push page 1's body well below the 72 pt top margin
    assert theirs[0] > theirs[1] + 50
    for page, (our_top, their_top) in enumerate(zip(ours, theirs, strict=True), start=1):
        assert our_top == pytest.approx(their_top, abs=2.0), f"page {page}"
