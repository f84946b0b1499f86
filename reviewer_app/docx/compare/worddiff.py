"""Word-level segments of a modified block (contract §10): ``equal`` / ``del`` / ``ins`` runs.

Tokens are whitespace-separated words and the whitespace between them, so ``paragraph.`` is one
token and a changed word shows whole (``Beta [-paragraph.-]{+clause.+}``). Readability rules keep
the result from turning into confetti: an unchanged stretch between two changes that holds no
real word (a space, a dash, a comma) or only one tiny word is folded into the change around it,
and a block broken into many small changes becomes one replacement of the changed stretch. The
token table is charged to the comparison's shared budget; past it a block is shown as one
replacement of everything between its common beginning and end.
"""

from __future__ import annotations

import difflib
import re

from .model import Budget

_TOKEN = re.compile(r"\s+|\S+")
#: Above this many changes per hundred words the block reads better as one replacement.
MAX_CHANGES_PER_100_WORDS = 12
#: Fragmentation is judged from this many separate changes on.
MIN_CHANGES_TO_COLLAPSE = 3
#: An unchanged stretch of one word this short (``a``, ``of``) between two changes is folded in.
TINY_WORD = 3


def _is_word(token: str) -> bool:
    return any(ch.isalnum() for ch in token)


def _weak(tokens: list[str]) -> bool:
    """True when an unchanged stretch is too small to read as a separate match."""
    words = [t for t in tokens if _is_word(t)]
    return not words or (len(words) == 1 and len(words[0]) <= TINY_WORD)


def _changes(a: list[str], b: list[str], budget: Budget) -> list[list[int]]:
    """``[a_start, a_end, b_start, b_end]`` token spans that differ, readability rules applied."""
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end = 0
    while end < limit - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
        end += 1
    mid_a, mid_b = a[start : len(a) - end], b[start : len(b) - end]
    if not mid_a and not mid_b:
        return []
    if mid_a and mid_b and budget.take("words", len(mid_a) * len(mid_b)):
        opcodes = difflib.SequenceMatcher(None, mid_a, mid_b, autojunk=False).get_opcodes()
    else:
        opcodes = [("replace", 0, len(mid_a), 0, len(mid_b))]
    changes: list[list[int]] = []
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        i1, i2, j1, j2 = i1 + start, i2 + start, j1 + start, j2 + start
        if changes and _weak(a[changes[-1][1] : i1]):
            changes[-1][1], changes[-1][3] = i2, j2
            continue
        changes.append([i1, i2, j1, j2])
    words = max(sum(1 for t in a if _is_word(t)), sum(1 for t in b if _is_word(t)), 1)
    if len(changes) >= MIN_CHANGES_TO_COLLAPSE and len(changes) * 100 > MAX_CHANGES_PER_100_WORDS * words:
        changes = [[changes[0][0], changes[-1][1], changes[0][2], changes[-1][3]]]
    return changes


def diff_segments(old: str, new: str, budget: Budget | None = None) -> list[dict[str, str]]:
    """Segments turning ``old`` into ``new``: equal text, then per change ``del`` before ``ins``."""
    if old == new:
        return [{"type": "equal", "text": old}] if old else []
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    segments: list[dict[str, str]] = []

    def add(kind: str, tokens: list[str]) -> None:
        text = "".join(tokens)
        if not text:
            return
        if segments and segments[-1]["type"] == kind:
            segments[-1]["text"] += text
        else:
            segments.append({"type": kind, "text": text})

    last = 0
    for i1, i2, j1, j2 in _changes(a, b, budget if budget is not None else Budget()):
        add("equal", a[last:i1])
        add("del", a[i1:i2])
        add("ins", b[j1:j2])
        last = i2
    add("equal", a[last:])
    return segments
