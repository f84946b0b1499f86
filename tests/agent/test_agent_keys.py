"""Which key goes to which server (issue 15): the Anthropic key only to Anthropic, over HTTPS.

A key stored for Anthropic's API (keyring, or ``ANTHROPIC_API_KEY``) must never reach a server
the person, a site file or ``--base-url`` points the agent at: a local Ollama, a typo, or
someone else's machine listening on plain HTTP. Every path that talks to a model is checked
against the scripted server on 127.0.0.1, reading the credential headers it received: the
chat in the app, Settings ▸ Test connection, ``reviewer agent`` and ``reviewer check-model``.
A server's own key (stored for its URL, or ``REVIEWER_SERVER_API_KEY``) is what it gets.
The keyring is an in-memory backend (:mod:`tests.memory_keyring`).
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from reviewer_app.agent.settings import (
    SERVER_API_KEY_ENV,
    AgentSettings,
    store_api_key,
    store_server_key,
    stored_server_key,
)
from reviewer_app.cli import main
from reviewer_app.ui.app_settings import SITE_CONFIG_ENV, AppSettings, SettingsStore
from reviewer_app.ui.settings_dialog import SettingsDialog
from tests import chat_fixtures
from tests.chat_fixtures import SAMPLE
from tests.fake_anthropic import FakeAnthropic, Recorded, reply
from tests.memory_keyring import MemoryKeyring
from tests.memory_keyring import memory_keyring as _memory_keyring
from tests.qt_event_loop import qt_event_loop

loop, server, document, make_dock = (
    chat_fixtures.loop,
    chat_fixtures.server,
    chat_fixtures.document,
    chat_fixtures.make_dock,
)
memory_keyring = _memory_keyring

STORED = "sk-ant-api03-stored-in-the-keyring-0001"
FROM_ENV = "sk-ant-api03-from-the-environment-0002"
SERVER_KEY = "local-server-key-0003"


@pytest.fixture(autouse=True)
def _no_key_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", SERVER_API_KEY_ENV):
        monkeypatch.delenv(name, raising=False)


def credentials(request: Recorded) -> list[str]:
    """The credential headers one request carried (the SDK sends the key as a bearer token)."""
    return [request.headers[name] for name in ("authorization", "x-api-key") if name in request.headers]


def assert_no_anthropic_key(requests: list[Recorded]) -> None:
    assert requests
    for request in requests:
        sent = " ".join(f"{k}: {v}" for k, v in request.headers.items())
        assert STORED not in sent and FROM_ENV not in sent


# ----------------------------------------------------------------------------- where a key may go
def test_only_anthropic_over_https_gets_the_anthropic_key(memory_keyring: MemoryKeyring) -> None:
    store_api_key(STORED)
    assert AgentSettings().effective_api_key() == STORED
    assert AgentSettings(base_url="https://api.anthropic.com").effective_api_key() == STORED
    for elsewhere in (
        "http://api.anthropic.com",  # not over HTTPS
        "https://api.anthropic.com.example.net",
        "https://anthropic-proxy.example.com",
        "http://127.0.0.1:11434",
    ):
        assert AgentSettings(base_url=elsewhere).effective_api_key() == "not-needed", elsewhere
    store_server_key("HTTP://127.0.0.1:11434/", SERVER_KEY)  # scheme, host case and slash do not matter
    assert AgentSettings(base_url="http://127.0.0.1:11434").effective_api_key() == SERVER_KEY
    assert AgentSettings(base_url="http://127.0.0.1:8080").effective_api_key() == "not-needed"


# ----------------------------------------------------------------------------- the terminal
@pytest.fixture
def sample(tmp_path: Path) -> Path:
    copy = tmp_path / "contract.docx"
    shutil.copyfile(SAMPLE, copy)
    return copy


def test_agent_command_sends_a_local_server_its_own_key_only(
    memory_keyring: MemoryKeyring, sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store_api_key(STORED)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FROM_ENV)
    with FakeAnthropic([reply("Hello."), reply("Hello again.")]) as fake:
        assert main(["agent", str(sample), "Hi.", "--base-url", fake.base_url]) == 0
        assert_no_anthropic_key(fake.requests)
        assert credentials(fake.requests[0]) == ["Bearer not-needed"]

        store_server_key(fake.base_url, SERVER_KEY)
        assert main(["agent", str(sample), "Hi.", "--base-url", fake.base_url]) == 0
        assert credentials(fake.requests[1]) == [f"Bearer {SERVER_KEY}"]


def test_check_model_sends_a_local_server_its_own_key_only(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    store_api_key(STORED)
    monkeypatch.setenv("ANTHROPIC_API_KEY", FROM_ENV)
    with FakeAnthropic([reply("OK"), reply("OK")]) as fake:
        assert main(["check-model", "--base-url", fake.base_url]) == 0
        assert_no_anthropic_key(fake.requests)

        monkeypatch.setenv(SERVER_API_KEY_ENV, SERVER_KEY)
        assert main(["check-model", "--base-url", fake.base_url]) == 0
        assert credentials(fake.requests[1]) == [f"Bearer {SERVER_KEY}"]


# ----------------------------------------------------------------------------- the app
def test_chat_with_a_local_server_from_settings_never_sends_the_anthropic_key(
    memory_keyring: MemoryKeyring, loop: Any, make_dock: Any, server: FakeAnthropic
) -> None:
    """Settings (or a site file) chose a local server; the keyring still holds the Anthropic key."""
    store_api_key(STORED)
    chosen = AppSettings(provider="local", base_url=server.base_url, model="qwen3-coder")
    server.add(reply("Hello."), reply("Hello again."))
    dock = make_dock(settings=chosen.to_agent_settings())
    loop.run_until_complete(dock.send("Hi."))
    assert_no_anthropic_key(server.requests)

    store_server_key(server.base_url, SERVER_KEY)
    dock.chat.set_settings(chosen.to_agent_settings())
    loop.run_until_complete(dock.send("Hi again."))
    assert credentials(server.requests[1]) == [f"Bearer {SERVER_KEY}"]


def test_test_connection_and_ok_keep_the_two_keys_apart(
    qtbot: Any, memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    site = tmp_path / "xdg-site"
    site.mkdir()
    monkeypatch.setenv("XDG_CONFIG_DIRS", str(site))
    monkeypatch.delenv(SITE_CONFIG_ENV, raising=False)
    store = SettingsStore()
    store.load()
    with qt_event_loop() as event_loop:
        with FakeAnthropic([reply("OK"), reply("OK")]) as fake:
            dialog = SettingsDialog(store)
            qtbot.addWidget(dialog)
            dialog.open()
            qtbot.waitExposed(dialog)
            assert not dialog.server_key_edit.isEnabled()  # Anthropic is chosen: no server key
            qtbot.keyClicks(dialog.key_edit, STORED)
            qtbot.mouseClick(dialog.local_radio, Qt.MouseButton.LeftButton)
            assert dialog.server_key_edit.isEnabled()
            dialog.base_url_edit.setText(fake.base_url)
            qtbot.mouseClick(dialog.connection.button, Qt.MouseButton.LeftButton)
            event_loop.run_until_complete(asyncio.gather(*asyncio.all_tasks(event_loop)))
            assert "answered as" in dialog.connection.result.text()
            assert credentials(fake.requests[0]) == ["Bearer not-needed"]

            qtbot.keyClicks(dialog.server_key_edit, SERVER_KEY)
            qtbot.mouseClick(dialog.connection.button, Qt.MouseButton.LeftButton)
            event_loop.run_until_complete(asyncio.gather(*asyncio.all_tasks(event_loop)))
            assert credentials(fake.requests[1]) == [f"Bearer {SERVER_KEY}"]
            assert_no_anthropic_key(fake.requests)

            dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        assert stored_server_key(fake.base_url) == SERVER_KEY
        assert memory_keyring.passwords[("Reviewer", "anthropic-api-key")] == STORED
