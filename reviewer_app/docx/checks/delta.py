"""What one batch of edits did to the contract checks: the findings it introduced and those it
cleared, told apart by :attr:`Finding.key` (which does not move with the text around a finding),
so an agent batch's card can say "introduced 1 undefined term: Service Credit"."""

from __future__ import annotations

from collections.abc import Sequence

from .model import Finding


def batch_effect(before: Sequence[Finding], after: Sequence[Finding]) -> dict[str, list[dict[str, str]]]:
    """``{"introduced": [...], "cleared": [...]}`` (each finding as its kind, code, subject and
    block id), or an empty dict when the batch changed no finding."""
    old = {f.key for f in before}
    new = {f.key for f in after}
    introduced = [_brief(f) for f in after if f.key not in old]
    cleared = [_brief(f) for f in before if f.key not in new]
    return {"introduced": introduced, "cleared": cleared} if introduced or cleared else {}


def _brief(finding: Finding) -> dict[str, str]:
    return {
        "kind": finding.kind,
        "code": finding.code,
        "subject": finding.subject,
        "blockId": finding.block_id,
    }
