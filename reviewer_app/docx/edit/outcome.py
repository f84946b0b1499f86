"""Where each operation of a batch went, as one typed value from the edit engine to the chat card.

An agent's edit card has to find its way back to what a person acts on: in Direct mode the
tracked changes (and comment) its operation made, in Review mode the proposal holding it. The
engine knows the first, the review queue the second; both write them into the core result's
``applied`` and ``queued`` entries (§5.9, where an entry's extra keys are the bridge's business,
never the model's), and :meth:`BatchOutcome.of` reads them back in one place, so the executor
can hand them on to the ``edit_batch`` event unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class OperationOutcome:
    """One operation that was applied or queued, under the id it was sent with.

    ``revision_ids`` and ``comment_id``: the tracked changes and the comment it made (applied);
    ``proposal_id``: the proposal that holds it in the review queue (queued).
    """

    operation_id: str
    status: str
    revision_ids: tuple[str, ...] = ()
    comment_id: str | None = None
    proposal_id: str | None = None

    def entry(self) -> dict[str, Any]:
        """The core result's ``applied`` or ``queued`` entry for this operation."""
        entry: dict[str, Any] = {"id": self.operation_id}
        if self.comment_id is not None:
            entry["commentId"] = self.comment_id
        if len(self.revision_ids) == 1:
            entry["revisionId"] = self.revision_ids[0]
        elif self.revision_ids:
            entry["revisionIds"] = list(self.revision_ids)
        if self.proposal_id is not None:
            entry["proposalId"] = self.proposal_id
        return entry

    @classmethod
    def from_entry(cls, status: str, entry: Mapping[str, Any]) -> OperationOutcome:
        """Read an ``applied`` or ``queued`` entry back (the inverse of :meth:`entry`)."""
        ids = entry.get("revisionIds") or ([entry["revisionId"]] if entry.get("revisionId") else [])
        comment_id, proposal_id = entry.get("commentId"), entry.get("proposalId")
        return cls(
            operation_id=str(entry.get("id")),
            status=status,
            revision_ids=tuple(str(i) for i in ids),
            comment_id=str(comment_id) if comment_id is not None else None,
            proposal_id=str(proposal_id) if proposal_id is not None else None,
        )

    def row_fields(self) -> dict[str, Any]:
        """What an ``edit_batch`` row keeps of it (the transcript's keys), so a card finds it again."""
        fields: dict[str, Any] = {}
        if self.proposal_id is not None:
            fields["proposalId"] = self.proposal_id
        if self.status == "applied":
            fields["revisionIds"] = list(self.revision_ids)
            if self.comment_id is not None:
                fields["commentId"] = self.comment_id
        return fields


@dataclass(frozen=True, slots=True)
class BatchOutcome:
    """The operations of one call that were applied or queued, in the order they were reported."""

    operations: tuple[OperationOutcome, ...] = ()

    @classmethod
    def of(cls, core_result: Mapping[str, Any] | None) -> BatchOutcome:
        """The outcomes a core result (§5.9) reports in its ``applied`` and ``queued`` entries."""
        result = core_result or {}
        return cls(
            tuple(
                OperationOutcome.from_entry(status, entry)
                for status in ("applied", "queued")
                for entry in result.get(status) or []
                if isinstance(entry, Mapping)
            )
        )

    def get(self, operation_id: str) -> OperationOutcome | None:
        """The outcome of the operation sent as ``operation_id`` (None: skipped or replayed)."""
        return next((o for o in self.operations if o.operation_id == operation_id), None)
