"""Cross-references: ``Section 5.3(b)``, ``clauses 4 to 6``, ``Schedule 2``, ``Exhibit A``,
resolved against the numbering labels the document shows (list labels as laid out, and
numbers typed at the start of a paragraph).

A reference followed by ``of the …`` another instrument (``section 2 of the Supply of Goods
Act``), or preceded by ``§``/``U.S.C.``, points outside the document and is not checked; nor
are references at all in a document with no numbering to resolve them against, or to
schedules when the document has no schedule of that kind (it is then a separate document).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .model import Finding, QuickFix
from .words import contains_any

_NUM = r"\d{1,3}(?:\.\d{1,3})*(?![\dA-Za-z])(?:\s?\((?:[a-zA-Z]{1,4}|\d{1,3})\))*"
_REFERENCE = re.compile(
    r"\b(?P<word>[Ss]ections?|[Cc]lauses?|[Aa]rticles?|[Pp]aragraphs?|[Ss]ub-?clauses?|[Ss]ub-?sections?)\s+"
    rf"(?P<list>{_NUM}(?:\s*(?:,|and|or|to|through|and/or|-|–)\s*{_NUM})*)"
)
_ONE = re.compile(_NUM)
_ATTACHMENT = re.compile(
    r"\b(?P<word>Schedule|Exhibit|Annex|Appendix|Attachment)\s+(?P<id>\d{1,3}|[A-Z]{1,2}|[IVX]{1,5})\b"
)
_EXTERNAL_AFTER = re.compile(
    r"\s*,?\s*(?:of|in|under|to)\s+(?:the\s+)?(?!this\b|these\b)(?:[A-Z]|[\d]{2,4}\s)|\s*(?:of\s+)?(?:the\s+)?(?:UK\s+)?"
    r"(?:GDPR|CCPA|HIPAA|U\.S\.C|C\.F\.R|CFR|Act\b|Regulation\b|Code\b|Directive\b)"
)
_EXTERNAL_BEFORE = re.compile(r"(?:§|U\.S\.C\.?|C\.F\.R\.?|CFR|FAR|DFARS|GDPR|Regulation|Act)\s*$")
_TITLE = re.compile(r"\s*\(([A-Z][^()]{2,80})\)")
_LEADING_WORD = re.compile(r"^(?:article|section|clause|schedule|part)\s+", re.I)
_PART = re.compile(r"\(?([a-zA-Z]{1,4}|\d{1,3})\)?")
_NUMERIC = re.compile(r"\d{1,3}(?:\.\d{1,3})*")
_MANUAL = re.compile(r"^\s*(?:(?:article|section|clause)\s+)?(\d{1,3}(?:\.\d{1,3})*)\.?(?=\s)", re.I)
#: A word every reference holds; most paragraphs hold none and skip the patterns.
_CUES = ("ection", "lause", "rticle", "aragraph", "chedule", "xhibit", "nnex", "ppendix", "ttachment")
_ATTACHMENT_TARGET = re.compile(
    r"^\s*(Schedule|Exhibit|Annex|Appendix|Attachment)\s+(\d{1,3}|[A-Z]{1,2}|[IVX]{1,5})\b", re.I
)


@dataclass(frozen=True, slots=True)
class Reference:
    """One referenced number at ``[start, end)`` (``5.3(b)``), with the title quoted after it."""

    word: str
    target: str
    start: int
    end: int
    title: str | None


def find(text: str) -> list[Reference]:
    """Every internal cross-reference in one block's text."""
    found: list[Reference] = []
    if not contains_any(text, _CUES):
        return found
    for m in _REFERENCE.finditer(text):
        if _EXTERNAL_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue
        if _EXTERNAL_AFTER.match(text, m.end()):
            continue
        title_match = _TITLE.match(text, m.end())
        title = title_match.group(1) if title_match else None
        base = m.start("list")
        parts = list(_ONE.finditer(m.group("list")))
        for part in parts:
            found.append(
                Reference(
                    m.group("word"),
                    _normal(part.group()),
                    base + part.start(),
                    base + part.end(),
                    title if len(parts) == 1 else None,
                )
            )
    for m in _ATTACHMENT.finditer(text):
        if _EXTERNAL_AFTER.match(text, m.end()) and not text.startswith(" to this", m.end()):
            continue
        found.append(
            Reference(
                m.group("word"),
                f"{m.group('word').lower()} {m.group('id')}",
                m.start("id"),
                m.end("id"),
                None,
            )
        )
    return found


def _normal(number: str) -> str:
    return re.sub(r"\s+", "", number)


@dataclass(slots=True)
class Labels:
    """Numbers the document shows, each with its block position and title."""

    targets: dict[str, int] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    label_titles: dict[str, str] = field(default_factory=dict)
    attachments: set[str] = field(default_factory=set)
    attachment_words: set[str] = field(default_factory=set)
    numeric: int = 0


@dataclass(slots=True)
class LabelBlock:
    """What label resolution needs of one block."""

    text: str
    label: str | None
    list_key: tuple[int, int] | None
    title: str | None


def may_label(text: str, label: str | None) -> bool:
    """True when a block with this text and list label adds a target :func:`labels` resolves
    references to (a numbered or lettered paragraph, or the heading of a schedule)."""
    return label is not None or bool(_MANUAL.match(text) or _ATTACHMENT_TARGET.match(text))


