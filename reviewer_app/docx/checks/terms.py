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
from collections.abc import Iterable
from dataclasses import dataclass, field

from .definitions import Definition
from .words import DAYS, MONTHS, Token, deletion_keys, one_edit_apart, singulars, strip_possessive

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
#: Known terms of one length starting with one word, by their other words but the last (lower
#: case), each with its last word in lower case: see :meth:`TermIndex.starting_with`.
Group = tuple[int, dict[tuple[str, ...], tuple[tuple[Term, str], ...]]]
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
    """What the term rules need of one block: its tokens and definitions, and whether it is a
    label (heading title, table label cell) whose capitals are a title, not a use. Blocks alike
    in all of it share one (it names no block: the rules are told the block ids apart)."""

    text: str
    tokens: list[Token]
    definitions: list[Definition]
    label_end: int  # text before this offset is a title/label
    in_definitions_clause: bool
    party_context: bool


@dataclass(slots=True)
class Match:
    """A use of ``term`` at tokens ``[first, last]``; ``case_fix`` when its capitals differ."""

    term: Term
    start: int
    end: int
    case_fix: str | None = None


@dataclass(slots=True)
class TermIndex:
    """Every term the document defines or names.

    ``shape`` (the known, defined and party terms as sets) is all a block's
    :class:`BlockTerms` depend on: while it stays the same, so do they, and an index of the
    same shape is reused with its lookup tables. ``defined`` also records where each term is
    defined, which edits elsewhere move, so it is refreshed on every check, as is ``removed``
    (terms whose definition a pending deletion took out, with the block it was in: known, so
    their uses are found, and reported while used and defined nowhere else).
    """

    defined: dict[Term, list[tuple[int, Definition]]] = field(default_factory=dict)
    removed: dict[Term, str] = field(default_factory=dict)
    known: set[Term] = field(default_factory=set)
    parties: set[Term] = field(default_factory=set)
    by_first: dict[str, list[Term]] = field(default_factory=dict)
    by_key: dict[str, list[tuple[Term, int]]] = field(default_factory=dict)
    candidates: dict[str, tuple[Group, ...]] = field(default_factory=dict)  # per token text
    forms: dict[str, frozenset[str]] = field(default_factory=dict)  # per token text

    @property
    def shape(self) -> tuple[frozenset[Term], frozenset[Term], frozenset[Term]]:
        return frozenset(self.known), frozenset(self.defined), frozenset(self.parties)

    def finish(self) -> None:
        """Build the lookup tables once all terms are in."""
        for term in self.known:
            self.by_first.setdefault(term[0].lower(), []).append(term)
        for term in set(self.defined) | self.parties:
            for position, word in enumerate(term):
                if len(word) >= 4 and word.lower() not in _JOINERS:
                    for key in deletion_keys(word.lower()):
                        self.by_key.setdefault(key, []).append((term, position))
        for terms in self.by_first.values():
            terms.sort(key=len, reverse=True)

    def starting_with(self, token: Token) -> tuple[Group, ...]:
        """Known terms whose first word ``token`` may be (cached per word), grouped by length,
        longest first, then by their words but the last in lower case (which a use must match
        exactly), each with its last word in lower case (which a use may write as a plural)."""
        found = self.candidates.get(token.text)
        if found is None:
            terms = sorted(
                {t for key in self.forms_of(token) for t in self.by_first.get(key, ())},
                key=lambda t: (-len(t), t),
            )
            groups: dict[int, dict[tuple[str, ...], list[tuple[Term, str]]]] = {}
            for t in terms:
                head = tuple(w.lower() for w in t[:-1])
                groups.setdefault(len(t), {}).setdefault(head, []).append((t, t[-1].lower()))
            found = tuple((n, {h: tuple(ts) for h, ts in heads.items()}) for n, heads in groups.items())
            self.candidates[token.text] = found
        return found

    def forms_of(self, token: Token) -> frozenset[str]:
        """The lower-case words ``token`` may stand for as a term's last word: itself, without
        its possessive, and its plural and singular forms (cached per word)."""
        found = self.forms.get(token.text)
        if found is None:
            base = token.base.lower()
            found = frozenset(
                {token.text.lower(), base, base + "s", base + "es", *(s.lower() for s in singulars(base))}
            )
            self.forms[token.text] = found
        return found


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
    return index


