"""The pages do not depend on how the layout was sliced.

The window lays a document out in slices of a few milliseconds between events, so where a
slice ends depends on the machine and its load; renders, the CLI and the redline PDF lay it
out in bigger slices. A reader (and the PDF sent to a client) must get the same pages either
way: the same paragraphs on each page, with their lines at the same heights. (A slice is
written in parts of a few items, each laid out before the next; the layouts compared against
lay a whole slice out at once.) The sample
contract has keep-with-next headings, footnotes and a long table and is cut into two section
documents; the NVCA certificate has 94 long footnotes; the Docx4j guide is cut four times.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PART_ITEMS, PagedLayout
from reviewer_app.ui.pageview.paint import page_records
from tests.conftest import CORPUS, REPO_ROOT
from tests.docx_factory import make_docx, p

#: (document, whether small slices cut its flow into more section documents than one pass)
DOCUMENTS = [
    (REPO_ROOT / "resources" / "samples" / "sample-msa.docx", True),
    (CORPUS / "contracts" / "oa_common-paper-partnership-agreement.docx", False),
    (CORPUS / "public" / "dxo_NVCA-Model-COI.docx", True),
    (CORPUS / "public" / "docx4j_Docx4j_GettingStarted.docx", True),
]

PageLines = list[tuple[str | None, tuple[float, ...]]]
#: a part size no document reaches: what is written in a slice is laid out at once
ONE_PASS = 10**9
_DRAWING_NS = (
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
)


def _laid_out(path: Path, budget: float, parts: int = PART_ITEMS) -> PagedLayout:
    """``path`` laid out in slices of ``budget`` seconds (0: one body item per slice), written in
    parts of at most ``parts`` body items."""
    layout = PagedLayout(DocxReviewer.open(path), "all")
    layout.part_items = parts
    while not layout.step(budget):
        pass
    return layout


def _pages(layout: PagedLayout) -> list[PageLines]:
    """Per page, its paragraphs in order, each with the tops of its lines there (LU, 0.1 LU)."""
    return [
        [
            (record.block_id, tuple(round(top, 1) for top, _bottom in lines))
            for record, lines in page_records(layout, page)
        ]
        for page in layout.pages()
    ]


@pytest.mark.parametrize(("path", "cut"), DOCUMENTS, ids=[path.stem for path, _cut in DOCUMENTS])
def test_pages_are_the_same_however_the_layout_is_sliced(qapp, path: Path, cut: bool) -> None:
    if not path.exists():
        pytest.skip(f"{path.name} is missing")
    whole = _laid_out(path, 1e9, ONE_PASS)
    expected = _pages(whole)
    for budget in (0.0, 0.003):
        layout = _laid_out(path, budget)
        assert (len(layout.docs) > len(whole.docs)) == cut
        sliced = _pages(layout)
        assert len(sliced) == len(expected), f"{budget} s slices: {len(sliced)} pages, not {len(expected)}"
        for number, (got, want) in enumerate(zip(sliced, expected, strict=True), start=1):
            assert got == want, f"{budget} s slices: page {number} differs"


def test_a_long_contract_breaks_its_pages_alike_in_small_and_large_slices(qapp, tmp_path: Path) -> None:
    """The generated contract at four times the sample (68 pages, four section documents):
    clauses under widow control, lead-ins kept with their lists. A paragraph whose keep rules
    wait for the paragraph after it, because a slice ended there, must not meanwhile be moved
    by the widow rule of the page before: the window (small slices) and the PDF (large ones)
    would then break pages differently from about page 22 on."""
    path = tmp_path / "contract-x4.docx"
    generator = REPO_ROOT / "resources" / "samples" / "generate_contract.py"
    subprocess.run([sys.executable, str(generator), str(path), "--scale", "4"], check=True, timeout=120)
    expected = _pages(_laid_out(path, 0.05, ONE_PASS))
    for budget in (0.0, 0.003):
        sliced = _pages(_laid_out(path, budget))
        assert len(sliced) == len(expected), f"{budget} s slices: {len(sliced)} pages, not {len(expected)}"
        for number, (got, want) in enumerate(zip(sliced, expected, strict=True), start=1):
            assert got == want, f"{budget} s slices: page {number} differs"


def _inline_box(height_in: float) -> str:
    """A run holding an inline grey box 2 inches wide and ``height_in`` inches tall."""
    return (
        f"<w:r><w:drawing {_DRAWING_NS}><wp:inline>"
        f'<wp:extent cx="1828800" cy="{round(height_in * 914400)}"/><wp:docPr id="1" name="Box"/>'
        '<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape">'
        '<wps:wsp><wps:spPr><a:prstGeom prst="rect"/><a:solidFill><a:srgbClr val="808080"/></a:solidFill>'
        "</wps:spPr><wps:bodyPr/></wps:wsp></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"
    )


def _picture_docx(tmp_path: Path) -> Path:
    """A 6.9-inch picture in a paragraph with 1.5 line spacing, on a letter page with 1-inch
    margins, then a one-line paragraph (00000001) and five long ones (00000002-00000006)."""
    spaced = '<w:spacing w:line="360" w:lineRule="auto"/>'
    clause = "Words of a clause that runs on over several lines. " * 20
    body = (
        p(ppr=spaced, runs=_inline_box(6.94))
        + p("A line after the picture.", para_id="00000001", ppr=spaced)
        + "".join(p(f"Paragraph {i}. {clause}", para_id=f"{i:08X}", ppr=spaced) for i in range(2, 7))
        + '<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440"'
        ' w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>'
    )
    path = tmp_path / "picture.docx"
    path.write_bytes(make_docx(body))
    return path


def test_text_after_a_picture_running_past_the_page_foot_starts_the_next_page_alike(
    qapp, tmp_path: Path
) -> None:
    """A 6.9-inch picture in a paragraph with 1.5 line spacing, on a letter page with 1-inch
    margins: Qt finds that the picture fits and moves on by its spaced height, past the page's
    foot, so the next paragraph starts in the next page's top margin. Laid out in one pass, its
    first line is moved to that page's text top (720 LU). Written one paragraph at a time, Qt
    laid the text out again from that paragraph's start and left the line in the margin
    (268 LU), with every line after it on the page 452 LU higher: the window's pages were not
    the PDF's (dxo_WC-BodyBookmarks-Before, page 214)."""
    path = _picture_docx(tmp_path)
    expected = _pages(_laid_out(path, 1e9, ONE_PASS))
    assert expected[1][0] == ("00000001", (720.0,))
    sliced = _pages(_laid_out(path, 0.0))
    assert sliced[1][0] == expected[1][0], "the line after the picture is not at the top margin"
    assert sliced == expected


def test_a_paragraph_rebuilt_after_a_picture_running_past_the_page_foot_leaves_the_pages_alike(
    qapp, tmp_path: Path
) -> None:
    """As above, laid out in one pass, then a paragraph after the picture is rebuilt in place (an
    edit there): Qt lays the text out again from its last checkpoint before the edit, the start
    of the paragraph in the top margin, and left that paragraph's line in the margin (268 LU)
    unless the rebuild has Qt lay it out again from the paragraph before, as writing does."""
    path = _picture_docx(tmp_path)
    layout = _laid_out(path, 1e9, ONE_PASS)
    expected = _pages(layout)
    assert expected[1][0] == ("00000001", (720.0,))
    assert layout.rerender_block("00000002")
    rebuilt = _pages(layout)
    assert rebuilt[1][0] == expected[1][0], "the line after the picture is not at the top margin"
    assert rebuilt == expected
