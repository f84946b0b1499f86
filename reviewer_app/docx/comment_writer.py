"""Writing Word comments: new comments, replies and resolved state, over all five comment parts.

Word spreads one comment over five parts (ooxml-rules §5.8): its words in ``comments.xml``, its
thread and resolved flag in ``commentsExtended.xml`` (keyed on the ``w14:paraId`` of its last
paragraph), a durable id in ``commentsIds.xml``, that id's UTC date in
``commentsExtensible.xml``, and its author in ``people.xml``; the anchor is a pair of range
markers plus a reference run in a story. Every writer here keeps all of them consistent, because
the validators cannot see the keys disagree (§5.11) while Word silently loses threads or resolved
state when they do. Finding or creating the parts themselves is :mod:`.edit.comment_parts`.

The same functions serve the edit engine (inside a batch: every change is checkpointed in the
operation's :class:`~.edit.context.EditContext`, so a refused operation, a dry run or an undo
removes it again) and the agent's reply/resolve tools (outside a batch: parts are marked dirty and
the document is told its structure changed, so the next read sees the change).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from .comments import CommentRecord, comment_paragraphs, comment_records
from .document import WordDocument
from .edit.comment_parts import PART_SPECS as PART_SPECS  # re-exported: the parts' table
from .edit.comment_parts import (
    W16CEX,
    W16CID,
    Recorder,
    WritableParts,
    ensure_comment_parts,
    keep_seeds,
    kept_seeds,
)
from .edit.context import EditContext
from .edit.markup import make_runs
from .edit.schema import sanitize_text
from .edit.stamp import Stamper, keep_stamper, utc_now
from .vocabulary import REVISION_WRAPPERS, RUN_CONTAINERS
from .xmlutil import W14, W15, W

_RANGE_START, _RANGE_END, _REFERENCE = W + "commentRangeStart", W + "commentRangeEnd", W + "commentReference"


# ----------------------------------------------------------------------------- content
def initials_of(author: str) -> str:
    """Word-style initials: first letters of the name's words, a parenthesised role left out."""
    letters = [word[0] for word in re.sub(r"\([^)]*\)", " ", author).split() if word[0].isalnum()]
    return "".join(letters).upper()[:9] or author.strip()[:1].upper()


def _reference_run(doc: WordDocument, tag: str, comment_id: str | None = None) -> etree._Element:
    """A run holding ``w:commentReference`` (body) or ``w:annotationRef`` (comment content)."""
    run = etree.Element(W + "r")
    if doc.styles.style_type("CommentReference") == "character":
        etree.SubElement(etree.SubElement(run, W + "rPr"), W + "rStyle", {W + "val": "CommentReference"})
    etree.SubElement(run, tag, {W + "id": comment_id} if comment_id is not None else {})
    return run


def _note_ids(doc: WordDocument) -> set[str]:
    """Footnote and endnote ids: LibreOffice 7.4 shows the wrong note text for a comment whose
    id equals a note's, so comment ids avoid them too."""
    ids: set[str] = set()
    for suffix, tag in (("footnotes", "footnote"), ("endnotes", "endnote")):
        for rel in doc.package.related_parts(doc.main_part, suffix):
            ids.update(el.get(W + "id") or "" for el in doc.package.xml(rel.target).iter(W + tag))
    return ids


@dataclass(slots=True)
class _Seeds:
    """What fresh ids are minted from: the stamper, and the comment and durable ids in use."""

    stamper: Stamper
    taken_ids: set[str]
    durable: set[int]


def _read_seeds(doc: WordDocument, roots: dict[str, etree._Element], stamper: Stamper) -> _Seeds:
    """The comment and durable ids in use in the comment parts ``roots`` (by :data:`PART_SPECS` key)."""
    taken = _note_ids(doc)
    if "comments" in roots:
        taken.update(el.get(W + "id") or "" for el in roots["comments"].iter(W + "comment"))
    durable: set[int] = set()
    for key, ns in (("ids", W16CID), ("extensible", W16CEX)):
        for el in roots.get(key, ()):
            value = el.get(ns + "durableId") or ""
            if re.fullmatch(r"[0-9A-Fa-f]{1,8}", value):
                durable.add(int(value, 16))
    return _Seeds(stamper, taken, durable)


