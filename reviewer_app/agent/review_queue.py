"""The review-queue bridge ("Review" mode, contract decision 6): the agent's changes as proposals.

In Review mode nothing the agent proposes touches the document until the person says so. The
bridge's ``apply_document_operations`` runs the batch through the edit engine as a *dry run*
against the live document, so every operation that would be skipped is reported skipped now
(with the same reasons the model would get in Direct mode), and holds each operation that
would apply as a *proposal* (``status: "queued"``). The person then applies a proposal (it
becomes a tracked change, through the same engine) or discards it. Each ``queued`` entry of the
result names the proposal holding its operation (``proposalId``, see :mod:`..docx.edit.outcome`),
so the chat's card is tied to its proposal by the call itself.

A proposal remembers the hash of its target block as it was when queued: the precondition the
executor stamps on every operation before it reaches a bridge (contract §5.7), kept with the
proposal, not stamped here again. Applying it after that block changed would apply an edit to
text the model never saw, so the engine refuses it and the proposal is reported *stale*; the
person discards it or asks the agent again.

The queue itself is a :class:`~.proposal_store.ProposalStore`, owned by whoever opened the
document (the app's document controller, the CLI): the bridge only adds to it and applies from it.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..docx.edit.batch import parse_batch
from ..docx.edit.engine import target_block_id
from ..docx.edit.outcome import BatchOutcome, OperationOutcome
from ..docx.edit.skips import issue_for, reason_for
from ..docx.edit.stamp import RevisionStamp
from ..docx.reviewer import DocxReviewer
from .bridge import ReviewerReads
from .proposal_store import ProposalStore
from .replay import fingerprint

#: Skip codes that mean "the text this proposal was made for is no longer there".
STALE_CODES = frozenset(("preconditionFailed", "changedBlock", "missingBlock", "staleRange"))
#: Proposals that act on a comment thread (reply_comment, resolve_comment) rather than on text.
COMMENT_ACTIONS = frozenset(("replyComment", "resolveComment", "reopenComment"))


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def _without_comment_ids(receipt: dict[str, Any]) -> dict[str, Any]:
    """A queued receipt names targets only: a dry run's comment ids were never created."""
    receipt = copy.deepcopy(receipt)
    receipt["affected"] = [t for t in receipt.get("affected", []) if t.get("type") != "comment"]
    return receipt


