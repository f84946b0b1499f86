"""Words for what the agent did: operation titles, inline redlines, places, tool lines, statuses.

The chat shows a lawyer what an operation *means* ("Replace text", struck old words and
underlined new ones, "1.2 Interpretation · page 3"), never the contract's JSON. Everything here
is a pure function of an operation, a snapshot or an event, so the cards, the tool lines and a
conversation rebuilt from its transcript all describe things the same way.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import QCoreApplication

from ...docx.edit.engine import target_block_id
from ...docx.snapshot import Snapshot
from ...docx.worddiff import word_diff
from ..plurals import count_text

#: operations whose card shows a quoted passage or comment and a comment text (a Comment: line)
COMMENT_KINDS = frozenset(
    ("commentOnBlock", "commentOnRange", "replyComment", "resolveComment", "reopenComment")
)
#: characters of old/new text a card shows before it clips (the full text is in the document)
REDLINE_CLIP = 280
#: unchanged words kept around a change in a card's redline
CONTEXT_CLIP = 40
HEADING_CLIP = 48


def _tr(text: str) -> str:
    return QCoreApplication.translate("ChatDock", text)


def clip(text: str, limit: int) -> str:
    """One line, at most ``limit`` characters (an ellipsis marks the cut)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# ----------------------------------------------------------------------------- operations
def operation_title(kind: str) -> str:
    """The operation type in words a lawyer uses."""
    titles = {
        "replaceInBlock": _tr("Replace text"),
        "replaceRange": _tr("Replace text"),
        "commentOnRange": _tr("Comment"),
        "commentOnBlock": _tr("Comment"),
        "formatRange": _tr("Change formatting"),
        "insertAfterBlock": _tr("Insert paragraph after"),
        "insertBeforeBlock": _tr("Insert paragraph before"),
        "replaceBlock": _tr("Rewrite paragraph"),
        "deleteBlock": _tr("Delete paragraph"),
        "splitBlock": _tr("Split paragraph"),
        "mergeBlockWithNext": _tr("Merge with next paragraph"),
        "setBlockParagraphProperties": _tr("Change paragraph layout"),
        "insertTable": _tr("Insert table"),
        "deleteTable": _tr("Delete table"),
        "insertSignatureTable": _tr("Insert signature table"),
        "insertTableRow": _tr("Insert table row"),
        "deleteTableRow": _tr("Delete table row"),
        "insertTableColumn": _tr("Insert table column"),
        "deleteTableColumn": _tr("Delete table column"),
        "mergeTableCells": _tr("Merge table cells"),
        "splitTableCell": _tr("Split table cell"),
        "replyComment": _tr("Reply to comment"),
        "resolveComment": _tr("Resolve comment"),
        "reopenComment": _tr("Reopen comment"),
    }
    return titles.get(kind, _tr("Change"))


def comment_text(operation: Mapping[str, Any]) -> str | None:
    """The comment an operation carries (a plain string or ``{text}``), if any."""
    comment = operation.get("comment")
    if isinstance(comment, Mapping):
        comment = comment.get("text")
    return comment if isinstance(comment, str) and comment.strip() else None


def old_text_of(operation: Mapping[str, Any], snapshot: Snapshot | None) -> str | None:
    """The text an operation removes, read from the document as it was before the operation ran."""
    kind = operation.get("type")
    if kind == "replaceInBlock":
        found = operation.get("find")
        return found if isinstance(found, str) else None
    block_id = target_block_id(operation)
    block = snapshot.block(block_id) if snapshot is not None and block_id else None
    if block is None:
        return None
    if kind in ("replaceBlock", "deleteBlock"):
        return block.text
    span = operation.get("range")
    if kind == "replaceRange" and isinstance(span, Mapping):
        start, end = span.get("startOffset"), span.get("endOffset")
        if isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(block.text):
            return block.text[start:end]
    return None


def _new_text(operation: Mapping[str, Any]) -> str | None:
    kind = operation.get("type")
    if kind in ("replaceInBlock", "replaceRange"):
        value = operation.get("replace")
    elif kind in ("insertAfterBlock", "insertBeforeBlock", "replaceBlock"):
        value = operation.get("text")
    elif kind in ("insertTableRow", "insertTableColumn"):
        cells = operation.get("cellTexts")
        value = " | ".join(str(c) for c in cells) if isinstance(cells, list) else None
    else:
        value = None
    return value if isinstance(value, str) else None


