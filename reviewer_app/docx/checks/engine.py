"""The checks engine: reads a snapshot's blocks (the accepted view) and runs every rule.

A :class:`Checker` keeps what it learnt about each block (tokens, definitions, references,
blanks, numbers) keyed by the block's id, text and numbering, so re-checking after an edit
re-reads only the blocks that changed; the document-wide part (which terms exist, which
labels exist) is cheap set and dictionary work over those cached facts.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from itertools import compress, repeat
from operator import attrgetter, is_not
from typing import overload

from lxml import etree

from ..blocks import Block
from ..snapshot import Snapshot
from ..xmlutil import W
from . import definitions, fields, numbers, term_findings, terms, xrefs
from .clauses import ClauseTracker
from .definitions import Definition
from .model import Finding, placed, sort_key
from .removed import RemovedDefinitions
from .text_facts import TextReader, title_of, words_up_to
from .vocabulary import Vocabulary

_SIGNATURE_LABEL = re.compile(r"^\s*([A-Z][A-Z ]{2,30}):")
_PLACEHOLDERS = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]")
#: the number of opening blocks searched for the parties' definitions
_PREAMBLE_BLOCKS = 15


#: What a block's facts depend on besides the block (see :meth:`Checker._contexts`).
Context = tuple[str | None, bool, bool, bool, bool]


@dataclass(slots=True)
class Facts:
    """Everything the rules need to know about one block that depends on the block alone (and
    on ``context``, what the blocks around it say: see :meth:`Checker._contexts`)."""

    context: Context  # label, table label, definitions, parties, first
    term_block: terms.TermBlock
    label_block: xrefs.LabelBlock
    labelled: xrefs.LabelBlock | None  # ``label_block`` when it may add a label (xrefs.may_label)
    references: list[xrefs.Reference]
    local: list[Finding]
    lower_words: frozenset[str]
    label: str | None  # a term-like heading title or table label: known, never reported
    parties: frozenset[terms.Term]  # party names this block gives
    borrows_terms: bool  # says undefined terms have the meanings another document gives
    manual: tuple[int, int | None] | None
    shape: object = None  # the TermIndex.shape ``terms`` was computed for
    terms: term_findings.BlockTerms | None = None


_MANUAL_PREFIX = re.compile(r"^\s*\d{1,3}(?:\.\d{1,3})*\.?\s+")


def _label_end(block: Block, title: str | None, table_label: bool, is_title: bool) -> int:
    if table_label or is_title or (block.heading_level is not None and words_up_to(block.text, 10) <= 10):
        return len(block.text)
    if title is not None and block.kind in ("heading", "listItem"):
        return block.text.find(title) + len(title)
    return 0


#: The checker's per-block sums (attribute names, by position) and what a block adds to each
#: (nothing when it is empty or false): the term definitions, term-like titles, party names,
#: borrowed-terms cues, labels references may point at, references, local findings, numbers.
_SHARES: tuple[tuple[str, Callable[[Facts], object]], ...] = (
    ("_definitions", attrgetter("term_block.definitions")),
    ("_labels", attrgetter("label")),
    ("_party_names", attrgetter("parties")),
    ("_borrowing", attrgetter("borrows_terms")),
    ("_labelled", attrgetter("labelled")),
    ("_references", attrgetter("references")),
    ("_local", attrgetter("local")),
    ("_manual", attrgetter("manual")),
)
#: A re-check reads only the changed blocks when no more than this many changed.
_INCREMENTAL_LIMIT = 64
#: What a block must keep for its context (heading state, label) to be known unchanged.
_SHAPE = ("id", "kind", "heading_level", "display_label", "list_reference", "table")


class Checker:
    """Runs every rule over snapshots of one document, reusing work between runs.

    Each block's facts are kept with the document-wide sums built from them (the lower-case
    vocabulary, definitions, labels, party names, term uses). When a re-check finds at most a
    few blocks replaced by text edits (the snapshot keeps every other block object), only those
    blocks are re-read and their share of the sums swapped; the term index and the labels
    references resolve against are rebuilt only when those blocks changed what they define or
    label. Otherwise every block is looked up by its content, so unchanged blocks still keep
    their facts, and blocks alike in text and context (a schedule's repeated table cells and
    clauses) share one reading.
    """

    def __init__(self) -> None:
        self._blocks: list[Block] = []
        self._facts: list[Facts] = []
        self._order: dict[str, int] = {}
        self._vocabulary = Vocabulary()
        self._definitions: dict[int, list[Definition]] = {}
        self._labels: dict[int, str] = {}
        self._party_names: dict[int, frozenset[terms.Term]] = {}
        self._borrowing: dict[int, bool] = {}
        self._labelled: dict[int, xrefs.LabelBlock] = {}
        self._references: dict[int, list[xrefs.Reference]] = {}
        self._local: dict[int, list[Finding]] = {}
        self._manual: dict[int, tuple[int, int | None]] = {}
        self._index: terms.TermIndex | None = None
        self._totals = term_findings.TermTotals()
        self._targets: xrefs.Labels | None = None
        self._own_words: set[str] = set()
        self._reference_found: dict[int, list[Finding]] = {}
        self._gaps: list[Finding] | None = None
        self._fields: tuple[etree._Element, list[Finding], dict[etree._Element, set[str]]] | None = None
        self._stale: set[str] = set()  # document-wide results the blocks changed may alter
        self._removed = RemovedDefinitions()

    def check(
        self, snapshot: Snapshot, body: etree._Element | None = None, pending: Snapshot | None = None
    ) -> list[Finding]:
        """Findings of ``snapshot`` in document order; ``body`` (the live ``w:body``) adds the
        REF-field checks, which need the XML. ``pending`` is the snapshot holding the tracked
        changes when ``snapshot`` is a copy with them accepted (deleted definitions are read
        from it); by default ``snapshot`` holds them itself."""
        blocks = [b for b in snapshot.blocks if b.kind != "diagnostic" and b.normalized]
        changed = self._changed(blocks)
        self._stale = set()
        with collector_paused() if changed is None else nullcontext():
            if changed is None:
                self._read_all(snapshot, blocks)
            else:
                for position in changed:
                    self._swap(position, blocks[position])
            self._blocks = blocks
            found = [finding for local in self._local.values() for finding in local]
            removed = self._removed.terms((pending or snapshot).blocks)
            found.extend(self._term_findings(changed, removed))
            found.extend(self._reference_findings(changed))
            found.extend(self._numbering_gaps(changed))
            if body is not None:
                found.extend(self._field_findings(snapshot, body, changed))
        found.sort(key=lambda f: sort_key(f, self._order))
        return found

    # ------------------------------------------------------------- per-block facts
    def _changed(self, blocks: list[Block]) -> list[int] | None:
        """Positions of the blocks a text edit replaced since the last check, or None when the
        document changed otherwise (or too much) and every block must be looked at."""
        old = self._blocks
        if not old or len(old) != len(blocks):
            return None
        changed = list(compress(range(len(blocks)), map(is_not, blocks, old)))
        if len(changed) > _INCREMENTAL_LIMIT:
            return None
        for position in changed:
            before, after = old[position], blocks[position]
            if before.heading_level is not None or any(
                getattr(before, name) != getattr(after, name) for name in _SHAPE
            ):
                return None
        return changed

    def _swap(self, position: int, block: Block) -> None:
        """Replace one block's facts (in the same context) and its share of the sums, noting
        which document-wide results the change may alter."""
        old = self._facts[position]
        self._forget(position, old)
        facts = _facts(block, old.context, TextReader())
        self._facts[position] = facts
        self._vocabulary.add(facts.lower_words)
        self._remember(position, facts)
        if old.labelled or facts.labelled:
            self._stale.add("targets")
        if [(r.word, r.target) for r in old.references] != [(r.word, r.target) for r in facts.references]:
            self._stale.add("words")
        if old.manual or facts.manual:
            self._stale.add("manual")

    def _read_all(self, snapshot: Snapshot, blocks: list[Block]) -> None:
        # the last check's facts by all they depend on (none on a first check): blocks it read
        # keep theirs, however the document changed around them
        known = {_content(b, f.context): f for b, f in zip(self._blocks, self._facts, strict=True)}
        reader = TextReader()
        alike: dict[tuple, Facts] = {}  # facts by all they depend on but block id, list and label
        read: list[Facts] = []
        self._facts = read
        for block, context, like in zip(blocks, *self._contexts(blocks), strict=True):
            facts = known.get(_content(block, context)) if known else None
            if facts is None:
                model = alike.get(like)
                if model is None:
                    facts = alike[like] = _facts(block, context, reader)
                elif not model.local and not block.list_reference and model.context == context:
                    facts = model  # (as _readdressed says, without the call: most blocks alike)
                else:
                    facts = _readdressed(model, block, context)
            read.append(facts)
        self._order = snapshot.memo("check_order", lambda snap: {b.id: i for i, b in enumerate(snap.blocks)})
        self._vocabulary = Vocabulary(map(attrgetter("lower_words"), self._facts))
        for name, share in _SHARES:  # each sum made at once, with C-level getters and filter
            values = list(map(share, self._facts))
            setattr(self, name, dict(compress(enumerate(values), values)))
        self._index = None
        self._targets = None
        self._gaps = None
        self._fields = None

    @staticmethod
    def _contexts(blocks: Sequence[Block]) -> tuple[list[Context], list[tuple]]:
        """Each block's context, what its facts depend on besides the block (its shown label,
        whether it is a table's first column, in a definitions clause, where parties are
        defined, the first), and all its facts depend on but its id, its list and the label it
        shows (which :func:`_readdressed` puts right): blocks with the same key share one
        reading. Made a column at a time, the clause states a run of blocks from each heading
        on, as a full check asks it of ten thousand blocks and more."""
        count = len(blocks)
        levels = list(map(attrgetter("heading_level"), blocks))
        labels = list(map(attrgetter("display_label"), blocks))
        tables = list(map(attrgetter("table"), blocks))
        first_column = [bool(t) and t.get("gridColumnIndex") == 0 for t in tables]
        in_definitions, in_parties = [False] * count, [False] * count
        headings = list(compress(range(count), map(is_not, levels, repeat(None))))
        clause = ClauseTracker()
        for position, end in zip(headings, [*headings[1:], count][: len(headings)], strict=True):
            clause.read(blocks[position])
            in_definitions[position:end] = repeat(clause.in_definitions, end - position)
            in_parties[position:end] = repeat(clause.in_parties, end - position)
        in_parties[:_PREAMBLE_BLOCKS] = repeat(True, min(count, _PREAMBLE_BLOCKS))
        first = [False] * count
        if count:
            first[0] = True
        contexts = list(zip(labels, first_column, in_definitions, in_parties, first, strict=True))
        alike = zip(
            map(attrgetter("text"), blocks),
            map(attrgetter("kind"), blocks),
            levels,
            map(bool, map(attrgetter("list_reference"), blocks)),
            map(bool, labels),
            map(bool, tables),
            first_column,
            in_definitions,
            in_parties,
            first,
            strict=True,
        )
        return contexts, list(alike)

    def _remember(self, position: int, facts: Facts) -> None:
        """Add a block's share of the sums, but for its words (see :meth:`_swap`)."""
        for name, share in _SHARES:
            value = share(facts)
            if value:
                getattr(self, name)[position] = value

    def _forget(self, position: int, facts: Facts) -> None:
        """Take a block's share out of the sums, its words included."""
        self._vocabulary.remove(facts.lower_words)
        if facts.terms is not None and facts.shape == self._shape():
            self._totals.remove(position, facts.terms)
        for name, _ in _SHARES:
            getattr(self, name).pop(position, None)

    def _shape(self) -> object:
        return None if self._index is None else self._index.shape

    # ------------------------------------------------------------- terms and parties
    def _term_findings(self, changed: list[int] | None, removed: dict[terms.Term, str]) -> list[Finding]:
        """Term and party findings; ``removed`` (terms whose definitions a pending deletion took
        out) are known terms, so their uses are found whole however they are capitalised."""
        definitions = [(p, d) for p, found in sorted(self._definitions.items()) for d in found]
        labels = [self._labels[p] for p in sorted(self._labels)]
        known = {terms.as_term(d.term) for _, d in definitions}
        known.update(terms.as_term(label) for label in labels)
        parties = {t for t in known if len(t) == 1 and t[0] in _ROLES}
        parties.update(*self._party_names.values())
        index = terms.build_index(definitions, labels, parties, removed)
        if self._index is not None and index.shape == self._index.shape:
            self._index.defined = index.defined  # same terms: keep the lookup tables (and the
            self._index.removed = index.removed  # shape, told the same as the blocks' by identity)
            index = self._index
        else:
            index.finish()
            self._index = index
            changed = None
        shape = index.shape
        shared: dict[tuple, term_findings.BlockTerms] = {}
        if changed is None:
            # each distinct facts once, at its first block (blocks alike share facts)
            facts = self._facts
            firsts = dict(zip(map(id, reversed(facts)), range(len(facts) - 1, -1, -1), strict=True))
            for position in sorted(firsts.values()):
                self._block_terms(position, index, shape, shared)
            self._totals = term_findings.TermTotals()
            self._totals.add_all(list(map(attrgetter("terms"), facts)))
        else:
            for position in changed:
                self._totals.add(position, self._block_terms(position, index, shape, shared))
        return term_findings.findings(
            lambda position: self._facts[position].term_block,
            lambda position: self._blocks[position].id,
            index,
            self._totals,
            self._vocabulary,
            "\n".join(labels),
            report_undefined=not self._borrowing,
        )

    def _block_terms(
        self,
        position: int,
        index: terms.TermIndex,
        shape: object,
        shared: dict[tuple, term_findings.BlockTerms],
    ) -> term_findings.BlockTerms:
        """The term uses and findings of the block at ``position`` for ``shape``; blocks alike in
        all the term rules read (text, title, clause, party context) share one result through
        ``shared`` (its findings are placed in each block by :func:`term_findings.findings`)."""
        facts = self._facts[position]
        if facts.terms is None or facts.shape != shape:
            block = facts.term_block
            key = (block.text, block.label_end, block.in_definitions_clause, block.party_context)
            found = shared.get(key)
            if found is None:
                found = shared[key] = term_findings.block_terms(block, index, self._blocks[position].id)
            facts.terms, facts.shape = found, shape
        return facts.terms

    # ------------------------------------------------------------- references
    def _reference_findings(self, changed: list[int] | None) -> list[Finding]:
        if changed is None or self._targets is None or self._stale & {"targets", "words"}:
            if changed is None or self._targets is None or "targets" in self._stale:
                self._targets = xrefs.labels(sorted(self._labelled.items()))
            self._own_words = xrefs.own_words(list(self._references.values()))
            self._reference_found = {}
            positions: Iterable[int] = list(self._references)
        else:
            positions = changed
        ids = _Ids(self._blocks)
        for position in positions:
            facts = self._facts[position]
            self._reference_found.pop(position, None)
            if facts.references and not any(x.code == "draftingNote" for x in facts.local):
                block = self._blocks[position]
                found = xrefs.check(
                    block.id, block.text, facts.references, self._targets, ids, self._own_words
                )
                if found:
                    self._reference_found[position] = found
        return [finding for found in self._reference_found.values() for finding in found]

    def _numbering_gaps(self, changed: list[int] | None) -> list[Finding]:
        if changed is None or self._gaps is None or "manual" in self._stale:
            self._gaps = numbers.numbering_gaps(
                (self._blocks[p].id, self._blocks[p].text, number)
                for p, number in sorted(self._manual.items())
            )
        return self._gaps

    def _field_findings(
        self, snapshot: Snapshot, body: etree._Element, changed: list[int] | None
    ) -> list[Finding]:
        """REF/PAGEREF findings; kept after a text edit that neither touched a field nor
        removed or added a bookmark (the fields' own blocks are then unchanged too)."""
        if changed is not None and self._fields is not None and self._fields[0] is body:
            marks = self._fields[2]
            if all(_field_free(self._blocks[p].element, marks) for p in changed):
                return self._fields[1]
        by_element = snapshot.memo(
            "check_elements", lambda snap: {b.element: b for b in snap.blocks if b.element is not None}
        )

        def block_of(p: etree._Element) -> tuple[str, str] | None:
            block = by_element.get(p)
            return None if block is None else (block.id, block.text)

        def label_of(p: etree._Element) -> str | None:
            block = by_element.get(p)
            return None if block is None else block.display_label

        found, marks = fields.check(body, block_of, label_of)
        self._fields = (body, found, marks)
        return found


