"""One reading of a section's page: a new table is as wide as the text column the page view shows.

The edit engine sizes a new table to the text column of the section it lands in, and the page
view lays that section's pages out from the same ``w:sectPr``. Both read it through
``docx/sections.py``, so a page stated in centimetres, a section that leaves its margins out or
one set in two columns gets a table that fits the column the reader sees on the page.
"""

from __future__ import annotations

import pytest
from lxml import etree

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.sections import parse_section, section_elements, section_of
from reviewer_app.docx.xmlutil import W
from tests.docx_factory import NAMESPACES, make_docx, p

STYLES = '<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style>'
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _sect(inner: str) -> str:
    return f"<w:sectPr>{inner}</w:sectPr>"


def _inserted_table_width(sect: str) -> int:
    """The total grid width (twips) of a table the engine inserts before the only paragraph."""
    reviewer = DocxReviewer.from_bytes(make_docx(p("Only", para_id="00000001") + sect, styles=STYLES))
    result = reviewer.apply_operations(
        {
            "version": 1,
            "mode": "direct",
            "operations": [
                {
                    "id": "op0",
                    "type": "insertTable",
                    "blockId": "00000001",
                    "rows": [["a"]],
                    "position": "before",
                }
            ],
        }
    )
    assert len(result["applied"]) == 1
    table = reviewer.document.body.find(W + "tbl")
    return sum(int(col.get(W + "w")) for col in table.iter(W + "gridCol"))


def _parsed(sect: str) -> etree._Element:
    return etree.fromstring(f"<w:body {NAMESPACES}>{sect}</w:body>")[0]


@pytest.mark.parametrize(
    ("sect", "column"),
    [
        pytest.param(
            _sect(
                '<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440"/>'
            ),
            9360,
            id="letter-in-twips",
        ),
        pytest.param(
            _sect(
                '<w:pgSz w:w="21cm" w:h="29.7cm"/><w:pgMar w:top="2cm" w:right="2cm" w:bottom="2cm" w:left="2cm"/>'
            ),
            11905 - 2 * 1133,
            id="a4-in-centimetres",
        ),
        pytest.param(_sect('<w:pgSz w:w="12240" w:h="15840"/>'), 12240 - 2 * 1440, id="no-margins-stated"),
        pytest.param(
            _sect('<w:pgSz w:w="12240" w:h="15840"/><w:cols w:num="2" w:space="720"/>'),
            (9360 - 720) // 2,
            id="two-columns",
        ),
        pytest.param(
            _sect('<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:left="1440" w:right="1440" w:gutter="720"/>'),
            9360 - 720,
            id="gutter",
        ),
    ],
)
def test_a_new_table_spans_the_text_column_the_page_view_lays_out(sect: str, column: int) -> None:
    assert parse_section(_parsed(sect)).column_width == column  # what the page view reads
    assert _inserted_table_width(sect) == column  # what the engine writes


def test_a_section_stating_no_page_size_gets_the_engines_fallback_width() -> None:
    assert _inserted_table_width("") == 9000
    assert _inserted_table_width(_sect('<w:pgMar w:left="1440" w:right="1440"/>')) == 9000


def test_a_page_too_small_for_text_is_widened_to_one_that_holds_a_column() -> None:
    props = parse_section(
        _parsed(_sect('<w:pgSz w:w="2000" w:h="800"/><w:pgMar w:left="1500" w:right="1500"/>'))
    )
    assert (props.width, props.height) == (2000, 1440)
    assert (props.left, props.right, props.column_width) == (720, 720, 2000 - 2 * 720)
    assert props.top == props.bottom == 720


def test_a_section_reads_its_headers_first_page_numbering_and_exact_margin() -> None:
    props = parse_section(
        _parsed(
            f'<w:sectPr xmlns:r="{_R}"><w:headerReference w:type="first" r:id="rId7"/>'
            '<w:headerReference w:type="default" r:id="rId8"/><w:footerReference r:id="rId9"/>'
            '<w:type w:val="continuous"/><w:pgMar w:top="-1440" w:bottom="1440"/>'
            '<w:pgNumType w:start="5" w:fmt="lowerRoman"/><w:titlePg/></w:sectPr>'
        )
    )
    assert props.headers == {"first": "rId7", "default": "rId8"} and props.footers == {"default": "rId9"}
    assert (props.kind, props.title_page, props.page_start, props.page_format) == (
        "continuous",
        True,
        5,
        "lowerRoman",
    )
    assert (props.top, props.exact_top, props.exact_bottom) == (1440, True, False)


def test_sections_run_in_body_order_and_a_block_belongs_to_the_next_break() -> None:
    breaks = p("One", ppr=_sect('<w:type w:val="nextPage"/>')) + p("Two") + p("Three", ppr=_sect(""))
    body = etree.fromstring(f"<w:body {NAMESPACES}>{breaks}{p('Four')}{_sect('')}</w:body>")
    first, second, last = section_elements(body)
    paragraphs = body.findall(W + "p")
    assert [section_of(body, el) for el in paragraphs] == [first, second, second, last]
    # a block placed after the paragraph that ends a section lands in the next one
    assert section_of(body, paragraphs[0], after=True) is second
