"""One model request: the stream, the idle watchdog, the one retry, and plain-language failures.

``anthropic`` is imported here lazily (when the first turn starts), never at package import.
:class:`StopGuard` is how :meth:`AgentSession.cancel` interrupts a turn: every await of the
loop runs inside an ``asyncio.timeout`` that ``cancel()`` reschedules to "now", so the await
ends at once with the stream closed behind it, while the consumer's own awaits (between events)
are never touched. The same timeout is the watchdog's backstop; the primary idle limit is the
HTTP read time-out ("no byte for N seconds", pings included), set per request.

A stalled or broken stream is sent again once, after a pause; the SDK's own retries cover
connection failures, 429 and 5xx/529 before a stream starts. After that the turn gets an
``error`` event naming the server: "the model server at <host> did not answer: …".
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Coroutine
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from .events import AgentEvent, ErrorEvent, Retry, TextDelta

BAD_TOOL_JSON = "Unable to parse tool parameter JSON"


class Stopped(Exception):
    """The user stopped the turn (``AgentSession.cancel``)."""


class _Idle(Exception):
    """The watchdog's backstop fired."""


class Broken(Exception):
    """The stream stalled or broke before the message was complete (retried once)."""


class Failed(Exception):
    """The request failed for good; ``str()`` is the message for the user."""


@dataclass
class Response:
    """What one request produced: the message (final or, for malformed tool JSON, partial)."""

    message: Any = None
    text: list[str] = field(default_factory=list)
    #: (detail) when a tool_use block's input was not valid JSON: its block is the last one
    bad_tool_json: str | None = None


class StopGuard:
    """Runs the loop's awaits so that :meth:`stop` can end the current one at once."""

    def __init__(self) -> None:
        self.stopped = False
        self._timeout: asyncio.Timeout | None = None

    def reset(self) -> None:
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True
        if self._timeout is not None:
            with contextlib.suppress(RuntimeError):
                self._timeout.reschedule(asyncio.get_running_loop().time())

    async def run(self, awaitable: Awaitable[Any], limit: float | None = None) -> Any:
        """Await ``awaitable``; raise :class:`Stopped` if stopped, :class:`_Idle` after ``limit`` s."""
        if self.stopped:
            if isinstance(awaitable, Coroutine):
                awaitable.close()
            raise Stopped
        try:
            async with asyncio.timeout(limit) as timeout:
                self._timeout = timeout
                try:
                    return await awaitable
                finally:
                    self._timeout = None
        except TimeoutError:
            if self.stopped:
                raise Stopped from None
            raise _Idle from None


def host_of_client(client: Any, fallback: str) -> str:
    """``host[:port]`` of the server ``client`` talks to (for messages that name it)."""
    base = getattr(client, "base_url", None)
    if base is None:
        return fallback
    parts = urlsplit(str(base))
    return parts.netloc or fallback


def _is_transport_error(error: BaseException) -> bool:
    """Network-level failures from the SDK or its HTTP stack (module names, not imports)."""
    for cls in type(error).__mro__:
        root = cls.__module__.split(".")[0]
        if root in ("httpx", "httpx2", "httpcore", "httpcore2", "anyio"):
            return True
    return isinstance(error, OSError | EOFError)


#: how servers say a request is larger than the model's context (llama.cpp, Ollama, vLLM/OpenAI)
_OVERFLOW = re.compile(
    r"exceeds? the available context size|exceed_context_size|prompt too long|"
    r"maximum context length|context length|context window",
    re.IGNORECASE,
)
OVERFLOW_ADVICE = (
    "The request is larger than the model's context window: set the model's context size in "
    "Settings ▸ Model (or REVIEWER_CONTEXT_WINDOW) so Reviewer sizes its requests, or raise it on "
    "the server (Ollama: num_ctx or OLLAMA_CONTEXT_LENGTH; llama.cpp: --ctx-size)."
)


def is_context_overflow(detail: str) -> bool:
    """True when a server's refusal says the request did not fit the model's context."""
    return bool(_OVERFLOW.search(detail))