def _context(text: str, first: bool, last: bool) -> str:
    """Unchanged text between changes, shortened to the words next to them."""
    if len(text) <= 2 * CONTEXT_CLIP:
        return text
    if first and last:
        return text
    if first:
        return "…" + text[-CONTEXT_CLIP:]
    if last:
        return text[:CONTEXT_CLIP] + "…"
    return text[:CONTEXT_CLIP] + " … " + text[-CONTEXT_CLIP:]


def diff_html(old: str, new: str, colors: Mapping[str, str]) -> str:
    """Old → new as a word-level redline (the engine's own diff): only what changed is marked."""
    struck = f'<s style="color:{colors["deleted"]}">{{0}}</s>'
    underlined = f'<u style="color:{colors["inserted"]}">{{0}}</u>'
    segments: list[tuple[str, str]] = []
    at = 0
    for hunk in word_diff(old, new):
        segments.append(("same", old[at : hunk.start]))
        segments.append(("del", old[hunk.start : hunk.end]))
        segments.append(("ins", hunk.new_text))
        at = hunk.end
    segments.append(("same", old[at:]))
    segments = [(kind, text) for kind, text in segments if text]
    out: list[str] = []
    for index, (kind, text) in enumerate(segments):
        if kind == "ins" and index and segments[index - 1][0] == "del":
            out.append("\u200a")  # a hair space keeps struck and new words from running together
        if kind == "same":
            out.append(html.escape(_context(text, index == 0, index == len(segments) - 1)))
        else:
            shown = text if len(text) <= REDLINE_CLIP else text[: REDLINE_CLIP - 1] + "…"
            out.append((struck if kind == "del" else underlined).format(html.escape(shown)))
    return "".join(out)


def redline_html(operation: Mapping[str, Any], old_text: str | None, colors: Mapping[str, str]) -> str:
    """A small inline redline: deleted words struck, inserted words underlined (never colour alone)."""
    kind = operation.get("type")
    parts: list[str] = []
    new = _new_text(operation)
    if old_text and new is not None and kind in ("replaceInBlock", "replaceRange", "replaceBlock"):
        parts.append(diff_html(old_text, new, colors))
    else:
        if old_text and kind == "deleteBlock":
            parts.append(
                f'<s style="color:{colors["deleted"]}">{html.escape(clip(old_text, REDLINE_CLIP))}</s>'
            )
        if new:
            parts.append(f'<u style="color:{colors["inserted"]}">{html.escape(clip(new, REDLINE_CLIP))}</u>')
    if kind in COMMENT_KINDS:
        quote = operation.get("quote")
        if isinstance(quote, str) and quote:
            parts.append(f"“{html.escape(clip(quote, 80))}”")
        comment = comment_text(operation)
        if comment:
            # a word, not the speech-balloon emoji it once was: no font a firm's desktop is sure to
            # have draws U+1F4AC, so the card showed a tofu box where its label should be
            label = html.escape(_tr("Comment:"))
            parts.append(f"<i>{label} {html.escape(clip(comment, REDLINE_CLIP))}</i>")
    elif kind in ("formatRange", "setBlockParagraphProperties"):
        values = operation.get("formatting") or operation.get("properties")
        if isinstance(values, Mapping):
            shown = ", ".join(f"{key}: {clip(str(value), 30)}" for key, value in values.items())
            parts.append(html.escape(clip(shown, 160)))
    elif kind == "insertTable":
        rows = operation.get("rows")
        if isinstance(rows, list):
            parts.append(html.escape(_tr("{0} rows").format(len(rows))))
    return " ".join(parts)


def rationale(operation: Mapping[str, Any]) -> str | None:
    """Why, as the model gave it: the comment on a text change, plus its review area and severity."""
    kind = str(operation.get("type") or "")
    pieces: list[str] = []
    comment = comment_text(operation)
    if comment and kind not in COMMENT_KINDS:
        pieces.append(clip(comment, REDLINE_CLIP))
    meta = [str(operation[key]) for key in ("area", "severity") if operation.get(key)]
    if meta:
        pieces.append("(" + " · ".join(meta) + ")")
    return " ".join(pieces) or None


# ----------------------------------------------------------------------------- places
def section_label(snapshot: Snapshot | None, block_id: str | None) -> str:
    """Where a block sits: its clause number and heading (and its own list label), in words."""
    if snapshot is None or block_id is None:
        return ""
    index = snapshot.index_of(block_id)
    if index is None:
        return _tr("a paragraph no longer in the document")
    block = snapshot.blocks[index]
    heading = next(
        (b for b in reversed(snapshot.blocks[: index + 1]) if b.heading_level is not None and b.normalized),
        None,
    )
    parts: list[str] = []
    if heading is not None:
        title = clip(heading.text, HEADING_CLIP)
        parts.append(f"{heading.display_label} {title}" if heading.display_label else f"“{title}”")
    if block is not heading and block.display_label:
        parts.append(block.display_label)
    if not parts:
        parts.append(f"“{clip(block.text, HEADING_CLIP)}”")
    return " ▸ ".join(parts)


