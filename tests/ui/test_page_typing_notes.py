"""Typing in a footnote on the page as in Word with Track Changes on: the edge table's note rows.

A click on a footnote's text at the foot of the page puts the caret there; keys pressed on the
page view then edit the note in footnotes.xml through the edit engine, as tracked changes under
the person's name. What the rows pin down, in words (the body's rows are in
``test_page_typing_edges``):

========================================  ==================================================================
where the person types                    what happens
========================================  ==================================================================
in a footnote's original text             an insertion of the person's in the note
Backspace over a footnote's text          the person's deletion in the note
at the end of another's note insertion    a new insertion of the person's after hers; hers is untouched
Enter in a footnote                       refused, nothing written (not supported yet; says so)
========================================  ==================================================================

Each saved file passes the schema checker; LibreOffice lists the person's changes in the note,
and its own Accept All and Reject All give the intended and the original note.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from reviewer_app.docx.stories import find_story_block, story_block_id
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview import PageView
from reviewer_app.ui.pageview.caret import Caret
from reviewer_app.ui.pageview.caret_stories import note_frames, story_caret_line
from tests.checkers import lo_resolve_all, schema_errors
from tests.docx_factory import make_docx, p
from tests.window_fixtures import window_on_file

ME = "Alex Lawyer"
THEIRS = 'w:author="Priya Shah" w:date="2025-03-14T09:00:00Z"'
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
NOTE = story_block_id({"type": "footnote", "noteId": 1}, "seq-0001")
ORIGINAL = " Fees exclude taxes, duties."


def _run(text: str, tag: str = "w:t") -> str:
    return f'<w:r><{tag} xml:space="preserve">{text}</{tag}></w:r>'


_REFERENCE = '<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="1"/></w:r>'
BODY = p("Payment terms.") + p(runs=_run("The Customer pays the fees") + _REFERENCE + _run(" monthly."))
NOTES = (
    '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
    '<w:footnote w:id="1"><w:p><w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/>'
    f'</w:r>{_run(" Fees exclude taxes,")}<w:ins w:id="11" {THEIRS}>{_run(" duties")}</w:ins>{_run(".")}'
    "</w:p></w:footnote>"
)

#: (case, offset clicked, keys, note text after, the note's changes after as (author, kind, text))
CASES = [
    (
        "in a footnote's original text",
        len(" Fees exclude"),
        " all",
        " Fees exclude all taxes, duties.",
        [("Alex Lawyer", "ins", " all"), ("Priya Shah", "ins", " duties")],
    ),
    (
        "backspace over a footnote's text",
        len(" Fees exclude taxes"),
        "\b" * len(" taxes"),
        " Fees exclude, duties.",
        [("Alex Lawyer", "del", " taxes"), ("Priya Shah", "ins", " duties")],
    ),
    (
        "end of another's insertion in a footnote",
        len(" Fees exclude taxes, duties"),
        " and levies",
        " Fees exclude taxes, duties and levies.",
        [("Alex Lawyer", "ins", " and levies"), ("Priya Shah", "ins", " duties")],
    ),
    ("enter in a footnote", len(" Fees"), "\r", ORIGINAL, [("Priya Shah", "ins", " duties")]),
]


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_file(qtbot, tmp_path / "notes.docx", make_docx(BODY, footnotes=NOTES), monkeypatch, ME)


def note_point(view: PageView, offset: int) -> QPoint:
    """The gap before the note's ``offset``-th character as painted at its page's foot, scrolled
    into view."""
    layout = view.paged_layout()
    for page in layout.pages():
        line = story_caret_line(note_frames(layout, page), Caret(NOTE, offset))
        if line is None:
            continue
        bar = view.verticalScrollBar()
        rect = view.page_rect(page.number)
        scale = rect.width() / page.width
        bar.setValue(
            round(bar.value() + rect.top() + line.center().y() * scale - view.viewport().height() / 2)
        )
        rect = view.page_rect(page.number)
        middle = line.center()
        return QPoint(round(rect.left() + middle.x() * scale), round(rect.top() + middle.y() * scale))
    raise AssertionError(f"character {offset} of the footnote is not on any page")


def click_in_note(view: PageView, qtbot, offset: int) -> None:
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=note_point(view, offset))
    assert view.caret() == Caret(NOTE, offset)


def note_text(win: MainWindow) -> str:
    found = find_story_block(win.reviewer.document, NOTE)
    assert found is not None
    return found[2].text


def note_changes(footnotes_xml: bytes) -> list[tuple[str, str, str]]:
    """(author, ins|del, text) of each tracked change in footnote 1 of a footnotes part."""
    root = etree.fromstring(footnotes_xml)
    note = next(n for n in root.iter(W + "footnote") if n.get(W + "id") == "1")
    return sorted(
        (el.get(W + "author"), el.tag[len(W) :], "".join(el.itertext()))
        for el in note.iter(W + "ins", W + "del")
    )


def footnotes_of(path: Path) -> bytes:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
        return archive.read("word/footnotes.xml")


def _press(view: PageView, keys: str) -> None:
    for key in keys:
        if key == "\b":
            QTest.keyClick(view, Qt.Key.Key_Backspace)
        elif key == "\r":
            QTest.keyClick(view, Qt.Key.Key_Return)
        else:
            QTest.keyClicks(view, key)


@pytest.mark.parametrize(("case", "offset", "keys", "text", "changes"), CASES, ids=[c[0] for c in CASES])
def test_typing_in_a_footnote(
    window: MainWindow, qtbot, tmp_path: Path, case: str, offset: int, keys: str, text: str, changes: list
) -> None:
    view = window.page_view
    assert note_text(window) == ORIGINAL
    click_in_note(view, qtbot, offset)
    _press(view, keys)
    assert note_text(window) == text
    path = tmp_path / "out.docx"
    window.controller.save(path)
    assert note_changes(footnotes_of(path)) == sorted(changes)
    assert schema_errors(path) == 0
    if text == ORIGINAL:  # refused: the status bar says why
        assert window.statusBar().currentMessage()
    else:  # the caret stands after what was typed (before what was deleted), drawn in the note
        assert view.caret() == Caret(NOTE, offset + len(keys.replace("\b", "")) - keys.count("\b"))
        view.finish_layout()  # a key in a note lays the pages out again
        assert view.caret_viewport_line() is not None


def test_a_footnote_typed_into_is_read_by_libreoffice_and_undone_at_once(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading, artifacts_dir: Path
) -> None:
    view = window.page_view
    click_in_note(view, qtbot, len(" Fees exclude taxes"))
    _press(view, "\b" * len(" taxes") + " VAT")
    intended = " Fees exclude VAT, duties."
    assert note_text(window) == intended
    view.finish_layout()
    assert view.grab().save(str(artifacts_dir / "typing-footnote.png"))
    path = tmp_path / "typed.docx"
    window.controller.save(path)
    assert schema_errors(path) == 0
    reading = lo_reading(path, accept_reject=True)
    assert reading["load_ok"]
    ours = sorted((c["type"], c["text"]) for c in reading["tracked_changes"] if c["author"] == ME)
    assert ours == [("delete", " taxes"), ("insert", " VAT")]
    for accept, note in ((True, intended), (False, " Fees exclude taxes,.")):
        out = tmp_path / f"{'accepted' if accept else 'rejected'}.docx"
        assert lo_resolve_all(path, out, accept=accept)["reloaded_tracked_changes"] == 0
        footnote = etree.fromstring(footnotes_of(out))
        texts = ["".join(n.itertext()) for n in footnote.iter(W + "footnote") if n.get(W + "type") is None]
        assert [t.strip() for t in texts] == [note.strip()]
    # one Ctrl+Z takes back the typing burst, a second the deletions before it
    QTest.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert note_text(window) == " Fees exclude, duties."
    QTest.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert note_text(window) == ORIGINAL
    assert view.caret() == Caret(NOTE, len(" Fees exclude taxes"))


def test_left_and_right_move_the_caret_within_the_footnote(window: MainWindow, qtbot) -> None:
    view = window.page_view
    click_in_note(view, qtbot, len(" Fees exclude"))
    for _ in " exclude":
        QTest.keyClick(view, Qt.Key.Key_Left)
    QTest.keyClick(view, Qt.Key.Key_Right)
    QTest.keyClick(view, Qt.Key.Key_Left)
    assert view.caret() == Caret(NOTE, len(" Fees"))
    QTest.keyClicks(view, " due")
    assert note_text(window) == " Fees due exclude taxes, duties."


def test_home_and_end_go_to_the_ends_of_the_footnote_line_and_typing_follows(
    window: MainWindow, qtbot, tmp_path: Path
) -> None:
    view = window.page_view
    click_in_note(view, qtbot, len(" Fees"))
    QTest.keyClick(view, Qt.Key.Key_End)
    assert view.caret() == Caret(NOTE, len(ORIGINAL))
    end = view.caret_viewport_line()
    QTest.keyClick(view, Qt.Key.Key_Home)
    assert view.caret() == Caret(NOTE, 0)
    home = view.caret_viewport_line()
    assert home is not None and end is not None and home.x1() < end.x1()  # drawn at the line's two ends
    QTest.keyClick(view, Qt.Key.Key_End)
    QTest.keyClicks(view, " Net.")
    assert note_text(window) == ORIGINAL + " Net."
    path = tmp_path / "end.docx"
    window.controller.save(path)
    assert note_changes(footnotes_of(path)) == sorted(
        [(ME, "ins", " Net."), ("Priya Shah", "ins", " duties")]
    )
    assert schema_errors(path) == 0
