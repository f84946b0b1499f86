"""The main window, offscreen: it shows a document in pages, refuses bad files politely, guards
unsaved work, and paints.

``QMessageBox.exec`` and ``QFileDialog.getOpenFileName`` are replaced in these tests, so
nothing waits for a click.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from reviewer_app.agent.executor import execute_tool_call
from reviewer_app.agent.proposal_store import ProposalStore
from reviewer_app.docx import DocxReviewer
from reviewer_app.docx.comments import comment_records
from reviewer_app.resources import SAMPLE_CONTRACT
from reviewer_app.ui.chat.banner import Banner
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.pageview import PageView
from tests.conftest import CORPUS, REPO_ROOT
from tests.docx_factory import make_docx, p

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
    win.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard  # overridden where a test asks
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def shown_text(win: MainWindow) -> str:
    """Every laid-out page's text, in order."""
    view = win.page_view
    view.finish_layout()
    return "\n".join(view.page_text(k) for k in range(view.page_count()))


def copy_of(path: Path, tmp_path: Path) -> Path:
    target = tmp_path / path.name
    target.write_bytes(path.read_bytes())
    return target


def test_empty_window_has_title_menus_and_shortcuts(window: MainWindow) -> None:
    assert window.windowTitle() == "Reviewer"
    menu_titles = [a.text() for a in window.menuBar().actions()]
    assert menu_titles == ["&File", "&Edit", "&Review", "&View", "&Agent", "&Help"]
    assert window.actions.open.shortcut().toString() == "Ctrl+O"
    assert window.actions.save.shortcut().toString() == "Ctrl+S"
    assert window.actions.quit.shortcut().toString() == "Ctrl+Q"
    assert window.actions.find.shortcut().toString() == "Ctrl+F"
    assert not window.actions.save.isEnabled() and not window.actions.accept_all.isEnabled()
    assert shown_text(window) == ""


def test_window_shows_the_sample_contract_in_pages(window: MainWindow, qtbot) -> None:
    """The document area is the paginated view: real pages, numbered clauses on them."""
    path = need(SAMPLE)
    view = window.document_view
    assert isinstance(view, PageView)
    with qtbot.waitSignal(view.layout_finished, timeout=30000):
        assert window.open_path(path)
    assert 12 <= view.page_count() <= 20  # LibreOffice lays the sample out in 17 pages
    assert "MASTER SERVICES AGREEMENT" in view.page_text(0).upper()
    assert any("Definitions and interpretation" in view.page_text(k) for k in range(view.page_count()))
    assert window.windowTitle() == "sample-msa.docx[*] — Reviewer"
    assert not window.isWindowModified()
    assert window.changes_label.text() == "14 changes"
    assert window.page_label.text().startswith("Page 1 of ")
    assert window.actions.save.isEnabled()


def test_bad_file_shows_message_and_keeps_document(window: MainWindow, errors) -> None:
    good = need(LISTS_DOC)
    assert window.open_path(good)
    before_text, before_title = shown_text(window), window.windowTitle()
    assert not window.open_path(need(BAD_DOC))
    assert len(errors) == 1
    title, message = errors[0]
    assert title == "Cannot open document"
    assert "password-protected" in message and "Traceback" not in message
    assert shown_text(window) == before_text
    assert window.windowTitle() == before_title
    assert window.reviewer is not None and window.reviewer.path == str(good)


@pytest.mark.parametrize("name", sorted(p.name for p in (CORPUS / "malformed").glob("*.docx")))
def test_every_malformed_file_is_refused_in_the_window(window: MainWindow, errors, name: str) -> None:
    assert not window.open_path(CORPUS / "malformed" / name)
    assert len(errors) == 1 and "cannot be opened" in errors[0][1]
    assert window.windowTitle() == "Reviewer"


def test_unexpected_failure_is_an_apology_not_a_traceback(
    window: MainWindow, errors, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(path: str, author: str = "") -> DocxReviewer:
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
    window.actions.open.trigger()
    assert asked and "*.docx" in asked[0]
    assert window.windowTitle() == f"{path.name}[*] — Reviewer"
    # cancelling keeps the document
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a: ("", "")))
    window.actions.open.trigger()
    assert window.windowTitle() == f"{path.name}[*] — Reviewer"


def test_accept_marks_modified_undo_clears_it_and_save_writes_a_backup(
    window: MainWindow, tmp_path: Path
) -> None:
    path = copy_of(need(SAMPLE), tmp_path)
    original = path.read_bytes()
    assert window.open_path(path)
    window.actions.accept_all.trigger()
    assert window.isWindowModified() and window.changes_label.text() == "0 changes"
    assert window.actions.undo.isEnabled() and "Accept all" in window.actions.undo.text()
    window.actions.undo.trigger()
    assert not window.isWindowModified() and window.changes_label.text() == "14 changes"
    window.actions.redo.trigger()
    window.actions.save.trigger()
    assert not window.isWindowModified()
    assert Path(str(path) + ".bak").read_bytes() == original
    assert DocxReviewer.open(path).changes() == []


