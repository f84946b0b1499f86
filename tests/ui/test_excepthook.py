"""Diagnostics: the exception hook, the log file, and the Help dialogs.

An error inside a Qt slot (or a worker thread) must land in the log file with its traceback and
show a box that says the document is still open, with "Copy details"; the app keeps running.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication, QMainWindow, QMessageBox

from reviewer_app import __version__
from reviewer_app.ui.excepthook import ExceptionHook, install_excepthook
from reviewer_app.ui.help_dialogs import ShortcutsDialog, component_versions, show_about
from reviewer_app.ui.logging_setup import LOG_FILE_NAME, configure_logging, log_folder


@pytest.fixture
def log_file() -> Iterator[Path]:
    """``configure_logging`` for one test; the root logger is put back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    folder = configure_logging(logging.INFO)
    yield folder / LOG_FILE_NAME
    for handler in root.handlers:
        if handler not in handlers:
            handler.close()
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)


@pytest.fixture
def hook(qapp) -> Iterator[ExceptionHook]:
    window = QMainWindow()
    installed = install_excepthook(lambda: window)
    yield installed
    installed.uninstall()
    if installed.dialog is not None:
        installed.dialog.close()
    window.deleteLater()


def flush_logs() -> None:
    for handler in logging.getLogger().handlers:
        handler.flush()


def error_boxes() -> list[QMessageBox]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def explode_in_a_slot() -> None:
    raise ValueError("clause 7.2 could not be measured")


def test_error_in_a_slot_is_logged_and_shown(qtbot, hook: ExceptionHook, log_file: Path) -> None:
    QTimer.singleShot(0, explode_in_a_slot)
    qtbot.waitUntil(lambda: bool(error_boxes()), timeout=3000)
    (box,) = error_boxes()
    assert box is hook.dialog
    assert "still open and unchanged" in box.text()
    assert "ValueError: clause 7.2 could not be measured" in box.informativeText()
    assert "explode_in_a_slot" in box.detailedText()

    flush_logs()
    logged = log_file.read_text(encoding="utf-8")
    assert "Unexpected error" in logged
    assert "Traceback (most recent call last)" in logged
    assert "explode_in_a_slot" in logged

    copy = next(b for b in box.buttons() if b.text() == "Copy details")
    copy.click()
    copied = QGuiApplication.clipboard().text()
    assert "explode_in_a_slot" in copied and "ValueError" in copied
    assert f"Reviewer: {__version__}" in copied and "PySide6:" in copied
    assert box.isVisible()  # copying does not close the box


def test_a_second_error_joins_the_open_box(qtbot, hook: ExceptionHook) -> None:
    QTimer.singleShot(0, explode_in_a_slot)
    qtbot.waitUntil(lambda: bool(error_boxes()), timeout=3000)

    def second() -> None:
        raise KeyError("missing")

    QTimer.singleShot(0, second)
    qtbot.waitUntil(
        lambda: "2 errors" in (hook.dialog.informativeText() if hook.dialog else ""), timeout=3000
    )
    assert len(error_boxes()) == 1
    assert "KeyError" in hook.details_text() and "ValueError" in hook.details_text()


def test_error_in_a_worker_thread_is_shown_on_the_gui_thread(qtbot, hook: ExceptionHook) -> None:
    worker = threading.Thread(target=explode_in_a_slot)
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: bool(error_boxes()), timeout=3000)
    assert "clause 7.2" in error_boxes()[0].informativeText()


def test_a_failed_task_nobody_awaited_is_reported(qtbot, hook: ExceptionHook) -> None:
    loop = asyncio.new_event_loop()
    try:
        loop.set_exception_handler(hook.asyncio_handler)
        loop.call_exception_handler(
            {"message": "Task exception was never retrieved", "exception": OSError("disk")}
        )
    finally:
        loop.close()
    assert "OSError: disk" in error_boxes()[0].informativeText()


def test_an_error_while_showing_the_box_is_only_logged(qapp, log_file: Path) -> None:
    def broken_parent():
        raise RuntimeError("the window is gone")

    hook = install_excepthook(broken_parent)
    try:
        try:
            raise ValueError("first")
        except ValueError:
            sys.excepthook(*sys.exc_info())
    finally:
        hook.uninstall()
    assert hook.dialog is None and not error_boxes()
    flush_logs()
    logged = log_file.read_text(encoding="utf-8")
    assert "ValueError: first" in logged
    assert "could not show the error dialog" in logged and "the window is gone" in logged


def test_keyboard_interrupt_goes_to_the_previous_hook(qapp, monkeypatch: pytest.MonkeyPatch) -> None:
    passed_on: list[type[BaseException]] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, value, tb: passed_on.append(kind))
    hook = install_excepthook(lambda: None)
    try:
        sys.excepthook(KeyboardInterrupt, KeyboardInterrupt(), None)
    finally:
        hook.uninstall()
    assert passed_on == [KeyboardInterrupt]
    assert hook.dialog is None


def test_configure_logging_writes_the_rotating_file(log_file: Path) -> None:
    assert log_file.parent == log_folder()
    logging.getLogger("reviewer_app.test").info("settings loaded")
    logging.getLogger("reviewer_app.test").debug("not at INFO")
    flush_logs()
    text = log_file.read_text(encoding="utf-8")
    assert "INFO" in text and "reviewer_app.test: settings loaded" in text
    assert "not at INFO" not in text
    configure_logging(logging.INFO)  # configuring twice does not double the lines
    logging.getLogger("reviewer_app.test").warning("once")
    flush_logs()
    assert log_file.read_text(encoding="utf-8").count("once") == 1


def test_about_lists_the_versions(qtbot) -> None:
    box = show_about(None)
    qtbot.addWidget(box)
    assert box.isVisible()
    for name, version in component_versions():
        assert name in box.text() and version in box.text()
    assert "tracked change" in box.text()
    assert {"Python", "Qt", "PySide6", "lxml", "anthropic"} <= {name for name, _ in component_versions()}


def test_shortcuts_dialog_lists_actions_with_shortcuts(qtbot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    file_menu = window.menuBar().addMenu("&File")
    save = file_menu.addAction("&Save")
    save.setShortcut(QKeySequence.StandardKey.Save)
    file_menu.addSeparator()
    no_key = file_menu.addAction("Export redline PDF…")
    accept = QAction("Accept && next", window)
    accept.setShortcuts([QKeySequence("Ctrl+Shift+A"), QKeySequence("Alt+A")])
    window.addAction(accept)

    dialog = ShortcutsDialog(window.findChildren(QAction) + [save], window)
    qtbot.addWidget(dialog)
    rows = dialog.rows()
    commands = [row[0] for row in rows]
    assert commands.count("Save") == 1
    assert no_key.text() not in commands
    assert (
        "Save",
        QKeySequence(QKeySequence.StandardKey.Save).toString(QKeySequence.SequenceFormat.NativeText),
        "File",
    ) in rows
    accept_row = next(row for row in rows if row[0] == "Accept & next")
    assert "Ctrl+Shift+A" in accept_row[1] and "Alt+A" in accept_row[1]
