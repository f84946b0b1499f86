"""A scripted Anthropic Messages server: real HTTP on 127.0.0.1, streaming SSE the way the API sends it.

It lives in the package, not only in the tests, because ``reviewer --self-test`` runs one agent
turn against it from an installed bundle, where no test files exist: the real ``anthropic``
client, pointed here through ``base_url``, proves that the bundle's HTTP stack, SSE parsing and
tool loop work without any network or key. The tests (``tests/fake_anthropic.py`` re-exports
this module) drive the agent loop the same way, so the SDK's own parsing, retries and time-outs
are part of what is tested. The server replays a *script* of assistant turns, one per
``POST /v1/messages``:

- a :class:`Reply` (text and tool_use blocks; text arrives as several ``text_delta`` events and a
  tool's input as several ``input_json_delta`` chunks cut mid-token, as the API does);
- a function of the recorded request returning a script item, so a scripted "model" can read
  the tool results it was sent (ids, handles, skip reasons) and a test can assert on them;
- a :class:`Status` (an HTTP error such as 529 overloaded, sent before any stream starts);
- a :class:`Reply` with ``drop_after`` (the connection is cut after that many events) or
  ``stall_after`` (the server goes silent, for the idle time-out).

Those script items and their SSE encoding live in :mod:`.scripted_replies`; this module serves
them and re-exports their names, so callers import from one place.

Every request is recorded (``server.requests``), and every SSE event's write time is logged
(``server.sent``) so the benchmark can measure the delay from bytes leaving here to an event
reaching the UI. Chunked transfer encoding keeps connections alive between requests like the
real API; a dropped connection ends mid-chunk, so the client sees a truncated body.

Only the standard library (and, in :func:`fast_settings`, the agent's settings): no Qt.
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from typing import Any

from .quiet_http import QuietHandler
from .scripted_replies import (
    Reply,
    ScriptItem,
    Status,
    Text,
    ToolUse,
    events_for,
    reply,
    result_text,
    sse_bytes,
    text,
    tool,
    tool_results,
    unfence,
)

__all__ = [
    "TEST_KEY",
    "FakeAnthropic",
    "Recorded",
    "Reply",
    "ScriptItem",
    "Status",
    "Text",
    "ToolUse",
    "collect",
    "events_for",
    "fast_settings",
    "kinds",
    "reply",
    "request_tokens",
    "result_text",
    "text",
    "tool",
    "tool_results",
    "unfence",
]

#: numbers the request ids of HTTP responses
_ids = itertools.count(1)


# ----------------------------------------------------------------------------- the server
@dataclass
class Recorded:
    """One request as the server received it."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float


