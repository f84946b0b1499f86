"""A client for servers that speak only OpenAI's ``/v1/chat/completions`` (LM Studio, vLLM, llama.cpp).

It offers the loop the one method it uses on ``anthropic.AsyncAnthropic`` -- ``messages.stream``
-- so the session, its budgets, fencing, events and retries are the same for both APIs. A request
built for the Messages API is translated (system prompt first; ``tool_use`` blocks become
``tool_calls``, ``tool_result`` blocks ``role: "tool"`` messages; tools through
:func:`.tools.to_openai_tools`), sent with ``stream: true``, and the SSE chunks are gathered into
a message the loop reads like Anthropic's: text and ``tool_use`` blocks, a stop reason
(``tool_calls`` -> ``tool_use``, ``length`` -> ``max_tokens``) and usage.

Failures are raised as the ``anthropic`` SDK's own exceptions (status errors with the server's
body, connection errors and time-outs), so :class:`.model_stream.ModelCaller` words them the same
way; a tool call whose arguments are not JSON ends the stream with the SDK's "Unable to parse
tool parameter JSON" error and the message so far, as the SDK does. No request goes anywhere but
the configured base URL.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .model_stream import BAD_TOOL_JSON
from .tools import to_openai_tools

_STOP = {"tool_calls": "tool_use", "function_call": "tool_use", "length": "max_tokens", "stop": "end_turn"}


@dataclass
class _Block:
    type: str
    text: str = ""
    id: str = ""
    name: str = ""
    input: Any = None
    arguments: str = ""


@dataclass
class _Usage:
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass
class _Message:
    model: str
    content: list[_Block] = field(default_factory=list)
    stop_reason: str | None = None
    usage: _Usage = field(default_factory=_Usage)


@dataclass
class _TextEvent:
    text: str
    type: str = "text"


def completions_url(base_url: str) -> str:
    """``…/v1/chat/completions`` for a base URL given with or without ``/v1``."""
    root = base_url.rstrip("/")
    return f"{root}/chat/completions" if root.endswith("/v1") else f"{root}/v1/chat/completions"


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(
        b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text"
    )


def to_chat_messages(system: Any, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The Messages API's system prompt and history as chat-completions messages."""
    out: list[dict[str, Any]] = []
    if system:
        out.append({"role": "system", "content": _text_of(system)})
    for message in messages:
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": str(content)}]
        if message.get("role") == "assistant":
            calls = [
                {
                    "id": b["id"],
                    "type": "function",
                    "function": {"name": b["name"], "arguments": json.dumps(b.get("input") or {})},
                }
                for b in blocks
                if b.get("type") == "tool_use"
            ]
            entry: dict[str, Any] = {"role": "assistant", "content": _text_of(blocks) or None}
            if calls:
                entry["tool_calls"] = calls
            out.append(entry)
            continue
        for block in blocks:
            if block.get("type") == "tool_result":
                out.append(
                    {
                        "role": "tool",
                        "tool_call_id": block["tool_use_id"],
                        "content": _text_of(block["content"]),
                    }
                )
        text = _text_of(blocks)
        if text:
            out.append({"role": "user", "content": text})
    return out


