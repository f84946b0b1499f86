"""Footnotes in the page view: each note at the foot of the page holding its reference.

The sample contract has six footnotes; a reader expects each one under a short rule at the foot
of the page that cites it, numbered as in the text, with the body ending above the notes, and
the same pages after accepting a change as after opening the accepted document afresh. The
NVCA model certificate (public corpus) has 94 long footnotes, some continued on the next page.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview.layout import Page, PagedLayout
from reviewer_app.ui.pageview.paint import page_records
from reviewer_app.ui.pageview.qformats import LU_PER_INCH, TWIPS
from reviewer_app.ui.pageview.render import render_page_image
from tests.conftest import CORPUS, REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"
NVCA = CORPUS / "public" / "dxo_NVCA-Model-COI.docx"
#: The sample's first footnote, cited in the definitions.
FIRST_NOTE = "Within the meaning of PRA Supervisory Statement SS2/21"


def _open(path: Path) -> DocxReviewer:
    if not path.exists():
        pytest.skip(f"{path.name} is missing")
    return DocxReviewer.open(path)


def _references(layout: PagedLayout) -> list[tuple[int, str, str]]:
    """(page, note id, number) of every footnote reference laid out, in document order."""
    found = []
    for doc_index, section_doc in enumerate(layout.docs):
        first_page = layout.first_page_of_doc(doc_index)
        for record in section_doc.records:
            for offset, note_id, label in record.notes:
                page = first_page + layout.page_of_position(doc_index, record.start + offset)
                found.append((page, note_id, label))
    return found


def _foot_texts(layout: PagedLayout, page: Page) -> list[str]:
    foot = layout.notes.foot(page)
    return [piece.document.toPlainText() for piece in foot.pieces] if foot is not None else []


def _assert_body_clears_the_notes(layout: PagedLayout) -> None:
    """On every page with notes, the body's last line ends above the rule."""
    for page in layout.pages():
        foot = layout.notes.foot(page)
        if foot is None or not foot.pieces:
            continue
        props = layout.docs[page.doc_index].props
        rule_top = page.height - props.bottom * TWIPS - foot.height
        bottoms = [bottom for _record, lines in page_records(layout, page) for _top, bottom in lines]
        assert bottoms, f"page {page.number + 1} has notes but no text"
        assert max(bottoms) <= rule_top + 1, f"page {page.number + 1}: text runs into the footnotes"


@pytest.fixture(scope="module")
def sample_layout(qapp) -> PagedLayout:
    return PagedLayout(_open(SAMPLE), "all").build_all()


def test_each_note_sits_at_the_foot_of_the_page_citing_it(sample_layout: PagedLayout) -> None:
    refs = _references(sample_layout)
    assert [label for _page, _id, label in refs] == ["1", "2", "3", "4", "5", "6"]
    pages = sample_layout.pages()
    for page_number, _note_id, label in refs:
        texts = _foot_texts(sample_layout, pages[page_number])
        assert any(text.startswith(label) for text in texts), f"note {label} is not on page {page_number + 1}"
    shown = [text for page in pages for text in _foot_texts(sample_layout, page)]
    assert len(shown) == 6, "each note is shown once"
    first = next(text for text in shown if FIRST_NOTE in text)
    assert first.startswith("1"), "a note shows its number before its text"
    _assert_body_clears_the_notes(sample_layout)


def test_notes_use_the_footnote_style_size(sample_layout: PagedLayout) -> None:
    """Footnote Text is smaller than the body text (10 pt against 11 pt in the sample)."""
    page = next(p for p in sample_layout.pages() if sample_layout.notes.foot(p) is not None)
    note = sample_layout.notes.foot(page).pieces[0].document
    fragment = note.begin().next() if note.begin().text() == "" else note.begin()
    note_size = fragment.charFormat().font().pointSizeF() or fragment.charFormat().fontPointSize()
    body = sample_layout.docs[0].document.findBlock(sample_layout.docs[0].records[5].start)
    body_size = body.charFormat().font().pointSizeF() or body.charFormat().fontPointSize()
    assert 0 < note_size < body_size


def test_page_text_is_the_body_and_adds_up(sample_layout: PagedLayout, qapp) -> None:
    """read_page text keeps ``[^N]`` for a reference and leaves the note's own text out."""
    reviewer = _open(SAMPLE)
    snapshot = reviewer.snapshot()
    index = sample_layout.index
    pages_text = "\n".join(index.page_text(p) for p in range(index.page_count))
    assert "[^1]" in pages_text and FIRST_NOTE not in pages_text
    joined: dict[str, str] = {}
    for p in range(index.page_count):
        for block_id, text in index.page_pieces(p):
            if block_id:
                joined[block_id] = joined.get(block_id, "") + text
    for block in snapshot.content_blocks():
        if block.text.strip():
            assert "".join(joined.get(block.id, "").split()) == "".join(block.text.split())


