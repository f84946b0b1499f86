"""Keep lines together: a ``w:keepLines`` paragraph is never split over two pages, yet wraps."""

from __future__ import annotations

from pathlib import Path

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout

from .docx_factory import make_docx, p

SECT = (
    '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/>'
    '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720"'
    ' w:gutter="0"/></w:sectPr>'
)


def test_keep_lines_paragraph_moves_whole_to_the_next_page(qapp, tmp_path: Path) -> None:
    long_text = "Kept " + " ".join(["together"] * 120)
    body = "".join(p(f"Filler {i}") for i in range(40)) + p(long_text, ppr="<w:keepLines/>") + SECT
    path = tmp_path / "keep.docx"
    path.write_bytes(make_docx(body))
    layout = PagedLayout(DocxReviewer.open(path)).build_all()
    section = layout.docs[0]
    block = section.document.find("Kept").block()
    rect = section.document.documentLayout().blockBoundingRect(block)
    lines = block.layout()
    assert lines.lineCount() > 3  # it wraps
    first = rect.y() + lines.lineAt(0).y()
    last = rect.y() + lines.lineAt(lines.lineCount() - 1).y()
    assert int(first // section.page_height) == int(last // section.page_height) == 1
