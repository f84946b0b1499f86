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
from tests.docx_factory import make_docx, p

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


def test_a_tab_after_a_hanging_first_line_stops_at_the_left_indent(qapp) -> None:
    """Word's hanging indent is a tab stop even at the column's edge (``w:hanging`` with no
    ``w:left``): a drafting note that starts with a tab begins there, not at the next explicit stop."""
    runs = '<w:r><w:tab/></w:r><w:r><w:t xml:space="preserve">[ drafting note: delete this section. ]</w:t></w:r>'
    ppr = '<w:tabs><w:tab w:val="left" w:pos="519"/></w:tabs><w:ind w:hanging="114"/>'
    layout = _layout(p(ppr=ppr, runs=runs))
    (block,) = _blocks(layout)
    rect = layout.docs[0].document.documentLayout().blockBoundingRect(block)
    line = block.layout().lineAt(0)
    note_x = rect.x() + line.cursorToX(block.text().index("["))[0]
    assert note_x == COLUMN_LEFT


def test_right_justified_list_labels_end_at_the_number_position_and_the_text_starts_at_the_tab(qapp) -> None:
    """``w:lvlJc="right"`` (roman sub-items: "(ii)", "(iii)"): every label ends where the number
    position is, so the labels line up on their right edge, and the clause text after the tab starts
    at the same place in every item, as in Word."""
    numbering = (
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/>'
        '<w:lvlText w:val="(%1)"/><w:lvlJc w:val="right"/><w:pPr><w:ind w:left="1440" w:hanging="360"/></w:pPr>'
        '</w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    )
    ppr = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>'
    body = "".join(p(f"Clause {n} applies.", ppr=ppr) for n in range(1, 4))
    layout = PagedLayout(DocxReviewer.from_bytes(make_docx(body, numbering=numbering)), "all").build_all()
    label_ends, text_starts = set(), set()
    for block in _blocks(layout):
        rect = layout.docs[0].document.documentLayout().blockBoundingRect(block)
        line = block.layout().lineAt(0)
        tab = block.text().index("\t")
        label_ends.add(round(rect.x() + line.cursorToX(tab)[0], 1))
        text_starts.add(round(rect.x() + line.cursorToX(block.text().index("Clause"))[0], 1))
    assert label_ends == {COLUMN_LEFT + 540}  # the number position: left 1440 less the hanging 360
    assert text_starts == {COLUMN_LEFT + 720}  # the hanging indent's stop
