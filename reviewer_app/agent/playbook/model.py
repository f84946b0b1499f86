"""What a playbook says and what a review against it found, as plain data.

A :class:`Playbook` is a firm's standard positions for one contract type; a
:class:`PlaybookFinding` is the agent's answer for one position, tied to blocks that exist (the
citations are validated before a finding is kept). A person's verdict (an overridden status and a
note) is kept beside the agent's answer, never written over it, so the issues list can say both.
Everything round-trips through JSON dicts: findings are saved per document with the conversation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

#: A finding's status, in the order the panel and the issues list sort them.
STATUSES: tuple[str, ...] = ("deviates", "missing", "meets", "not_applicable")
#: How much a position matters to the firm; a playbook's default is "medium".
SEVERITIES: tuple[str, ...] = ("high", "medium", "low")
#: Who a finding's comment is for: "internal" stays in Reviewer (and the issues list),
#: "external" becomes a Word comment in the file the other side receives.
AUDIENCES: tuple[str, ...] = ("internal", "external")


@dataclass(frozen=True, slots=True)
class Position:
    """One standard position: the question to answer and what the firm accepts."""

    id: str
    title: str
    question: str
    standard: str
    fallbacks: tuple[str, ...] = ()
    unacceptable: str = ""
    guidance: str = ""
    severity: str = "medium"
    model_clause: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "question": self.question,
            "standard": self.standard,
            "fallbacks": list(self.fallbacks),
            "unacceptable": self.unacceptable,
            "guidance": self.guidance,
            "severity": self.severity,
            "model_clause": self.model_clause,
        }


@dataclass(frozen=True, slots=True)
class Playbook:
    """A named set of positions for one contract type; ``source`` is where it was read from."""

    name: str
    contract_type: str
    positions: tuple[Position, ...]
    description: str = ""
    source: str = ""

    def position(self, position_id: str) -> Position | None:
        """The position with this id, or None (the model may name one that does not exist)."""
        return next((p for p in self.positions if p.id == position_id), None)


@dataclass(frozen=True, slots=True)
class Citation:
    """An exact quote from one block: the block must exist and contain the quote."""

    block_id: str
    quote: str

    def to_dict(self) -> dict[str, str]:
        return {"blockId": self.block_id, "quote": self.quote}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Citation:
        return cls(block_id=str(data["blockId"]), quote=str(data["quote"]))


@dataclass(frozen=True, slots=True)
class PlaybookFinding:
    """The answer for one position, and the person's verdict on it.

    ``status``/``explanation``/``citations``/``proposal_ids`` are the agent's;
    ``override_status`` and ``note`` are the lawyer's and win in the panel and the issues list.
    ``comment`` is the finding's comment, for ``comment_audience`` (internal notes never reach
    the saved .docx).
    """

    position_id: str
    status: str
    explanation: str
    citations: tuple[Citation, ...] = ()
    severity: str = "medium"
    proposal_ids: tuple[str, ...] = ()
    comment: str = ""
    comment_audience: str = "internal"
    override_status: str | None = None
    note: str = ""

    @property
    def effective_status(self) -> str:
        """The status a person sees: their override when they made one, else the agent's."""
        return self.override_status or self.status

    def overridden(self, status: str | None, note: str | None = None) -> PlaybookFinding:
        """This finding with the person's status (None clears it) and, when given, their note."""
        return replace(self, override_status=status, note=self.note if note is None else note)

    def to_dict(self) -> dict[str, Any]:
        return {
            "positionId": self.position_id,
            "status": self.status,
            "explanation": self.explanation,
            "citations": [c.to_dict() for c in self.citations],
            "severity": self.severity,
            "proposalIds": list(self.proposal_ids),
            "comment": self.comment,
            "commentAudience": self.comment_audience,
            "overrideStatus": self.override_status,
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlaybookFinding:
        return cls(
            position_id=str(data["positionId"]),
            status=str(data["status"]),
            explanation=str(data.get("explanation", "")),
            citations=tuple(Citation.from_dict(c) for c in data.get("citations", ())),
            severity=str(data.get("severity", "medium")),
            proposal_ids=tuple(str(p) for p in data.get("proposalIds", ())),
            comment=str(data.get("comment", "")),
            comment_audience=str(data.get("commentAudience", "internal")),
            override_status=data.get("overrideStatus"),
            note=str(data.get("note", "")),
        )


@dataclass(slots=True)
class PlaybookReview:
    """A review in progress or done: the playbook and the findings recorded so far, by position.

    Positions with no finding are *unanswered*: listed as such, never guessed.
    """

    playbook: Playbook
    findings: dict[str, PlaybookFinding] = field(default_factory=dict)

    def unanswered(self) -> tuple[Position, ...]:
        """The positions the agent has not answered yet, in the playbook's order."""
        return tuple(p for p in self.playbook.positions if p.id not in self.findings)

    def record(self, finding: PlaybookFinding) -> None:
        """Keep a finding (a later answer for the same position replaces the earlier one)."""
        self.findings[finding.position_id] = finding
