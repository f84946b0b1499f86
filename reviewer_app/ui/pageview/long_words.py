"""Where the page view adds break opportunities inside an absurdly long word.

Qt lays out a word longer than a line by scanning to the word's end for a break on every line
it fills, so a word of n characters costs about n²/line-length steps: a 9 MB string without a
space froze the window for minutes. The builder therefore sets a zero-width space
(:data:`BREAK_MARK`) after every :data:`MAX_UNBROKEN` characters of such a word. The mark is
layout only: it is left out of the paragraph's clean-text spans, so the document's text, the
caret and search positions read the word as written. A word that long never fits a line, so
it is broken anyway; the marks only add a short line every thousand characters.

Qt lays a block out again whole when the next block is inserted after it, so a layout slice
does not end right after a very long paragraph (:func:`ends_in_long_block`): a slice that
ended after a 9 MB word made Qt lay the word out twice.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QTextCursor

#: the longest stretch without a break opportunity the layout is given
MAX_UNBROKEN = 1000
BREAK_MARK = "\u200b"
#: a block this long takes Qt a noticeable time to lay out (about 0.1 s per 100,000 characters)
LONG_BLOCK = 100_000
#: characters Qt may break a line at (or after): spaces, hyphens, slashes, the mark itself
_UNBROKEN = re.compile(r"[^\s\-/\u200b]+")
_UNBROKEN_START = re.compile(r"[^\s\-/\u200b]*")


def long_word_cuts(text: str, carry: int) -> tuple[list[int], int]:
    """Offsets in ``text`` before which a :data:`BREAK_MARK` goes, and the new carry.

    ``carry`` is how many characters without a break opportunity came just before ``text`` in
    the same paragraph (a word may be split over many runs); the second value is the same count
    at the end of ``text``, for the next run.
    """
    if carry + len(text) <= MAX_UNBROKEN:
        return [], _trailing(text, carry)
    cuts: list[int] = []
    tail = 0
    for match in _UNBROKEN.finditer(text):
        start, end = match.span()
        stretch = start - carry if start == 0 else start  # where this unbroken stretch began
        while end - stretch > MAX_UNBROKEN:
            stretch += MAX_UNBROKEN
            cuts.append(stretch)
        tail = end - stretch if end == len(text) else 0
    return cuts, tail


def _trailing(text: str, carry: int) -> int:
    """Characters without a break opportunity at the end of ``text`` (plus ``carry`` if none):
    the leading stretch of the reversed text, matched in C (every run of a document asks)."""
    back = _UNBROKEN_START.match(text[::-1]).end()  # type: ignore[union-attr]  # `*` always matches
    return back if back < len(text) else carry + len(text)


def ends_in_long_block(cursor: QTextCursor) -> bool:
    """Whether the block ``cursor`` is in is too long to end a layout slice after.

    Writing the next paragraph inserts a block separator at this block's end, and Qt then lays
    this block out again whole; written in the same slice, it is laid out once.
    """
    return cursor.block().length() > LONG_BLOCK
