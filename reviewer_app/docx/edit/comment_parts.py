"""The five comment parts (ooxml-rules §5.8): found or created, declared, and where changes are recorded.

Word spreads one comment over five parts: its words in ``comments.xml``, its thread and resolved
flag in ``commentsExtended.xml``, a durable id in ``commentsIds.xml``, that id's UTC date in
``commentsExtensible.xml`` and its author in ``people.xml``. A writer needs all five present, each
related from the main part with its content type and declaring the namespaces written into it
(§5.9); this module provides them, and the :class:`Recorder` through which every change to them is
checkpointed inside a batch or reported to the document outside one.
"""

from __future__ import annotations

import posixpath
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from lxml import etree

from .. import journal
from ..comments import note_changed
from ..document import WordDocument
from ..xmlutil import MC, NS, W15, W
from .context import EditContext
from .stamp import keep_stamper, kept_stamper

W16CID = "{%s}" % NS["w16cid"]
W16CEX = "{%s}" % NS["w16cex"]
_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."
_MS_REL = "http://schemas.microsoft.com/office/"


@dataclass(frozen=True, slots=True)
class PartSpec:
    """One comment part as §5.8's table defines it, and the namespaces its root declares (§5.9)."""

    key: str
    file_name: str
    root_tag: str
    rel_type: str
    content_type: str
    prefixes: tuple[str, ...]
    ignorable: tuple[str, ...]


_STD = ("w", "r", "mc")
PART_SPECS: tuple[PartSpec, ...] = (
    PartSpec("comments", "comments.xml", W + "comments",
             "http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments",
             _CT + "comments+xml", (*_STD, "w14"), ("w14",)),
    PartSpec("extended", "commentsExtended.xml", W15 + "commentsEx",
             _MS_REL + "2011/relationships/commentsExtended",
             _CT + "commentsExtended+xml", (*_STD, "w14", "w15"), ("w14", "w15")),
    PartSpec("ids", "commentsIds.xml", W16CID + "commentsIds", _MS_REL + "2016/09/relationships/commentsIds",
             _CT + "commentsIds+xml", (*_STD, "w14", "w16cid"), ("w14", "w16cid")),
    PartSpec("extensible", "commentsExtensible.xml", W16CEX + "commentsExtensible",
             _MS_REL + "2018/08/relationships/commentsExtensible",
             _CT + "commentsExtensible+xml", (*_STD, "w16cex"), ("w16cex",)),
    PartSpec("people", "people.xml", W15 + "people", _MS_REL + "2011/relationships/people",
             _CT + "people+xml", (*_STD, "w14", "w15"), ("w14", "w15")),
)  # fmt: skip
_PART_ROOTS = frozenset(spec.root_tag for spec in PART_SPECS)
_REFERENCE = W + "commentReference"
_MARKERS = frozenset((W + "commentRangeStart", W + "commentRangeEnd", _REFERENCE))

#: Parts created during a batch: their elements need checkpoints (a later operation of the batch
#: may be refused) but must never be reported dirty, since undo removes the whole part first.
_CREATED_IN_BATCH: weakref.WeakKeyDictionary[EditContext, set[str]] = weakref.WeakKeyDictionary()


#: What comment acts outside a batch mint fresh ids from (the writer's stamper and the ids in use),
#: by document, with the version it is true at: seeding it scans every part (~40 ms with 2,000
#: comments), and a person's replies and resolves follow each other. Each act here mints only from
#: it or mints nothing, so :meth:`Recorder.finish` carries it to the version the act makes.
_SEEDS: weakref.WeakKeyDictionary[WordDocument, tuple[int, Any]] = weakref.WeakKeyDictionary()


def kept_seeds(doc: WordDocument) -> Any | None:
    """The seeds kept for ``doc`` when nothing changed it since (else None)."""
    held = _SEEDS.get(doc)
    return held[1] if held is not None and held[0] == doc.version else None


def keep_seeds(doc: WordDocument, seeds: Any) -> None:
    """Keep ``seeds`` for the next comment act on ``doc`` as it is now."""
    _SEEDS[doc] = (doc.version, seeds)