@contextmanager
def collector_paused() -> Iterator[None]:
    """Checking every block makes some hundred thousand small objects (tokens, facts, matches)
    and no reference cycles; the cycle collector would otherwise walk the whole open document
    again and again meanwhile, a fifth of a full check's time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Ids(Sequence[str]):
    """Block ids by position, read from the blocks when asked (the rules want few of them)."""

    def __init__(self, blocks: list[Block]) -> None:
        self._blocks = blocks

    def __len__(self) -> int:
        return len(self._blocks)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [b.id for b in self._blocks[index]]
        return self._blocks[index].id


def _field_free(element: etree._Element | None, marks: dict[etree._Element, set[str]]) -> bool:
    """True when paragraph ``element`` holds no field and the same bookmarks as when fields
    were last checked."""
    if element is None:
        return False
    if next(element.iter(W + "fldSimple", W + "instrText", W + "fldChar"), None) is not None:
        return False
    return {m.get(W + "name") or "" for m in element.iter(W + "bookmarkStart")} == marks.get(element, set())


def _facts(block: Block, context: Context, reader: TextReader) -> Facts:
    """A block's facts in its ``context`` (see :meth:`Checker._contexts`), from what its text
    alone says (each text read once by ``reader``)."""
    label_text, table_label, in_definitions, party_context, is_title = context
    text = block.text
    read = reader.read(block.id, text)
    manual = read.manual if not label_text and not block.table else None
    title = reader.title(text) if (block.heading_level is not None or block.display_label) else None
    if manual is not None:
        title = title_of(_MANUAL_PREFIX.sub("", text))
    short = words_up_to(text, 8) <= 8 and not text.rstrip().endswith((".", ";", ","))
    is_title = is_title or (short and block.kind == "paragraph" and not block.table)
    table_label = table_label or bool(block.table and short)
    label = None
    if (table_label and short) or is_title:
        label = _PLACEHOLDERS.sub("", text).strip().rstrip(":").rsplit(": ", 1)[-1].strip()
    elif title is not None and block.heading_level is not None:
        label = title
    if label is not None and not definitions.looks_like_term(label):
        label = None
    signature = _SIGNATURE_LABEL.match(text) if block.table else None
    if signature is not None:
        label = signature.group(1).strip().title()
    term_block = terms.TermBlock(
        text=text,
        words=read.words,
        definitions=reader.definitions(text, in_definitions),
        label_end=_label_end(block, title, table_label and short, is_title),
        in_definitions_clause=in_definitions,
        party_context=party_context or signature is not None or read.names_company,
    )
    label_block = xrefs.LabelBlock(
        text=text,
        label=label_text if label_text and block.list_reference else None,
        list_key=(block.list_reference["numId"], block.list_reference["level"])
        if block.list_reference
        else None,
        title=title,
    )
    return Facts(
        context=context,
        term_block=term_block,
        label_block=label_block,
        labelled=label_block if xrefs.may_label(text, label_block.label) else None,
        references=read.references,
        local=read.local_for(block.id),
        lower_words=read.words.lower,
        label=label,
        parties=_party_names(term_block),
        borrows_terms=read.borrows_terms,
        manual=manual,
    )


def _content(block: Block, context: Context) -> tuple:
    """All a block's facts depend on: its id, text, kind, level, list and ``context``."""
    ref = block.list_reference
    return (
        block.id,
        block.text,
        block.kind,
        block.heading_level,
        tuple(ref.values()) if ref else None,
        context,
    )