def _gap_ok(text: str, left: Token, right: Token) -> bool:
    return left.end < right.start and not text[left.end : right.start].strip()


def _word_matches(token: Token, word: str, last: bool) -> bool:
    low = word.lower()
    if token.text.lower() == low:
        return True
    if not last:
        return False
    base = token.base.lower()
    return base == low or low in (s.lower() for s in singulars(base)) or low in (base + "s", base + "es")


def match_terms(block: TermBlock, index: TermIndex) -> tuple[list[Match], list[int]]:
    """Uses of known terms in ``block`` (greedy, longest first) and the positions of the tokens
    no term covers. Tokens of a definition's own term are neither."""
    tokens = block.tokens
    spans = [(d.start, d.end) for d in block.definitions]
    skip = {i for i, t in enumerate(tokens) for s, e in spans if s <= t.start < e} if spans else ()
    matches: list[Match] = []
    free: list[int] = []
    looked_up = list(map(index.candidates.get, [t.text for t in tokens]))
    if None not in looked_up and not any(looked_up):  # no word here may start a known term
        return matches, [i for i in range(len(tokens)) if i not in skip]
    lowered: list[str] = []  # the tokens in lower case, made when a term may start
    i = 0
    while i < len(tokens):
        if i in skip:
            i += 1
            continue
        candidates = looked_up[i]
        if candidates is None:
            candidates = index.starting_with(tokens[i])
        if candidates and not lowered:
            lowered = [t.text.lower() for t in tokens]
        found = _match_at(block, index, candidates, i, lowered) if candidates else None
        if found is None:
            free.append(i)
            i += 1
            continue
        matches.append(found[0])
        i = found[1]
    return matches, free


def _match_at(
    block: TermBlock, index: TermIndex, groups: tuple[Group, ...], i: int, lowered: list[str]
) -> tuple[Match, int] | None:
    """The longest use of a known term starting at token ``i`` (of equally long ones, the first
    in term order), and the token after it; None when no term starts here. ``lowered`` is
    the block's tokens in lower case."""
    tokens = block.tokens
    for n, by_head in groups:
        last = i + n - 1
        if last >= len(tokens):
            continue
        terms = by_head.get(tuple(lowered[i:last]))
        if terms is None:
            continue
        forms = index.forms.get(tokens[last].text) or index.forms_of(tokens[last])
        for term, word in terms:  # noqa: B007 (the term found is used after the loop)
            if word in forms:
                break
        else:
            continue
        span = tokens[i : last + 1]
        if n == 1 or all(_gap_ok(block.text, a, b) for a, b in zip(span, span[1:], strict=False)):
            return _classify(block, term, span), last + 1
    return None


def _classify(block: TermBlock, term: Term, span: list[Token]) -> Match:
    """A use, or a use whose capitals differ from the definition (with the corrected text)."""
    head = span[0]
    if len(span) == 1:  # most uses: the general rule below, for one word
        upper = head.text[0].isupper()
        if not upper or upper == term[0][0].isupper() or head.initial or head.text.isupper():
            return Match(term, head.start, head.end)
    start, end = head.start, span[-1].end
    shape = [t.text[0].isupper() for t in span]
    wanted = [w[0].isupper() for w in term]
    if shape == wanted or all(t.text.isupper() for t in span) or not any(shape):
        return Match(term, start, end)
    if span[0].initial and shape[1:] == wanted[1:]:
        return Match(term, start, end)
    fixed = block.text[start:end]
    for t, w in zip(span, term, strict=True):
        offset = t.start - start
        first = w[0] if w[0].isupper() else t.text[0].lower()
        fixed = fixed[:offset] + first + fixed[offset + 1 :]
    return Match(term, start, end, case_fix=fixed)


def word_forms(word: str) -> tuple[str, ...]:
    """``word`` and the words it may be the plural of, in lower case: if the document writes
    any of them in lower case, ``word`` is an ordinary word."""
    return (word.lower(), *(s.lower() for s in singulars(word)))


