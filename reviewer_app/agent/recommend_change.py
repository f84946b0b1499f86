"""``recommend_change``: the agent's accept / reject / counter for one of the other side's changes.

A recommendation is advice a lawyer acts on in bulk ("Accept recommended"), so the tool checks
it before anything is kept: the change must exist now, must be the other side's (advice on our
own change would have "Accept recommended" accept the person's own edit), a reason is required,
and a counter needs its wording. Anything wrong goes back to the model as an error naming what
to fix, and nothing is kept until the call is right.

A counter is a proposal like any other edit: its wording replaces their inserted text through
suggest_changes' own path (a queued proposal with a card in Review mode, a tracked change in
Direct mode), so the lawyer reviews it where they review every agent edit. Only an insertion
(their new text, or the new half of a replacement) can be countered this way; for a deletion
the error names the insertion beside it when there is one.

The tool is a :class:`~reviewer_app.agent.host_tools.HostTool`, offered only while a triage turn
runs (``get_triage()`` returns an active :class:`~.triage.Triage`), so ordinary chat turns never
see it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from .executor import run_tool_call
from .host_tools import HostTool, edits_of_call
from .triage import VERDICTS, Recommendation, Triage

RECOMMEND_CHANGE = "recommend_change"
#: how many ids an error or a result lists before it says how many more there are
_LISTED_IDS = 20
_COUNTERABLE = frozenset(("insertion",))

_DESCRIPTION = (
    "Record your recommendation for one of the other side's tracked changes (the ids listed in the "
    "task). verdict: accept, reject or counter. reason: one or two sentences for the lawyer: why, "
    "and what it means for our side. counterText (counter only): the wording to stand instead of "
    "their inserted text; it becomes a tracked-change proposal the lawyer reviews. A wrong call is "
    "refused with the reason: fix it and call again. Recommending a change again replaces the "
    "earlier recommendation."
)
_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "changeId": {"type": "string", "description": "The id of their tracked change, as listed."},
        "verdict": {"type": "string", "enum": list(VERDICTS)},
        "reason": {"type": "string", "description": "Why, for the lawyer, in one or two sentences."},
        "counterText": {
            "type": "string",
            "description": "Counter only: the wording that replaces their inserted text.",
        },
    },
    "required": ["changeId", "verdict", "reason"],
    "additionalProperties": False,
}


class RecommendationRefused(ValueError):
    """A call the model must fix; the message says what is wrong."""


def _ids(changes: list[dict[str, Any]]) -> str:
    ids = [str(c["id"]) for c in changes[:_LISTED_IDS]]
    more = len(changes) - len(ids)
    return ", ".join(ids) + (f" and {more} more" if more > 0 else "") if ids else "none"


def _text(args: Mapping[str, Any], field: str) -> str:
    value = args.get(field, "")
    if not isinstance(value, str):
        raise RecommendationRefused(f"`{field}` must be a string.")
    return value.strip()


def _their_change(triage: Triage, changes: list[dict[str, Any]], given: Any) -> dict[str, Any]:
    """The listed change ``given`` names, when it exists and is the other side's."""
    change_id = str(given) if isinstance(given, (str, int)) and not isinstance(given, bool) else None
    theirs = triage.theirs(changes)
    change = next((c for c in changes if str(c["id"]) == change_id), None)
    if change is None:
        raise RecommendationRefused(
            f"there is no tracked change with id {json.dumps(given)} in the document now; "
            f"the other side's changes have the ids {_ids(theirs)}."
        )
    if change not in theirs:
        raise RecommendationRefused(
            f"change {change_id} is by {json.dumps(change['author'])}, our own side: recommend only on "
            f"the other side's changes ({_ids(theirs)})."
        )
    return change


def _counter_operation(change: dict[str, Any], theirs: list[dict[str, Any]], counter: str) -> dict[str, Any]:
    """The suggest_changes operation that puts ``counter`` in place of their inserted text."""
    if change["type"] not in _COUNTERABLE or not change.get("blockId"):
        beside = next(
            (
                c
                for c in theirs
                if c["type"] in _COUNTERABLE
                and c.get("blockId")
                and c.get("blockId") == change.get("blockId")
            ),
            None,
        )
        hint = (
            f" To answer their replacement, counter its inserted text (change {beside['id']})."
            if beside is not None
            else " Recommend accept or reject and give the wording you want in the reason."
        )
        raise RecommendationRefused(
            f"change {change['id']} is a {change['type']}: only inserted text in the body can be countered."
            + hint
        )
    if "\n" in change["text"]:
        raise RecommendationRefused(
            f"change {change['id']} inserts several paragraphs, which one counter cannot replace; "
            "recommend accept or reject and give the wording you want in the reason."
        )
    if counter == change["text"]:
        raise RecommendationRefused("counterText is their own wording: recommend accept instead.")
    return {
        "type": "replaceInBlock",
        "blockId": change["blockId"],
        "find": change["text"],
        "replace": counter,
    }


