"""Running a playbook review: the positions given to the model as its task, turn after turn.

:class:`PlaybookRun` drives an :class:`~reviewer_app.agent.session.AgentSession` (the app's
chat session or the CLI's) through as many turns as the playbook needs. Each turn's task names
a share of the positions still unanswered, small enough for the turn's tool budget (a position
costs a few reads and a record_finding call) and for the model's context window when it is
known; the model answers each with ``record_finding`` (offered only during these turns). The
run ends when every position is answered, when a turn answers none of its positions (the model
is not going to: the rest stay unanswered, never guessed), or when the user stops it or the
server fails. What was recorded is kept in every case, and saved after every turn.

The task text follows :mod:`..prompt`'s rules: the playbook is the lawyer's own (instructions,
not fenced), sent as JSON with any fence marker made inert; the document's name is a quoted
string; document text only ever reaches the model through the fenced reads.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..context_budget import estimate_tokens
from ..events import AgentEvent, TurnDone
from ..prompt import escape_fence_body, quoted, result_json
from .model import PlaybookFinding, PlaybookReview, Position
from .record_finding import RECORD_FINDING, record_finding_tool

#: tool calls a position needs on average: a read or two, the finding, sometimes a proposal
CALLS_PER_POSITION = 3
#: share of the model's input room the task text may take (the reads need the rest)
TASK_SHARE = 0.25

_TASK = """\
Review this contract{document} against the lawyer's playbook {name}{kind}: positions {first}-{last} \
of {total} are below{remaining}.

For each position: find the clauses that concern it (get_document_outline, then read_section or a \
scoped find_text), decide whether the contract meets the standard position, deviates from it, is \
silent on it (missing) or the position does not apply (not_applicable), and call record_finding \
once for it, citing the blocks and the exact quotes your answer rests on. Where the contract \
deviates, propose the first acceptable fallback (or the model clause) with suggest_changes, and \
give those operation ids as the finding's proposalIds. Put a comment meant for the other side in \
`comment` with commentAudience "external"; a note only for the lawyer with "internal". When you \
cannot tell, do not guess: leave the position unrecorded and say why. Finish with a short summary.

The positions (the lawyer's own, as JSON):
{positions}"""


def _position_json(position: Position) -> dict[str, Any]:
    """What the model needs of a position (empty fields left out to spare the context)."""
    return {k: v for k, v in position.to_dict().items() if v not in ("", [], None)}


def task_text(review: PlaybookReview, chunk: Sequence[Position], document_name: str | None = None) -> str:
    """The user message of one playbook turn, for the positions in ``chunk``."""
    positions = review.playbook.positions
    order = {p.id: i + 1 for i, p in enumerate(positions)}
    numbers = [order[p.id] for p in chunk]
    later = len(review.unanswered()) - len(chunk)
    playbook = review.playbook
    return _TASK.format(
        document=f" ({quoted(document_name)})" if document_name else "",
        name=quoted(playbook.name),
        kind=f" for {quoted(playbook.contract_type)}" if playbook.contract_type else "",
        first=min(numbers),
        last=max(numbers),
        total=len(positions),
        remaining=f"; {later} more follow in a later turn" if later > 0 else "",
        positions=escape_fence_body(result_json([_position_json(p) for p in chunk])),
    )


@dataclass
class PlaybookRun:
    """One review of a document against a playbook, over ``session`` (see the module docstring).

    ``save(review)`` is called after every turn (the app and the CLI pass their
    :class:`~.findings_store.FindingsStore` write); ``on_record`` is told of every finding kept.
    After :meth:`events` is exhausted (or stopped), ``review.unanswered()`` lists what is left,
    ``usage`` the tokens spent and ``stop_reason`` how the last turn ended.
    """

    session: Any
    review: PlaybookReview
    save: Callable[[PlaybookReview], None] | None = None
    on_record: Callable[[PlaybookFinding], None] | None = None
    usage: dict[str, int] = field(default_factory=dict)
    turns: int = 0
    stop_reason: str | None = None

    def positions_per_turn(self) -> int:
        """How many positions one turn's tool budget affords."""
        return max(1, self.session.settings.max_tool_calls // CALLS_PER_POSITION)

    def next_chunk(self) -> list[Position]:
        """The next unanswered positions that fit one turn (at least one)."""
        pending = list(self.review.unanswered())
        limit = self.positions_per_turn()
        budget = self.session.budget
        room = math.inf if budget is None else budget.input_limit * TASK_SHARE
        name = self.session.document_name
        chunk = pending[:1]
        for position in pending[1:limit]:
            if estimate_tokens(task_text(self.review, [*chunk, position], name)) > room:
                break
            chunk.append(position)
        return chunk

    async def events(self) -> AsyncIterator[AgentEvent]:
        """Run the review's turns, yielding every event of each (the UI and the CLI show them)."""
        session = self.session
        tool = record_finding_tool(lambda: self.review, self.on_record)
        offered_before = session.host_tools.get(RECORD_FINDING)
        session.host_tools[RECORD_FINDING] = tool
        try:
            max_turns = 2 * math.ceil(len(self.review.playbook.positions) / self.positions_per_turn())
            while self.review.unanswered() and self.turns < max_turns:
                chunk = self.next_chunk()
                answered_before = len(self.review.findings)
                self.turns += 1
                try:
                    async for event in session.send(task_text(self.review, chunk, session.document_name)):
                        if isinstance(event, TurnDone):
                            self.stop_reason = event.stop_reason
                            for key, value in event.usage.items():
                                self.usage[key] = self.usage.get(key, 0) + int(value)
                        yield event
                finally:
                    self._save()
                if self.stop_reason in ("cancelled", "error"):
                    return
                if len(self.review.findings) == answered_before:
                    return  # a turn that answered nothing will not be followed by one that does
        finally:
            if offered_before is None:
                with contextlib.suppress(KeyError):
                    del session.host_tools[RECORD_FINDING]
            else:
                session.host_tools[RECORD_FINDING] = offered_before

    def _save(self) -> None:
        if self.save is not None:
            self.save(self.review)


__all__ = ["CALLS_PER_POSITION", "TASK_SHARE", "PlaybookRun", "task_text"]
