"""Tracked changes as a person reviews them: every story, with dates and moves.

:func:`~.revisions.list_changes` answers the model's ``read_changes``, whose shape the tool
contract fixes (§8: id, type, author, text, blockId; main story only, dates dropped). A person
going through a redline also needs when each change was made, which changes are halves of a
move, and the changes in headers, footers and notes, which accept/reject already reach. This
module lists those from the same change groups, so the panel and the model count the same
changes in the main story and every id here is one ``accept_change``/``reject_change`` takes.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from . import revisions, stories
from .document import WordDocument
from .snapshot import Snapshot
from .xmlutil import W

MAIN_STORY: dict[str, Any] = {"type": "main"}

_MOVE_KINDS = frozenset(("moveFrom", "moveTo", "markMoveFrom", "markMoveTo"))


def _location(group: revisions.ChangeGroup, block_of: dict[etree._Element, str]) -> str | None:
    """The main-story block holding the change even when none of its text survives (a deleted
    clause): its section and page are still where a reviewer looks for it."""
    for record in group.records:
        scope = record.scope
        paragraph = scope if scope is None or scope.tag == W + "p" else next(scope.iter(W + "p"), None)
        if paragraph is not None and paragraph in block_of:
            return block_of[paragraph]
    return None


def _detail(
    group: revisions.ChangeGroup, block_id: str | None, location: str | None, story: dict[str, Any]
) -> dict[str, Any]:
    return {
        "id": group.id,
        "type": group.type,
        "author": group.author,
        "date": group.date,
        "text": group.text,
        "blockId": block_id,
        "locationBlockId": location,
        "story": dict(story),
        # a move's source is a "deletion" and its destination an "insertion" (contract types);
        # a reviewer still wants to know the text went somewhere rather than away
        "moved": any(r.kind in _MOVE_KINDS for r in group.records),
    }


def list_change_details(doc: WordDocument, snapshot: Snapshot) -> list[dict[str, Any]]:
    """Every pending change: the main story in document order, then headers, footers, footnotes
    and endnotes (the order and handles of :func:`~.stories.list_stories`).

    Each is ``{id, type, author, date, text, blockId, locationBlockId, story, moved}``: ``date``
    is the ISO ``w:date`` (None when absent), ``story`` the story's handle, ``blockId`` as
    :meth:`~.reviewer.DocxReviewer.changes` has it, ``locationBlockId`` the block holding the
    change with or without visible text. Both block ids are None outside the main story, whose
    blocks the snapshot does not hold.
    """
    block_of: dict[etree._Element, str] | None = None
    out = []
    for group, block_id in revisions.located_changes(doc, snapshot):
        location = block_id
        if location is None:
            if block_of is None:  # built only when a change left no visible text
                block_of = {b.element: b.id for b in snapshot.blocks if b.element is not None}
            location = _location(group, block_of)
        out.append(_detail(group, block_id, location, MAIN_STORY))
    for handle, container in stories.story_containers(doc):
        records = revisions.revision_records(container)
        if records:
            out.extend(_detail(group, None, None, handle) for group in revisions.change_groups(records))
    return out
