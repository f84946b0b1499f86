"""Headers and footers only one version has: their text tracked as Word tracks it.

Word tracks a new header as its text inserted: the header part and its reference from the
section are there either way (the schema keeps header references out of ``w:sectPrChange``), and
rejecting leaves the header empty. So a header or footer only the revised version has is copied
into the redline's package (its pictures with it), referenced from the same section and for the
same pages (default, first, even) as in the revised version, and its paragraphs are marked
inserted; one only the base has keeps its place and has its paragraphs marked deleted, so
accepting leaves it empty.

What cannot be written that way is named, with its place, for the redline's report: a header
whose section the base does not have (the versions' section counts differ), one whose place the
base already fills with another header, one pointing at parts we cannot copy (a link, a part with
relationships of its own).
"""

from __future__ import annotations

import copy
import posixpath
from typing import Any

from lxml import etree

from ..document import WordDocument
from ..edit.stamp import Stamper
from ..package import Package
from ..xmlutil import R, W
from .note_changes import mark_deleted, mark_inserted
from .sections import REFERENCES, section_list
from .stories import Story


def fresh_name(package: Package, name: str) -> str:
    """``name``, or ``name`` with ``_2``, ``_3``… before its extension: a part name ``package``
    does not use yet."""
    stem, ext = posixpath.splitext(name)
    candidate, number = name, 1
    while package.has_part(candidate):
        number += 1
        candidate = f"{stem}_{number}{ext}"
    return candidate


def _uses(doc: WordDocument, rel_id: str) -> list[tuple[int, str, str]]:
    """(section index, reference tag, page type) of each section reference to ``rel_id``."""
    return [
        (index, ref.tag, ref.get(W + "type", "default"))
        for index, sect in enumerate(section_list(doc.body))
        for ref in sect
        if ref.tag in REFERENCES and ref.get(R + "id") == rel_id
    ]


def _left_out(story: dict[str, Any], why: str) -> dict[str, Any]:
    name = "a header" if story["type"] == "header" else "a footer"
    return {"reason": f"{name} only the revised version has is not marked: {why}", "place": {"story": story}}


class HeaderFooterChanges:
    """Writes the headers and footers only one version has into the redline's base document."""

    def __init__(self, doc: WordDocument, revised: WordDocument, stamper: Stamper) -> None:
        self.doc = doc
        self.revised = revised
        self.stamper = stamper

    def delete(self, story: Story) -> None:
        """A header or footer the revised version dropped: its text deleted, tracked."""
        mark_deleted(story.container, self.stamper)
        self.doc.package.mark_dirty(story.part)

    def insert(self, story: Story) -> dict[str, Any] | None:
        """Copy a header or footer only the revised version has into the base, referenced where
        the revised version refers to it, its text inserted; the report entry when it cannot be."""
        uses = _uses(self.revised, story.handle["relationshipId"])
        if not uses:
            return None  # referenced by no section: no page shows it
        sections = section_list(self.doc.body)
        if len(sections) != len(section_list(self.revised.body)):
            return _left_out(story.handle, "the versions do not have the same sections")
        for index, tag, kind in uses:
            if any(ref.tag == tag and ref.get(W + "type", "default") == kind for ref in sections[index]):
                return _left_out(story.handle, f"the base's section {index + 1} has another one there")
        source = self.revised.package
        relations = source.relationships(story.part)
        if any(rel.external or source.has_part(source.relationships_part(rel.target)) for rel in relations):
            return _left_out(story.handle, "it points at links or parts that cannot be copied")
        root = copy.deepcopy(source.xml(story.part))
        part = fresh_name(self.doc.package, story.part)
        self.doc.package.put_xml(part, root, source.content_type(story.part))
        ids: dict[str, str] = {}
        for rel in relations:
            if source.has_part(rel.target):
                name = fresh_name(self.doc.package, rel.target)
                self.doc.package.put_bytes(
                    name, source.read_bytes(rel.target), source.content_type(rel.target)
                )
                ids[rel.rel_id] = self.doc.package.add_relationship(part, rel.rel_type, name)
        for el in root.iter():
            for attr, value in el.attrib.items():
                if attr.startswith(R) and value in ids:
                    el.set(attr, ids[value])
        rel_type = next(
            r.rel_type for r in source.relationships(self.revised.main_part) if r.target == story.part
        )
        rel_id = self.doc.package.add_relationship(self.doc.main_part, rel_type, part)
        for index, tag, kind in uses:
            sect = sections[index]
            at = sum(1 for child in sect if child.tag in REFERENCES)
            sect.insert(at, etree.Element(tag, {W + "type": kind, R + "id": rel_id}))
        mark_inserted(root, self.stamper)
        self.doc.package.mark_dirty(self.doc.main_part)
        return None
