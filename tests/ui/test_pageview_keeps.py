"""Keep lines together: a ``w:keepLines`` paragraph is never split over two pages, yet wraps."""

from __future__ import annotations

from pathlib import Path

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from tests.docx_factory import make_docx, p

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


def _page_of_text(layout: PagedLayout, text: str) -> int:
    """Page (of the first section document) of the first line of the paragraph holding ``text``."""
    section = layout.docs[0]
    block = section.document.find(text).block()
    top = section.document.documentLayout().blockBoundingRect(block).y() + block.layout().lineAt(0).y()
    return int(top // section.page_height)


def test_a_heading_moved_on_comes_back_when_the_text_before_it_shrinks(qapp, tmp_path: Path) -> None:
    """Accepting a deletion frees three lines above a keep-with-next heading that had gone to page
    2 with its paragraph: both come back to page 1, as when the accepted file is opened afresh."""
    deleted = " ".join(["gone"] * 60)
    runs = (
        '<w:del w:id="1" w:author="A" w:date="2024-01-01T00:00:00Z"><w:r>'
        f'<w:delText xml:space="preserve">{deleted} </w:delText></w:r></w:del><w:r><w:t>Stays.</w:t></w:r>'
    )
    fillers = "".join(p(f"Filler {i}") for i in range(43))
    heading = p("Heading here", ppr="<w:keepNext/>") + p("Body after the heading")
    reviewer = DocxReviewer.from_bytes(make_docx(p(runs=runs) + fillers + heading + SECT))
    layout = PagedLayout(reviewer).build_all()
    assert (_page_of_text(layout, "Heading here"), _page_of_text(layout, "Body after")) == (1, 1)
    change = reviewer.changes()[0]
    assert reviewer.accept_change(change["id"])
    assert layout.rerender_block(change["blockId"], reviewer.snapshot())
    assert (_page_of_text(layout, "Heading here"), _page_of_text(layout, "Body after")) == (0, 0)
    path = tmp_path / "accepted.docx"
    reviewer.save(path)
    fresh = PagedLayout(DocxReviewer.open(path)).build_all()
    assert (_page_of_text(fresh, "Heading here"), _page_of_text(fresh, "Body after")) == (0, 0)
