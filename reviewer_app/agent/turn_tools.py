"""One turn's tool calls: budgets, the identical-read shortcut, fencing and the UI's summaries.

Every call the model makes goes through :meth:`TurnTools.run`, which applies the per-turn
budgets of agent-loop.md before anything executes, runs the call with
:func:`~reviewer_app.agent.executor.execute_tool_call`, and turns the envelope into what the
model is sent (JSON, fenced when it carries document text; the plain error with ``is_error``)
and what the UI is shown (a one-line summary and, for edits, the operations with their status).
A failure of the loop's own making never escapes as an exception: the model gets it as an error.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..docx.edit.outcome import BatchOutcome
from .codecs import decode_comment_id
from .events import EditBatch, ToolResult
from .executor import ToolRun, run_tool_call
from .executor_edits import comment_action
from .prompt import escape_fence_body, result_json
from .suggest_changes import InvalidSuggestChangesOptionsError
from .tool_registry import COMMENT_TOOLS, EDIT_RESULT_TOOLS, EDIT_TOOLS, LIVE_READS, REGISTRY, summarize
from .tool_spec import Fencing
from .tool_summaries import clip

log = logging.getLogger(__name__)

TOOL_BUDGET_SPENT = "tool budget for this turn is spent; summarize what you did and what remains"
UNCHANGED: dict[str, bool] = {"unchanged": True}


def live_budget_spent(name: str) -> str:
    """The live-view budget's error: the tool budget's sentence, naming the tool."""
    return f"{name} budget for this turn is spent; summarize what you did and what remains"


@dataclass
class Outcome:
    """One executed (or refused) call: what the model is sent and what the UI sees."""

    tool_use_id: str
    name: str
    envelope: dict[str, Any]
    #: the tool_result content: JSON or the error sentence (``body`` before fencing)
    body: str
    is_error: bool
    fenced: bool
    result_event: ToolResult
    edit_event: EditBatch | None = None

    def block(self) -> dict[str, Any]:
        """The tool_result block as the session stores it (the fence is added when sending).

        ``_fence`` is True for a read (left out when a conversation is restored) and ``"kept"``
        for an edit's result (restored, and fenced again with the new session's nonce).
        """
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": self.tool_use_id, "content": self.body}
        if self.is_error:
            block["is_error"] = True
        if self.fenced:
            block["_fence"] = "kept" if self.name in EDIT_RESULT_TOOLS else True
        return block


@dataclass
class TurnTools:
    """Counters and the read cache of one turn (a turn = one user message until the model stops)."""

    bridge: Any
    options: Any = None
    max_tool_calls: int = 40
    max_live_reads: int = 6
    review_mode: bool = False
    #: tools the session runs itself (:mod:`.host_tools`), by name
    host_tools: Mapping[str, Any] = field(default_factory=dict)
    calls: int = 0
    live_reads: int = 0
    ran: list[dict[str, Any]] = field(default_factory=list)
    _reads: dict[str, str] = field(default_factory=dict)

    # ------------------------------------------------------------------ budgets
    def refusal(self, name: str) -> str | None:
        """Count the call; the budget sentence when it may not run (checked before executing)."""
        self.calls += 1
        if self.calls > self.max_tool_calls:
            return TOOL_BUDGET_SPENT
        if name in LIVE_READS:
            if self.live_reads >= self.max_live_reads:
                return live_budget_spent(name)
            self.live_reads += 1
        return None

    # ------------------------------------------------------------------ running
    def execute(self, name: str, args: Any) -> ToolRun:
        """``run_tool_call`` (or the host tool's handler) that cannot raise for anything a model sends."""
        try:
            host = self.host_tools.get(name)
            if host is not None:
                return ToolRun(dict(host.handler(args, self.bridge)))
            return run_tool_call(name, args, self.bridge, self.options)
        except InvalidSuggestChangesOptionsError:
            raise  # the host's mistake: found in development, never explained to the model
        except Exception as error:  # the executor folds bridge errors already; this is the last net
            log.warning("tool %s raised %s", name, type(error).__name__)
            return ToolRun({"ok": False, "error": str(error) or type(error).__name__})

    def outcome(
        self,
        tool_use_id: str,
        name: str,
        args: Any,
        envelope: Mapping[str, Any],
        edits: BatchOutcome | None = None,
    ) -> Outcome:
        """Turn an envelope into the model's tool_result and the UI's events (``edits``: where
        the call's operations went, from :class:`~.executor.ToolRun`, for the edit cards)."""
        envelope = dict(envelope)
        unchanged = False
        host = self.host_tools.get(name)
        spec = REGISTRY.get(name)
        fencing = host.fencing if host is not None else spec.fencing if spec is not None else Fencing.NONE
        if envelope.get("ok"):
            result = envelope.get("result")
            body = result if host is not None and isinstance(result, str) else result_json(result)
            if host is None and fencing is Fencing.DOCUMENT_TEXT:  # a read: the same answer is not resent
                key = f"{name}\n{_canonical(args)}"
                unchanged = self._reads.get(key) == body
                self._reads[key] = body
            if unchanged:
                body = result_json(UNCHANGED)
            elif fencing is not Fencing.NONE:
                body = escape_fence_body(body)
            is_error = False
            fenced = fencing is not Fencing.NONE and not unchanged
            if unchanged:
                summary = "unchanged since the same read earlier in this turn"
            elif host is not None and isinstance(result, str):
                summary = clip(result.split("\n", 1)[0])  # a header line, e.g. the diff's counts
            else:
                summary = summarize(name, result)
            event = ToolResult(tool_use_id, name, True, summary, result=result, unchanged=unchanged)
        else:
            error = str(envelope.get("error") or "the tool failed")
            body, is_error, fenced = error, True, False
            event = ToolResult(tool_use_id, name, False, clip(error), error=error)
        edit = None
        if name in EDIT_TOOLS and (name not in COMMENT_TOOLS or self.review_mode):
            edit = edit_batch(tool_use_id, name, args, envelope, self.review_mode, edits)
            if name in COMMENT_TOOLS:
                _name_the_thread(edit.operations, self.bridge)
        elif host is not None and host.edits is not None:
            edit = host.edits(tool_use_id, args, envelope, self.review_mode)
        self.ran.append({"id": tool_use_id, "name": name, "ok": event.ok, "summary": event.summary})
        return Outcome(tool_use_id, name, envelope, body, is_error, fenced, event, edit)

    def refused(self, tool_use_id: str, name: str, message: str) -> Outcome:
        """A call that did not run (a spent budget, a stopped turn): an error the model reads."""
        event = ToolResult(tool_use_id, name, False, clip(message), error=message)
        return Outcome(tool_use_id, name, {"ok": False, "error": message}, message, True, False, event)


# ----------------------------------------------------------------------------- helpers
def _canonical(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(value)


def _name_the_thread(rows: list[dict[str, Any]], bridge: Any) -> None:
    """Give a comment proposal's card its thread: the block it sits on and the comment's opening words.

    Only the card shows these (they are never sent to the model): the lawyer sees which comment a
    reply or a resolve is about, and Show finds it.
    """
    with contextlib.suppress(Exception):  # no comments to read: the card names the id only
        comments = {c["id"]: c for c in bridge.get_comments()}
        for row in rows:
            op = row.get("operation")
            comment = comments.get(op.get("commentId")) if isinstance(op, dict) else None
            if comment is not None:
                op["blockId"] = comment.get("blockId")
                op["quote"] = f"{comment.get('author') or ''}: {comment.get('text') or ''}".strip(": ")


def _input_operations(name: str, args: Any) -> list[Any]:
    """The operations as the model sent them (JSON strings decoded the way the parser does)."""
    if name in COMMENT_TOOLS:
        comment_id = decode_comment_id(args.get("commentId")) if isinstance(args, Mapping) else None
        if comment_id is None or (name == "reply_comment" and not isinstance(args.get("text"), str)):
            return []
        op = comment_action(name, comment_id, dict(args))
        if "text" in op:
            op["comment"] = {"text": op.pop("text")}
        return [op]
    if name == "add_comment":
        if not isinstance(args, Mapping):
            return []
        op: dict[str, Any] = {"type": "commentOnBlock", "id": "comment-1"}
        op.update({k: args[k] for k in ("blockId", "quote", "precondition") if k in args})
        if "text" in args:
            op["comment"] = {"text": args["text"]}
        return [op]
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except ValueError:
            return []
    operations = args.get("operations") if isinstance(args, Mapping) else None
    if isinstance(operations, str):
        try:
            operations = json.loads(operations)
        except ValueError:
            return []
    if not isinstance(operations, list):
        return []
    decoded = []
    for op in operations:
        if isinstance(op, str):
            with contextlib.suppress(ValueError):
                op = json.loads(op)
        decoded.append(op)
    return decoded


def edit_batch(
    tool_use_id: str,
    name: str,
    args: Any,
    envelope: Mapping[str, Any],
    review_mode: bool,
    edits: BatchOutcome | None = None,
) -> EditBatch:
    """Per-operation status from the suggest_changes / add_comment summary (§5.9).

    Receipts and issues carry the input index of the operation they belong to; skipped entries
    carry the plain-language reason the model was sent. ``edits`` (where each applied or queued
    operation went) gives its row the proposal or the tracked changes a card acts on.
    """
    mode = "review" if review_mode else "tracked-changes"
    operations = _input_operations(name, args)
    if not envelope.get("ok"):
        error = str(envelope.get("error") or "")
        rows = [_row(op, index, "rejected") for index, op in enumerate(operations)]
        return EditBatch(tool_use_id, name, mode, rows, error=error)
    result = envelope.get("result") or {}
    status_of: dict[str, str] = {}
    for key, status in (("applied", "applied"), ("queued", "queued"), ("replayed", "replayed")):
        for entry in result.get(key) or []:
            status_of[str(entry.get("id"))] = status
    reasons = {str(entry.get("id")): entry.get("reason") for entry in result.get("skipped") or []}
    id_at: dict[int, str] = {}
    for entry in [*(result.get("receipts") or []), *(result.get("issues") or [])]:
        index = entry.get("operationIndex")
        if isinstance(index, int) and index >= 0 and entry.get("operationId") is not None:
            id_at.setdefault(index, str(entry["operationId"]))
    rows = []
    for index, op in enumerate(operations):
        op_id = id_at.get(index) or (str(op.get("id")) if isinstance(op, Mapping) and op.get("id") else None)
        if op_id is not None and op_id in reasons:
            rows.append(_row(op, index, "skipped", op_id, reasons[op_id]))
        elif op_id is not None and op_id in status_of:
            row = _row(op, index, status_of[op_id], op_id)
            made = edits.get(op_id) if edits is not None else None
            if made is not None and made.status == row["status"]:
                row.update(made.row_fields())
            rows.append(row)
        else:
            rows.append(_row(op, index, "unknown", op_id))
    return EditBatch(tool_use_id, name, mode, rows)


def _row(
    op: Any, index: int, status: str, op_id: str | None = None, reason: str | None = None
) -> dict[str, Any]:
    row: dict[str, Any] = {"index": index, "status": status}
    if op_id is not None:
        row["id"] = op_id
    row["operation"] = op
    if reason is not None:
        row["reason"] = reason
    return row