def test_closing_with_unsaved_changes_asks_and_cancel_keeps_the_window(
    window: MainWindow, tmp_path: Path
) -> None:
    path = copy_of(need(SAMPLE), tmp_path)
    assert window.open_path(path)
    window.actions.reject_all.trigger()
    asked: list[int] = []

    def cancel() -> QMessageBox.StandardButton:
        asked.append(1)
        return QMessageBox.StandardButton.Cancel

    window.files.ask_unsaved = cancel
    assert not window.close()
    assert asked and window.isVisible() and window.controller.is_modified()
    # opening another file asks as well; Cancel keeps this one
    assert not window.open_path(need(LISTS_DOC))
    assert window.controller.path == str(path)
    window.files.ask_unsaved = lambda: QMessageBox.StandardButton.Save
    assert window.close()
    assert DocxReviewer.open(path).changes() == []


def test_a_failed_save_says_why_and_keeps_the_changes(
    window: MainWindow, errors, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = copy_of(need(SAMPLE), tmp_path)
    original = path.read_bytes()
    assert window.open_path(path)
    window.actions.accept_all.trigger()

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    window.actions.save.trigger()
    monkeypatch.undo()
    assert errors and errors[-1][0] == "Cannot save document"
    assert "No space left on device" in errors[-1][1] and "still open" in errors[-1][1]
    assert window.controller.is_modified() and window.isWindowModified()
    assert path.read_bytes() == original
    # no temp file left, and no backup: it is written atomically too, so the full disk stopped
    # it before it existed; only the document and the lock the open window holds
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, f".{path.name}.reviewer-lock"])
    window.close()
    assert not (tmp_path / f".{path.name}.reviewer-lock").exists()


