"""The main window, offscreen: it shows a document's blocks, refuses bad files politely, paints.

``QMessageBox.exec`` and ``QFileDialog.getOpenFileName`` are replaced in these tests, so
nothing waits for a click.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QTextBlock, QTextFragment
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox, QTextBrowser

from reviewer_app.docx import DocxReviewer
from reviewer_app.resources import SAMPLE_CONTRACT
from reviewer_app.ui.main_window import BlockListView, MainWindow, block_line
from reviewer_app.ui.pageview import PageView
from tests.conftest import CORPUS, REPO_ROOT

SAMPLE = REPO_ROOT / "resources" / Path(*SAMPLE_CONTRACT)
LISTS_DOC = CORPUS / "public" / "pt_DB012-Lists-With-Different-Numberings.docx"
TABLE_DOC = CORPUS / "public" / "pt_WC043-Nested-Table-Mod.docx"
HEADINGS_DOC = CORPUS / "public" / "dxo_NVCA-Model-COI.docx"
BAD_DOC = CORPUS / "malformed" / "malformed_encrypted-ole-not-zip.docx"


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is not available")
    return path


@pytest.fixture
def errors(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Message boxes shown, as (title, text); none of them blocks."""
    shown: list[tuple[str, str]] = []

    def fake_exec(box: QMessageBox) -> int:
        shown.append((box.windowTitle(), box.text()))
        return int(QMessageBox.StandardButton.Ok.value)

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    return shown


@pytest.fixture
def window(qtbot, errors: list[tuple[str, str]]) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


@pytest.fixture
def list_window(window: MainWindow) -> MainWindow:
    """The window with the one-line-per-block view swapped in (the tests below are about it)."""
    window.set_document_view(BlockListView())
    return window


def shown_text(win: MainWindow) -> str:
    """What the document area shows: the block list's text, or every laid-out page's text."""
    view = win.document_view
    if isinstance(view, QTextBrowser):
        return view.toPlainText()
    assert isinstance(view, PageView)
    view.finish_layout()
    return "\n".join(view.page_text(k) for k in range(view.page_count()))


def test_empty_window_has_title_and_file_menu(window: MainWindow) -> None:
    assert window.windowTitle() == "Reviewer"
    menu_titles = [a.text() for a in window.menuBar().actions()]
    assert menu_titles == ["&File"]
    assert window.open_action.shortcut().toString() == "Ctrl+O"
    assert window.quit_action.shortcut().toString() == "Ctrl+Q"
    assert shown_text(window) == ""


def test_shows_numbered_blocks_with_labels(list_window: MainWindow, errors) -> None:
    path = need(LISTS_DOC)
    with_signal: list[str] = []
    list_window.document_opened.connect(with_signal.append)
    assert list_window.open_path(path)
    lines = shown_text(list_window).splitlines()
    # three lists that each restart at 1, labels counted live
    assert lines[:4] == ["[1.] a", "[2.] b", "[3.] c", "[1.] d"]
    assert len(lines) == 9
    assert list_window.windowTitle() == f"{path.name} — Reviewer"
    assert list_window.statusBar().findChild(QLabel, "blockCountLabel").text() == "Blocks: 9"
    assert with_signal == [str(path)]
    assert errors == []


def test_headings_are_bold_with_their_level(list_window: MainWindow) -> None:
    path = need(HEADINGS_DOC)
    assert list_window.open_path(path)
    snapshot = list_window.snapshot
    assert snapshot is not None
    heading = next(b for b in snapshot.content_blocks() if b.heading_level == 2)
    assert "H2 " in block_line(heading)
    assert block_line(heading) in shown_text(list_window).splitlines()
    view = list_window.document_view
    assert isinstance(view, BlockListView)
    block = view.document().findBlockByNumber(snapshot.content_blocks().index(heading))
    weights = {f.charFormat().fontWeight() for f in _fragments(block) if heading.text[:10] in f.text()}
    assert weights and min(weights) >= 700, weights


def test_window_shows_the_sample_contract_in_pages(window: MainWindow, qtbot) -> None:
    """The default document area is the paginated view: real pages, numbered clauses on them."""
    path = need(SAMPLE)
    view = window.document_view
    assert isinstance(view, PageView)
    with qtbot.waitSignal(view.layout_finished, timeout=30000):
        assert window.open_path(path)
    assert 12 <= view.page_count() <= 20  # LibreOffice lays the sample out in 17 pages
    assert "MASTER SERVICES AGREEMENT" in view.page_text(0).upper()
    assert any("Definitions and interpretation" in view.page_text(k) for k in range(view.page_count()))