def to_chat_request(request: dict[str, Any]) -> dict[str, Any]:
    """A Messages API request (as the session builds it) as a chat-completions body."""
    body: dict[str, Any] = {
        "model": request["model"],
        "max_tokens": request["max_tokens"],
        "messages": to_chat_messages(request.get("system"), request["messages"]),
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    tools = request.get("tools")
    if tools:
        definitions = [
            {"name": t["name"], "description": t["description"], "inputSchema": t["input_schema"]}
            for t in tools
        ]
        body["tools"] = to_openai_tools(definitions)
    return body


class _Stream:
    """One streamed completion, read like the Anthropic SDK's message stream."""

    def __init__(self, client: OpenAIChatClient, request: dict[str, Any]) -> None:
        self._client = client
        self._request = request
        self._response: Any = None
        self._message = _Message(request["model"])
        self._calls: dict[int, _Block] = {}

    @property
    def current_message_snapshot(self) -> _Message:
        return self._message

    async def __aenter__(self) -> _Stream:
        import anthropic
        import httpx2

        body = to_chat_request(self._request)
        http = self._client.http
        try:
            request = http.build_request(
                "POST",
                self._client.url,
                json=body,
                timeout=self._request.get("timeout") or self._client.timeout,
            )
            self._response = await http.send(request, stream=True)
        except httpx2.TimeoutException as error:
            raise anthropic.APITimeoutError(request=error.request) from error
        except httpx2.HTTPError as error:
            raise anthropic.APIConnectionError(request=httpx2.Request("POST", self._client.url)) from error
        if self._response.status_code >= 400:
            await self._response.aread()
            await self._response.aclose()
            try:
                payload: Any = self._response.json()
            except ValueError:
                payload = {"error": {"message": self._response.text}}
            raise _status_error(anthropic, self._response, payload)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._response is not None:
            await self._response.aclose()

    def __aiter__(self) -> Any:
        return self._events()

    async def _events(self) -> Any:
        done = False
        # read to the end of the body, not just to [DONE]: a reader left mid-stream would be
        # finalised by the garbage collector, outside the event loop it belongs to
        async for line in self._response.aiter_lines():
            if done or not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                done = True
                continue
            chunk = json.loads(data)
            text = self._take(chunk)
            if text:
                yield _TextEvent(text)
        self._finish()

    def _take(self, chunk: dict[str, Any]) -> str:
        usage = chunk.get("usage")
        if isinstance(usage, dict):
            self._message.usage = _Usage(
                int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)
            )
        text = ""
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                text += delta["content"]
                content = self._message.content
                if content and content[-1].type == "text":
                    content[-1].text += delta["content"]
                else:
                    content.append(_Block("text", text=delta["content"]))
            for call in delta.get("tool_calls") or []:
                block = self._calls.get(call.get("index", 0))
                if block is None:
                    block = _Block("tool_use", id=call.get("id") or f"call_{len(self._calls)}", input={})
                    self._calls[call.get("index", 0)] = block
                    self._message.content.append(block)
                function = call.get("function") or {}
                block.name += function.get("name") or ""
                block.arguments += function.get("arguments") or ""
            if choice.get("finish_reason"):
                self._message.stop_reason = _STOP.get(choice["finish_reason"], "end_turn")
        return text

    def _finish(self) -> None:
        for block in self._calls.values():
            try:
                block.input = json.loads(block.arguments) if block.arguments.strip() else {}
            except ValueError as error:
                block.input = {}
                self._message.stop_reason = self._message.stop_reason or "tool_use"
                raise ValueError(f"{BAD_TOOL_JSON}: {block.arguments[:200]!r}") from error

    async def get_final_message(self) -> _Message:
        async for _event in self:
            pass
        return self._message


def _status_error(anthropic: Any, response: Any, payload: Any) -> Exception:
    """The SDK's status error for ``response``, with the server's message where it gave one."""
    error = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(error, str):
        payload = {"error": {"message": error}}
    message = str((payload.get("error") or {}).get("message") or response.reason_phrase)
    return anthropic.APIStatusError(message, response=response, body=payload)


class _Messages:
    def __init__(self, client: OpenAIChatClient) -> None:
        self._client = client

    def stream(self, **request: Any) -> _Stream:
        return _Stream(self._client, request)


class OpenAIChatClient:
    """What the loop needs of a client (``messages.stream``, ``close``), over chat completions."""

    def __init__(self, base_url: str, api_key: str, timeout: Any) -> None:
        import httpx2

        self.base_url = base_url
        self.api_key = api_key
        self.timeout = timeout
        self.url = completions_url(base_url)
        self.http = httpx2.AsyncClient(headers={"authorization": f"Bearer {api_key}"}, timeout=timeout)
        self.messages = _Messages(self)

    async def close(self) -> None:
        await self.http.aclose()