def test_save_as_takes_the_agents_waiting_proposals_along(qtbot, window: MainWindow, tmp_path: Path) -> None:
    """Save As (Ctrl+Shift+S) is the person's act, done by the document controller; the review
    queue the agent filled follows the document to its new name and leaves the old one empty."""
    path = copy_of(need(SAMPLE), tmp_path)
    assert window.open_path(path)
    queue = window.controller.review_bridge
    block = next(b for b in window.controller.reviewer.read_document() if len(b["text"]) > 20)
    op = {"id": "tighten", "type": "replaceBlock", "blockId": block["blockId"], "text": "Tightened."}
    assert execute_tool_call("suggest_changes", {"operations": [op]}, queue)["result"]["queued"]
    renamed = tmp_path / "renamed.docx"
    window.files.ask_save_path = lambda *_args: str(renamed)  # the platform's file dialog
    QTest.keyClick(
        window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    qtbot.waitUntil(renamed.exists)
    assert window.controller.path == str(renamed)
    assert [p["id"] for p in ProposalStore(renamed).proposals] == ["tighten"]
    assert ProposalStore(path).proposals == []
    assert [p["id"] for p in queue.proposals()] == ["tighten"]


def test_drafting_rewrites_a_paragraph_as_the_users_tracked_change(
    window: MainWindow, tmp_path: Path
) -> None:
    assert window.open_path(copy_of(need(SAMPLE), tmp_path))
    window.controller.author = "Alex Lawyer"
    block = next(b for b in window.snapshot.content_blocks() if "shall not affect" in b.text)
    editor = window.drafting.edit(block.id)
    assert editor is not None and editor.editor.toPlainText() == block.text
    editor.editor.setPlainText(block.text.replace("shall not affect", "do not affect", 1))
    editor.committed.emit(editor.editor.toPlainText())
    mine = [c for c in window.reviewer.changes() if c["author"] == "Alex Lawyer"]
    assert {(c["type"], c["text"]) for c in mine} == {
        ("deletion", "shall"),
        ("insertion", "do"),
    }  # only the word that differs
    assert window.drafting.editor is None and window.isWindowModified()
    window.actions.undo.trigger()
    assert not [c for c in window.reviewer.changes() if c["author"] == "Alex Lawyer"]


def test_dropping_a_docx_opens_it(window: MainWindow) -> None:
    path = need(LISTS_DOC)
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    assert window.controller.path == str(path)


def test_window_paints(window: MainWindow, qtbot, artifacts_dir: Path) -> None:
    """Grab the window to a PNG (look at tests/_artifacts/main_window.png after a change)."""
    path = SAMPLE if SAMPLE.exists() else need(HEADINGS_DOC)
    assert window.open_path(path)
    window.resize(1280, 860)
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


def test_compare_with_opens_the_redline_in_a_new_window(
    window: MainWindow, tmp_path: Path, monkeypatch
) -> None:
    """File ▸ Compare with…: the other version is the base, the open document the revision."""
    before, after = (
        need(CORPUS / "public" / "pt_WC004-Large.docx"),
        need(CORPUS / "public" / "pt_WC004-Large-Mod.docx"),
    )
    assert window.open_path(after)
    monkeypatch.setattr(window.files, "ask_open_path_titled", lambda title: str(before))
    window.actions.compare_with.trigger()
    assert len(window.compare.windows) == 1
    redline = window.compare.windows[0]
    redline.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    assert redline.windowTitle() == "pt_WC004-Large vs pt_WC004-Large-Mod (redline).docx[*] — Reviewer"
    assert redline.isWindowModified()  # a new document: nothing of it is on disk yet
    changes = redline.reviewer.changes()
    assert changes and {c["author"] for c in changes} == {"Comparison"}
    # accepting every difference gives the open document's text; rejecting gives the other version's
    accepted = DocxReviewer.from_bytes(redline.controller.current_bytes())
    accepted.accept_all()
    assert [b.text for b in accepted.snapshot().content_blocks()] == [
        b.text for b in DocxReviewer.open(after).snapshot().content_blocks()
    ]
    rejected = DocxReviewer.from_bytes(redline.controller.current_bytes())
    rejected.reject_all()
    assert [b.text for b in rejected.snapshot().content_blocks()] == [
        b.text for b in DocxReviewer.open(before).snapshot().content_blocks()
    ]
    assert [v.id for v in window.compare.versions] == ["v1"]
    assert _notices(redline) == []  # every difference is marked: nothing to warn about
    # Save asks for a name (no path yet)
    target = tmp_path / "redline.docx"
    redline.files.ask_save_path = lambda *a: str(target)
    redline.actions.save.trigger()
    assert DocxReviewer.open(target).changes() and redline.controller.path == str(target)
    # closed, the redline window is destroyed rather than kept until the app quits
    assert redline.close()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    assert window.compare.windows == [] and not shiboken6.isValid(redline)


def _notices(window: MainWindow) -> list[Banner]:
    return window.centralWidget().findChildren(Banner, options=Qt.FindChildOption.FindDirectChildrenOnly)


def test_a_redline_that_cannot_show_everything_says_what_to_check(
    window: MainWindow, tmp_path: Path, monkeypatch
) -> None:
    """A comment the other side added in a footnote is not carried over (one in the text is): the
    redline window says so, in the window, with who wrote what where, instead of looking
    complete."""
    body = p(
        runs='<w:r><w:t>The Customer shall pay the fees.</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r>'
    )
    older = tmp_path / "draft-2.docx"
    older.write_bytes(
        make_docx(
            body,
            footnotes='<w:footnote w:id="1"><w:p><w:r><w:t>Fees exclude taxes.</w:t></w:r></w:p></w:footnote>',
        )
    )
    current = tmp_path / "draft-3.docx"
    runs = (
        '<w:commentRangeStart w:id="1"/><w:r><w:t>Fees exclude taxes.</w:t></w:r>'
        '<w:commentRangeEnd w:id="1"/><w:r><w:commentReference w:id="1"/></w:r>'
    )
    comment = '<w:comment w:id="1" w:author="Bob"><w:p><w:r><w:t>Excluding VAT?</w:t></w:r></w:p></w:comment>'
    note = f'<w:footnote w:id="1"><w:p>{runs}</w:p></w:footnote>'
    current.write_bytes(make_docx(body, footnotes=note, comments=comment))
    assert window.open_path(current)
    redline = window.compare.compare_with(str(older))
    assert redline is not None
    redline.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    (notice,) = _notices(redline)
    assert notice.isVisibleTo(redline)
    assert "1 difference could not be marked as a tracked change" in notice.text and "by hand" in notice.text
    assert redline.statusBar().currentMessage() == "0 differences from draft-2.docx"
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda _parent, _title, text: shown.append(text))
    notice.action_button.click()
    assert shown == [
        'a comment by Bob ("Excluding VAT?") on "Fees exclude taxes." is only in the '
        "revised version and is not carried over"
    ]
    redline.close()


