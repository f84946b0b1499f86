"""Comments (contract §8): one record per ``w:comment`` for the edit engine, threads for the model.

Word keeps a comment in four places: its content in ``comments.xml``, its threading and resolved
state in ``commentsExtended.xml`` (keyed on the ``w14:paraId`` of the comment's *last* paragraph,
not on ``w:id``), and its anchor as ``commentRangeStart``/``commentRangeEnd`` markers plus a
``commentReference`` run in a story. :func:`comment_records` joins the four once, so reply and
resolve (which must write the same keys back) and :func:`list_comments` (what ``read_comments``
shows the model) can never disagree about which comment is which.

Quotes are clean text (accepted view, see :mod:`.text`): what the reader sees once pending changes
are accepted, so a quote the model copies matches what ``read_document`` showed it.
"""

from __future__ import annotations

import weakref
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from . import xmlutil
from .comment_anchors import Locator as _Locator
from .document import WordDocument
from .snapshot import Snapshot
from .text import FieldState, NoteNumbers, paragraph_text
from .xmlutil import W14, W15, W, on_off

_RANGE_START = W + "commentRangeStart"
_RANGE_END = W + "commentRangeEnd"
_REFERENCE = W + "commentReference"
_MARKERS = (_RANGE_START, _RANGE_END, _REFERENCE)
_P = W + "p"
#: Stories other than the main one that may carry comment anchors (relationship type suffixes).
_OTHER_STORIES = (xmlutil.REL_HEADER, xmlutil.REL_FOOTER, xmlutil.REL_FOOTNOTES, xmlutil.REL_ENDNOTES)

#: A comment's text as last read, by ``w:comment`` element and per document: the element's
#: serialization then, its clean text and its paragraphs' paraIds. Reading the text of 2,000
#: comments is most of what listing them costs, and one reply or resolve changes one of them.
_TextCache = dict[etree._Element, tuple[bytes, str, tuple[str, ...]]]

#: Quotes as last read, by (range start, range end) marker and per document, with what they were
#: read from (:meth:`_Locator.quote_source`): an edit re-reads only the quotes it touched.
_QuoteCache = dict[tuple[etree._Element, etree._Element], tuple[tuple[Any, ...], str]]


@dataclass(slots=True)
class _Change:
    """What one comment act changed (see :func:`note_changed`)."""

    ids: set[str]
    paragraphs: list[etree._Element] | None


@dataclass(slots=True, eq=False)
class _Listing:
    """The threads :func:`list_comments` made last, in order, and what each was read from.

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
class _Index:
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
    texts: _TextCache
    by_id: dict[str, CommentRecord]
    by_para: dict[str, CommentRecord]
    dirty: set[str] = field(default_factory=set)
    listing: _Listing | None = None
    quotes: _QuoteCache = field(default_factory=dict)
    #: the threads listed before a full reading, by id: one listed the same again is the same dict
    listed_before: dict[str, dict[str, Any]] = field(default_factory=dict)


_INDEXES: weakref.WeakKeyDictionary[WordDocument, _Index] = weakref.WeakKeyDictionary()
#: Comment acts by the document version they started from (see :func:`note_changed`).
_CHANGES: weakref.WeakKeyDictionary[WordDocument, dict[int, _Change]] = weakref.WeakKeyDictionary()
#: How many acts are remembered for a reader that has not caught up yet.
_KEPT_CHANGES = 32
#: More changed blocks than this and the listing is made afresh rather than patched.
_PATCH_BLOCKS = 64


@dataclass(slots=True, eq=False)
class CommentRecord:
    """Everything known about one ``w:comment``; the edit engine writes back through these elements.

    ``para_ids`` are the ``w14:paraId`` values of the comment's paragraphs in order (``""`` where a
    paragraph has none); threading uses the last one. ``parent_id`` is the ``w:id`` of the comment
    this one replies to, ``thread_id`` the ``w:id`` of its thread's root (itself for a top-level
    comment): Word threads are flat, so a reply to a reply is shown under the root. ``order`` is the
    document-order rank of the anchor in the main story (None when it is anchored elsewhere or not
    at all); ``anchor_part`` names the part holding the markers.
    """

    id: str
    author: str
    initials: str | None
    date: str | None
    text: str
    element: etree._Element
    para_ids: tuple[str, ...]
    extended: etree._Element | None = None
    done: bool = False
    parent_id: str | None = None
    thread_id: str = ""
    range_start: etree._Element | None = None
    range_end: etree._Element | None = None
    reference: etree._Element | None = None
    anchor_part: str | None = None
    order: int | None = None

    @property
    def para_id(self) -> str | None:
        """The threading key: ``w14:paraId`` of the last paragraph (None when it has none)."""
        return self.para_ids[-1] if self.para_ids and self.para_ids[-1] else None

    @property
    def is_reply(self) -> bool:
        """True when the comment is shown inside another comment's thread."""
        return self.thread_id != self.id

    @property
    def anchor(self) -> etree._Element | None:
        """The element that places the comment: its range start, else its reference run."""
        return self.range_start if self.range_start is not None else self.reference


