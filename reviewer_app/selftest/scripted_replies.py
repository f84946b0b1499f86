"""The script a :class:`~.scripted_model_server.FakeAnthropic` plays: replies, errors, and their SSE events.

A scripted "model" is a list of :class:`Reply` (text and tool_use blocks), :class:`Status` (an
HTTP error) or functions of the request returning one. :func:`events_for` turns a reply into the
Messages API's server-sent events, in the API's order, with text in several deltas and tool
input cut mid-token, as the real API streams them. The helpers at the end read what the model
was sent (the tool results), so a scripted model can answer them and a test can assert on them.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

_ids = itertools.count(1)


# ----------------------------------------------------------------------------- script items
@dataclass
class Text:
    """A text content block; streamed in ``chunk`` -character deltas."""

    text: str
    chunk: int = 12


@dataclass
class ToolUse:
    """A tool_use block. ``raw_json`` (if given) is streamed verbatim instead of ``input``."""

    name: str
    input: Any = field(default_factory=dict)
    id: str = ""
    raw_json: str | None = None
    pieces: int = 4

    def __post_init__(self) -> None:
        if not self.id:
            self.id = f"toolu_fake{next(_ids):06d}"


@dataclass
class Reply:
    """One assistant message. ``stop_reason`` defaults to tool_use when a tool is called."""

    blocks: list[Text | ToolUse]
    stop_reason: str | None = None
    input_tokens: int | None = None
    output_tokens: int = 0
    #: seconds between SSE events (0: as fast as the socket takes them)
    delay_s: float = 0.0
    #: cut the connection after this many events have been sent
    drop_after: int | None = None
    #: go silent after this many events, for ``stall_s`` seconds (or until the server closes)
    stall_after: int | None = None
    stall_s: float = 30.0
    model: str = "claude-fake-1"


@dataclass
class Status:
    """An HTTP error answered before any stream: e.g. ``Status(529)`` (overloaded), ``Status(429)``."""

    code: int
    error_type: str = ""
    message: str = ""
    retry_after_ms: int | None = 20

    def body(self) -> dict[str, Any]:
        kind = self.error_type or {
            400: "invalid_request_error",
            401: "authentication_error",
            429: "rate_limit_error",
            500: "api_error",
            529: "overloaded_error",
        }.get(self.code, "api_error")
        return {"type": "error", "error": {"type": kind, "message": self.message or kind.replace("_", " ")}}


ScriptItem = Reply | Status | Callable[[dict[str, Any]], "Reply | Status"]


def text(value: str, chunk: int = 12) -> Text:
    return Text(value, chunk)


def tool(name: str, tool_input: Any = None, **kwargs: Any) -> ToolUse:
    return ToolUse(name, {} if tool_input is None else tool_input, **kwargs)


def reply(*blocks: Text | ToolUse | str, chunk: int = 12, **kwargs: Any) -> Reply:
    """``reply("Done.")``, ``reply(tool("read_document"))``, ``reply("Reading…", tool(...), delay_s=0.01)``.

    ``chunk``: characters per text delta for the plain strings among ``blocks``.
    """
    return Reply([Text(b, chunk) if isinstance(b, str) else b for b in blocks], **kwargs)


# ----------------------------------------------------------------------------- reading requests
def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    """The tool_result blocks of the request's last user message (what the model was just sent)."""
    messages = request.get("messages") or []
    if not messages or messages[-1].get("role") != "user":
        return []
    content = messages[-1].get("content")
    if not isinstance(content, list):
        return []
    return [block for block in content if isinstance(block, dict) and block.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    """A tool_result's content as one string (the loop sends a string; a list of text blocks is joined)."""
    content = block.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content or "")


def unfence(content: str) -> Any:
    """The JSON inside a ``<document-content nonce=…>`` fence (or the bare JSON) of a tool result."""
    body = content
    if body.startswith("<document-content"):
        body = body[body.index(">") + 1 : body.rindex("</document-content>")]
    return json.loads(body)


# ----------------------------------------------------------------------------- SSE encoding
def sse_bytes(event: str, data: dict[str, Any]) -> bytes:
    """One server-sent event on the wire: ``event:`` and ``data:`` lines, then a blank line."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


def _split(value: str, pieces: int) -> list[str]:
    """Cut ``value`` into ``pieces`` uneven chunks (mid-token, as the API's partial JSON is)."""
    if pieces <= 1 or len(value) < pieces:
        return [value]
    cuts = sorted({max(1, (len(value) * k) // pieces - k % 3) for k in range(1, pieces)})
    return [value[a:b] for a, b in itertools.pairwise([0, *cuts, len(value)]) if a < b]


def events_for(item: Reply, request: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The SSE events of one assistant message, in the API's order."""
    has_tool = any(isinstance(b, ToolUse) for b in item.blocks)
    stop_reason = item.stop_reason or ("tool_use" if has_tool else "end_turn")
    input_tokens = item.input_tokens
    if input_tokens is None:
        input_tokens = max(1, len(json.dumps(request.get("messages", []))) // 4)
    message_id = f"msg_fake{next(_ids):06d}"
    yield (
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": item.model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": input_tokens, "output_tokens": 1},
            },
        },
    )
    yield "ping", {"type": "ping"}
    output = 0
    for index, block in enumerate(item.blocks):
        if isinstance(block, Text):
            yield (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                },
            )
            step = max(1, block.chunk)
            for start in range(0, len(block.text), step):
                piece = block.text[start : start + step]
                output += 1
                yield (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "text_delta", "text": piece},
                    },
                )
        else:
            yield (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "tool_use", "id": block.id, "name": block.name, "input": {}},
                },
            )
            raw = (
                block.raw_json if block.raw_json is not None else json.dumps(block.input, ensure_ascii=False)
            )
            for piece in ["", *_split(raw, block.pieces)]:
                output += 1
                yield (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": piece},
                    },
                )
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": item.output_tokens or output},
        },
    )
    yield "message_stop", {"type": "message_stop"}
