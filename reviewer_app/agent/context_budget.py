"""How much a request weighs, and how to make it fit a model's context window.

A laptop's model behind Ollama or llama.cpp often has a context of a few thousand tokens, and a
request over it is refused (llama.cpp: "the request exceeds the available context size") or,
worse, silently cut. So when the context window is known (a setting, or what the server reports,
:mod:`.model_info`), every request is sized before it is sent: system prompt + tools + history,
plus the reply's ``max_tokens``, must fit under the window less a safety margin.

Tokens are *estimated* without a tokenizer: characters of the JSON that is sent divided by
:data:`CHARS_PER_TOKEN` (3.5). English prose runs near 4 characters a token and JSON punctuation
lower, so 3.5 errs on the heavy side; the margin covers the rest. Nothing here imports a model.

What gives way when a request is too heavy, in order: old read results in the history are left
out (the model is told, and can read again); a new read result is cut to the room left (blocks,
matches or comments dropped from its end, with ``truncated`` and where to continue); and when
even the system prompt, the tools and the user's message cannot fit, the turn ends with
:func:`too_small_message`, which says how big the context is and how big it must be.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

CHARS_PER_TOKEN = 3.5
#: share of the window kept free for the estimate's error
SAFETY_MARGIN = 0.1
#: the least a reply may have; below this a review cannot even say what it did
MIN_REPLY_TOKENS = 256
#: what an old read result becomes when the history is too long
LEFT_OUT = "[This result was left out to fit the model's context window; read again if you need it.]"
#: list fields of read results that can be cut from the end
_CUTTABLE = ("blocks", "matches", "comments", "changes", "sections", "stories", "items")


def estimate_tokens(value: Any) -> int:
    """Tokens of ``value`` as sent: its JSON (strings as they are) divided by 3.5, rounded up."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def reply_tokens(context_window: int, max_tokens: int) -> int:
    """The ``max_tokens`` a request asks for: the setting, but at most a quarter of the window."""
    return max(MIN_REPLY_TOKENS, min(max_tokens, context_window // 4))


def too_small_message(context_window: int, needed: int) -> str:
    """The sentence a person can act on when not even the smallest request fits."""
    return (
        f"This model's context is {context_window:,} tokens; Reviewer needs at least {needed:,} "
        "(estimated) for its instructions, tools and your message. Raise the context on the server "
        "(Ollama: the num_ctx option or OLLAMA_CONTEXT_LENGTH; llama.cpp: --ctx-size), or set a "
        "smaller tool profile in Settings ▸ Model."
    )


class ContextTooSmallError(RuntimeError):
    """Even the smallest request does not fit; ``str()`` is :func:`too_small_message`."""


@dataclass(frozen=True)
class Budget:
    """The room of one model: its window, and what one request may spend of it."""

    context_window: int
    max_tokens: int

    @property
    def reply(self) -> int:
        return reply_tokens(self.context_window, self.max_tokens)

    @property
    def input_limit(self) -> int:
        """Tokens the request's input (system, tools, messages) may take."""
        return int(self.context_window * (1 - SAFETY_MARGIN)) - self.reply

    def fit_history(
        self, fixed: int, messages: list[dict[str, Any]], measure: Callable[[list[dict[str, Any]]], int]
    ) -> list[dict[str, Any]]:
        """``messages`` with the oldest read results left out until ``fixed`` + messages fits.

        ``fixed`` is the system prompt and tools; ``measure`` estimates messages as they are sent
        (fenced). Read results go oldest first, the newest last; the user's words and the
        results of edits stay. Raises :class:`ContextTooSmallError` when nothing more can go.
        """
        room = self.input_limit - fixed
        if measure(messages) <= room:
            return messages
        out = [dict(m) for m in messages]
        for message in out:
            content = message.get("content")
            if message.get("role") != "user" or not isinstance(content, list):
                continue
            message["content"] = [_left_out(block) for block in content]
            if measure(out) <= room:
                return out
        needed = fixed + measure(out) + self.reply
        window = math.ceil(needed / (1 - SAFETY_MARGIN))
        raise ContextTooSmallError(too_small_message(self.context_window, window))


def _left_out(block: dict[str, Any]) -> dict[str, Any]:
    """A read result replaced by :data:`LEFT_OUT` (an edit's result stays: it records a change)."""
    if block.get("type") == "tool_result" and block.get("_fence") is True:
        return {**block, "content": LEFT_OUT, "_fence": False}
    return block


def _sent_tokens(result: Any) -> int:
    """A result's weight in the request: its JSON, sent as a JSON string (quotes escaped again)."""
    body = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
    return estimate_tokens(json.dumps(body, ensure_ascii=False))


def fit_result(result: Any, room_tokens: int) -> Any:
    """A read result cut to ``room_tokens``: items dropped from the end of its longest list.

    The cut result says so (``truncated``, ``cutToFitContext``) and, where the items have block
    ids, where to continue (``nextAfterBlockId``). A result that fits, or that has no list to
    cut, is returned as it is (the history check then decides).
    """
    if _sent_tokens(result) <= room_tokens or not isinstance(result, Mapping):
        return result
    lists = [k for k in _CUTTABLE if isinstance(result.get(k), list) and result[k]]
    if not lists:
        return result
    key = max(lists, key=lambda k: len(result[k]))
    items = list(result[key])
    total = len(items)
    cut = dict(result)
    low, high = 0, total  # the most items that fit, by bisection
    while low < high:
        middle = (low + high + 1) // 2
        cut[key] = items[:middle]
        if _sent_tokens(cut) + 60 <= room_tokens:
            low = middle
        else:
            high = middle - 1
    cut[key] = items[:low]
    cut["truncated"] = True
    cut["cutToFitContext"] = (
        f"Only {low} of {total} {key} fit the model's context window. Read a narrower part "
        "(read_section with a smaller maxBlocks, or a scoped find_text) for the rest."
    )
    last = items[low - 1] if low else None
    if isinstance(last, Mapping) and last.get("blockId") and key == "blocks":
        cut["nextAfterBlockId"] = last["blockId"]
    return cut
