"""A newcomer's first session with the real window, using only what a person uses.

Every control is reached the way a person reaches it: ``QTest.mouseClick`` on the toolbar's
buttons, on every enabled button of every panel and on every menu item (the menu opened by a
click on the menu bar), ``QTest.keyClicks`` into the chat's message box followed by a click on
Send, a click at a clause's place on the page followed by F2. Each dialog that opens is looked
at and cancelled by a key press or a click on its cancelling button. The test fails on any
exception that reaches the exception hook, and on a dialog saying something went wrong.

This is the pattern for every new widget: a test that calls the slot behind a button does not
test the button (a Send button crashed on every click while 2,500 tests passed).
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QWidget,
)

from reviewer_app.ui.main_window import MainWindow
from tests import chat_fixtures
from tests.chat_fixtures import SAMPLE
from tests.conftest import CORPUS
from tests.fake_anthropic import FakeAnthropic, fast_settings, reply
from tests.window_fixtures import char_point

loop, server = chat_fixtures.loop, chat_fixtures.server

LEFT = Qt.MouseButton.LeftButton
#: menu items left out, with why: they end the session the walkthrough is in
LEAVES_THE_SESSION = {"quit", "close"}
#: a title each dialog the walkthrough opens (and cancels) shows
EVERY_DIALOG = (
    "Open Word document",
    "Go To",
    "Save document as",
    "Export redline PDF",
    "Compare with which version",
    "Settings",
    "Which version may the agent compare with",
    "Keyboard shortcuts",
    "About Reviewer",
    "New conversation",
    "Review against playbook",
    "Export issues list",
)
ME = "Alex Lawyer"
CONTRACT = CORPUS / "contracts" / "oa_common-paper-mutual-nda.docx"


@dataclass
class DialogCloser:
    """Cancels every dialog and popup that opens, as a person would, and remembers what it saw."""

    seen: list[str] = field(default_factory=list)
    timer: QTimer = field(default_factory=QTimer)

    def start(self) -> None:
        self.timer.setInterval(25)
        self.timer.timeout.connect(self._close_open_dialogs)
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def _close_open_dialogs(self) -> None:
        popup = QApplication.activePopupWidget()
        if isinstance(popup, QMenu) and not getattr(popup, "_walkthrough_keep", False):
            QTest.keyClick(popup, Qt.Key.Key_Escape)
            return
        modal = QApplication.activeModalWidget()
        if isinstance(modal, QDialog) and modal.isVisible():
            self.seen.append(f"{type(modal).__name__}: {modal.windowTitle()}")
            if isinstance(modal, QMessageBox):
                self.seen[-1] += f" — {modal.text()}"
            _cancel(modal)


def _cancel(dialog: QDialog) -> None:
    """Click the dialog's cancelling button if it has one, else press Escape."""
    cancel_roles = (
        QMessageBox.ButtonRole.RejectRole,
        QMessageBox.ButtonRole.NoRole,
        QDialogButtonBox.ButtonRole.RejectRole,
    )
    if isinstance(dialog, QMessageBox):
        for button in dialog.buttons():
            if dialog.buttonRole(button) in cancel_roles:
                QTest.mouseClick(button, LEFT)
                return
    for box in dialog.findChildren(QDialogButtonBox):
        for button in box.buttons():
            if box.buttonRole(button) == QDialogButtonBox.ButtonRole.RejectRole and button.isVisible():
                QTest.mouseClick(button, LEFT)
                return
    QTest.keyClick(dialog, Qt.Key.Key_Escape)


