"""Loading the Anthropic SDK off Qt's thread, so the window never waits for it.

Importing ``anthropic`` takes a second or more, its first client another ~110 ms of lazy
imports, and its stream event models ~65 ms of pydantic schema building on first use; done on
Qt's thread during the first turn, each would freeze the window. Opening a document starts
:func:`start_loading_client_library` on a worker thread; the first turn awaits
:func:`client_library_ready` without blocking the event loop.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import importlib
import logging
import sys
import threading
from typing import Any

log = logging.getLogger(__name__)

_CLIENT_IMPORT: concurrent.futures.Future[None] | None = None


def start_loading_client_library() -> concurrent.futures.Future[None]:
    """Import ``anthropic`` on a worker thread now, not on Qt's thread at the first Send.

    The import takes seconds on a busy machine; done inside the first turn it would freeze the
    window. The first turn awaits the returned future (see :func:`client_library_ready`) rather
    than block on Python's import lock while the worker is still importing.
    """
    global _CLIENT_IMPORT
    if _CLIENT_IMPORT is None:
        future: concurrent.futures.Future[None] = concurrent.futures.Future()
        _CLIENT_IMPORT = future

        def run() -> None:
            try:
                importlib.import_module("anthropic")
            except BaseException as error:  # the turn reports it when it creates its client
                future.set_exception(error)
            else:
                _warm_stream_models()
                future.set_result(None)

        if "anthropic" in sys.modules:
            future.set_result(None)
        else:
            threading.Thread(target=run, name="import-anthropic", daemon=True).start()
    return _CLIENT_IMPORT


#: one event of each kind a streamed turn receives, so their models are built before the first turn
_WARM_EVENTS: tuple[dict[str, Any], ...] = (
    {
        "type": "message_start",
        "message": {
            "id": "warm",
            "type": "message",
            "role": "assistant",
            "content": [],
            "model": "warm",
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 0, "output_tokens": 0},
        },
    },
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}},
    {
        "type": "content_block_start",
        "index": 1,
        "content_block": {"type": "tool_use", "id": "t", "name": "n", "input": {}},
    },
    {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{}"}},
    {"type": "content_block_stop", "index": 1},
    {
        "type": "message_delta",
        "delta": {"stop_reason": "end_turn", "stop_sequence": None},
        "usage": {"output_tokens": 1},
    },
    {"type": "message_stop"},
)


def _warm_stream_models() -> None:
    """Pay the SDK's one-time costs on the worker thread: its first client (lazy imports, about
    110 ms) and its event models (pydantic builds each on first use, about 65 ms), which would
    otherwise stall the window during the first streamed turn. Best effort: the SDK's internals
    may change, and then the first turn simply pays for it. The warm-up client opens no socket."""
    try:
        import anthropic
        from anthropic._models import construct_type
        from anthropic.types import RawMessageStreamEvent

        _ = anthropic.AsyncAnthropic(api_key="warm-up", base_url="http://127.0.0.1:9").messages
        for event in _WARM_EVENTS:
            construct_type(type_=RawMessageStreamEvent, value=event)
    except Exception:  # a warm-up must never fail the import
        log.debug("could not warm the SDK's stream models", exc_info=True)


async def client_library_ready() -> None:
    """Wait, without blocking the event loop, until ``anthropic`` is imported."""
    future = start_loading_client_library()
    if not future.done():
        with contextlib.suppress(Exception):
            await asyncio.wrap_future(future)