@dataclass(slots=True)
class CommentParts:
    """The comment parts of a document, found through the main part's relationships."""

    comments_part: str | None
    comments: etree._Element | None
    extended_part: str | None
    extended: etree._Element | None


def comment_parts(doc: WordDocument) -> CommentParts:
    """Locate ``comments.xml`` and ``commentsExtended.xml`` by relationship type, never by path."""
    comments_part = doc.part_name(xmlutil.REL_COMMENTS)
    extended_part = doc.part_name(xmlutil.REL_COMMENTS_EXTENDED)
    return CommentParts(
        comments_part,
        doc.package.xml(comments_part) if comments_part else None,
        extended_part,
        doc.package.xml(extended_part) if extended_part else None,
    )


def comment_paragraphs(container: etree._Element) -> list[etree._Element]:
    """The ``w:p`` of a comment (or any container) in reading order, text-box paragraphs excluded.

    Paragraphs are not descended into, so a paragraph inside a drawing inside a paragraph is
    never read twice; tables and content controls inside a comment are walked through.
    """
    found: list[etree._Element] = []
    for child in container:
        if not isinstance(child.tag, str):
            continue
        if child.tag == _P:
            found.append(child)
        else:
            found.extend(comment_paragraphs(child))
    return found


def _comment_text(comment: etree._Element) -> tuple[str, tuple[str, ...]]:
    """Clean text of a comment (paragraphs joined by ``"\\n"``) and its paragraphs' paraIds."""
    fields, notes = FieldState(), NoteNumbers()
    texts: list[str] = []
    para_ids: list[str] = []
    for p in comment_paragraphs(comment):
        texts.append(paragraph_text(p, fields, notes).text)
        para_ids.append((p.get(W14 + "paraId") or "").upper())
    return "\n".join(texts), tuple(para_ids)


def _read_comments(root: etree._Element, known: _TextCache) -> tuple[list[CommentRecord], _TextCache]:
    """One record per ``w:comment`` in file order; a repeated ``w:id`` keeps the first (as Word does).

    A comment whose XML is as it was in ``known`` keeps the text read then (comparing the
    serialization is far cheaper than reading the text again, and safe against any edit in
    place); returns the records and the texts of the comments there are now.
    """
    records: list[CommentRecord] = []
    seen: set[str] = set()
    texts: _TextCache = {}
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
            text, para_ids = _comment_text(el)
        texts[el] = (xml, text, para_ids)
        records.append(_record(el, comment_id, text, para_ids))
    return records, texts