class Recorder:
    """Where a comment writer's changes are recorded.

    With an :class:`EditContext` every change is checkpointed for rollback and undo; without one
    (reply/resolve from the agent's tools) the touched parts are marked dirty by :meth:`finish`
    and the document re-reads what changed in its main story: only the paragraphs that gained or
    lost markers (a reply's range and reference, a deleted comment's) when that is all, else its
    whole structure. The comment ids a writer names (:meth:`note_comments`) tell the comment
    readers which comments to read again.
    """

    def __init__(self, doc: WordDocument, ctx: EditContext | None = None) -> None:
        self.doc = doc
        self.ctx = ctx
        self.dirty: set[str] = set()
        #: main-story paragraphs that only gained or lost comment markers; None once anything else
        #: changed there
        self.paragraphs: list[etree._Element] | None = []
        self.new_parts = _CREATED_IN_BATCH.setdefault(ctx, set()) if ctx is not None else set()
        #: the comments the act changed, noted for the comment readers when it finishes
        self.comment_ids: set[str] = set()

    def touch(self, element: etree._Element, part: str, markers_only: bool = False) -> None:
        """Call before changing an existing ``element`` of ``part``.

        ``markers_only``: the change only adds or removes comment markers (or a run holding
        nothing but a reference) in or under ``element``, so a main-story paragraph holding it
        keeps its text and properties and is all the document needs to read again.
        """
        if self.ctx is None:
            journal.touching(element)
            self.dirty.add(part)
            if part == self.doc.main_part:
                self._paragraph_changed(element if markers_only else None)
        elif part in self.new_parts:
            self.ctx.checkpoints.save(element)
        else:
            self.ctx.touch(element, part)
            if markers_only and part == self.doc.main_part:
                self._batch_paragraph_changed(element)

    def created(self, element: etree._Element, part: str) -> None:
        """Call after inserting the new ``element`` into ``part``."""
        if self.ctx is None:
            journal.created_inside(element)
            self.dirty.add(part)
            if part == self.doc.main_part:
                self._paragraph_changed(next(element.iterancestors(W + "p"), None))
            return
        self.ctx.checkpoints.created(element)
        if part not in self.new_parts:
            self.ctx.checkpoints.dirty_parts.add(part)
        if in_comment_part(element):
            return  # an entry of a comment part: no story changed
        if part == self.doc.main_part and element.tag != W + "p":
            self._batch_paragraph_changed(element)  # a marker: its paragraph is read again
        else:
            self.ctx.mark_structure_changed()

    def _batch_paragraph_changed(self, inside: etree._Element) -> None:
        """In a batch: only the main-story paragraph that is or holds ``inside`` gained or lost
        comment markers, so the snapshot reads that paragraph again (see :func:`snapshot_keeps`)."""
        assert self.ctx is not None
        paragraph = inside if inside.tag == W + "p" else next(inside.iterancestors(W + "p"), None)
        if paragraph is None:
            self.ctx.mark_structure_changed()
        else:
            self.ctx.text_changed(paragraph)

    def _paragraph_changed(self, inside: etree._Element | None) -> None:
        """Note the main-story paragraph that is or holds ``inside`` (None: re-read everything)."""
        if self.paragraphs is None:
            return
        paragraph = (
            inside if inside is None or inside.tag == W + "p" else next(inside.iterancestors(W + "p"), None)
        )
        if paragraph is None:
            self.paragraphs = None
        else:
            self.paragraphs.append(paragraph)

    def note_comments(self, comment_ids: Iterable[str]) -> None:
        """The act changed these comments (see :func:`~reviewer_app.docx.comments.note_changed`)."""
        self.comment_ids.update(comment_ids)

    def part_created(self, name: str) -> None:
        """Call after adding the new part ``name`` (the package already holds it as dirty)."""
        if self.ctx is not None:
            self.ctx.checkpoints.created_parts.append(name)
            self.new_parts.add(name)
            self.ctx.mark_structure_changed()

    def finish(self) -> None:
        """Outside a batch: mark what changed dirty and make later reads see it."""
        if self.ctx is not None:
            return
        for part in self.dirty:
            if self.doc.package.has_part(part):
                self.doc.package.mark_dirty(part)
        self.dirty.clear()
        seeds, stamper = kept_seeds(self.doc), kept_stamper(self.doc)
        paragraphs = None if self.paragraphs is None else list(dict.fromkeys(self.paragraphs))
        if self.comment_ids:
            note_changed(self.doc, self.comment_ids, paragraphs)
        if paragraphs is None:
            self.doc.structure_changed()
        else:  # a paragraph it does not know, or one with fields, still re-reads everything
            self.doc.paragraphs_changed(paragraphs)
        self.paragraphs = []
        self.comment_ids = set()
        if seeds is not None:
            keep_seeds(self.doc, seeds)
        if stamper is not None:
            keep_stamper(self.doc, stamper)


def in_comment_part(element: etree._Element) -> bool:
    """Whether ``element`` belongs to one of the comment parts (no story's block holds it)."""
    return element.getroottree().getroot().tag in _PART_ROOTS