def keep_comment_ids(doc: WordDocument, author: str) -> None:
    """Read the comment, durable and paragraph ids in use while the document opens, so the first
    reply or new comment mints from them instead of scanning every part (~57 ms with 2,000
    comments, paid in the middle of a person's typing). A document without comments has few ids
    and pays nothing here."""
    package = doc.package
    roots = {
        spec.key: package.xml(name)
        for spec in PART_SPECS
        if (name := package.related_part(doc.main_part, spec.rel_type.rsplit("/", 1)[-1])) is not None
    }
    if "comments" not in roots or kept_seeds(doc) is not None:
        return
    stamper = Stamper(doc, author)
    stamper.read_para_ids()
    keep_seeds(doc, _read_seeds(doc, roots, stamper))
    keep_stamper(doc, stamper)


@dataclass(slots=True)
class _Session:
    """One write: the document, where changes are recorded, the parts, and fresh ids."""

    doc: WordDocument
    rec: Recorder
    parts: WritableParts
    seeds: _Seeds
    #: the seeds were read from every comment part, so later acts may mint from them
    complete: bool

    @classmethod
    def open(
        cls, doc: WordDocument, ctx: EditContext | None, author: str, keys: tuple[str, ...] | None = None
    ) -> _Session:
        rec = Recorder(doc, ctx)
        parts = ensure_comment_parts(doc, rec, keys)
        kept = kept_seeds(doc)
        if isinstance(kept, _Seeds) and ctx is not None:
            # the batch mints from its own stamper; the ids in use are those kept until it ends
            return cls(doc, rec, parts, _Seeds(ctx.stamper, kept.taken_ids, kept.durable), complete=False)
        if isinstance(kept, _Seeds):
            kept.stamper.author = author
            return cls(doc, rec, parts, kept, complete=False)  # Recorder.finish carries it on
        stamper = ctx.stamper if ctx is not None else Stamper(doc, author)
        seeds = _read_seeds(doc, parts.roots, stamper)
        return cls(doc, rec, parts, seeds, complete=ctx is None and keys is None)

    @property
    def stamper(self) -> Stamper:
        return self.seeds.stamper

    def finish(self) -> None:
        """Report the act (see :meth:`Recorder.finish`) and keep complete seeds for the next one."""
        self.rec.finish()
        if self.complete:
            keep_seeds(self.doc, self.seeds)
            keep_stamper(self.doc, self.stamper)

    def comment_id(self) -> str:
        """A fresh ``w:id``: above every comment id, equal to no footnote or endnote id."""
        while (value := self.stamper.comment_id()) in self.seeds.taken_ids:
            pass
        self.seeds.taken_ids.add(value)
        return value

    def durable_id(self) -> str:
        """A fresh ``durableId``: 8 hex digits, 0 < id < 0x7FFFFFFF, unused in the package."""
        while (value := int(self.stamper.para_id(), 16)) in self.seeds.durable or value >= 0x7FFFFFFF:
            pass
        self.seeds.durable.add(value)
        return format(value, "08X")

    def append(self, key: str, element: etree._Element) -> None:
        """Add ``element`` as the root's last entry (before a closing ``extLst``, as the schemas order it)."""
        root = self.parts.roots[key]
        last = next(root.iterchildren(reversed=True), None)  # len() would count every entry
        if last is not None and etree.QName(last).localname == "extLst":
            last.addprevious(element)
        else:
            root.append(element)
        self.rec.created(element, self.parts.names[key])

    def comment_element(self, comment_id: str, text: str, author: str, date: str) -> etree._Element:
        """A ``w:comment`` with one paragraph per line of ``text``, each with fresh paraId/textId."""
        comment = etree.Element(W + "comment", {W + "id": comment_id, W + "author": author, W + "date": date})
        if initials := self.doc.chosen_initials.get(author) or initials_of(author):
            comment.set(W + "initials", initials)
        for index, line in enumerate(re.split(r"\r\n|\r|\n", text)):
            p = etree.SubElement(comment, W + "p")
            p.set(W14 + "paraId", self.stamper.para_id())
            p.set(W14 + "textId", self.stamper.para_id())
            if self.doc.styles.style_type("CommentText") == "paragraph":
                etree.SubElement(etree.SubElement(p, W + "pPr"), W + "pStyle", {W + "val": "CommentText"})
            if index == 0:
                p.append(_reference_run(self.doc, W + "annotationRef"))
            if line:
                p.extend(make_runs(line, None))
        return comment

    def write_comment(self, text: str, author: str, date: str, parent_para_id: str | None = None) -> str:
        """Add a comment's entries to all five parts; return its ``w:id``."""
        comment_id, author = self.comment_id(), sanitize_text(author)
        comment = self.comment_element(comment_id, sanitize_text(text), author, date)
        para_id = comment[-1].get(W14 + "paraId")
        self.append("comments", comment)
        parent = {W15 + "paraIdParent": parent_para_id} if parent_para_id else {}
        self.append(
            "extended",
            etree.Element(W15 + "commentEx", {W15 + "paraId": para_id, **parent, W15 + "done": "0"}),
        )
        durable = self.durable_id()
        self.append(
            "ids",
            etree.Element(W16CID + "commentId", {W16CID + "paraId": para_id, W16CID + "durableId": durable}),
        )
        ext = {W16CEX + "durableId": durable, W16CEX + "dateUtc": date}
        self.append("extensible", etree.Element(W16CEX + "commentExtensible", ext))
        if not any(
            el.get(W15 + "author") == author for el in self.parts.roots["people"].iter(W15 + "person")
        ):
            person = etree.Element(W15 + "person", {W15 + "author": author})
            etree.SubElement(
                person, W15 + "presenceInfo", {W15 + "providerId": "None", W15 + "userId": author}
            )
            self.append("people", person)
        return comment_id

    def para_id_of(self, record: CommentRecord) -> str:
        """The record's threading paraId, giving its last paragraph one when it has none."""
        if record.para_id:
            return record.para_id
        paragraphs = comment_paragraphs(record.element)
        if paragraphs:
            last = paragraphs[-1]
            self.rec.touch(last, self.parts.names["comments"])
        else:
            last = etree.SubElement(record.element, W + "p")
            self.rec.created(last, self.parts.names["comments"])
        para_id = self.stamper.para_id()
        last.set(W14 + "paraId", para_id)
        record.para_ids = (*record.para_ids[:-1], para_id) if paragraphs else (para_id,)
        return para_id

    def extended_entry(self, record: CommentRecord) -> etree._Element:
        """The record's ``w15:commentEx`` (created, not done, when missing)."""
        if record.extended is None:
            attrs = {W15 + "paraId": self.para_id_of(record), W15 + "done": "0"}
            record.extended = etree.Element(W15 + "commentEx", attrs)
            self.append("extended", record.extended)
        return record.extended


