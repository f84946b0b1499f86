"""Namespaces, qualified names and the one safe XML parser of the engine.

Every module that touches OOXML takes its namespace URIs and its parser from here, so the
security settings (no entities, no DTD, no network, bounded trees) live in exactly one place.
"""

from __future__ import annotations

from typing import TypeVar

from lxml import etree

_T = TypeVar("_T", bool, None)

NS: dict[str, str] = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "w15": "http://schemas.microsoft.com/office/word/2012/wordml",
    "w16cid": "http://schemas.microsoft.com/office/word/2016/wordml/cid",
    "w16cex": "http://schemas.microsoft.com/office/word/2018/wordml/cex",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "v": "urn:schemas-microsoft-com:vml",
    "m": "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "ct": "http://schemas.openxmlformats.org/package/2006/content-types",
    "pr": "http://schemas.openxmlformats.org/package/2006/relationships",
    "cp": "http://schemas.openxmlformats.org/package/2006/metadata/core-properties",
    "dc": "http://purl.org/dc/elements/1.1/",
    "dcterms": "http://purl.org/dc/terms/",
}

#: The Strict (ISO 29500 strict) WordprocessingML namespace; files using it are refused.
STRICT_W_NS = "http://purl.oclc.org/ooxml/wordprocessingml/main"

W = "{%s}" % NS["w"]
W14 = "{%s}" % NS["w14"]
W15 = "{%s}" % NS["w15"]
R = "{%s}" % NS["r"]
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
MC = "{%s}" % NS["mc"]

#: Relationship type suffixes (the part after ``.../relationships/``), matched by suffix so
#: that the Transitional and the Microsoft variants of a type both resolve.
REL_OFFICE_DOCUMENT = "officeDocument"
REL_STYLES = "styles"
REL_NUMBERING = "numbering"
REL_COMMENTS = "comments"
REL_COMMENTS_EXTENDED = "commentsExtended"
REL_FOOTNOTES = "footnotes"
REL_ENDNOTES = "endnotes"
REL_HEADER = "header"
REL_FOOTER = "footer"
REL_SETTINGS = "settings"
REL_CORE_PROPERTIES = "core-properties"


def qn(tag: str) -> str:
    """Return the Clark name (``{uri}local``) for a prefixed tag such as ``"w:p"``."""
    prefix, local = tag.split(":", 1)
    return "{%s}%s" % (NS[prefix], local)


def w_attr(el: etree._Element, local: str) -> str | None:
    """Return the ``w:``-namespaced attribute ``local`` of ``el`` (``None`` when absent)."""
    return el.get(W + local)


#: The spellings of ST_OnOff (ECMA-376 Part 1, 22.9.2.7: xsd:boolean plus "on" and "off").
_ON = frozenset(("1", "true", "on"))
_OFF = frozenset(("0", "false", "off"))


def on_off(raw: str | None, absent: _T) -> bool | _T:
    """The one on/off rule for every ``w:val``-style flag the engine and the page view read.

    ``raw`` is the attribute as found; ``absent`` is what a missing attribute means where it is read
    (``True`` for ``<w:b/>``, ``False`` for ``w15:done``, ``None`` where "not stated" matters). Case
    and surrounding blanks are ignored; a value that is not an ST_OnOff spelling counts as absent,
    the same leniency ``int_value`` gives junk numbers.
    """
    if raw is None:
        return absent
    value = raw.strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    return absent


def is_on(el: etree._Element | None) -> bool:
    """Read an OOXML on/off property element (``<w:b/>``, ``<w:b w:val="0"/>``): absent means off."""
    return el is not None and on_off(el.get(W + "val"), True)


def int_value(value: str | None) -> int | None:
    """Parse an integer attribute leniently: real files carry junk, which must mean "absent".

    Shared by the style and numbering readers, which read the same kind of ``w:val`` values.
    """
    if value is None:
        return None
    try:
        return int(value.strip())
    except ValueError:
        return None


def int_attr(el: etree._Element | None, name: str) -> int | None:
    """An integer ``w:`` attribute of ``el``, leniently: ``"720.0"`` reads 720, junk reads as absent
    (real files carry both; the block model and the page view read the same attributes)."""
    return None if el is None else lenient_int(el.get(W + name))


def lenient_int(raw: str | None) -> int | None:
    """An attribute value as :func:`int_attr` reads it, for a reader that has the value already."""
    if raw is None:
        return None
    try:
        return int(float(raw))
    except ValueError:
        return None


def first_child(parent: etree._Element, tag: str) -> etree._Element | None:
    """The first child of ``parent`` named ``tag`` (Clark notation), or None: what
    ``parent.find(tag)`` answers, at up to half the cost, for lxml's ``find`` goes through its
    path machinery even for a plain tag (measured on the 300-page contract's paragraphs)."""
    return next(parent.iterchildren(tag), None)


def first_children(parent: etree._Element) -> dict[str, etree._Element]:
    """Each child tag of ``parent`` with its first element, read in one pass: for a reader of
    several properties of one properties element, cheaper than a ``find`` per property."""
    found: dict[str, etree._Element] = {}
    for child in parent:
        found.setdefault(child.tag, child)
    return found


def child_val(parent: etree._Element | None, local: str) -> str | None:
    """Return ``w:val`` of the child ``w:<local>`` of ``parent`` (``None`` if either is absent)."""
    if parent is None:
        return None
    child = first_child(parent, W + local)
    return None if child is None else child.get(W + "val")


def make_parser() -> etree.XMLParser:
    """Build the engine's XML parser: no entity expansion, no DTD, no network, no huge trees.

    ``huge_tree=False`` keeps libxml2's depth and text-node limits on, so a hostile part cannot
    exhaust memory; ``resolve_entities=False`` together with ``load_dtd=False`` means an
    external entity such as ``SYSTEM "file:///etc/passwd"`` is never read.
    """
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,
        remove_comments=False,
        strip_cdata=False,
    )


_PARSER = make_parser()


def parse_xml(data: bytes) -> etree._Element:
    """Parse ``data`` with the safe parser and return the root element.

    Raises ``etree.XMLSyntaxError`` for malformed input and ``ValueError`` when the part
    carries a DOCTYPE (OOXML never needs one; a DOCTYPE is how entity attacks are delivered).
    """
    root = etree.fromstring(data, _PARSER)
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        raise ValueError("part declares a DOCTYPE")
    return root


def serialize_xml(root: etree._Element) -> bytes:
    """Serialize a part the way Word writes it: UTF-8, XML declaration, ``standalone="yes"``."""
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
