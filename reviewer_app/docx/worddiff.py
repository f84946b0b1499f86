"""The one word diff: how the redline an edit writes and the compare report cut a text into changes.

Texts are split into words, spaces and punctuation; matching runs of tokens stay untouched.
Matches too small to read (a lone space or comma between two changes, or a word or two kept
between two long changes, as Word's and WmlComparer's compare do) are folded into the change
around them, and a diff broken into many small pieces collapses into one replacement
of the changed stretch, the way a careful drafter would mark it up by hand.

The edit engine writes :func:`word_diff`'s hunks as tracked changes (and so does a compare
redline, through the engine); the compare report shows the same diff as :func:`diff_segments`.
One rule differs, by contract: the report's tokens are whitespace-separated (tool contract §10,
whose exact line ``Beta [-paragraph.-]{+clause.+}`` prompts quote), so it shows a changed word
with the punctuation stuck to it where the redline marks the word alone. A caller with a budget (the
compare of a whole document) may refuse the token table; the texts' differing middle (between
their common beginning and end) is then one replacement.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass

#: Words, spaces and punctuation: how the edit engine (and so the redline) cuts a text.
WORDS = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)
#: Whitespace and what lies between: how the compare report cuts a text (contract §10).
WHITESPACE_WORDS = re.compile(r"\s+|\S+")
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


def _is_word(token: str) -> bool:
    return any(ch.isalnum() or ch == "_" for ch in token)


def _offsets(tokens: list[str]) -> list[int]:
    """Character offset of each token, and the text's length last."""
    positions = [0]
    for tok in tokens:
        positions.append(positions[-1] + len(tok))
    return positions


def _opcodes(
    a: list[str], b: list[str], afford: Callable[[int], bool] | None
) -> list[tuple[int, int, int, int]]:
    """Token spans ``(a_start, a_end, b_start, b_end)`` that differ, before readability rules.

    The budget is charged for the texts' differing middle (what lies between their common
    beginning and end), the table a diff really fills. The diff reads on from the end of the
    common beginning, so a word removed after it goes with the space that follows it ("ipsum
    [dolor ]sit"), and up to the texts' ends, so a word inserted before a repeated one lands
    after the words it follows ("of [receipt of ]invoice", not "days[ of receipt] of invoice").
    """
    start, limit = 0, min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end = 0
    while end < limit - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
        end += 1
    middle = (len(a) - start - end) * (len(b) - start - end)
    if afford is not None and middle and not afford(middle):
        return [(start, len(a) - end, start, len(b) - end)]
    matcher = difflib.SequenceMatcher(None, a[start:], b[start:], autojunk=False)
    return [
        (i1 + start, i2 + start, j1 + start, j2 + start)
        for op, i1, i2, j1, j2 in matcher.get_opcodes()
        if op != "equal"
    ]


def word_diff(
    old: str, new: str, afford: Callable[[int], bool] | None = None, tokens: re.Pattern[str] = WORDS
) -> list[Hunk]:
    """Hunks turning ``old`` into ``new``, in order, with readability rules applied.

    ``afford(cells)`` is asked before a token table of ``cells`` cells is built (a budget shared
    by a whole comparison); refused, the texts' differing middle is one replacement. ``tokens``
    cuts the texts (:data:`WORDS` or :data:`WHITESPACE_WORDS`).
    """
    if old == new:
        return []
    a, b = tokens.findall(old), tokens.findall(new)
    a_pos, b_pos = _offsets(a), _offsets(b)
    changes: list[list[int]] = []
    for i1, i2, j1, j2 in _opcodes(a, b, afford):
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


def diff_segments(old: str, new: str, afford: Callable[[int], bool] | None = None) -> list[dict[str, str]]:
    """:func:`word_diff` of whitespace-separated words as the compare contract's segments (§10):
    ``equal`` text, then per change ``del`` before ``ins``; adjacent segments of one type joined."""
    if old == new:
        return [{"type": "equal", "text": old}] if old else []
    segments: list[dict[str, str]] = []

    def add(kind: str, text: str) -> None:
        if not text:
            return
        if segments and segments[-1]["type"] == kind:
            segments[-1]["text"] += text
        else:
            segments.append({"type": kind, "text": text})

    last = 0
    for hunk in word_diff(old, new, afford, WHITESPACE_WORDS):
        add("equal", old[last : hunk.start])
        add("del", old[hunk.start : hunk.end])
        add("ins", hunk.new_text)
        last = hunk.end
    add("equal", old[last:])
    return segments
