"""Defined terms and party names: used but not defined, defined but unused, defined twice,
used before a definition that sits outside the definitions clause, and near-miss spellings
(``Confidential information``, ``Cusotmer``).

To keep false alarms low a capitalised phrase is reported as undefined only when the document
defines terms at all, the phrase is used at least twice, is not a heading, a table label, a
month or a day, and every word of it is an ordinary word the document also writes in lower
case (``Service Credit``: yes; ``Harbour Bank``, ``Delaware``: no). A misspelling is reported
only for a word the document never writes otherwise.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .definitions import Definition
from .model import Finding, QuickFix
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
    label (heading title, table label cell) whose capitals are a title, not a use."""

    id: str
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
    """Every term the document defines or names, and the document's ordinary vocabulary."""

    defined: dict[Term, list[tuple[int, Definition]]] = field(default_factory=dict)
    known: set[Term] = field(default_factory=set)
    parties: set[Term] = field(default_factory=set)
    vocabulary: set[str] = field(default_factory=set)
    by_first: dict[str, list[Term]] = field(default_factory=dict)
    by_key: dict[str, list[tuple[Term, int]]] = field(default_factory=dict)

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


def as_term(phrase: str) -> Term:
    return tuple(phrase.split())


def build_index(blocks: Sequence[TermBlock], labels: Sequence[str], parties: set[Term]) -> TermIndex:
    """Collect definitions, labels (known but not checked for use) and the lower-case vocabulary."""
    index = TermIndex(parties=set(parties))
    for position, block in enumerate(blocks):
        for definition in block.definitions:
            index.defined.setdefault(as_term(definition.term), []).append((position, definition))
        for token in block.tokens:
            if not token.text[0].isupper():
                index.vocabulary.add(token.base.lower())
    index.known.update(index.defined)
    index.known.update(as_term(label) for label in labels)
    index.known.update(parties)
    index.finish()
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
    skip = {i for i, t in enumerate(tokens) for d in block.definitions if d.start <= t.start < d.end}
    matches: list[Match] = []
    free: list[int] = []
    i = 0
    while i < len(tokens):
        if i in skip:
            i += 1
            continue
        found = _match_at(block, index, i)
        if found is None:
            free.append(i)
            i += 1
            continue
        matches.append(found[0])
        i = found[1]
    return matches, free


def _match_at(block: TermBlock, index: TermIndex, i: int) -> tuple[Match, int] | None:
    tokens = block.tokens
    token = tokens[i]
    base = token.base.lower()
    keys = {token.text.lower(), base, base + "s", base + "es", *(s.lower() for s in singulars(base))}
    candidates = sorted({t for key in keys for t in index.by_first.get(key, ())}, key=lambda t: (-len(t), t))
    if candidates:
        for term in candidates:
            n = len(term)
            if i + n > len(tokens):
                continue
            span = tokens[i : i + n]
            if not all(
                _word_matches(t, w, k == n - 1) for k, (t, w) in enumerate(zip(span, term, strict=True))
            ):
                continue
            if not all(_gap_ok(block.text, a, b) for a, b in zip(span, span[1:], strict=False)):
                continue
            return _classify(block, term, span), i + n
    return None


def _classify(block: TermBlock, term: Term, span: list[Token]) -> Match:
    """A use, or a use whose capitals differ from the definition (with the corrected text)."""
    start, end = span[0].start, span[-1].end
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


def near_miss(block: TermBlock, index: TermIndex, position: int) -> tuple[Term, int, int, str] | None:
    """A term that the free token at ``position`` misspells by one letter, as (term, start, end,
    replacement); None when the word is ordinary, known or not a near miss."""
    tokens = block.tokens
    token = tokens[position]
    base = token.base
    low = base.lower()
    if (
        len(base) < 5
        or token.start < block.label_end
        or not base[0].isupper()
        or base.isupper()
        or low in index.vocabulary
        or any(s.lower() in index.vocabulary for s in singulars(base))
        or any(ch.isdigit() for ch in base)
    ):
        return None
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
                start, end = token.start, token.start + len(base)
                return term, start, end, word
    return None


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


def undefined_candidate(block: TermBlock, first: int, last: int, index: TermIndex) -> Term | None:
    """The phrase of a capitalised run when it looks like a term nobody defined, else None."""
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
    if _IDENTIFIER_AFTER.match(block.text, span[-1].end) or span[-1].text.lower() in STRUCTURAL:
        return None  # "Part A", "Table 3", "Option 1": a label, not a term
    if span[0].initial and block.text.startswith(".", span[-1].end):
        return None  # a run-in title: "Make Referrals to Partner. A ..."
    if _CITED_TITLE.search(block.text, max(0, span[0].start - 60), span[0].start):
        return None  # the title a reference quotes: "Section 6 (Representations & Warranties)"
    for word in words:
        if word.isupper() or any(ch.isdigit() for ch in word) or word in MONTHS or word in DAYS:
            return None
    for word in words:
        low = word.lower()
        if (
            low not in _JOINERS
            and low not in index.vocabulary
            and not any(s.lower() in index.vocabulary for s in singulars(word))
        ):
            return None
    term = tuple(words)
    if term in index.known or any(term[:-1] + (s,) in index.known for s in singulars(term[-1])):
        return None
    return term


