"""``record_finding``: the agent's answer for one playbook position, kept only when true to the document.

A finding is data a lawyer relies on, so the tool checks it before anything is kept: the
position must be one of the playbook's, every citation must name a block of this document and
quote text that block really holds (as it reads now, or before its pending tracked changes: the
model may cite a clause it has just proposed to change), a finding that says the contract meets
or deviates from a position must cite the clause, and the proposals it links must exist.
Anything wrong goes back to the model as an error naming what to fix (valid ids, the citation
at fault); no finding is kept until the call is right. A kept finding is recorded in the
:class:`PlaybookReview` and the result lists the positions still unanswered, so the model knows
what is left.

Comments: an *internal* comment is kept only in the review (the panel, the issues list) and
never reaches the .docx; an *external* one is a Word comment on the first cited passage, made
through the add_comment path (a proposal card in Review mode, a comment in Tracked mode), and
its proposal id is linked to the finding.

The tool is a :class:`~reviewer_app.agent.host_tools.HostTool`: it is offered only while a
review is running (``get_review()`` returns one), so ordinary chat turns never see it.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ...docx.edit.outcome import BatchOutcome
from ...docx.hashing import normalize_text
from ...docx.llm_view import original_text
from ...docx.snapshot import Snapshot
from ..executor import run_tool_call
from ..host_tools import HostTool, edits_of_call
from ..replay import ledger_for
from .model import AUDIENCES, SEVERITIES, STATUSES, Citation, PlaybookFinding, PlaybookReview

RECORD_FINDING = "record_finding"
#: statuses that are claims about the text, so they must cite it
CITED_STATUSES = frozenset(("meets", "deviates"))
#: typographic quotes a model often straightens (or curls) when it copies a passage
_QUOTES = (("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"'))

_DESCRIPTION = (
    "Record your answer for one playbook position, once you have read the clauses it concerns. "
    "status: meets (the contract satisfies the standard position), deviates (it departs from it), "
    "missing (the contract says nothing about it), not_applicable. citations: the clauses your "
    "answer rests on, each as a blockId from this conversation's reads and an exact quote copied "
    "from that block (a short passage is enough); meets and deviates need at least one. "
    "explanation: one or two sentences for the lawyer. proposalIds: the ids of the suggest_changes "
    "operations you made for this position (e.g. the fallback wording). comment with "
    "commentAudience 'external' becomes a Word comment on the first cited passage for the other "
    "side; 'internal' stays a note for the lawyer and never reaches the document. A wrong call is "
    "refused with the reason: fix it and call again. Recording a position again replaces its answer."
)


def _straight(text: str) -> str:
    """``text`` with typographic quotes straightened (str.replace: fast on a whole document)."""
    for curly, plain in _QUOTES:
        text = text.replace(curly, plain)
    return text


def _canonical(text: str) -> str:
    """Text as a quote is compared: whitespace runs collapsed, typographic quotes straightened."""
    return _straight(normalize_text(text))


@dataclass(frozen=True, slots=True)
class _QuoteIndex:
    """Every content block's canonical text joined in one string, to find where a quote is."""

    text: str
    starts: list[int]
    ids: list[str]

    @classmethod
    def build(cls, snapshot: Snapshot) -> _QuoteIndex:
        starts, ids, parts, offset = [], [], [], 0
        for block in snapshot.content_blocks():
            starts.append(offset)
            ids.append(block.id)
            parts.append(block.normalized)
            offset += len(block.normalized) + 1
        return cls(_straight("\n".join(parts)), starts, ids)  # same lengths: the offsets hold


def _blocks_holding(snapshot: Snapshot, wanted: str, limit: int = 3) -> list[str]:
    """The ids of (up to ``limit``) blocks whose text holds ``wanted``, for a refusal's hint.

    The joined text is built once per snapshot (a 300-page contract's 15,000 blocks take tens of
    milliseconds), so a model correcting one quote after another does not pay for it each time.
    """
    index: _QuoteIndex = snapshot.memo("playbook_quote_index", _QuoteIndex.build)
    found: list[str] = []
    at = index.text.find(wanted)
    while at >= 0 and len(found) < limit:
        block_id = index.ids[bisect_right(index.starts, at) - 1]
        if block_id not in found:
            found.append(block_id)
        at = index.text.find(wanted, at + 1)
    return found


def _schema(position_ids: list[str]) -> dict[str, Any]:
    citation = {
        "type": "object",
        "properties": {
            "blockId": {"type": "string", "description": "A block id from a read in this conversation."},
            "quote": {"type": "string", "description": "Exact text of that block."},
        },
        "required": ["blockId", "quote"],
    }
    return {
        "type": "object",
        "properties": {
            "positionId": {"type": "string", "enum": position_ids},
            "status": {"type": "string", "enum": list(STATUSES)},
            "citations": {"type": "array", "items": citation},
            "explanation": {"type": "string"},
            "severity": {"type": "string", "enum": list(SEVERITIES)},
            "proposalIds": {"type": "array", "items": {"type": "string"}},
            "comment": {"type": "string"},
            "commentAudience": {"type": "string", "enum": list(AUDIENCES)},
        },
        "required": ["positionId", "status", "explanation"],
    }


