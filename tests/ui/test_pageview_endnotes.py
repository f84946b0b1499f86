"""Endnotes in the page view: after the body's last paragraph, numbered as their references, not page text."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import PagedLayout
from tests.conftest import CORPUS

SMALL = CORPUS / "public" / "mammoth_endnotes.docx"


@pytest.fixture
def endnotes_docx(tmp_path: Path) -> Path:
    if not SMALL.exists():
        pytest.skip("the corpus is not available")
    return Path(shutil.copy(SMALL, tmp_path / "endnotes.docx"))


def test_endnotes_follow_the_body_in_order_with_their_numbers(qapp, endnotes_docx: Path) -> None:
    """The last page shows the body, then each endnote numbered as its reference (i, ii)."""
    layout = PagedLayout(DocxReviewer.open(endnotes_docx), "all").build_all()
    shown = layout.docs[-1].document.toPlainText()
    body_end = shown.index("Ouchi.ii")
    first = shown.index("i A tachyon walks into a bar.")
    second = shown.index("ii Fin.")
    assert body_end < first < second


def test_endnote_text_is_not_page_text(qapp, endnotes_docx: Path) -> None:
    """Page text stays the body's clean text; the note's text is read as its own story."""
    reviewer = DocxReviewer.open(endnotes_docx)
    layout = PagedLayout(reviewer, "all").build_all()
    pages = "".join(layout.index.page_text(p) for p in range(layout.page_count()))
    assert pages == "\n".join(b.text for b in reviewer.snapshot().content_blocks())
    assert "tachyon" not in pages
    last = reviewer.snapshot().content_blocks()[-1]
    assert layout.index.page_of_block(last.id) == 0
    assert layout.index.blocks_on_page(0) == [b.id for b in reviewer.snapshot().content_blocks()]


def test_rerendering_the_last_paragraph_keeps_the_endnotes_after_it(qapp, endnotes_docx: Path) -> None:
    """An edit to the body's last paragraph re-renders it in place; the notes stay after it."""
    reviewer = DocxReviewer.open(endnotes_docx)
    layout = PagedLayout(reviewer, "all").build_all()
    last = reviewer.snapshot().content_blocks()[-1]
    batch = {
        "version": 1,
        "mode": "tracked-changes",
        "operations": [
            {
                "id": "o1",
                "type": "replaceInBlock",
                "blockId": last.id,
                "find": "Ouch",
                "replace": "Ouch again",
            }
        ],
    }
    assert reviewer.apply_operations(batch)["status"] != "failed"
    assert layout.rerender_block(last.id, reviewer.snapshot())
    shown = layout.docs[-1].document.toPlainText()
    assert shown.index("again") < shown.index("i A tachyon") < shown.index("ii Fin.")
    assert "tachyon" not in layout.index.page_text(0)
    assert "again" in layout.index.page_text(0)


@pytest.mark.corpus
def test_many_endnotes_run_onto_further_pages(qapp) -> None:
    """A book with 190 endnotes: they take pages after the body, which read no endnote text."""
    path = CORPUS / "public" / "dxo_WC-BodyBookmarks-Before.docx"
    if not path.exists():
        pytest.skip("the corpus is not available")
    reviewer = DocxReviewer.open(path)
    layout = PagedLayout(reviewer, "none").build_all()
    last = reviewer.snapshot().content_blocks()[-1]
    last_body_page = layout.index.page_of_block(last.id)
    assert last_body_page is not None and layout.page_count() > last_body_page + 1
    assert all(not layout.index.page_text(p).strip() for p in range(last_body_page + 1, layout.page_count()))
    # the book numbers its endnotes in decimal (w:endnotePr/w:numFmt), not Word's default i, ii
    shown = layout.docs[-1].document.toPlainText()
    assert shown.index("\n1 William Esper") < shown.index("\n2 William Shakespeare")
