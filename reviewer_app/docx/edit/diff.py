"""Word-level diff that reads like a lawyer's redline, not confetti.

Texts are split into words, spaces and punctuation; matching runs of tokens stay untouched.
Matches too small to read (a lone space or comma between two changes) are folded into the
change around them, and a diff broken into many small pieces collapses into one replacement
of the changed stretch, the way a careful drafter would mark it up by hand.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)
#: Above this many change hunks per hundred tokens the redline is unreadable: replace whole.
MAX_HUNKS_PER_100_TOKENS = 12
#: An unchanged stretch shorter than this many word tokens between two changes is absorbed.
MIN_KEPT_WORDS = 1
#: Two separate edits always stay separate; fragmentation starts at three.
MIN_HUNKS_TO_COLLAPSE = 3


@dataclass(frozen=True, slots=True)
class Hunk:
    """Replace ``old[start:end]`` with ``new_text`` (an insertion when start == end)."""

    start: int
    end: int
    new_text: str


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _is_word(token: str) -> bool:
    return bool(token) and (token[0].isalnum() or token[0] == "_")


def word_diff(old: str, new: str) -> list[Hunk]:
    """Hunks turning ``old`` into ``new``, in order, with readability rules applied."""
    if old == new:
        return []
    a, b = _tokens(old), _tokens(new)
    a_pos = [0]
    for tok in a:
        a_pos.append(a_pos[-1] + len(tok))
    b_pos = [0]
    for tok in b:
        b_pos.append(b_pos[-1] + len(tok))
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    # (a_start, a_end, b_start, b_end) in token units
    changes: list[list[int]] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        if changes:
            last = changes[-1]
            between = a[last[1] : i1]
            if sum(1 for t in between if _is_word(t)) < MIN_KEPT_WORDS:
                last[1], last[3] = i2, j2
                continue
        changes.append([i1, i2, j1, j2])
    if len(changes) >= MIN_HUNKS_TO_COLLAPSE and len(changes) * 100 > MAX_HUNKS_PER_100_TOKENS * max(
        len(a), len(b)
    ):
        changes = [[changes[0][0], changes[-1][1], changes[0][2], changes[-1][3]]]
    return [Hunk(a_pos[i1], a_pos[i2], new[b_pos[j1] : b_pos[j2]]) for i1, i2, j1, j2 in changes]
