"""Does the configured model answer? One tiny streamed request, with a sentence a person can act on.

Settings ▸ Test connection runs this before anyone relies on the chat: a firm's local server
with a typo in its URL, a model name the server does not have, or a revoked key should be found
while the person is still in the dialog, not in the middle of a review. The request is the
chat's own kind (streamed Messages API) with ``max_tokens`` 1, no tools and no document text,
and no retries, so the answer comes in a second or two and costs next to nothing. A local
server is then asked for its model's context window and whether it calls tools (:mod:`.model_info`).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from .model_info import discover
from .model_stream import describe_status
from .settings import AgentNotConfiguredError, AgentSettings, is_anthropic_endpoint

#: what is sent: no document text, nothing the person typed
PROBE_MESSAGES = ({"role": "user", "content": "Reply with the single word OK."},)


@dataclass(frozen=True)
class ConnectionReport:
    """The outcome of one check: ``ok``, a sentence for the person, and how long it took."""

    ok: bool
    message: str
    elapsed_s: float


async def check_connection(settings: AgentSettings, timeout_s: float = 20.0) -> ConnectionReport:
    """Send one streamed one-token request with ``settings``; never raises for a failed check."""
    started = time.perf_counter()
    host = settings.host
    try:
        client = settings.replace(max_retries=0).make_client()
    except AgentNotConfiguredError as error:
        return ConnectionReport(False, str(error), 0.0)
    try:
        async with asyncio.timeout(timeout_s):
            async with client.messages.stream(
                model=settings.model, max_tokens=1, messages=list(PROBE_MESSAGES)
            ) as stream:
                message = await stream.get_final_message()
    except TimeoutError:
        return _failed(started, f"{host} did not answer within {timeout_s:g} s.")
    except Exception as error:  # every failure becomes the sentence the dialog shows
        return _failed(started, _explain(error, host, settings.model))
    finally:
        await client.close()
    elapsed = time.perf_counter() - started
    model = getattr(message, "model", "") or settings.model
    room = await _room(settings)
    return ConnectionReport(True, f"{host} answered as {model} in {elapsed:.1f} s.{room}", elapsed)


async def _room(settings: AgentSettings) -> str:
    """What the server says about the model's context window and tools, as a sentence (or "")."""
    if is_anthropic_endpoint(settings.base_url):
        return ""
    if settings.context_window:
        return f" Context window: {settings.context_window:,} tokens (from the settings)."
    info = await discover(settings.base_url or "", settings.model)
    parts = []
    if info.context_window:
        parts.append(f" Context window: {info.context_window:,} tokens ({info.source}).")
    else:
        parts.append(" The server does not report the model's context window; set it in the settings.")
    if info.calls_tools is False:
        parts.append(" The model does not call tools: Reviewer will send edits as JSON (the pipeline).")
    elif info.calls_tools:
        parts.append(" The model calls tools.")
    return "".join(parts)


def _failed(started: float, message: str) -> ConnectionReport:
    return ConnectionReport(False, message, time.perf_counter() - started)


def _explain(error: BaseException, host: str, model: str) -> str:
    """A sentence naming what to fix: the key, the model, the URL, or the server itself."""
    status = getattr(error, "status_code", None)
    if status == 401 or status == 403:
        return f"{host} refused the API key ({describe_status(error)})."
    if status == 404:
        return (
            f"{host} does not offer model {model!r} at this address ({describe_status(error)}). "
            "Check the model name, and that the server URL does not end in /v1."
        )
    if status is not None:
        return f"{host} answered with an error: {describe_status(error)}."
    cause: Any = error.__cause__ or error
    if type(error).__name__ == "APITimeoutError":
        return f"{host} did not answer in time."
    return f"Cannot reach {host}: {cause}."
