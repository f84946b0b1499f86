"""Footnotes and endnotes only one version has: the note and its reference, tracked as Word does.

Word tracks a note's insertion as the reference run inside ``w:ins`` in the body and the note's
content inserted in the notes part (its runs in ``w:ins``, its paragraph marks inserted); a
removed note is its reference run inside ``w:del`` and its content deleted. Accepting then keeps
or drops the reference (a note nobody refers to is not shown), rejecting does the opposite.

An added note is written when its reference sits in a paragraph the redline paired with a base
paragraph: the reference goes where the revised text has it, counted in characters of the
paragraph's accepted text with note markers left out (the text pass has already made that text
the revised one). A note whose content points to other parts (a picture, a link), or whose
reference sits in a paragraph the redline added, is left out and stays reported, as before, in
``unprocessedStories``. A base without a notes part gets one, with the revised one's separators.

A note both versions have (paired by text, then by id: :func:`.stories.pair_stories`) whose
reference the revised version put elsewhere gets its reference moved: deleted at the old place
and inserted at the new one, both pointing at the same note, so either resolution leaves one.
"""

from __future__ import annotations

import copy
from typing import Any

from lxml import etree

from .. import xmlutil
from ..document import WordDocument
from ..edit.markup import _split_run, delete_runs, insertion_point, pieces_of
from ..edit.ppr import add_mark_revision
from ..edit.rpr import set_property
from ..edit.stamp import Stamper
from ..vocabulary import REVISION_WRAPPERS
from ..xmlutil import R, W
from .align import Event
from .stories import Story

_PARTS = {"footnote": xmlutil.REL_FOOTNOTES, "endnote": xmlutil.REL_ENDNOTES}
_P, _R, _RPR, _INS, _DEL = W + "p", W + "r", W + "rPr", W + "ins", W + "del"
_SEPARATORS = frozenset(("separator", "continuationSeparator", "continuationNotice"))
_REFERENCES = frozenset(W + t for t in ("footnoteReference", "endnoteReference", "footnoteRef", "endnoteRef"))


def _references(root: etree._Element, kind: str, note_id: Any) -> list[etree._Element]:
    """The body's references to note ``note_id`` of ``kind`` (footnote or endnote), in order."""
    return [ref for ref in root.iter(W + f"{kind}Reference") if ref.get(W + "id") == str(note_id)]


def _reference(root: etree._Element, kind: str, note_id: Any) -> etree._Element | None:
    """The body's first reference to note ``note_id`` of ``kind``."""
    found = _references(root, kind, note_id)
    return found[0] if found else None


def _paragraph(el: etree._Element) -> etree._Element | None:
    return next(el.iterancestors(_P), None)