# ----------------------------------------------------------------------------- anchors
def _lift(el: etree._Element, p: etree._Element, first: bool) -> etree._Element:
    """Step out of wrappers ``el`` opens (``first``) or closes: same anchor, markers at run level."""
    while (parent := el.getparent()) is not None and parent is not p and parent.tag in RUN_CONTAINERS:
        children = [c for c in parent if isinstance(c.tag, str)]
        if children[0 if first else -1] is not el:
            break
        el = parent
    return el


def _outside_revisions(el: etree._Element, p: etree._Element) -> etree._Element:
    """``el`` or its outermost revision-wrapper ancestor below ``p``: a reference run is never tracked."""
    found = el
    for ancestor in el.iterancestors():
        if ancestor is p:
            break
        if ancestor.tag in REVISION_WRAPPERS:
            found = ancestor
    return found


def add_comment(
    doc: WordDocument,
    paragraph: etree._Element,
    text: str,
    author: str,
    date: str | None = None,
    *,
    first: etree._Element | None = None,
    last: etree._Element | None = None,
    part: str | None = None,
    ctx: EditContext | None = None,
) -> str:
    """Comment on ``paragraph`` (of ``part``, default the main part); return the new ``w:id``.

    ``first``/``last`` are the first and last run-level elements of the anchored stretch (runs or
    revision wrappers inside ``paragraph``); without them the whole paragraph is anchored (an
    empty paragraph gets an empty range). Comments are never tracked changes: the reference run
    is kept out of any ``w:ins``/``w:del``.
    """
    session = _Session.open(doc, ctx, author)
    comment_id = session.write_comment(text, author, date or utc_now())
    session.rec.touch(paragraph, part or doc.main_part, markers_only=True)
    session.rec.note_comments((comment_id,))
    start, end = (etree.Element(tag, {W + "id": comment_id}) for tag in (_RANGE_START, _RANGE_END))
    reference = _reference_run(doc, _REFERENCE, comment_id)
    if first is None or last is None:
        ppr = paragraph.find(W + "pPr")
        paragraph.insert(0 if ppr is None else paragraph.index(ppr) + 1, start)
        paragraph.extend((end, reference))
    else:
        _lift(first, paragraph, first=True).addprevious(start)
        _lift(last, paragraph, first=False).addnext(end)
        _outside_revisions(end, paragraph).addnext(reference)
    session.finish()
    return comment_id


