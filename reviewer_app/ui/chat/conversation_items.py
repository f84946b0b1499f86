"""A saved conversation as the chat shows it: the transcript's log turned back into display items.

The transcript's ``entries`` (see :mod:`reviewer_app.agent.transcript`) are the log a person
sees; this module reads them back into the same items a live turn produces (user messages,
answers, one line per tool call, edit cards with their current status, errors, notes,
"stopped"), so reopening a document shows the conversation as it was left.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import card_state, describe
from .card_state import CardState


@dataclass
class ToolLineData:
    """One tool call and what it answered (``ms`` only for calls timed in this session)."""

    name: str
    input: Any
    ok: bool | None = None
    summary: str = ""
    error: str | None = None
    ms: float | None = None
    #: what the tool answered (the line names a section from it)
    result: Any = None


@dataclass
class Item:
    """One thing in the conversation: ``kind`` is user, assistant, tool, cards, error, note or stopped."""

    kind: str
    text: str = ""
    tool: ToolLineData | None = None
    cards: list[CardState] = field(default_factory=list)
    host: str | None = None


def conversation_items(
    entries: Iterable[Mapping[str, Any]],
    queue: Mapping[str, Mapping[str, Any]],
    pending_changes: set[str],
) -> list[Item]:
    """Display items for a transcript's entries; cards get their status from ``queue`` (proposal
    id → proposal) and ``pending_changes`` (the tracked-change ids still in the document)."""
    entries = list(entries)
    outcomes = {
        str(e.get("card")): e for e in entries if e.get("kind") == card_state.CARD_STATUS and e.get("card")
    }
    items: list[Item] = []
    tools: dict[str, ToolLineData] = {}
    for entry in entries:
        kind = entry.get("kind")
        if kind == "user":
            items.append(Item("user", str(entry.get("text") or "")))
        elif kind == "assistant" and entry.get("text"):
            items.append(Item("assistant", str(entry["text"])))
        elif kind == "tool_call":
            line = ToolLineData(str(entry.get("name") or ""), entry.get("input"))
            tools[str(entry.get("id"))] = line
            items.append(Item("tool", tool=line))
        elif kind == "tool_result":
            line = tools.get(str(entry.get("id")))
            if line is not None:
                line.ok = bool(entry.get("ok"))
                line.summary = str(entry.get("summary") or "")
                line.error = entry.get("error")
                line.result = entry.get("result")
        elif kind == "edit_batch":
            cards = card_state.cards_from_entry(entry)
            for card in cards:
                card_state.restore_status(card, outcomes.get(card.key), queue, pending_changes)
            items.append(Item("cards", cards=cards))
        elif kind == "error":
            items.append(Item("error", str(entry.get("message") or ""), host=entry.get("host")))
        elif kind == "turn_done" and entry.get("note") and entry.get("stop_reason") != "cancelled":
            items.append(Item("note", str(entry["note"])))
        elif kind == "profile_changed" and entry.get("message"):
            items.append(Item("note", describe.profile_note(str(entry["message"]))))
        elif kind == "stopped":
            items.append(Item("stopped"))
    return items
