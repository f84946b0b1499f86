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
