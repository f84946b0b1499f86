"""The comments of each open document as last read, kept across the acts that report what they did.

Reading 2,000 comments and their anchors again after every reply costs more than the reply, and
the panel, the page view and the agent each ask after every edit. So the records (and the listing
made from them, see :mod:`.comment_listing`) are kept per document with what they were read
from, and a comment act that names what it changed (:func:`note_changed`) has only those comments
read again (:func:`kept_records`). Whatever this cannot do exactly is left to a full reading.
"""

from __future__ import annotations

import weakref
from bisect import bisect_left, insort
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .comment_record import (
    RANGE_END,
    RANGE_START,
    REFERENCE,
    CommentParts,
    CommentRecord,
    comment_text,
    new_record,
)
from .document import WordDocument
from .vocabulary import COMMENT_ANCHORS
from .xmlutil import W15, W, on_off

#: A comment's text as last read, by ``w:comment`` element and per document: the element's
#: serialization then, its clean text and its paragraphs' paraIds. Reading the text of 2,000
#: comments is most of what listing them costs, and one reply or resolve changes one of them.
TextCache = dict[etree._Element, tuple[bytes, str, tuple[str, ...]]]

#: Quotes as last read, by (range start, range end) marker and per document, with what they were
#: read from (:meth:`.comment_anchors.Locator.quote_source`): an edit re-reads only the quotes it touched.
QuoteCache = dict[tuple[etree._Element, etree._Element], tuple[tuple[Any, ...], str]]


@dataclass(slots=True)
class Change:
    """What one comment act changed (see :func:`note_changed`)."""

    ids: set[str]
    paragraphs: list[etree._Element] | None


@dataclass(slots=True, eq=False)
class Listing:
    """The threads :func:`~.comments.list_comments` made last, in order, and what each was read from.

    ``blocks`` are the snapshot's blocks then (a block object that is still there is a paragraph
    no edit reported changed); ``spans`` the block range each thread's block id and quote were
    read from, ``by_block`` the reverse; ``keys`` the threads' sort keys (unique and in order), to
    find where a thread is or goes, and ``key_of`` each thread's.
    """

    blocks: list[Any]
    threads: list[dict[str, Any]]
    keys: list[tuple[Any, ...]]
    key_of: dict[str, tuple[Any, ...]]
    spans: dict[str, tuple[int, int] | None]
    by_block: dict[int, set[str]]


@dataclass(slots=True, eq=False)
class CommentIndex:
    """The comments of one document as last read, kept across the acts that report what they did.

    ``version`` and ``shape`` say what the records were read from: the document's version (the
    main story, where the markers are), the comment parts' roots, their lengths and end elements
    (a rollback that put a part's children back as copies changes those). ``records`` is None
    when some comment is anchored outside the main story, whose stories the version does not
    cover. ``dirty`` holds the threads changed since the listing was made.
    """

    version: int
    shape: tuple[Any, ...]
    records: list[CommentRecord] | None
    texts: TextCache
    by_id: dict[str, CommentRecord]
    by_para: dict[str, CommentRecord]
    dirty: set[str] = field(default_factory=set)
    listing: Listing | None = None
    quotes: QuoteCache = field(default_factory=dict)
    #: the threads listed before a full reading, by id: one listed the same again is the same dict
    listed_before: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: the anchored threads by ``order`` (None: not sorted yet), where an added thread's rank is found
    ranked: list[CommentRecord] | None = None

    def listed(self) -> dict[str, dict[str, Any]]:
        """The threads of the last listing by id (none when there is no listing)."""
        return {} if self.listing is None else {entry["id"]: entry for entry in self.listing.threads}


_INDEXES: weakref.WeakKeyDictionary[WordDocument, CommentIndex] = weakref.WeakKeyDictionary()
#: Comment acts by the document version they started from (see :func:`note_changed`).
_CHANGES: weakref.WeakKeyDictionary[WordDocument, dict[int, Change]] = weakref.WeakKeyDictionary()
#: How many acts are remembered for a reader that has not caught up yet.
_KEPT_CHANGES = 32


def index_of(doc: WordDocument) -> CommentIndex | None:
    """The index of ``doc`` (None before its comments were first read)."""
    return _INDEXES.get(doc)


