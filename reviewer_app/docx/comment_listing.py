"""The threads the model and the panel are shown (``FolioAgentComment``, contract §8), made from
the comment records and kept with them in the document's :class:`~.comment_index.CommentIndex`.

A listing made afresh reads every thread's block id and quote; after an edit only the threads a
noted act changed and those anchored in blocks the document re-read are made again
(:func:`threads`), so a keystroke or a reply does not re-read 2,000 quotes.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from .comment_anchors import Locator
from .comment_index import CommentIndex, Listing, QuoteCache, index_of
from .comment_record import CommentRecord
from .document import WordDocument
from .snapshot import Snapshot

#: More changed blocks than this and the listing is made afresh rather than patched.
_PATCH_BLOCKS = 64


def threads(doc: WordDocument, snapshot: Snapshot, records: list[CommentRecord]) -> list[dict[str, Any]]:
    """The threads of ``records`` (just read by :func:`~.comments.comment_records`), in order:
    the last listing patched where it can be, else made afresh."""
    index = index_of(doc)
    if index is None:
        return []
    listing = _patched(index, doc, snapshot, records) if index.records is not None else None
    if listing is None:
        listing = _listing(index, doc, snapshot, records)
    return list(listing.threads)


def _sort_key(record: CommentRecord) -> tuple[int, float, int, str]:
    """Anchored comments in document order first, then the rest by numeric id."""
    if record.order is not None:
        return (0, record.order, 0, "")
    numeric = int(record.id) if record.id.isdigit() else -1
    return (1, 0, numeric, record.id)


def _thread_entry(
    record: CommentRecord,
    replies: list[dict[str, Any]],
    doc: WordDocument,
    locator: Locator,
    index: CommentIndex,
    quotes: QuoteCache,
) -> tuple[dict[str, Any], tuple[int, int] | None]:
    """One thread as listed, and the blocks its block id and quote were read from."""
    block: int | None = None
    quote = ""
    span: tuple[int, int] | None = None
    if record.anchor_part == doc.main_part:
        anchor = record.anchor
        if anchor is not None:
            block = locator.block_index(anchor)
            span = None if block is None else (block, block)
        if record.range_start is not None and record.range_end is not None:
            markers = (record.range_start, record.range_end)
            source = locator.quote_source(*markers)
            cached = index.quotes.get(markers)
            quote = cached[1] if cached is not None and cached[0] == source else locator.quote(*markers)
            quotes[markers] = (source, quote)
            read = locator.span(*markers)
            if read is not None:
                span = read if span is None else (min(span[0], read[0]), max(span[1], read[1]))
    entry = {
        "id": record.id,
        "author": record.author,
        "text": record.text,
        "resolved": record.done,
        "blockId": None if block is None else locator.blocks[block].id,
        "quote": quote,
        "replies": replies,
    }
    return entry, span


def _replies_by_thread(
    records: list[CommentRecord], threads: set[str] | None
) -> dict[str, list[dict[str, Any]]]:
    """The replies of ``threads`` (every thread when None) in file order."""
    replies: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record.thread_id != record.id and (threads is None or record.thread_id in threads):
            replies.setdefault(record.thread_id, []).append(
                {"id": record.id, "author": record.author, "text": record.text}
            )
    return replies


def _listing(
    index: CommentIndex, doc: WordDocument, snapshot: Snapshot, records: list[CommentRecord]
) -> Listing:
    """Every thread read afresh (quotes whose blocks are unchanged are kept)."""
    locator = Locator(snapshot)
    quotes: QuoteCache = {}
    replies = _replies_by_thread(records, None)
    previous = index.listed_before or index.listed()
    listing = Listing(list(snapshot.blocks), [], [], {}, {}, {})
    for record in sorted((r for r in records if not r.is_reply), key=_sort_key):
        entry, span = _thread_entry(record, replies.get(record.id, []), doc, locator, index, quotes)
        before = previous.get(record.id)
        listing.threads.append(before if before == entry else entry)  # a view tells changes by identity
        listing.keys.append(_sort_key(record))
        listing.key_of[record.id] = listing.keys[-1]
        _place_span(listing, record.id, span)
    index.quotes = quotes
    index.listed_before = {}
    index.dirty.clear()
    index.listing = listing if index.records is not None else None
    return listing


def _place_span(listing: Listing, thread_id: str, span: tuple[int, int] | None) -> None:
    old = listing.spans.pop(thread_id, None)
    if old is not None:
        for i in range(old[0], old[1] + 1):
            listing.by_block[i].discard(thread_id)
    if span is not None:
        listing.spans[thread_id] = span
        for i in range(span[0], span[1] + 1):
            listing.by_block.setdefault(i, set()).add(thread_id)


def _patched(
    index: CommentIndex, doc: WordDocument, snapshot: Snapshot, records: list[CommentRecord]
) -> Listing | None:
    """The last listing with the threads changed since made again (None: make it all afresh).

    A thread changed when a noted act changed one of its comments (``index.dirty``) or when a
    block its block id or quote was read from is no longer the same block object (the document
    re-read that paragraph). A block list of another length or with other paragraphs means the
    story's structure changed: everything is read again.
    """
    listing = index.listing
    if listing is None:
        return None
    old, new = listing.blocks, snapshot.blocks
    if len(old) != len(new):
        return None
    changed = [i for i, (a, b) in enumerate(zip(old, new, strict=True)) if a is not b]
    if len(changed) > _PATCH_BLOCKS or any(old[i].element is not new[i].element for i in changed):
        return None
    affected = set(index.dirty)
    for i in changed:
        affected |= listing.by_block.get(i, set())
    listing.blocks = list(new)
    index.dirty.clear()
    if not affected:
        return listing
    doc_records = {i: r for i in affected if (r := index.by_id.get(i)) is not None and not r.is_reply}
    replies = _replies_by_thread(records, set(doc_records))
    for thread_id in affected:
        key = listing.key_of.pop(thread_id, None)
        if key is not None:
            n = bisect_left(listing.keys, key)
            del listing.threads[n]
            del listing.keys[n]
    locator = Locator(snapshot)
    for thread_id in affected:
        record = doc_records.get(thread_id)
        if record is None:
            _place_span(listing, thread_id, None)
            continue
        entry, span = _thread_entry(record, replies.get(thread_id, []), doc, locator, index, index.quotes)
        key = _sort_key(record)
        n = bisect_left(listing.keys, key)
        listing.threads.insert(n, entry)
        listing.keys.insert(n, key)
        listing.key_of[thread_id] = key
        _place_span(listing, thread_id, span)
    return listing
