"""Numbers: words and figures that disagree (``thirty (45) days``) and manually typed
numbering that skips or repeats.

Which of the two is right cannot be known, so a mismatch has no quick fix.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .model import Finding
from .words import NUMBER_WORD, words_value

_WORDS = rf"(?:(?:{NUMBER_WORD})(?:[\s\-]+(?:and[\s\-]+)?(?=(?:{NUMBER_WORD})\b))?)+"
_WORDS_FIGURES = re.compile(
    rf"\b({_WORDS})\b(\s+(?:per\s*cent|percent|pounds|dollars|euros))?\s*\(\s*(?:[$£€]|USD|GBP|EUR)?\s*"
    r"(\d[\d,]*(?:\.\d+)?)\s*(?:%|per\s*cent|percent)?\s*\)",
    re.I,
)
_FIGURES_WORDS = re.compile(rf"\b(\d[\d,]*)\s*\(\s*({_WORDS})\s*\)", re.I)
#: Both patterns need a figure next to a bracket; most paragraphs have none and skip them.
_MAY_MATCH = re.compile(r"\(\s*(?:[$£€]|USD|GBP|EUR)?\s*\d|\d\s*\(")
_MANUAL_NUMBER = re.compile(r"^\s*(\d{1,3})\.(?:(\d{1,3})\.?)?\s+\S")


def check(block_id: str, text: str) -> list[Finding]:
    """Words-and-figures disagreements in one block's text."""
    found: list[Finding] = []
    if "(" not in text or not _MAY_MATCH.search(text):
        return found
    for m in _WORDS_FIGURES.finditer(text):
        _compare(found, block_id, text, m.start(), m.end(), m.group(1), m.group(3))
    for m in _FIGURES_WORDS.finditer(text):
        _compare(found, block_id, text, m.start(), m.end(), m.group(2), m.group(1))
    return found


def _compare(
    found: list[Finding], block_id: str, text: str, start: int, end: int, words: str, figure: str
) -> None:
    spelled = words_value(words)
    try:
        value = float(figure.replace(",", ""))
    except ValueError:
        return
    if spelled is None or spelled == value:
        return
    evidence = text[start:end]
    found.append(
        Finding(
            "numbers",
            "wordsFiguresMismatch",
            "error",
            f"The words say {spelled:,} but the figure says {figure}: “{evidence}”.",
            block_id,
            start,
            end,
            evidence,
            evidence,
        )
    )


def manual_number(text: str) -> tuple[int, int | None] | None:
    """The number a paragraph types at its start (``4.`` → (4, None), ``4.2`` → (4, 2))."""
    m = _MANUAL_NUMBER.match(text)
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2)) if m.group(2) else None


def numbering_gaps(numbered: Iterable[tuple[str, str, tuple[int, int | None]]]) -> list[Finding]:
    """Skips and repeats in manually typed numbering, given (block id, text, number) in order.

    A number is compared with the previous one of the same depth; a sub-number restarting
    at 1 under a new top number, and any sequence restarting at 1, is normal.
    """
    found: list[Finding] = []
    last: dict[int, tuple[int, int | None]] = {}
    for block_id, text, number in numbered:
        top, sub = number
        depth = 1 if sub is None else 2
        previous = last.get(depth)
        last[depth] = number
        if depth == 1:
            last.pop(2, None)
        if previous is None or (sub is None and top == 1) or (sub == 1):
            continue
        expected = (previous[0] + 1, None) if sub is None else (previous[0], (previous[1] or 0) + 1)
        if number == expected or (sub is not None and top != previous[0]):
            continue
        shown = f"{top}" if sub is None else f"{top}.{sub}"
        before = f"{previous[0]}" if previous[1] is None else f"{previous[0]}.{previous[1]}"
        code = "numberingRepeat" if number == previous else "numberingSkip"
        what = "repeats" if code == "numberingRepeat" else "skips a number after"
        end = text.index(shown) + len(shown)
        found.append(
            Finding(
                "numbers",
                code,
                "warning",
                f"Typed numbering {shown} {what} {before}.",
                block_id,
                0,
                end,
                text[:end],
                shown,
            )
        )
    return found
