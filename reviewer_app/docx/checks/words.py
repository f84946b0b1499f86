"""Word-level helpers every rule shares: tokens with offsets, plural/possessive forms, spelling
neighbours and numbers written in words.

Kept free of any document notion so each helper can be tested on plain strings.
"""

from __future__ import annotations

import re
from itertools import accumulate, compress
from typing import NamedTuple

#: A word (captured), splitting a text into the text before each word and the word, alternately,
#: and what follows the last: read in one C-level pass, the offsets follow from the lengths. Its
#: quantifiers are possessive: once past the first letter a word always matches, so giving
#: nothing back changes no match, and the engine keeps no backtracking state per letter.
_SPLIT = re.compile(r"([A-Za-z][A-Za-z0-9]*+(?:[-'’][A-Za-z0-9]++)*+(?:['’]s?+)?+)")
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


class Words(NamedTuple):
    """A text's words as parallel lists: word ``i`` is ``text[i]`` at ``[start[i], end[i])``,
    ``base[i]`` without a possessive ending (``Customer’s`` → ``Customer``); it opens a sentence
    when its start is in ``initial``. ``capitals`` are the positions of the words that start
    with a capital, ``lower`` the lower-case forms of the bases of the others.

    Made by a few C-level passes over the text rather than a record per word: a 300-page
    contract has 100,000 words, and the rules look closely only at a few (term uses and
    capitalised words)."""

    text: list[str]
    start: list[int]
    end: list[int]
    base: list[str]
    initial: set[int]
    capitals: list[int]
    lower: frozenset[str]

    def opens_sentence(self, i: int) -> bool:
        return self.start[i] in self.initial

    def gap_ok(self, text: str, left: int, right: int) -> bool:
        """True when only white space (and some) separates word ``left`` from word ``right``."""
        end, start = self.end[left], self.start[right]
        return end < start and not text[end:start].strip()


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


def words(text: str) -> Words:
    """The words of ``text``, each marked sentence-initial when only spaces and opening quotes
    or brackets separate it from a sentence end, a tab (after a list label), a list label such
    as ``(a)`` opening the text, or the start."""
    initial = set(map(_end, _SENTENCE_START.finditer(text)))
    for opening in (_TEXT_START.match(text), _LABEL_START.match(text)):
        if opening is not None:
            initial.add(opening.end())
    pieces = _SPLIT.split(text)
    offsets = list(accumulate(map(len, pieces)))
    texts = pieces[1::2]
    if "'" in text or "’" in text:
        bases = [strip_possessive(w) if w[-1] in "'’s" else w for w in texts]
    else:
        bases = texts
    return Words(
        texts,
        offsets[0:-1:2],
        offsets[1::2],
        bases,
        initial,
        list(compress(range(len(texts)), map(_capitalised, texts))),
        frozenset(map(str.lower, filter(_small, bases))),  # a base starts as its word does
    )


_end = re.Match.end
#: Whether a word (which starts with a letter) starts with a capital, or with a small letter:
#: one C-level comparison of the word with "a" each.
_capitalised = "a".__gt__
_small = "a".__le__


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
