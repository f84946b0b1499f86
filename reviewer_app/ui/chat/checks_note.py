"""The line an agent batch's cards show about the contract checks: what the batch broke and what
it mended ("Checks: introduced 1 undefined term: Service Credit; cleared 1 placeholder: [●]"),
from :func:`~reviewer_app.docx.checks.delta.batch_effect`'s data kept in the transcript."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication

from ..plurals import count_text
from .describe import clip

_CONTEXT = "ChatDock"
#: how each finding code is named in the line, one and many
_NOUNS: dict[str, tuple[str, str]] = {
    "undefinedTerm": ("{n} undefined term", "{n} undefined terms"),
    "unusedTerm": ("{n} unused definition", "{n} unused definitions"),
    "duplicateDefinition": ("{n} second definition", "{n} second definitions"),
    "usedBeforeDefinition": (
        "{n} term used before its definition",
        "{n} terms used before their definitions",
    ),
    "termCapitalisation": ("{n} term in other capitals", "{n} terms in other capitals"),
    "termMisspelt": ("{n} misspelt term", "{n} misspelt terms"),
    "partyMisspelt": ("{n} misspelt party name", "{n} misspelt party names"),
    "danglingReference": ("{n} broken cross-reference", "{n} broken cross-references"),
    "wrongReferenceNumber": ("{n} misnumbered cross-reference", "{n} misnumbered cross-references"),
    "brokenFieldReference": ("{n} broken reference field", "{n} broken reference fields"),
    "staleFieldReference": ("{n} outdated reference field", "{n} outdated reference fields"),
    "wordsFiguresMismatch": ("{n} words-and-figures mismatch", "{n} words-and-figures mismatches"),
    "numberingSkip": ("{n} numbering skip", "{n} numbering skips"),
    "numberingRepeat": ("{n} repeated number", "{n} repeated numbers"),
    "placeholder": ("{n} placeholder", "{n} placeholders"),
    "draftingNote": ("{n} drafting note", "{n} drafting notes"),
}
_OTHER = ("{n} other finding", "{n} other findings")


def _tr(text: str) -> str:
    return QCoreApplication.translate(_CONTEXT, text)


def _side(findings: Sequence[Mapping[str, Any]]) -> str:
    """``2 undefined terms: Service Credit, Late Fee, 1 placeholder: [●]``."""
    by_code: dict[str, list[str]] = {}
    for finding in findings:
        by_code.setdefault(str(finding.get("code")), []).append(clip(str(finding.get("subject") or ""), 40))
    parts = []
    for code, subjects in by_code.items():
        one, many = _NOUNS.get(code, _OTHER)
        names = ", ".join(dict.fromkeys(subjects[:3])) + (", …" if len(subjects) > 3 else "")
        parts.append(f"{count_text(len(subjects), one, many, _CONTEXT)}: {names}")
    return ", ".join(parts)


def merged(effects: Iterable[Mapping[str, Any] | None]) -> dict[str, list[Mapping[str, Any]]]:
    """One effect from several (the cards of a batch applied one at a time); a finding named by
    more than one (every card of a Direct-mode batch carries the batch's effect) counts once."""
    out: dict[str, list[Mapping[str, Any]]] = {"introduced": [], "cleared": []}
    seen: set[tuple[str, Any, Any, Any]] = set()
    for effect in effects:
        for side, findings in (effect or {}).items():
            for finding in findings if side in out else ():
                key = (side, finding.get("code"), finding.get("subject"), finding.get("blockId"))
                if key not in seen:
                    seen.add(key)
                    out[side].append(finding)
    return out


def effect_text(effect: Mapping[str, Any] | None) -> str:
    """The line for a batch's effect on the checks ("" when it changed none)."""
    if not effect:
        return ""
    sides = []
    if effect.get("introduced"):
        sides.append(_tr("introduced {0}").format(_side(effect["introduced"])))
    if effect.get("cleared"):
        sides.append(_tr("cleared {0}").format(_side(effect["cleared"])))
    return _tr("Checks: {0}").format("; ".join(sides)) if sides else ""
