"""Word's behaviour at the edges of tracked changes, as typing in the page reproduces it: a table.

Each row clicks into a small document holding another reviewer's (Priya's) pending changes, a
comment and a table, presses real keys on the page view, and states what the document holds
then. What the rows pin down, in words:

========================================  ==================================================================
where the person types                    what happens
========================================  ==================================================================
at the end of Priya's insertion           a new insertion of the person's after hers; hers is untouched
at the start of Priya's insertion         the person's insertion goes before hers, original text unchanged
inside Priya's insertion                  hers is cut in two around the person's (each half stays hers)
Backspace over Priya's inserted text      the person's deletion nested in her insertion (hers lists what is left)
right after Priya's deletion              the typed text goes before the deleted text (it is stepped over)
in a paragraph Priya deleted              refused, nothing written (the status bar says why)
in a table cell                           an insertion in that cell
Enter at the end of a table cell          refused, nothing written (not supported yet; says so)
at the end of commented text              the insertion lands inside the comment's range (its quote grows)
in a footnote                             an insertion in the note, in footnotes.xml
                                          (rows: test_page_typing_notes)
in the header, after a double click       an insertion in header1.xml; a single click stays in the body
                                          (rows: test_page_typing_headers)
========================================  ==================================================================
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.ui.main_window import MainWindow
from tests.checkers import schema_errors
from tests.docx_factory import make_docx, p
from tests.ui.test_page_typing import click_at
from tests.window_fixtures import window_on_file

ME = "Alex Lawyer"
THEIRS = 'w:author="Priya Shah" w:date="2025-03-14T09:00:00Z"'
INSERTED, DELETED, DROPPED, CELL, COMMENTED = "1A2B3C01", "1A2B3C02", "1A2B3C03", "1A2B3C05", "1A2B3C07"


def _run(text: str, tag: str = "w:t") -> str:
    return f'<w:r><{tag} xml:space="preserve">{text}</{tag}></w:r>'


BODY = "".join(
    (
        p(
            para_id=INSERTED,
            runs=_run("Price is fixed")
            + f'<w:ins w:id="11" {THEIRS}>{_run(" for two years")}</w:ins>'
            + _run("."),
        ),
        p(
            para_id=DELETED,
            runs=_run("The term is ")
            + f'<w:del w:id="12" {THEIRS}>{_run("three ", "w:delText")}</w:del>'
            + _run("five years."),
        ),
        p(
            para_id=DROPPED,
            ppr=f'<w:rPr><w:del w:id="13" {THEIRS}/></w:rPr>',
            runs=f'<w:del w:id="14" {THEIRS}>{_run("Obsolete clause.", "w:delText")}</w:del>',
        ),
        p("Closing words.", para_id="1A2B3C04"),
        '<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/></w:tblPr><w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid>'
        f'<w:tr><w:tc><w:tcPr><w:tcW w:w="9000" w:type="dxa"/></w:tcPr>{p("Cell text", para_id=CELL)}</w:tc></w:tr>'
        "</w:tbl>",
        p("End.", para_id="1A2B3C06"),
        p(
            para_id=COMMENTED,
            runs=_run("Notice ")
            + '<w:commentRangeStart w:id="1"/>'
            + _run("must be written")
            + '<w:commentRangeEnd w:id="1"/><w:r><w:commentReference w:id="1"/></w:r>'
            + _run("."),
        ),
    )
)
COMMENT = f'<w:comment w:id="1" {THEIRS}><w:p><w:r><w:t>Email too?</w:t></w:r></w:p></w:comment>'

#: (case, block, offset clicked, keys, text after, the block's changes after as (author, type, text))
CASES = [
    (
        "end of another's insertion",
        INSERTED,
        len("Price is fixed for two years"),
        ", indexed",
        "Price is fixed for two years, indexed.",
        [("Alex Lawyer", "insertion", ", indexed"), ("Priya Shah", "insertion", " for two years")],
    ),
    (
        "start of another's insertion",
        INSERTED,
        len("Price is fixed"),
        " only",
        "Price is fixed only for two years.",
        [("Alex Lawyer", "insertion", " only"), ("Priya Shah", "insertion", " for two years")],
    ),
    (
        "inside another's insertion",
        INSERTED,
        len("Price is fixed for two"),
        " or three",
        "Price is fixed for two or three years.",
        [
            ("Alex Lawyer", "insertion", " or three"),
            ("Priya Shah", "insertion", " for two"),
            ("Priya Shah", "insertion", " years"),
        ],
    ),
    (
        "backspace over another's insertion",
        INSERTED,
        len("Price is fixed for two years"),
        "\b" * len(" years"),
        "Price is fixed for two.",
        [("Alex Lawyer", "deletion", " years"), ("Priya Shah", "insertion", " for two")],
    ),
    (
        "right after another's deletion",
        DELETED,
        len("The term is "),
        "four or ",
        "The term is four or five years.",
        [("Alex Lawyer", "insertion", "four or "), ("Priya Shah", "deletion", "three ")],
    ),
    (
        "in a paragraph another deleted",
        DROPPED,
        0,
        "x",
        "",
        None,
    ),
    (
        "in a table cell",
        CELL,
        len("Cell text"),
        " here",
        "Cell text here",
        [("Alex Lawyer", "insertion", " here")],
    ),
    (
        "enter at the end of a table cell",
        CELL,
        len("Cell text"),
        "\r",
        "Cell text",
        [],
    ),
    (
        "at the end of commented text",
        COMMENTED,
        len("Notice must be written"),
        " and signed",
        "Notice must be written and signed.",
        [("Alex Lawyer", "insertion", " and signed")],
    ),
]


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_file(qtbot, tmp_path / "edges.docx", make_docx(BODY, comments=COMMENT), monkeypatch, ME)


def _press(view, keys: str) -> None:
    for key in keys:
        if key == "\b":
            QTest.keyClick(view, Qt.Key.Key_Backspace)
        elif key == "\r":
            QTest.keyClick(view, Qt.Key.Key_Return)
        else:
            QTest.keyClicks(view, key)


@pytest.mark.parametrize(
    ("case", "block", "offset", "keys", "text", "changes"), CASES, ids=[c[0] for c in CASES]
)
def test_typing_at_the_edges_of_tracked_changes(
    window: MainWindow,
    qtbot,
    tmp_path: Path,
    case: str,
    block: str,
    offset: int,
    keys: str,
    text: str,
    changes: list | None,
) -> None:
    view = window.page_view
    before = window.controller.snapshot().block(block).text
    click_at(view, qtbot, block, offset)
    _press(view, keys)
    assert window.controller.snapshot().block(block).text == text
    found = sorted(
        (c["author"], c["type"], c["text"]) for c in window.reviewer.changes() if c.get("blockId") == block
    )
    if changes is None:  # refused: nothing of the person's anywhere, and the status bar says why
        assert text == before
        assert not [c for c in window.reviewer.changes() if c["author"] == ME]
        assert window.statusBar().currentMessage()
        return
    assert found == sorted(changes)
    if not [c for c in changes if c[0] == ME]:
        assert window.statusBar().currentMessage()
    path = tmp_path / "out.docx"
    window.controller.save(path)
    assert schema_errors(path) == 0
