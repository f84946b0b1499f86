"""Settings for a local model, typed and clicked into the real dialog: the server's API, the
model's context window and the tool profile reach the agent's settings, and a bad window is
explained without closing the dialog."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QDialogButtonBox, QLineEdit

from reviewer_app.ui.app_settings import SettingsStore
from reviewer_app.ui.settings_dialog import SettingsDialog
from tests.fake_anthropic import FakeAnthropic, reply
from tests.qt_event_loop import qt_event_loop
from tests.ui import test_settings_dialog as settings_dialog_tests
from tests.ui.test_settings_dialog import open_dialog

store = settings_dialog_tests.store  # the same isolated settings store as the dialog's own tests


def choose(qtbot, combo: QComboBox, data: str) -> None:
    """Click the combo box open and click the entry whose data is ``data`` in its list."""
    QTest.mouseClick(combo, Qt.MouseButton.LeftButton)
    view = combo.view()
    qtbot.waitUntil(view.isVisible)
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # a popup ignores a release this soon after opening
    index = view.model().index(combo.findData(data), 0)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())
    qtbot.waitUntil(lambda: not view.isVisible())
    assert combo.currentData() == data


def retype(edit: QLineEdit, text: str) -> None:
    """Select what the field holds and type ``text`` over it, as a person does."""
    QTest.mouseClick(edit, Qt.MouseButton.LeftButton)
    QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(edit, Qt.Key.Key_Delete)
    QTest.keyClicks(edit, text)


def click_ok(qtbot, dialog: SettingsDialog) -> None:
    QTest.mouseClick(dialog.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)


def test_local_server_api_context_window_and_profile_reach_the_agent(
    qtbot, store: SettingsStore, artifacts_dir: Path
) -> None:
    dialog = open_dialog(qtbot, store)
    assert not dialog.api_combo.isEnabled()  # the Anthropic API has one API
    QTest.mouseClick(dialog.local_radio, Qt.MouseButton.LeftButton)
    assert dialog.local_radio.isChecked() and dialog.api_combo.isEnabled()
    retype(dialog.base_url_edit, "http://127.0.0.1:8080")
    retype(dialog.model_edit, "qwen2.5-7b-instruct")
    choose(qtbot, dialog.api_combo, "openai")
    assert dialog.context_edit.placeholderText() == "Blank: ask the server"
    retype(dialog.context_edit, "8192")
    choose(qtbot, dialog.profile_combo, "compact")
    dialog.grab().save(str(artifacts_dir / "settings_dialog_local_model.png"))
    with qtbot.waitSignal(dialog.accepted):
        click_ok(qtbot, dialog)

    agent = store.settings.to_agent_settings()
    assert (agent.base_url, agent.model, agent.api_style) == (
        "http://127.0.0.1:8080",
        "qwen2.5-7b-instruct",
        "openai",
    )
    assert (agent.context_window, agent.tool_profile) == (8192, "compact")
    saved = json.loads(store.path.read_text(encoding="utf-8"))
    assert (saved["api_style"], saved["context_window"], saved["tool_profile"]) == ("openai", 8192, "compact")
    assert SettingsStore().load() == store.settings

    # reopened, the dialog shows what was saved; a blank window goes back to asking the server
    dialog = open_dialog(qtbot, store)
    assert (dialog.context_edit.text(), dialog.profile_combo.currentData()) == ("8192", "compact")
    assert dialog.api_combo.currentData() == "openai"
    retype(dialog.context_edit, "")
    choose(qtbot, dialog.profile_combo, "pipeline")
    with qtbot.waitSignal(dialog.accepted):
        click_ok(qtbot, dialog)
    agent = store.settings.to_agent_settings()
    assert (agent.context_window, agent.tool_profile) == (None, "pipeline")
    assert "context_window" not in json.loads(store.path.read_text(encoding="utf-8"))


def test_the_anthropic_api_is_always_spoken_to_through_messages(qtbot, store: SettingsStore) -> None:
    store.update(provider="local", api_style="openai")
    dialog = open_dialog(qtbot, store)
    QTest.mouseClick(dialog.anthropic_radio, Qt.MouseButton.LeftButton)
    assert not dialog.api_combo.isEnabled()
    with qtbot.waitSignal(dialog.accepted):
        click_ok(qtbot, dialog)
    agent = store.settings.to_agent_settings()
    assert (agent.base_url, agent.api_style, agent.tool_profile) == (None, "anthropic", "auto")


def test_a_window_that_is_no_number_of_tokens_is_explained(qtbot, store: SettingsStore) -> None:
    dialog = open_dialog(qtbot, store)
    QTest.mouseClick(dialog.context_edit, Qt.MouseButton.LeftButton)
    QTest.keyClicks(dialog.context_edit, "8k")  # the field takes only digits
    assert dialog.context_edit.text() == "8"
    retype(dialog.context_edit, "0")
    click_ok(qtbot, dialog)
    assert dialog.isVisible() and dialog.error_label.isVisible()
    assert "number of tokens" in dialog.error_label.text()
    assert store.settings.context_window == 0
    retype(dialog.context_edit, "4096")
    with qtbot.waitSignal(dialog.accepted):
        click_ok(qtbot, dialog)
    assert store.settings.to_agent_settings().context_window == 4096


def test_a_hand_edited_file_with_a_bad_window_or_profile_still_loads(store: SettingsStore) -> None:
    store.path.write_text(
        json.dumps(
            {"user_name": "Ada", "context_window": "lots", "tool_profile": "tiny", "api_style": "OpenAI"}
        ),
        encoding="utf-8",
    )
    loaded = SettingsStore().load()
    assert (loaded.context_window, loaded.tool_profile, loaded.api_style) == (0, "auto", "openai")


def test_test_connection_says_the_window_the_server_reports_or_the_one_typed(
    qtbot, store: SettingsStore
) -> None:
    """Test connection, clicked with a llama.cpp-style server's URL typed in, names its window;
    with a window typed into the dialog it names that one, before anything is saved."""
    with qt_event_loop() as loop, FakeAnthropic([reply("OK"), reply("OK")], context_tokens=8192) as server:
        dialog = open_dialog(qtbot, store)
        QTest.mouseClick(dialog.local_radio, Qt.MouseButton.LeftButton)
        retype(dialog.base_url_edit, server.base_url)
        QTest.mouseClick(dialog.connection.button, Qt.MouseButton.LeftButton)
        loop.run_until_complete(asyncio.gather(*asyncio.all_tasks(loop)))
        assert "Context window: 8,192 tokens" in dialog.connection.result.text()

        retype(dialog.context_edit, "4096")
        QTest.mouseClick(dialog.connection.button, Qt.MouseButton.LeftButton)
        loop.run_until_complete(asyncio.gather(*asyncio.all_tasks(loop)))
        assert "Context window: 4,096 tokens (from the settings)" in dialog.connection.result.text()
        assert store.settings.context_window == 0  # Test connection is not OK
        dialog.reject()
