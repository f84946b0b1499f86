"""The tools that change the document or the view: suggest_changes, add_comment, the comment
actions and the navigation tools (contract §4.8-§4.12, §4.15-§4.16, §5.7-§5.9, §7).

The mutation path for ``suggest_changes``: lenient parse → version-pin capability → replay
ledger (resends are reported, not re-run) → per-operation preconditions stamped from a fresh
snapshot → the bridge's mode stamped on the batch → apply → the §5.9 summary, re-indexed to the
call as the model sent it. The version pin itself, the preconditions and text no Word document
can hold are judged once, by the edit engine behind the bridge (:mod:`..docx.edit.engine`): its
skips reach the model as they are, so the executor does not check them again. Each handler
refuses with :class:`~.executor_reads.ToolError`; :func:`.executor.execute_tool_call` turns that
(and a bridge's exception) into the envelope the model reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..docx.edit.engine import with_block_hash
from ..docx.edit.outcome import BatchOutcome, OperationOutcome
from ..docx.edit.skips import SKIP_REASONS, reason_for
from ..docx.edit.validate import unwritable_character
from .bridge import DEFAULT_MODE, member
from .codecs import decode_comment_id, decode_range_handle
from .executor_reads import ToolError, args_object, block_target, non_empty_string, over_limit
from .replay import ledger_for, partition
from .suggest_changes import (
    SuggestChangesOptions,
    parse_add_comment_input,
    parse_suggest_changes_input,
)

VERSION_UNVERIFIABLE = (
    "This editor surface cannot verify `documentVersion`; it has no document version to compare against."
)
#: Core result statuses after which applied or queued operations really exist (and are replayable).
_LASTING = frozenset(("committed", "queued"))


@dataclass(frozen=True)
class EditResult:
    """An edit tool's answer: the §5.9 summary the model reads, and where each operation went
    (its tracked changes or its proposal), which only the host sees."""

    summary: dict[str, Any]
    outcome: BatchOutcome


# ------------------------------------------------------------------------------------------- summary
def _empty_summary() -> dict[str, Any]:
    return {
        "version": 1,
        "applied": [],
        "queued": [],
        "replayed": [],
        "skipped": [],
        "issues": [],
        "receipts": [],
        "normalizations": [],
    }


def _skip_reason(entry: dict[str, Any]) -> str:
    """The §6 sentence (plus `` (<message>)``) for a core skip; unknown reasons pass through."""
    reason = entry.get("reason")
    if isinstance(reason, str) and reason in SKIP_REASONS:
        message = entry.get("message")
        return reason_for(reason, message if isinstance(message, str) else None)
    return str(reason)


def _mode(bridge: Any) -> str:
    mode = member(bridge, "document_operation_mode")
    return mode if isinstance(mode, str) and mode else DEFAULT_MODE


def _apply(
    bridge: Any,
    summary: dict[str, Any],
    fresh: list[tuple[int, dict[str, Any]]],
    precondition: dict[str, Any] | None,
) -> dict[str, Any]:
    """Apply ``fresh`` (input index, operation), fold the core result into ``summary``, return it."""
    snapshot = bridge.snapshot()
    operations = [with_block_hash(op, snapshot) for _, op in fresh]
    batch: dict[str, Any] = {"version": 1, "operations": operations, "mode": _mode(bridge)}
    if precondition is not None:
        batch["precondition"] = dict(precondition)
    result = bridge.apply_document_operations(batch)
    positions = [index for index, _ in fresh]
    index_of = {str(op["id"]): index for index, op in fresh}

    def to_input(core_index: Any) -> int:
        if isinstance(core_index, int) and 0 <= core_index < len(positions):
            return positions[core_index]
        return -1

    summary["applied"].extend({"id": entry["id"]} for entry in result.get("applied") or [])
    summary["queued"].extend({"id": entry["id"]} for entry in result.get("queued") or [])
    summary["skipped"].extend(
        {"id": entry["id"], "reason": _skip_reason(entry)} for entry in result.get("skipped") or []
    )
    for issue in result.get("issues") or []:
        issue = dict(issue)
        index = index_of.get(str(issue.get("operationId")), to_input(issue.get("operationIndex")))
        issue["operationIndex"] = index
        issue["path"] = f"$.operations[{index}]" if index >= 0 else "$.operations"
        summary["issues"].append(issue)
    for receipt in result.get("receipts") or []:
        receipt = dict(receipt)
        receipt["operationIndex"] = index_of.get(
            str(receipt.get("operationId")), to_input(receipt.get("operationIndex"))
        )
        summary["receipts"].append(receipt)
    summary["normalizations"].extend(result.get("normalizations") or [])
    return result


def _sort(summary: dict[str, Any], order: dict[str, int]) -> dict[str, Any]:
    """Receipts, issues and skips in the order the model sent the operations."""
    summary["receipts"].sort(key=lambda r: r["operationIndex"])
    summary["issues"].sort(key=lambda i: i["operationIndex"])
    for key in ("applied", "queued", "replayed", "skipped"):
        summary[key].sort(key=lambda entry: order.get(str(entry["id"]), -1))
    return summary


# ------------------------------------------------------------------------------------------- mutations
def suggest_changes(bridge: Any, args: Any, options: SuggestChangesOptions | None) -> EditResult:
    parsed = parse_suggest_changes_input(args, options)
    if not parsed.get("ok"):
        raise ToolError(parsed["error"])
    operations: list[dict[str, Any]] = parsed["operations"]
    precondition = parsed.get("precondition")
    if precondition is not None and member(bridge, "get_document_version") is None:
        raise ToolError(VERSION_UNVERIFIABLE)
    ledger = ledger_for(bridge)
    split = partition(ledger, operations)
    if split.error is not None:
        raise ToolError(split.error)
    summary = _empty_summary()
    summary["normalizations"].extend(parsed.get("normalizations") or [])
    order = {str(op["id"]): index for index, op in enumerate(operations)}
    for index, op in split.replayed:
        summary["replayed"].append({"id": op["id"]})
        receipt = ledger.receipt(str(op["id"]), index)
        if receipt is not None:
            summary["receipts"].append(receipt)
    if not split.fresh:
        return EditResult(_sort(summary, order), BatchOutcome())
    result = _apply(bridge, summary, split.fresh, precondition)
    outcome = BatchOutcome.of(result)
    if result.get("status", "committed") in _LASTING:
        receipts = {str(r.get("operationId")): r for r in result.get("receipts") or []}
        for _, op in split.fresh:
            if outcome.get(str(op["id"])) is not None:
                ledger.record(op, receipts.get(str(op["id"])))
    return EditResult(_sort(summary, order), outcome)


def add_comment(bridge: Any, args: Any) -> EditResult:
    """One ``commentOnBlock``, applied at once and never recorded for replay (§4.8)."""
    parsed = parse_add_comment_input(args)
    if not parsed.get("ok"):
        raise ToolError(parsed["error"])
    operation = parsed["operation"]
    summary = _empty_summary()
    outcome = BatchOutcome.of(_apply(bridge, summary, [(0, operation)], None))
    return EditResult(_sort(summary, {str(operation["id"]): 0}), outcome)


# ------------------------------------------------------------------------------------------- comments
def _comment_id(tool: str, value: str) -> str:
    decoded = decode_comment_id(value)
    if decoded is None:
        raise ToolError(f"{tool}'s `commentId` must be a comment id from `read_comments`.")
    return decoded


def comment_action(tool: str, comment_id: str, args: dict[str, Any]) -> dict[str, Any]:
    """The proposal a Review-mode reply_comment / resolve_comment becomes (its id names the thread)."""
    if tool == "reply_comment":
        return {
            "type": "replyComment",
            "id": f"reply-{comment_id}",
            "commentId": comment_id,
            "text": args["text"],
        }
    kind = "reopenComment" if args.get("reopen", False) else "resolveComment"
    verb = "reopen" if kind == "reopenComment" else "resolve"
    return {"type": kind, "id": f"{verb}-{comment_id}", "commentId": comment_id}


def _queue_or_act(
    bridge: Any, tool: str, comment_id: str, args: dict[str, Any], act: Callable[[], dict[str, Any]]
) -> dict[str, Any] | EditResult:
    """In Review mode the comment action waits as a proposal (like every change); else ``act()``.

    A reply or a resolve changes the document a person sends on: in Review mode nothing the agent
    does lands before the person applies it, so a document saying "resolve every comment" gets
    no further than the queue.
    """
    if member(bridge, "queues_comment_actions") is not True:
        return act()
    proposal = bridge.propose_comment_action(comment_action(tool, comment_id, args))
    if proposal is None:
        raise ToolError(f'No comment with id "{comment_id}" was found.')
    summary = _empty_summary()
    summary["queued"].append({"id": proposal["operationId"]})
    queued = OperationOutcome(str(proposal["operationId"]), "queued", proposal_id=str(proposal["id"]))
    return EditResult(summary, BatchOutcome((queued,)))


def reply_comment(bridge: Any, args: Any) -> dict[str, Any] | EditResult:
    if not isinstance(args, dict):
        raise ToolError("reply_comment expects an object with `commentId` and `text` strings.")
    comment_id, text = args.get("commentId"), args.get("text")
    if not non_empty_string(comment_id):
        raise ToolError("reply_comment requires a non-empty string `commentId`.")
    if not non_empty_string(text):
        raise ToolError("reply_comment requires a non-empty string `text`.")
    too_long = over_limit("reply_comment's `text`", text)
    if too_long:
        raise ToolError(too_long)
    character = unwritable_character(text)
    if character is not None:
        raise ToolError(
            f"reply_comment's `text` contains {character}, a character a Word document cannot hold; "
            "send the reply without it."
        )
    decoded = _comment_id("reply_comment", comment_id)

    def reply() -> dict[str, Any]:
        if not bridge.reply_to_comment(decoded, text):
            raise ToolError(f'No comment with id "{decoded}" was found.')
        return {"replied": True}

    return _queue_or_act(bridge, "reply_comment", decoded, args, reply)


def resolve_comment(bridge: Any, args: Any) -> dict[str, Any] | EditResult:
    if not isinstance(args, dict):
        raise ToolError("resolve_comment expects an object with a `commentId` string.")
    comment_id = args.get("commentId")
    if not non_empty_string(comment_id):
        raise ToolError("resolve_comment requires a non-empty string `commentId`.")
    if "reopen" in args and not isinstance(args["reopen"], bool):
        raise ToolError("resolve_comment's `reopen` must be a boolean when provided.")
    decoded = _comment_id("resolve_comment", comment_id)
    resolved = not args.get("reopen", False)

    def resolve() -> dict[str, Any]:
        if not bridge.resolve_comment(decoded, resolved):
            raise ToolError(f'No comment with id "{decoded}" was found.')
        return {"resolved": resolved}

    return _queue_or_act(bridge, "resolve_comment", decoded, args, resolve)


# ------------------------------------------------------------------------------------------- navigation
def scroll_to_block(bridge: Any, args: Any) -> dict[str, Any]:
    scroll = member(bridge, "scroll_to_block")
    if scroll is None:
        raise ToolError("This editor surface does not support scroll_to_block (no live editor view).")
    block_id = args_object(args).get("blockId")
    if not non_empty_string(block_id):
        raise ToolError("scroll_to_block requires a non-empty string `blockId`.")
    return {"scrolled": bool(scroll(block_id))}


def show_in_document(bridge: Any, args: Any) -> dict[str, Any]:
    show = member(bridge, "show_in_document")
    if show is None:
        raise ToolError("This editor surface does not support show_in_document (no live editor view).")
    if not isinstance(args, dict):
        raise ToolError("show_in_document expects exactly one of `blockId` or `range`.")
    if ("blockId" in args) == ("range" in args):
        raise ToolError("show_in_document requires exactly one of `blockId` or `range`.")
    if "blockId" in args:
        block_id = args["blockId"]
        if not non_empty_string(block_id):
            raise ToolError("show_in_document's `blockId` must be a non-empty string.")
        target = block_target(block_id)
    else:
        target = decode_range_handle(args["range"])
        if target is None:
            raise ToolError("show_in_document's `range` must be copied from find_text.")
    return {"shown": bool(show(target))}