class NoteChanges:
    """Writes the notes only one version has into the redline's base document."""

    def __init__(self, doc: WordDocument, revised: WordDocument, stamper: Stamper) -> None:
        self.doc = doc
        self.revised = revised
        self.stamper = stamper

    def delete(self, note: Story) -> bool:
        """Track the removal of a base note: its reference and its content deleted."""
        kind = note.handle["type"]
        ref = _reference(self.doc.root, kind, note.handle["noteId"])
        p = _paragraph(ref) if ref is not None else None
        if ref is None or p is None or ref.getparent().tag != _R:
            return False
        delete_runs([ref.getparent()], p, self.stamper, tracked=True)
        mark_deleted(note.container, self.stamper)
        self._dirty(kind)
        return True

    def insert(self, note: Story, events: list[Event]) -> bool:
        """Track the insertion of a revised note where the revised text refers to it."""
        kind = note.handle["type"]
        ref = _reference(self.revised.root, kind, note.handle["noteId"])
        revised_p = _paragraph(ref) if ref is not None else None
        if ref is None or revised_p is None:
            return False
        part, notes = self._notes_part(kind)
        if part is None or notes is None:
            return False
        if any(R in name for el in note.container.iter() for name in el.attrib):
            return False  # its content points to parts of the revised package
        base_p = _partner(events, revised_p)
        if base_p is None:
            return False
        new_id = 1 + max((int(n.get(W + "id", "0")) for n in notes.iter(W + kind)), default=0)
        self._insert_reference(base_p, offset_of(revised_p, ref), ref, new_id)
        added = copy.deepcopy(note.container)
        self._fit_styles(added)
        added.set(W + "id", str(new_id))
        mark_inserted(added, self.stamper)
        notes.append(added)
        self.doc.package.mark_dirty(part)
        self.doc.package.mark_dirty(self.doc.main_part)
        return True

    def fill(self, note: Story, revised: Story) -> bool:
        """Give a base note with no paragraph at all (Word keeps one when its text is cut) the
        revised note's paragraphs, inserted: there is nothing in it to anchor them on."""
        if any(R in name for el in revised.container.iter() for name in el.attrib):
            return False  # its content points to parts of the revised package
        for revised_p in revised.container.iter(_P):
            if next(revised_p.iterancestors(_P), None) is None:
                added = copy.deepcopy(revised_p)
                self._fit_styles(added)
                mark_inserted(added, self.stamper)
                note.container.append(added)
        self._dirty(note.handle["type"])
        return True

    def move_reference(self, base: Story, revised: Story, events: list[Event]) -> bool | None:
        """Move a paired note's reference where the revised version has it (deleted at its old
        place, inserted at the new one, pointing at the same note). True when moved, None when
        already in place (at one of its places, for a note referred to twice), False when the
        revised place is in no paired paragraph."""
        kind = base.handle["type"]
        ours = _reference(self.doc.root, kind, base.handle["noteId"])
        if ours is None or ours.getparent().tag != _R or _paragraph(ours) is None:
            return None
        base_p, here = _paragraph(ours), offset_of(_paragraph(ours), ours)
        places = []
        for theirs in _references(self.revised.root, kind, revised.handle["noteId"]):
            revised_p = _paragraph(theirs)
            target = _partner(events, revised_p) if revised_p is not None else None
            offset = offset_of(revised_p, theirs) if revised_p is not None else 0
            if target is base_p and offset == here:
                return None
            places.append((target, offset))
        target, offset = next(((t, o) for t, o in places if t is not None), (None, 0))
        if target is None:
            return False if places else None
        self._insert_reference(target, offset, ours, int(base.handle["noteId"]))
        delete_runs([ours.getparent()], base_p, self.stamper, tracked=True)
        self._dirty(kind)
        return True

    def _insert_reference(self, p: etree._Element, offset: int, like: etree._Element, note_id: int) -> None:
        """A tracked reference to note ``note_id``, ``offset`` characters into ``p``, formatted as
        the reference ``like``."""
        run = etree.Element(_R)
        rpr = like.getparent().find(_RPR) if like.getparent().tag == _R else None
        if rpr is not None:
            run.append(copy.deepcopy(rpr))
        etree.SubElement(run, like.tag, {W + "id": str(note_id)})
        self._fit_styles(run)
        after = place_at(p, offset, self.stamper)
        wrapper = etree.Element(_INS, attrib=self.stamper.attributes())
        wrapper.append(run)
        if after is None:
            ppr = p.find(W + "pPr")
            p.insert(0 if ppr is None else p.index(ppr) + 1, wrapper)
        else:
            after.addnext(wrapper)

    def _notes_part(self, kind: str) -> tuple[str | None, etree._Element | None]:
        """The base's notes part of ``kind``, made from the revised one's separators when the
        base has none (a document gets its footnotes part with its first footnote)."""
        rel = _PARTS[kind]
        part = self.doc.part_name(rel)
        if part is not None:
            return part, self.doc.part_root(rel)
        source = self.revised.part_name(rel)
        if source is None or self.doc.package.has_part(source):
            return None, None
        root = copy.deepcopy(self.revised.package.xml(source))
        for note in list(root):
            if note.get(W + "type") not in _SEPARATORS:
                root.remove(note)
        self.doc.package.put_xml(source, root, self.revised.package.content_type(source))
        rel_type = next(
            r.rel_type
            for r in self.revised.package.relationships(self.revised.main_part)
            if r.target == source
        )
        self.doc.package.add_relationship(self.doc.main_part, rel_type, source)
        return source, root

    def _fit_styles(self, el: etree._Element) -> None:
        """Styles the base does not define are dropped; a note reference keeps its superscript."""
        styles = self.doc.part_root(xmlutil.REL_STYLES)
        known = {s.get(W + "styleId") for s in styles.iter(W + "style")} if styles is not None else set()
        for style in list(el.iter(W + "rStyle", W + "pStyle")):
            if style.get(W + "val") in known:
                continue
            rpr = style.getparent()
            rpr.remove(style)
            run = rpr.getparent()
            if style.tag == W + "rStyle" and run is not None and _is_reference(run):
                set_property(rpr, "vertAlign", {"val": "superscript"})

    def _dirty(self, kind: str) -> None:
        self.doc.package.mark_dirty(self.doc.main_part)
        part = self.doc.part_name(_PARTS[kind])
        if part is not None:
            self.doc.package.mark_dirty(part)


