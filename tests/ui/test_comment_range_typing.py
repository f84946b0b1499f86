"""Typing inside a comment range that spans paragraphs updates the thread's quote at once.

The comments panel skips re-reading comments when a key lands in a paragraph no thread covers
(see ``docx/comment_coverage.py``); the middle paragraph of a range holds no comment marker, so only
following the range tells the panel that this key changed a quote.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from reviewer_app.ui.main_window import MainWindow
from tests.docx_factory import make_docx, p
from tests.ui.test_page_typing import click_at
from tests.window_fixtures import window_on_copy

FIRST, MIDDLE, LAST, AFTER = "1A2B3C01", "1A2B3C02", "1A2B3C03", "1A2B3C04"
COMMENT = (
    '<w:comment w:id="7" w:author="Opposing Counsel" w:initials="OC">'
    "<w:p><w:r><w:t>Why three paragraphs?</w:t></w:r></w:p></w:comment>"
)


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _commented_document(folder: Path) -> Path:
    body = (
        p(para_id=FIRST, runs='<w:commentRangeStart w:id="7"/>' + _run("Alpha clause."))
        + p("Beta clause.", para_id=MIDDLE)
        + p(
            para_id=LAST,
            runs=_run("Gamma clause.")
            + '<w:commentRangeEnd w:id="7"/><w:r><w:commentReference w:id="7"/></w:r>',
        )
        + p("Delta clause.", para_id=AFTER)
    )
    path = folder / "source" / "three-paragraph-comment.docx"
    path.parent.mkdir()
    path.write_bytes(make_docx(body, comments=COMMENT))
    return path


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    win = window_on_copy(qtbot, _commented_document(tmp_path), tmp_path, monkeypatch, "Alex Lawyer")
    win.docks.comments_dock.show()
    win.docks.comments_dock.raise_()
    qtbot.waitUntil(win.docks.comments.isVisible)
    return win


def test_a_key_in_the_middle_of_a_multi_paragraph_range_shows_in_the_quote(window: MainWindow, qtbot) -> None:
    panel, view = window.docks.comments, window.page_view
    before = panel.thread_row("7").quote
    assert "Beta clause." in before
    click_at(view, qtbot, AFTER, 0)  # outside the range first: the quote stays as it was
    QTest.keyClicks(view, "Z")
    assert panel.thread_row("7").quote == before
    click_at(view, qtbot, MIDDLE, len("Beta"))
    QTest.keyClicks(view, "X")
    assert "BetaX clause." in panel.thread_row("7").quote
