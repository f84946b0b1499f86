"""Defined terms and party names: used but not defined, defined but unused, defined twice,
used before a definition that sits outside the definitions clause, and near-miss spellings
(``Confidential information``, ``Cusotmer``).

To keep false alarms low a capitalised phrase is reported as undefined only when the document
defines terms at all (and does not borrow undefined ones from another document), the phrase is
used at least twice, is not a heading, a table label, a month or a day, and every word of it is
an ordinary word the document also writes in lower case (``Service Credit``: yes; ``Harbour
Bank``, ``Delaware``: no) or the document points at it as a part of itself (``this Cover
Page``: a proper name never follows "this"). A misspelling is reported only for a word the
document never writes otherwise.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import compress, filterfalse

from .definitions import Definition
from .words import DAYS, MONTHS, Words, deletion_keys, one_edit_apart, singulars, strip_possessive

_JOINERS = frozenset(("of", "and", "for", "to", "in", "on", "the"))
_LEADING = frozenset(
    [
        "the",
        "this",
        "that",
        "these",
        "those",
        "each",
        "any",
        "all",
        "such",
        "no",
        "a",
        "an",
        "if",
        "in",
        "on",
        "for",
        "to",
        "upon",
        "where",
        "when",
        "unless",
        "subject",
        "either",
        "neither",
        "both",
        "its",
        "their",
        "every",
        "under",
        "with",
        "by",
        "as",
        "at",
        "from",
        "nothing",
        "notwithstanding",
        "except",
        "save",
        "our",
        "your",
        "his",
        "her",
        "it",
        "we",
        "you",
        "they",
        "and",
        "or",
        "but",
        "then",
    ]
)
Term = tuple[str, ...]
#: Known terms of two or more words, of one length, starting with one word, by their words but
#: the last (lower case), each with its last word in lower case.
Group = tuple[int, dict[tuple[str, ...], tuple[tuple[Term, str], ...]]]
#: The known terms a word may start: the longer ones (groups, longest first), the one-word term
#: it is a form of and the lower-case words one of the longer ones may have second; empty when
#: it starts none. See :meth:`TermIndex.starting_with`.
Start = tuple[tuple[Group, ...], "Term | None", frozenset[str]] | tuple[()]
#: A use of a term: the term, its range ``[start, end)`` and, when its capitals differ from the
#: term's, the corrected text (a plain tuple: a long contract has ten thousand uses).
Use = tuple["Term", int, int, "str | None"]
#: Words naming a part of a document or a list position; never terms by themselves.
STRUCTURAL = frozenset(
    [
        "section",
        "sections",
        "clause",
        "clauses",
        "article",
        "articles",
        "schedule",
        "schedules",
        "exhibit",
        "exhibits",
        "annex",
        "annexes",
        "appendix",
        "appendices",
        "attachment",
        "attachments",
        "part",
        "parts",
        "paragraph",
        "paragraphs",
        "table",
        "tables",
        "option",
        "options",
        "none",
        "version",
        "item",
        "items",
        "page",
        "pages",
        "step",
        "phase",
        "tier",
        "level",
        "stage",
        "figure",
    ]
)
_CITED_TITLE = re.compile(r"(?:Section|Clause|Article|Schedule|Exhibit|Annex)s?\s+[\w.()]+\s*\([^)]*$")
_IDENTIFIER_AFTER = re.compile(r"\s+(?:\d|[A-Z](?![a-z])|[IVX]+\b)")


@dataclass(slots=True)
class TermBlock:
    """What the term rules need of one block: its words and definitions, and whether it is a
    label (heading title, table label cell) whose capitals are a title, not a use. Blocks alike
    in all of it share one (it names no block: the rules are told the block ids apart)."""

    text: str
    words: Words
    definitions: list[Definition]
    label_end: int  # text before this offset is a title/label
    in_definitions_clause: bool
    party_context: bool


@dataclass(slots=True)
class TermIndex:
    """Every term the document defines or names.

    ``shape`` (the known, defined, party and removed terms as sets, made once all terms are
    in) is all a block's :class:`BlockTerms` depend on: while it stays the same, so do they,
    and an index of the same shape is reused with its lookup tables. Uses are recorded only
    of the ``counted`` terms (defined or removed): the uses of a term known otherwise (a
    heading's title, a table label) only keep its words from being read as other terms.
    ``defined`` also records where each term is defined, which edits elsewhere move, so it is
    refreshed on every check, as is ``removed``
    (terms whose definition a pending deletion took out, with the block it was in: known, so
    their uses are found, and reported while used and defined nowhere else).
    """

    defined: dict[Term, list[tuple[int, Definition]]] = field(default_factory=dict)
    removed: dict[Term, str] = field(default_factory=dict)
    known: set[Term] = field(default_factory=set)
    parties: set[Term] = field(default_factory=set)
    by_first: dict[str, list[Term]] = field(default_factory=dict)  # longer terms, by first word
    one_word: dict[str, list[Term]] = field(default_factory=dict)  # one-word terms, by the word
    by_key: dict[str, list[tuple[Term, int]]] = field(default_factory=dict)
    candidates: dict[str, Start] = field(default_factory=dict)  # per word
    forms: dict[str, frozenset[str]] = field(default_factory=dict)  # per word
    misspellings: dict[str, tuple[tuple[Term, int, str], ...]] = field(default_factory=dict)  # per word
    shape: tuple[frozenset[Term], ...] = ()
    counted: frozenset[Term] = frozenset()

    def finish(self) -> None:
        """Build the lookup tables once all terms are in."""
        for term in self.known:
            table = self.one_word if len(term) == 1 else self.by_first
            table.setdefault(term[0].lower(), []).append(term)
        for term in set(self.defined) | self.parties:
            for position, word in enumerate(term):
                if len(word) >= 4 and word.lower() not in _JOINERS:
                    for key in deletion_keys(word.lower()):
                        self.by_key.setdefault(key, []).append((term, position))

    def starting_with(self, word: str) -> Start:
        """The known terms ``word`` may start (cached per word): the longer ones grouped by
        length, longest first, then by their words but the last in lower case (which a use
        must match exactly, the first word too), each with its last word in lower case (which a
        use may write as a plural); and the one-word term it is a form of (plural, possessive;
        of several, the first in term order)."""
        found = self.candidates.get(word)
        if found is None:
            longer = self.by_first.get(word.lower(), ())
            if not longer and not any(map(self.one_word.__contains__, self._forms(word))):  # most words
                found = self.candidates[word] = ()
                return found
            keys = self.forms_of(word) & self.one_word.keys()
            ones = [t for key in keys for t in self.one_word[key]]
            groups: dict[int, dict[tuple[str, ...], list[tuple[Term, str]]]] = {}
            for t in sorted(longer, key=lambda t: (-len(t), t)):
                head = tuple(w.lower() for w in t[:-1])
                groups.setdefault(len(t), {}).setdefault(head, []).append((t, t[-1].lower()))
            long = tuple((n, {h: tuple(ts) for h, ts in heads.items()}) for n, heads in groups.items())
            seconds = frozenset(t[1].lower() for t in longer)
            one = min(ones) if ones else None
            found = self.candidates[word] = (long, one, seconds) if long or ones else ()
        return found

    def misspelt_by(self, base: str) -> tuple[tuple[Term, int, str], ...]:
        """The words of defined terms and party names that ``base`` (a word without its
        possessive) misspells by one letter, as (term, the word's position in it, the word),
        when it may misspell any (cached per word: most capitalised words recur)."""
        found = self.misspellings.get(base)
        if found is not None:
            return found
        low = base.lower()
        if len(base) < 5 or not base[0].isupper() or base.isupper() or any(ch.isdigit() for ch in base):
            found = self.misspellings[base] = ()
            return found
        out: list[tuple[Term, int, str]] = []
        for key in deletion_keys(low):
            for term, slot in self.by_key.get(key, ()):
                word = term[slot]
                if not one_edit_apart(low, word.lower()) or low in (s.lower() for s in singulars(word)):
                    continue
                if word.lower() in (s.lower() for s in singulars(base)) or low.startswith(word.lower()):
                    continue  # a plural or longer form of the word, not a misspelling
                out.append((term, slot, word))
        found = self.misspellings[base] = tuple(out)
        return found

    def forms_of(self, word: str) -> frozenset[str]:
        """The lower-case words ``word`` may stand for as a term's last word: itself, without
        its possessive, and its plural and singular forms (cached per word)."""
        found = self.forms.get(word)
        if found is None:
            found = self.forms[word] = frozenset(self._forms(word))
        return found

    @staticmethod
    def _forms(word: str) -> tuple[str, ...]:
        base = strip_possessive(word).lower()
        return (word.lower(), base, base + "s", base + "es", *singulars(base))


def as_term(phrase: str) -> Term:
    return tuple(phrase.split())


def build_index(
    definitions: Iterable[tuple[int, Definition]],
    labels: Iterable[str],
    parties: set[Term],
    removed: dict[Term, str] | None = None,
) -> TermIndex:
    """Collect definitions (with the position of their block), labels (known but not checked
    for use) and terms whose definition a pending deletion removed; the lookup tables are built
    by :meth:`TermIndex.finish`."""
    index = TermIndex(parties=set(parties), removed=dict(removed or {}))
    for position, definition in definitions:
        index.defined.setdefault(as_term(definition.term), []).append((position, definition))
    index.known.update(index.defined)
    index.known.update(as_term(label) for label in labels)
    index.known.update(parties)
    index.known.update(index.removed)
    defined, removed = frozenset(index.defined), frozenset(index.removed)
    index.shape = (frozenset(index.known), defined, frozenset(index.parties), removed)
    index.counted = defined | removed
    return index


def _word_matches(words: Words, k: int, word: str, last: bool) -> bool:
    low = word.lower()
    if words.text[k].lower() == low:
        return True
    if not last:
        return False
    base = words.base[k].lower()
    return base == low or low in (s.lower() for s in singulars(base)) or low in (base + "s", base + "es")


def match_terms(block: TermBlock, index: TermIndex) -> tuple[list[Use], set[int]]:
    """Uses of the counted terms in ``block`` (of all known terms, greedy, longest first) and
    the positions of the words that are not free: those any known term's uses cover and those
    of a definition's own term. Only the words a known term may start with are looked at."""
    words = block.words
    texts = words.text
    looked_up = list(map(index.candidates.get, texts))
    if None in looked_up:
        for i in [i for i, start in enumerate(looked_up) if start is None]:
            looked_up[i] = index.starting_with(texts[i])
    taken: set[int] = set()
    for definition in block.definitions:  # a definition's own term is no use of it
        taken.update(
            range(bisect_left(words.start, definition.start), bisect_left(words.start, definition.end))
        )
    matches: list[Use] = []
    starts = list(filterfalse(taken.__contains__, compress(range(len(texts)), looked_up)))
    if not starts:
        return matches, taken
    counted = index.counted
    forms, forms_of = index.forms, index.forms_of
    lowered: list[str] = []  # the words in lower case, made when a longer term may start
    after = 0
    for i in starts:
        if i < after:
            continue
        longer, one, seconds = looked_up[i]  # type: ignore[misc]  # (starts only where there is a term)
        # a longer term starting here needs one of its second words next (most have none)
        if (
            longer
            and i + 1 < len(texts)
            and not seconds.isdisjoint(forms.get(texts[i + 1]) or forms_of(texts[i + 1]))
        ):
            if not lowered:
                lowered = list(map(str.lower, texts))
            found = _match_longer(block, index, longer, i, lowered)
            if found is not None:
                term, last = found
                if term in counted:
                    matches.append(_classify(block, term, i, last))
                after = last + 1
                taken.update(range(i, after))
                continue
        if one is not None:
            if one in counted:
                word, start = texts[i], words.start[i]
                if word[0].islower() or one[0][0].isupper() or start in words.initial or word.isupper():
                    matches.append((one, start, words.end[i], None))  # most uses: what _classify says
                else:
                    matches.append(_classify(block, one, i, i))
            taken.add(i)
    return matches, taken


def _match_longer(
    block: TermBlock, index: TermIndex, groups: tuple[Group, ...], i: int, lowered: list[str]
) -> tuple[Term, int] | None:
    """The longest known term of two or more words used from word ``i`` on (of equally long
    ones, the first in term order), and its last word; None when none starts here.
    ``lowered`` is the block's words in lower case."""
    words = block.words
    texts = words.text
    for n, by_head in groups:
        last = i + n - 1
        if last >= len(texts):
            continue
        terms = by_head.get(tuple(lowered[i:last]))
        if terms is None:
            continue
        forms = index.forms.get(texts[last]) or index.forms_of(texts[last])
        for term, word in terms:  # noqa: B007 (the term found is used after the loop)
            if word in forms:
                break
        else:
            continue
        if all(words.gap_ok(block.text, k, k + 1) for k in range(i, last)):
            return term, last
    return None


def _classify(block: TermBlock, term: Term, first: int, last: int) -> Use:
    """A use of ``term`` at words ``[first, last]``, or a use whose capitals differ from the
    definition (with the corrected text)."""
    words = block.words
    start, end = words.start[first], words.end[last]
    initial = start in words.initial
    span = words.text[first : last + 1]
    shape = [w[0].isupper() for w in span]
    wanted = [w[0].isupper() for w in term]
    if shape == wanted or all(w.isupper() for w in span) or not any(shape):
        return (term, start, end, None)
    if initial and shape[1:] == wanted[1:]:
        return (term, start, end, None)
    fixed = block.text[start:end]
    for k, w in zip(range(first, last + 1), term, strict=True):
        offset = words.start[k] - start
        letter = w[0] if w[0].isupper() else words.text[k][0].lower()
        fixed = fixed[:offset] + letter + fixed[offset + 1 :]
    return (term, start, end, fixed)


def word_forms(word: str) -> tuple[str, ...]:
    """``word`` and the words it may be the plural of, in lower case: if the document writes
    any of them in lower case, ``word`` is an ordinary word."""
    return (word.lower(), *(s.lower() for s in singulars(word)))


def near_miss(block: TermBlock, index: TermIndex, position: int) -> tuple[Term, int, int, str] | None:
    """A term that the free word at ``position`` misspells by one letter, as (term, start, end,
    replacement); None when the word is known or not a near miss. Whether the word is an
    ordinary one the document writes in lower case is for the caller to ask (see
    :func:`findings`), as the rest of the document decides it. When the word misspells more
    than one (``Cusotmer Content``: the party ``Customer`` and the term ``Customer Content``),
    a party name wins, then the longest term, whatever order sets iterate in."""
    words = block.words
    base = words.base[position]
    found: list[tuple[Term, int, int, str]] = []
    for term, slot, word in index.misspelt_by(base):
        first = position - slot
        if first < 0 or first + len(term) > len(words.text):
            continue
        if all(
            k == slot or _word_matches(words, first + k, w, k == len(term) - 1) for k, w in enumerate(term)
        ):
            start = words.start[position]
            found.append((term, start, start + len(base), word))
    if not found:
        return None
    return min(found, key=lambda miss: (miss[0] not in index.parties, -len(miss[0]), miss[0]))


def capitalised_runs(block: TermBlock, free_capitals: list[int], taken: set[int]) -> list[tuple[int, int]]:
    """Runs ``[first, last]`` of consecutive free capitalised words (joined by ``of``, ``and``…),
    past the block's label, without a leading sentence word such as ``The``; ``free_capitals``
    are the free capitalised words' positions in order, ``taken`` those of the words not free."""
    words = block.words
    texts = words.text
    count = len(texts)
    runs: list[tuple[int, int]] = []
    after = 0
    for i in free_capitals:
        if i < after or words.start[i] < block.label_end:
            continue
        j = i
        while True:
            k = j + 1
            if k < count and k not in taken and texts[k] in _JOINERS and k + 1 < count:
                k += 1
            if (
                k < count
                and k not in taken
                and texts[k][0].isupper()
                and words.gap_ok(block.text, k - 1, k)
                and (k == j + 1 or words.gap_ok(block.text, j, j + 1))
            ):
                j = k
            else:
                break
        first = i
        while first <= j and texts[first].lower() in _LEADING:
            first += 1
        if first <= j:
            runs.append((first, j))
        after = j + 1
    return runs


def undefined_candidate(
    block: TermBlock, first: int, last: int, index: TermIndex
) -> tuple[Term, tuple[tuple[str, ...], ...]] | None:
    """The phrase of a capitalised run when it looks like a term nobody defined, else None;
    with it, for each of its words but joiners, the forms of which the document must write one
    in lower case for the phrase to be ordinary words (asked by :func:`findings`)."""
    found = block.words
    start, end = found.start[first], found.end[last]
    words = [*found.text[first:last], found.base[last]]
    initial = start in found.initial
    if first == last:
        if initial or words[0] in MONTHS or words[0] in DAYS or words[0].lower() in STRUCTURAL:
            return None
        if (
            first
            and found.text[first - 1][0].isupper()
            and not block.text[found.end[first - 1] : start].strip()
        ):
            return None  # the tail of a longer name
    if _IDENTIFIER_AFTER.match(block.text, end) or (first == last and found.text[last].lower() in STRUCTURAL):
        return None  # "Part A", "Table 3", a lone "Schedule": a label, not a term
    if initial and block.text.startswith(".", end):
        return None  # a run-in title: "Make Referrals to Partner. A ..."
    if _CITED_TITLE.search(block.text, max(0, start - 60), start):
        return None  # the title a reference quotes: "Section 6 (Representations & Warranties)"
    for word in words:
        if word.isupper() or any(ch.isdigit() for ch in word) or word in MONTHS or word in DAYS:
            return None
    term = tuple(words)
    if term in index.known or any(term[:-1] + (s,) in index.known for s in singulars(term[-1])):
        return None
    return term, tuple(word_forms(word) for word in words if word.lower() not in _JOINERS)


__all__ = [
    "Use",
    "Term",
    "TermBlock",
    "TermIndex",
    "as_term",
    "build_index",
    "capitalised_runs",
    "match_terms",
    "near_miss",
    "strip_possessive",
    "undefined_candidate",
]
