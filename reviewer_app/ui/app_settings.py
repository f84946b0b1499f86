"""``AppSettings``: the one typed configuration object, its JSON file, and the store that signals changes.

Layers, lowest first: the built-in defaults, then an optional *site* file (so IT can point every
desk at a local model server), then the user's ``settings.json``. The user file keeps only the
values that differ from the layers below it, so a site default changed later still reaches a user
who never touched that setting.

A hand-edited file must never stop the app: unknown keys are ignored, a bad value is replaced by
the default with a log warning, and unreadable JSON is moved aside as ``settings.json.bad``.
The API key is never part of this object or its file; it lives in the keyring (or, without one,
in memory for this session) through :mod:`reviewer_app.agent.settings`.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import getpass
import json
import logging
import os
import re
import reprlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import platformdirs
from PySide6.QtCore import QObject, Signal

from ..agent.profiles import PROFILES
from ..agent.settings import (
    API_KEY_ENV,
    DEFAULT_MODEL,
    KEYRING_SERVICE,
    AgentSettings,
    keyring_api_key,
    resolve_api_key,
)
from ..docx.atomic_write import write_atomically
from ..docx.comment_writer import initials_of
from ..private_paths import APP_DIR_NAME, config_root, private_dir
from .document_controller import AGENT_MODES, DEFAULT_AGENT_NAME
from .pageview.qformats import DEFAULT_AUTHOR_COLORS

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
#: a site file anywhere (a network share, a managed path) that IT points every install at
SITE_CONFIG_ENV = "REVIEWER_SITE_CONFIG"
FILE_FORMAT_VERSION = 1

PROVIDERS = ("anthropic", "local")
#: how a local server is spoken to: the Messages API, or OpenAI's /v1/chat/completions
API_STYLES = ("anthropic", "openai")
#: the largest context window a person can give (tokens); 0 means "ask the server"
MAX_CONTEXT_WINDOW = 10_000_000
THEMES = ("system", "light", "dark")
#: Ollama's default address; it serves the Anthropic Messages API there
DEFAULT_LOCAL_URL = "http://127.0.0.1:11434"
MIN_AUTOSAVE_S = 10
MAX_AUTOSAVE_S = 3600
MAX_RECENT_FILES = 10
MAX_MARKUP_COLOURS = 16
_HEX_COLOUR = re.compile(r"^#[0-9A-Fa-f]{6}$")


def os_user_name() -> str:
    """The account's full name where the OS knows it cheaply, else the login: the first-run prefill.

    POSIX: the passwd entry's GECOS field up to its first comma. Windows: the display name the
    account has, if any. Both are often empty or just the login (``root``), which is why the
    first run asks (:mod:`.first_run`).
    """
    try:
        login = getpass.getuser()
    except Exception:  # no login name in the environment or the user database
        login = ""
    return (_full_name() or login or "Reviewer user").strip()


def _full_name() -> str:
    if os.name == "nt":
        return _windows_display_name()
    try:
        import pwd  # POSIX only

        return pwd.getpwuid(os.getuid()).pw_gecos.split(",")[0].strip()
    except (ImportError, KeyError):
        return ""


def _windows_display_name() -> str:
    """``GetUserNameExW(NameDisplay)``: the account's full name on Windows ("" when it has none)."""
    import ctypes

    try:
        get_name = ctypes.windll.secur32.GetUserNameExW  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return ""
    name_display = 3
    size = ctypes.c_ulong(0)
    get_name(name_display, None, ctypes.byref(size))
    if not size.value:
        return ""
    buffer = ctypes.create_unicode_buffer(size.value)
    return buffer.value.strip() if get_name(name_display, buffer, ctypes.byref(size)) else ""


def is_valid_base_url(url: str) -> bool:
    """True for an ``http``/``https`` URL with a host: what the model client can connect to."""
    try:
        parts = urlsplit(url.strip())
        return parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:  # an unparsable port or bracket
        return False


