"""The HTTP plumbing a scripted model server needs, whichever API it speaks.

The self-test's Anthropic server (and the tests' OpenAI-compatible one) answer on 127.0.0.1 the way
the real APIs do: connections kept alive between requests, errors as JSON bodies, streams as
chunked bodies. Standard library only, so importing it loads no Qt.
"""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from typing import Any


class QuietHandler(BaseHTTPRequestHandler):
    """An HTTP/1.1 request handler that logs nothing (a test's output stays the test's own)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def _json(self, code: int, data: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        """A complete JSON response with its length, plus any extra ``headers``."""
        payload = json.dumps(data).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()

    def _chunk(self, data: bytes) -> None:
        """One chunk of a ``transfer-encoding: chunked`` body, sent at once."""
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()
