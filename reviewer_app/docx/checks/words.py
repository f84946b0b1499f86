"""Word-level helpers every rule shares: tokens with offsets, plural/possessive forms, spelling
neighbours and numbers written in words.

Kept free of any document notion so each helper can be tested on plain strings.
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: A word. Its quantifiers are possessive: once past the first letter a word always matches, so
#: giving nothing back changes no match, and the engine keeps no backtracking state per letter
#: (a fifth less time on a 300-page contract's 50,000 words).
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*+(?:[-'’][A-Za-z0-9]++)*+(?:['’]s?+)?+")
#: A token and the text before it since the previous one: read in one C-level pass, the
#: offsets follow from the lengths.
_GAP_AND_TOKEN = re.compile(rf"([^A-Za-z]*+)({_TOKEN.pattern})")
#: Where a sentence-initial word starts: after a sentence end (a tab ends a list label) or the
#: start of the text, past spaces and opening quotes or brackets. Two patterns: one led by the
#: punctuation is searched for many times faster than one that may also match anywhere.
_SENTENCE_START = re.compile(r"[.:;!?\t][ \"“‘'(\[]*(?=[A-Za-z])")
_TEXT_START = re.compile(r"[ \"“‘'(\[]*(?=[A-Za-z])")
_LABEL_START = re.compile(r"\s*\([a-zA-Z0-9]{1,5}\)[ \"“‘'(\[]*(?=[A-Za-z])")
MONTHS = frozenset(
    [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ]
)
DAYS = frozenset(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"])


class Token(NamedTuple):
    """A word at ``[start, end)`` of a block's text; ``initial`` when it opens a sentence.

    A named tuple: a 300-page contract has hundreds of thousands of words, and a tuple is the
    cheapest record to make for each."""

    text: str
    start: int
    end: int
    initial: bool
    base: str  # the word without a possessive ending (``Customer’s`` → ``Customer``)


def contains_any(text: str, cues: tuple[str, ...]) -> bool:
    """True when ``text`` holds one of ``cues``: a substring search is many times faster than a
    regular expression scanning the text, so the rules ask it before running their patterns."""
    for cue in cues:  # noqa: SIM110 (a plain loop: twice as fast as any() here)
        if cue in text:
            return True
    return False


def strip_possessive(word: str) -> str:
    last = word[-1]
    if last in "'’":
        return word[:-1] if len(word) > 1 else word
    if last == "s" and len(word) > 2 and word[-2] in "'’":
        return word[:-2]
    return word


def singulars(word: str) -> tuple[str, ...]:
    """Forms ``word`` may be the plural of (``Parties`` → ``Party``, ``Fees`` → ``Fee``)."""
    out: list[str] = []
    if word.endswith("ies") and len(word) > 4:
        out.append(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        out.append(word[:-2])
    if word.endswith("s") and len(word) > 2:
        out.append(word[:-1])
    return tuple(out)


def tokens(text: str) -> list[Token]:
    """Words of ``text`` in order, each marked sentence-initial when only spaces and opening
    quotes or brackets separate it from a sentence end, a tab (after a list label), a list label
    such as ``(a)`` opening the text, or the start."""
    initial = {m.end() for m in _SENTENCE_START.finditer(text)}
    for opening in (_TEXT_START.match(text), _LABEL_START.match(text)):
        if opening is not None:
            initial.add(opening.end())
    out: list[Token] = []
    append = out.append
    end = 0
    for gap, word in _GAP_AND_TOKEN.findall(text):  # 100,000+ words in a 300-page contract
        start = end + len(gap)
        end = start + len(word)
        last = word[-1]
        base = strip_possessive(word) if last in "'’" or (last == "s" and word[-2:-1] in ("'", "’")) else word
        append(_new_token(Token, (word, start, end, start in initial, base)))
    return out


_new_token = tuple.__new__  # skips the named tuple's Python-level constructor


def deletion_keys(word: str) -> set[str]:
    """``word`` and every string one character shorter: two words share a key exactly when
    they are one edit apart (insertion, deletion, substitution or adjacent transposition)."""
    keys = {word}
    keys.update(word[:i] + word[i + 1 :] for i in range(len(word)))
    return keys


def one_edit_apart(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by exactly one insertion, deletion, substitution or
    swap of adjacent letters."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


# ----------------------------------------------------------------------------- numbers in words
_UNITS = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
_TENS = {
    w: 10 * (i + 2)
    for i, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"])
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
NUMBER_WORD = "|".join(sorted((*_UNITS, *_TENS, *_SCALES), key=len, reverse=True))


def words_value(phrase: str) -> int | None:
    """The integer ``phrase`` spells (``one hundred and twenty-five`` → 125); None if it
    does not spell one."""
    total = current = 0
    seen = False
    for word in re.split(r"[\s\-]+", phrase.lower().strip()):
        if word in ("and", "a", ""):
            continue
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in _SCALES:
            total += max(current, 1) * _SCALES[word]
            current = 0
        else:
            return None
        seen = True
    return total + current if seen else None