@dataclass
class AppSettings:
    """Everything the person can configure, with defaults; see the module docstring for layering."""

    user_name: str = field(default_factory=os_user_name)
    #: empty means "derive from the name" (:meth:`initials`)
    user_initials: str = ""
    #: the author of the agent's tracked changes, comments and replies, so they read apart from yours
    agent_name: str = DEFAULT_AGENT_NAME
    provider: str = "anthropic"
    #: used when ``provider`` is ``local``
    base_url: str = DEFAULT_LOCAL_URL
    model: str = DEFAULT_MODEL
    #: the local server's API (the Anthropic API is always spoken to through the Messages API)
    api_style: str = "anthropic"
    #: the model's context window in tokens; 0: ask the server (Ollama, llama.cpp), else unbounded
    context_window: int = 0
    #: what the model is given: auto (from the window), full, compact, or pipeline (no tools)
    tool_profile: str = "auto"
    agent_mode: str = "review"
    autosave_interval_s: int = 60
    theme: str = "system"
    #: author colours in order of first appearance in a document
    markup_colours: list[str] = field(default_factory=lambda: list(DEFAULT_AUTHOR_COLORS))
    keep_backup: bool = True
    #: most recent first
    recent_files: list[str] = field(default_factory=list)
    #: base64 of QMainWindow.saveState() / saveGeometry(); empty until the window first closes
    window_state: str = ""
    window_geometry: str = ""

    def initials(self) -> str:
        """The initials Word shows on comments: the chosen ones, else derived from the name."""
        return self.user_initials or initials_of(self.user_name)

    def add_recent(self, path: str | os.PathLike[str]) -> None:
        """Put ``path`` first in :attr:`recent_files` (once), keeping the newest ten."""
        entry = os.path.abspath(os.fspath(path))
        self.recent_files = [entry, *(p for p in self.recent_files if p != entry)][:MAX_RECENT_FILES]

    def to_agent_settings(self) -> AgentSettings:
        """The agent's settings: Anthropic's own endpoint (base_url None) or the local server."""
        local = self.provider == "local"
        return AgentSettings(
            model=self.model,
            base_url=self.base_url if local else None,
            api_style=self.api_style if local else "anthropic",
            context_window=self.context_window or None,
            tool_profile=self.tool_profile,
        )

    def with_values(self, values: dict[str, Any], source: str) -> AppSettings:
        """A copy with the valid entries of ``values`` applied; the rest warn and keep this copy's values.

        ``source`` names the file in the warnings, so a person can find the line they mistyped.
        """
        accepted: dict[str, Any] = {}
        for key, raw in values.items():
            check = _FIELD_CHECKS.get(key)
            if check is None:
                continue  # unknown keys (and "version") are ignored: a newer or older file still loads
            try:
                accepted[key] = check(raw)
            except (TypeError, ValueError, OverflowError) as error:
                kept = reprlib.repr(getattr(self, key))
                log.warning("%s: %s is not valid (%s); using %s", source, key, error, kept)
        return dataclasses.replace(self, **accepted)

    def differences(self, base: AppSettings) -> dict[str, Any]:
        """The fields whose values differ from ``base``'s (what the user file stores)."""
        mine, theirs = dataclasses.asdict(self), dataclasses.asdict(base)
        return {name: value for name, value in mine.items() if theirs[name] != value}


# ----------------------------------------------------------------------------- field checks
def _text(raw: Any) -> str:
    if not isinstance(raw, str):
        raise TypeError("not text")
    return raw.strip()


def _non_empty_text(raw: Any) -> str:
    text = _text(raw)
    if not text:
        raise ValueError("empty")
    return text


def _initials(raw: Any) -> str:
    text = _text(raw)
    if len(text) > 9:
        raise ValueError("longer than 9 characters")
    return text


def _one_of(choices: Iterable[str]) -> Callable[[Any], str]:
    allowed = tuple(choices)

    def check(raw: Any) -> str:
        value = _text(raw).lower()
        if value not in allowed:
            raise ValueError(f"not one of {', '.join(allowed)}")
        return value

    return check


def _base_url(raw: Any) -> str:
    url = _text(raw)
    if not is_valid_base_url(url):
        raise ValueError("not an http(s) URL with a host")
    return url.rstrip("/")


