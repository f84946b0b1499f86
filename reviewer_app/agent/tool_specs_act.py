"""The tools that act: edits, comment-thread actions and navigation, each tool's whole spec in one place.

An edit's result lists skip reasons and issues that can quote the document, so the edits and
comment actions are :attr:`~.tool_spec.Fencing.EDIT_RESULT`; the navigation tools answer with a
flag of the host's own and are not fenced. The handlers are in :mod:`.executor_edits`.
"""

from __future__ import annotations

from typing import Any

from . import executor_edits as edits
from .suggest_changes import describe_suggest_changes_capabilities, suggest_changes_input_schema
from .tool_descriptions import APP_ONLY, BLOCK_ID_SOURCE, SUGGEST_CHANGES_BASE, TEXT_CAP
from .tool_schemas import BLOCK_ID, COMMENT_ID, HASH, RANGE_HANDLE_SCHEMA, object_schema, string_schema
from .tool_spec import Fencing, Role, ToolSpec
from .tool_summaries import edit_counts, flag


def suggest_changes_description(options: Any = None) -> str:
    """The suggest_changes description: the base rules, then this surface's capability lines."""
    return f"{SUGGEST_CHANGES_BASE}\n\n{describe_suggest_changes_capabilities(options)}"


SUGGEST_CHANGES = ToolSpec(
    name="suggest_changes",
    description=suggest_changes_description,
    compact_description=(
        "Propose edits as tracked changes. blockId is copied from a read. The result lists each "
        "operation as applied, queued or skipped with a reason: act on the reason."
    ),
    input_schema=suggest_changes_input_schema,
    handler=edits.suggest_changes,
    takes_options=True,
    fencing=Fencing.EDIT_RESULT,
    role=Role.EDIT,
    summary=edit_counts,
)

ADD_COMMENT = ToolSpec(
    name="add_comment",
    description=(
        "Attach a Word comment to a block. blockId must be "
        f"{BLOCK_ID_SOURCE}. quote anchors the comment to a passage that occurs exactly once in the block; "
        "without it the whole block is anchored. Pass the block's blockTextHash as "
        "precondition.blockTextHash so a block that changed since you read it is not commented. The "
        "comment is added at once; the result lists what was applied or skipped, and why."
    ),
    compact_description=(
        "Comment on a block (blockId copied from a read); quote: a passage of it to anchor to."
    ),
    input_schema=object_schema(
        {
            "blockId": BLOCK_ID,
            "text": string_schema(f"The comment. {TEXT_CAP}"),
            "quote": string_schema(f"Optional: the passage of the block the comment is about. {TEXT_CAP}"),
            "precondition": object_schema(
                {"blockTextHash": {**HASH, "description": "The block's blockTextHash as you read it."}},
                ("blockTextHash",),
            ),
        },
        ("blockId", "text"),
    ),
    handler=edits.add_comment,
    fencing=Fencing.EDIT_RESULT,
    role=Role.EDIT,
    summary=edit_counts,
)

REPLY_COMMENT = ToolSpec(
    name="reply_comment",
    description=(
        "Reply to a comment thread. commentId must be copied exactly from read_comments; the reply is "
        "added to that thread under your name (in review mode, once the user applies the proposal)."
    ),
    input_schema=object_schema(
        {"commentId": COMMENT_ID, "text": string_schema(f"The reply. {TEXT_CAP}")}, ("commentId", "text")
    ),
    handler=edits.reply_comment,
    fencing=Fencing.EDIT_RESULT,
    role=Role.COMMENT_ACTION,
    summary=flag("replied", "replied", otherwise=edit_counts),
)

RESOLVE_COMMENT = ToolSpec(
    name="resolve_comment",
    description=(
        "Mark a comment thread resolved, or reopen it with reopen: true. commentId must be copied exactly "
        "from read_comments. In review mode this is a proposal the user applies or discards."
    ),
    input_schema=object_schema(
        {
            "commentId": COMMENT_ID,
            "reopen": {"type": "boolean", "description": "true reopens a resolved thread (default false)."},
        },
        ("commentId",),
    ),
    handler=edits.resolve_comment,
    fencing=Fencing.EDIT_RESULT,
    role=Role.COMMENT_ACTION,
    summary=flag("resolved", "resolved", "reopened", otherwise=edit_counts),
)

SHOW_IN_DOCUMENT = ToolSpec(
    name="show_in_document",
    description=(
        "Scroll the document to a block or a text range and highlight it, so the user sees what you mean. "
        f"Give exactly one of blockId ({BLOCK_ID_SOURCE}) or range (copied exactly from find_text). "
        f"{APP_ONLY}"
    ),
    input_schema=object_schema(
        {
            "blockId": BLOCK_ID,
            "range": {**RANGE_HANDLE_SCHEMA, "description": "A range copied from find_text."},
        }
    ),
    handler=edits.show_in_document,
    fencing=Fencing.NONE,
    role=Role.NAVIGATE,
    summary=flag("shown", "shown", "could not show it"),
)

SCROLL_TO_BLOCK = ToolSpec(
    name="scroll_to_block",
    description=f"Scroll the document to a block. blockId must be {BLOCK_ID_SOURCE}. {APP_ONLY}",
    input_schema=object_schema({"blockId": BLOCK_ID}, ("blockId",)),
    handler=edits.scroll_to_block,
    fencing=Fencing.NONE,
    role=Role.NAVIGATE,
    summary=flag("scrolled", "scrolled", "could not scroll"),
)
