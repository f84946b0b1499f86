"""``AgentSettings``: which model, where it is served, the key, and the per-turn limits.

One typed object carries everything a turn needs, so the desktop app, the ``reviewer agent``
command and the tests configure the loop the same way, and tests can shrink the time-outs to
fractions of a second.

Two kinds of key, never mixed up. The *Anthropic* key comes from the ``ANTHROPIC_API_KEY``
environment variable when set (it wins, so a shell or CI can override what the app stored),
otherwise from the system keyring, otherwise from a "this session only" value kept in memory
when the machine has no keyring; it is sent only to Anthropic's own hosts over HTTPS
(:func:`is_anthropic_endpoint`). Any other server (a firm's Ollama, a URL a site file or
``--base-url`` names) gets its *own* key: ``REVIEWER_SERVER_API_KEY``, else the keyring entry
stored for exactly that base URL, else a placeholder; so a mistyped, hostile or plain-HTTP URL
never receives the Anthropic key. Keys live only here and in the client; transcripts never see
them.

``anthropic`` is imported only in :meth:`AgentSettings.make_client`, when a turn starts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

#: Anthropic's API; any server speaking the Messages API (Ollama, llama.cpp's server) works too.
DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_MODEL = "claude-sonnet-5-5"
KEYRING_SERVICE = "Reviewer"
KEYRING_USERNAME = "anthropic-api-key"
#: a local server's key is kept under this prefix plus its normalised base URL
SERVER_KEY_PREFIX = "server-key "
API_KEY_ENV = "ANTHROPIC_API_KEY"
#: a key for the configured non-Anthropic server (the Anthropic key never goes there)
SERVER_API_KEY_ENV = "REVIEWER_SERVER_API_KEY"
BASE_URL_ENV = "ANTHROPIC_BASE_URL"
MODEL_ENV = "REVIEWER_MODEL"
CONTEXT_ENV = "REVIEWER_CONTEXT_WINDOW"
API_STYLE_ENV = "REVIEWER_API_STYLE"
#: What a server without a key of its own gets (most local servers ignore the key; the SDK sends one).
LOCAL_PLACEHOLDER_KEY = "not-needed"

NOT_CONFIGURED = (
    "No API key is configured for the model at {host}. Either set the ANTHROPIC_API_KEY "
    "environment variable, or store a key in Reviewer's settings (kept in the system keyring). "
    "For an offline model, point the base URL at a local server that speaks the Anthropic "
    "Messages API (for example Ollama), which needs no key."
)

#: keys kept for this session only (no usable keyring), by keyring user name
_session_keys: dict[str, str] = {}


class AgentNotConfiguredError(RuntimeError):
    """No key and no local server: the message names both ways to configure one."""


# ----------------------------------------------------------------------------- where keys go
def is_anthropic_endpoint(base_url: str | None) -> bool:
    """True for Anthropic's own API over HTTPS (None: the default), where the Anthropic key may go."""
    parts = urlsplit(base_url or DEFAULT_BASE_URL)
    host = (parts.hostname or "").lower()
    return parts.scheme == "https" and (host == "anthropic.com" or host.endswith(".anthropic.com"))


def server_key_name(base_url: str) -> str:
    """The keyring user name of a server's own key: the prefix plus ``scheme://host:port/path``.

    Case of scheme and host and a trailing slash do not matter; anything else (another port,
    another path) is another server, which does not get this key.
    """
    parts = urlsplit(base_url.strip())
    host = (parts.hostname or "").lower()
    port = f":{parts.port}" if parts.port else ""
    return f"{SERVER_KEY_PREFIX}{parts.scheme.lower()}://{host}{port}{parts.path.rstrip('/')}"


# ----------------------------------------------------------------------------- the keyring
def _keyring_get(username: str) -> str | None:
    try:
        import keyring

        value = keyring.get_password(KEYRING_SERVICE, username)
    except Exception as error:  # no backend, a locked wallet, a broken D-Bus: all mean "no key"
        log.debug("keyring unavailable: %s", type(error).__name__)
        return None
    return value or None


def _keyring_store(username: str, key: str | None) -> str:
    """Keep ``key`` under ``username`` in the keyring, else for this session; None forgets it."""
    try:
        import keyring

        if key:
            keyring.set_password(KEYRING_SERVICE, username, key)
        else:
            with contextlib.suppress(Exception):
                keyring.delete_password(KEYRING_SERVICE, username)
        _session_keys.pop(username, None)
        return "keyring"
    except Exception as error:
        log.info("no usable keyring (%s); the key is kept for this session only", type(error).__name__)
        if key:
            _session_keys[username] = key
        else:
            _session_keys.pop(username, None)
        return "session"


def keyring_api_key() -> str | None:
    """The Anthropic key stored in the system keyring, or None (no keyring backend is not an error)."""
    return _keyring_get(KEYRING_USERNAME)


def store_api_key(key: str | None) -> str:
    """Keep the Anthropic ``key`` in the keyring; without a usable keyring, for this session only.

    Returns where it went: ``"keyring"`` or ``"session"``. ``None`` forgets the key in both.
    """
    return _keyring_store(KEYRING_USERNAME, key)


def resolve_api_key(explicit: str | None = None) -> str | None:
    """The Anthropic key: ``explicit``, then ``ANTHROPIC_API_KEY``, then the keyring, then the session."""
    if explicit:
        return explicit
    env = os.environ.get(API_KEY_ENV, "").strip()
    if env:
        return env
    return keyring_api_key() or _session_keys.get(KEYRING_USERNAME)


