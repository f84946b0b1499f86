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
from dataclasses import dataclass
from typing import Any

from lxml import etree

from . import xmlutil
from .document import WordDocument
from .snapshot import Snapshot
from .text import FieldState, NoteNumbers, Piece, paragraph_text
from .xmlutil import W14, W15, W

_RANGE_START = W + "commentRangeStart"
_RANGE_END = W + "commentRangeEnd"
_REFERENCE = W + "commentReference"
_MARKERS = (_RANGE_START, _RANGE_END, _REFERENCE)
_P = W + "p"
#: Stories other than the main one that may carry comment anchors (relationship type suffixes).
_OTHER_STORIES = (xmlutil.REL_HEADER, xmlutil.REL_FOOTER, xmlutil.REL_FOOTNOTES, xmlutil.REL_ENDNOTES)
_TRUE = frozenset(("1", "true", "on"))

#: A comment's text as last read, by ``w:comment`` element and per document: the element's
#: serialization then, its clean text and its paragraphs' paraIds. Reading the text of 2,000
#: comments is most of what listing them costs, and one reply or resolve changes one of them.
_TextCache = dict[etree._Element, tuple[bytes, str, tuple[str, ...]]]


@dataclass(slots=True, eq=False)
class _Listing:
    """The last :func:`comment_records` of a document and what it was read from.

    ``state`` is the document's version (the main story, where the markers are) with the
    comment parts' roots and serializations; ``records`` is None when some comment is anchored
    outside the main story, whose stories the state does not cover.
    """

    state: tuple[Any, ...]
    records: list[CommentRecord] | None
    texts: _TextCache


_LISTINGS: weakref.WeakKeyDictionary[WordDocument, _Listing] = weakref.WeakKeyDictionary()

#: Quotes as last read, by (range start, range end) marker and per document, with what they were
#: read from (:meth:`_Locator.quote_source`): an edit re-reads only the quotes it touched.
_QuoteCache = dict[tuple[etree._Element, etree._Element], tuple[tuple[Any, ...], str]]
_QUOTES: weakref.WeakKeyDictionary[WordDocument, _QuoteCache] = weakref.WeakKeyDictionary()


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
        records.append(
            CommentRecord(
                id=comment_id,
                author=el.get(W + "author") or "",
                initials=el.get(W + "initials"),
                date=el.get(W + "date"),
                text=text,
                element=el,
                para_ids=para_ids,
                thread_id=comment_id,
            )
        )
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
        record.done = (entry.get(W15 + "done") or "").lower() in _TRUE
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
    while neither the main story nor the comment parts changed (a fresh list of the same records:
    a caller that changes a record changes its XML with it, which ends the reuse), and a comment
    whose XML is unchanged keeps the text read before.
    """
    parts = comment_parts(doc)
    if parts.comments is None:
        return []
    state = (
        doc.version,
        parts.comments,
        etree.tostring(parts.comments),
        parts.extended,
        None if parts.extended is None else etree.tostring(parts.extended),
    )
    last = _LISTINGS.get(doc)
    if last is not None and last.records is not None and _same_state(last.state, state):
        return list(last.records)
    records, texts = _read_comments(parts.comments, last.texts if last is not None else {})
    _thread(records, parts.extended)
    _attach_markers(records, doc.body, doc.main_part, ranked=True)
    main_only = all(r.anchor_part is not None for r in records)
    if not main_only:
        for suffix in _OTHER_STORIES:
            for rel in doc.package.related_parts(doc.main_part, suffix):
                _attach_markers(records, doc.package.xml(rel.target), rel.target, ranked=False)
    _LISTINGS[doc] = _Listing(state, list(records) if main_only else None, texts)
    return records


def _same_state(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Equal versions and serializations, and the very same part roots (an undo may swap them)."""
    return all(x is y or (not isinstance(x, etree._Element) and x == y) for x, y in zip(a, b, strict=True))


