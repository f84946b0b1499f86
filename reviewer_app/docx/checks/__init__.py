"""Contract checks: defined terms, cross-references, numbers, blanks and parties.

Deterministic and offline (no model, no Qt): :func:`check_reviewer` reads a document as it
would be with every pending change accepted (or, with ``original``, rejected) and returns
:class:`Finding` records; :class:`Checker` does the same for a live document, re-reading only
the blocks an edit changed.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from ..reviewer import DocxReviewer
from ..revisions import changes_block_structure, has_pending_changes
from .engine import Checker, collector_paused
from .fixes import fix_operation
from .model import KINDS, Finding, QuickFix


def check_reviewer(
    reviewer: DocxReviewer, original: bool = False, checker: Checker | None = None
) -> list[Finding]:
    """Findings of the document ``reviewer`` holds, as if its changes were accepted (default)
    or rejected (``original``). The reviewer itself is never changed."""
    source = reviewer
    resolve = has_pending_changes if original else changes_block_structure
    if resolve(reviewer.document):
        # here only: resolving brings the edit engine, a tenth of a one-off check's start-up
        from ..compare.inputs import open_resolved

        source = open_resolved(reviewer, "base", "original" if original else "final", copy=True)
    pending = None if original else reviewer.snapshot()  # where deleted definitions are read
    # A checker made here is gone when the check returns: the cycle collector, paused until then,
    # need not walk the hundred thousand records it made (none of them in a cycle).
    with collector_paused():
        return (checker or Checker()).check(source.snapshot(), source.document.body, pending)


_CHECKERS: WeakKeyDictionary[DocxReviewer, Checker] = WeakKeyDictionary()


def checker_for(reviewer: DocxReviewer) -> Checker:
    """The one :class:`Checker` of an open document, shared by everything that checks it (the
    Checks panel, the agent's check_document), so each re-check after an edit re-reads only the
    edited blocks whoever asks; it goes when the document does."""
    checker = _CHECKERS.get(reviewer)
    if checker is None:
        checker = _CHECKERS[reviewer] = Checker()
    return checker


def summary(findings: list[Finding]) -> dict[str, Any]:
    """Counts per kind, for the CLI's and the agent tool's totals."""
    counts = {kind: 0 for kind in KINDS}
    for finding in findings:
        counts[finding.kind] += 1
    return {"total": len(findings), "byKind": counts}


__all__ = [
    "KINDS",
    "Checker",
    "Finding",
    "QuickFix",
    "check_reviewer",
    "checker_for",
    "fix_operation",
    "summary",
]
