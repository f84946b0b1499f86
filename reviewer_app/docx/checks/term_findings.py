"""From matched terms to findings: one block's share (:class:`BlockTerms`), the running totals
over the document (:class:`TermTotals`) and the findings only the whole document can decide.

Kept apart from :mod:`.terms`, which finds terms in a block (the index and the matching), so a
rule about what to *report* (the wording of a finding, when a misspelling counts) is changed
here without touching how terms are recognised.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container
from dataclasses import dataclass
from itertools import compress, filterfalse

from .model import Finding, QuickFix, placed
from .terms import (
    Term,
    TermBlock,
    TermIndex,
    Use,
    as_term,
    capitalised_runs,
    match_terms,
    near_miss,
    undefined_candidate,
    word_forms,
)


@dataclass(slots=True, eq=False)
class BlockTerms:
    """What one block adds to the term findings, for one :attr:`TermIndex.shape`; compared and
    hashed by identity, as blocks alike share one (see :meth:`TermTotals.add_all`).

    Findings that also depend on the rest of the document wait in ``misses`` (reported unless
    the document writes one of the forms in lower case) and ``runs`` (an undefined-term
    candidate: each word needs one of its forms written in lower case somewhere, unless the
    phrase follows "this" somewhere, which its empty forms say).
    """

    uses: dict[Term, int]
    sites: dict[Term, tuple[int, int]]  # each term's first use that may precede its definition
    cases: list[Finding]
    misses: list[tuple[tuple[str, ...], Finding]]
    runs: list[tuple[Term, int, int, tuple[tuple[str, ...], ...]]]


def block_terms(block: TermBlock, index: TermIndex, block_id: str) -> BlockTerms:
    """Uses, capitalisation and spelling findings and undefined-term candidates of one block
    (findings placed in block ``block_id``: :func:`findings` places them in each block that
    shares the result)."""
    matches, taken = match_terms(block, index)
    out = BlockTerms({}, {}, [], [], [])
    uses, sites, label_end = out.uses, out.sites, block.label_end
    # a use here may come before its definition (not in the definitions clause or a [note])
    placing = not block.in_definitions_clause and not block.text.startswith("[")
    for match in matches:
        term, start, end, case_fix = match
        if case_fix is not None and term in index.defined and start >= label_end:
            out.cases.append(_case_finding(block, block_id, match, index))
            continue
        uses[term] = uses.get(term, 0) + 1
        if placing and term not in sites and start >= label_end:
            sites[term] = (start, end)
    words = block.words
    capitals = list(filterfalse(taken.__contains__, words.capitals))
    if not capitals:
        return out  # no misspelt term nor undefined term starts with a lower-case word
    misspelt_by = index.misspelt_by  # (cached per word: most capitalised words misspell nothing)
    for i in capitals:
        miss = near_miss(block, index, i) if misspelt_by(words.base[i]) else None
        if miss is not None:
            out.misses.append((word_forms(words.base[i]), _spelling_finding(block, block_id, miss, index)))
    if index.defined:
        for first, last in capitalised_runs(block, capitals, taken):
            candidate = undefined_candidate(block, first, last, index)
            if candidate is not None:
                term, forms = candidate
                # "this Cover Page": a part of the document, whatever its words (no forms to ask)
                this = first > 0 and words.text[first - 1] in ("this", "This") and len(term) > 1
                out.runs.append((term, words.start[first], words.end[last], () if this else forms))
    return out


class TermTotals:
    """The sum of every block's :class:`BlockTerms`, kept current one block at a time so a
    re-check after an edit touches only the blocks it changed."""

    def __init__(self) -> None:
        self.uses: Counter[Term] = Counter()
        self.sites: dict[Term, dict[int, tuple[int, int]]] = {}
        self.flagged: dict[int, BlockTerms] = {}  # blocks with findings or candidates

    def add(self, position: int, result: BlockTerms) -> None:
        self.add_all([result], start=position)

    def add_all(self, results: list[BlockTerms], start: int = 0) -> None:
        """Add the results of the blocks from position ``start`` on. Blocks alike share one
        result (a schedule's repeated cells and clauses): each distinct result's uses are
        counted once, times the blocks sharing it."""
        uses = self.uses
        shared = Counter(results)
        for result, blocks in shared.items():
            for term, count in result.uses.items():  # Counter.update would first ask isinstance(Mapping)
                uses[term] += count * blocks
        # most blocks have neither sites nor findings: only the others are visited one by one
        telling = {r for r in shared if r.sites or r.cases or r.misses or r.runs}
        for position in compress(range(start, start + len(results)), map(telling.__contains__, results)):
            result = results[position - start]
            for term, site in result.sites.items():
                self.sites.setdefault(term, {})[position] = site
            if result.cases or result.misses or result.runs:
                self.flagged[position] = result

    def remove(self, position: int, result: BlockTerms) -> None:
        self.uses.subtract(result.uses)
        for term in result.sites:
            at = self.sites[term]
            del at[position]
            if not at:
                del self.sites[term]
        self.flagged.pop(position, None)


def findings(
    block_at: Callable[[int], TermBlock],
    id_at: Callable[[int], str],
    index: TermIndex,
    totals: TermTotals,
    vocabulary: Container[str],
    labels: str = "",
    report_undefined: bool = True,
) -> list[Finding]:
    """Every term and party finding of the document: the blocks' own findings, the misspellings
    and undefined terms whose words the document never writes in lower case (``vocabulary``),
    and the findings about definitions. ``block_at`` gives the block at a position and
    ``id_at`` its id (blocks alike share a :class:`TermBlock` and its findings); without
    ``report_undefined`` (the document borrows its terms from another) no term is reported as
    undefined."""
    found: list[Finding] = []
    undefined: dict[Term, list[tuple[int, int, int]]] = {}
    ordinary: set[Term] = set()  # phrases of ordinary words, or named as "this …" somewhere
    for position in sorted(totals.flagged):
        result = totals.flagged[position]
        found.extend(placed(result.cases, id_at(position)))
        for forms, finding in result.misses:
            if not any(form in vocabulary for form in forms):
                found.extend(placed([finding], id_at(position)))
        for term, start, end, words in result.runs:
            undefined.setdefault(term, []).append((position, start, end))
            if not words or all(any(form in vocabulary for form in forms) for forms in words):
                ordinary.add(term)
    uses = Counter({term: totals.uses[term] for term in index.defined})
    for term in index.defined:
        if not uses[term] and " ".join(term) in labels:
            uses[term] += 1  # used in a title or heading ("Business Associate Agreement")
    found.extend(_definition_findings(block_at, id_at, index, uses, totals.sites))
    for term in index.removed:
        places = [(p, *site) for p, site in sorted(totals.sites.get(term, {}).items())]
        if term not in index.defined and places:
            message = (
                f"The definition of “{' '.join(term)}” is deleted by a tracked change, "
                f"but the term is still used ({totals.uses[term]} uses)."
            )
            found.append(_undefined(block_at, id_at, term, places, message))
    if report_undefined and len(index.defined) >= 3:
        for term, places in undefined.items():
            if term in ordinary and len(places) >= (2 if len(term) > 1 else 3):
                message = (
                    f"“{' '.join(term)}” is capitalised like a defined term ({len(places)} uses) "
                    "but is never defined."
                )
                found.append(_undefined(block_at, id_at, term, places, message))
    return found


def _undefined(
    block_at: Callable[[int], TermBlock],
    id_at: Callable[[int], str],
    term: Term,
    places: list[tuple[int, int, int]],
    message: str,
) -> Finding:
    """An undefined term, reported at its first use (``places``: block positions and ranges)."""
    position, start, end = places[0]
    return Finding(
        "terms",
        "undefinedTerm",
        "warning",
        message,
        id_at(position),
        start,
        end,
        block_at(position).text[start:end],
        " ".join(term),
        related=tuple(dict.fromkeys(id_at(p) for p, _, _ in places[1:6])),
    )


def _kind(term: Term, index: TermIndex) -> str:
    return "parties" if term in index.parties else "terms"


def _case_finding(block: TermBlock, block_id: str, match: Use, index: TermIndex) -> Finding:
    term, start, end, case_fix = match
    phrase = " ".join(term)
    evidence = block.text[start:end]
    assert case_fix is not None
    return Finding(
        _kind(term, index),
        "termCapitalisation",
        "warning",
        f"“{evidence}” differs in capitals from the defined term “{phrase}”.",
        block_id,
        start,
        end,
        evidence,
        phrase,
        fix=QuickFix(f"Change to “{case_fix}”", case_fix),
    )


def _spelling_finding(
    block: TermBlock, block_id: str, miss: tuple[Term, int, int, str], index: TermIndex
) -> Finding:
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
        block_id,
        start,
        end,
        evidence,
        phrase,
        fix=QuickFix(f"Change to “{word}”", word),
    )


def _definition_findings(
    block_at: Callable[[int], TermBlock],
    id_at: Callable[[int], str],
    index: TermIndex,
    uses: Counter[Term],
    sites: dict[Term, dict[int, tuple[int, int]]],
) -> list[Finding]:
    found: list[Finding] = []
    for term, places in index.defined.items():
        phrase = " ".join(term)
        position, definition = places[0]
        block, block_id = block_at(position), id_at(position)
        aliases = [as_term(d.term) for d in block.definitions if abs(d.start - definition.start) < 40]
        if not any(uses[alias] for alias in aliases) and term not in index.parties:
            found.append(
                Finding(
                    "terms",
                    "unusedTerm",
                    "info",
                    f"“{phrase}” is defined but never used.",
                    block_id,
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
                    id_at(later),
                    other.start,
                    other.end,
                    phrase,
                    phrase,
                    related=(block_id,),
                )
            )
        if block.in_definitions_clause or definition.form == "means" or term not in sites:
            continue
        used_at = min(sites[term])
        use_start, use_end = sites[term][used_at]
        if used_at < position:
            used = block_at(used_at)
            found.append(
                Finding(
                    "terms",
                    "usedBeforeDefinition",
                    "info",
                    f"“{phrase}” is used before the clause that defines it.",
                    id_at(used_at),
                    use_start,
                    use_end,
                    used.text[use_start:use_end],
                    phrase,
                    related=(block_id,),
                )
            )
    return found


__all__ = ["BlockTerms", "TermTotals", "block_terms", "findings"]
