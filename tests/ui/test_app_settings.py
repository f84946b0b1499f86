"""The settings file: defaults, round trip, hand-edited mistakes, site defaults, recent files, the key.

Every test runs with its own XDG folders (conftest) and the failing keyring, so the real user's
settings and keyring are never touched.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from reviewer_app.agent.settings import DEFAULT_MODEL, resolve_api_key, store_api_key
from reviewer_app.ui.app_settings import (
    DEFAULT_LOCAL_URL,
    SITE_CONFIG_ENV,
    AppSettings,
    SettingsStore,
    api_key_source,
    keyring_available,
    os_user_name,
    user_settings_path,
)
from reviewer_app.ui.pageview.qformats import DEFAULT_AUTHOR_COLORS, AuthorColors, set_author_colors


@pytest.fixture
def no_site(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty system config folder and no ``$REVIEWER_SITE_CONFIG`` (returned: the folder)."""
    folder = tmp_path / "xdg-site"
    folder.mkdir()
    monkeypatch.setenv("XDG_CONFIG_DIRS", str(folder))
    monkeypatch.delenv(SITE_CONFIG_ENV, raising=False)
    return folder


@pytest.fixture
def forget_key(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    yield
    store_api_key(None)


def write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_defaults_without_any_file(qapp, no_site: Path, first_run: None) -> None:
    store = SettingsStore()
    settings = store.load()
    assert store.path == user_settings_path()
    assert store.path.parent.name == "Reviewer"
    assert not store.path.exists()  # loading never writes
    assert settings.user_name == os_user_name() and settings.user_name
    assert settings.initials()  # derived from the name when none was chosen
    assert settings.provider == "anthropic"
    assert settings.model == DEFAULT_MODEL
    assert settings.agent_mode == "review"
    assert settings.autosave_interval_s == 60
    assert settings.theme == "system"
    assert settings.keep_backup is True
    assert settings.markup_colours == list(DEFAULT_AUTHOR_COLORS)
    assert settings.recent_files == []
    agent = settings.to_agent_settings()
    assert agent.base_url is None and agent.model == DEFAULT_MODEL


def test_round_trip_and_atomic_write(qapp, no_site: Path) -> None:
    store = SettingsStore()
    store.load()
    seen: list[frozenset[str]] = []
    store.changed.connect(seen.append)
    changed = store.update(
        user_name="Ada Lovelace",
        provider="local",
        base_url="http://127.0.0.1:11434/",
        model="qwen3-coder",
        agent_mode="direct",
        autosave_interval_s=120,
        theme="dark",
        markup_colours=["#112233", "#445566"],
        keep_backup=False,
        window_state="AAAA",
    )
    assert seen == [changed]
    assert {"user_name", "provider", "theme", "markup_colours", "keep_backup"} <= changed
    # only the settings file is in the folder: the temporary file was renamed into place
    assert [p.name for p in store.path.parent.iterdir()] == ["settings.json"]

    reloaded = SettingsStore()
    settings = reloaded.load()
    assert settings == store.settings
    assert settings.initials() == "AL"
    assert settings.base_url == "http://127.0.0.1:11434"  # trailing slash dropped
    agent = settings.to_agent_settings()
    assert (agent.base_url, agent.model) == ("http://127.0.0.1:11434", "qwen3-coder")
    # an unchanged value is not re-saved and not signalled
    assert store.update(theme="dark") == frozenset()


def test_hand_edited_mistakes_fall_back_to_defaults(qapp, no_site: Path, caplog) -> None:
    write_json(
        user_settings_path(),
        {
            "user_name": "Ada",
            "theme": "purple",
            "autosave_interval_s": "soon",
            "markup_colours": ["red", "#123456"],
            "provider": 3,
            "base_url": "ftp://files.example.com",
            "keep_backup": "yes",
            "recent_files": ["/a.docx", 7, "/a.docx", "/b.docx"],
            "window_state": "not base64!",
            "something_new": {"from": "a later version"},
        },
    )
    with caplog.at_level(logging.WARNING):
        settings = SettingsStore().load()
    defaults = AppSettings()
    assert settings.user_name == "Ada"
    assert settings.theme == defaults.theme
    assert settings.autosave_interval_s == 60
    assert settings.markup_colours == defaults.markup_colours
    assert settings.provider == "anthropic"
    assert settings.base_url == DEFAULT_LOCAL_URL
    assert settings.keep_backup is True
    assert settings.recent_files == ["/a.docx", "/b.docx"]
    assert settings.window_state == ""
    warned = caplog.text
    for key in ("theme", "autosave_interval_s", "markup_colours", "provider", "base_url", "window_state"):
        assert f"{key} is not valid" in warned
    assert "something_new" not in warned  # unknown keys are ignored silently


def test_autosave_interval_is_clamped(qapp, no_site: Path) -> None:
    write_json(user_settings_path(), {"autosave_interval_s": 2})
    assert SettingsStore().load().autosave_interval_s == 10


def test_unreadable_file_is_set_aside_and_the_app_starts(qapp, no_site: Path, caplog) -> None:
    path = write_json(user_settings_path(), {})
    path.write_text('{"user_name": "Ada", oops', encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        settings = SettingsStore().load()
    assert settings.user_name == os_user_name()
    assert not path.exists()
    assert path.with_name("settings.json.bad").read_text(encoding="utf-8").startswith('{"user_name"')
    assert "not valid JSON" in caplog.text


def test_site_defaults_are_overridden_by_the_user_file(
    qapp, no_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the system config folder sets the theme; the file named by the environment sets the server
    write_json(no_site / "Reviewer" / "settings.json", {"theme": "light", "model": "site-model"})
    site = write_json(
        tmp_path / "share" / "reviewer-site.json",
        {"provider": "local", "base_url": "http://llm.firm.internal:8080", "model": "firm-model"},
    )
    monkeypatch.setenv(SITE_CONFIG_ENV, str(site))
    write_json(user_settings_path(), {"model": "my-model"})

    store = SettingsStore()
    settings = store.load()
    assert settings.theme == "light"
    assert settings.provider == "local"
    assert settings.base_url == "http://llm.firm.internal:8080"
    assert settings.model == "my-model"
    assert store.defaults.model == "firm-model"

    # the user file keeps only what differs from the site, so a later site change still arrives
    store.update(user_name="Ada")
    saved = json.loads(store.path.read_text(encoding="utf-8"))
    assert "base_url" not in saved and "provider" not in saved
    assert saved["model"] == "my-model" and saved["user_name"] == "Ada"
    write_json(site, {"provider": "local", "base_url": "http://llm2.firm.internal:8080"})
    assert SettingsStore().load().base_url == "http://llm2.firm.internal:8080"


def test_recent_files_most_recent_first_at_most_ten(qapp, no_site: Path, tmp_path: Path) -> None:
    store = SettingsStore()
    store.load()
    seen: list[frozenset[str]] = []
    store.changed.connect(seen.append)
    for n in range(12):
        store.add_recent(tmp_path / f"contract-{n}.docx")
    store.add_recent(tmp_path / "contract-5.docx")
    recent = SettingsStore().load().recent_files
    assert len(recent) == 10
    assert recent[0] == str(tmp_path / "contract-5.docx")
    assert recent[1:3] == [str(tmp_path / "contract-11.docx"), str(tmp_path / "contract-10.docx")]
    assert recent.count(str(tmp_path / "contract-5.docx")) == 1
    assert str(tmp_path / "contract-0.docx") not in recent
    assert seen[-1] == frozenset({"recent_files"})


def test_update_rejects_unknown_names_and_keeps_bad_values_out(qapp, no_site: Path) -> None:
    store = SettingsStore()
    store.load()
    with pytest.raises(TypeError):
        store.update(api_key="sk-ant-secret")
    assert store.update(theme="neon") == frozenset()
    assert store.settings.theme == "system"


def test_key_is_kept_for_the_session_when_no_keyring_works(qapp, no_site: Path, forget_key) -> None:
    store = SettingsStore()
    store.load()
    assert not keyring_available()  # conftest installs keyring's failing backend
    assert api_key_source() is None
    assert store_api_key("sk-ant-test-session-key") == "session"
    assert resolve_api_key() == "sk-ant-test-session-key"
    assert api_key_source() == "session"
    store.update(user_name="Ada")
    assert "sk-ant-test-session-key" not in store.path.read_text(encoding="utf-8")


def test_markup_colours_reach_the_page_views_author_colours(qapp, no_site: Path) -> None:
    store = SettingsStore()
    store.load()
    store.update(markup_colours=["#112233", "#445566"])
    try:
        set_author_colors(store.settings.markup_colours)
        colours = AuthorColors()
        assert [colours.color(a).name().upper() for a in ("Priya", "Reviewer AI", "Ada")] == [
            "#112233",
            "#445566",
            "#112233",
        ]
    finally:
        set_author_colors(DEFAULT_AUTHOR_COLORS)
