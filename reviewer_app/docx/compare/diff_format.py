"""``format_version_diff_for_llm``: a version diff as compact, stable lines for a model prompt.

The format is the contract's (§10), line for line, because prompts and tests quote it: a header
with the counts, the privacy lines when transforms were applied, one line per change, then the
metadata lines. Unchanged text is shortened to its first and last 30 characters; inserted and
deleted text is always shown whole (it is what the model must judge).
"""

from __future__ import annotations

import json
from typing import Any

ELLIPSIS = "…"
_COUNTS = ("added", "deleted", "modified", "formatChanged", "moved", "metadataChanged", "unchanged")
EDGE_CHARS = 30


def truncate(text: str) -> str:
    """``text`` as is up to 61 characters, else its first 30 + ``…`` + its last 30."""
    if len(text) <= EDGE_CHARS * 2 + len(ELLIPSIS):
        return text
    return f"{text[:EDGE_CHARS]}{ELLIPSIS}{text[-EDGE_CHARS:]}"


def _segment(segment: dict[str, str]) -> str:
    kind, text = segment["type"], segment["text"]
    if kind == "equal":
        return truncate(text)
    if kind == "del":
        return f"[-{text}-]"
    if kind == "ins":
        return f"{{+{text}+}}"
    return ""


def change_line(change: dict[str, Any]) -> str:
    """One change as its line (``+``/``-``/``~``/``<``/``>`` then the block id in brackets)."""
    kind, block_id = change["type"], change["blockId"]
    if kind == "added":
        return f"+ [{block_id}] added: {change['text']}"
    if kind == "deleted":
        return f"- [{block_id}] deleted: {change['text']}"
    if kind == "modified":
        return f"~ [{block_id}] modified: " + "".join(_segment(s) for s in change["segments"])
    if kind == "formatChanged":
        props = ", ".join(change["changedProperties"])
        return f"~ [{block_id}] format changed ({props}): {truncate(change['text'])}"
    if kind == "movedFrom":
        return f"< [{block_id}] moved away (move {change['moveGroupId']}): {truncate(change['text'])}"
    if kind == "movedTo":
        return f"> [{block_id}] moved here (move {change['moveGroupId']}): {truncate(change['text'])}"
    return ""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def format_version_diff_for_llm(diff: dict[str, Any]) -> str:
    """The diff as lines joined by ``\\n`` (contract §10, exact)."""
    counts = {key: diff["summaryCounts"].get(key, 0) for key in _COUNTS}
    changed = counts["metadataChanged"]
    metadata = f", {changed} metadata-changed" if changed > 0 else ""
    lines = [
        f"Version diff: {counts['added']} added, {counts['deleted']} deleted, {counts['modified']} modified, "
        f"{counts['formatChanged']} format-changed, {counts['moved']} moved{metadata}, "
        f"{counts['unchanged']} unchanged"
    ]
    report = diff.get("privacyReport") or {}
    if report.get("appliedTransforms"):
        lines.append("Privacy transforms: " + ", ".join(report["appliedTransforms"]))
        lines.append("Removed metadata fields: " + (", ".join(report["removedMetadataProperties"]) or "none"))
    lines.extend(change_line(c) for c in diff["changes"])
    lines.extend(
        f"~ metadata.{m['property']}: {_json(m['baseValue'])} -> {_json(m['revisedValue'])}"
        for m in diff.get("metadataChanges", ())
    )
    return "\n".join(lines)
