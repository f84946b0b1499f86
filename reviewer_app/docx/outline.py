"""Outline, section handles and bounded section reads (contract §3 and §4.2-4.3).

A section handle carries the heading's text hash and level, so a renamed or re-levelled heading
is reported stale instead of silently resolving to different content.
"""

from __future__ import annotations

from typing import Any

from .blocks import Block
from .snapshot import Snapshot

DEFAULT_MAX_DEPTH = 3
DEFAULT_MAX_BLOCKS = 100
MAX_BLOCKS_LIMIT = 200

SECTION_MISSING = "The section no longer exists; run get_document_outline again."
SECTION_STALE = "The section heading changed; run get_document_outline again for a fresh handle."
CURSOR_NOT_IN_SECTION = "read_section's `afterBlockId` is not part of this section."


class ReadError(ValueError):
    """A read could not be answered; ``str()`` is the contract's model-facing message."""


def section_handle(block: Block) -> dict[str, Any]:
    """The handle of the section a heading block opens."""
    assert block.heading_level is not None
    return {
        "type": "headingSection",
        "story": "main",
        "headingBlockId": block.id,
        "headingTextHash": block.text_hash,
        "headingLevel": block.heading_level,
    }


def outline_entries(snapshot: Snapshot) -> list[dict[str, Any]]:
    """Every content heading, in order, with its parent handle (the nearest shallower heading)."""
    entries: list[dict[str, Any]] = []
    stack: list[tuple[int, dict[str, Any]]] = []
    for block in snapshot.blocks:
        if block.heading_level is None or not block.normalized or block.kind == "diagnostic":
            continue
        handle = section_handle(block)
        while stack and stack[-1][0] >= block.heading_level:
            stack.pop()
        entry: dict[str, Any] = {
            "handle": handle,
            "headingBlockId": block.id,
            "text": block.text,
            "level": block.heading_level,
        }
        if stack:
            entry["parentHandle"] = stack[-1][1]
        entries.append(entry)
        stack.append((block.heading_level, handle))
    return entries


def get_outline(snapshot: Snapshot, max_depth: int = DEFAULT_MAX_DEPTH) -> dict[str, Any]:
    """``{sections, totalSections, truncated}``: headings down to ``max_depth`` (1..9)."""
    entries = outline_entries(snapshot)
    shown = [e for e in entries if e["level"] <= max_depth]
    return {"sections": shown, "totalSections": len(entries), "truncated": len(shown) < len(entries)}


def resolve_section(snapshot: Snapshot, handle: dict[str, Any]) -> tuple[str, list[Block]]:
    """``("found", blocks)``, ``("stale", [])`` or ``("missing", [])`` for a section handle.

    The section is the heading plus the following content blocks up to (not including) the
    next content heading of the same or a shallower level.
    """
    heading_id = handle.get("headingBlockId")
    index = snapshot.index_of(heading_id) if isinstance(heading_id, str) else None
    if index is None:
        return "missing", []
    heading = snapshot.blocks[index]
    if heading.heading_level is None or not heading.normalized:
        return "missing", []
    renamed = heading.text_hash != handle.get("headingTextHash")
    if renamed or heading.heading_level != handle.get("headingLevel"):
        return "stale", []
    blocks = [heading]
    for block in snapshot.blocks[index + 1 :]:
        if not block.normalized:
            continue
        if block.heading_level is not None and block.heading_level <= heading.heading_level:
            break
        blocks.append(block)
    return "found", blocks


def read_section(
    snapshot: Snapshot,
    handle: dict[str, Any],
    max_blocks: int = DEFAULT_MAX_BLOCKS,
    after_block_id: str | None = None,
) -> dict[str, Any]:
    """One page of a section's blocks (heading first); raises :class:`ReadError` when it can't."""
    status, blocks = resolve_section(snapshot, handle)
    if status == "missing":
        raise ReadError(SECTION_MISSING)
    if status == "stale":
        raise ReadError(SECTION_STALE)
    start = 0
    if after_block_id is not None:
        ids = [b.id for b in blocks]
        if after_block_id not in ids:
            raise ReadError(CURSOR_NOT_IN_SECTION)
        start = ids.index(after_block_id) + 1
    page = blocks[start : start + max_blocks]
    truncated = start + len(page) < len(blocks)
    result: dict[str, Any] = {
        "handle": handle,
        "heading": blocks[0].agent_view(),
        "blocks": [b.agent_view() for b in page],
        "totalBlocks": len(blocks),
        "truncated": truncated,
    }
    if truncated and page:
        result["nextAfterBlockId"] = page[-1].id
    return result