class ReviewQueueBridge(ReviewerReads):
    """Validates batches against the live document and holds them as proposals for a person.

    Reads act on the document directly; every change the agent asks for waits in the queue:
    operations, comments, and also replies and resolves (:meth:`propose_comment_action`), which
    a model told "resolve every comment" by a document must not be able to do unseen. The
    inherited ``reply_to_comment`` and ``resolve_comment`` carry out a comment proposal the person
    accepted (the person's own replies and saves go through the document controller, not through
    this bridge). ``editable`` (a bool or a callable) says whether the surface accepts proposals
    now; when it does not, every operation is skipped ``documentNotEditable``.
    """

    document_operation_mode = "tracked-changes"
    #: the executor queues reply_comment and resolve_comment through :meth:`propose_comment_action`
    queues_comment_actions = True

    def __init__(
        self,
        reviewer: DocxReviewer,
        store: ProposalStore | None = None,
        *,
        editable: bool | Callable[[], bool] = True,
        revision_stamp: RevisionStamp | Mapping[str, Any] | None = None,
        store_directory: Path | None = None,
    ) -> None:
        super().__init__(reviewer, revision_stamp)
        self.store = store if store is not None else ProposalStore(reviewer.path, store_directory)
        self._editable = editable

    # ------------------------------------------------------------------ bridge members
    def is_editable(self) -> bool:
        return bool(self._editable() if callable(self._editable) else self._editable)

    def apply_document_operations(self, batch: Mapping[str, Any]) -> dict[str, Any]:
        parsed = parse_batch(batch)
        operations = [op.to_dict() for op in parsed.operations]
        if not self.is_editable():
            return self._refuse_all(operations, "documentNotEditable")
        preview_batch = {
            "version": 1,
            "operations": operations,
            "mode": "tracked-changes",
            "atomic": parsed.atomic,
            "dryRun": True,
        }
        if parsed.precondition is not None:
            preview_batch["precondition"] = dict(parsed.precondition)
        preview = self.reviewer.apply_operations(preview_batch)
        if parsed.dry_run or preview.get("status") == "rejected":
            return preview
        applicable = {entry["id"] for entry in preview["applied"]}
        receipts = {r["operationId"]: _without_comment_ids(r) for r in preview["receipts"]}
        batch_id = uuid.uuid4().hex[:12]
        queued_at = _now()
        proposals: list[dict[str, Any]] = []
        queued: list[dict[str, Any]] = []
        for op in operations:
            if op["id"] not in applicable:
                continue
            proposal = self._waiting(op)  # a host queue receives an operation once
            if proposal is None:
                proposal = {
                    "id": self.store.unique_id(op["id"], taken={p["id"] for p in proposals}),
                    "operationId": op["id"],
                    "batchId": batch_id,
                    "status": "queued",
                    "queuedAt": queued_at,
                    "operation": op,
                    "targetBlockId": target_block_id(op),
                    "blockTextHash": (op.get("precondition") or {}).get("blockTextHash"),
                    "receipt": receipts.get(op["id"]),
                }
                proposals.append(proposal)
            queued.append(OperationOutcome(op["id"], "queued", proposal_id=proposal["id"]).entry())
        self.store.add(proposals)
        return {
            "version": 1,
            "status": "queued",
            "applied": [],
            "queued": queued,
            "skipped": preview["skipped"],
            "issues": preview["issues"],
            "receipts": [receipts[op["id"]] for op in operations if op["id"] in receipts],
            "normalizations": preview.get("normalizations", []),
            "undoHandle": None,
        }

    def propose_comment_action(self, action: Mapping[str, Any]) -> dict[str, Any] | None:
        """Queue a reply, resolve or reopen (``action``: its ``type``, ``id``, ``commentId``, ``text``).

        Returns the proposal, or None when the document has no comment ``commentId`` (nothing is
        queued). The same action already waiting is not queued twice.
        """
        action = dict(action)
        comment = next((c for c in self.reviewer.comments() if c["id"] == action["commentId"]), None)
        if comment is None:
            return None
        waiting = self._waiting(action)
        if waiting is not None:
            return copy.deepcopy(waiting)
        proposal = {
            "id": self.store.unique_id(action["id"]),
            "operationId": action["id"],
            "batchId": uuid.uuid4().hex[:12],
            "status": "queued",
            "queuedAt": _now(),
            "operation": action,
            "targetBlockId": comment.get("blockId"),
            "blockTextHash": None,
            "receipt": None,
        }
        self.store.add([proposal])
        return copy.deepcopy(proposal)

    # ------------------------------------------------------------------ host API
    def proposals(self) -> list[dict[str, Any]]:
        """Every proposal still held (queued, stale or failed), in the order they were queued."""
        return copy.deepcopy(self.store.proposals)

    def apply_proposal(self, proposal_id: str) -> dict[str, Any]:
        """Apply one proposal as a tracked change; see :meth:`apply_proposals` for the outcome."""
        return self.apply_proposals([proposal_id])[0]

    def apply_proposals(self, proposal_ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Apply proposals (all queued ones when ``proposal_ids`` is None) as one tracked batch.

        Proposals queued together should be applied together: a later one may target a block an
        earlier one edits, and applied alone after it, that block has changed (so it is stale).
        Each outcome is ``{id, status}`` with status ``applied`` (+ ``receipt``), ``stale`` (its
        target changed since it was queued; not applied), ``failed`` (+ ``reason``) or ``missing``.
        """
        outcomes: dict[str, dict[str, Any]] = {}
        if proposal_ids is None:
            order = [p["id"] for p in self.store.proposals if p.get("status") == "queued"]
        else:
            order = list(dict.fromkeys(proposal_ids))
        held = []
        for proposal_id in order:
            proposal = self.store.get(proposal_id)
            if proposal is None:
                outcomes[proposal_id] = {"id": proposal_id, "status": "missing"}
            elif proposal.get("status") != "queued":  # stale or failed before: not tried again
                outcomes[proposal_id] = {k: v for k, v in proposal.items() if k in ("id", "status", "reason")}
            else:
                held.append(proposal)
        comment_actions = [p for p in held if p["operation"].get("type") in COMMENT_ACTIONS]
        runnable = [p for p in held if p["operation"].get("type") not in COMMENT_ACTIONS]
        if runnable:
            batch = {
                "version": 1,
                "operations": [dict(p["operation"], id=p["id"]) for p in runnable],
                "mode": "tracked-changes",
            }
            result = self.reviewer.apply_operations(batch)
            receipts = {r["operationId"]: r for r in result["receipts"]}
            for made in BatchOutcome.of(result).operations:
                outcomes[made.operation_id] = {
                    "id": made.operation_id,
                    "status": "applied",
                    "receipt": receipts.get(made.operation_id),
                    # the tracked changes it became, so the person can accept or reject them later
                    "revisionIds": list(made.revision_ids),
                }
            for issue in result["issues"]:
                code = issue["code"]
                status = "stale" if code in STALE_CODES else "failed"
                outcome = {"id": issue["operationId"], "status": status}
                if status == "failed":
                    outcome["reason"] = reason_for(code, issue.get("message"))
                outcomes[issue["operationId"]] = outcome
        for proposal in comment_actions:
            outcomes[proposal["id"]] = self._act_on_comment(proposal)
        for proposal in held:
            outcome = outcomes.get(proposal["id"])
            if outcome and outcome["status"] in ("stale", "failed"):
                proposal["status"] = outcome["status"]
                if "reason" in outcome:
                    proposal["reason"] = outcome["reason"]
        self.store.remove(o["id"] for o in outcomes.values() if o["status"] == "applied")
        self.store.save()
        return [outcomes[proposal_id] for proposal_id in order]

    def discard_proposal(self, proposal_id: str) -> bool:
        """Drop a proposal without applying it; False when there is no such proposal."""
        return self.store.remove([proposal_id]) > 0

    def requeue(self, proposals: Iterable[Mapping[str, Any]]) -> None:
        """Put applied proposals back in the queue (their Apply was undone); held ids are kept as they are."""
        held = {p["id"] for p in self.store.proposals}
        back = [copy.deepcopy(dict(p)) for p in proposals if p["id"] not in held]
        if back:
            self.store.add(back)

    def dequeue(self, proposal_ids: Iterable[str]) -> None:
        """Take proposals out of the queue again (an undone Apply was redone)."""
        self.store.remove(proposal_ids)

    # ------------------------------------------------------------------ internals
    def _act_on_comment(self, proposal: Mapping[str, Any]) -> dict[str, Any]:
        """Carry out an accepted reply, resolve or reopen; ``failed`` when its comment is gone."""
        action = proposal["operation"]
        comment_id = str(action["commentId"])
        if action["type"] == "replyComment":
            done = self.reply_to_comment(comment_id, str(action["text"]))
        else:
            done = self.resolve_comment(comment_id, action["type"] == "resolveComment")
        if done:
            return {"id": proposal["id"], "status": "applied", "receipt": None, "revisionIds": []}
        reason = f"Comment {comment_id} is no longer in the document."
        return {"id": proposal["id"], "status": "failed", "reason": reason}

    def _waiting(self, op: dict[str, Any]) -> dict[str, Any] | None:
        """The queued proposal holding this very operation (precondition aside), or None."""
        wanted = fingerprint(_without_precondition(op))
        return next(
            (
                p
                for p in self.store.proposals
                if p.get("status") == "queued"
                and p.get("operationId") == op["id"]
                and fingerprint(_without_precondition(p["operation"])) == wanted
            ),
            None,
        )

    def _refuse_all(self, operations: list[dict[str, Any]], code: str) -> dict[str, Any]:
        return {
            "version": 1,
            "status": "rejected",
            "applied": [],
            "queued": [],
            "skipped": [{"id": op["id"], "reason": reason_for(code)} for op in operations],
            "issues": [issue_for(op["id"], i, code) for i, op in enumerate(operations)],
            "receipts": [],
            "normalizations": [],
            "undoHandle": None,
        }


def _without_precondition(op: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in op.items() if k != "precondition"}


def create_review_queue_bridge(
    reviewer: DocxReviewer,
    *,
    editable: bool | Callable[[], bool] = True,
    revision_stamp: RevisionStamp | Mapping[str, Any] | None = None,
    store_directory: Path | None = None,
) -> ReviewQueueBridge:
    """The Review-mode bridge over ``reviewer``, its queue loaded from the user's data folder."""
    return ReviewQueueBridge(
        reviewer, editable=editable, revision_stamp=revision_stamp, store_directory=store_directory
    )
