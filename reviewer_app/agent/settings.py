"""``AgentSettings``: which model, where it is served, the key, and the per-turn limits.

One typed object carries everything a turn needs, so the desktop app, the ``reviewer agent``
command and the tests configure the loop the same way, and tests can shrink the time-outs to
fractions of a second. The API key comes from the ``ANTHROPIC_API_KEY`` environment variable
when set (it wins, so a shell or CI can override what the app stored), otherwise from the
system keyring, otherwise from a "this session only" value kept in memory when the machine has
no keyring. The key lives only here and in the client; transcripts never see it.

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
API_KEY_ENV = "ANTHROPIC_API_KEY"
BASE_URL_ENV = "ANTHROPIC_BASE_URL"
MODEL_ENV = "REVIEWER_MODEL"
#: Local servers ignore the key but the SDK insists on sending one.
LOCAL_PLACEHOLDER_KEY = "not-needed"

NOT_CONFIGURED = (
    "No API key is configured for the model at {host}. Either set the ANTHROPIC_API_KEY "
    "environment variable, or store a key in Reviewer's settings (kept in the system keyring). "
    "For an offline model, point the base URL at a local server that speaks the Anthropic "
    "Messages API (for example Ollama), which needs no key."
)

_session_key: str | None = None


class AgentNotConfiguredError(RuntimeError):
    """No key and no local server: the message names both ways to configure one."""


# ----------------------------------------------------------------------------- the key
def keyring_api_key() -> str | None:
    """The key stored in the system keyring, or None (no keyring backend is not an error)."""
    try:
        import keyring

        value = keyring.get_password(KEYRING_SERVICE, KEYRING_USERNAME)
    except Exception as error:  # no backend, a locked wallet, a broken D-Bus: all mean "no key"
        log.debug("keyring unavailable: %s", type(error).__name__)
        return None
    return value or None


def store_api_key(key: str | None) -> str:
    """Keep ``key`` in the keyring; without a usable keyring, for this session only.

    Returns where it went: ``"keyring"`` or ``"session"``. ``None`` forgets the key in both.
    """
    global _session_key
    try:
        import keyring

        if key:
            keyring.set_password(KEYRING_SERVICE, KEYRING_USERNAME, key)
        else:
            with contextlib.suppress(Exception):
                keyring.delete_password(KEYRING_SERVICE, KEYRING_USERNAME)
        _session_key = None
        return "keyring"
    except Exception as error:
        log.info("no usable keyring (%s); the API key is kept for this session only", type(error).__name__)
        _session_key = key or None
        return "session"


def resolve_api_key(explicit: str | None = None) -> str | None:
    """The key to use: ``explicit``, then ``ANTHROPIC_API_KEY``, then the keyring, then the session."""
    if explicit:
        return explicit
    env = os.environ.get(API_KEY_ENV, "").strip()
    if env:
        return env
    return keyring_api_key() or _session_key


def is_anthropic_host(base_url: str | None) -> bool:
    host = (urlsplit(base_url or DEFAULT_BASE_URL).hostname or "").lower()
    return host == "anthropic.com" or host.endswith(".anthropic.com")


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

    @classmethod
    def from_environment(cls, **overrides: Any) -> AgentSettings:
        """Defaults, then ``ANTHROPIC_BASE_URL`` / ``REVIEWER_MODEL``, then ``overrides`` (None = unset)."""
        values: dict[str, Any] = {}
        if os.environ.get(BASE_URL_ENV):
            values["base_url"] = os.environ[BASE_URL_ENV]
        if os.environ.get(MODEL_ENV):
            values["model"] = os.environ[MODEL_ENV]
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def replace(self, **changes: Any) -> AgentSettings:
        return dataclasses.replace(self, **changes)

    @property
    def host(self) -> str:
        return host_of(self.base_url)

    def effective_api_key(self) -> str:
        """The key the client sends; raises :class:`AgentNotConfiguredError` when there is none.

        A server that is not Anthropic's (a local Ollama or llama.cpp) gets a placeholder.
        """
        key = resolve_api_key(self.api_key)
        if key:
            return key
        if self.base_url and not is_anthropic_host(self.base_url):
            return LOCAL_PLACEHOLDER_KEY
        raise AgentNotConfiguredError(NOT_CONFIGURED.format(host=self.host))

    def check(self) -> None:
        """Raise :class:`AgentNotConfiguredError` now rather than when the first turn starts."""
        self.effective_api_key()

    def request_timeout(self) -> Any:
        """The per-request time-outs: the read time-out is the idle limit ("no byte for N s")."""
        import anthropic

        idle = self.idle_timeout_s
        return anthropic.Timeout(connect=self.connect_timeout_s, read=idle, write=max(idle, 30.0), pool=idle)

    def make_client(self) -> Any:
        """A new ``anthropic.AsyncAnthropic`` for these settings (the caller closes it)."""
        import anthropic

        kwargs: dict[str, Any] = {
            "api_key": self.effective_api_key(),
            "max_retries": self.max_retries,
            "timeout": self.request_timeout(),
        }
        if self.base_url:
            kwargs["base_url"] = self.base_url
        return anthropic.AsyncAnthropic(**kwargs)