def _record(element: etree._Element, comment_id: str, text: str, para_ids: tuple[str, ...]) -> CommentRecord:
    """A top-level record of ``element`` (:func:`_thread` and the markers fill in the rest)."""
    return CommentRecord(
        id=comment_id,
        author=element.get(W + "author") or "",
        initials=element.get(W + "initials"),
        date=element.get(W + "date"),
        text=text,
        element=element,
        para_ids=para_ids,
        thread_id=comment_id,
    )


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
    for marker in root.iter(*_MARKERS):
        record = by_id.get(marker.get(W + "id") or "")
        if record is None:
            continue
        if marker.tag == _RANGE_START:
            if record.range_start is not None:
                continue
            record.range_start = marker
        elif marker.tag == _RANGE_END:
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
        _INDEXES.pop(doc, None)  # an undo may have taken the part away: nothing read before holds
        return []
    index = _INDEXES.get(doc)
    shape = _shape(parts)
    if index is not None and index.records is not None and index.shape[::3] == shape[::3]:
        if index.version == doc.version and index.shape == shape:
            return list(index.records)
        change = _changes_since(doc, index.version)
        if change is not None and _update(index, doc, parts, change):
            index.version, index.shape = doc.version, shape
            return list(index.records)
    records, texts = _read_comments(parts.comments, index.texts if index is not None else {})
    _thread(records, parts.extended)
    _attach_markers(records, doc.body, doc.main_part, ranked=True)
    main_only = all(r.anchor_part is not None for r in records)
    if not main_only:
        for suffix in _OTHER_STORIES:
            for rel in doc.package.related_parts(doc.main_part, suffix):
                _attach_markers(records, doc.package.xml(rel.target), rel.target, ranked=False)
    by_para: dict[str, CommentRecord] = {}
    for record in records:
        if record.para_id:
            by_para.setdefault(record.para_id, record)
    _INDEXES[doc] = _Index(
        version=doc.version,
        shape=shape,
        records=list(records) if main_only else None,
        texts=texts,
        by_id={r.id: r for r in records},
        by_para=by_para,
        quotes=index.quotes if index is not None else {},
        listed_before=_listed(index),
    )
    return records


def _listed(index: _Index | None) -> dict[str, dict[str, Any]]:
    listing = None if index is None else index.listing
    return {} if listing is None else {entry["id"]: entry for entry in listing.threads}


def note_changed(doc: WordDocument, comment_ids: set[str], paragraphs: list[etree._Element] | None) -> None:
    """A comment act is about to report its change to ``doc``: it changed the entries, thread
    links and resolved state of ``comment_ids`` alone (added, replied to, resolved or deleted
    them), and of the main story only the markers in ``paragraphs`` (None: maybe more).

    Call it just before the act's one ``paragraphs_changed``/``structure_changed``; the next
    reader then re-reads only those comments, and any change that was not noted still reads
    them all.
    """
    changes = _CHANGES.setdefault(doc, {})
    changes[doc.version] = _Change(set(comment_ids), None if paragraphs is None else list(paragraphs))
    for version in [v for v in changes if v < doc.version - _KEPT_CHANGES]:
        del changes[version]


def _changes_since(doc: WordDocument, version: int) -> _Change | None:
    """The noted acts that took the document from ``version`` to now, merged (None: some change
    between them was not noted, or the document is older than the records)."""
    if version >= doc.version:
        return None
    changes = _CHANGES.get(doc, {})
    merged = _Change(set(), [])
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


def _update(index: _Index, doc: WordDocument, parts: CommentParts, change: _Change) -> bool:
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
        record = _record(element, comment_id, *_comment_text(element))
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


def _thread_fresh(fresh: dict[str, CommentRecord], extended: etree._Element, index: _Index) -> bool:
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
    fresh: dict[str, CommentRecord], index: _Index, doc: WordDocument, paragraphs: list[etree._Element]
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
        for marker in paragraph.iter(*_MARKERS):
            record = added.get(marker.get(W + "id") or "")
            if record is None:
                continue
            if marker.tag == _RANGE_START and record.range_start is None:
                record.range_start = marker
            elif marker.tag == _RANGE_END and record.range_end is None:
                record.range_end = marker
            elif marker.tag == _REFERENCE and record.reference is None:
                record.reference = marker
            record.anchor_part = doc.main_part
    for record in added.values():
        if record.anchor is None:
            return False  # the records kept are all anchored
        if record.is_reply:
            thread_root = fresh.get(record.thread_id) or index.by_id[record.thread_id]
            record.order = thread_root.order
        else:
            record.order = _rank(record.anchor, index.records or [], doc.root)
    return True