def check(
    blocks: Sequence[TermBlock],
    index: TermIndex,
    matched: Sequence[tuple[list[Match], list[int]]],
    labels: str = "",
) -> list[Finding]:
    """Every term and party finding of the document, given each block's matches."""
    found: list[Finding] = []
    uses: Counter[Term] = Counter()
    first_use: dict[Term, tuple[int, int, int]] = {}
    undefined: dict[Term, list[tuple[int, int, int]]] = {}
    for position, (block, (matches, free)) in enumerate(zip(blocks, matched, strict=True)):
        for match in matches:
            if match.case_fix is not None and match.term in index.defined and match.start >= block.label_end:
                found.append(_case_finding(block, match, index))
                continue
            uses[match.term] += 1
            if (
                match.start >= block.label_end
                and not block.in_definitions_clause
                and not block.text.startswith("[")
            ):
                first_use.setdefault(match.term, (position, match.start, match.end))
        for i in free:
            miss = near_miss(block, index, i)
            if miss is not None:
                found.append(_spelling_finding(block, miss, index))
        if not index.defined:
            continue
        for first, last in capitalised_runs(block, free):
            term = undefined_candidate(block, first, last, index)
            if term is not None:
                undefined.setdefault(term, []).append(
                    (position, block.tokens[first].start, block.tokens[last].end)
                )
    for term in index.defined:
        if not uses[term] and " ".join(term) in labels:
            uses[term] += 1  # used in a title or heading ("Business Associate Agreement")
    found.extend(_definition_findings(blocks, index, uses, first_use))
    if len(index.defined) >= 3:
        for term, places in undefined.items():
            if len(places) >= (2 if len(term) > 1 else 3):
                position, start, end = places[0]
                block = blocks[position]
                phrase = " ".join(term)
                found.append(
                    Finding(
                        "terms",
                        "undefinedTerm",
                        "warning",
                        f"“{phrase}” is capitalised like a defined term ({len(places)} uses) "
                        "but is never defined.",
                        block.id,
                        start,
                        end,
                        block.text[start:end],
                        phrase,
                        related=tuple(dict.fromkeys(blocks[p].id for p, _, _ in places[1:6])),
                    )
                )
    return found


def _kind(term: Term, index: TermIndex) -> str:
    return "parties" if term in index.parties else "terms"


def _case_finding(block: TermBlock, match: Match, index: TermIndex) -> Finding:
    phrase = " ".join(match.term)
    evidence = block.text[match.start : match.end]
    assert match.case_fix is not None
    return Finding(
        _kind(match.term, index),
        "termCapitalisation",
        "warning",
        f"“{evidence}” differs in capitals from the defined term “{phrase}”.",
        block.id,
        match.start,
        match.end,
        evidence,
        phrase,
        fix=QuickFix(f"Change to “{match.case_fix}”", match.case_fix),
    )


def _spelling_finding(block: TermBlock, miss: tuple[Term, int, int, str], index: TermIndex) -> Finding:
    term, start, end, word = miss
    phrase = " ".join(term)
    evidence = block.text[start:end]
    party = term in index.parties
    what = "the party name" if party else "the defined term"
    return Finding(
        "parties" if party else "terms",
        "partyMisspelt" if party else "termMisspelt",
        "warning",
        f"“{evidence}” looks like a misspelling of {what} “{phrase}”.",
        block.id,
        start,
        end,
        evidence,
        phrase,
        fix=QuickFix(f"Change to “{word}”", word),
    )


def _definition_findings(
    blocks: Sequence[TermBlock],
    index: TermIndex,
    uses: Counter[Term],
    first_use: dict[Term, tuple[int, int, int]],
) -> list[Finding]:
    found: list[Finding] = []
    for term, places in index.defined.items():
        phrase = " ".join(term)
        position, definition = places[0]
        block = blocks[position]
        aliases = [as_term(d.term) for d in block.definitions if abs(d.start - definition.start) < 40]
        if not any(uses[alias] for alias in aliases) and term not in index.parties:
            found.append(
                Finding(
                    "terms",
                    "unusedTerm",
                    "info",
                    f"“{phrase}” is defined but never used.",
                    block.id,
                    definition.start,
                    definition.end,
                    phrase,
                    phrase,
                )
            )
        distinct = [(p, d) for p, d in places if (p, d.start) != (position, definition.start)]
        for later, other in distinct[:3]:
            found.append(
                Finding(
                    "terms",
                    "duplicateDefinition",
                    "warning",
                    f"“{phrase}” is defined more than once.",
                    blocks[later].id,
                    other.start,
                    other.end,
                    phrase,
                    phrase,
                    related=(block.id,),
                )
            )
        used_at, use_start, use_end = first_use.get(term, (position, 0, 0))
        if used_at < position and not block.in_definitions_clause and definition.form != "means":
            found.append(
                Finding(
                    "terms",
                    "usedBeforeDefinition",
                    "info",
                    f"“{phrase}” is used before the clause that defines it.",
                    blocks[used_at].id,
                    use_start,
                    use_end,
                    blocks[used_at].text[use_start:use_end],
                    phrase,
                    related=(block.id,),
                )
            )
    return found


__all__ = ["TermBlock", "TermIndex", "build_index", "check", "match_terms", "strip_possessive"]
