"""Another program's edit is never silently lost.

A ``reviewer`` edit command refuses a document a Reviewer window holds (exit 2, unless
``--force``); and when the file was written anyway, the window's next save asks first:
Reload, Save As… or Overwrite.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox, QToolBar

from reviewer_app.docx.reviewer import DocxReviewer
from reviewer_app.ui.main_window import MainWindow
from tests.cli_runner import run_reviewer
from tests.conftest import REPO_ROOT
from tests.dialog_driver import answer_message_box

SAMPLE = REPO_ROOT / "resources" / "samples" / "sample-msa.docx"

_HOLDER = """
import sys
from reviewer_app.docx.doc_lock import DocumentLock
lock = DocumentLock.acquire(sys.argv[1], "Alex")
print("held", flush=True)
sys.stdin.read()
lock.release()
"""


def _changes(path: Path) -> int:
    return len(DocxReviewer.open(path).changes())


@pytest.fixture
def contract(tmp_path: Path) -> Path:
    copy = tmp_path / "contract.docx"
    shutil.copyfile(SAMPLE, copy)
    return copy


@pytest.fixture
def held(contract: Path):
    """Another process (a Reviewer window's stand-in) holds the contract's lock."""
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(_HOLDER), str(contract)],
        cwd=REPO_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    yield holder
    holder.communicate("", timeout=30)


def test_the_cli_refuses_a_file_another_process_holds(contract: Path, held, tmp_path: Path) -> None:
    before = contract.read_bytes()
    run = run_reviewer("accept-all", contract, "-o", contract)
    assert run.returncode == 2
    assert run.stderr.startswith(f'reviewer: "{contract}" is open in Reviewer by Alex on ')
    assert "pass --force" in run.stderr and run.stderr.count("\n") == 1
    assert contract.read_bytes() == before

    other = tmp_path / "other.docx"
    shutil.copyfile(SAMPLE, other)
    run = run_reviewer("finalize", other, "-o", contract)  # the held file as the output is refused too
    assert run.returncode == 2 and f'"{contract}" is open in Reviewer' in run.stderr
    assert contract.read_bytes() == before

    run = run_reviewer("accept-all", contract, "-o", contract, "--force")
    assert run.returncode == 0, run.stderr
    assert _changes(contract) == 0


def test_a_link_to_a_held_file_is_refused(contract: Path, held, tmp_path: Path) -> None:
    link = tmp_path / "link.docx"
    link.symlink_to(contract)
    run = run_reviewer("accept-all", link, "-o", tmp_path / "out.docx")
    assert run.returncode == 2 and "is open in Reviewer by Alex" in run.stderr


@pytest.fixture
def window(qtbot) -> MainWindow:
    win = MainWindow()
    win.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard  # the suite closes it after each test
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


def _click_save(window: MainWindow) -> None:
    """Click the Save button on the window's toolbar."""
    for toolbar in window.findChildren(QToolBar):
        button = toolbar.widgetForAction(window.actions.save)
        if button is not None:
            QTest.mouseClick(button, Qt.MouseButton.LeftButton)
            return
    raise AssertionError("no Save button on the toolbars")


def _edit_here_and_elsewhere(window: MainWindow, contract: Path) -> int:
    """The window rejects one change (unsaved); then a pipeline accepts every change on disk."""
    assert window.open_path(contract)
    controller = window.controller
    total = len(controller.reviewer.changes())
    controller.reject_changes([controller.reviewer.changes()[0]["id"]])
    run = run_reviewer("accept-all", contract, "-o", contract)
    assert run.returncode == 2 and "is open in Reviewer" in run.stderr  # the app's own lock is honoured
    run = run_reviewer("accept-all", contract, "-o", contract, "--force")
    assert run.returncode == 0, run.stderr
    assert _changes(contract) == 0
    return total


def test_save_after_another_programs_edit_asks_and_overwrite_replaces_it(qtbot, window, contract) -> None:
    total = _edit_here_and_elsewhere(window, contract)
    shown = answer_message_box(qtbot, "changedOnDiskBox", "Overwrite")
    _click_save(window)
    assert shown.shown and "was changed by another program" in shown.text
    assert set(shown.buttons) == {"Reload", "Save As…", "Overwrite", "Cancel"}
    assert _changes(contract) == total - 1  # the window's version, as asked
    assert not window.controller.is_modified()


def test_reload_shows_the_other_programs_edit_and_drops_ours(qtbot, window, contract) -> None:
    _edit_here_and_elsewhere(window, contract)
    on_disk = contract.read_bytes()
    shown = answer_message_box(qtbot, "changedOnDiskBox", "Reload")
    _click_save(window)
    assert shown.shown
    assert contract.read_bytes() == on_disk  # nothing was written
    assert window.controller.reviewer.changes() == [] and not window.controller.is_modified()


def test_save_as_keeps_both_versions(qtbot, window, contract, tmp_path) -> None:
    total = _edit_here_and_elsewhere(window, contract)
    on_disk = contract.read_bytes()
    copy = tmp_path / "ours.docx"
    window.files.ask_save_path = lambda *_args: str(copy)  # the platform's file dialog
    shown = answer_message_box(qtbot, "changedOnDiskBox", "Save As…")
    _click_save(window)
    assert shown.shown
    assert contract.read_bytes() == on_disk
    assert _changes(copy) == total - 1 and window.controller.path == str(copy)


def test_cancel_writes_nothing_and_keeps_the_work(qtbot, window, contract) -> None:
    _edit_here_and_elsewhere(window, contract)
    on_disk = contract.read_bytes()
    shown = answer_message_box(qtbot, "changedOnDiskBox", "Cancel")
    _click_save(window)
    assert shown.shown
    assert contract.read_bytes() == on_disk and window.controller.is_modified()


def test_no_question_when_only_the_time_changed(qtbot, window, contract) -> None:
    assert window.open_path(contract)
    controller = window.controller
    before = len(controller.reviewer.changes())
    controller.reject_changes([controller.reviewer.changes()[0]["id"]])
    contract.write_bytes(contract.read_bytes())  # same bytes, new mtime (a sync tool's copy)
    shown = answer_message_box(qtbot, "changedOnDiskBox", "Cancel", timeout_s=1)
    _click_save(window)
    qtbot.wait(1200)  # the box would have shown by now; the answer's poll has given up
    assert not shown.shown
    assert _changes(contract) == before - 1
