"""The one table grid the block list, the edit engine and the page view read.

Each test states a table's XML and checks where its cells land on the grid: the facts a reader
of the table relies on (which text shares a column, which cell a merge shows, how wide a column
is drawn) whichever part of the app asks.
"""

from __future__ import annotations

from lxml import etree

from reviewer_app.docx.table_grid import Measure, TableGrid, read_measure
from reviewer_app.docx.xmlutil import W
from tests.docx_factory import W_NS


def _tbl(inner: str) -> etree._Element:
    return etree.fromstring(f'<w:tbl xmlns:w="{W_NS}">{inner}</w:tbl>')


RESTART, CONT, SPAN2 = '<w:vMerge w:val="restart"/>', "<w:vMerge/>", '<w:gridSpan w:val="2"/>'


def _row(*cells: str) -> str:
    return "<w:tr>" + "".join(cells) + "</w:tr>"


def _tc(text: str, tcpr: str = "") -> str:
    pr = f"<w:tcPr>{tcpr}</w:tcPr>" if tcpr else ""
    return f"<w:tc>{pr}<w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>"


def _text(cell) -> str:
    return "".join(cell.tc.itertext())


def _places(grid: TableGrid) -> list[list[tuple[str, int, int, int, bool]]]:
    """Per row: (text, grid column, shown column span, shown row span, covered)."""
    return [[(_text(c), c.col, c.column_span, c.row_span, c.covered) for c in row.cells] for row in grid.rows]


def test_spans_and_grid_before_after_place_cells_on_grid_columns() -> None:
    grid = TableGrid(
        _tbl(
            '<w:tblGrid><w:gridCol w:w="1000"/><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/></w:tblGrid>'
            + _row(_tc("a"), _tc("b", SPAN2))
            + '<w:tr><w:trPr><w:gridBefore w:val="1"/><w:gridAfter w:val="1"/></w:trPr>'
            + _tc("c")
            + "</w:tr>"
        )
    )
    assert _places(grid) == [[("a", 0, 1, 1, False), ("b", 1, 2, 1, False)], [("c", 1, 1, 1, False)]]
    assert (grid.rows[1].before, grid.rows[1].after) == (1, 1)
    assert grid.column_count == 3
    assert grid.width(1, 2) == 5000


def test_vertical_merge_resolves_to_a_row_span_and_covered_cells() -> None:
    grid = TableGrid(
        _tbl(
            _row(_tc("m", RESTART), _tc("x"))
            + _row(_tc("", CONT), _tc("y"))
            + _row(_tc("tail", '<w:vMerge w:val="continue"/>'), _tc("z"))
            + _row(_tc("own"), _tc("w"))
        )
    )
    top = grid.rows[0].cells[0]
    assert (top.row_span, top.covered) == (3, False)
    assert [grid.rows[r].cells[0].top is top for r in range(4)] == [True, True, True, False]
    assert grid.unit(grid.rows[2].cells[0]) == (top, 3)
    assert [_text(c) for c in grid.unit_cells(top, 3)] == ["m", "", "tail"]


def test_a_continuation_under_a_cell_of_other_width_starts_its_own_cell() -> None:
    grid = TableGrid(_tbl(_row(_tc("wide", SPAN2 + RESTART)) + _row(_tc("narrow", CONT), _tc("b"))))
    assert _places(grid) == [[("wide", 0, 2, 1, False)], [("narrow", 0, 1, 1, False), ("b", 1, 1, 1, False)]]


def test_legacy_horizontal_merge_widens_the_first_cell() -> None:
    grid = TableGrid(
        _tbl(_row(_tc("joined", '<w:hMerge w:val="restart"/>'), _tc("", "<w:hMerge/>"), _tc("c")))
    )
    assert _places(grid) == [[("joined", 0, 2, 1, False), ("", 1, 1, 1, True), ("c", 2, 1, 1, False)]]


def test_a_reader_keeps_only_its_rows_and_merges_over_them() -> None:
    """The page view drops a tracked row deletion when changes are accepted; a merge running
    through it continues over the rows that remain."""
    tbl = _tbl(
        _row(_tc("m", RESTART), _tc("1"))
        + '<w:tr><w:trPr><w:del w:id="1" w:author="A"/></w:trPr>'
        + _tc("", CONT)
        + _tc("gone")
        + "</w:tr>"
        + _row(_tc("", CONT), _tc("3"))
        + "<w:tr><w:trPr><w:hidden/></w:trPr>"
        + _tc("h")
        + _tc("h")
        + "</w:tr>"
    )
    everything = TableGrid(tbl)
    assert [row.deleted is not None for row in everything.rows] == [False, True, False, False]
    assert [row.hidden for row in everything.rows] == [False, False, False, True]
    accepted = TableGrid(tbl, lambda row: row.deleted is None and not row.hidden)
    assert [row.index for row in accepted.rows] == [0, 2]
    assert accepted.rows[0].cells[0].row_span == 2
    assert accepted.rows[1].cells[0].covered