def _rank(anchor: etree._Element, records: list[CommentRecord], root: etree._Element) -> float:
    """A rank for a new thread's ``anchor`` between the ranks of the threads around it."""
    ranked = sorted(
        (r for r in records if not r.is_reply and r.order is not None and r.anchor is not None),
        key=lambda r: r.order,  # type: ignore[arg-type, return-value]
    )
    where = _position(anchor)
    at = bisect_left(ranked, where, key=lambda r: _position(r.anchor))  # type: ignore[arg-type]
    below = ranked[at - 1].order if at else -1.0
    above = ranked[at].order if at < len(ranked) else (below or 0) + 2.0
    assert below is not None and above is not None
    return (below + above) / 2


def _position(element: etree._Element) -> tuple[int, ...]:
    """Where ``element`` is in document order: its index under each ancestor, from the root."""
    path: list[int] = []
    node = element
    while (parent := node.getparent()) is not None:
        path.append(parent.index(node))
        node = parent
    return tuple(reversed(path))


def _commit(index: _Index, fresh: dict[str, CommentRecord], gone: set[str]) -> None:
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
        if old is None:
            added.append(record)
        else:
            records[records.index(old)] = record
    # the added ones were appended to comments.xml: after the others in file order
    records.extend(sorted(added, key=lambda r: _root_index(r.element)))
    for comment_id in gone:
        record = index.by_id.pop(comment_id)
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


def _sort_key(record: CommentRecord) -> tuple[int, float, int, str]:
    """Anchored comments in document order first, then the rest by numeric id."""
    if record.order is not None:
        return (0, record.order, 0, "")
    numeric = int(record.id) if record.id.isdigit() else -1
    return (1, 0, numeric, record.id)


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
    records = comment_records(doc)
    index = _INDEXES.get(doc)
    if index is None:
        return []
    listing = _patched(index, doc, snapshot, records) if index.records is not None else None
    if listing is None:
        listing = _listing(index, doc, snapshot, records)
    return list(listing.threads)


def _thread_entry(
    record: CommentRecord,
    replies: list[dict[str, Any]],
    doc: WordDocument,
    locator: _Locator,
    index: _Index,
    quotes: _QuoteCache,
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


def _listing(index: _Index, doc: WordDocument, snapshot: Snapshot, records: list[CommentRecord]) -> _Listing:
    """Every thread read afresh (quotes whose blocks are unchanged are kept)."""
    locator = _Locator(snapshot)
    quotes: _QuoteCache = {}
    replies = _replies_by_thread(records, None)
    previous = index.listed_before or _listed(index)
    listing = _Listing(list(snapshot.blocks), [], [], {}, {}, {})
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


def _place_span(listing: _Listing, thread_id: str, span: tuple[int, int] | None) -> None:
    old = listing.spans.pop(thread_id, None)
    if old is not None:
        for i in range(old[0], old[1] + 1):
            listing.by_block[i].discard(thread_id)
    if span is not None:
        listing.spans[thread_id] = span
        for i in range(span[0], span[1] + 1):
            listing.by_block.setdefault(i, set()).add(thread_id)


def _patched(
    index: _Index, doc: WordDocument, snapshot: Snapshot, records: list[CommentRecord]
) -> _Listing | None:
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
    locator = _Locator(snapshot)
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


def comment_dates(doc: WordDocument) -> dict[str, str | None]:
    """``w:date`` of every comment (replies too) by id, as written (ISO 8601, often without a zone).

    The person reviewing wants to know when each comment was made, but :func:`list_comments` is the
    model's ``read_comments`` shape, which drops dates (contract §8); the desktop panel reads them here.
    """
    return {record.id: record.date for record in comment_records(doc)}
