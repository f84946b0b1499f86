"""Absurd values a hostile or broken file can carry still open and lay out, quickly.

``w:after``/``w:line`` of 2147483647 made the page index fail (IndexError) and a huge indent
took seconds; a word of millions of characters without a break took minutes, since Qt looks for
the word's end on every line it fills, and Qt laid it out twice. Spacing and indents are held to Word's own limit, and a
very long word gets layout-only break marks every thousand characters, which the document's
text, the page text and clean-text positions never see.
"""

from __future__ import annotations

import random
import string
import time
from pathlib import Path

import pytest

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.pageview import PageView
from reviewer_app.ui.pageview.layout import BUILD_ALL_SLICE_S, PagedLayout
from reviewer_app.ui.pageview.long_words import BREAK_MARK, LONG_BLOCK, MAX_UNBROKEN, long_word_cuts
from tests.docx_factory import make_docx, p

HUGE = "2147483647"


def open_doc(tmp_path: Path, body: str) -> DocxReviewer:
    path = tmp_path / "extreme.docx"
    path.write_bytes(make_docx(body))
    return DocxReviewer.open(path)


@pytest.mark.parametrize(
    "ppr",
    [
        f'<w:spacing w:after="{HUGE}"/>',
        f'<w:spacing w:line="{HUGE}"/>',
        f'<w:spacing w:line="{HUGE}" w:lineRule="exact"/>',
        f'<w:spacing w:before="{HUGE}" w:after="{HUGE}"/>',
        f'<w:ind w:left="{HUGE}"/>',
        f'<w:ind w:firstLine="{HUGE}"/>',
    ],
)
def test_absurd_spacing_and_indents_open_and_lay_out(qtbot, tmp_path: Path, ppr: str) -> None:
    reviewer = open_doc(
        tmp_path, p("First paragraph", ppr=ppr) + p("Second paragraph") + p("Third paragraph")
    )
    view = PageView()
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    started = time.perf_counter()
    view.show_document(reviewer)
    view.finish_layout()
    elapsed = time.perf_counter() - started

    shown = "\n".join(view.page_text(k) for k in range(view.page_count()))
    assert [word in shown for word in ("First", "Second", "Third")] == [True, True, True]
    assert elapsed < 5  # the huge indent took 7 s


def test_a_multi_megabyte_word_is_laid_out_once_in_full_lines(qapp, tmp_path: Path) -> None:
    """Two million letters without a break (not "x"s: those compress like a zip bomb).

    Qt lays a block out again whole when the next paragraph is written after it, which doubled
    the freeze, so no layout slice may end on the long paragraph; and the break marks may cost
    the word only a few short lines, as Word fills every line of an unbreakable word.
    """
    n = 2_000_000
    word = "".join(random.Random(15).choices(string.ascii_letters, k=n))
    reviewer = open_doc(tmp_path, p("Before the word.") + p(word) + p("After the word."))
    layout = PagedLayout(reviewer, "all")
    slices_ending_on_the_word = 0
    while not layout.step(BUILD_ALL_SLICE_S):
        slices_ending_on_the_word += layout.docs[-1].document.lastBlock().length() > LONG_BLOCK
    assert slices_ending_on_the_word == 0

    page_text = "".join(layout.index.page_text(k) for k in range(layout.page_count()))
    assert BREAK_MARK not in page_text
    assert page_text.count(word) == 1
    assert "Before the word." in page_text and "After the word." in page_text

    record = layout.by_id[reviewer.snapshot().blocks[1].id]
    text_doc = layout.docs[record.doc_index].document
    lines = text_doc.findBlock(record.start).layout()
    filled = [lines.lineAt(k).naturalTextWidth() / lines.lineAt(k).width() for k in range(lines.lineCount())]
    assert sum(filled) / len(filled) > 0.9  # lines are full but for a short one now and then
    for offset in (0, MAX_UNBROKEN - 1, MAX_UNBROKEN, MAX_UNBROKEN + 1, n - 1):
        position = record.position_of(offset)
        assert text_doc.characterAt(position) == word[offset]
        assert record.clean_offset(position) == offset

    reviewer.save(tmp_path / "saved.docx")
    assert DocxReviewer.open(tmp_path / "saved.docx").snapshot().blocks[1].text == word


def test_break_marks_count_a_word_across_runs() -> None:
    """A word split over runs is one word: the count carries from run to run."""
    assert long_word_cuts("x" * 600, 0) == ([], 600)
    assert long_word_cuts("x" * 600, 600) == ([400], 200)
    assert long_word_cuts("an ordinary sentence", 999) == ([1], len("sentence"))
    assert long_word_cuts("x" * 2500 + " tail", 0) == ([1000, 2000], 4)


def test_break_marks_carry_only_the_last_word_of_a_run() -> None:
    """What a run carries to the next is its last word: any blank (a no-break, ideographic or
    line-separator space too), a hyphen, a slash or a break mark ends a word; a no-break hyphen
    does not, and a run without a break adds to the count it was given."""
    for stop in (" ", "\t", "\u00a0", "\u3000", "\u2028", "-", "/", BREAK_MARK):
        assert long_word_cuts(f"ab{stop}cde", 7) == ([], 3)
        assert long_word_cuts(f"abcde{stop}", 7) == ([], 0)
    assert long_word_cuts("abcde", 7) == ([], 12)
    assert long_word_cuts("a\u2011b", 7) == ([], 10)
    assert long_word_cuts("", 7) == ([], 7)