def _autosave(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise TypeError("not a number")
    return min(MAX_AUTOSAVE_S, max(MIN_AUTOSAVE_S, int(raw)))


def _context_window(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise TypeError("not a whole number of tokens")
    if not 0 <= raw <= MAX_CONTEXT_WINDOW:
        raise ValueError(f"not between 0 (ask the server) and {MAX_CONTEXT_WINDOW:,}")
    return raw


def _colours(raw: Any) -> list[str]:
    if not isinstance(raw, list) or not raw:
        raise TypeError("not a list of colours")
    if len(raw) > MAX_MARKUP_COLOURS or not all(isinstance(c, str) and _HEX_COLOUR.match(c) for c in raw):
        raise ValueError(f"expected 1-{MAX_MARKUP_COLOURS} colours written #RRGGBB")
    return [c.upper() for c in raw]


def _flag(raw: Any) -> bool:
    if not isinstance(raw, bool):
        raise TypeError("not true or false")
    return raw


def _recent(raw: Any) -> list[str]:
    if not isinstance(raw, list):
        raise TypeError("not a list")
    kept: list[str] = []
    for entry in raw:
        if isinstance(entry, str) and entry and entry not in kept:
            kept.append(entry)
    return kept[:MAX_RECENT_FILES]


def _base64(raw: Any) -> str:
    text = _text(raw)
    try:
        base64.b64decode(text, validate=True)
    except binascii.Error as error:
        raise ValueError("not base64") from error
    return text


_FIELD_CHECKS: dict[str, Callable[[Any], Any]] = {
    "user_name": _non_empty_text,
    "user_initials": _initials,
    "agent_name": _non_empty_text,
    "provider": _one_of(PROVIDERS),
    "base_url": _base_url,
    "model": _non_empty_text,
    "api_style": _one_of(API_STYLES),
    "context_window": _context_window,
    "tool_profile": _one_of(PROFILES),
    "agent_mode": _one_of(AGENT_MODES),
    "autosave_interval_s": _autosave,
    "theme": _one_of(THEMES),
    "markup_colours": _colours,
    "keep_backup": _flag,
    "recent_files": _recent,
    "window_state": _base64,
    "window_geometry": _base64,
}
assert set(_FIELD_CHECKS) == {f.name for f in dataclasses.fields(AppSettings)}, "a field has no check"


# ----------------------------------------------------------------------------- files
def user_settings_path() -> Path:
    """``settings.json`` in the user's config folder."""
    return config_root() / SETTINGS_FILE


def site_settings_paths() -> list[Path]:
    """The site files, lowest priority first: the system config folder, then ``$REVIEWER_SITE_CONFIG``."""
    paths = [Path(platformdirs.site_config_dir(APP_DIR_NAME, appauthor=False)) / SETTINGS_FILE]
    if os.environ.get(SITE_CONFIG_ENV):
        paths.append(Path(os.environ[SITE_CONFIG_ENV]))
    return paths


def read_settings_file(path: Path, set_aside_when_broken: bool = False) -> dict[str, Any]:
    """The JSON object in ``path``; ``{}`` (with a warning) when it is missing, unreadable or not an object.

    ``set_aside_when_broken`` renames unparsable JSON to ``NAME.bad`` so the next save does not
    overwrite the person's hand edits (used for the user file, never for a shared site file).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        log.warning("cannot read settings from %s: %s", path, error)
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        log.warning("%s is not valid JSON (%s); using defaults", path, error)
        data = None
    if isinstance(data, dict):
        return data
    if data is not None:
        log.warning("%s does not hold a JSON object; using defaults", path)
    if set_aside_when_broken:
        try:
            os.replace(path, path.with_name(path.name + ".bad"))
            log.warning("kept the unreadable settings as %s", path.name + ".bad")
        except OSError as error:
            log.warning("cannot set %s aside: %s", path, error)
    return {}


# ----------------------------------------------------------------------------- API key
def keyring_available() -> bool:
    """True when a system keyring can hold the API key (a read that raises means it cannot)."""
    try:
        import keyring

        keyring.get_password(KEYRING_SERVICE, "availability-probe")
    except Exception as error:  # the "fail" backend, a locked wallet, no D-Bus
        log.debug("no usable keyring: %s", type(error).__name__)
        return False
    return True


def api_key_source() -> str | None:
    """Where the key the agent would use comes from: environment, keyring, session, or None."""
    if os.environ.get(API_KEY_ENV, "").strip():
        return "environment"
    if keyring_api_key():
        return "keyring"
    return "session" if resolve_api_key() else None


# ----------------------------------------------------------------------------- the store
def _names_the_person(values: dict[str, Any], applied: AppSettings) -> bool:
    """True when ``values`` gave a valid ``user_name`` (one ``applied`` took, not fell back from)."""
    given = values.get("user_name")
    return isinstance(given, str) and given.strip() == applied.user_name


class SettingsStore(QObject):
    """Holds the current :class:`AppSettings`, loads and saves them, and says what changed.

    Window parts read :attr:`settings` and listen to :attr:`changed`; only the store replaces the
    settings, so a listener never sees a half-applied change.
    """

    #: a frozenset of the field names whose values changed
    changed = Signal(object)

    def __init__(
        self,
        path: Path | None = None,
        site_paths: list[Path] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.path = path if path is not None else user_settings_path()
        self._site_paths = site_paths
        self._defaults = AppSettings()
        self._settings = AppSettings()
        #: whether the user file holds the person's name (false on a first run: see needs_name)
        self._name_stored = False

    @property
    def settings(self) -> AppSettings:
        """The current settings (replace them through :meth:`update`, never by mutating this object)."""
        return self._settings

    @property
    def defaults(self) -> AppSettings:
        """The built-in defaults with the site files applied: what "reset" returns to."""
        return self._defaults

    def load(self) -> AppSettings:
        """Read the site files and the user file; emit :attr:`changed` for every field that moved."""
        defaults = AppSettings()
        for site in self._site_paths if self._site_paths is not None else site_settings_paths():
            defaults = defaults.with_values(read_settings_file(site), str(site))
        user_values = read_settings_file(self.path, set_aside_when_broken=True)
        loaded = defaults.with_values(user_values, str(self.path))
        self._name_stored = _names_the_person(user_values, loaded)
        self._defaults = defaults
        self._replace(loaded)
        return loaded

    def save(self) -> bool:
        """Write the user file atomically; False (logged) when the folder cannot be written."""
        content = {"version": FILE_FORMAT_VERSION, **self._settings.differences(self._defaults)}
        if self._name_stored:  # kept even when it is the account's name: the person chose it
            content["user_name"] = self._settings.user_name
        data = (json.dumps(content, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            private_dir(self.path.parent)
            write_atomically(self.path, data)
        except OSError as error:
            log.warning("cannot save settings to %s: %s", self.path, error)
            return False
        return True

    def update(self, **values: Any) -> frozenset[str]:
        """Change fields (validated like the file), save, and emit :attr:`changed`; returns the names."""
        unknown = set(values) - set(_FIELD_CHECKS)
        if unknown:
            raise TypeError(f"unknown settings: {', '.join(sorted(unknown))}")
        updated = self._settings.with_values(values, "update")
        newly_stored = not self._name_stored and _names_the_person(values, updated)
        self._name_stored = self._name_stored or newly_stored
        names = self._replace(updated)
        if names or newly_stored:
            self.save()
        return names

    def needs_name(self) -> bool:
        """True on a first run: no name of the person's own is stored yet, only the account's guess."""
        return not self._name_stored

    def add_recent(self, path: str | os.PathLike[str]) -> None:
        """Record ``path`` as the most recently opened file (saved at once)."""
        updated = dataclasses.replace(self._settings, recent_files=list(self._settings.recent_files))
        updated.add_recent(path)
        if self._replace(updated):
            self.save()

    def _replace(self, new: AppSettings) -> frozenset[str]:
        names = frozenset(new.differences(self._settings))
        self._settings = new
        if names:
            self.changed.emit(names)
        return names