def attach_comment(
    ctx: EditContext,
    paragraph: etree._Element,
    start_el: etree._Element | None,
    end_el: etree._Element | None,
    text: str,
) -> str:
    """For operation handlers: comment on ``start_el``..``end_el`` of a main-story paragraph as the
    batch's author and date (None/None = the whole paragraph); return the comment id."""
    return add_comment(
        ctx.doc, paragraph, text, ctx.stamper.author, ctx.stamper.date, first=start_el, last=end_el, ctx=ctx
    )


def _thread_end(el: etree._Element, thread: set[str], starts_only: bool) -> etree._Element:
    """The last of the thread's markers directly after ``el`` (so replies keep their order)."""
    tags = (_RANGE_START,) if starts_only else (_RANGE_START, _RANGE_END, _REFERENCE)
    while (nxt := el.getnext()) is not None:
        marks = [c for c in nxt if c.tag != W + "rPr"] if nxt.tag == W + "r" else [nxt]
        if len(marks) != 1 or marks[0].tag not in tags or marks[0].get(W + "id") not in thread:
            break
        el = nxt
    return el


def _place_reply_markers(session: _Session, root: CommentRecord, thread: set[str], comment_id: str) -> None:
    """The reply's own range on the root's: start beside the root's start, end after its reference."""
    if root.anchor_part is None or root.anchor is None:
        return  # an unanchored root: the reply is unanchored too
    start, end = (etree.Element(tag, {W + "id": comment_id}) for tag in (_RANGE_START, _RANGE_END))
    closing = root.reference if root.reference is not None else root.range_end
    if closing is not None and closing.tag == _REFERENCE and closing.getparent().tag == W + "r":
        closing = closing.getparent()
    if root.range_start is not None:
        _thread_end(root.range_start, thread, starts_only=True).addnext(start)
    if closing is None:  # a range without its end: close the reply right after its start
        start.addnext(end)
    else:
        _thread_end(closing, thread, starts_only=False).addnext(end)
        if root.range_start is None:
            end.addprevious(start)
    placed = [start, end]
    if end.getparent().tag == W + "p" or end.getparent().tag in RUN_CONTAINERS:  # never a run at block level
        end.addnext(_reference_run(session.doc, _REFERENCE, comment_id))
        placed.append(end.getnext())
    for el in placed:
        session.rec.created(el, root.anchor_part)


def reply(
    doc: WordDocument,
    parent_id: str,
    text: str,
    author: str,
    date: str | None = None,
    *,
    ctx: EditContext | None = None,
) -> str | None:
    """Reply to comment ``parent_id`` as a real Word reply; return the reply's id (None: no parent).

    Word threads are flat: a reply to a reply is linked to the thread's root.
    """
    records = comment_records(doc)
    by_id = {r.id: r for r in records}
    parent = by_id.get(str(parent_id))
    if parent is None:
        return None
    root = by_id[parent.thread_id]
    session = _Session.open(doc, ctx, author)
    session.extended_entry(root)
    thread = {r.id for r in records if r.thread_id == root.id}
    comment_id = session.write_comment(text, author, date or utc_now(), session.para_id_of(root))
    _place_reply_markers(session, root, thread, comment_id)
    session.rec.note_comments((root.id, comment_id))
    session.finish()
    return comment_id


def resolve(doc: WordDocument, comment_id: str, resolved: bool, *, ctx: EditContext | None = None) -> bool:
    """Set only comment ``comment_id``'s ``w15:done``; False when there is no such comment."""
    record = next((r for r in comment_records(doc) if r.id == str(comment_id)), None)
    if record is None:
        return False
    session = _Session.open(doc, ctx, record.author, keys=("comments", "extended"))
    entry = session.extended_entry(record)
    value = "1" if resolved else "0"
    if entry.get(W15 + "done") != value:
        session.rec.touch(entry, session.parts.names["extended"])
        entry.set(W15 + "done", value)
    session.rec.note_comments((record.id,))
    session.finish()
    return True
