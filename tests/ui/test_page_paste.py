"""Copy and paste in the page keep Word's formatting when both ends are Reviewer, as Word does.

Driven as a person does it in the main window: a bold defined term selected with Shift+arrows,
Ctrl+C, a click elsewhere, Ctrl+V. The paste is one tracked insertion under the person's name
and stays bold; LibreOffice reads it as the person's insertion and, once it accepts all
changes, still as bold; the schema checker finds the file clean. Text another program copied
(plain text only) is pasted as plain text, with the formatting where it lands.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.xmlutil import W
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview.caret import Caret
from reviewer_app.ui.pageview.clipboard import RUNS_MIME, pasted_paragraphs
from tests.checkers import lo_resolve_all, schema_errors
from tests.docx_factory import make_docx, p
from tests.ui.test_page_typing import CLAUSE_5_2, ME, SAMPLE, click_at, gap_point, mine, text_of
from tests.window_fixtures import window_on_copy

APPLICABLE_LAW = "7AB2984B"  # "“Applicable Law” means all laws, …", the term in bold
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def window(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    return window_on_copy(qtbot, SAMPLE, tmp_path, monkeypatch, ME)


def bold_runs(p: etree._Element) -> list[tuple[str, bool]]:
    """(text, bold) of each run with text in a paragraph, in order."""
    found = []
    for run in p.iter(W + "r"):
        text = "".join(t.text or "" for t in run.iter(W + "t"))
        b = run.find(f"{W}rPr/{W}b")
        if text:
            found.append((text, b is not None and b.get(W + "val", "true") not in ("0", "false")))
    return found


def test_a_bold_term_copied_and_pasted_is_a_bold_tracked_insertion(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    term = "Applicable Law"
    click_at(view, qtbot, APPLICABLE_LAW, 1)  # after the opening quote
    for _ in term:
        QTest.keyClick(view, Qt.Key.Key_Right, SHIFT)
    QTest.keyClick(view, Qt.Key.Key_C, CTRL)
    clipboard = QGuiApplication.clipboard()
    assert clipboard.text() == term and clipboard.mimeData().hasFormat(RUNS_MIME)

    original = text_of(window, CLAUSE_5_2)
    at = original.index("Each invoice")
    click_at(view, qtbot, CLAUSE_5_2, at)
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    intended = original[:at] + term + original[at:]
    assert text_of(window, CLAUSE_5_2) == intended
    assert [(c["type"], c["text"]) for c in mine(window)] == [("insertion", term)]
    assert view.caret().offset == at + len(term)
    paragraph = window.controller.snapshot().block(CLAUSE_5_2).element
    assert (term, True) in bold_runs(paragraph)
    assert not paragraph.findall(f".//{W}rPrChange")  # new text, not text reformatted

    path = tmp_path / "pasted.docx"
    window.controller.save(path)
    assert schema_errors(path) == 0
    reading = lo_reading(path, accept_reject=True)
    assert reading["load_ok"]
    assert ("insert", term, ME) in [(c["type"], c["text"], c["author"]) for c in reading["tracked_changes"]]
    assert intended in reading["accept_all"]["paragraphs"]
    assert original in reading["reject_all"]["paragraphs"]
    accepted = tmp_path / "accepted.docx"
    lo_resolve_all(path, accepted, accept=True)
    clause = next(
        b for b in DocxReviewer.from_bytes(accepted.read_bytes()).snapshot().blocks if b.text == intended
    )
    assert (term, True) in bold_runs(clause.element)  # LibreOffice kept the pasted term bold


def test_a_copy_over_two_paragraphs_pastes_them_as_two_paragraphs(window: MainWindow, qtbot) -> None:
    view = window.page_view
    snapshot = window.controller.snapshot()
    index = snapshot.index_of(APPLICABLE_LAW)
    following = snapshot.blocks[index + 1]
    click_at(view, qtbot, APPLICABLE_LAW, 1)
    QTest.keyClick(view, Qt.Key.Key_Down, CTRL | SHIFT)  # to the next definition's start
    for _ in "“Busi":
        QTest.keyClick(view, Qt.Key.Key_Right, SHIFT)
    selected = view.selection_ends()
    assert selected is not None and selected[1] == Caret(following.id, len("“Busi"))
    QTest.keyClick(view, Qt.Key.Key_C, CTRL)
    first = snapshot.block(APPLICABLE_LAW).text[1:]
    second = following.text[: selected[1].offset]

    original = text_of(window, CLAUSE_5_2)
    at = original.index("Each invoice")
    click_at(view, qtbot, CLAUSE_5_2, at)
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    qtbot.waitUntil(view.is_laid_out, timeout=20000)  # a new paragraph: the pages are laid out again
    after = window.controller.snapshot()
    here = after.index_of(CLAUSE_5_2)
    assert [b.text for b in after.blocks[here : here + 2]] == [original[:at] + first, second + original[at:]]
    assert sorted(c["type"] for c in mine(window)) == ["insertion", "insertion", "paragraphMarkInserted"]
    assert view.caret() == Caret(after.blocks[here + 1].id, len(second))  # after the pasted text


def test_text_copied_elsewhere_is_pasted_as_plain_text(window: MainWindow, qtbot) -> None:
    view = window.page_view
    original = text_of(window, CLAUSE_5_2)
    at = original.index("Each invoice")
    click_at(view, qtbot, CLAUSE_5_2, at)
    QGuiApplication.clipboard().setText("Invoices are sent by email. ")
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    assert text_of(window, CLAUSE_5_2) == original[:at] + "Invoices are sent by email. " + original[at:]
    paragraph = window.controller.snapshot().block(CLAUSE_5_2).element
    assert ("Invoices are sent by email. ", False) in bold_runs(paragraph)


@pytest.mark.parametrize(
    "payload",
    [b"not json", b'{"version": 2, "paragraphs": [[]]}', b'{"version": 1, "paragraphs": [[{"text": 5}]]}'],
)
def test_a_damaged_or_foreign_runs_payload_is_pasted_as_its_plain_text(qapp, payload: bytes) -> None:
    mime = QMimeData()
    mime.setText("the plain text")
    mime.setData(RUNS_MIME, payload)
    assert pasted_paragraphs(mime) is None  # the paste falls back on the plain text beside it


def test_a_bold_term_pasted_over_a_selection_across_clauses_replaces_it(
    window: MainWindow, qtbot, tmp_path: Path, lo_reading
) -> None:
    view = window.page_view
    term = "Applicable Law"
    click_at(view, qtbot, APPLICABLE_LAW, 1)
    for _ in term:
        QTest.keyClick(view, Qt.Key.Key_Right, SHIFT)
    QTest.keyClick(view, Qt.Key.Key_C, CTRL)
    snapshot = window.controller.snapshot()
    following = snapshot.blocks[snapshot.index_of(CLAUSE_5_2) + 1]
    first, second = text_of(window, CLAUSE_5_2), following.text
    at, end = first.index("Each invoice"), len("Payment. ")
    assert view.scroll_to_block(CLAUSE_5_2)
    press, release = gap_point(view, CLAUSE_5_2, at), gap_point(view, following.id, end)
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=press)
    QTest.mouseMove(view.viewport(), release)
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=release)
    assert view.selection_ends() == (Caret(CLAUSE_5_2, at), Caret(following.id, end))
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    qtbot.waitUntil(view.is_laid_out, timeout=20000)  # the paragraphs join: the pages are laid out again
    assert text_of(window, CLAUSE_5_2) == first[:at] + term
    assert view.caret() == Caret(CLAUSE_5_2, at + len(term))
    assert ("insertion", term) in [(c["type"], c["text"]) for c in mine(window)]

    path = tmp_path / "pasted-across.docx"
    window.controller.save(path)
    assert schema_errors(path) == 0
    reading = lo_reading(path, accept_reject=True)
    accepted = first[:at] + term + second[end:]
    assert accepted in reading["accept_all"]["paragraphs"]
    assert (
        reading["reject_all"]["paragraphs"]
        == lo_reading(SAMPLE, accept_reject=True)["reject_all"]["paragraphs"]
    )
    out = tmp_path / "accepted-across.docx"
    lo_resolve_all(path, out, accept=True)
    clause = next(
        b for b in DocxReviewer.from_bytes(out.read_bytes()).snapshot().blocks if b.text == accepted
    )
    assert (term, True) in bold_runs(clause.element)


_STYLED = '<w:rStyle w:val="Strong"/><w:color w:val="C00000"/><w:sz w:val="32"/>'
_FEE_DOC = make_docx(
    p("The fee is ")[: -len("</w:p>")]
    + f"<w:r><w:rPr>{_STYLED}</w:rPr><w:t>ten pounds</w:t></w:r><w:r><w:t>.</w:t></w:r></w:p>"
    + p("Payment is due monthly."),
    styles='<w:style w:type="character" w:styleId="Strong"><w:name w:val="Strong"/><w:rPr><w:b/></w:rPr></w:style>',
)


def _styled_runs(root: etree._Element) -> list[tuple[str, str | None, str | None, str | None, bool]]:
    """(text, character style, colour, size, inside an insertion) of each run in 16 pt."""
    found = []
    for run in root.iter(W + "r"):
        values = [run.find(f"{W}rPr/{W}{name}") for name in ("rStyle", "color", "sz")]
        if values[2] is not None:
            inserted = run.getparent().tag == W + "ins"
            text = "".join(t.text or "" for t in run.iter(W + "t"))
            found.append((text, *(v.get(W + "val") if v is not None else None for v in values), inserted))
    return found


def test_a_copy_in_another_size_colour_and_character_style_keeps_them_when_pasted(
    qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lo_reading
) -> None:
    source = tmp_path / "source-fee.docx"
    source.write_bytes(_FEE_DOC)
    (tmp_path / "open").mkdir()
    window = window_on_copy(qtbot, source, tmp_path / "open", monkeypatch, ME)
    view = window.page_view
    fee, payment = (b.id for b in window.controller.snapshot().blocks[:2])
    click_at(view, qtbot, fee, len("The fee is "))
    for _ in "ten pounds":
        QTest.keyClick(view, Qt.Key.Key_Right, SHIFT)
    QTest.keyClick(view, Qt.Key.Key_C, CTRL)
    click_at(view, qtbot, payment, len("Payment is due"))
    QTest.keyClicks(view, " ")
    QTest.keyClick(view, Qt.Key.Key_V, CTRL)
    assert text_of(window, payment) == "Payment is due ten pounds monthly."

    path = tmp_path / "pasted.docx"
    window.controller.save(path)
    assert schema_errors(path) == 0
    pasted = ("ten pounds", "Strong", "C00000", "32", True)  # a tracked insertion, formatted as copied
    body = DocxReviewer.from_bytes(path.read_bytes()).snapshot().block(payment).element
    assert _styled_runs(body) == [pasted]
    assert not body.findall(f".//{W}rPrChange")
    reading = lo_reading(path, accept_reject=True)
    assert reading["load_ok"]
    typed_and_pasted = ("insert", " ten pounds", ME)  # the person's space and paste: one insertion
    assert typed_and_pasted in [(c["type"], c["text"], c["author"]) for c in reading["tracked_changes"]]
    assert "Payment is due ten pounds monthly." in reading["accept_all"]["paragraphs"]
    accepted = tmp_path / "accepted.docx"
    lo_resolve_all(path, accepted, accept=True)
    clause = next(
        b
        for b in DocxReviewer.from_bytes(accepted.read_bytes()).snapshot().blocks
        if b.text.startswith("Payment")
    )
    assert [run[:4] for run in _styled_runs(clause.element)] == [pasted[:4]]  # LibreOffice kept them
