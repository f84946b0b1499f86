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
from dataclasses import dataclass

from lxml import etree

from .. import journal
from ..document import WordDocument
from ..xmlutil import MC, NS, W15, W
from .context import EditContext

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

#: Parts created during a batch: their elements need checkpoints (a later operation of the batch
#: may be refused) but must never be reported dirty, since undo removes the whole part first.
_CREATED_IN_BATCH: weakref.WeakKeyDictionary[EditContext, set[str]] = weakref.WeakKeyDictionary()


class Recorder:
    """Where a comment writer's changes are recorded.

    With an :class:`EditContext` every change is checkpointed for rollback and undo; without one
    (reply/resolve from the agent's tools) the touched parts are marked dirty by :meth:`finish`
    and the document re-reads what changed in its main story: only the paragraphs that gained
    markers (a reply's range and reference) when that is all, else its whole structure.
    """

    def __init__(self, doc: WordDocument, ctx: EditContext | None = None) -> None:
        self.doc = doc
        self.ctx = ctx
        self.dirty: set[str] = set()
        #: main-story paragraphs that only gained new elements; None once anything else changed there
        self.paragraphs: list[etree._Element] | None = []
        self.new_parts = _CREATED_IN_BATCH.setdefault(ctx, set()) if ctx is not None else set()

    def touch(self, element: etree._Element, part: str) -> None:
        """Call before changing an existing ``element`` of ``part``."""
        if self.ctx is None:
            journal.touching(element)
            self.dirty.add(part)
            if part == self.doc.main_part:
                self.paragraphs = None
        elif part in self.new_parts:
            self.ctx.checkpoints.save(element)
        else:
            self.ctx.touch(element, part)

    def created(self, element: etree._Element, part: str) -> None:
        """Call after inserting the new ``element`` into ``part``."""
        if self.ctx is None:
            journal.created_inside(element)
            self.dirty.add(part)
            if part == self.doc.main_part and self.paragraphs is not None:
                paragraph = next(element.iterancestors(W + "p"), None)
                if paragraph is None:
                    self.paragraphs = None
                else:
                    self.paragraphs.append(paragraph)
            return
        self.ctx.checkpoints.created(element)
        if part not in self.new_parts:
            self.ctx.checkpoints.dirty_parts.add(part)
        self.ctx.mark_structure_changed()

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
        if self.paragraphs is None:
            self.doc.structure_changed()
        else:  # a paragraph it does not know, or one with fields, still re-reads everything
            self.doc.paragraphs_changed(list(dict.fromkeys(self.paragraphs)))
        self.paragraphs = []


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