def test_slices_lay_out_the_same_pages_as_one_pass(qapp, sample_layout: PagedLayout) -> None:
    """The window lays out in small slices; the notes settle exactly as in a single pass."""
    sliced = PagedLayout(_open(SAMPLE), "all")
    while not sliced.step(0.002):
        pass
    assert sliced.page_count() == sample_layout.page_count()
    for a, b in zip(sliced.pages(), sample_layout.pages(), strict=True):
        assert _foot_texts(sliced, a) == _foot_texts(sample_layout, b)
        assert sliced.index.page_text(a.number) == sample_layout.index.page_text(b.number)


def test_accepting_a_change_settles_the_notes_again(qapp, tmp_path: Path) -> None:
    """After accepting every change on a page with notes, re-rendered pages match a fresh layout."""
    reviewer = _open(SAMPLE)
    layout = PagedLayout(reviewer, "all").build_all()
    noted = {page for page, _id, _label in _references(layout)}
    changes = [
        c
        for c in reviewer.changes()
        if c["blockId"] in layout.by_id and (layout.index.page_of_block(c["blockId"]) or 0) <= max(noted)
    ]
    assert changes, "the sample has changes before its last footnote"
    for change in changes:
        assert reviewer.accept_change(change["id"])
        assert layout.rerender_block(change["blockId"], reviewer.snapshot())
    _assert_body_clears_the_notes(layout)
    path = tmp_path / "accepted.docx"
    reviewer.save(path)
    fresh = PagedLayout(DocxReviewer.open(path), "all").build_all()
    assert layout.page_count() == fresh.page_count()
    for a, b in zip(layout.pages(), fresh.pages(), strict=True):
        assert _foot_texts(layout, a) == _foot_texts(fresh, b), f"page {a.number + 1}"
        assert layout.index.page_text(a.number) == fresh.index.page_text(b.number), f"page {a.number + 1}"


def test_the_rule_and_notes_are_painted(sample_layout: PagedLayout) -> None:
    page = next(p for p in sample_layout.pages() if sample_layout.notes.foot(p) is not None)
    foot = sample_layout.notes.foot(page)
    props = sample_layout.docs[page.doc_index].props
    dpi = 96
    image = render_page_image(sample_layout, page.number, dpi, markup_area=False)
    scale = dpi / LU_PER_INCH
    rule_y = round((page.height - props.bottom * TWIPS - foot.height + foot.rule / 2) * scale)
    left = round((props.left + props.gutter) * TWIPS * scale)
    dark = [
        x
        for x in range(left, left + round(1400 * scale))
        if any(QColor(image.pixel(x, y)).lightness() < 160 for y in range(rule_y - 2, rule_y + 3))
    ]
    assert len(dark) > 0.9 * round(1400 * scale), "the separator rule is drawn"


def test_long_notes_continue_on_the_next_page(qapp) -> None:
    """NVCA's long notes: nothing of a note is lost, a cut note goes on under a full rule."""
    layout = PagedLayout(_open(NVCA), "none").build_all()
    pages = layout.pages()
    shown: dict[int, float] = {}
    continued = 0
    for page in pages:
        foot = layout.notes.foot(page)
        if foot is None:
            continue
        if foot.continued:
            continued += 1
            before = layout.notes.foot(pages[page.number - 1])
            assert before is not None and before.rest, "a continued note comes from the page before"
        for piece in foot.pieces:
            shown[id(piece.document)] = shown.get(id(piece.document), 0.0) + piece.height
    assert continued >= 1
    complete = {id(p.document): p.document.size().height() for page in pages for p in _pieces(layout, page)}
    for key, height in complete.items():
        assert shown[key] == pytest.approx(height, abs=1.0), "every line of every note is shown once"
    assert len({note_id for _page, note_id, _label in _references(layout)}) >= 90
    _assert_body_clears_the_notes(layout)
    # LibreOffice lays the file out on 49 pages; without the notes the body took 35
    assert 44 <= layout.page_count() <= 54


def _pieces(layout: PagedLayout, page: Page) -> list:
    foot = layout.notes.foot(page)
    return list(foot.pieces) if foot is not None else []
