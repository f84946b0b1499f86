"""Section properties of the two versions: page setup changed is tracked, breaks changed are named.

A section's properties live in its ``w:sectPr`` (a section-ending paragraph's, then the body's own
for the last section). When both versions have as many sections, each pair whose settings differ
(page size, margins, orientation, columns, first-page header, page numbering...) gets the revised
settings with the base's kept in a ``w:sectPrChange`` (ooxml-rules §5.6): accepting keeps the
revised page setup, rejecting restores the base's. Header and footer references stay out of the
change (the schema leaves them out of ``w:sectPrChange``; :mod:`.header_footer` writes those), and
so does the base's ``w:printerSettings``, which points at a part of the base package.

A section break added, removed or put on another paragraph (by the main story's alignment) is
not written as a tracked change yet, so the redline's report names it (a difference left out is
never silent).
"""

from __future__ import annotations

import copy
from typing import Any

from lxml import etree

from ..document import WordDocument
from ..edit.stamp import Stamper
from ..xmlutil import W
from .align import Event

_SECT, _CHANGE, _PRINTER = W + "sectPr", W + "sectPrChange", W + "printerSettings"
#: Children of ``w:sectPr`` that are not page setup: references to other parts, and the change.
REFERENCES = frozenset((W + "headerReference", W + "footerReference"))
_NOT_SETTINGS = REFERENCES | {_CHANGE, _PRINTER}


def section_list(body: etree._Element) -> list[etree._Element]:
    """The ``w:sectPr`` of each section in order: section-ending paragraphs', then the body's."""
    return [s for s in body.iter(_SECT) if s.getparent().tag in (W + "pPr", W + "body")]


def _settings(sect: etree._Element) -> list[etree._Element]:
    return [child for child in sect if isinstance(child.tag, str) and child.tag not in _NOT_SETTINGS]


def _key(children: list[etree._Element]) -> list[bytes]:
    """The settings as comparable bytes (namespace declarations each package makes its own left out)."""
    return [etree.tostring(child, method="c14n", exclusive=True) for child in children]


def _ending(sect: etree._Element) -> etree._Element | None:
    """The paragraph a section break sits on (None for the body's own, last section)."""
    holder = sect.getparent()
    return holder.getparent() if holder is not None and holder.tag == W + "pPr" else None


def _left_out(reason: str) -> list[dict[str, Any]]:
    return [{"reason": reason, "place": {"story": {"type": "main"}}}]


def _breaks_left_out(
    ours: list[etree._Element], theirs: list[etree._Element], events: list[Event]
) -> list[dict[str, Any]]:
    """Section breaks the revised version added, removed or put on another paragraph (by the main
    story's alignment ``events``): named, since they are not written."""
    if len(ours) != len(theirs):
        return _left_out(
            f"the revised version has {len(theirs)} sections where the base has {len(ours)}: "
            "section breaks added or removed are not marked"
        )
    partner = {e.revised.block.element: e.base.block.element for e in events if e.kind == "pair"}
    for sect, other in zip(ours, theirs, strict=True):
        mine, theirs_p = _ending(sect), _ending(other)
        if theirs_p is not None and partner.get(theirs_p) is not mine:
            text = "".join(t.text or "" for t in theirs_p.iter(W + "t"))[:40]
            return _left_out(
                f'the section break after "{text}" is not where the base has it and is not marked'
            )
    return []


def track_section_changes(
    doc: WordDocument, revised: WordDocument, events: list[Event], stamper: Stamper
) -> list[dict[str, Any]]:
    """Write each changed section's revised settings over those of base ``doc``, tracked; return
    the differences left out (``reason`` and ``place``). ``events``: the main story's alignment."""
    ours, theirs = section_list(doc.body), section_list(revised.body)
    left_out = _breaks_left_out(ours, theirs, events)
    if len(ours) != len(theirs):
        return left_out
    for sect, other in zip(ours, theirs, strict=True):
        old, new = _settings(sect), _settings(other)
        if _key(old) == _key(new):
            continue
        kept = [child for child in sect if child.tag in REFERENCES]
        printer = [child for child in sect if child.tag == _PRINTER]
        change = etree.Element(_CHANGE, attrib=stamper.attributes())
        etree.SubElement(change, _SECT).extend(copy.deepcopy(child) for child in old + printer)
        for child in list(sect):
            sect.remove(child)
        sect.extend([*kept, *(copy.deepcopy(child) for child in new), *printer, change])
        doc.package.mark_dirty(doc.main_part)
    return left_out
