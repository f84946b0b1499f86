"""Tables on the page: where cells and their text land, measured on the laid-out page.

Each small document states one grid feature; the test reads where the page view put the text
(layout units from the page's left edge, 0.5 per twip) and checks it against the position Word
gives it. The order-form contract checks the whole: its key-terms table stays on the paper.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QTextDocument, QTextTable

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from reviewer_app.ui.pageview.qformats import TWIPS
from reviewer_app.ui.pageview.render import render_pdf
from tests.conftest import CHECKERS, CORPUS
from tests.docx_factory import make_docx, p

#: Letter paper, one-inch margins: the text column is 9360 twips from x = 1440.
SECT = (
    '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/>'
    '<w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720"'
    ' w:gutter="0"/></w:sectPr>'
)
MARGIN = 1440
#: Word 2013+ layout: ``w:tblInd`` places the table's border, not its first text.
WORD_2013 = (
    '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word"'
    ' w:val="15"/></w:compat>'
)
ORDER_FORM = CORPUS / "contracts" / "oa_common-paper-order-form.docx"


def _layout(tmp_path: Path, body: str, **parts: str) -> PagedLayout:
    path = tmp_path / "t.docx"
    path.write_bytes(make_docx(body + SECT, **parts))
    return PagedLayout(DocxReviewer.open(path)).build_all()


def _table(tblpr: str, grid: list[int], rows: str) -> str:
    cols = "".join(f'<w:gridCol w:w="{w}"/>' for w in grid)
    return f"<w:tbl><w:tblPr>{tblpr}</w:tblPr><w:tblGrid>{cols}</w:tblGrid>{rows}</w:tbl>"


def _tc(content: str, tcpr: str = "") -> str:
    body = content if content.startswith("<w:") else p(content)
    return f"<w:tc>{f'<w:tcPr>{tcpr}</w:tcPr>' if tcpr else ''}{body}</w:tc>"


def _tr(*cells: str, trpr: str = "") -> str:
    return f"<w:tr>{f'<w:trPr>{trpr}</w:trPr>' if trpr else ''}{''.join(cells)}</w:tr>"


def _where(layout: PagedLayout, text: str) -> tuple[float, float, float]:
    """(left of the text's first line, its top, right end of its widest line), in twips from the
    page's top-left corner."""
    document = layout.docs[0].document
    found = document.find(text, 0, QTextDocument.FindFlag.FindCaseSensitively)
    assert not found.isNull(), f"{text!r} is not on the page"
    block = found.block()
    rect = document.documentLayout().blockBoundingRect(block)
    lines = [block.layout().lineAt(i) for i in range(block.layout().lineCount())]
    right = max(rect.x() + line.x() + line.naturalTextWidth() for line in lines)
    return (rect.x() + lines[0].x()) / TWIPS, (rect.y() + lines[0].y()) / TWIPS, right / TWIPS


def _tables(layout: PagedLayout) -> list[QTextTable]:
    document = layout.docs[0].document
    found: list[QTextTable] = []

    def walk(frame) -> None:
        for child in frame.childFrames():
            if isinstance(child, QTextTable):
                found.append(child)
            walk(child)

    walk(document.rootFrame())
    return found


def test_grid_span_and_grid_before_share_the_grid_columns(qapp, tmp_path: Path) -> None:
    body = _table(
        "",
        [2000, 3000, 4000],
        _tr(_tc("Alpha"), _tc("Bravo"), _tc("Charlie"))
        + _tr(_tc("Delta", '<w:gridSpan w:val="2"/>'), trpr='<w:gridBefore w:val="1"/>'),
    )
    layout = _layout(tmp_path, body)
    alpha, bravo, charlie, delta = (_where(layout, t)[0] for t in ("Alpha", "Bravo", "Charlie", "Delta"))
    # the border at the margin, each text a default cell margin (108 twips) inside its cell
    assert alpha == pytest.approx(MARGIN + 108, abs=2)
    assert bravo == pytest.approx(MARGIN + 2000 + 108, abs=2)
    assert charlie == pytest.approx(MARGIN + 5000 + 108, abs=2)
    assert delta == pytest.approx(bravo, abs=2)  # gridBefore skips the first grid column


def test_a_cell_spanning_into_a_sliver_column_keeps_its_width(qapp, tmp_path: Path) -> None:
    """Common Paper's cover tables: a 10-twip grid column that one row leaves empty (gridAfter)
    and another spans into. The spanning cell's text wraps at its own right edge, within the
    text column, instead of the sliver growing and the table running past the right margin."""
    words = "Engage in the following promotional activities: {company_promotional_activities_detail}"
    body = _table(
        '<w:tblW w:w="9360" w:type="dxa"/><w:tblLayout w:type="fixed"/>',
        [3000, 6350, 10],
        _tr(_tc("Business Terms", '<w:gridSpan w:val="2"/>'), trpr='<w:gridAfter w:val="1"/>')
        + _tr(_tc("Obligations"), _tc(words * 2, '<w:gridSpan w:val="2"/>')),
    )
    layout = _layout(tmp_path, body)
    document = layout.docs[0].document
    block = document.find(words).block()
    text_box = document.documentLayout().blockBoundingRect(block)
    assert text_box.left() / TWIPS == pytest.approx(MARGIN + 3000 + 108, abs=2)
    assert text_box.right() / TWIPS == pytest.approx(MARGIN + 9360 - 108, abs=12)  # the sliver's 10


def test_a_table_nested_in_a_spanning_cell_leaves_the_columns_below_their_widths(
    qapp, tmp_path: Path
) -> None:
    """A header cell spanning both columns holds a table nearly as wide (the Tubulars procedure's
    cover): Qt spread that table's width evenly over the two columns and widened the narrow first
    one by 1550 twips, pushing the second column's nested table past the paper's edge. The
    columns keep the grid's widths, and so does the nested table."""
    nested = _table(
        '<w:tblW w:w="9100" w:type="dxa"/><w:tblLayout w:type="fixed"/>',
        [1300] * 7,
        _tr(*(_tc(f"Col{n}", '<w:tcW w:w="1300" w:type="dxa"/>') for n in range(7))),
    )
    body = _table(
        '<w:tblW w:w="9360" w:type="dxa"/><w:tblLayout w:type="fixed"/>',
        [3000, 6360],
        _tr(_tc(nested + p(), '<w:gridSpan w:val="2"/>')) + _tr(_tc("Left"), _tc("Right")),
    )
    layout = _layout(tmp_path, body)
    assert _where(layout, "Right")[0] == pytest.approx(MARGIN + 3000 + 108, abs=2)
    first, last = _where(layout, "Col0")[0], _where(layout, "Col6")[0]
    # as shares of the cell the nested columns come out within a fraction of a point (Qt's
    # share arithmetic: 6 twips short over six columns)
    assert last - first == pytest.approx(6 * 1300, abs=10)


def test_vertical_merge_is_one_cell_over_its_rows(qapp, tmp_path: Path) -> None:
    restart, cont = '<w:vMerge w:val="restart"/>', "<w:vMerge/>"
    body = _table(
        "",
        [3000, 3000],
        _tr(_tc("Merged", restart), _tc("Row one"))
        + _tr(_tc("", cont), _tc("Row two"))
        + _tr(_tc("", cont), _tc("Row three"))
        + _tr(_tc("Below"), _tc("Row four")),
    )
    layout = _layout(tmp_path, body)
    (table,) = _tables(layout)
    assert (table.rows(), table.cellAt(0, 0).rowSpan(), table.cellAt(2, 0).row()) == (4, 3, 0)
    merged, row_three, below = (_where(layout, t)[1] for t in ("Merged", "Row three", "Below"))
    assert merged == pytest.approx(_where(layout, "Row one")[1], abs=2)
    assert below > row_three  # the cell after the merge starts under its last row


def test_percentage_width_is_a_share_of_the_text_column(qapp, tmp_path: Path) -> None:
    body = _table('<w:tblW w:w="2500" w:type="pct"/>', [1000, 1000], _tr(_tc("Left half"), _tc("Right half")))
    layout = _layout(tmp_path, body)
    # 50 % of the 9360-twip column, split as the grid splits it: 2340 twips a column
    assert _where(layout, "Right half")[0] == pytest.approx(MARGIN + 2340 + 108, abs=2)


def test_negative_indent_moves_the_table_into_the_left_margin(qapp, tmp_path: Path) -> None:
    rows = _tr(_tc("Outdented"), _tc("Second"))
    indent = '<w:tblInd w:w="-720" w:type="dxa"/>'
    modern = _layout(tmp_path, _table(indent, [3000, 3000], rows), settings=WORD_2013)
    # the border at the indent, the text a default cell margin (108) inside it
    assert _where(modern, "Outdented")[0] == pytest.approx(MARGIN - 720 + 108, abs=2)
    assert _where(modern, "Second")[0] == pytest.approx(MARGIN - 720 + 3000 + 108, abs=2)


def test_nested_tables_are_drawn_inside_their_cell_at_any_depth(qapp, tmp_path: Path) -> None:
    words = " ".join(["wrapped"] * 40)
    innermost = _table(
        '<w:tblW w:w="5000" w:type="pct"/>', [1, 1], _tr(_tc("Deep left"), _tc(f"Deep right {words}"))
    )
    inner = _table("", [1500, 2500], _tr(_tc("Inner left"), _tc(innermost)))
    body = _table("", [3000, 6360], _tr(_tc("Outer left"), _tc(inner)))
    layout = _layout(tmp_path, body)
    assert len(_tables(layout)) == 3
    outer_cell = MARGIN + 3000 + 108  # text of the outer table's second cell: the inner table's edge
    assert _where(layout, "Inner left")[0] == pytest.approx(outer_cell + 108, abs=2)
    inner_cell = outer_cell + 1500 + 108
    assert _where(layout, "Deep left")[0] == pytest.approx(inner_cell + 108, abs=2)
    # the innermost table fills its cell (100 %): 2500 less the two cell margins, halved
    deep_right = _where(layout, "Deep right")
    assert deep_right[0] == pytest.approx(inner_cell + (2500 - 216) / 2 + 108, abs=2)
    # its long text wraps inside the cell and the outer table's right border
    assert deep_right[2] <= inner_cell + 2500 - 216 + 2
    assert deep_right[2] <= MARGIN + 9360


def test_empty_cells_keep_a_line_of_height(qapp, tmp_path: Path) -> None:
    body = _table("", [3000, 3000], _tr(_tc(""), _tc("")) + _tr(_tc("After empty"), _tc("x")))
    layout = _layout(tmp_path, body)
    (table,) = _tables(layout)
    assert table.rows() == 2
    assert _where(layout, "After empty")[1] - MARGIN >= 200  # an 11-pt line above it


@pytest.mark.skipif(not ORDER_FORM.exists(), reason="the contracts corpus is missing")
def test_order_form_key_terms_table_wraps_inside_the_page(qapp, tmp_path: Path) -> None:
    """The right column of the key-terms table wraps in its cell (it ran off the paper)."""
    layout = PagedLayout(DocxReviewer.open(ORDER_FORM)).build_all()
    table = _tables(layout)[0]
    document = layout.docs[0].document
    page_width = layout.docs[0].props.width * TWIPS
    doc_layout = document.documentLayout()
    # the frame's rectangle starts after the left margin the page view gives top-level tables
    # (they are shifted back by the page margin) but its width still counts that margin
    assert doc_layout.frameBoundingRect(table).right() - table.format().leftMargin() <= page_width
    block = table.firstCursorPosition().block()
    end = table.lastCursorPosition().block()
    while block.isValid() and block != end.next():
        rect = doc_layout.blockBoundingRect(block)
        text_layout = block.layout()
        for i in range(text_layout.lineCount()):
            line = text_layout.lineAt(i)
            assert rect.x() + line.x() + line.naturalTextWidth() <= page_width - 1080 * TWIPS + 1, (
                block.text()
            )
        block = block.next()
    pdf = tmp_path / "order-form.pdf"
    render_pdf(layout.reviewer, pdf, layout=layout)
    if shutil.which("soffice") is None or shutil.which("pdftotext") is None:
        return
    result = subprocess.run(
        [sys.executable, str(CHECKERS / "layout_compare.py"), str(ORDER_FORM), "--ours", str(pdf), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    report = json.loads(result.stdout)
    assert report["off_page_words"] == 0
    assert report["word_recall"] >= 0.99


def _pdf_words(pdf: Path) -> dict[str, tuple[int, float, float]]:
    """word -> (page, top, bottom) in points, from poppler's reading of the PDF."""
    out = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    words: dict[str, tuple[int, float, float]] = {}
    page = 0
    for line in out.splitlines():
        if line.lstrip().startswith("<page "):
            page += 1
        elif line.lstrip().startswith("<word "):
            attrs = dict(part.split("=") for part in line.split(">")[0].split()[1:])
            word = line.split(">")[1].split("<")[0]
            words[word] = (page, float(attrs["yMin"].strip('"')), float(attrs["yMax"].strip('"')))
    return words


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler's pdftotext is missing")
def test_centred_cell_of_a_row_split_over_pages_stays_on_the_page(qapp, tmp_path: Path) -> None:
    """A vertically centred cell beside a long cell whose row breaks over a page starts at the row's
    top on the first page (Qt centred it in the row's whole height: its text landed in the margins)."""
    filler = "".join(p(f"Filler{i}") for i in range(44))
    left = "".join(p(f"Left{i}") for i in range(10))
    body = filler + _table("", [3000, 3000], _tr(_tc(left), _tc("Centred", '<w:vAlign w:val="center"/>')))
    layout = _layout(tmp_path, body)
    pdf = tmp_path / "split.pdf"
    render_pdf(layout.reviewer, pdf, layout=layout)
    words = _pdf_words(pdf)
    assert words["Left0"][0] == 1 and words["Left9"][0] == 2  # the row is split over the pages
    page, top, bottom = words["Centred"]
    assert page == 1 and top >= 72 and bottom <= 792 - 72  # inside page 1's text area
    assert top == pytest.approx(words["Left0"][1], abs=2)  # beside the row's first line
