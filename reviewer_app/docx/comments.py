"""Comments (contract §8): one record per ``w:comment`` for the edit engine, threads for the model.

:func:`comment_records` joins a comment's four places (see :mod:`.comment_record`) once, so reply
and resolve (which must write the same keys back) and :func:`list_comments` (what ``read_comments``
shows the model) can never disagree about which comment is which. Both are kept per document
between edits (:mod:`.comment_index`, :mod:`.comment_listing`); this module is the full reading
and the API the engine, the panel and the page view call.

Quotes are clean text (accepted view, see :mod:`.text`): what the reader sees once pending changes
are accepted, so a quote the model copies matches what ``read_document`` showed it.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from . import xmlutil
from .comment_index import TextCache, forget, kept_records, known_texts, note_changed, remember
from .comment_listing import threads
from .comment_record import (
    RANGE_END,
    RANGE_START,
    CommentParts,
    CommentRecord,
    comment_paragraphs,
    comment_parts,
    comment_text,
    new_record,
)
from .document import WordDocument
from .snapshot import Snapshot
from .vocabulary import COMMENT_ANCHORS
from .xmlutil import W15, W, on_off

__all__ = [
    "CommentParts",
    "CommentRecord",
    "comment_dates",
    "comment_paragraphs",
    "comment_parts",
    "comment_records",
    "list_comments",
    "note_changed",
]

#: Stories other than the main one that may carry comment anchors (relationship type suffixes).
_OTHER_STORIES = (xmlutil.REL_HEADER, xmlutil.REL_FOOTER, xmlutil.REL_FOOTNOTES, xmlutil.REL_ENDNOTES)


def _read_comments(root: etree._Element, known: TextCache) -> tuple[list[CommentRecord], TextCache]:
    """One record per ``w:comment`` in file order; a repeated ``w:id`` keeps the first (as Word does).

    A comment whose XML is as it was in ``known`` keeps the text read then (comparing the
    serialization is far cheaper than reading the text again, and safe against any edit in
    place); returns the records and the texts of the comments there are now.
    """
    records: list[CommentRecord] = []
    seen: set[str] = set()
    texts: TextCache = {}
    for el in root.iter(W + "comment"):
        comment_id = el.get(W + "id")
        if comment_id is None or comment_id in seen:
            continue
        seen.add(comment_id)
        xml = etree.tostring(el)
        cached = known.get(el)
        if cached is not None and cached[0] == xml:
            text, para_ids = cached[1], cached[2]
        else:
            text, para_ids = comment_text(el)
        texts[el] = (xml, text, para_ids)
        records.append(new_record(el, comment_id, text, para_ids))
    return records, texts


def _thread(records: list[CommentRecord], extended: etree._Element | None) -> None:
    """Fill ``done``, ``parent_id`` and ``thread_id`` from ``w15:commentEx`` entries.

    An entry matches the comment whose last paragraph carries its paraId; writers that put the id
    on another paragraph are matched as a fallback. A parent that cannot be found, or a cycle of
    parents, leaves the comment top-level so it is never lost from the list.
    """
    if extended is None:
        return
    by_last: dict[str, CommentRecord] = {}
    by_any: dict[str, CommentRecord] = {}
    for record in records:
        if record.para_id:
            by_last.setdefault(record.para_id, record)
        for para_id in record.para_ids:
            if para_id:
                by_any.setdefault(para_id, record)

    def find(para_id: str | None) -> CommentRecord | None:
        if not para_id:
            return None
        key = para_id.upper()
        return by_last.get(key) or by_any.get(key)

    by_id = {r.id: r for r in records}
    for entry in extended.iter(W15 + "commentEx"):
        record = find(entry.get(W15 + "paraId"))
        if record is None or record.extended is not None:
            continue
        record.extended = entry
        record.done = on_off(entry.get(W15 + "done"), False)
        parent = find(entry.get(W15 + "paraIdParent"))
        if parent is not None and parent is not record:
            record.parent_id = parent.id
    for record in records:
        seen = {record.id}
        current = record
        while current.parent_id is not None and current.parent_id not in seen:
            seen.add(current.parent_id)
            current = by_id[current.parent_id]
        # a chain that loops back has no root: keep the comment top-level
        record.thread_id = current.id if current.parent_id is None else record.id


def _attach_markers(records: list[CommentRecord], root: etree._Element, part: str, ranked: bool) -> None:
    """Record the first range start/end and reference of each comment found under ``root``."""
    by_id = {r.id: r for r in records if r.anchor_part in (None, part)}
    rank = 0
    for marker in root.iter(*COMMENT_ANCHORS):
        record = by_id.get(marker.get(W + "id") or "")
        if record is None:
            continue
        if marker.tag == RANGE_START:
            if record.range_start is not None:
                continue
            record.range_start = marker
        elif marker.tag == RANGE_END:
            if record.range_end is not None:
                continue
            record.range_end = marker
        elif record.reference is None:
            record.reference = marker
        else:
            continue
        record.anchor_part = part
        if ranked and marker is record.anchor:
            record.order = rank
        rank += 1


def comment_records(doc: WordDocument) -> list[CommentRecord]:
    """Every comment of ``doc`` in ``comments.xml`` order, threaded and with its anchor elements.

    Markers are looked for in the main story first (those get a document-order rank), then in
    headers, footers and notes, so the edit engine can reach a comment wherever it is anchored.

    The panel, the page view and the agent each ask after every edit, so the records are kept
    while neither the main story nor the comment parts changed (a fresh list of the same
    records), and after a reply, resolve or delete that reported what it changed
    (:func:`note_changed`) only those comments are read again. Anything else reads them all,
    keeping the text of each comment whose XML is unchanged.
    """
    parts = comment_parts(doc)
    if parts.comments is None:
        forget(doc)
        return []
    kept = kept_records(doc, parts)
    if kept is not None:
        return kept
    records, texts = _read_comments(parts.comments, known_texts(doc))
    _thread(records, parts.extended)
    _attach_markers(records, doc.body, doc.main_part, ranked=True)
    main_only = all(r.anchor_part is not None for r in records)
    if not main_only:
        for suffix in _OTHER_STORIES:
            for rel in doc.package.related_parts(doc.main_part, suffix):
                _attach_markers(records, doc.package.xml(rel.target), rel.target, ranked=False)
    remember(doc, parts, records, texts, main_only)
    return records


def list_comments(doc: WordDocument, snapshot: Snapshot) -> list[dict[str, Any]]:
    """``FolioAgentComment`` dicts (contract §8): top-level comments with their replies, dates dropped.

    ``blockId`` is the block holding the range start (or the reference run of a range-less
    comment) and null when the comment is anchored outside the main story or in a paragraph that is
    not a block (a hidden row); ``quote`` is the anchored clean text, "" without a range.

    The dicts are shared with the next listing (a thread nothing changed is the same dict), so
    callers must not change them: :meth:`DocxReviewer.comments` hands out copies. After a noted
    comment act (:func:`note_changed`) only the threads it changed and those anchored in the
    paragraphs it reported are made again.
    """
    return threads(doc, snapshot, comment_records(doc))


def comment_dates(doc: WordDocument) -> dict[str, str | None]:
    """``w:date`` of every comment (replies too) by id, as written (ISO 8601, often without a zone).

    The person reviewing wants to know when each comment was made, but :func:`list_comments` is the
    model's ``read_comments`` shape, which drops dates (contract §8); the desktop panel reads them here.
    """
    return {record.id: record.date for record in comment_records(doc)}