def _fragments(block: QTextBlock) -> Iterator[QTextFragment]:
    it = block.begin()
    while not it.atEnd():
        yield it.fragment()
        it += 1


def test_table_cells_show_their_position(list_window: MainWindow) -> None:
    assert list_window.open_path(need(TABLE_DOC))
    lines = shown_text(list_window).splitlines()
    assert "T1·R1·C1 Before." in lines
    assert "T2·R1·C1 Nexted." in lines


def test_sample_contract_shows_its_labels(list_window: MainWindow) -> None:
    """The bundled sample opens and every numbered clause appears with its label."""
    path = need(SAMPLE)
    assert list_window.open_path(path)
    assert list_window.windowTitle() == "sample-msa.docx — Reviewer"
    snapshot = DocxReviewer.open(path).snapshot()
    labelled = [b for b in snapshot.content_blocks() if b.display_label]
    assert labelled, "the sample contract should have numbered clauses"
    text = shown_text(list_window)
    for block in labelled:
        assert f"[{block.display_label}]" in text
        assert block_line(block) in text


def test_bad_file_shows_message_and_keeps_document(list_window: MainWindow, errors) -> None:
    good = need(LISTS_DOC)
    assert list_window.open_path(good)
    before_text, before_title = shown_text(list_window), list_window.windowTitle()
    assert not list_window.open_path(need(BAD_DOC))
    assert len(errors) == 1
    title, message = errors[0]
    assert title == "Cannot open document"
    assert "password-protected" in message and "Traceback" not in message
    assert shown_text(list_window) == before_text
    assert list_window.windowTitle() == before_title
    assert list_window.reviewer is not None and list_window.reviewer.path == str(good)


@pytest.mark.parametrize("name", sorted(p.name for p in (CORPUS / "malformed").glob("*.docx")))
def test_every_malformed_file_is_refused_in_the_window(window: MainWindow, errors, name: str) -> None:
    assert not window.open_path(CORPUS / "malformed" / name)
    assert len(errors) == 1 and "cannot be opened" in errors[0][1]
    assert window.windowTitle() == "Reviewer"


def test_unexpected_failure_is_an_apology_not_a_traceback(
    window: MainWindow, errors, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(path: str) -> DocxReviewer:
        raise RuntimeError("engine bug")

    monkeypatch.setattr(DocxReviewer, "open", staticmethod(broken))
    assert not window.open_path("whatever.docx")
    assert "internal error" in errors[0][1] and "engine bug" not in errors[0][1]


def test_file_open_uses_the_dialog(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    path = need(LISTS_DOC)
    asked: list[str] = []

    def fake_dialog(parent, caption, folder, filters):
        asked.append(filters)
        return str(path), filters

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(fake_dialog))
    window.open_action.trigger()
    assert asked and "*.docx" in asked[0]
    assert window.windowTitle() == f"{path.name} — Reviewer"
    # cancelling keeps the document
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a: ("", "")))
    window.open_action.trigger()
    assert window.windowTitle() == f"{path.name} — Reviewer"


def test_document_area_can_be_swapped(window: MainWindow) -> None:
    assert window.open_path(need(LISTS_DOC))
    replacement = BlockListView()
    window.set_document_view(replacement)
    assert window.centralWidget() is replacement
    assert shown_text(window).startswith("[1.] a")
    with pytest.raises(TypeError):
        window.set_document_view(QLabel("not a document view"))


def test_window_paints(window: MainWindow, qtbot, artifacts_dir: Path) -> None:
    """Grab the window to a PNG (look at tests/_artifacts/main_window.png after a change)."""
    path = SAMPLE if SAMPLE.exists() else need(HEADINGS_DOC)
    assert window.open_path(path)
    window.resize(1000, 700)
    qtbot.wait(50)
    image = window.grab().toImage()
    out = artifacts_dir / "main_window.png"
    assert image.save(str(out))
    assert image.width() >= 900 and image.height() >= 600
    # not blank: the text area holds dark (text) pixels as well as light (paper) ones
    darks = sum(
        1
        for x in range(0, image.width(), 7)
        for y in range(0, image.height(), 7)
        if image.pixelColor(x, y).lightness() < 100
    )
    assert darks > 50, "the window painted no text"


def _run_app(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def test_app_starts_on_the_sample_and_quits() -> None:
    """``reviewer`` with no file: the window shows (on the sample contract) and leaves by itself."""
    proc = _run_app("--quit-after", "500")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    if SAMPLE.exists():
        assert "no sample contract" not in proc.stderr


def test_app_with_bad_file_still_quits_cleanly() -> None:
    """A refusal at start shows a modal box; the quit timer must still end the process."""
    proc = _run_app(str(need(BAD_DOC)), "--quit-after", "800")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