def describe_status(error: Any) -> str:
    status = getattr(error, "status_code", None)
    body = getattr(error, "body", None)
    detail = ""
    if isinstance(body, dict):
        inner = body.get("error") if isinstance(body.get("error"), dict) else body
        detail = str(inner.get("message") or inner.get("type") or "")
    detail = detail or str(getattr(error, "message", "") or error)
    return f"HTTP {status}: {detail}" if status else detail


class ModelCaller:
    """Sends one request (with its one retry) and yields ``text_delta`` / ``retry`` / ``error`` events."""

    def __init__(self, client: Any, settings: Any, guard: StopGuard, host: str) -> None:
        self.client = client
        self.settings = settings
        self.guard = guard
        self.host = host

    async def call(self, request: dict[str, Any], response: Response) -> AsyncIterator[AgentEvent]:
        """Fill ``response``; on failure yield an ``error`` event and leave ``response.message`` None."""
        import anthropic

        for attempt in (1, 2):
            response.text = []
            try:
                async with contextlib.aclosing(self._once(request, response)) as events:
                    async for event in events:
                        yield event
                return
            except Broken as broken:
                if attempt == 2:
                    yield ErrorEvent(f"the model server at {self.host} did not answer: {broken}", self.host)
                    return
                yield Retry(str(broken), "".join(response.text))
                await self.guard.run(asyncio.sleep(self.settings.retry_backoff_s))
            except anthropic.APIStatusError as error:
                status = getattr(error, "status_code", 0) or 0
                verb = (
                    "did not answer" if status in (408, 409, 429) or status >= 500 else "refused the request"
                )
                detail = describe_status(error)
                advice = f". {OVERFLOW_ADVICE}" if is_context_overflow(detail) else ""
                yield ErrorEvent(f"the model server at {self.host} {verb}: {detail}{advice}", self.host)
                return
            except anthropic.APIConnectionError as error:
                cause = error.__cause__ or error
                detail = str(cause) or type(cause).__name__
                if isinstance(error, anthropic.APITimeoutError):
                    detail = f"no answer within {self.settings.idle_timeout_s:g} s"
                yield ErrorEvent(f"the model server at {self.host} did not answer: {detail}", self.host)
                return

    async def _once(self, request: dict[str, Any], response: Response) -> AsyncIterator[AgentEvent]:
        manager = self.client.messages.stream(**request)
        stream = await self.guard.run(manager.__aenter__())
        backstop = self.settings.idle_timeout_s * 2 + 1 if self.settings.idle_timeout_s else None
        try:
            iterator = stream.__aiter__()
            while True:
                try:
                    event = await self.guard.run(iterator.__anext__(), backstop)
                except StopAsyncIteration:
                    break
                except _Idle:
                    raise Broken(f"no data for {self.settings.idle_timeout_s:g} s") from None
                except ValueError as error:
                    if BAD_TOOL_JSON not in str(error) or _snapshot(stream) is None:
                        raise
                    response.message = _snapshot(stream)
                    response.bad_tool_json = str(error.__cause__ or error)
                    return
                except Stopped:
                    raise
                except Exception as error:
                    if _is_transport_error(error):
                        raise Broken(self._detail(error)) from error
                    if _is_api_error(error):
                        raise Broken(describe_status(error)) from error
                    raise
                if event.type == "text":
                    response.text.append(event.text)
                    yield TextDelta(event.text)
            message = _snapshot(stream)
            if message is None or message.stop_reason is None:
                raise Broken("the stream ended before the message was complete")
            response.message = message
        finally:
            await manager.__aexit__(None, None, None)

    def _detail(self, error: BaseException) -> str:
        if "Timeout" in type(error).__name__:
            return f"no data for {self.settings.idle_timeout_s:g} s"
        return str(error) or type(error).__name__


def _snapshot(stream: Any) -> Any:
    """The message accumulated so far, or None before ``message_start``."""
    try:
        return stream.current_message_snapshot
    except AssertionError:
        return None


def _is_api_error(error: BaseException) -> bool:
    """An ``anthropic.APIError`` (e.g. an ``error`` event in the middle of the stream)."""
    return any(
        cls.__module__.startswith("anthropic") and cls.__name__ == "APIError" for cls in type(error).__mro__
    )