def mark_inserted(container: etree._Element, stamper: Stamper) -> None:
    """Mark ``container``'s paragraphs inserted whole (a new note or header): their runs in
    ``w:ins``, their marks too, so rejecting leaves the story empty."""
    for p in container.iter(_P):
        for r in list(_runs(p)):
            ins = etree.Element(_INS, attrib=stamper.attributes())
            r.addprevious(ins)
            ins.append(r)
        add_mark_revision(p, _INS, stamper.attributes())


def mark_deleted(container: etree._Element, stamper: Stamper) -> None:
    """Mark ``container``'s paragraphs deleted whole (a note or header the revised version
    dropped): their runs in ``w:del``, their marks too, so accepting leaves the story empty."""
    for p in container.iter(_P):
        delete_runs(list(_runs(p)), p, stamper, tracked=True)
        add_mark_revision(p, _DEL, stamper.attributes())


def _partner(events: list[Event], revised_p: etree._Element) -> etree._Element | None:
    """The base paragraph the alignment paired with ``revised_p``."""
    for e in events:
        if e.kind == "pair" and e.revised.block.element is revised_p:
            return e.base.block.element
    return None


def _is_reference(run: etree._Element) -> bool:
    return any(child.tag in _REFERENCES for child in run)


def _runs(p: etree._Element) -> list[etree._Element]:
    """Runs of ``p`` not already inside a revision (runs of runs, such as a box's, left alone)."""
    out = []
    for r in p.iter(_R):
        wrapped = False
        for ancestor in r.iterancestors():
            if ancestor is p:
                break
            wrapped = wrapped or ancestor.tag in REVISION_WRAPPERS or ancestor.tag == _R
        if not wrapped:
            out.append(r)
    return out


def offset_of(p: etree._Element, el: etree._Element) -> int:
    """Characters of ``p``'s accepted text before ``el`` (in document order), note markers not
    counted: where ``el`` sits, in the terms :func:`place_at` reads."""
    order = {node: index for index, node in enumerate(p.iter())}
    here = order.get(el, len(order))
    return sum(
        piece.end - piece.start
        for piece in pieces_of(p).pieces or ()
        if piece.kind != "note" and order.get(piece.element, here) < here
    )


def place_at(p: etree._Element, target: int, stamper: Stamper) -> etree._Element | None:
    """Split ``p``'s runs so a new run can go after the returned element (None: at the start)
    and sit ``target`` characters into the accepted text, note markers not counted."""
    seen = 0
    last: etree._Element | None = None
    for piece in pieces_of(p).pieces or ():
        if piece.kind == "note" or piece.run is None:
            continue
        length = piece.end - piece.start
        if seen + length >= target and target > seen:
            cut = target - seen
            if piece.kind == "text" and cut < length:
                _split_run(piece.run, piece.element, cut)
            elif piece.element.getnext() is not None:
                _split_run(piece.run, piece.element.getnext(), None)
            return insertion_point(piece.run, p, stamper)
        seen += length
        last = piece.run
    return insertion_point(last, p, stamper) if last is not None and target > 0 else None


def note_not_placed(base: dict[str, Any], revised: dict[str, Any]) -> dict[str, Any]:
    """The report of a note whose reference the revised version put in a paragraph it added."""
    return {
        "reason": f"the reference to {base['type']} {base['noteId']} moved into a new paragraph "
        "and is not marked",
        "place": {"story": base, "revisedStory": revised},
    }