def labels(blocks: Iterable[tuple[int, LabelBlock]]) -> Labels:
    """Full numbers (``3.2(e)(i)``) of every labelled block, given (position, block) in reading
    order; blocks for which :func:`may_label` is false may be left out."""
    out = Labels()
    numeric: str | None = None
    parts: list[tuple[tuple[int, int] | None, str]] = []
    for position, block in blocks:
        attachment = _ATTACHMENT_TARGET.match(block.text)
        if attachment is not None:
            word = attachment.group(1).lower()
            out.attachments.add(f"{word} {attachment.group(2).upper()}")
            out.attachment_words.add(word)
        label = block.label
        if label is None:
            manual = _MANUAL.match(block.text)
            if manual is None:
                continue
            label = manual.group(1)
        text, part = _label_parts(label)
        if part is None:
            numeric, parts = text, []
            full = text
            out.numeric += 1
        else:
            if not part:
                continue
            key = block.list_key
            keys = [k for k, _ in parts]
            if key is not None and key in keys:
                parts = parts[: keys.index(key)]
            parts.append((key, part))
            full = (numeric or "") + "".join(p for _, p in parts)
        out.targets.setdefault(full, position)
        if block.title:
            out.titles.setdefault(block.title.lower(), full)
            out.label_titles.setdefault(full, block.title.lower())
    return out


@lru_cache(maxsize=1024)
def _label_parts(label: str) -> tuple[str, str | None]:
    """A shown label without its leading word and full stop (``Section 5.`` → ``5``), and, but
    for a number (None), the part it adds in brackets (``(b)``; empty when it is neither).
    Cached: a document shows the same few labels thousands of times."""
    text = _LEADING_WORD.sub("", label.strip()).rstrip(".").strip()
    if _NUMERIC.fullmatch(text):
        return text, None
    part = _PART.fullmatch(text)
    return text, "" if part is None else f"({part.group(1)})"


_ATTACHMENT_WORDS = ("schedule", "exhibit", "annex", "appendix", "attachment")


def own_words(references: Sequence[Sequence[Reference]]) -> set[str]:
    """The words (``section``, ``clause``) this document uses for its own provisions: those of at
    least a quarter of its numbered references. A contract citing ``Clause 17`` of standard
    clauses it incorporates, but numbering its own ``Sections``, is not checked on the former."""
    counts: dict[str, int] = {}
    for refs in references:
        for ref in refs:
            if not ref.target.startswith(_ATTACHMENT_WORDS):
                word = ref.word.lower().rstrip("s").replace("-", "")
                counts[word] = counts.get(word, 0) + 1
    top = max(counts.values(), default=0)
    return {w for w, n in counts.items() if n == top}


def check(
    block_id: str,
    text: str,
    references: Sequence[Reference],
    known: Labels,
    ids: Sequence[str],
    words: set[str],
) -> list[Finding]:
    """Dangling and mis-numbered references of one block."""
    found: list[Finding] = []
    for ref in references:
        if ref.target.startswith(_ATTACHMENT_WORDS):
            finding = _attachment(block_id, text, ref, known)
        elif any(int(n) >= 100 for n in re.findall(r"\d+", ref.target)):
            finding = None  # a statute's section (section 1124), not a clause of a contract
        elif known.numeric >= 2 and ref.word.lower().rstrip("s").replace("-", "") in words:
            finding = _numbered(block_id, text, ref, known, ids)
        else:
            finding = None
        if finding is not None:
            found.append(finding)
    return found


def _style(identifier: str) -> str:
    return "digit" if identifier.isdigit() else "roman" if set(identifier) <= set("IVX") else "letter"


def _attachment(block_id: str, text: str, ref: Reference, known: Labels) -> Finding | None:
    word, identifier = ref.target.split()
    if ref.target in known.attachments:
        return None
    if not any(
        t.split()[0] == word and _style(t.split()[1]) == _style(identifier) for t in known.attachments
    ):
        return None  # no attachment of this kind here: the reference is to a separate document
    shown = f"{ref.word} {text[ref.start : ref.end]}"
    return Finding(
        "references",
        "danglingReference",
        "error",
        f"{shown} is referred to but the document has no {shown}.",
        block_id,
        ref.start,
        ref.end,
        text[ref.start : ref.end],
        shown,
    )


def _resolves(target: str, known: Labels) -> bool:
    if target in known.targets:
        return True
    base = _NUMERIC.match(target)
    if base is None:
        return False
    number = base.group()
    if number != target:  # 5.3(b): fine when 5.3 exists and has no labelled sub-paragraphs
        return number in known.targets and not any(t.startswith(number + "(") for t in known.targets)
    return any(t.startswith(number + ".") for t in known.targets)


def _numbered(block_id: str, text: str, ref: Reference, known: Labels, ids: Sequence[str]) -> Finding | None:
    evidence = text[ref.start : ref.end]
    titled = known.titles.get(ref.title.lower()) if ref.title else None
    if _resolves(ref.target, known):
        own = _title_of(known, ref.target) or ""
        base = _NUMERIC.match(ref.target)
        if (
            titled is None
            or titled in (ref.target, base.group() if base else None)
            or (ref.title and own.startswith(ref.title.lower()))
        ):
            return None
        return Finding(
            "references",
            "wrongReferenceNumber",
            "warning",
            f"{ref.word} {evidence} is cited as “{ref.title}”, which is numbered {titled}.",
            block_id,
            ref.start,
            ref.end,
            evidence,
            f"{ref.word} {evidence}",
            fix=QuickFix(f"Change to {titled}", titled),
            related=(ids[known.targets[titled]],),
        )
    fix = QuickFix(f"Change to {titled}", titled) if titled else None
    return Finding(
        "references",
        "danglingReference",
        "error",
        f"{ref.word} {evidence} does not exist in this document.",
        block_id,
        ref.start,
        ref.end,
        evidence,
        f"{ref.word} {evidence}",
        fix=fix,
    )


def _title_of(known: Labels, target: str) -> str | None:
    return known.label_titles.get(target)
