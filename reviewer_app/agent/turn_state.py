"""The state of one agent turn (a user message until the model stops), kept apart from the session.

Both the session's tool loop and a pipeline turn (a model that cannot call tools) advance a turn;
the pipeline is a module the session imports, so the turn it works on lives here and the pipeline
needs nothing from the session's module.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .executor import ToolRun
from .model_stream import Response
from .turn_tools import TurnTools


@dataclass
class Turn:
    """The state of one turn (a user message until the model stops), for the loop and the UI."""

    tools: TurnTools
    round_trips: int = 0
    usage: dict[str, int] = field(default_factory=dict)
    response: Response | None = None
    #: tool_use blocks of the current assistant message, and the results collected for them
    open_uses: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    running: asyncio.Future[ToolRun] | None = None
    text_buffer: list[str] = field(default_factory=list)
    stop_reason: str | None = None
    #: the outcome of the last tool call run (the pipeline reads its statuses)
    last_outcome: Any = None
    #: the user's message that started the turn
    user_text: str = ""

    @property
    def ran(self) -> list[dict[str, Any]]:
        return list(self.tools.ran)

    def add_usage(self, usage: Any) -> None:
        for key in (
            "input_tokens",
            "output_tokens",
            "cache_creation_input_tokens",
            "cache_read_input_tokens",
        ):
            value = getattr(usage, key, None) if not isinstance(usage, dict) else usage.get(key)
            if value:
                self.usage[key] = self.usage.get(key, 0) + int(value)
