"""The Settings dialog driven like a person would, and the themes it offers.

OK saves every section in one update, Cancel changes nothing, a missing name or a bad server URL
keeps the dialog open with the reason shown, and the API key goes to the keyring (or this
session's memory) but never into ``settings.json``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from reviewer_app.agent.settings import KEYRING_SERVICE, KEYRING_USERNAME, resolve_api_key, store_api_key
from reviewer_app.ui.app_settings import SITE_CONFIG_ENV, SettingsStore
from reviewer_app.ui.settings_dialog import SettingsDialog
from reviewer_app.ui.theme import apply_theme
from tests.fake_anthropic import FakeAnthropic, Status, reply
from tests.memory_keyring import MemoryKeyring
from tests.memory_keyring import memory_keyring as _memory_keyring
from tests.qt_event_loop import qt_event_loop

memory_keyring = _memory_keyring  # the fixture, for this module's tests


@pytest.fixture
def store(qapp, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[SettingsStore]:
    site = tmp_path / "xdg-site"
    site.mkdir()
    monkeypatch.setenv("XDG_CONFIG_DIRS", str(site))
    monkeypatch.delenv(SITE_CONFIG_ENV, raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    settings_store = SettingsStore()
    settings_store.load()
    settings_store.update(user_name="Ada Lovelace")
    yield settings_store
    store_api_key(None)


def open_dialog(qtbot, store: SettingsStore) -> SettingsDialog:
    dialog = SettingsDialog(store)
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitExposed(dialog)
    return dialog


def press(dialog: SettingsDialog, which: QDialogButtonBox.StandardButton) -> None:
    dialog.buttons.button(which).click()


def test_ok_saves_every_section(qtbot, store: SettingsStore, artifacts_dir: Path) -> None:
    dialog = open_dialog(qtbot, store)
    dialog.grab().save(str(artifacts_dir / "settings_dialog.png"))
    seen: list[frozenset[str]] = []
    store.changed.connect(seen.append)
    dialog.name_edit.setText("Grace Hopper")
    assert dialog.initials_edit.placeholderText() == "GH"
    dialog.local_radio.setChecked(True)
    assert dialog.base_url_edit.isEnabled()
    dialog.base_url_edit.setText("http://10.0.0.5:11434")
    dialog.model_edit.setText("qwen3-coder")
    dialog.mode_combo.setCurrentIndex(dialog.mode_combo.findData("direct"))
    dialog.autosave_spin.setValue(120)
    dialog.backup_check.setChecked(False)
    dialog.theme_combo.setCurrentIndex(dialog.theme_combo.findData("dark"))

    qtbot.mouseClick(dialog.colour_buttons[1], Qt.MouseButton.LeftButton)
    picker = dialog.colour_dialog
    assert picker is not None and picker.isVisible()
    picker.setCurrentColor(QColor("#00AA88"))
    picker.accept()
    assert dialog.markup_colours()[1] == "#00AA88"

    with qtbot.waitSignal(dialog.accepted):
        press(dialog, QDialogButtonBox.StandardButton.Ok)
    settings = store.settings
    assert (settings.user_name, settings.provider, settings.base_url) == (
        "Grace Hopper",
        "local",
        "http://10.0.0.5:11434",
    )
    assert (settings.model, settings.agent_mode, settings.autosave_interval_s) == (
        "qwen3-coder",
        "direct",
        120,
    )
    assert settings.keep_backup is False and settings.theme == "dark"
    assert settings.markup_colours[1] == "#00AA88"
    assert len(seen) == 1 and {"user_name", "provider", "theme", "markup_colours"} <= seen[0]
    assert SettingsStore().load() == settings  # on disk too
    assert not dialog.isVisible()


def test_cancel_changes_nothing(qtbot, store: SettingsStore) -> None:
    before = store.settings
    saved_before = store.path.read_bytes()
    dialog = open_dialog(qtbot, store)
    dialog.name_edit.setText("Someone Else")
    dialog.theme_combo.setCurrentIndex(dialog.theme_combo.findData("light"))
    dialog.key_edit.setText("sk-ant-should-not-be-kept")
    with qtbot.waitSignal(dialog.rejected):
        press(dialog, QDialogButtonBox.StandardButton.Cancel)
    assert store.settings == before
    assert store.path.read_bytes() == saved_before
    assert resolve_api_key() is None


def test_missing_name_is_explained_and_the_dialog_stays_open(qtbot, store: SettingsStore) -> None:
    dialog = open_dialog(qtbot, store)
    dialog.name_edit.setText("   ")
    press(dialog, QDialogButtonBox.StandardButton.Ok)
    assert dialog.isVisible()
    assert dialog.error_label.isVisible()
    assert "name" in dialog.error_label.text().lower()
    assert store.settings.user_name == "Ada Lovelace"


def test_local_server_url_must_be_http_with_a_host(qtbot, store: SettingsStore) -> None:
    dialog = open_dialog(qtbot, store)
    dialog.local_radio.setChecked(True)
    for bad in ("127.0.0.1:11434", "ftp://models.firm", "http://", "https:///v1"):
        dialog.base_url_edit.setText(bad)
        press(dialog, QDialogButtonBox.StandardButton.Ok)
        assert dialog.isVisible(), bad
        assert "http" in dialog.error_label.text()
    assert store.settings.provider == "anthropic"
    # the Anthropic API ignores the URL field: OK goes through and the bad URL is not saved
    dialog.anthropic_radio.setChecked(True)
    assert not dialog.base_url_edit.isEnabled()
    with qtbot.waitSignal(dialog.accepted):
        press(dialog, QDialogButtonBox.StandardButton.Ok)
    assert store.settings.base_url == "http://127.0.0.1:11434"


def test_key_is_session_only_without_a_keyring_and_never_in_the_file(qtbot, store: SettingsStore) -> None:
    dialog = open_dialog(qtbot, store)
    assert "this session only" in dialog.key_note.text().lower()
    assert dialog.key_edit.echoMode() == dialog.key_edit.EchoMode.Password
    dialog.key_edit.setText("sk-ant-api03-session-secret")
    dialog.name_edit.setText("Ada King")  # something to save, so the file is rewritten
    with qtbot.waitSignal(dialog.accepted):
        press(dialog, QDialogButtonBox.StandardButton.Ok)
    assert dialog.key_location == "session"
    assert resolve_api_key() == "sk-ant-api03-session-secret"
    assert "sk-ant-api03" not in store.path.read_text(encoding="utf-8")

    again = open_dialog(qtbot, store)
    assert "session" in again.key_edit.placeholderText()
    assert again.key_edit.text() == ""  # the key is never shown back


def test_key_goes_to_the_keyring_and_can_be_forgotten(
    qtbot, store: SettingsStore, memory_keyring: MemoryKeyring
) -> None:
    dialog = open_dialog(qtbot, store)
    assert "keyring" in dialog.key_note.text()
    assert not dialog.forget_key_button.isEnabled()
    dialog.key_edit.setText("sk-ant-api03-keyring-secret")
    with qtbot.waitSignal(dialog.accepted):
        press(dialog, QDialogButtonBox.StandardButton.Ok)
    assert dialog.key_location == "keyring"
    assert memory_keyring.passwords[(KEYRING_SERVICE, KEYRING_USERNAME)] == "sk-ant-api03-keyring-secret"
    assert "keyring-secret" not in store.path.read_text(encoding="utf-8")

    second = open_dialog(qtbot, store)
    assert second.forget_key_button.isEnabled()
    second.forget_key_button.click()
    assert (KEYRING_SERVICE, KEYRING_USERNAME) in memory_keyring.passwords  # only on OK
    with qtbot.waitSignal(second.accepted):
        press(second, QDialogButtonBox.StandardButton.Ok)
    assert (KEYRING_SERVICE, KEYRING_USERNAME) not in memory_keyring.passwords


def window_colour(app: QApplication) -> QColor:
    return app.palette().color(QPalette.ColorRole.Window)


def test_theme_switching_changes_the_window_colour(qapp) -> None:
    original = window_colour(qapp)
    try:
        apply_theme(qapp, "dark")
        assert window_colour(qapp).lightness() < 80
        assert qapp.style().name().lower() == "fusion"
        apply_theme(qapp, "light")
        assert window_colour(qapp).lightness() > 180
        apply_theme(qapp, "dark")
        apply_theme(qapp, "system")
        assert window_colour(qapp) == original
    finally:
        apply_theme(qapp, "system")


def test_test_connection_tries_the_values_on_screen_without_saving_them(qtbot, store: SettingsStore) -> None:
    """A firm's local server, typed in but not saved yet, is asked once; its answer shows in the dialog."""
    with (
        qt_event_loop() as loop,
        FakeAnthropic(
            [reply("OK"), Status(404, error_type="not_found_error", message="no such model")]
        ) as server,
    ):
        dialog = open_dialog(qtbot, store)
        dialog.local_radio.setChecked(True)
        dialog.base_url_edit.setText(server.base_url)
        dialog.model_edit.setText("qwen3-coder")
        qtbot.mouseClick(dialog.connection.button, Qt.MouseButton.LeftButton)
        assert not dialog.connection.button.isEnabled()  # one check at a time
        answered: list[object] = []
        dialog.connection.finished.connect(answered.append)
        loop.run_until_complete(asyncio.gather(*asyncio.all_tasks(loop)))
        assert answered[0].ok and "answered as" in dialog.connection.result.text()
        assert server.bodies[0]["model"] == "qwen3-coder" and dialog.connection.button.isEnabled()

        dialog.model_edit.setText("qwen-typo")
        loop.run_until_complete(dialog.connection.start())
        assert "does not offer model 'qwen-typo'" in dialog.connection.result.text()
        # nothing was saved: Test connection is not OK
        assert (store.settings.provider, store.settings.model) != ("local", "qwen-typo")

        dialog.base_url_edit.setText("localhost:11434")
        assert dialog.connection.start() is None
        assert "must start with http://" in dialog.connection.result.text()
        press(dialog, QDialogButtonBox.StandardButton.Cancel)