def snapshot_keeps(element: etree._Element, changed: set[etree._Element]) -> bool:
    """Whether a batch that recorded ``element`` leaves the main story's blocks as they were,
    apart from the ``changed`` paragraphs it reports (read again one by one): ``element`` is a
    paragraph, an entry of a comment part, or a comment marker inside one of ``changed``."""
    if element.tag == W + "p" or in_comment_part(element):
        return True
    if element.tag == W + "r":
        marks = [child for child in element if child.tag != W + "rPr"]
        if len(marks) != 1 or marks[0].tag != _REFERENCE:
            return False
    elif element.tag not in _MARKERS:
        return False
    return next(element.iterancestors(W + "p"), None) in changed


# ----------------------------------------------------------------------------- parts
@dataclass(slots=True)
class WritableParts:
    """Names and roots of the comment parts, by :data:`PART_SPECS` key."""

    names: dict[str, str]
    roots: dict[str, etree._Element]


def _declare(root: etree._Element, spec: PartSpec, part: str, rec: Recorder) -> None:
    """Make an existing part's root declare and ignore the extension namespaces we write (§5.9).

    Parts from other tools (docx4j, older Word) may lack ``w14`` or ``mc:Ignorable``; an
    extension attribute declared only where it is used is not ignorable, which a strict consumer
    must treat as an error. Declarations are added to the root in place, so checkpoints and
    other holders of the root stay valid.
    """
    bound = {uri: prefix for prefix, uri in root.nsmap.items() if prefix}
    missing = {p: NS[p] for p in ("mc", *spec.ignorable) if NS[p] not in bound}
    ignorable = (root.get(MC + "Ignorable") or "").split()
    if not missing and all(bound[NS[p]] in ignorable for p in spec.ignorable):
        return
    rec.touch(root, part)
    if missing:
        top = {}
        for prefix, uri in missing.items():
            while prefix in root.nsmap or prefix in top:
                prefix += "x"
            top[prefix] = uri
        keep = {p for el in root.iter() for p in el.nsmap if p} | set(top)
        etree.cleanup_namespaces(root, top_nsmap=top, keep_ns_prefixes=sorted(keep))
        bound = {uri: prefix for prefix, uri in root.nsmap.items() if prefix}
    added = [bound[NS[p]] for p in spec.ignorable if bound[NS[p]] not in ignorable]
    root.set(MC + "Ignorable", " ".join([*ignorable, *added]))


def ensure_comment_parts(
    doc: WordDocument, recorder: Recorder | EditContext | None = None, keys: tuple[str, ...] | None = None
) -> WritableParts:
    """Find the comment parts, creating absent ones with their relationship and content type.

    ``keys`` picks parts by :data:`PART_SPECS` key (default: all five). Existing parts are found
    by relationship type (never by path) and made to declare what is written into them; new
    parts are named beside the main part. With the batch's context (or a :class:`Recorder`) the
    change is checkpointed; with neither it is reported to the document at once.
    """
    rec = recorder if isinstance(recorder, Recorder) else Recorder(doc, recorder)
    package, folder = doc.package, posixpath.dirname(doc.main_part)
    rels = posixpath.join(folder, "_rels", posixpath.basename(doc.main_part) + ".rels")
    found = WritableParts({}, {})
    for spec in PART_SPECS:
        if keys is not None and spec.key not in keys:
            continue
        name = package.related_part(doc.main_part, spec.rel_type.rsplit("/", 1)[-1])
        if name is not None:
            found.names[spec.key], found.roots[spec.key] = name, package.xml(name)
            _declare(found.roots[spec.key], spec, name, rec)
            continue
        name, n = posixpath.join(folder, spec.file_name), 1
        while package.has_part(name):  # a stray part of that name that nothing relates to
            n += 1
            name = posixpath.join(folder, spec.file_name.replace(".xml", f"{n}.xml"))
        rec.touch(package.xml("[Content_Types].xml"), "[Content_Types].xml")
        had_rels = package.has_part(rels)
        if had_rels:
            rec.touch(package.xml(rels), rels)
        root = etree.Element(spec.root_tag, nsmap={p: NS[p] for p in spec.prefixes})
        root.set(MC + "Ignorable", " ".join(spec.ignorable))
        package.put_xml(name, root, spec.content_type)
        rec.part_created(name)
        package.add_relationship(doc.main_part, spec.rel_type, name)
        if not had_rels:
            rec.part_created(rels)
        found.names[spec.key], found.roots[spec.key] = name, root
    if recorder is None:
        rec.finish()
    return found
