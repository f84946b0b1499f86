"""A paragraph that footnotes split across pages continues at the top margin of the next page.

Qt adds the space after of the paragraph before a page break below the break, so the half a
footnote moved to the next page began 12 pt low on the NVCA certificate (a footnote on nearly
every page, body paragraphs with 12 pt after), where LibreOffice and Word start it at the margin.
"""

from __future__ import annotations

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from reviewer_app.ui.pageview.paint import page_records
from reviewer_app.ui.pageview.qformats import TWIPS
from tests.conftest import CORPUS

NVCA = CORPUS / "public" / "dxo_NVCA-Model-COI.docx"


@pytest.mark.skipif(not NVCA.exists(), reason="the NVCA certificate is missing")
def test_continued_paragraphs_start_at_the_top_margin(qapp) -> None:
    layout = PagedLayout(DocxReviewer.open(NVCA), "all").build_all()
    seen: set[str | None] = set()
    continued = []
    for page in layout.pages():
        records = page_records(layout, page)
        if records and records[0][0].block_id in seen:
            top = min(line_top for line_top, _bottom in records[0][1])
            margin = layout.docs[page.doc_index].props.top * TWIPS
            continued.append((page.number + 1, round(top - margin, 1)))
        seen.update(record.block_id for record, _lines in records)
    assert len(continued) > 10  # most of its pages begin inside a paragraph
    assert [offset for _page, offset in continued if offset] == []