class FindingRefused(ValueError):
    """A record_finding call that cannot be kept; ``str()`` is the sentence the model reads."""


def _listed(value: Any, field: str) -> list[Any]:
    """A list field; a JSON string holding a list is read too (small models send those)."""
    if value is None:
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise FindingRefused(f"`{field}` must be a list.") from None
    if not isinstance(value, list):
        raise FindingRefused(f"`{field}` must be a list.")
    return value


def _citations(value: Any, bridge: Any) -> tuple[Citation, ...]:
    """Every citation checked against the document as it is now."""
    snapshot = bridge.snapshot()
    citations = []
    for index, item in enumerate(_listed(value, "citations")):
        where = f"citations[{index}]"
        if not isinstance(item, Mapping):
            raise FindingRefused(f"{where} must be an object with blockId and quote.")
        block_id, quote = item.get("blockId"), item.get("quote")
        if not isinstance(block_id, str) or not block_id:
            raise FindingRefused(f"{where} needs a blockId.")
        if not isinstance(quote, str) or not quote.strip():
            raise FindingRefused(f"{where} needs a quote: the exact passage of block {block_id} you rely on.")
        block = snapshot.block(block_id)
        if block is None or block.kind == "diagnostic":
            raise FindingRefused(
                f"{where}: this document has no block {json.dumps(block_id)}. Block ids come only from "
                "reads in this conversation (get_document_outline, read_section, find_text): copy one "
                "exactly."
            )
        wanted = _canonical(quote)
        if wanted not in _straight(block.normalized) and wanted not in _canonical(original_text(block)):
            elsewhere = _blocks_holding(snapshot, wanted)
            hint = f" That text is in block {', '.join(elsewhere)}." if elsewhere else ""
            raise FindingRefused(
                f"{where}: the quote is not in the text of block {block_id}.{hint} Copy the quote exactly "
                "from the block as a read returned it (a short passage is enough)."
            )
        citations.append(Citation(block_id, quote))
    return tuple(citations)


def _proposal_ids(value: Any, bridge: Any) -> tuple[str, ...]:
    """The ids of proposals (Review mode) or applied operations (Tracked mode) the finding links.

    The model knows an operation by the id suggest_changes reported; in Review mode that maps to
    the newest proposal queued for it (a queue renames a reused id ``op#2``).
    """
    listing = getattr(bridge, "proposals", None)
    proposals = listing() if callable(listing) else None
    known = ledger_for(bridge).entries
    resolved = []
    for index, given in enumerate(_listed(value, "proposalIds")):
        found: str | None = None
        if isinstance(given, str) and proposals is not None:
            found = next(
                (p["id"] for p in reversed(proposals) if given in (p["id"], p.get("operationId"))), None
            )
        elif isinstance(given, str) and given in known:
            found = given
        if found is None:
            where = "in the review queue" if proposals is not None else "among the operations applied"
            raise FindingRefused(
                f"proposalIds[{index}]: there is no proposal {json.dumps(given)} {where}. List only the "
                "operation ids suggest_changes reported as queued or applied in this conversation."
            )
        resolved.append(found)
    return tuple(dict.fromkeys(resolved))


def _choice(args: Mapping[str, Any], field: str, allowed: tuple[str, ...], default: str | None) -> str:
    value = args.get(field, default)
    if value not in allowed:
        raise FindingRefused(f"`{field}` must be one of {', '.join(allowed)}.")
    return str(value)


