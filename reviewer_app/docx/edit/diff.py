"""Word-level diff that reads like a lawyer's redline, not confetti.

Texts are split into words, spaces and punctuation; matching runs of tokens stay untouched.
Matches too small to read (a lone space or comma between two changes, or a word or two kept
between two long changes, as Word's and WmlComparer's compare do) are folded into the change
around them, and a diff broken into many small pieces collapses into one replacement
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
#: An unchanged stretch between two changes that is smaller than this share of their text (old
#: and new) is absorbed: "the" kept between two rewritten clauses is not a match a reader sees;
#: a text keeping less than this share of itself is rewritten, one replacement.
DETAIL_SHARE = 0.15
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
            kept = a_pos[i1] - a_pos[last[1]]
            around = a_pos[i2] - a_pos[last[0]] + b_pos[j2] - b_pos[last[2]] - 2 * kept
            if sum(1 for t in between if _is_word(t)) < MIN_KEPT_WORDS or kept < DETAIL_SHARE * around:
                last[1], last[3] = i2, j2
                continue
        changes.append([i1, i2, j1, j2])
    fragmented = len(changes) >= MIN_HUNKS_TO_COLLAPSE and len(
        changes
    ) * 100 > MAX_HUNKS_PER_100_TOKENS * max(len(a), len(b))
    kept = len(old) - sum(a_pos[i2] - a_pos[i1] for i1, i2, _, _ in changes)
    if fragmented or (len(changes) > 1 and kept < DETAIL_SHARE * max(len(old), len(new))):
        changes = [[changes[0][0], changes[-1][1], changes[0][2], changes[-1][3]]]
    return [
        _spacing(Hunk(a_pos[i1], a_pos[i2], new[b_pos[j1] : b_pos[j2]]), old) for i1, i2, j1, j2 in changes
    ]


def _spacing(hunk: Hunk, old: str) -> Hunk:
    """A space made longer (or shorter) is the added (or removed) space alone, not the old space
    deleted and a new one inserted."""
    was, now = old[hunk.start : hunk.end], hunk.new_text
    if not was or not now or was.strip() or now.strip():
        return hunk
    if now.startswith(was):
        return Hunk(hunk.end, hunk.end, now[len(was) :])
    if was.startswith(now):
        return Hunk(hunk.start + len(now), hunk.end, "")
    return hunk
