"""Copying a part of the revised package into the redline's with every part it relates to.

A picture is one part; SmartArt is a small graph of them: the drawing names its data, layout,
style and colour parts, the data part relates to the pictures it shows, and its drawn shapes
(the diagram drawing Word and LibreOffice render) relate to pictures of their own. A copy keeps
that graph: each part reached is copied under a name the redline's package does not use yet, and
its relationships part is written for the copy with the *same* relationship ids (the part's XML
names them) pointing at the copies. External links stay links. A part reached twice is copied
once, so a cycle ends.
"""

from __future__ import annotations

import posixpath

from lxml import etree

from ..package import Package
from ..xmlutil import NS
from .header_footer import fresh_name

_PR, _CT = "{%s}" % NS["pr"], "{%s}" % NS["ct"]


def complete(package: Package, part: str, seen: set[str] | None = None) -> bool:
    """Whether ``part`` and every part it relates to, at any depth, are in ``package``."""
    seen = set() if seen is None else seen
    if part in seen:
        return True
    seen.add(part)
    if not package.has_part(part):
        return False
    return all(rel.external or complete(package, rel.target, seen) for rel in package.relationships(part))


class PartCopier:
    """Copies parts of ``source`` into ``target``, each with the parts it relates to (see above)."""

    def __init__(self, source: Package, target: Package) -> None:
        self.source = source
        self.target = target
        self.copies: dict[str, str] = {}

    def copy(self, part: str) -> str:
        """The name of ``part``'s copy in the target package (made on the first call)."""
        name = self.copies.get(part)
        if name is not None:
            return name
        name = self.copies[part] = fresh_name(self.target, part)
        kind = self.source.content_type(part)
        self.target.put_bytes(name, self.source.read_bytes(part), kind)
        if kind is not None and self.target.content_type(name) != kind:
            # a default of the package (application/xml for .xml) would misname it
            types = self.target.xml("[Content_Types].xml")
            etree.SubElement(types, _CT + "Override", PartName="/" + name, ContentType=kind)
            self.target.mark_dirty("[Content_Types].xml")
        relations = self.source.relationships(part)
        if relations:
            root = etree.Element(_PR + "Relationships", nsmap={None: NS["pr"]})
            folder = posixpath.dirname(name)
            for rel in relations:
                attrib = {"Id": rel.rel_id, "Type": rel.rel_type}
                if rel.external:
                    attrib.update(Target=rel.target, TargetMode="External")
                else:
                    attrib["Target"] = posixpath.relpath(self.copy(rel.target), folder)
                etree.SubElement(root, _PR + "Relationship", attrib)
            self.target.put_xml(self.target.relationships_part(name), root)
        return name