def kept_records(doc: WordDocument, parts: CommentParts) -> list[CommentRecord] | None:
    """The records of ``doc``'s comments when the index still holds them, or can bring them up to
    date from the acts noted since (a fresh list of the same records); None: read them all.

    They are kept while neither the main story nor the comment parts changed; after a reply,
    resolve or delete that reported what it changed (:func:`note_changed`) only those comments
    are read again.
    """
    index = _INDEXES.get(doc)
    shape = _shape(parts)
    if index is None or index.records is None or index.shape[::3] != shape[::3]:
        return None
    if index.version == doc.version and index.shape == shape:
        return list(index.records)
    change = _changes_since(doc, index.version)
    if change is None or not _update(index, doc, parts, change):
        return None
    index.version, index.shape = doc.version, shape
    return list(index.records)


def known_texts(doc: WordDocument) -> TextCache:
    """The comment texts last read for ``doc``, for a full reading to keep where the XML is the same."""
    index = _INDEXES.get(doc)
    return {} if index is None else index.texts


def remember(
    doc: WordDocument, parts: CommentParts, records: list[CommentRecord], texts: TextCache, main_only: bool
) -> None:
    """Keep a full reading of ``doc``'s comments (only its texts when some comment is anchored
    outside the main story, whose stories the document's version does not cover)."""
    index = _INDEXES.get(doc)
    by_para: dict[str, CommentRecord] = {}
    for record in records:
        if record.para_id:
            by_para.setdefault(record.para_id, record)
    _INDEXES[doc] = CommentIndex(
        version=doc.version,
        shape=_shape(parts),
        records=list(records) if main_only else None,
        texts=texts,
        by_id={r.id: r for r in records},
        by_para=by_para,
        quotes=index.quotes if index is not None else {},
        listed_before={} if index is None else index.listed(),
    )


def forget(doc: WordDocument) -> None:
    """``doc`` has no comment part now (an undo may have taken it away): nothing read before holds."""
    _INDEXES.pop(doc, None)


def note_changed(doc: WordDocument, comment_ids: set[str], paragraphs: list[etree._Element] | None) -> None:
    """A comment act is about to report its change to ``doc``: it changed the entries, thread
    links and resolved state of ``comment_ids`` alone (added, replied to, resolved or deleted
    them), and of the main story only the markers in ``paragraphs`` (None: maybe more).

    Call it just before the act's one ``paragraphs_changed``/``structure_changed``; the next
    reader then re-reads only those comments, and any change that was not noted still reads
    them all.
    """
    changes = _CHANGES.setdefault(doc, {})
    changes[doc.version] = Change(set(comment_ids), None if paragraphs is None else list(paragraphs))
    for version in [v for v in changes if v < doc.version - _KEPT_CHANGES]:
        del changes[version]


def _changes_since(doc: WordDocument, version: int) -> Change | None:
    """The noted acts that took the document from ``version`` to now, merged (None: some change
    between them was not noted, or the document is older than the records)."""
    if version >= doc.version:
        return None
    changes = _CHANGES.get(doc, {})
    merged = Change(set(), [])
    for step in range(version, doc.version):
        change = changes.get(step)
        if change is None:
            return None
        merged.ids |= change.ids
        if change.paragraphs is None or merged.paragraphs is None:
            merged.paragraphs = None
        else:
            merged.paragraphs.extend(change.paragraphs)
    return merged


def _shape(parts: CommentParts) -> tuple[Any, ...]:
    """The comment parts' roots and their first and last children, cheap to compare (lxml
    counts an element's children one by one, so their number is not)."""
    shape: list[Any] = []
    for root in (parts.comments, parts.extended):
        first = None if root is None else next(root.iterchildren(), None)
        shape.extend((root, first, None if first is None or root is None else root[-1]))
    return tuple(shape)


def _attached(element: etree._Element | None, root: etree._Element) -> bool:
    return element is not None and element.getroottree().getroot() is root