@pytest.fixture
def hook_errors(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Exceptions that reach ``sys.excepthook`` during the test (the app's crash dialog hook)."""
    errors: list[str] = []

    def record(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        errors.append(f"{kind.__name__}: {value}")

    monkeypatch.setattr(sys, "excepthook", record)
    yield errors


def settle(ms: int = 30) -> None:
    """Let queued events and short timers run, as the time between two clicks does."""
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.005)


def _usable(widget: QWidget) -> bool:
    return shiboken6.isValid(widget) and widget.isVisible() and widget.isEnabled()


def click_toolbar(window: MainWindow) -> list[str]:
    """Click every enabled button of the main toolbar; returns the texts clicked."""
    clicked = []
    for action in window.toolbar.actions():
        if action.isSeparator():
            continue
        button = window.toolbar.widgetForAction(action)
        if button is None or not _usable(button):
            continue
        QTest.mouseClick(button, LEFT)
        clicked.append(action.objectName())
        settle()
    return clicked


def click_panel_buttons(window: MainWindow) -> list[str]:
    """Click every visible, enabled button in every dock, re-reading the panel after each click
    (a click may rebuild it); each button text is clicked once."""
    clicked: list[str] = []
    for dock in (window.chat_dock, window.docks.redline_dock, window.docks.comments_dock):
        done: set[str] = set()
        while True:
            pending = [
                b
                for b in dock.widget().findChildren(QAbstractButton)
                if _usable(b) and f"{b.objectName()}|{b.text()}" not in done
            ]
            if not pending:
                break
            button = pending[0]
            done.add(f"{button.objectName()}|{button.text()}")
            QTest.mouseClick(button, LEFT)
            clicked.append(button.text() or button.objectName())
            settle()
    return clicked


def click_menu_items(window: MainWindow) -> list[str]:
    """Open each menu with a click on the menu bar and click each enabled item in it."""
    bar = window.menuBar()
    clicked = []
    for menu in window.menus.values():
        for action in list(menu.actions()):
            if action.isSeparator() or action.menu() is not None or not action.isEnabled():
                continue
            if action.objectName() in LEAVES_THE_SESSION:
                continue
            menu._walkthrough_keep = True  # the closer leaves this popup to the click below
            QTest.mouseClick(bar, LEFT, pos=bar.actionGeometry(menu.menuAction()).center())
            settle()
            assert menu.isVisible(), f"the {menu.title()} menu did not open"
            QTest.mouseClick(menu, LEFT, pos=menu.actionGeometry(action).center())
            menu._walkthrough_keep = False
            clicked.append(action.objectName() or action.text())
            settle()
            if menu.isVisible():
                QTest.keyClick(menu, Qt.Key.Key_Escape)
    return clicked


def edit_a_clause_with_f2(window: MainWindow, qtbot: Any, text: str) -> None:
    """Scroll to the first paragraph containing ``text``, click in it, press F2, check the editor
    holds that paragraph, type a sentence at its end and apply with Ctrl+Enter: the sentence is
    a tracked insertion under the person's name in that paragraph."""
    block = next(b for b in window.reviewer.snapshot().content_blocks() if text in b.text)
    assert window.page_view.scroll_to_block(block.id)
    settle()
    qtbot.mouseClick(window.page_view.viewport(), LEFT, pos=char_point(window.page_view, block.id, 3))
    QTest.keyClick(window, Qt.Key.Key_F2)
    settle()
    editor = window.findChild(QPlainTextEdit, "paragraphEditorText")
    assert editor is not None and editor.isVisible(), "F2 opened no editor on the clicked clause"
    assert editor.toPlainText() == block.text
    editor.moveCursor(QTextCursor.MoveOperation.End)
    QTest.keyClicks(editor, " Added on a walk through.")
    QTest.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    settle()
    mine = [c for c in window.reviewer.changes() if c["author"] == ME and c["type"] == "insertion"]
    assert [c["text"].strip() for c in mine] == ["Added on a walk through."]
    assert window.reviewer.snapshot().block(block.id).text.endswith("Added on a walk through.")


def _open_window(qtbot: Any, server: FakeAnthropic, path: Path) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    # the suite closes the window after the test; the walkthrough's edits are not to be kept
    window.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    window.chat.set_settings(fast_settings(server))
    window.controller.author = ME
    window.resize(1280, 860)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_path(path)
    window.page_view.finish_layout()
    return window


def _walk(
    window: MainWindow, qtbot: Any, loop: Any, server: FakeAnthropic, clause: str, panel_buttons: set[str]
) -> DialogCloser:
    closer = DialogCloser()
    closer.start()
    try:
        # the chat: type a question, click Send, the scripted answer streams in
        server.add(reply("Clause 1 defines the terms used in this agreement."))
        QTest.keyClicks(window.chat.input, "What does clause 1 do?")
        QTest.mouseClick(window.chat.send_button, LEFT)
        assert window.chat.input.toPlainText() == ""
        assert window.chat.chat.turn_task is not None, "Send started no turn"
        loop.run_until_complete(window.chat.chat.turn_task)
        assert window.chat.conversation.answers()[-1].markdown.startswith("Clause 1 defines")

        edit_a_clause_with_f2(window, qtbot, clause)
        assert panel_buttons <= set(click_panel_buttons(window))
        assert {"undo", "find", "markup_original"} <= set(click_toolbar(window))
        clicked = click_menu_items(window)
        assert {
            "settings",
            "about",
            "shortcuts",
            "export_pdf",
            "find",
            "offer_version",
            "review_playbook",
        } <= set(clicked)
    finally:
        closer.stop()
        if window.chat.chat.session is not None:  # close the HTTP client on the loop it runs on
            loop.run_until_complete(window.chat.chat.session.aclose())
    return closer


def test_a_newcomer_uses_every_control_on_the_sample(
    qtbot: Any, loop: Any, server: FakeAnthropic, tmp_path: Path, hook_errors: list[str]
) -> None:
    copy = tmp_path / "contract.docx"
    shutil.copy(SAMPLE, copy)
    window = _open_window(qtbot, server, copy)
    closer = _walk(window, qtbot, loop, server, "sub-processor", {"Send", "New conversation", "Accept all"})
    assert not hook_errors, hook_errors
    assert not [s for s in closer.seen if "went wrong" in s.lower()], closer.seen
    for title in EVERY_DIALOG:
        assert any(title in seen for seen in closer.seen), f"{title!r} never opened: {closer.seen}"


@pytest.mark.corpus
def test_a_newcomer_uses_every_control_on_a_real_contract(
    qtbot: Any, loop: Any, server: FakeAnthropic, tmp_path: Path, hook_errors: list[str]
) -> None:
    if not CONTRACT.exists():
        pytest.skip(f"{CONTRACT} is not here (../shared sits beside the repository)")
    copy = tmp_path / CONTRACT.name
    shutil.copy(CONTRACT, copy)
    window = _open_window(qtbot, server, copy)
    closer = _walk(window, qtbot, loop, server, "Confidential", {"Send", "New conversation", "Accept all"})
    assert not hook_errors, hook_errors
    assert not [s for s in closer.seen if "went wrong" in s.lower()], closer.seen