def stored_server_key(base_url: str) -> str | None:
    """The key stored for exactly this server (keyring, else this session), or None."""
    name = server_key_name(base_url)
    return _keyring_get(name) or _session_keys.get(name)


def store_server_key(base_url: str, key: str | None) -> str:
    """Keep a non-Anthropic server's own ``key`` under its base URL; None forgets it. Returns where."""
    return _keyring_store(server_key_name(base_url), key)


def resolve_server_key(base_url: str) -> str | None:
    """A non-Anthropic server's key: ``REVIEWER_SERVER_API_KEY``, else the one stored for its URL."""
    return os.environ.get(SERVER_API_KEY_ENV, "").strip() or stored_server_key(base_url)


def host_of(base_url: str | None) -> str:
    """``host[:port]`` of a base URL, as error messages name the server."""
    parts = urlsplit(base_url or DEFAULT_BASE_URL)
    return parts.netloc or parts.path or DEFAULT_BASE_URL


# ----------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class AgentSettings:
    """How one agent session talks to its model, and the per-turn budgets (agent-loop.md).

    ``api_key`` None means "resolve it" (environment, keyring, session); every budget is a
    setting with the specification's default so tests can pin behaviour at each edge.
    """

    model: str = DEFAULT_MODEL
    base_url: str | None = None
    api_key: str | None = dataclasses.field(default=None, repr=False)
    max_tokens: int = 8192
    #: per turn: model requests, tool calls, live-view reads (read_page, read_selection)
    max_round_trips: int = 16
    max_tool_calls: int = 40
    max_live_reads: int = 6
    #: operations per suggest_changes call (the host option, 1-200)
    max_operations: int = 50
    #: seconds without a byte from the model before the stream counts as stalled
    idle_timeout_s: float = 120.0
    connect_timeout_s: float = 15.0
    #: pause before the one retry after a stalled or broken stream
    retry_backoff_s: float = 2.0
    #: the SDK's own retries (with backoff) for connection errors, 408/409/429 and 5xx/529
    max_retries: int = 2
    #: mark the system prompt and tool list cacheable (Anthropic's prompt caching)
    prompt_caching: bool = True
    #: run tools in a worker thread (headless only: a live Qt document must stay on its thread)
    tools_in_thread: bool = False
    #: the model's context window in tokens; None: ask the server (Ollama, llama.cpp), else unbounded
    context_window: int | None = None
    #: what the model is given: "auto" (from the window), "full", "compact" or "pipeline" (no tools)
    tool_profile: str = "auto"
    #: the server's API: "anthropic" (Messages API) or "openai" (/v1/chat/completions)
    api_style: str = "anthropic"

    @classmethod
    def from_environment(cls, **overrides: Any) -> AgentSettings:
        """Defaults, then ``ANTHROPIC_BASE_URL`` / ``REVIEWER_MODEL`` / ``REVIEWER_CONTEXT_WINDOW`` /
        ``REVIEWER_API_STYLE``, then ``overrides`` (None = unset)."""
        values: dict[str, Any] = {}
        if os.environ.get(BASE_URL_ENV):
            values["base_url"] = os.environ[BASE_URL_ENV]
        if os.environ.get(MODEL_ENV):
            values["model"] = os.environ[MODEL_ENV]
        if os.environ.get(CONTEXT_ENV, "").strip().isdigit():
            values["context_window"] = int(os.environ[CONTEXT_ENV])
        if os.environ.get(API_STYLE_ENV) in ("anthropic", "openai"):
            values["api_style"] = os.environ[API_STYLE_ENV]
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def replace(self, **changes: Any) -> AgentSettings:
        return dataclasses.replace(self, **changes)

    @property
    def host(self) -> str:
        return host_of(self.base_url)

    def effective_api_key(self) -> str:
        """The key the client sends; raises :class:`AgentNotConfiguredError` when there is none.

        ``api_key``, when set, is the caller's key for this very server. Otherwise Anthropic's
        API gets the Anthropic key, and any other server only its own key (or a placeholder):
        never the Anthropic key, which is not its to see.
        """
        if self.api_key:
            return self.api_key
        if is_anthropic_endpoint(self.base_url):
            key = resolve_api_key()
            if key:
                return key
            raise AgentNotConfiguredError(NOT_CONFIGURED.format(host=self.host))
        return resolve_server_key(self.base_url or DEFAULT_BASE_URL) or LOCAL_PLACEHOLDER_KEY

    def check(self) -> None:
        """Raise :class:`AgentNotConfiguredError` now rather than when the first turn starts."""
        self.effective_api_key()

    def request_timeout(self) -> Any:
        """The per-request time-outs: the read time-out is the idle limit ("no byte for N s")."""
        import anthropic

        idle = self.idle_timeout_s
        return anthropic.Timeout(connect=self.connect_timeout_s, read=idle, write=max(idle, 30.0), pool=idle)

    def make_client(self) -> Any:
        """A new client for these settings (the caller closes it).

        ``anthropic.AsyncAnthropic``, or for ``api_style="openai"`` the chat-completions client
        (:mod:`.openai_chat`), which offers the same ``messages.stream`` to the loop.
        """
        if self.api_style == "openai":
            from .openai_chat import OpenAIChatClient

            return OpenAIChatClient(
                self.base_url or DEFAULT_BASE_URL, self.effective_api_key(), self.request_timeout()
            )
        import anthropic

        kwargs: dict[str, Any] = {
            "api_key": self.effective_api_key(),
            "max_retries": self.max_retries,
            "timeout": self.request_timeout(),
        }
        if self.base_url:
            kwargs["base_url"] = self.base_url
        return anthropic.AsyncAnthropic(**kwargs)