class _Handler(QuietHandler):
    server: _Server

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        arrived = time.perf_counter()  # before the body is read and parsed: the client's time ends here
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {"_unparsable": raw.decode("utf-8", "replace")}
        owner = self.server.owner
        path = self.path.split("?")[0]
        if path == "/api/show" and owner.advertises("ollama"):
            self._json(200, owner.ollama_show())
            return
        if path != "/v1/messages":
            self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})
            return
        headers = {k.lower(): v for k, v in self.headers.items()}
        owner._record(Recorded(self.path, headers, body, arrived))
        refusal = owner.context_refusal(body)
        if refusal is not None:
            self._json(400, refusal)
            return
        item = owner._next_item(body)
        if item is None:
            self._json(500, Status(500, message="the fake server's script is exhausted").body())
            return
        if isinstance(item, Status):
            headers = {"retry-after-ms": str(item.retry_after_ms)} if item.retry_after_ms is not None else {}
            self._json(item.code, item.body(), headers)
            return
        self._stream(item, body)

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        owner = self.server.owner
        if self.path.split("?")[0] == "/props" and owner.advertises("llama.cpp"):
            self._json(200, {"default_generation_settings": {"n_ctx": owner.context_tokens}})
            return
        self._json(404, {"error": "not found"})

    def _json(self, code: int, data: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        """As the API answers: every response carries a request id."""
        super()._json(code, data, {"request-id": f"req_fake{next(_ids):06d}", **(headers or {})})

    def _stream(self, item: Reply, request: dict[str, Any]) -> None:
        owner = self.server.owner
        self.send_response(200)
        self.send_header("content-type", "text/event-stream; charset=utf-8")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.send_header("request-id", f"req_fake{next(_ids):06d}")
        self.end_headers()
        self.wfile.flush()
        try:
            for sent, (name, data) in enumerate(events_for(item, request)):
                if item.drop_after is not None and sent >= item.drop_after:
                    self._drop()
                    return
                if item.stall_after is not None and sent >= item.stall_after:
                    owner.stopping.wait(item.stall_s)
                    self._drop()
                    return
                if item.delay_s and sent:
                    time.sleep(item.delay_s)
                self._chunk(sse_bytes(name, data))
                owner._sent(name, data)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            self.close_connection = True  # the client went away (a cancelled stream): fine

    def _drop(self) -> None:
        """Cut the connection mid-body: the chunked body never gets its terminating chunk."""
        self.close_connection = True
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    owner: FakeAnthropic


class FakeAnthropic:
    """The fake server; use as a context manager (``with FakeAnthropic(script) as server:``)."""

    def __init__(
        self,
        script: list[ScriptItem] | None = None,
        *,
        context_tokens: int | None = None,
        context_style: str = "llama.cpp",
        advertise_context: bool = True,
    ) -> None:
        """``context_tokens``: behave like a local model with that window: a request whose
        estimated size (:func:`request_tokens`) plus its max_tokens exceeds it is refused with
        the error ``context_style`` ("llama.cpp" or "ollama") returns, and, with
        ``advertise_context``, the window is reported on ``GET /props`` (llama.cpp) or
        ``POST /api/show`` (Ollama). ``sizes`` records every request's estimate.
        """
        self.script: list[ScriptItem] = list(script or [])
        self.context_tokens = context_tokens
        self.context_style = context_style
        self.advertise_context = advertise_context
        self.sizes: list[int] = []
        self.requests: list[Recorded] = []
        #: (perf_counter time, event name, data) for every SSE event written
        self.sent: list[tuple[float, str, dict[str, Any]]] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.02},
            name="fake-anthropic",
            daemon=True,
        )

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def close(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeAnthropic:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # ------------------------------------------------------------------ script
    def add(self, *items: ScriptItem) -> None:
        with self._lock:
            self.script.extend(items)

    @property
    def remaining(self) -> int:
        return len(self.script)

    def _next_item(self, body: dict[str, Any]) -> Reply | Status | None:
        with self._lock:
            if not self.script:
                return None
            item = self.script.pop(0)
        while callable(item) and not isinstance(item, Reply | Status):
            item = item(body)
        return item

    def _record(self, recorded: Recorded) -> None:
        with self._lock:
            self.requests.append(recorded)

    def _sent(self, name: str, data: dict[str, Any]) -> None:
        self.sent.append((time.perf_counter(), name, data))

    # ------------------------------------------------------------------ a local model's window
    def context_refusal(self, body: dict[str, Any]) -> dict[str, Any] | None:
        """The error body a local server returns for a request over its window, or None."""
        size = request_tokens(body)
        self.sizes.append(size)
        if self.context_tokens is None or size + int(body.get("max_tokens") or 0) <= self.context_tokens:
            return None
        if self.context_style == "ollama":
            over = size + int(body.get("max_tokens") or 0) - self.context_tokens
            message = f"prompt too long; exceeded max context length by {over} tokens"
            return {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
        return {
            "error": {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
                "n_prompt_tokens": size,
                "n_ctx": self.context_tokens,
            }
        }

    def advertises(self, style: str) -> bool:
        return bool(self.context_tokens and self.advertise_context and self.context_style == style)

    def ollama_show(self) -> dict[str, Any]:
        """Ollama's /api/show for a model whose model file sets num_ctx to the window."""
        return {
            "model_info": {"general.architecture": "llama", "llama.context_length": 131072},
            "parameters": f"num_ctx                        {self.context_tokens}\nstop <|eot_id|>",
            "capabilities": ["completion", "tools"],
        }

    # ------------------------------------------------------------------ reading what was sent
    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [r.body for r in self.requests]

    def last_results(self) -> list[dict[str, Any]]:
        """The tool_result blocks of the last request."""
        return tool_results(self.requests[-1].body) if self.requests else []


def request_tokens(body: dict[str, Any]) -> int:
    """A request's input size the way the agent estimates it: JSON characters / 3.5, rounded up.

    System, tools and messages, compactly serialized; a stand-in for a tokenizer (stated, not
    exact), the same yardstick on both sides so a test can check the agent keeps under a window.
    """
    parts = [body.get(key) for key in ("system", "tools", "messages") if body.get(key)]
    chars = sum(
        len(part if isinstance(part, str) else json.dumps(part, ensure_ascii=False, separators=(",", ":")))
        for part in parts
    )
    return -(-chars * 2 // 7)


# ----------------------------------------------------------------------------- driving a session
#: A key long enough to be scrubbed from transcripts; tests assert it never reaches the disk.
TEST_KEY = "sk-ant-test-0123456789abcdef"


def fast_settings(server: FakeAnthropic, **overrides: Any) -> Any:
    """AgentSettings for the fake server with short time-outs and back-offs (tests stay fast)."""
    from reviewer_app.agent.settings import AgentSettings

    values: dict[str, Any] = {
        "base_url": server.base_url,
        "api_key": TEST_KEY,
        "model": "claude-fake-1",
        "idle_timeout_s": 3.0,
        "connect_timeout_s": 3.0,
        "retry_backoff_s": 0.01,
        "max_retries": 1,
    }
    values.update(overrides)
    return AgentSettings(**values)


async def collect(session: Any, text: str, on_event: Callable[[Any], None] | None = None) -> list[Any]:
    """Every event of one turn (``on_event`` sees each as it arrives, e.g. to cancel mid-stream)."""
    events = []
    async for event in session.send(text):
        events.append(event)
        if on_event is not None:
            on_event(event)
    return events


def kinds(events: list[Any]) -> list[str]:
    return [event.kind for event in events]
