"""Boundary codecs for the handles a model copies from one tool result into the next (contract §3).

A model echoes comment ids, story handles, section handles and text-range handles it read
earlier. Each decoder accepts exactly the shape a read produced and nothing looser, and returns
a fresh, plain value (or None): a lenient decoder would let a half-remembered handle resolve to
the wrong place, which is worse than asking the model to read again. The executor turns None
into the tool's plain-language error.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from reviewer_app.docx.edit import contract
from reviewer_app.docx.edit.schema import check_value
from reviewer_app.docx.hashing import is_text_hash

#: JavaScript's Number.MAX_SAFE_INTEGER: Word comment ids and note ids beyond it cannot round-trip.
MAX_SAFE_INTEGER = contract.MAX_SAFE_INTEGER
#: ASCII digits only: ``str.isdigit`` would also accept "²" or Arabic-Indic digits.
_DIGITS = re.compile(r"[0-9]+")

STORY_TYPES: tuple[str, ...] = ("main", "header", "footer", "footnote", "endnote")
SECTION_HANDLE_KEYS: tuple[str, ...] = ("type", "story", "headingBlockId", "headingTextHash", "headingLevel")
MIN_HEADING_LEVEL = 1
MAX_HEADING_LEVEL = 9


def as_integer(value: Any) -> int | None:
    """A JSON integer as ``int`` (``3`` or ``3.0``; JSON has one number type), else None.

    Booleans are refused although Python counts them as ints: ``true`` is not a page number.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def _exact_keys(value: Mapping[Any, Any], allowed: tuple[str, ...]) -> bool:
    return all(isinstance(key, str) and key in allowed for key in value)


def decode_comment_id(value: Any) -> str | None:
    """A comment id from read_comments: a string of ASCII digits no larger than 2^53-1.

    Numbers are refused (ids are strings in every read, and a float id could have been rounded),
    and so is anything with a suffix or sign (``"17abc"``, ``"-17"``): a lookup must never match
    a comment by prefix. The string is returned as given, so lookups compare exactly what was read.
    """
    if not isinstance(value, str) or _DIGITS.fullmatch(value) is None:
        return None
    return value if int(value) <= MAX_SAFE_INTEGER else None


def decode_story_handle(value: Any) -> dict[str, Any] | None:
    """A story handle from list_stories: ``{"type": "main"}``, a header/footer with a non-empty
    ``relationshipId``, or a footnote/endnote with an integer ``noteId``; no other keys."""
    if not isinstance(value, Mapping):
        return None
    kind = value.get("type")
    if kind == "main":
        return {"type": "main"} if _exact_keys(value, ("type",)) else None
    if kind in ("header", "footer"):
        rel_id = value.get("relationshipId")
        if not _exact_keys(value, ("type", "relationshipId")) or not isinstance(rel_id, str) or not rel_id:
            return None
        return {"type": kind, "relationshipId": rel_id}
    if kind in ("footnote", "endnote"):
        note_id = as_integer(value.get("noteId"))
        if not _exact_keys(value, ("type", "noteId")) or note_id is None or abs(note_id) > MAX_SAFE_INTEGER:
            return None
        return {"type": kind, "noteId": note_id}
    return None


def decode_section_handle(value: Any) -> dict[str, Any] | None:
    """A section handle from get_document_outline: all five keys, the main story, a heading block
    id, its text hash and a level from 1 to 9; no other keys.

    The hash and level are what make a renamed or re-levelled heading fail as stale, so a handle
    missing either is refused here rather than resolved by id alone.
    """
    if not isinstance(value, Mapping) or not _exact_keys(value, SECTION_HANDLE_KEYS):
        return None
    block_id = value.get("headingBlockId")
    text_hash = value.get("headingTextHash")
    level = as_integer(value.get("headingLevel"))
    if (
        value.get("type") != "headingSection"
        or value.get("story") != "main"
        or not isinstance(block_id, str)
        or not block_id
        or not is_text_hash(text_hash)
        or level is None
        or not MIN_HEADING_LEVEL <= level <= MAX_HEADING_LEVEL
    ):
        return None
    return {
        "type": "headingSection",
        "story": "main",
        "headingBlockId": block_id,
        "headingTextHash": text_hash,
        "headingLevel": level,
    }


def decode_range_handle(value: Any) -> dict[str, Any] | None:
    """A text range from find_text: the contract's range shape exactly (end > start >= 0, a
    selected-text hash), checked by the same fragment the operation parser uses, so a range that
    passes here is one ``replaceRange``/``commentOnRange``/``formatRange`` would accept."""
    if not isinstance(value, Mapping):
        return None
    decoded, issues = check_value(value, contract.RANGE_SCHEMA)
    return None if issues else dict(decoded)