def near_miss(block: TermBlock, index: TermIndex, position: int) -> tuple[Term, int, int, str] | None:
    """A term that the free token at ``position`` misspells by one letter, as (term, start, end,
    replacement); None when the word is known or not a near miss. Whether the word is an
    ordinary one the document writes in lower case is for the caller to ask (see
    :func:`findings`), as the rest of the document decides it. When the word misspells more
    than one (``Cusotmer Content``: the party ``Customer`` and the term ``Customer Content``),
    a party name wins, then the longest term, whatever order sets iterate in."""
    tokens = block.tokens
    token = tokens[position]
    base = token.base
    low = base.lower()
    if len(base) < 5 or not base[0].isupper() or base.isupper() or any(ch.isdigit() for ch in base):
        return None
    found: list[tuple[Term, int, int, str]] = []
    for key in deletion_keys(low):
        for term, slot in index.by_key.get(key, ()):
            word = term[slot]
            if not one_edit_apart(low, word.lower()) or low in (s.lower() for s in singulars(word)):
                continue
            if word.lower() in (s.lower() for s in singulars(base)) or base.lower().startswith(word.lower()):
                continue  # a plural or longer form of the word, not a misspelling
            first = position - slot
            if first < 0 or first + len(term) > len(tokens):
                continue
            span = tokens[first : first + len(term)]
            if all(
                k == slot or _word_matches(t, w, k == len(term) - 1)
                for k, (t, w) in enumerate(zip(span, term, strict=True))
            ):
                found.append((term, token.start, token.start + len(base), word))
    if not found:
        return None
    return min(found, key=lambda miss: (miss[0] not in index.parties, -len(miss[0]), miss[0]))


def capitalised_runs(block: TermBlock, free: list[int]) -> list[tuple[int, int]]:
    """Runs ``[first, last]`` of consecutive free capitalised tokens (joined by ``of``, ``and``…),
    past the block's label, without a leading sentence word such as ``The``."""
    tokens = block.tokens
    free_set = set(free)
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if i not in free_set or not t.text[0].isupper() or t.start < block.label_end:
            i += 1
            continue
        j = i
        while True:
            k = j + 1
            if k < len(tokens) and k in free_set and tokens[k].text in _JOINERS and k + 1 < len(tokens):
                k += 1
            if (
                k < len(tokens)
                and k in free_set
                and tokens[k].text[0].isupper()
                and _gap_ok(block.text, tokens[k - 1], tokens[k])
                and (k == j + 1 or _gap_ok(block.text, tokens[j], tokens[j + 1]))
            ):
                j = k
            else:
                break
        first = i
        while first <= j and tokens[first].text.lower() in _LEADING:
            first += 1
        if first <= j:
            runs.append((first, j))
        i = j + 1
    return runs


def undefined_candidate(
    block: TermBlock, first: int, last: int, index: TermIndex
) -> tuple[Term, tuple[tuple[str, ...], ...]] | None:
    """The phrase of a capitalised run when it looks like a term nobody defined, else None;
    with it, for each of its words but joiners, the forms of which the document must write one
    in lower case for the phrase to be ordinary words (asked by :func:`findings`)."""
    span = block.tokens[first : last + 1]
    words = [t.base if k == len(span) - 1 else t.text for k, t in enumerate(span)]
    if len(span) == 1:
        before = block.tokens[first - 1] if first else None
        if span[0].initial or words[0] in MONTHS or words[0] in DAYS or words[0].lower() in STRUCTURAL:
            return None
        if (
            before is not None
            and before.text[0].isupper()
            and not block.text[before.end : span[0].start].strip()
        ):
            return None  # the tail of a longer name
    if _IDENTIFIER_AFTER.match(block.text, span[-1].end) or (
        len(span) == 1 and span[-1].text.lower() in STRUCTURAL
    ):
        return None  # "Part A", "Table 3", a lone "Schedule": a label, not a term
    if span[0].initial and block.text.startswith(".", span[-1].end):
        return None  # a run-in title: "Make Referrals to Partner. A ..."
    if _CITED_TITLE.search(block.text, max(0, span[0].start - 60), span[0].start):
        return None  # the title a reference quotes: "Section 6 (Representations & Warranties)"
    for word in words:
        if word.isupper() or any(ch.isdigit() for ch in word) or word in MONTHS or word in DAYS:
            return None
    term = tuple(words)
    if term in index.known or any(term[:-1] + (s,) in index.known for s in singulars(term[-1])):
        return None
    return term, tuple(word_forms(word) for word in words if word.lower() not in _JOINERS)


__all__ = [
    "Match",
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