def test_a_file_handed_over_by_the_desktop_opens(window: MainWindow, qtbot) -> None:
    """macOS "Open With" delivers a QFileOpenEvent instead of a command-line argument."""
    from PySide6.QtGui import QFileOpenEvent
    from PySide6.QtWidgets import QApplication

    from reviewer_app.app import FileOpenHandler

    handler = FileOpenHandler(window)
    app = QApplication.instance()
    app.installEventFilter(handler)
    try:
        path = need(LISTS_DOC)
        QApplication.sendEvent(app, QFileOpenEvent(str(path)))
        qtbot.waitUntil(lambda: window.controller.path == str(path), timeout=5000)
    finally:
        app.removeEventFilter(handler)


def test_the_app_opens_a_copy_of_the_sample_never_the_bundled_file(tmp_path: Path) -> None:
    """Saving the sample must not write into the installation (or the checkout)."""
    from reviewer_app.app import default_document
    from reviewer_app.resources import sample_contract_path

    opened = Path(default_document())
    assert opened != sample_contract_path() and opened.read_bytes() == sample_contract_path().read_bytes()
    assert opened.is_relative_to(Path(os.environ["XDG_DATA_HOME"]))
    opened.write_bytes(b"the person's own work")
    assert Path(default_document()).read_bytes() == b"the person's own work"  # kept, not overwritten


def test_export_redline_pdf_writes_the_pages_as_shown(
    window: MainWindow, tmp_path: Path, monkeypatch
) -> None:
    assert window.open_path(need(SAMPLE))
    window.actions.markup_none.trigger()  # No Markup: the PDF reads as if every change were accepted
    target = tmp_path / "redline.pdf"
    asked: list[str] = []

    def ask(title: str, suggestion: str, file_filter: str = "") -> str:
        asked.append(suggestion)
        return str(target)

    monkeypatch.setattr(window.files, "ask_save_path", ask)
    window.actions.export_pdf.trigger()
    data = target.read_bytes()
    assert data.startswith(b"%PDF")
    window.page_view.finish_layout()
    assert len(re.findall(rb"/Type\s*/Page(?!s)", data)) == window.page_view.page_count()
    assert asked and asked[0].endswith("sample-msa (redline).pdf")


def test_settings_reach_the_document_and_the_agent(window: MainWindow, tmp_path: Path) -> None:
    """A new name in Settings authors the next edit; a local server URL reaches the chat."""
    path = copy_of(need(SAMPLE), tmp_path)
    assert window.open_path(path)
    window.services.settings.update(
        user_name="Jordan Reyes", provider="local", base_url="http://127.0.0.1:11434"
    )
    assert window.controller.author == "Jordan Reyes"
    assert window.chat.chat.settings.base_url == "http://127.0.0.1:11434"
    block = next(b for b in window.snapshot.content_blocks() if "shall not affect" in b.text)
    window.drafting.delete(block.id)
    assert {c["author"] for c in window.reviewer.changes() if c["type"] == "deletion"} >= {"Jordan Reyes"}
    # the initials chosen in Settings go on the person's replies; the agent's keep their own
    window.services.settings.update(user_initials="JoR")
    assert window.controller.reply_to_comment("1005", "Agreed.")
    assert window.controller.reply_to_comment("1005", "Noted.", as_agent=True)
    replies = [r for r in comment_records(window.reviewer.document) if r.text in ("Agreed.", "Noted.")]
    assert [(r.author, r.initials) for r in replies] == [("Jordan Reyes", "JoR"), ("Reviewer AI", "RA")]


def test_accept_change_walks_the_document_one_change_at_a_time(window: MainWindow, tmp_path: Path) -> None:
    """With nothing selected, Accept Change first shows the next change; then each press decides
    the selected one and moves on to the following one."""
    assert window.open_path(copy_of(need(SAMPLE), tmp_path))
    first, second = window.reviewer.changes()[:2]
    window.actions.accept_change.trigger()
    assert window.docks.redline.selected_ids() == [first["id"]] and len(window.reviewer.changes()) == 14
    window.actions.accept_change.trigger()
    assert len(window.reviewer.changes()) == 13 and window.docks.redline.selected_ids() == [second["id"]]
    window.actions.reject_change.trigger()
    assert [c["id"] for c in window.reviewer.changes()][:1] != [second["id"]] and len(
        window.reviewer.changes()
    ) == 12


def test_the_paragraph_editor_opens_over_its_paragraph(
    window: MainWindow, tmp_path: Path, artifacts_dir: Path
) -> None:
    assert window.open_path(copy_of(need(SAMPLE), tmp_path))
    window.page_view.finish_layout()
    block = next(b for b in window.snapshot.content_blocks() if "shall not affect" in b.text)
    editor = window.drafting.edit(block.id)
    where = window.page_view.block_viewport_rect(block.id)
    assert where is not None and window.page_view.viewport().rect().intersects(where)
    assert editor.geometry().top() == where.top() and editor.geometry().left() == where.left()
    window.grab().save(str(artifacts_dir / "paragraph_editor.png"))
