"""The model-facing history: what is stored, what is sent, and how a restored one is made valid.

The session stores tool results *unfenced* with a private ``_fence`` flag; :func:`render`
wraps the flagged ones in the session's fence when a request is built, so a restored
conversation is fenced with the new session's nonce. User text is always a list of text blocks
so a note (a stopped turn, a restored conversation) can precede it in the same message, and a
new message after tool results joins that user message instead of breaking the alternation.
"""

from __future__ import annotations

from typing import Any

from .prompt import fence

NOT_RUN_ENDED = "not run: the session ended before this call could run"


def render(messages: list[dict[str, Any]], nonce: str, cache_last: bool = False) -> list[dict[str, Any]]:
    """The history as sent: document-text results fenced with ``nonce``.

    ``cache_last`` marks the last block as a prompt-cache breakpoint, so each round trip of a
    tool loop re-reads the growing conversation from the cache instead of paying for it again.
    """
    out: list[dict[str, Any]] = []
    for message in messages:
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            message = {"role": "user", "content": [sendable(block, nonce) for block in content]}
        out.append(message)
    if cache_last and out and isinstance(out[-1].get("content"), list) and out[-1]["content"]:
        last = out[-1]
        blocks = list(last["content"])
        blocks[-1] = {**blocks[-1], "cache_control": {"type": "ephemeral"}}
        out[-1] = {"role": last["role"], "content": blocks}
    return out


def append_user_text(messages: list[dict[str, Any]], text: str, note: str | None = None) -> None:
    """Add the user's ``text`` (after ``note``), joining a trailing user message if there is one."""
    blocks: list[dict[str, Any]] = []
    if note:
        blocks.append({"type": "text", "text": note})
    blocks.append({"type": "text", "text": text})
    if messages and messages[-1].get("role") == "user":
        last = messages[-1]
        content = last["content"]
        if not isinstance(content, list):
            content = [{"type": "text", "text": str(content)}]
        last["content"] = [*content, *blocks]
    else:
        messages.append({"role": "user", "content": blocks})


def sendable(block: dict[str, Any], nonce: str) -> dict[str, Any]:
    """A stored block as the API takes it: a document-text result fenced, private keys dropped."""
    if block.get("type") != "tool_result" or "_fence" not in block:
        return block
    sent = {k: v for k, v in block.items() if k != "_fence"}
    if block["_fence"]:
        sent["content"] = fence(block["content"], nonce)
    return sent


def assistant_content(message: Any) -> list[dict[str, Any]]:
    """The assistant message as plain request blocks (text and tool_use; empty text dropped)."""
    blocks: list[dict[str, Any]] = []
    for block in getattr(message, "content", None) or []:
        kind = getattr(block, "type", None)
        if kind == "text":
            if block.text:
                blocks.append({"type": "text", "text": block.text})
        elif kind == "tool_use":
            args = block.input if isinstance(block.input, dict) else {}
            blocks.append({"type": "tool_use", "id": block.id, "name": block.name, "input": args})
        elif kind in ("thinking", "redacted_thinking") and hasattr(block, "to_dict"):
            blocks.append(block.to_dict())
    return blocks


def repair(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Make a restored history valid: every tool_use answered by a tool_result in the next message."""
    repaired: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        repaired.append(message)
        content = message.get("content")
        if message.get("role") != "assistant" or not isinstance(content, list):
            continue
        uses = [b["id"] for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
        if not uses:
            continue
        following = messages[index + 1] if index + 1 < len(messages) else None
        answered = set()
        if following is not None and isinstance(following.get("content"), list):
            answered = {b.get("tool_use_id") for b in following["content"] if b.get("type") == "tool_result"}
        missing = [
            {"type": "tool_result", "tool_use_id": use_id, "content": NOT_RUN_ENDED, "is_error": True}
            for use_id in uses
            if use_id not in answered
        ]
        if not missing:
            continue
        if (
            following is not None
            and following.get("role") == "user"
            and isinstance(following.get("content"), list)
        ):
            following["content"] = [*missing, *following["content"]]
        else:
            repaired.append({"role": "user", "content": missing})
    return repaired
