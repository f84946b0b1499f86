"""Note markers in a redline: a reference is not text, so the base's references stay where they are.

The edit engine refuses a replacement that drops, adds or renumbers a ``[^N]``/``[^eN]`` marker
(``protectedReference``): a note reference is an element pointing into the notes part, and the
revised version's notes are not in the base package. When the revised text's markers differ
from the base's (a note added, removed, renumbered, or an endnote turned into a footnote), the
revised text is written with the *base's* markers, each placed where the word alignment of the
two texts carries it; the revised version's own markers are left out. Accepting the redline then
gives the revised words around the base's notes, and rejecting it gives the base back exactly.
"""

from __future__ import annotations

import difflib
import re

MARKER = re.compile(r"\[\^e?\d+\]")
_TOKEN = re.compile(r"\s+|\S+")


def without_markers(text: str) -> str:
    """``text`` with its note markers left out: what a *new* paragraph of the redline can say.

    A revised-only paragraph's notes are not in the base package, and a marker written as text
    would read as a reference that is not there.
    """
    return MARKER.sub("", text) if "[^" in text else text


def markers(text: str) -> list[str]:
    """The note markers of a clean text, in order."""
    return MARKER.findall(text) if "[^" in text else []


def _strip(text: str) -> tuple[str, list[tuple[int, str]]]:
    """``text`` without markers, and (offset in the stripped text, marker) for each one."""
    out: list[str] = []
    found: list[tuple[int, str]] = []
    length = last = 0
    for match in MARKER.finditer(text):
        piece = text[last : match.start()]
        out.append(piece)
        length += len(piece)
        found.append((length, match.group()))
        last = match.end()
    out.append(text[last:])
    return "".join(out), found


def segment_edits(base_text: str, new_text: str) -> list[tuple[int, int, str]] | None:
    """The stretches between note markers that differ: ``(start, end, replacement)`` in the base.

    For a replacement the engine refuses because one readable change would span a marker:
    each stretch between two markers is rewritten on its own. None when the marker lists differ
    or a stretch that is empty in the base gains text (nothing to put a range on).
    """
    if markers(base_text) != markers(new_text):
        return None
    edits: list[tuple[int, int, str]] = []
    start = 0
    for old, new in zip(MARKER.split(base_text), MARKER.split(new_text), strict=True):
        if old != new:
            if not old:
                return None
            edits.append((start, start + len(old), new))
        start += len(old)
        match = MARKER.match(base_text, start)
        start = match.end() if match else start
    return edits


def _spans(old: str, new: str) -> list[tuple[bool, int, int, int, int]]:
    """Character spans ``(equal, old_start, old_end, new_start, new_end)`` of a word alignment."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    a_pos, b_pos = [0], [0]
    for tok in a:
        a_pos.append(a_pos[-1] + len(tok))
    for tok in b:
        b_pos.append(b_pos[-1] + len(tok))
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return [
        (tag == "equal", a_pos[i1], a_pos[i2], b_pos[j1], b_pos[j2])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
    ]


def _carry(offset: int, spans: list[tuple[bool, int, int, int, int]]) -> int:
    """Where a position of the old text lands in the new one (a changed stretch: its start, or
    its end when the position closes the stretch)."""
    for equal, o1, o2, n1, n2 in spans:
        if o1 <= offset <= o2:
            if equal:
                return n1 + (offset - o1)
            return n2 if offset == o2 else n1
    return spans[-1][4] if spans else 0


def with_base_markers(base_text: str, revised_text: str) -> str:
    """``revised_text`` carrying exactly ``base_text``'s markers (unchanged when they already agree)."""
    theirs, ours = markers(revised_text), markers(base_text)
    if ours == theirs:
        return revised_text
    if len(ours) == len(theirs):  # renumbered or retyped notes: the base's, where the revised put them
        replacements = iter(ours)
        return MARKER.sub(lambda _match: next(replacements), revised_text)
    old, placed = _strip(base_text)
    new, _ = _strip(revised_text)
    spans = _spans(old, new)
    out: list[str] = []
    last = 0
    for offset, marker in placed:
        at = max(_carry(offset, spans), last)
        out.append(new[last:at])
        out.append(marker)
        last = at
    out.append(new[last:])
    return "".join(out)