def _update(index: CommentIndex, doc: WordDocument, parts: CommentParts, change: Change) -> bool:
    """Re-read the comments ``change`` names into ``index``; False when that cannot be done
    exactly (the caller then reads everything)."""
    assert index.records is not None and parts.comments is not None
    if change.paragraphs is None or parts.extended is None:
        return False
    if any(not _attached(p, doc.root) for p in change.paragraphs):
        return False
    root = parts.comments
    gone = {i for i in change.ids if i in index.by_id and index.by_id[i].element.getparent() is not root}
    elements = {i: index.by_id[i].element for i in change.ids if i in index.by_id and i not in gone}
    added = [i for i in change.ids if i not in index.by_id]
    if added and not _find_added(root, added, elements, index.by_id):
        return False
    if gone and any(r.id not in gone and (r.thread_id in gone or r.parent_id in gone) for r in index.records):
        return False  # a comment left behind would change thread: read them all
    fresh = {}
    for comment_id, element in elements.items():
        index.texts.pop(element, None)  # its XML changed: a full reading must not trust the text kept
        record = new_record(element, comment_id, *comment_text(element))
        old = index.by_id.get(comment_id)
        if old is not None and old.para_ids != record.para_ids:
            return False  # its thread key moved: entries may now match other comments
        fresh[comment_id] = record
    if not _thread_fresh(fresh, parts.extended, index):
        return False
    if not _anchor_fresh(fresh, index, doc, change.paragraphs):
        return False
    _commit(index, fresh, gone)
    return True


def _find_added(
    root: etree._Element,
    added: list[str],
    elements: dict[str, etree._Element],
    known: dict[str, CommentRecord],
) -> bool:
    """Find the added comments among the last of ``comments.xml`` (writers append them), after
    every comment already known; False when one is elsewhere or missing."""
    wanted = set(added)
    for element in reversed(root):
        if element.tag != W + "comment":
            continue
        comment_id = element.get(W + "id") or ""
        if comment_id not in wanted:
            return False
        wanted.discard(comment_id)
        elements[comment_id] = element
        if not wanted:
            return all(i not in known for i in added)
    return False


def _thread_fresh(fresh: dict[str, CommentRecord], extended: etree._Element, index: CommentIndex) -> bool:
    """``_thread`` for the re-read records: their ``commentEx``, resolved state and thread.

    A known comment's entry is the one it had (a resolve changes it in place); the others'
    were appended by the act, so they are looked for from the end of the part.
    """
    by_para = {r.para_id: r for r in fresh.values() if r.para_id}
    if len(by_para) != len(fresh):
        return False  # a comment without a paraId: matched by a fallback only a full reading has
    for para_id, record in by_para.items():
        holder = index.by_para.get(para_id)
        if holder is not None and holder.id != record.id:
            return False  # two comments share the paraId: the first one keeps the entry
    waiting = dict(by_para)
    for para_id, record in by_para.items():
        old = index.by_id.get(record.id)
        kept = None if old is None else old.extended
        if kept is not None and kept.getparent() is extended and _entry_para(kept) == para_id:
            record.extended = waiting.pop(para_id).extended = kept
    for entry in reversed(extended):
        if not waiting:
            break
        if entry.tag == W15 + "commentEx" and (record := waiting.pop(_entry_para(entry), None)) is not None:
            record.extended = entry
    for record in by_para.values():
        old = index.by_id.get(record.id)
        if old is not None and old.extended is not None and record.extended is not old.extended:
            return False
        if record.extended is None:
            continue
        record.done = on_off(record.extended.get(W15 + "done"), False)
        parent_para = (record.extended.get(W15 + "paraIdParent") or "").upper()
        if parent_para:
            parent = by_para.get(parent_para) or index.by_para.get(parent_para)
            if parent is None:
                return False
            if parent is not record:
                record.parent_id = parent.id
    for record in fresh.values():
        seen = {record.id}
        current = record
        while current.parent_id is not None and current.parent_id not in seen:
            seen.add(current.parent_id)
            current = fresh.get(current.parent_id) or index.by_id[current.parent_id]
        record.thread_id = current.id if current.parent_id is None else record.id
    return True


def _entry_para(entry: etree._Element) -> str:
    return (entry.get(W15 + "paraId") or "").upper()


