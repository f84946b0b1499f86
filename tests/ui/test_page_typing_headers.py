"""Typing in a header or footer on the page as in Word with Track Changes on.

As in Word, a single click on the header's text leaves the caret in the body; a double click goes
in to edit the header (or the footer), and the keys pressed then on the page view are written
into that story's part (header1.xml, footer1.xml) through the edit engine, as tracked changes
under the person's name. Each saved file passes the schema checker; LibreOffice lists the
person's change, and its own Accept All and Reject All give the intended and the original text.
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
from reviewer_app.ui.pageview.caret_stories import header_frames, story_caret_line
from tests.checkers import lo_resolve_all, schema_errors
from tests.docx_factory import make_docx, p
from tests.window_fixtures import window_on_file

ME = "Alex Lawyer"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
HEADER = story_block_id({"type": "header", "relationshipId": "rId1"}, "seq-0001")
FOOTER = story_block_id({"type": "footer", "relationshipId": "rId2"}, "seq-0001")
BODY = (
    p("Master Services Agreement.")
    + p("The Supplier shall provide the Services.")
    + '<w:sectPr><w:headerReference w:type="default" r:id="rId1"/>'
    '<w:footerReference w:type="default" r:id="rId2"/></w:sectPr>'
)
PARTS = {"header": HEADER, "footer": FOOTER}
TEXTS = {HEADER: "Acme Services Agreement", FOOTER: "Confidential"}


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_file(
        qtbot,
        tmp_path / "headers.docx",
        make_docx(BODY, header=p(TEXTS[HEADER]), footer=p(TEXTS[FOOTER])),
        monkeypatch,
        ME,
    )


def story_point(view: PageView, block_id: str, offset: int) -> QPoint:
    """The gap before ``offset`` of the first page's header or footer paragraph, scrolled into view."""
    layout = view.paged_layout()
    page = layout.pages()[0]
    line = story_caret_line(header_frames(layout, page), Caret(block_id, offset))
    assert line is not None
    bar = view.verticalScrollBar()
    rect = view.page_rect(0)
    scale = rect.width() / page.width
    bar.setValue(round(bar.value() + rect.top() + line.center().y() * scale - view.viewport().height() / 2))
    rect = view.page_rect(0)
    return QPoint(
        round(rect.left() + line.center().x() * scale), round(rect.top() + line.center().y() * scale)
    )


def story_text(win: MainWindow, block_id: str) -> str:
    found = find_story_block(win.reviewer.document, block_id)
    assert found is not None
    return found[2].text


def part_text_and_changes(path: Path, name: str) -> tuple[str, list[tuple[str, str, str]]]:
    """The text a part shows (deleted text left out) and its changes as (author, ins|del, text)."""
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
        root = etree.fromstring(archive.read(f"word/{name}"))
    shown = "".join(t.text or "" for t in root.iter(W + "t"))
    changes = [
        (el.get(W + "author"), el.tag[len(W) :], "".join(el.itertext()))
        for el in root.iter(W + "ins", W + "del")
    ]
    return shown, sorted(changes)


def test_a_single_click_on_the_header_leaves_the_caret_in_the_body(window: MainWindow, qtbot) -> None:
    view = window.page_view
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=story_point(view, HEADER, 4))
    assert view.caret() is not None and "/" not in view.caret().block_id
    assert story_text(window, HEADER) == TEXTS[HEADER]


@pytest.mark.parametrize("block_id", [HEADER, FOOTER], ids=["header", "footer"])
def test_a_double_click_goes_in_to_type_in_the_header_or_footer(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading, artifacts_dir: Path, block_id: str
) -> None:
    view = window.page_view
    original = TEXTS[block_id]
    at = original.index(" ") if " " in original else len(original)
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=story_point(view, block_id, at))
    assert view.caret() == Caret(block_id, at)
    QTest.keyClicks(view, " Draft")
    QTest.keyClick(view, Qt.Key.Key_Backspace)
    intended = original[:at] + " Draf" + original[at:]
    assert story_text(window, block_id) == intended
    assert view.caret() == Caret(block_id, at + len(" Draf"))
    view.finish_layout()
    assert view.caret_viewport_line() is not None
    kind = "header" if block_id == HEADER else "footer"
    assert view.grab().save(str(artifacts_dir / f"typing-{kind}.png"))
    path = tmp_path / "typed.docx"
    window.controller.save(path)
    assert schema_errors(path) == 0
    name = f"{kind}1.xml"
    assert part_text_and_changes(path, name) == (intended, [(ME, "ins", " Draf")])
    reading = lo_reading(path, accept_reject=True)
    assert reading["load_ok"]
    assert [(c["type"], c["text"]) for c in reading["tracked_changes"] if c["author"] == ME] == [
        ("insert", " Draf")
    ]
    for accept, text in ((True, intended), (False, original)):
        out = tmp_path / f"{'accepted' if accept else 'rejected'}.docx"
        assert lo_resolve_all(path, out, accept=accept)["reloaded_tracked_changes"] == 0
        assert part_text_and_changes(out, name) == (text, [])


@pytest.mark.parametrize("block_id", [HEADER, FOOTER], ids=["header", "footer"])
def test_home_and_end_go_to_the_ends_of_the_header_or_footer_line(
    window: MainWindow, qtbot, block_id: str
) -> None:
    view = window.page_view
    text = TEXTS[block_id]
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=story_point(view, block_id, 3))
    QTest.keyClick(view, Qt.Key.Key_End)
    assert view.caret() == Caret(block_id, len(text))
    QTest.keyClick(view, Qt.Key.Key_Home)
    assert view.caret() == Caret(block_id, 0)
    QTest.keyClicks(view, "Draft ")
    assert story_text(window, block_id) == "Draft " + text