def _propose(bridge: Any, change: dict[str, Any], operation: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Run the counter through suggest_changes; its operation id and the call (:func:`edits_of_call`)."""
    run = run_tool_call("suggest_changes", {"operations": [operation]}, bridge)
    envelope = run.envelope
    if not envelope.get("ok"):
        raise RecommendationRefused(f"the counter could not be proposed: {envelope.get('error')}")
    summary = envelope["result"]
    done = [*(summary.get("queued") or []), *(summary.get("applied") or []), *(summary.get("replayed") or [])]
    if not done:
        codes = {issue.get("code") for issue in summary.get("issues") or []}
        if "ambiguousFind" in codes:
            raise RecommendationRefused(
                f"their inserted text (change {change['id']}) occurs more than once in its paragraph, so "
                "the counter cannot be placed on it; recommend accept or reject and give the wording "
                "you want in the reason."
            )
        raise RecommendationRefused(
            f"the counter could not be proposed ({', '.join(sorted(str(c) for c in codes)) or 'skipped'}); "
            "read the clause again and retry, or recommend accept or reject."
        )
    return str(done[0]["id"]), {
        "args": {"operations": [operation]},
        "summary": summary,
        "outcome": run.outcome,
    }


def _recommend(triage: Triage, args: Any, bridge: Any) -> tuple[Recommendation, dict[str, Any] | None]:
    """The validated recommendation and, for a counter, the suggest_changes call it made."""
    if not isinstance(args, Mapping):
        raise RecommendationRefused("recommend_change takes an object: changeId, verdict, reason.")
    reviewer = getattr(bridge, "reviewer", None)
    if reviewer is None:
        raise RecommendationRefused("this editor surface has no open document.")
    changes = reviewer.change_details()
    change = _their_change(triage, changes, args.get("changeId"))
    verdict = args.get("verdict")
    if verdict not in VERDICTS:
        raise RecommendationRefused(
            f"`verdict` must be one of {', '.join(VERDICTS)}; got {json.dumps(verdict)}."
        )
    reason = _text(args, "reason")
    if not reason:
        raise RecommendationRefused("`reason` is required: say in a sentence or two why, for the lawyer.")
    counter = _text(args, "counterText")
    if verdict != "counter" and counter:
        raise RecommendationRefused(
            f"counterText goes only with verdict counter ({verdict} was given); "
            "drop it, or make the verdict counter."
        )
    if verdict == "counter" and not counter:
        raise RecommendationRefused("a counter needs `counterText`: the wording to stand instead of theirs.")
    call = None
    operation_id = None
    if verdict == "counter":
        operation = _counter_operation(change, triage.theirs(changes), counter)
        operation_id, call = _propose(bridge, change, operation)
    recommendation = Recommendation(
        change_id=str(change["id"]),
        verdict=verdict,
        reason=reason,
        author=change["author"],
        change_type=change["type"],
        text=change["text"],
        counter_text=counter,
        operation_id=operation_id,
    )
    return recommendation, call


def recommend_change_tool(get_triage: Callable[[], Triage | None]) -> HostTool:
    """The ``recommend_change`` host tool for the triage ``get_triage()`` returns, while it is active."""

    def active() -> Triage | None:
        triage = get_triage()
        return triage if triage is not None and triage.active else None

    def describe() -> tuple[str, Mapping[str, Any]] | None:
        return (_DESCRIPTION, _SCHEMA) if active() is not None else None

    def handler(args: Any, bridge: Any) -> Mapping[str, Any]:
        triage = active()
        if triage is None:
            return {"ok": False, "error": "no triage is running; recommend_change is not available."}
        try:
            recommendation, call = _recommend(triage, args, bridge)
        except RecommendationRefused as refusal:
            return {"ok": False, "error": f"recommendation not recorded: {refusal}"}
        triage.record(recommendation)
        left = triage.unanswered(bridge.reviewer.change_details())
        result: dict[str, Any] = {
            "recorded": recommendation.change_id,
            "verdict": recommendation.verdict,
            "unanswered": _ids(left),
        }
        if call is not None:
            queued = bool(call["summary"].get("queued"))
            result["counter"] = "queued for the lawyer's review" if queued else "made as a tracked change"
        return {"ok": True, "result": result, "counterCall": call}

    edits = edits_of_call("counterCall", "suggest_changes")
    return HostTool(RECOMMEND_CHANGE, describe, handler, untrusted=False, edits=edits)


__all__ = ["RECOMMEND_CHANGE", "recommend_change_tool"]