def test_cell_marks_and_header_rows_are_data() -> None:
    grid = TableGrid(
        _tbl(
            "<w:tr><w:trPr><w:tblHeader/></w:trPr>" + _tc("head") + "</w:tr>"
            '<w:tr><w:trPr><w:ins w:id="2" w:author="A"/></w:trPr>'
            + _tc("new", '<w:cellIns w:id="3" w:author="A"/>')
            + "</w:tr>"
            + "<w:tr>"
            + _tc("old", '<w:cellDel w:id="4" w:author="A"/>')
            + "</w:tr>"
        )
    )
    assert grid.header_rows == 1
    assert grid.rows[1].inserted is not None and grid.rows[1].cells[0].inserted
    assert grid.rows[2].cells[0].deleted and not grid.rows[2].cells[0].inserted


def test_measures_in_twips_shares_and_auto() -> None:
    def measure(xml: str) -> Measure | None:
        return read_measure(etree.fromstring(f'<w:tblW xmlns:w="{W_NS}" {xml}/>'))

    assert measure('w:w="2880" w:type="dxa"').twips(9000) == 2880
    assert measure('w:w="2500" w:type="pct"').twips(9000) == 4500  # fiftieths of a percent
    assert measure('w:w="50%" w:type="pct"').twips(9000) == 4500
    assert measure('w:w="0" w:type="auto"').twips(9000) is None
    assert measure('w:w="x" w:type="dxa"') is None


def test_column_widths_from_grid_cells_and_shares() -> None:
    grid_cols = '<w:tblGrid><w:gridCol w:w="1000"/><w:gridCol w:w="3000"/></w:tblGrid>'
    row = f"<w:tr>{_tc('a')}{_tc('b')}</w:tr>"
    assert TableGrid(_tbl(grid_cols + row)).column_widths(9000) == [1000, 3000]
    half = '<w:tblPr><w:tblW w:w="2500" w:type="pct"/></w:tblPr>'
    assert TableGrid(_tbl(half + grid_cols + row)).column_widths(9000) == [1125, 3375]
    # no grid: a cell's own width, the rest shares what the table's width leaves
    no_grid = '<w:tblPr><w:tblW w:w="6000" w:type="dxa"/></w:tblPr>' + _row(
        _tc("a", '<w:tcW w:w="2000" w:type="dxa"/>'), _tc("b")
    )
    assert TableGrid(_tbl(no_grid)).column_widths(9000) == [2000, 4000]


def test_left_edge_follows_indent_alignment_and_layout_generation() -> None:
    grid_cols = '<w:tblGrid><w:gridCol w:w="3000"/></w:tblGrid>'
    row = f"<w:tr>{_tc('a')}</w:tr>"

    def edge(tblpr: str, legacy_margin: int = 0) -> int:
        return TableGrid(_tbl(f"<w:tblPr>{tblpr}</w:tblPr>{grid_cols}{row}")).left_edge(9000, legacy_margin)

    assert edge('<w:tblInd w:w="-720" w:type="dxa"/>') == -720
    assert edge('<w:tblInd w:w="-720" w:type="dxa"/>', legacy_margin=108) == -828
    assert edge('<w:jc w:val="center"/>') == 3000
    assert edge('<w:jc w:val="right"/><w:tblInd w:w="500" w:type="dxa"/>') == 6000


def test_block_list_and_grid_agree_on_cell_locations() -> None:
    """The block model's table locations come from the same grid."""
    from reviewer_app.docx.blocks import BodyWalker
    from reviewer_app.docx.numbering import NumberingDefinitions
    from reviewer_app.docx.styles import StyleIndex

    tbl = _tbl(_row(_tc("m", RESTART), _tc("b", SPAN2)) + _row(_tc("", CONT), _tc("c"), _tc("d")))
    body = etree.Element(W + "body")
    body.append(tbl)
    blocks = BodyWalker(StyleIndex(None), NumberingDefinitions(None)).walk(body)
    located = [
        (b.text, b.table["gridColumnIndex"], b.table["columnSpan"], b.table["rowSpan"]) for b in blocks
    ]
    assert located == [("m", 0, 1, 2), ("b", 1, 2, 1), ("", 0, 1, 1), ("c", 1, 1, 1), ("d", 2, 1, 1)]