def _optional_text(args: Mapping[str, Any], field: str) -> str:
    value = args.get(field, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise FindingRefused(f"`{field}` must be a string.")
    return value.strip()


def _external_comment(bridge: Any, citation: Citation, text: str) -> dict[str, Any]:
    """Add (or queue) the comment through add_comment; the call (:func:`edits_of_call`): its
    arguments, its summary and where the comment went.

    The comment is anchored on the quote when the block holds it exactly once as written, else
    on the whole block (a quote matched only after straightening its quotes cannot anchor).
    """
    block = bridge.snapshot().block(citation.block_id)
    args: dict[str, Any] = {"blockId": citation.block_id, "text": text}
    if block is not None and block.text.count(citation.quote) == 1:
        args["quote"] = citation.quote
    run = run_tool_call("add_comment", args, bridge)
    if not run.envelope.get("ok"):
        raise FindingRefused(f"the external comment could not be added: {run.envelope.get('error')}")
    summary = run.envelope["result"]
    skipped = summary.get("skipped") or []
    if skipped:
        raise FindingRefused(f"the external comment could not be added: {skipped[0].get('reason')}")
    return {"args": args, "summary": summary, "outcome": run.outcome}


def _finding(review: PlaybookReview, args: Any, bridge: Any) -> tuple[PlaybookFinding, dict[str, Any] | None]:
    """The validated finding and, for an external comment, what add_comment was called with."""
    if not isinstance(args, Mapping):
        raise FindingRefused("record_finding takes an object: positionId, status, citations, explanation.")
    position_id = args.get("positionId")
    position = review.playbook.position(position_id) if isinstance(position_id, str) else None
    if position is None:
        valid = ", ".join(p.id for p in review.playbook.positions)
        raise FindingRefused(
            f"there is no position {json.dumps(position_id)} in this playbook; valid ids: {valid}."
        )
    status = _choice(args, "status", STATUSES, None)
    citations = _citations(args.get("citations"), bridge)
    if status in CITED_STATUSES and not citations:
        raise FindingRefused(
            f"a finding that the contract {status.replace('_', ' ')} the position must cite the clause: "
            "give at least one citation (blockId and exact quote)."
        )
    explanation = _optional_text(args, "explanation")
    if not explanation:
        raise FindingRefused("`explanation` is required: say in a sentence or two why, for the lawyer.")
    severity = _choice(args, "severity", SEVERITIES, position.severity)
    proposals = _proposal_ids(args.get("proposalIds"), bridge)
    comment = _optional_text(args, "comment")
    audience = _choice(args, "commentAudience", AUDIENCES, "internal")
    if comment and audience == "external" and not citations:
        raise FindingRefused(
            "an external comment sits on a cited passage: give a citation, or make it internal."
        )
    finding = PlaybookFinding(
        position_id=position.id,
        status=status,
        explanation=explanation,
        citations=citations,
        severity=severity,
        proposal_ids=proposals,
        comment=comment,
        comment_audience=audience,
    )
    return finding, ({"text": comment} if comment and audience == "external" else None)


def record_finding_tool(
    get_review: Callable[[], PlaybookReview | None],
    on_record: Callable[[PlaybookFinding], None] | None = None,
) -> HostTool:
    """The ``record_finding`` host tool for the review ``get_review()`` returns (None: not offered).

    ``on_record`` is told of every finding kept (the playbook panel refreshes on it).
    """

    def describe() -> tuple[str, Mapping[str, Any]] | None:
        review = get_review()
        if review is None:
            return None
        return _DESCRIPTION, _schema([p.id for p in review.playbook.positions])

    def handler(args: Any, bridge: Any) -> Mapping[str, Any]:
        review = get_review()
        if review is None:
            return {"ok": False, "error": "no playbook review is running; record_finding is not available."}
        try:
            finding, external = _finding(review, args, bridge)
            comment_call = None
            earlier = review.findings.get(finding.position_id)
            if external is not None and _same_comment(earlier, finding):
                finding = replace(finding, proposal_ids=_merged(finding.proposal_ids, earlier.proposal_ids))
            elif external is not None:
                comment_call = _external_comment(bridge, finding.citations[0], external["text"])
                finding = _with_comment_proposal(finding, comment_call["outcome"])
        except FindingRefused as refusal:
            return {"ok": False, "error": f"finding not recorded: {refusal}"}
        review.record(finding)
        if on_record is not None:
            on_record(finding)
        result: dict[str, Any] = {
            "recorded": finding.position_id,
            "status": finding.status,
            "unanswered": [p.id for p in review.unanswered()],
        }
        if comment_call is not None:
            result["comment"] = "queued for the lawyer's review" if finding.proposal_ids else "added"
        return {"ok": True, "result": result, "commentCall": comment_call}

    edits = edits_of_call("commentCall", "add_comment")
    return HostTool(RECORD_FINDING, describe, handler, untrusted=False, edits=edits)


def _same_comment(earlier: PlaybookFinding | None, finding: PlaybookFinding) -> bool:
    """Whether a corrected finding carries the external comment its earlier answer already made
    (same text, same block): the comment is not made twice, and keeps its proposal link."""
    return (
        earlier is not None
        and earlier.comment_audience == "external"
        and earlier.comment == finding.comment
        and bool(earlier.citations)
        and earlier.citations[0].block_id == finding.citations[0].block_id
    )


def _merged(ids: tuple[str, ...], more: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*ids, *more)))


def _with_comment_proposal(finding: PlaybookFinding, outcome: BatchOutcome | None) -> PlaybookFinding:
    """The finding linked to the proposal its external comment became (Review mode only): the
    one the queue names, which is the one already waiting when the same comment was queued before."""
    queued = tuple(o.proposal_id for o in (outcome.operations if outcome else ()) if o.proposal_id)
    return replace(finding, proposal_ids=_merged(finding.proposal_ids, queued)) if queued else finding


__all__ = ["CITED_STATUSES", "RECORD_FINDING", "record_finding_tool"]
