"""The page view on the sample contract: layout, markup modes, page index, view, renders.

Everything runs offscreen (``QT_QPA_PLATFORM=offscreen``, set in conftest). The sample's
tracked changes and comments are known: block 0D6B3E1B replaces "thirty (30)" by
"forty-five (45)", and four comment threads sit in the definitions and clauses.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview import PageView, render_pdf, render_pngs
from reviewer_app.ui.pageview.layout import PagedLayout, normalize_mode
from reviewer_app.ui.pageview.render import render_page_image
from tests.conftest import REPO_ROOT
from tests.docx_factory import make_docx, p

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
CHANGED_BLOCK = "0D6B3E1B"
DELETED, INSERTED = "thirty (30)", "forty-five (45)"


@pytest.fixture(scope="module")
def reviewer() -> DocxReviewer:
    if not SAMPLE.exists():
        pytest.skip("the sample contract is missing")
    return DocxReviewer.open(SAMPLE)


@pytest.fixture(scope="module")
def layout(qapp, reviewer: DocxReviewer) -> PagedLayout:
    return PagedLayout(reviewer, "all").build_all()


def _document_text(layout: PagedLayout) -> str:
    return "\n".join(d.document.toPlainText() for d in layout.docs)


# ----------------------------------------------------------------------------- layout
def test_sample_pages_and_page_text(layout: PagedLayout, reviewer: DocxReviewer) -> None:
    """17 pages, as LibreOffice lays the sample out; the cover is page 1, the parties on page 2."""
    assert layout.page_count() == 17
    assert "MASTER SERVICES AGREEMENT" in layout.index.page_text(0).upper()
    assert "THIS AGREEMENT is dated" in layout.index.page_text(1)
    snapshot = reviewer.snapshot()
    first = next(b for b in snapshot.content_blocks() if b.text.startswith("THIS AGREEMENT"))
    assert layout.index.page_of_block(first.id) == 1
    assert first.id in layout.index.blocks_on_page(1)
    last = snapshot.content_blocks()[-1]
    assert layout.index.page_of_block(last.id) == layout.page_count() - 1
    assert layout.index.page_of_block("no-such-block") is None


def test_page_of_range_follows_a_block_over_a_page_boundary(qapp) -> None:
    """A paragraph split by a page break reports the page of each offset. (The sample has none
    now: under widow control its paragraphs at a page foot move whole, as in LibreOffice.)"""
    long_text = " ".join(f"word{i}" for i in range(300))
    reviewer = DocxReviewer.from_bytes(make_docx("".join(p(f"Filler {i}") for i in range(40)) + p(long_text)))
    layout = PagedLayout(reviewer).build_all()
    for block in reviewer.snapshot().content_blocks():
        pages = layout.index.pages_of_block(block.id)
        if pages and pages[0] != pages[1]:
            assert layout.index.page_of_range(block.id, 0, 1) == pages[0]
            assert layout.index.page_of_range(block.id, len(block.text) - 1, len(block.text)) == pages[1]
            return
    pytest.fail("no paragraph runs over a page boundary")


def test_list_labels_and_tabs_are_laid_out(layout: PagedLayout) -> None:
    """List numbers are part of the paragraph as Word shows them (label, then a tab)."""
    text = _document_text(layout)
    assert "1.1\tIn this Agreement the following definitions apply:" in text
    assert "(A)\tThe Supplier provides data analytics" in text


def test_headers_and_footers_show_page_numbers(layout: PagedLayout) -> None:
    """The cover has its own (first-page) footer; page 2 numbers itself "Page 2 of 17"."""
    pages = layout.pages()
    footer = layout.headers.document(pages[1], "footer")
    header = layout.headers.document(pages[1], "header")
    assert footer is not None and "Page 2 of 17" in footer.toPlainText()
    assert header is not None and "Confidential" in header.toPlainText()
    cover = layout.headers.document(pages[0], "footer")
    assert cover is None or "Page 1" not in cover.toPlainText()


# ----------------------------------------------------------------------------- markup modes
def test_markup_modes_change_what_is_laid_out(qapp, reviewer: DocxReviewer) -> None:
    """All markup shows both sides of a change; No markup only the new; Original only the old."""
    texts = {
        mode: _document_text(PagedLayout(reviewer, mode).build_all()) for mode in ("all", "none", "original")
    }
    assert DELETED in texts["all"] and INSERTED in texts["all"]
    assert DELETED not in texts["none"] and INSERTED in texts["none"]
    assert DELETED in texts["original"] and INSERTED not in texts["original"]


def test_markup_modes_change_what_is_painted(qapp, reviewer: DocxReviewer) -> None:
    """The page holding a change paints differently in each mode; deletions are struck through."""
    images = {}
    for mode in ("all", "none", "original"):
        layout = PagedLayout(reviewer, mode).build_all()
        page = layout.index.page_of_block(CHANGED_BLOCK)
        assert page is not None
        images[mode] = render_page_image(layout, page, dpi=48, markup_area=False)
    assert images["all"] != images["none"]
    assert images["all"] != images["original"]
    assert images["none"] != images["original"]
    layout = PagedLayout(reviewer, "all").build_all()
    record = layout.by_id[CHANGED_BLOCK]
    document = layout.docs[record.doc_index].document
    block = document.findBlock(record.start)
    struck = [f for f in block.textFormats() if f.format.fontStrikeOut()]
    underlined = [f for f in block.textFormats() if f.format.fontUnderline()]
    assert struck and underlined, "a deletion is struck through and an insertion underlined"
    assert record.changed


def test_mode_names(qapp) -> None:
    assert normalize_mode("All markup") == "all"
    assert normalize_mode("No markup") == "none"
    assert normalize_mode("Original") == "original"
    with pytest.raises(ValueError):
        normalize_mode("simple-ish")


def test_rerender_one_block_after_accepting_a_change(qapp) -> None:
    """Accepting a deletion removes it from the laid-out paragraph without rebuilding the rest."""
    reviewer = DocxReviewer.open(SAMPLE)
    layout = PagedLayout(reviewer, "all").build_all()
    pages = layout.page_count()
    change = next(c for c in reviewer.changes() if c["type"] == "deletion" and c["blockId"] == CHANGED_BLOCK)
    assert reviewer.accept_change(change["id"])
    assert layout.rerender_block(CHANGED_BLOCK)
    text = _document_text(layout)
    assert DELETED not in text and INSERTED in text
    page = layout.index.page_of_block(CHANGED_BLOCK)
    assert page is not None and INSERTED in layout.index.page_text(page)
    assert abs(layout.page_count() - pages) <= 1
    assert not layout.rerender_block("no-such-block")


# ----------------------------------------------------------------------------- the widget
@pytest.fixture
def view(qtbot, reviewer: DocxReviewer) -> PageView:
    widget = PageView()
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show()
    qtbot.waitExposed(widget)
    with qtbot.waitSignal(widget.layout_finished, timeout=20000):
        widget.show_document(reviewer, reviewer.snapshot())
    return widget


def test_view_shows_pages_and_reads_them(view: PageView) -> None:
    assert view.page_count() == 17
    assert view.is_laid_out()
    assert "THIS AGREEMENT" in view.page_text(1)
    assert view.visible_pages() and view.visible_pages()[0] == 0


def test_scroll_to_a_middle_block_makes_it_visible(view: PageView, reviewer: DocxReviewer, qtbot) -> None:
    blocks = reviewer.snapshot().content_blocks()
    middle = blocks[len(blocks) // 2]
    assert view.scroll_to_block(middle.id)
    layout = view.paged_layout()
    assert layout is not None
    page = layout.index.page_of_block(middle.id)
    assert page is not None and page in view.visible_pages()
    found = layout.block_rect(middle.id)
    assert found is not None
    doc_index, rect = found
    page_height = layout.docs[doc_index].page_height
    top = view.page_rect(page).top() + (rect.top() % page_height) * view.zoom() * view.logicalDpiX() / 720
    assert 0 <= top <= view.viewport().height()
    assert not view.scroll_to_block("no-such-block")
    qtbot.wait(10)


def test_zoom_is_a_scale_not_a_relayout(view: PageView) -> None:
    layout = view.paged_layout()
    view.set_zoom(2.0)
    assert view.zoom() == pytest.approx(2.0)
    assert view.paged_layout() is layout and view.page_count() == 17
    wide = view.page_rect(0).width()
    view.set_zoom("50%")
    assert view.page_rect(0).width() == pytest.approx(wide / 4, rel=0.01)
    view.set_zoom("fit-width")
    assert view.zoom_mode() == "fit-width"
    before = view.zoom()
    view.resize(1400, 700)
    assert view.zoom() > before
    view.set_zoom("fit-page")
    assert view.page_rect(0).height() <= view.viewport().height()


def test_markup_mode_switch_rebuilds_the_layout(view: PageView, qtbot) -> None:
    with qtbot.waitSignal(view.layout_finished, timeout=20000):
        view.set_markup_mode("No markup")
    assert view.markup_mode() == "none"
    layout = view.paged_layout()
    assert layout is not None and DELETED not in _document_text(layout)


def test_view_paints_pages(view: PageView, artifacts_dir: Path) -> None:
    image = view.grab().toImage()
    assert not image.isNull()
    image.save(str(artifacts_dir / "pageview_widget.png"))
    # the page is white paper on the grey background
    rect = view.page_rect(0)
    middle = image.pixelColor(int(rect.center().x()), int(rect.top() + 5))
    assert middle.lightness() > 240


def test_clear_document(view: PageView) -> None:
    view.clear_document()
    assert view.page_count() == 0
    assert view.page_text(0) == ""
    assert not view.scroll_to_block("x")


def test_main_window_takes_the_page_view(qtbot, monkeypatch) -> None:
    from reviewer_app.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    view = window.document_view
    assert isinstance(view, PageView) and window.centralWidget().isAncestorOf(view)
    with qtbot.waitSignal(view.layout_finished, timeout=20000):
        assert window.open_path(SAMPLE)
    assert view.page_count() == 17


# ----------------------------------------------------------------------------- renders
def test_render_pdf_has_one_page_per_laid_out_page(qapp, reviewer: DocxReviewer, tmp_path: Path) -> None:
    out = tmp_path / "sample.pdf"
    pages = render_pdf(reviewer, out)
    assert pages == 17
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page(?!s)", data)) == 17


def test_render_pngs_at_a_dpi(qapp, reviewer: DocxReviewer, tmp_path: Path) -> None:
    written = render_pngs(reviewer, [0, 1, 99], tmp_path, markup="none", dpi=50)
    assert [p.name for p in written] == ["page-1.png", "page-2.png"]
    image = QImage(str(written[1]))
    # A4 at 50 dpi without the markup column (No markup has none)
    assert image.width() == pytest.approx(8.27 * 50, abs=2)
    assert image.height() == pytest.approx(11.69 * 50, abs=2)
