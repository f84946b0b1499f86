"""The checks engine: reads a snapshot's blocks (the accepted view) and runs every rule.

A :class:`Checker` keeps what it learnt about each block (tokens, definitions, references,
blanks, numbers) keyed by the block's id, text and numbering, so re-checking after an edit
re-reads only the blocks that changed; the document-wide part (which terms exist, which
labels exist) is cheap set and dictionary work over those cached facts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lxml import etree

from ..blocks import Block
from ..snapshot import Snapshot
from ..xmlutil import W
from . import blanks, definitions, fields, numbers, terms, xrefs
from .model import Finding, sort_key
from .words import Token, tokens

_DEFINITIONS_HEADING = re.compile(r"\b(?:definitions?|interpretation|defined terms)\b", re.I)
_PARTIES_HEADING = re.compile(r"^\s*(?:the\s+)?parties\b", re.I)
_SIGNATURE_LABEL = re.compile(r"^\s*([A-Z][A-Z ]{2,30}):")
_COMPANY = re.compile(
    r"\b(?:Ltd|Limited|Inc|LLC|L\.L\.C|PLC|plc|LLP|Corporation|Corp|GmbH|S\.A|N\.V|B\.V|AG|SE)\b\.?"
)
_PLACEHOLDERS = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]")
#: the number of opening blocks searched for the parties' definitions
_PREAMBLE_BLOCKS = 15


@dataclass(slots=True)
class Facts:
    """Everything the rules need to know about one block that depends on the block alone."""

    term_block: terms.TermBlock
    label_block: xrefs.LabelBlock
    references: list[xrefs.Reference]
    local: list[Finding]
    lower_words: frozenset[str]
    label: str | None  # a term-like heading title or table label: known, never reported
    manual: tuple[int, int | None] | None


_MANUAL_PREFIX = re.compile(r"^\s*\d{1,3}(?:\.\d{1,3})*\.?\s+")


def _title(block: Block) -> str | None:
    """The title a heading or numbered clause carries (``Confidentiality.`` → ``Confidentiality``)."""
    return _title_text(block.text)


def _title_text(text: str) -> str | None:
    text = text.strip()
    if not text:
        return None
    head = re.split(r"(?<=[a-z)])\.\s|\.$|\t", text, maxsplit=1)[0].strip()
    return head if 0 < len(head.split()) <= 8 else None


def _label_end(block: Block, title: str | None, table_label: bool, is_title: bool) -> int:
    if table_label or is_title or (block.heading_level is not None and len(block.text.split()) <= 10):
        return len(block.text)
    if title is not None and block.kind in ("heading", "listItem"):
        return block.text.find(title) + len(title)
    return 0


class Checker:
    """Runs every rule over snapshots of one document, reusing per-block work between runs."""

    def __init__(self) -> None:
        self._facts: dict[tuple, Facts] = {}
        self._matches: dict[int, tuple[list[terms.Match], list[int]]] = {}
        self._index_key: frozenset[terms.Term] | None = None

    def check(self, snapshot: Snapshot, body: etree._Element | None = None) -> list[Finding]:
        """Findings of ``snapshot`` in document order; ``body`` (the live ``w:body``) adds the
        REF-field checks, which need the XML."""
        blocks = [b for b in snapshot.blocks if b.kind != "diagnostic" and b.normalized]
        facts = self._all_facts(blocks, snapshot.memo("check_labels", shown_labels))
        found: list[Finding] = []
        for f in facts:
            found.extend(f.local)
        found.extend(self._term_findings(facts))
        found.extend(self._reference_findings(blocks, facts))
        numbered = [
            (b.id, b.text, f.manual) for b, f in zip(blocks, facts, strict=True) if f.manual is not None
        ]
        found.extend(numbers.numbering_gaps(numbered))
        if body is not None:
            found.extend(self._field_findings(snapshot, body))
        order = snapshot.memo("check_order", lambda snap: {b.id: i for i, b in enumerate(snap.blocks)})
        found.sort(key=lambda f: sort_key(f, order))
        return found

    # ------------------------------------------------------------- per-block facts
    def _all_facts(self, blocks: Sequence[Block], labels: dict[str, str]) -> list[Facts]:
        out: list[Facts] = []
        fresh: dict[tuple, Facts] = {}
        in_definitions: int | None = None
        in_parties = False
        for position, block in enumerate(blocks):
            if block.heading_level is not None and len(block.text.split()) <= 10:
                if in_definitions is not None and block.heading_level <= in_definitions:
                    in_definitions = None
                if _DEFINITIONS_HEADING.search(block.text):
                    in_definitions = block.heading_level
                in_parties = bool(_PARTIES_HEADING.match(block.text))
            table_label = bool(block.table and block.table.get("gridColumnIndex") == 0)
            party_context = position < _PREAMBLE_BLOCKS or in_parties
            label = labels.get(block.id, block.display_label)
            key = (
                block.id,
                block.text,
                label,
                block.heading_level,
                block.kind,
                table_label,
                in_definitions is not None,
                party_context,
                position == 0,
                tuple(block.list_reference.values()) if block.list_reference else None,
            )
            facts = self._facts.get(key)
            if facts is None:
                facts = _facts(
                    block, label, table_label, in_definitions is not None, party_context, position == 0
                )
            fresh[key] = facts
            out.append(facts)
        self._facts = fresh
        return out

    # ------------------------------------------------------------- terms and parties
    def _term_findings(self, facts: Sequence[Facts]) -> list[Finding]:
        term_blocks = [f.term_block for f in facts]
        labels = [f.label for f in facts if f.label]
        known = {terms.as_term(d.term) for b in term_blocks for d in b.definitions}
        known.update(terms.as_term(label) for label in labels)
        index = terms.build_index(term_blocks, labels, _parties(term_blocks, known))
        index.vocabulary = set().union(*(f.lower_words for f in facts)) if facts else set()
        key = frozenset(index.known)
        if key != self._index_key:
            self._matches, self._index_key = {}, key
        matched = []
        fresh: dict[int, tuple[list[terms.Match], list[int]]] = {}
        for block in term_blocks:
            result = self._matches.get(id(block))
            if result is None:
                result = terms.match_terms(block, index)
            fresh[id(block)] = result
            matched.append(result)
        self._matches = fresh
        return terms.check(term_blocks, index, matched, "\n".join(labels))

    # ------------------------------------------------------------- references
    def _reference_findings(self, blocks: Sequence[Block], facts: Sequence[Facts]) -> list[Finding]:
        known = xrefs.labels([f.label_block for f in facts])
        ids = [b.id for b in blocks]
        words = xrefs.own_words([f.references for f in facts])
        found: list[Finding] = []
        for block, f in zip(blocks, facts, strict=True):
            if f.references and not any(x.code == "draftingNote" for x in f.local):
                found.extend(xrefs.check(block.id, block.text, f.references, known, ids, words))
        return found

    def _field_findings(self, snapshot: Snapshot, body: etree._Element) -> list[Finding]:
        by_element = snapshot.memo(
            "check_elements", lambda snap: {b.element: b for b in snap.blocks if b.element is not None}
        )

        def block_of(p: etree._Element) -> tuple[str, str] | None:
            block = by_element.get(p)
            return None if block is None else (block.id, block.text)

        def label_of(p: etree._Element) -> str | None:
            block = by_element.get(p)
            return None if block is None else block.display_label

        return fields.check(body, block_of, label_of)


def shown_labels(snapshot: Snapshot) -> dict[str, str]:
    """Labels corrected for empty numbered paragraphs that only carry a section break.

    The block model counts such a paragraph (``1.`` with no text) like Word's list engine may,
    but LibreOffice and the document's own cross-references do not: ``Section 1.4`` of the
    Common Paper terms is the fourth clause of the first heading the reader sees. Labels of
    that list after it are shifted back by one at that level.
    """
    shifts: dict[int, dict[int, int]] = {}
    out: dict[str, str] = {}
    for block in snapshot.blocks:
        ref = block.list_reference
        if ref is None:
            continue
        num_id, level = ref["numId"], ref["level"]
        levels = shifts.get(num_id)
        if not block.normalized:
            ppr = block.element.find(W + "pPr") if block.element is not None else None
            if ppr is not None and ppr.find(W + "sectPr") is not None:
                shifts.setdefault(num_id, {})[level] = shifts.get(num_id, {}).get(level, 0) + 1
            continue
        if not levels or not block.display_label:
            continue
        for deeper in [lvl for lvl in levels if lvl > level]:
            del levels[deeper]
        parts = block.display_label.rstrip(".").split(".")
        if not all(p.isdigit() for p in parts):
            continue
        for lvl, count in levels.items():
            if lvl < len(parts):
                parts[lvl] = str(int(parts[lvl]) - count)
        out[block.id] = ".".join(parts) + ("." if block.display_label.endswith(".") else "")
    return out


def _facts(
    block: Block,
    label_text: str | None,
    table_label: bool,
    in_definitions: bool,
    party_context: bool,
    is_title: bool,
) -> Facts:
    text = block.text
    words = tokens(text)
    manual = numbers.manual_number(text) if not label_text and not block.table else None
    title = _title(block) if (block.heading_level is not None or block.display_label) else None
    if manual is not None:
        title = _title_text(_MANUAL_PREFIX.sub("", text))
    short = len(text.split()) <= 8 and not text.rstrip().endswith((".", ";", ","))
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
        id=block.id,
        text=text,
        tokens=words,
        definitions=definitions.find(text, in_definitions),
        label_end=_label_end(block, title, table_label and short, is_title),
        in_definitions_clause=in_definitions,
        party_context=party_context or bool(_COMPANY.search(text)) or signature is not None,
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
        term_block=term_block,
        label_block=label_block,
        references=xrefs.find(text),
        local=blanks.check(block.id, text) + numbers.check(block.id, text),
        lower_words=frozenset(_lower(words)),
        label=label,
        manual=manual,
    )


def _lower(words: list[Token]) -> list[str]:
    return [t.base.lower() for t in words if not t.text[0].isupper()]


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


def _parties(blocks: Sequence[terms.TermBlock], known: set[terms.Term]) -> set[terms.Term]:
    """Terms that name a party: defined in the preamble or the parties clause, next to a
    company name, named in "between X and Y", a known term with a role name (``Customer``),
    or used as a signature block's label (``CUSTOMER:``)."""
    found: set[terms.Term] = {t for t in known if len(t) == 1 and t[0] in _ROLES}
    for block in blocks:
        for m in _BETWEEN.finditer(block.text):
            found.update({(m.group(1),), (m.group(2),)} & {(r,) for r in _ROLES})
        if not block.party_context:
            continue
        for definition in block.definitions:
            if definition.form == "parenthetical":
                found.add(terms.as_term(definition.term))
        signature = _SIGNATURE_LABEL.match(block.text)
        if signature is not None:
            found.add(terms.as_term(signature.group(1).strip().title()))
    return found
