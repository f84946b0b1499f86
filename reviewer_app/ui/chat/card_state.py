"""Edit cards as data: one :class:`CardState` per operation of an agent's edit batch.

A card has to find its way back to the thing a person acts on: in Review mode the *proposal*
in the document's review queue (whose id is the operation id, suffixed ``#2``… when that id was
already taken, see ``ProposalStore.unique_id``), in Direct mode the tracked changes the
operation created (the ``revisionIds`` the edit engine reported). Both arrive in the rows of the
``edit_batch`` event (keys ``proposalId``, ``revisionIds``, ``commentId``: the engine's and the
queue's :class:`~reviewer_app.docx.edit.outcome.BatchOutcome`, handed on by the executor), which
the session logs in the transcript; the chat controller adds ``section`` and ``oldText`` to the
logged rows, and logs each later outcome as a ``card_status`` entry. A reopened document then
rebuilds every card with its current status: queued proposals from the persisted queue,
Direct-mode changes from the changes still pending in the document.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, field
from typing import Any

from ...docx.edit.engine import target_block_id
from ...docx.snapshot import Snapshot
from . import describe

#: the transcript entry kind that records what a person did with a card
CARD_STATUS = "card_status"
#: statuses a person can still act on
#: longest replaced text kept for a card's redline (a longer one shows the new text alone)
OLD_TEXT_LIMIT = 10_000
#: statuses that follow the document (whether the card's tracked changes are still pending)
SETTLED_BY_DOCUMENT = frozenset(("applied", "accepted", "declined", "resolved"))
#: what a person decided on a card that stays its status once its changes are gone
FINAL_DECISIONS = frozenset(("accepted", "declined"))


@dataclass
class CardState:
    """One operation of an edit batch, where it lives, and what became of it."""

    batch_id: str
    index: int
    operation: dict[str, Any]
    #: ``review`` (a proposal waits) or ``direct`` (a tracked change landed)
    mode: str
    status: str
    reason: str | None = None
    operation_id: str | None = None
    proposal_id: str | None = None
    revision_ids: list[str] = field(default_factory=list)
    comment_id: str | None = None
    old_text: str | None = None
    section: str = ""
    #: what the person decided (accepted/declined/applied/discarded), kept while the ids resolve
    outcome: str | None = None
    #: the edit's effect on the contract checks: a Direct-mode batch's (on each of its cards), or
    #: that of the Apply that put this proposal into the document
    checks: dict[str, Any] | None = None

    @property
    def key(self) -> str:
        return f"{self.batch_id}:{self.index}"

    @property
    def block_id(self) -> str | None:
        return target_block_id(self.operation)

    @property
    def can_apply(self) -> bool:
        """Review mode: the proposal still waits in the queue."""
        return self.mode == "review" and self.status == "queued" and self.proposal_id is not None

    @property
    def can_decide(self) -> bool:
        """The tracked changes it made (Direct mode, or an applied proposal) are still pending."""
        return self.status == "applied" and bool(self.revision_ids)


def _mode_of(batch_mode: Any) -> str:
    return "review" if batch_mode == "review" else "direct"


def _operation(row: Mapping[str, Any]) -> dict[str, Any]:
    op = row.get("operation")
    return dict(op) if isinstance(op, Mapping) else {}


# ----------------------------------------------------------------------------- a live batch
def annotate_batch(rows: list[dict[str, Any]], *, before: Snapshot | None) -> None:
    """Write what a card shows of the replaced text into the batch's rows.

    The rows are the transcript's (the session logged the event before the chat saw it), so the
    next save keeps them; ``oldText`` and ``section`` are read from the document as it was
    before the call, so the card still shows what was replaced after it has been.
    """
    for row in rows:
        op = _operation(row)
        old = describe.old_text_of(op, before)
        if old and len(old) <= OLD_TEXT_LIMIT:  # whole, so the card's word diff is right
            row["oldText"] = old
        row["section"] = describe.section_label(before, target_block_id(op))


def cards_from_entry(entry: Mapping[str, Any]) -> list[CardState]:
    """The cards of one ``edit_batch`` entry (or event dict), with the status the call reported."""
    mode = _mode_of(entry.get("mode"))
    error = entry.get("error")
    cards = []
    for row in entry.get("operations") or []:
        if not isinstance(row, Mapping):
            continue
        status = str(row.get("status") or "unknown")
        reason = row.get("reason") or (error if status == "rejected" else None)
        cards.append(
            CardState(
                batch_id=str(entry.get("id")),
                index=int(row.get("index", len(cards))),
                operation=_operation(row),
                mode=mode,
                status=status,
                reason=str(reason) if reason else None,
                operation_id=str(row["id"]) if row.get("id") is not None else None,
                proposal_id=row.get("proposalId"),
                revision_ids=[str(i) for i in row.get("revisionIds") or []],
                comment_id=row.get("commentId"),
                old_text=row.get("oldText"),
                section=str(row.get("section") or ""),
                checks=entry.get("checks") if isinstance(entry.get("checks"), dict) else None,
            )
        )
    return cards


# ----------------------------------------------------------------------------- later outcomes
def outcome_entry(card: CardState) -> dict[str, Any]:
    """The ``card_status`` transcript entry for what a person just did with ``card``."""
    data: dict[str, Any] = {"card": card.key, "status": card.status}
    if card.reason:
        data["reason"] = card.reason
    if card.mode == "review" and card.revision_ids:
        data["revisionIds"] = list(card.revision_ids)  # an applied proposal's changes
    if card.mode == "review" and card.checks:
        data["checks"] = card.checks  # what applying it did to the contract checks
    return data


def settle(card: CardState, pending_changes: set[str], queued: Set[str] = frozenset()) -> bool:
    """Bring a card whose edit landed in line with the document; True when its status changed.

    Its changes still pending: ``applied`` (Accept and Reject work). All gone and its proposal
    back in the queue (its Apply was undone): ``queued``, to apply again. All gone otherwise: what
    the person decided on this card, or ``resolved`` when they went some other way (the redline
    panel, an undo in Direct mode, closing without saving). ``queued``: the ids of the proposals
    waiting now.
    """
    if not card.revision_ids or card.status not in SETTLED_BY_DOCUMENT | {"queued"}:
        return False
    if any(i in pending_changes for i in card.revision_ids):
        status = "applied"
    elif card.mode == "review" and card.proposal_id in queued:
        status = "queued"
    else:
        status = card.outcome if card.outcome in FINAL_DECISIONS else "resolved"
    if status == card.status:
        return False
    card.status, card.reason = status, None
    return True


def restore_status(
    card: CardState,
    outcome: Mapping[str, Any] | None,
    queue: Mapping[str, Mapping[str, Any]],
    pending_changes: set[str],
) -> None:
    """The status of a rebuilt card: the queue and the document win over what was logged."""
    if outcome is not None:
        card.outcome = str(outcome.get("status"))
        if outcome.get("revisionIds"):
            card.revision_ids = [str(i) for i in outcome["revisionIds"]]
        if isinstance(outcome.get("checks"), dict):
            card.checks = outcome["checks"]
    if card.mode == "review" and card.status == "queued":
        proposal = queue.get(card.proposal_id or "")
        if proposal is not None:
            card.status = str(proposal.get("status") or "queued")
            card.reason = proposal.get("reason") or (
                describe.stale_reason() if card.status == "stale" else card.reason
            )
        elif outcome is not None:
            card.status, card.reason = card.outcome or "missing", outcome.get("reason")
        else:
            card.status = "missing"
    settle(card, pending_changes, {i for i, p in queue.items() if p.get("status") == "queued"})


def waiting_batches(entries: Iterable[Mapping[str, Any]], waiting: Set[str]) -> list[dict[str, Any]]:
    """The ``edit_batch`` entries cut down to the rows whose proposal still waits in the queue
    (``waiting``: proposal ids): what a new conversation keeps, so no proposal loses its card."""
    kept = []
    for entry in entries:
        if entry.get("kind") != "edit_batch":
            continue
        rows = [
            dict(row)
            for row in entry.get("operations") or []
            if isinstance(row, Mapping) and row.get("proposalId") in waiting
        ]
        if rows:
            kept.append({**entry, "operations": rows})
    return kept
