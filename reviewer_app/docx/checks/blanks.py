"""Blanks and placeholders left in a draft: ``[●]``, ``[ ]``, ``[insert …]``, ``{customer_name}``,
``____``, TBD, and drafting notes.

A signature line (``By: ______``, ``Name: ____``) is meant to stay blank until signing and a
ticked box (``[x]``) is an answer, so neither is reported.
"""

from __future__ import annotations

import re

from .model import Finding
from .words import contains_any

_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "draftingNote",
        re.compile(
            r"\[?\s*\b(?:drafting\s+note|note\s+to\s+(?:draft|drafter|client)s?|NTD)\b\s*:?[^\]]*\]?", re.I
        ),
    ),
    ("placeholder", re.compile(r"\[\s*(?:[●•·…_.\-\s]*|x{2,}|X{2,})\s*\]")),
    (
        "placeholder",
        re.compile(
            r"\[\s*(?:insert|include|specify|add|enter|complete|confirm|name|date|amount|address|details|"
            r"number|tbc|tbd|tba|client|company|party|details)\b[^\]]{0,120}\]",
            re.I,
        ),
    ),
    ("placeholder", re.compile(r"\{\{?\s*[A-Za-z_][^{}]{0,80}\}\}?")),
    ("placeholder", re.compile(r"_{4,}|\.{8,}|…{3,}")),
    ("placeholder", re.compile(r"\b(?:TBD|TBC|TBA)\b|\bto be (?:determined|confirmed|agreed)\b")),
)
_SIGNATURE_LINE = re.compile(
    r"^\s*(?:by|name|signed|signature|title|date|position|print name|witness|address|occupation|"
    r"authori[sz]ed signatory|director)\b[^:_]{0,30}:?\s*(?:_{3,}|\.{3,})?\s*$",
    re.I,
)
#: Text none of the patterns can match without (the second as the text is in lower case); most
#: paragraphs have none and skip them.
_CUES = ("[", "{", "_", "…", "........")
_LOWER_CUES = ("tbd", "tbc", "tba", "to be ", "note", "ntd")
_CHECKED_BOX = re.compile(r"^\[\s*[xX✓✔]\s*\]$")


def check(block_id: str, text: str, lower: str | None = None) -> list[Finding]:
    """Every blank or placeholder in one block's text, each reported once (overlaps merged);
    ``lower`` is the text in lower case, when the caller has it already."""
    found: list[Finding] = []
    if not contains_any(text, _CUES) and not contains_any(lower or text.lower(), _LOWER_CUES):
        return found
    taken: list[tuple[int, int]] = []
    for code, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            start, end = m.span()
            if end == start or any(start < e and s < end for s, e in taken):
                continue
            evidence = text[start:end]
            if _CHECKED_BOX.match(evidence) or (evidence[0] in "_." and _signature_line(text, start)):
                continue
            taken.append((start, end))
            found.append(_finding(code, block_id, start, end, evidence))
    return found


def _signature_line(text: str, start: int) -> bool:
    """True when the underscores are the blank of a signature block line (``Name: ____``)."""
    line_start = max(text.rfind("\n", 0, start), text.rfind("\t", 0, start - 1 if start else 0)) + 1
    line = text[line_start:]
    return bool(_SIGNATURE_LINE.match(line)) or not text[:start].strip()


def _finding(code: str, block_id: str, start: int, end: int, evidence: str) -> Finding:
    if code == "draftingNote":
        message = f"A drafting note is still in the text: “{evidence[:60]}”."
        severity = "warning"
    else:
        message = f"A blank or placeholder is still in the text: “{evidence[:60]}”."
        severity = "warning"
    return Finding("blanks", code, severity, message, block_id, start, end, evidence, evidence.strip())
