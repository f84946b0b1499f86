"""The events one agent turn yields; the chat dock and the ``reviewer agent`` command consume the same ones.

Each event is a small frozen dataclass with a ``kind`` (``text_delta``, ``tool_call``,
``tool_result``, ``edit_batch``, ``turn_done``, ``error``, ``retry`` when a stalled or
broken stream is sent again, and ``profile_changed`` when the model is given other tools) and
a :meth:`to_dict` for transcripts and JSON output. A turn ends with exactly one ``turn_done``
unless its task is cancelled from outside (then nothing more can be yielded;
:attr:`AgentSession.last_turn` still holds what ran).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(frozen=True)
class AgentEvent:
    """Base class: ``kind`` names the event; ``to_dict()`` is its JSON form."""

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        data = {"kind": self.kind}
        data.update({f.name: getattr(self, f.name) for f in dataclasses.fields(self)})
        return data


@dataclass(frozen=True)
class TextDelta(AgentEvent):
    """A piece of the model's answer, as it streams."""

    kind: ClassVar[str] = "text_delta"
    text: str


@dataclass(frozen=True)
class ToolCall(AgentEvent):
    """The model called a tool (about to run)."""

    kind: ClassVar[str] = "tool_call"
    id: str
    name: str
    input: Any


@dataclass(frozen=True)
class ToolResult(AgentEvent):
    """What the tool answered; the same outcome, success or error, went back to the model.

    ``unchanged``: an identical read earlier in the turn gave the same result, so the model was
    told ``{"unchanged": true}`` instead of the text again.
    """

    kind: ClassVar[str] = "tool_result"
    id: str
    name: str
    ok: bool
    summary: str
    result: Any = None
    error: str | None = None
    unchanged: bool = False


@dataclass(frozen=True)
class EditBatch(AgentEvent):
    """The operations of one suggest_changes / add_comment call, each with its status.

    ``status`` per operation: ``applied`` (a tracked change or comment is in the document),
    ``queued`` (a proposal awaiting review), ``replayed`` (an identical resend, not applied
    twice), ``skipped`` (with ``reason``), or ``rejected`` (the whole call was refused: ``error``).
    A queued row names the proposal holding it (``proposalId``), an applied one the tracked changes
    and comment it made (``revisionIds``, ``commentId``): what the chat's card acts on.
    """

    kind: ClassVar[str] = "edit_batch"
    id: str
    tool: str
    mode: str
    operations: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def counts(self) -> dict[str, int]:
        tally: dict[str, int] = {}
        for op in self.operations:
            tally[op["status"]] = tally.get(op["status"], 0) + 1
        return tally


@dataclass(frozen=True)
class TurnDone(AgentEvent):
    """The turn is over. ``stop_reason``: the model's (``end_turn``, ``max_tokens``, ``refusal``…)
    or the loop's (``cancelled``, ``error``, ``round_trip_limit``). ``note`` explains a cut turn
    to the user; ``ran`` lists the tool calls that ran (their effects stay)."""

    kind: ClassVar[str] = "turn_done"
    stop_reason: str
    usage: dict[str, int] = field(default_factory=dict)
    round_trips: int = 0
    tool_calls: int = 0
    note: str | None = None
    ran: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class ErrorEvent(AgentEvent):
    """The turn could not go on: the model server failed, or the request was refused."""

    kind: ClassVar[str] = "error"
    message: str
    host: str | None = None


@dataclass(frozen=True)
class ProfileChanged(AgentEvent):
    """The session gave the model another tool profile during the turn (see :mod:`.profiles`).

    So far always to the pipeline, because the model cannot call tools: ``reason`` is
    ``no_tools`` (the server said the model takes none) or ``bad_tool_format`` (two tool calls
    arrived with unreadable arguments). The user is told, since the turn goes on differently:
    ``message`` says it in English for the command line; the chat words it from ``reason``.
    """

    kind: ClassVar[str] = "profile_changed"
    profile: str
    reason: str
    message: str


#: what the user is told when the model is switched to the pipeline, by reason
PIPELINE_SWITCH_MESSAGES = {
    "no_tools": "This model does not call tools (its server says so); Reviewer switched to plain edit "
    "JSON: the model reads the document as text and answers with the edits.",
    "bad_tool_format": "This model did not call tools correctly twice; Reviewer switched to plain edit "
    "JSON: the model reads the document as text and answers with the edits.",
}


@dataclass(frozen=True)
class Retry(AgentEvent):
    """The stream stalled or broke; the request is sent again once. The text of the broken reply
    (``discarded``) will be streamed again from its start: a UI drops what it showed of it."""

    kind: ClassVar[str] = "retry"
    reason: str
    discarded: str = ""