class _Locator:
    """Maps a marker in the main story to (block index, clean-text offset) through a snapshot."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.blocks = snapshot.blocks
        self.index: dict[etree._Element, int] = {
            b.element: i for i, b in enumerate(snapshot.blocks) if b.element is not None
        }
        self._pieces: dict[int, tuple[str, list[Piece]]] = {}
        self._order: dict[int, dict[etree._Element, int]] = {}
        self._sources: dict[int, tuple[bytes, str, tuple[int, int]] | None] = {}
        self._walked = False

    # ------------------------------------------------------------- text
    def text_and_pieces(self, i: int) -> tuple[str, list[Piece]]:
        """Clean text of block ``i`` with its pieces, as the block walker read it."""
        cached = self._pieces.get(i)
        if cached is not None:
            return cached
        block = self.blocks[i]
        assert block.element is not None
        got = paragraph_text(block.element, FieldState(), NoteNumbers(*block.notes_before), collect=True)
        if got.text != block.text and not self._walked:
            # a field opened in an earlier paragraph changes what this one shows: read in order
            self._walk_all()
            return self._pieces[i]
        result = (got.text, got.pieces or [])
        self._pieces[i] = result
        return result

    def _walk_all(self) -> None:
        fields, notes = FieldState(), NoteNumbers()
        for i, block in enumerate(self.blocks):
            if block.element is None:
                continue
            got = paragraph_text(block.element, fields, notes, collect=True)
            self._pieces[i] = (got.text, got.pieces or [])
        self._walked = True

    def offset(self, i: int, marker: etree._Element) -> int:
        """Clean-text offset of ``marker`` inside block ``i``: the end of the text before it."""
        order = self._order.get(i)
        if order is None:
            element = self.blocks[i].element
            assert element is not None
            order = {el: n for n, el in enumerate(element.iter())}
            self._order[i] = order
        position = order[marker]
        _, pieces = self.text_and_pieces(i)
        return max((p.end for p in pieces if order[p.element] < position), default=0)

    # ------------------------------------------------------------- position
    def containing(self, marker: etree._Element) -> tuple[int | None, bool]:
        """(block index holding ``marker``, whether it sits inside any paragraph at all)."""
        in_paragraph = False
        for ancestor in marker.iterancestors():
            found = self.index.get(ancestor)
            if found is not None:
                return found, True
            if ancestor.tag == _P:
                in_paragraph = True
        return None, in_paragraph

    def neighbour(self, marker: etree._Element, forward: bool) -> int | None:
        """The first block after (or last block before) ``marker`` in document order."""
        node: etree._Element | None = marker
        while node is not None:
            for sibling in node.itersiblings(preceding=not forward):
                if not isinstance(sibling.tag, str):
                    continue
                candidates = [sibling] if sibling.tag == _P else list(sibling.iter(_P))
                if not forward:
                    candidates.reverse()
                for p in candidates:
                    found = self.index.get(p)
                    if found is not None:
                        return found
            node = node.getparent()
        return None

    def start(self, marker: etree._Element) -> tuple[int, int] | None:
        """Where a range opening at ``marker`` begins: (block, offset)."""
        block, _ = self.containing(marker)
        if block is not None:
            return block, self.offset(block, marker)
        following = self.neighbour(marker, forward=True)
        return None if following is None else (following, 0)

    def end(self, marker: etree._Element) -> tuple[int, int] | None:
        """Where a range closing at ``marker`` ends: (block, offset)."""
        block, _ = self.containing(marker)
        if block is not None:
            return block, self.offset(block, marker)
        preceding = self.neighbour(marker, forward=False)
        if preceding is None:
            return None
        return preceding, len(self.text_and_pieces(preceding)[0])

    def quote(self, start: etree._Element, end: etree._Element) -> str:
        """Clean text between two markers; paragraphs joined by ``"\\n"``; "" when empty or reversed."""
        first, last = self.start(start), self.end(end)
        if first is None or last is None or first > last:
            return ""
        parts: list[str] = []
        for i in range(first[0], last[0] + 1):
            if self.blocks[i].element is None:
                continue  # diagnostic blocks carry no text of the document
            text, _ = self.text_and_pieces(i)
            lo = first[1] if i == first[0] else 0
            hi = last[1] if i == last[0] else len(text)
            parts.append(text[lo:hi])
        return "\n".join(parts)

    def quote_source(self, start: etree._Element, end: etree._Element) -> tuple[Any, ...]:
        """What :meth:`quote` reads for these markers: each block from the one holding (or
        following) ``start`` to the one holding (or preceding) ``end``, as its XML, its text and
        the note numbers before it. Equal sources give equal quotes, whatever else changed."""
        first, _ = self.containing(start)
        if first is None:
            first = self.neighbour(start, forward=True)
        last, _ = self.containing(end)
        if last is None:
            last = self.neighbour(end, forward=False)
        if first is None or last is None:
            return ()
        return tuple(self._source(i) for i in range(first, last + 1))

    def _source(self, i: int) -> tuple[bytes, str, tuple[int, int]] | None:
        if i not in self._sources:
            block = self.blocks[i]
            element = block.element
            self._sources[i] = (
                None if element is None else (etree.tostring(element), block.text, block.notes_before)
            )
        return self._sources[i]

    def block_id(self, marker: etree._Element) -> str | None:
        """Block holding ``marker``; a marker between paragraphs belongs to the next block."""
        block, in_paragraph = self.containing(marker)
        if block is None and not in_paragraph:
            block = self.neighbour(marker, forward=True)
        return None if block is None else self.blocks[block].id


def _sort_key(record: CommentRecord) -> tuple[int, int, int, str]:
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
    """
    records = comment_records(doc)
    locator = _Locator(snapshot)
    known = _QUOTES.get(doc, {})
    quotes: _QuoteCache = {}
    replies: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        if record.is_reply:
            replies.setdefault(record.thread_id, []).append(
                {"id": record.id, "author": record.author, "text": record.text}
            )
    out: list[dict[str, Any]] = []
    for record in sorted((r for r in records if not r.is_reply), key=_sort_key):
        block_id: str | None = None
        quote = ""
        if record.anchor_part == doc.main_part:
            anchor = record.anchor
            if anchor is not None:
                block_id = locator.block_id(anchor)
            if record.range_start is not None and record.range_end is not None:
                markers = (record.range_start, record.range_end)
                source = locator.quote_source(*markers)
                cached = known.get(markers)
                quote = cached[1] if cached is not None and cached[0] == source else locator.quote(*markers)
                quotes[markers] = (source, quote)
        out.append(
            {
                "id": record.id,
                "author": record.author,
                "text": record.text,
                "resolved": record.done,
                "blockId": block_id,
                "quote": quote,
                "replies": replies.get(record.id, []),
            }
        )
    _QUOTES[doc] = quotes
    return out


def comment_dates(doc: WordDocument) -> dict[str, str | None]:
    """``w:date`` of every comment (replies too) by id, as written (ISO 8601, often without a zone).

    The person reviewing wants to know when each comment was made, but :func:`list_comments` is the
    model's ``read_comments`` shape, which drops dates (contract §8); the desktop panel reads them here.
    """
    return {record.id: record.date for record in comment_records(doc)}