def _readdressed(facts: Facts, block: Block, context: Context) -> Facts:
    """The facts of ``block``, alike to the one ``facts`` were read from in text and all its
    context but its list and the label it shows (``5.2`` in one schedule's list, ``25.2`` in the
    next): the same facts (the very same when they name no block, list or label), with
    ``block``'s findings, list and label."""
    label_block, labelled = facts.label_block, facts.labelled
    ref = block.list_reference
    if ref and (context[0] != label_block.label or (ref["numId"], ref["level"]) != label_block.list_key):
        label_block = xrefs.LabelBlock(
            block.text, context[0], (ref["numId"], ref["level"]), label_block.title
        )
        labelled = label_block if xrefs.may_label(block.text, label_block.label) else None
    if not facts.local and context == facts.context and label_block is facts.label_block:
        return facts
    return Facts(
        context=context,
        term_block=facts.term_block,
        label_block=label_block,
        labelled=labelled,
        references=facts.references,
        local=placed(facts.local, block.id),
        lower_words=facts.lower_words,
        label=facts.label,
        parties=facts.parties,
        borrows_terms=facts.borrows_terms,
        manual=facts.manual,
    )


_BETWEEN = re.compile(r"\bbetween\s+(?:the\s+)?([A-Z][a-z]+)\s+and\s+(?:the\s+)?([A-Z][a-z]+)\b")
#: Role names contracts give their parties; a known term with one of these names is a party.
_ROLES = frozenset(
    [
        "Customer",
        "Provider",
        "Supplier",
        "Company",
        "Contractor",
        "Partner",
        "Licensee",
        "Licensor",
        "Client",
        "Vendor",
        "Buyer",
        "Seller",
        "Discloser",
        "Recipient",
        "Lender",
        "Borrower",
        "Landlord",
        "Tenant",
        "Employer",
        "Employee",
        "Consultant",
        "Purchaser",
        "Distributor",
        "Reseller",
        "Investor",
        "Guarantor",
    ]
)


def _party_names(block: terms.TermBlock) -> frozenset[terms.Term]:
    """Terms a block shows to name a party: role names in "between X and Y", and, where parties
    are defined (the preamble, the parties clause, next to a company name, a signature block),
    parenthetical definitions and a signature block's label (``CUSTOMER:``). A known term with a
    role name (``Customer``) is a party too; the checker adds those."""
    found: set[terms.Term] = set()
    if "between" in block.text:
        for m in _BETWEEN.finditer(block.text):
            found.update({(m.group(1),), (m.group(2),)} & {(r,) for r in _ROLES})
    if block.party_context:
        for definition in block.definitions:
            if definition.form == "parenthetical":
                found.add(terms.as_term(definition.term))
        signature = _SIGNATURE_LABEL.match(block.text)
        if signature is not None:
            found.add(terms.as_term(signature.group(1).strip().title()))
    return frozenset(found)
