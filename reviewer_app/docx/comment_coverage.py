"""Which paragraphs the comment threads cover, so a change elsewhere is known to leave them as they were.

A document fact read from the blocks and their comment markers (no view involved): typing changes
one paragraph, and a reader of the comments (the desktop's comments panel) need not read every
comment again (about 60 ms a key on a 300-page contract, far more with 2,000 threads) when that
paragraph holds no comment marker and lies inside no comment's range: no thread, quote or anchor
can have changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .snapshot import Snapshot
from .vocabulary import COMMENT_ANCHORS
from .xmlutil import W

_RANGE_END = W + "commentRangeEnd"
#: a range running over more paragraphs than this is not followed: the panel re-reads on any change
_LONGEST_RANGE = 200


def commented_blocks(snapshot: Snapshot, threads: Iterable[dict[str, Any]]) -> frozenset[str] | None:
    """Ids of the blocks from each thread's block to the one holding its range's end.

    None when a thread's anchor cannot be followed (no block, an end outside any paragraph, a
    range too long): then no change can be said to leave the comments as they are.
    """
    covered: set[str] = set()
    blocks = snapshot.blocks
    for thread in threads:
        block_id = thread["blockId"]
        at = None if block_id is None else snapshot.index_of(block_id)
        if at is None:
            return None
        if not thread["quote"]:
            covered.add(block_id)  # a comment on a point: its markers sit in that paragraph
            continue
        for i in range(at, min(at + _LONGEST_RANGE, len(blocks))):
            covered.add(blocks[i].id)
            if _ends_in(blocks[i].element, thread["id"]):
                break
        else:
            return None
    return frozenset(covered)


def _ends_in(element: Any, comment_id: str) -> bool:
    return element is not None and any(m.get(W + "id") == comment_id for m in element.iter(_RANGE_END))


def leaves_comments(
    snapshot: Snapshot, touched: frozenset[str] | None, covered: Callable[[], frozenset[str] | None]
) -> bool:
    """Whether a change to the blocks ``touched`` leaves every comment thread as it was listed
    when ``covered`` (:func:`commented_blocks`, asked for only when needed) was read: none of them
    is commented or holds a comment marker now (a new comment's), and the change named its blocks.

    The cheap answers come first: a comment act names a paragraph holding a marker, so it never
    pays for following every thread's range."""
    if not touched:
        return False
    for block_id in touched:
        block = snapshot.block(block_id)
        if block is None or block.element is None:
            return False
        if next(block.element.iter(*COMMENT_ANCHORS), None) is not None:
            return False
    blocks = covered()
    return blocks is not None and touched.isdisjoint(blocks)
