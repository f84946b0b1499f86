"""The chat's one line for a tool's result: counts and page numbers, never the document text itself.

Each spec names its summary (:attr:`.tool_spec.ToolSpec.summary`); these are the shapes they share.
Every summary falls back to :func:`generic` for a result of an unexpected shape, which is also
what a host tool's result without a header line gets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def clip(text: str, limit: int = 200) -> str:
    """One line of at most ``limit`` characters (an ellipsis marks the cut)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def count(n: int, word: str, plural: str | None = None) -> str:
    """``1 block``, ``3 blocks``; ``plural`` for a word that does not just take an s (``stories``)."""
    return f"{n} {word}" if n == 1 else f"{n} {plural or word + 's'}"


def generic(result: Any) -> str:
    """A list's length, or "done": what any result can be summed up as."""
    if isinstance(result, list):
        return count(len(result), "item")
    return "done"


def counted(noun: str, plural: str | None = None) -> Callable[[Any], str]:
    """A summary for a read returning a list: how many ``noun`` it returned."""

    def summary(result: Any) -> str:
        return count(len(result), noun, plural) if isinstance(result, list) else generic(result)

    return summary


def of_mapping(summarize: Callable[[Mapping[str, Any]], str]) -> Callable[[Any], str]:
    """A summary for a tool returning an object: ``summarize`` it, else :func:`generic`."""

    def summary(result: Any) -> str:
        return summarize(result) if isinstance(result, Mapping) else generic(result)

    return summary


def _edit_counts(result: Mapping[str, Any]) -> str:
    parts = [
        f"{len(result.get(key) or [])} {key}"
        for key in ("applied", "queued", "replayed", "skipped")
        if result.get(key)
    ]
    return ", ".join(parts) or "nothing applied"


#: an edit's summary: how many operations were applied, queued, replayed and skipped
edit_counts = of_mapping(_edit_counts)


def flag(
    key: str, yes: str, no: str | None = None, *, otherwise: Callable[[Any], str] = generic
) -> Callable[[Any], str]:
    """``yes`` or ``no`` (``yes`` when not given) by a result's boolean ``key`` (``{"shown": true}``);
    ``otherwise`` for a result without it."""

    def summary(result: Any) -> str:
        if isinstance(result, Mapping) and key in result:
            return yes if result[key] or no is None else no
        return otherwise(result)

    return summary