def where_text(section: str, page: int | None) -> str:
    """``section · page N`` (the page as laid out here, 1-based), either part optional."""
    page_text = _tr("page {0}").format(page) if page is not None else ""
    return " · ".join(part for part in (section, page_text) if part)


# ----------------------------------------------------------------------------- statuses
def status_title(status: str) -> str:
    titles = {
        "queued": _tr("Proposed"),
        "applied": _tr("Applied"),
        "replayed": _tr("Already applied"),
        "skipped": _tr("Skipped"),
        "rejected": _tr("Refused"),
        "discarded": _tr("Discarded"),
        "stale": _tr("Stale"),
        "failed": _tr("Failed"),
        "missing": _tr("No longer queued"),
        "accepted": _tr("Accepted"),
        "declined": _tr("Rejected"),
        "resolved": _tr("Resolved in the document"),
    }
    return titles.get(status, _tr("Unknown"))


def profile_note(message: str) -> str:
    """The conversation's note line when the session gave the model other tools mid-turn: the
    agent's English ``message`` (:data:`~reviewer_app.agent.events.PIPELINE_SWITCH_MESSAGES`),
    translated where a translation exists."""
    return _tr(message)


STALE_REASON = "The text changed since this was proposed: discard it, or ask the agent again."


def stale_reason() -> str:
    return _tr(STALE_REASON)


# ----------------------------------------------------------------------------- tool lines
def _read_section(args: Mapping[str, Any], result: Any) -> str:
    heading = result.get("heading") if isinstance(result, Mapping) else None
    if isinstance(heading, Mapping):
        label = heading.get("displayLabel") or f"“{clip(str(heading.get('text') or ''), 40)}”"
        return _tr("Read section {0}").format(label)
    return _tr("Read a section")


def _suggested(args: Mapping[str, Any], result: Any) -> str:
    count = len(args.get("operations") or []) if isinstance(args.get("operations"), list) else 0
    return count_text(count, "Suggested {n} change", "Suggested {n} changes", "ChatDock")


def _recommended(args: Mapping[str, Any], result: Any) -> str:
    verdict, change = (clip(str(args.get(key) or "?"), 12) for key in ("verdict", "changeId"))
    return _tr("Recommended {0} for change {1}").format(verdict, change)


#: Each tool's line in the conversation, from the call's arguments and result: one for every tool
#: of the agent's registry (a test holds the two together) and for the host tools that have one
#: (recommend_change, of Agent ▸ Triage Their Changes); any other tool is shown by its name.
TOOL_PHRASES: dict[str, Callable[[Mapping[str, Any], Any], str]] = {
    "read_document": lambda args, result: _tr("Read the document"),
    "get_document_outline": lambda args, result: _tr("Read the outline"),
    "read_section": _read_section,
    "list_stories": lambda args, result: _tr("Listed headers, footers and notes"),
    "read_story": lambda args, result: _tr("Read a header, footer or note"),
    "find_text": lambda args, result: _tr("Searched “{0}”").format(clip(str(args.get("query") or ""), 40)),
    "read_comments": lambda args, result: _tr("Read the comments"),
    "read_changes": lambda args, result: _tr("Read the tracked changes"),
    "check_document": lambda args, result: _tr("Checked the document for drafting errors"),
    "add_comment": lambda args, result: _tr("Commented"),
    "suggest_changes": _suggested,
    "reply_comment": lambda args, result: _tr("Replied to a comment"),
    "resolve_comment": lambda args, result: _tr("Resolved a comment"),
    "read_page": lambda args, result: _tr("Read page {0}").format(args.get("page", "?")),
    "read_selection": lambda args, result: _tr("Read your selection"),
    "show_in_document": lambda args, result: _tr("Showed a passage"),
    "scroll_to_block": lambda args, result: _tr("Scrolled the page view"),
    "recommend_change": _recommended,
}


def tool_phrase(name: str, tool_input: Any, result: Any = None) -> str:
    """What a tool call did, as a short phrase ("Read section 1.2", "Searched “indemnity”")."""
    phrase = TOOL_PHRASES.get(name)
    return phrase(tool_input if isinstance(tool_input, Mapping) else {}, result) if phrase else name


def duration_text(ms: float | None) -> str:
    if ms is None:
        return ""
    return _tr("{0} ms").format(round(ms)) if ms < 1000 else _tr("{0:.1f} s").format(ms / 1000)
