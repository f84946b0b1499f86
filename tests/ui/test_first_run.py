"""Who the person is: asked once on the first run, kept afterwards, and the agent's name in Settings.

Offscreen, on the real window and dialogs: the first-run dialog is found as the active modal
widget once the window is shown, and answered by typing and clicking its buttons.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

from reviewer_app.docx.comment_writer import initials_of
from reviewer_app.docx.comments import comment_records
from reviewer_app.ui.app_settings import SettingsStore, os_user_name, user_settings_path
from reviewer_app.ui.first_run import NameDialog
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.settings_dialog import SettingsDialog

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "samples" / "sample-msa.docx"


def shown_window(qtbot) -> tuple[MainWindow, list[bool]]:
    """A new main window, shown; the list fills when it says it is ready for a document."""
    win = MainWindow()
    win.files.ask_unsaved = lambda: QMessageBox.StandardButton.Discard  # closing at teardown asks nothing
    qtbot.addWidget(win)
    ready: list[bool] = []
    win.ready.connect(lambda: ready.append(True))
    win.show()
    qtbot.waitExposed(win)
    return win, ready


def name_dialog(qtbot) -> NameDialog:
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), NameDialog))
    dialog = QApplication.activeModalWidget()
    assert isinstance(dialog, NameDialog)
    return dialog


def stored() -> dict:
    return json.loads(user_settings_path().read_text(encoding="utf-8"))


def test_first_run_asks_for_the_name_prefilled_and_continue_stores_what_was_typed(
    qtbot, first_run: None, artifacts_dir: Path
) -> None:
    window, ready = shown_window(qtbot)
    dialog = name_dialog(qtbot)
    assert dialog.name_edit.text() == os_user_name()  # the account's full name, else the login
    assert dialog.initials_edit.text() == initials_of(os_user_name())
    assert not ready  # nothing opens behind the question
    dialog.grab().save(str(artifacts_dir / "first-run-dialog.png"))

    dialog.name_edit.selectAll()
    QTest.keyClicks(dialog.name_edit, "Priya Shah")
    assert dialog.initials_edit.text() == "PS"  # the initials follow the name being typed
    QTest.mouseClick(dialog.continue_button, Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: ready == [True])
    assert QApplication.activeModalWidget() is None
    assert (window.controller.author, window.controller.initials) == ("Priya Shah", "PS")
    assert stored()["user_name"] == "Priya Shah"
    assert not _store().needs_name()


def _store() -> SettingsStore:
    store = SettingsStore()
    store.load()
    return store


def test_initials_typed_by_the_person_are_kept(qtbot, first_run: None) -> None:
    _window, ready = shown_window(qtbot)
    dialog = name_dialog(qtbot)
    dialog.name_edit.selectAll()
    QTest.keyClicks(dialog.name_edit, "Jordan Reyes")
    dialog.initials_edit.selectAll()
    QTest.keyClicks(dialog.initials_edit, "JoR")
    QTest.mouseClick(dialog.continue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ready == [True])
    assert (_store().settings.user_name, _store().settings.initials()) == ("Jordan Reyes", "JoR")


def test_skip_keeps_the_prefilled_name_and_the_question_does_not_come_back(qtbot, first_run: None) -> None:
    window, ready = shown_window(qtbot)
    dialog = name_dialog(qtbot)
    QTest.mouseClick(dialog.skip_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ready == [True])
    assert window.controller.author == os_user_name()
    assert stored()["user_name"] == os_user_name()  # stored, though it equals the account's name

    _again, ready_again = shown_window(qtbot)
    qtbot.waitUntil(lambda: ready_again == [True])
    assert QApplication.activeModalWidget() is None


def test_an_empty_name_cannot_be_continued_with(qtbot, first_run: None) -> None:
    _window, ready = shown_window(qtbot)
    dialog = name_dialog(qtbot)
    dialog.name_edit.selectAll()
    QTest.keyClick(dialog.name_edit, Qt.Key.Key_Delete)
    assert not dialog.continue_button.isEnabled()
    QTest.keyClicks(dialog.name_edit, "A")
    assert dialog.continue_button.isEnabled()
    QTest.mouseClick(dialog.continue_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ready == [True])
    assert _store().settings.user_name == "A"


def test_a_stored_name_means_no_question(qtbot) -> None:
    window, ready = shown_window(qtbot)
    qtbot.waitUntil(lambda: ready == [True])
    assert window.name_dialog is None and QApplication.activeModalWidget() is None


@pytest.mark.parametrize("typed", ["Counsel Bot", ""])
def test_the_agents_name_is_set_in_settings_and_authors_its_replies(
    qtbot, tmp_path: Path, typed: str
) -> None:
    window, ready = shown_window(qtbot)
    qtbot.waitUntil(lambda: ready == [True])
    path = tmp_path / "contract.docx"
    path.write_bytes(SAMPLE.read_bytes())
    assert window.open_path(path)
    window.actions.settings.trigger()  # Edit ▸ Settings…
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), SettingsDialog))
    dialog = QApplication.activeModalWidget()
    assert dialog.agent_name_edit.text() == "Reviewer AI"
    dialog.agent_name_edit.selectAll()
    QTest.keyClick(dialog.agent_name_edit, Qt.Key.Key_Delete)
    QTest.keyClicks(dialog.agent_name_edit, typed)
    QTest.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    expected = typed or "Reviewer AI"  # left empty: back to the default
    assert window.controller.agent_author == expected and _store().settings.agent_name == expected

    assert window.controller.reply_to_comment("1005", "Noted.", as_agent=True)
    reply = next(r for r in comment_records(window.reviewer.document) if r.text == "Noted.")
    assert (reply.author, reply.initials) == (expected, initials_of(expected))
