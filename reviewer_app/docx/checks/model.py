"""What a check reports: one :class:`Finding` per drafting problem, with its place and fix.

Findings are plain data so the CLI prints them as JSON, the agent's ``check_document`` tool
returns them to the model, and the Checks panel lists them, all from the same shape.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

#: The kinds a user filters by, in the order the panel and the CLI list them.
KINDS: tuple[str, ...] = ("terms", "references", "numbers", "blanks", "parties")
SEVERITIES: tuple[str, ...] = ("error", "warning", "info")


@dataclass(frozen=True, slots=True)
class QuickFix:
    """A mechanical correction that is certain: replace the finding's range with ``replace``."""

    label: str
    replace: str

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "replace": self.replace}


@dataclass(frozen=True, slots=True)
class Finding:
    """One drafting problem: where it is (block id, offsets into the block's text) and why.

    ``start``/``end`` index the block's accepted-view text; ``evidence`` is that slice, so a
    stale finding (the text moved on) is recognisable. ``subject`` names what the finding is
    about (a term, a reference) and, with ``code`` and the evidence, identifies it across
    re-checks: an ignored finding stays ignored and a batch's introduced findings are told
    apart from those it found already there.
    """

    kind: str
    code: str
    severity: str
    message: str
    block_id: str
    start: int
    end: int
    evidence: str
    subject: str
    fix: QuickFix | None = None
    related: tuple[str, ...] = field(default=())

    @property
    def key(self) -> str:
        """Identity across re-checks: independent of offsets, which shift as text is edited."""
        return f"{self.code}|{self.block_id}|{self.subject}|{self.evidence}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "blockId": self.block_id,
            "startOffset": self.start,
            "endOffset": self.end,
            "evidence": self.evidence,
            "subject": self.subject,
        }
        if self.fix is not None:
            out["fix"] = self.fix.to_dict()
        if self.related:
            out["relatedBlockIds"] = list(self.related)
        return out


def placed(findings: list[Finding], block_id: str) -> list[Finding]:
    """``findings`` read from a block with the same text (blocks alike share one reading),
    placed in block ``block_id`` instead."""
    if not findings or findings[0].block_id == block_id:
        return findings
    return [dataclasses.replace(f, block_id=block_id) for f in findings]


def sort_key(finding: Finding, order: dict[str, int]) -> tuple[int, int, str]:
    """Document order: by block position (``order``), then offset, then code."""
    return (order.get(finding.block_id, 1 << 30), finding.start, finding.code)
