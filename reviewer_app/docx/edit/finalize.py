"""Finalize a reviewed document: accept every change, remove every comment, optionally strip metadata.

This is what a lawyer does before sending the clean version out: nothing of the review may stay
behind. Comments live in up to five parts (ooxml-rules §5.8) plus anchors in every story, so all
of them go: the parts, their relationships from the main part, their content-type overrides and
their own ``.rels``, and every ``commentRangeStart``/``commentRangeEnd`` marker and
``w:commentReference`` run. A part left without its relationship, or an override left for a
missing part, would make the package inconsistent, which validators and Word report.

``settings.xml`` is left alone: ``w:trackRevisions`` is the user's own setting for future edits
(ooxml-rules §5.10), not a pending change.
"""

from __future__ import annotations

import posixpath

from lxml import etree

from .. import xmlutil
from ..document import WordDocument
from ..vocabulary import COMMENT_ANCHORS, REVISION_WRAPPERS
from ..xmlutil import NS, W
from .hidden_data import strip_hidden_data
from .resolve import accept_all

#: Relationship type suffixes of the comment parts (commentsExtended and friends, people.xml).
COMMENT_PART_TYPES = ("comments", "commentsExtended", "commentsIds", "commentsExtensible", "people")
#: Stories that may carry comment anchors.
_ANCHOR_STORIES = ("header", "footer", "footnotes", "endnotes", "glossaryDocument")
_DC = "{%s}" % NS["dc"]
_CP = "{%s}" % NS["cp"]
_DCTERMS = "{%s}" % NS["dcterms"]
_EXTENDED_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/extended-properties}"


def _rels_part(part: str) -> str:
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")


def _anchor_roots(doc: WordDocument) -> list[tuple[str, etree._Element]]:
    roots = [(doc.main_part, doc.root)]
    seen = {doc.main_part}
    for suffix in _ANCHOR_STORIES:
        for rel in doc.package.related_parts(doc.main_part, suffix):
            if rel.target not in seen and rel.target.endswith(".xml"):
                seen.add(rel.target)
                roots.append((rel.target, doc.package.xml(rel.target)))
    return roots


def _remove_anchor(el: etree._Element) -> None:
    """Remove a comment marker; a reference goes with its whole run when the run holds nothing else."""
    target = el
    if el.tag == W + "commentReference":
        run = el.getparent()
        if run is not None and run.tag == W + "r" and all(c is el or c.tag == W + "rPr" for c in run):
            target = run
    parent = target.getparent()
    if parent is None:
        return
    parent.remove(target)
    while parent is not None and parent.tag in REVISION_WRAPPERS and len(parent) == 0:
        grand = parent.getparent()
        if grand is not None:
            grand.remove(parent)
        parent = grand


def remove_comments(doc: WordDocument) -> int:
    """Remove every comment, its anchors and its parts; return how many comments there were."""
    package = doc.package
    comments_part = doc.part_name(xmlutil.REL_COMMENTS)
    count = 0
    if comments_part is not None:
        count = sum(1 for _ in package.xml(comments_part).iterchildren(W + "comment"))
    for part, root in _anchor_roots(doc):
        anchors = list(root.iter(*COMMENT_ANCHORS))
        for el in anchors:
            _remove_anchor(el)
        if anchors:
            package.mark_dirty(part)
    for rel in list(package.relationships(doc.main_part)):
        if rel.external or not any(rel.is_type(suffix) for suffix in COMMENT_PART_TYPES):
            continue
        package.remove_relationship(doc.main_part, rel.rel_id)
        for name in (rel.target, _rels_part(rel.target)):
            if package.has_part(name):
                package.remove_part(name)
            package.remove_content_type_override(name)
    doc.structure_changed()
    return count


def _properties_root(doc: WordDocument, suffix: str) -> tuple[str, etree._Element] | None:
    name = doc.package.related_part("", suffix)
    return (name, doc.package.xml(name)) if name else None


def strip_document_metadata(doc: WordDocument) -> list[str]:
    """Blank the author and timestamp metadata of ``docProps``; return the fields changed.

    Creator and last editor become empty; creation, modification and print dates are removed
    (an empty ``W3CDTF`` date would not be a valid date). ``app.xml`` Company and Manager are
    blanked when present.
    """
    changed: list[str] = []
    core = _properties_root(doc, xmlutil.REL_CORE_PROPERTIES)
    if core is not None:
        name, root = core
        for tag in (_DC + "creator", _CP + "lastModifiedBy"):
            for el in root.iter(tag):
                if el.text:
                    el.text = ""
                    changed.append(etree.QName(tag).localname)
        for tag in (_DCTERMS + "created", _DCTERMS + "modified", _CP + "lastPrinted"):
            for el in list(root.iter(tag)):
                root.remove(el)
                changed.append(etree.QName(tag).localname)
        if changed:
            doc.package.mark_dirty(name)
    app = _properties_root(doc, "extended-properties")
    if app is not None:
        name, root = app
        touched = False
        for tag in ("Company", "Manager"):
            for el in root.iter(_EXTENDED_NS + tag):
                if el.text:
                    el.text = ""
                    changed.append(tag)
                    touched = True
        if touched:
            doc.package.mark_dirty(name)
    return changed


def finalize(doc: WordDocument, strip_metadata: bool = False) -> dict[str, object]:
    """Accept all changes everywhere, remove all comments, and (optionally) strip metadata.

    Returns what was done: ``{"changesAccepted", "commentsRemoved", "metadataCleared"}``.
    """
    accepted = accept_all(doc)
    removed = remove_comments(doc)
    cleared = [*strip_document_metadata(doc), *strip_hidden_data(doc)] if strip_metadata else []
    return {"changesAccepted": accepted, "commentsRemoved": removed, "metadataCleared": cleared}