def _anchor_fresh(
    fresh: dict[str, CommentRecord], index: CommentIndex, doc: WordDocument, paragraphs: list[etree._Element]
) -> bool:
    """Markers of the re-read records: a known comment keeps its own (its act placed none), an
    added one has its markers in the paragraphs the act reported, and gets a rank between its
    neighbours' in document order."""
    for record in fresh.values():
        old = index.by_id.get(record.id)
        if old is not None:
            for name in ("range_start", "range_end", "reference", "anchor_part", "order"):
                setattr(record, name, getattr(old, name))
            if not all(
                _attached(m, doc.root)
                for m in (old.range_start, old.range_end, old.reference)
                if m is not None
            ):
                return False
    added = {r.id: r for r in fresh.values() if r.id not in index.by_id}
    for paragraph in paragraphs:
        for marker in paragraph.iter(*COMMENT_ANCHORS):
            record = added.get(marker.get(W + "id") or "")
            if record is None:
                continue
            if marker.tag == RANGE_START and record.range_start is None:
                record.range_start = marker
            elif marker.tag == RANGE_END and record.range_end is None:
                record.range_end = marker
            elif marker.tag == REFERENCE and record.reference is None:
                record.reference = marker
            record.anchor_part = doc.main_part
    for record in added.values():
        if record.anchor is None:
            return False  # the records kept are all anchored
        if record.is_reply:
            thread_root = fresh.get(record.thread_id) or index.by_id[record.thread_id]
            record.order = thread_root.order
        else:
            record.order = _rank(record.anchor, index)
    return True


def _rank(anchor: etree._Element, index: CommentIndex) -> float:
    """A rank for a new thread's ``anchor`` between the ranks of the threads around it."""
    ranked = _ranked(index)
    where = _position(anchor)
    at = bisect_left(ranked, where, key=lambda r: _position(r.anchor))  # type: ignore[arg-type]
    below = ranked[at - 1].order if at else -1.0
    above = ranked[at].order if at < len(ranked) else (below or 0) + 2.0
    assert below is not None and above is not None
    return (below + above) / 2


def _ranked(index: CommentIndex) -> list[CommentRecord]:
    """The index's anchored threads in ``order``, sorted once and then kept by :func:`_commit`
    (sorting 2,000 threads for every new comment cost ~10 ms)."""
    if index.ranked is None:
        index.ranked = sorted(filter(_is_ranked, index.records or []), key=_order)
    return index.ranked


def _is_ranked(record: CommentRecord) -> bool:
    return not record.is_reply and record.order is not None and record.anchor is not None


def _order(record: CommentRecord) -> float:
    assert record.order is not None
    return record.order


def _rerank(index: CommentIndex, old: CommentRecord | None, new: CommentRecord | None) -> None:
    """Keep ``index.ranked`` in order as ``new`` takes ``old``'s place (either may be None); a
    record not found where its order says (two threads added in one gap share a rank) has the
    list sorted again when next needed."""
    ranked = index.ranked
    if ranked is None:
        return
    if old is not None and _is_ranked(old):
        at = bisect_left(ranked, _order(old), key=_order)
        if at < len(ranked) and ranked[at] is old:
            del ranked[at]
        else:
            index.ranked = None
            return
    if new is not None and _is_ranked(new):
        insort(ranked, new, key=_order)


def _position(element: etree._Element) -> tuple[int, ...]:
    """Where ``element`` is in document order: its index under each ancestor, from the root."""
    path: list[int] = []
    node = element
    while (parent := node.getparent()) is not None:
        path.append(parent.index(node))
        node = parent
    return tuple(reversed(path))


def _commit(index: CommentIndex, fresh: dict[str, CommentRecord], gone: set[str]) -> None:
    """Put the re-read records in place of the old ones and note the threads that changed."""
    assert index.records is not None
    for comment_id in [*fresh, *gone]:
        old = index.by_id.get(comment_id)
        if old is not None:
            index.dirty.add(old.thread_id)
    index.dirty.update(r.thread_id for r in fresh.values())
    records = index.records  # callers got copies of the list: it is changed in place
    added = []
    for record in fresh.values():
        old = index.by_id.get(record.id)
        _rerank(index, old, record)
        if old is None:
            added.append(record)
        else:
            records[records.index(old)] = record
    # the added ones were appended to comments.xml: after the others in file order
    records.extend(sorted(added, key=lambda r: _root_index(r.element)))
    for comment_id in gone:
        record = index.by_id.pop(comment_id)
        _rerank(index, record, None)
        records.remove(record)
        if record.para_id and index.by_para.get(record.para_id) is record:
            del index.by_para[record.para_id]
    for record in fresh.values():
        index.by_id[record.id] = record
        if record.para_id:
            index.by_para[record.para_id] = record


def _root_index(element: etree._Element) -> int:
    parent = element.getparent()
    return -1 if parent is None else parent.index(element)
