"""A finding's quick fix as an edit-engine operation (a ``replaceRange`` on the finding's exact
range), so it is applied like any other edit: tracked, under the user's name, undoable."""

from __future__ import annotations

from typing import Any

from ..find import text_range
from ..snapshot import Snapshot
from .model import Finding


def fix_operation(
    finding: Finding, snapshot: Snapshot, operation_id: str = "check-fix"
) -> dict[str, Any] | None:
    """The ``replaceRange`` operation fixing ``finding``; None when it has no fix or its text
    has changed since it was found (the range would no longer say what the finding quotes)."""
    if finding.fix is None:
        return None
    block = snapshot.block(finding.block_id)
    if block is None or block.text[finding.start : finding.end] != finding.evidence:
        return None
    return {
        "id": operation_id,
        "type": "replaceRange",
        "range": text_range(block, finding.start, finding.end),
        "replace": finding.fix.replace,
    }


def fix_batch(finding: Finding, snapshot: Snapshot) -> dict[str, Any] | None:
    """A one-operation tracked-change batch applying ``finding``'s fix (None when it cannot)."""
    operation = fix_operation(finding, snapshot)
    if operation is None:
        return None
    return {"version": 1, "mode": "tracked-changes", "operations": [operation]}
