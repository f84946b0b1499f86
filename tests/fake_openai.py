"""A scripted OpenAI chat-completions server on 127.0.0.1: ``POST /v1/chat/completions``, streamed.

Like :mod:`tests.fake_anthropic` for servers that speak only the OpenAI API (LM Studio, vLLM,
llama.cpp's OpenAI endpoint): each request pops one script item -- an :class:`OAReply` (text and
tool calls, streamed as ``chat.completion.chunk`` events with the arguments cut mid-token), a
function of the request body returning one, or a ``(status, body)`` error -- and is recorded.
With ``context_tokens`` it refuses a request over the window with llama.cpp's error.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from typing import Any

from reviewer_app.selftest.quiet_http import QuietHandler
from reviewer_app.selftest.scripted_model_server import request_tokens


@dataclass
class OAReply:
    text: str = ""
    calls: list[tuple[str, Any]] = field(default_factory=list)


def chunks_for(item: OAReply, model: str) -> list[dict[str, Any]]:
    """The stream's chunks: role, text in pieces, each call's name then its arguments in pieces."""
    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model}
    out = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}]
    for start in range(0, len(item.text), 10):
        out.append({**base, "choices": [{"index": 0, "delta": {"content": item.text[start : start + 10]}}]})
    for index, (name, args) in enumerate(item.calls):
        head = {
            "index": index,
            "id": f"call_{index}",
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }
        out.append({**base, "choices": [{"index": 0, "delta": {"tool_calls": [head]}}]})
        raw = args if isinstance(args, str) else json.dumps(args)
        for start in range(0, len(raw), 7):
            piece = {"index": index, "function": {"arguments": raw[start : start + 7]}}
            out.append({**base, "choices": [{"index": 0, "delta": {"tool_calls": [piece]}}]})
    finish = "tool_calls" if item.calls else "stop"
    out.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    out.append({**base, "choices": [], "usage": {"prompt_tokens": 100, "completion_tokens": 10}})
    return out


class _Handler(QuietHandler):
    server: _Server

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        owner = self.server.owner
        body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
        if self.path != "/v1/chat/completions":
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        owner.requests.append(body)
        owner.headers.append({k.lower(): v for k, v in self.headers.items()})
        size = request_tokens(body)
        owner.sizes.append(size)
        if owner.context_tokens and size + int(body.get("max_tokens") or 0) > owner.context_tokens:
            message = "the request exceeds the available context size, try increasing it"
            self._json(400, {"error": {"code": 400, "message": message, "type": "exceed_context_size_error"}})
            return
        with owner.lock:
            item = owner.script.pop(0) if owner.script else (500, {"error": {"message": "script exhausted"}})
        while callable(item):
            item = item(body)
        if isinstance(item, tuple):
            self._json(*item)
            return
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        for chunk in chunks_for(item, body.get("model", "")):
            self._chunk(f"data: {json.dumps(chunk)}\n\n".encode())
        self._chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: FakeOpenAI


class FakeOpenAI:
    """``with FakeOpenAI(script) as server:``; ``server.requests`` holds the bodies received."""

    def __init__(self, script: list[Any], context_tokens: int | None = None) -> None:
        self.script = list(script)
        self.context_tokens = context_tokens
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.sizes: list[int] = []
        self.lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"


def tool_messages(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``role: "tool"`` messages at the end of a request (what the model was just sent)."""
    out = []
    for message in reversed(body["messages"]):
        if message["role"] != "tool":
            break
        out.insert(0, message)
    return out
