"""Paragraph geometry on the page: negative indents reach into the margins, every paragraph wraps.

Word measures indents from the text column and lets a negative one take the text into the page
margin (``w:ind w:left="-720" w:right="-360"``, common in US financing forms), and a table's
negative ``w:tblInd`` likewise. Positions are read from the laid-out page (layout units, 1/720 inch,
from the paper's left edge): Letter paper, 1-inch margins, so the text column runs from 720 to 5400.
"""

from __future__ import annotations

from PySide6.QtGui import QTextBlock

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout

from .docx_factory import make_docx, p

COLUMN_LEFT, COLUMN_RIGHT = 720.0, 5400.0
LONG = "The Borrower shall repay the Loan in full on the Maturity Date together with interest. " * 8


def _layout(body: str) -> PagedLayout:
    return PagedLayout(DocxReviewer.from_bytes(make_docx(body)), "all").build_all()


def _blocks(layout: PagedLayout) -> list[QTextBlock]:
    document = layout.docs[0].document
    found, block = [], document.begin()
    while block.isValid():
        if block.text().strip():
            found.append(block)
        block = block.next()
    return found


def _line_edges(layout: PagedLayout, block: QTextBlock) -> list[tuple[float, float]]:
    """(left, right) of each line's text area, in page units from the paper's left edge."""
    rect = layout.docs[0].document.documentLayout().blockBoundingRect(block)
    text_layout = block.layout()
    lines = [text_layout.lineAt(i) for i in range(text_layout.lineCount())]
    return [(rect.x() + line.x(), rect.x() + line.x() + line.width()) for line in lines]


def test_negative_indents_widen_the_text_into_both_margins(qapp) -> None:
    layout = _layout(p(LONG, ppr='<w:ind w:left="-720" w:right="-360"/>') + p(LONG))
    wide, normal = _blocks(layout)
    for left, right in _line_edges(layout, wide):
        assert (left, right) == (COLUMN_LEFT - 360, COLUMN_RIGHT + 180)
    for left, right in _line_edges(layout, normal):
        assert (left, right) == (COLUMN_LEFT, COLUMN_RIGHT)
    assert wide.layout().lineCount() < normal.layout().lineCount()  # the wider lines hold more


def test_positive_indents_and_a_hanging_first_line_still_measure_from_the_column(qapp) -> None:
    layout = _layout(p(LONG, ppr='<w:ind w:left="1440" w:right="720" w:hanging="720"/>'))
    (block,) = _blocks(layout)
    edges = _line_edges(layout, block)
    assert edges[0] == (COLUMN_LEFT + 360, COLUMN_RIGHT - 360)  # the first line hangs 720 twips
    assert set(edges[1:]) == {(COLUMN_LEFT + 720, COLUMN_RIGHT - 360)}


def test_a_justified_keep_together_paragraph_wraps_inside_the_column(qapp) -> None:
    """A justified clause marked keep-lines-together is wrapped, not laid out as one clipped line."""
    layout = _layout(p(LONG, ppr='<w:keepLines/><w:jc w:val="both"/>'))
    (block,) = _blocks(layout)
    edges = _line_edges(layout, block)
    assert len(edges) > 3
    assert all(left >= COLUMN_LEFT and right <= COLUMN_RIGHT for left, right in edges)


def test_a_table_with_a_negative_indent_starts_in_the_margin(qapp) -> None:
    cell = '<w:tc><w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>Lender</w:t></w:r></w:p></w:tc>'
    table = (
        '<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/><w:tblInd w:w="-720" w:type="dxa"/>'
        '<w:tblCellMar><w:left w:w="0" w:type="dxa"/><w:right w:w="0" w:type="dxa"/></w:tblCellMar>'
        f'</w:tblPr><w:tblGrid><w:gridCol w:w="4000"/></w:tblGrid><w:tr>{cell}</w:tr></w:tbl>'
    )
    layout = _layout(table + p("After the table."))
    lender = next(b for b in _blocks(layout) if b.text() == "Lender")
    left, right = _line_edges(layout, lender)[0]
    assert (left, right) == (COLUMN_LEFT - 360, COLUMN_LEFT - 360 + 2000)
